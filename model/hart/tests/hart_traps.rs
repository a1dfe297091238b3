//! Synchronous exceptions on the hart model and how they appear in the ingress stream
//! (`ingressPort.adoc` `tab:itype` codes 1; conventions of `etrace_spec::ingress`):
//! `ecall`/`ebreak`/`c.ebreak` retire with itype 1, every other exception is a record
//! with `iretire = 0` at the faulting address; `cause`/`tval` as written to
//! `mcause`/`mtval` (spike's values: instruction bits for illegal instructions, the pc
//! for breakpoints, the address for access and misaligned faults).

mod hart_common;

use etrace_hart::HartConfig;
use etrace_spec::ingress::{Itype, ItypeWidth, Privilege};
use hart_common::{run, run_with, TARGETS};

#[derive(Clone, Copy)]
enum Tval {
    /// The instruction bits at the label.
    Insn,
    /// The label's address.
    Pc,
    Value(u64),
}

/// (label of the trapping instruction, or "" for the fetch fault at 0x4000_0000,
///  iretire, cause, tval, instruction size in bytes)
const TRAPS: &[(&str, u8, u64, Tval, u64)] = &[
    ("t_illegal", 0, 2, Tval::Insn, 4),
    ("t_cillegal", 0, 2, Tval::Value(0), 2),
    ("t_ebreak", 1, 3, Tval::Pc, 4),
    ("t_cebreak", 1, 3, Tval::Pc, 2),
    ("t_ecall", 1, 11, Tval::Value(0), 4),
    ("t_lmis", 0, 4, Tval::Value(0x8000_1001), 4),
    ("t_smis", 0, 6, Tval::Value(0x8000_1001), 4),
    ("t_amomis", 0, 6, Tval::Value(0x8000_1001), 4),
    ("t_lacc", 0, 5, Tval::Value(0x10), 4),
    ("t_sacc", 0, 7, Tval::Value(0x10), 4),
    ("", 0, 1, Tval::Value(0x4000_0000), 4),
    ("t_pmpcfg", 0, 2, Tval::Insn, 4),
    ("t_pmpaddr", 0, 2, Tval::Insn, 4),
    ("t_ro", 0, 2, Tval::Insn, 4),
    ("t_fp", 0, 2, Tval::Insn, 4),
];

#[test]
fn ingress_exception_records_of_every_trap_kind() {
    for target in TARGETS {
        let r = run("traps", target);
        let outcome = r.outcome();
        assert_eq!(outcome.exit_code, 0, "{target}");
        let trap_records: Vec<_> = r
            .records
            .iter()
            .filter(|(rec, _)| rec.itype == Itype::Exception)
            .collect();
        assert_eq!(trap_records.len(), TRAPS.len(), "{target}: trap records");
        let log_base = r.at("log");
        let xlen_bytes = if target == "rv32" { 4 } else { 8 };
        for (i, (&(label, iretire, cause, tval, size), (rec, _))) in
            TRAPS.iter().zip(&trap_records).enumerate()
        {
            let addr = if label.is_empty() {
                0x4000_0000
            } else {
                r.at(label)
            };
            let tval = match tval {
                Tval::Insn => r.insn_at(label),
                Tval::Pc => addr,
                Tval::Value(v) => v,
            };
            let what = format!("{target} {label} (trap {i})");
            assert_eq!(rec.iaddr, addr, "{what}: iaddr");
            assert_eq!(rec.iretire, iretire, "{what}: iretire");
            assert_eq!(rec.cause, cause, "{what}: cause");
            assert_eq!(rec.tval, tval, "{what}: tval");
            assert!(!rec.interrupt, "{what}: interrupt");
            assert_eq!(rec.privilege, Privilege::Machine, "{what}: priv");
            if iretire == 1 || label == "t_cillegal" {
                assert_eq!(rec.instruction_size(), size, "{what}: ilastsize");
            }
            // The handler logged mcause, mtval, mepc.
            let log = r
                .hart
                .read_memory(log_base + 3 * xlen_bytes * i as u64, 3 * xlen_bytes)
                .unwrap();
            let word = |k: usize| {
                let mut b = [0u8; 8];
                b[..xlen_bytes as usize]
                    .copy_from_slice(&log[k * xlen_bytes as usize..(k + 1) * xlen_bytes as usize]);
                u64::from_le_bytes(b)
            };
            assert_eq!(
                (word(0), word(1), word(2)),
                (cause, tval, addr),
                "{what}: log"
            );
        }
        // Every trap went to the handler: the record after each one is there.
        let handler = r.at("handler");
        for (i, (rec, _)) in r.records.iter().enumerate() {
            if rec.itype == Itype::Exception {
                assert_eq!(
                    r.records[i + 1].0.iaddr,
                    handler,
                    "{target}: after trap {i}"
                );
            }
        }
        assert_eq!(outcome.exceptions(), TRAPS.len() as u64, "{target}");
        for (cause, count) in [
            (1, 1),
            (2, 6),
            (3, 2),
            (4, 1),
            (5, 1),
            (6, 2),
            (7, 1),
            (11, 1),
        ] {
            assert_eq!(
                outcome.trap_count(false, cause),
                count,
                "{target}: cause {cause}"
            );
        }
        assert_eq!(outcome.interrupts(), 0);
        assert_eq!(outcome.privilege_changes, 0);
        // The call whose target faults retired as an uninferable call.
        let call = r.record_at("t_call");
        assert_eq!(
            (call.iretire, call.itype),
            (1, Itype::UninferableCall),
            "{target}"
        );
        // ecall/ebreak count as retired records but not in minstret (as spike).
        let mret_count = r
            .records
            .iter()
            .filter(|(rec, _)| rec.itype == Itype::TrapReturn)
            .count();
        assert_eq!(mret_count, TRAPS.len(), "{target}: mret per trap");
    }
}

#[test]
fn ingress_itype_width3_in_records() {
    for target in TARGETS {
        let config = HartConfig {
            itype_width: ItypeWidth::W3,
            max_instructions: 1_000_000,
            ..HartConfig::default()
        };
        let r = run_with("traps", target, config);
        let call = r.record_at("t_call");
        assert_eq!(call.itype, Itype::UninferableJump3, "{target}");
        assert!(r
            .records
            .iter()
            .all(|(rec, _)| rec.itype.fits_width(ItypeWidth::W3)));
    }
}
