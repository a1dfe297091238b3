//! Runs every program of `programs/manifest.toml` (both targets) on the hart model and
//! checks what the manifest says about the run: exit code, console output, retired
//! instruction range, trap-return counts, itypes (`ingressPort.adoc` `tab:itype`), traps
//! by cause / privilege, privilege levels visited, branch runs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use etrace_hart::{Hart, HartConfig};
use etrace_spec::ingress::{IngressRecord, Itype, Privilege};

fn programs_dir() -> PathBuf {
    etrace_programs::dir()
}

fn priv_name(p: Privilege) -> &'static str {
    match p {
        Privilege::User => "U",
        Privilege::Supervisor => "S",
        Privilege::Machine => "M",
        _ => "?",
    }
}

/// What one run looked like, gathered from the ingress records.
#[derive(Default)]
struct Observed {
    itypes: BTreeSet<u8>,
    mret: u64,
    sret: u64,
    /// (cause, interrupt, from, to) -> count
    traps: BTreeMap<(u64, bool, String, String), u64>,
    privileges: Vec<String>,
    longest_branch_run: u64,
}

fn observe(records: &[(IngressRecord, u32)]) -> Observed {
    let mut o = Observed::default();
    let mut pending_trap: Option<(u64, bool, String)> = None;
    let mut run = 0u64;
    for (rec, insn) in records {
        let p = priv_name(rec.privilege).to_string();
        if let Some((cause, interrupt, from)) = pending_trap.take() {
            *o.traps
                .entry((cause, interrupt, from, p.clone()))
                .or_default() += 1;
        }
        if !o.privileges.contains(&p) {
            o.privileges.push(p.clone());
        }
        if rec.itype != Itype::None {
            o.itypes.insert(rec.itype.code());
        }
        if rec.itype.is_trap() {
            pending_trap = Some((rec.cause, rec.interrupt, p.clone()));
        }
        if rec.itype == Itype::TrapReturn {
            match insn {
                0x3020_0073 => o.mret += 1,
                0x1020_0073 => o.sret += 1,
                _ => {}
            }
        }
        if rec.itype.is_branch() {
            run += 1;
            o.longest_branch_run = o.longest_branch_run.max(run);
        } else if rec.itype.is_uninferable_discon() || rec.itype.is_trap() {
            run = 0;
        }
    }
    o
}

#[test]
fn manifest_programs_run_as_described() {
    let programs = etrace_programs::manifest_tables(&programs_dir()).unwrap();
    assert!(!programs.is_empty());
    let mut checked = 0;
    for prog in &programs {
        let name = prog["name"].as_str().expect("name");
        for target in ["rv32", "rv64"] {
            let what = format!("{name}-{target}");
            let path = programs_dir().join(format!("elf/{what}.elf"));
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let config = HartConfig {
                max_instructions: 10_000_000,
                ..HartConfig::default()
            };
            let config = etrace_programs::hart_config(&what, config).unwrap();
            let mut hart = Hart::from_elf(&bytes, config).unwrap_or_else(|e| panic!("{what}: {e}"));
            let mut records: Vec<(IngressRecord, u32)> = Vec::new();
            let outcome = hart
                .run(&mut records)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let o = observe(&records);

            let int = |key: &str| prog.get(key).and_then(|v| v.as_integer()).map(|v| v as u64);
            assert_eq!(
                Some(outcome.exit_code),
                int("exit_code"),
                "{what}: exit code"
            );
            assert_eq!(
                hart.console(),
                prog["console"].as_str().unwrap_or(""),
                "{what}: console"
            );
            let (lo, hi) = (int("instret_min").unwrap(), int("instret_max").unwrap());
            assert!(
                (lo..=hi).contains(&outcome.retired),
                "{what}: {} retired, expected {lo}..={hi}",
                outcome.retired
            );
            let xret = prog.get("xret");
            let count = |k: &str| {
                xret.and_then(|x| x.get(k))
                    .and_then(|v| v.as_integer())
                    .unwrap_or(0) as u64
            };
            assert_eq!(
                (o.mret, o.sret),
                (count("mret"), count("sret")),
                "{what}: xret"
            );
            let itypes: BTreeSet<u8> = prog["itypes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_integer().unwrap() as u8)
                .collect();
            assert_eq!(o.itypes, itypes, "{what}: itypes");
            let privileges: Vec<String> = prog["privileges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            assert_eq!(o.privileges, privileges, "{what}: privileges");
            let mut traps = BTreeMap::new();
            for t in prog
                .get("trap")
                .and_then(|t| t.as_array())
                .into_iter()
                .flatten()
            {
                let key = (
                    t["cause"].as_integer().unwrap() as u64,
                    t["interrupt"].as_bool().unwrap(),
                    t["from"].as_str().unwrap().to_string(),
                    t["to"].as_str().unwrap().to_string(),
                );
                traps.insert(key, t["count"].as_integer().unwrap() as u64);
            }
            assert_eq!(o.traps, traps, "{what}: traps");
            let total: u64 = traps.values().sum();
            assert_eq!(
                outcome.exceptions() + outcome.interrupts(),
                total,
                "{what}: trap total"
            );
            if let Some(min) = int("branch_run_min") {
                assert!(
                    o.longest_branch_run >= min,
                    "{what}: longest branch run {} < {min}",
                    o.longest_branch_run
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * programs.len());
}
