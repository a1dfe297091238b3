//! Hart model details: `sijump` (`ingressPort.adoc` `JumpClasses`, sequentially
//! inferable jumps), stores into code (the decoded-instruction cache), LR/SC and AMOs
//! (A extension), division corner cases (M extension).

mod hart_common;

use etrace_hart::HartConfig;
use etrace_spec::ingress::{Itype, ItypeWidth};
use hart_common::{run, run_with, TARGETS};

/// (label, itype with width 4, itype with width 3, sijump)
const JUMPS: &[(&str, Itype, Itype, bool)] = &[
    (
        "si_call",
        Itype::UninferableCall,
        Itype::UninferableJump3,
        true,
    ),
    ("si_func", Itype::Return, Itype::UninferableJump3, false),
    (
        "si_jump",
        Itype::UninferableJump,
        Itype::UninferableJump3,
        true,
    ),
    (
        "nosi_call",
        Itype::UninferableCall,
        Itype::UninferableJump3,
        false,
    ),
];

#[test]
fn ingress_sijump_for_sequentially_inferable_jumps() {
    for target in TARGETS {
        let r4 = run("misc", target);
        let r3 = run_with(
            "misc",
            target,
            HartConfig {
                itype_width: ItypeWidth::W3,
                ..HartConfig::default()
            },
        );
        for &(label, w4, w3, sijump) in JUMPS {
            let a = r4.record_at(label);
            let b = r3.record_at(label);
            assert_eq!(
                (a.itype, a.sijump),
                (w4, sijump),
                "{target} {label} width 4"
            );
            assert_eq!(
                (b.itype, b.sijump),
                (w3, sijump),
                "{target} {label} width 3"
            );
        }
        assert_eq!(r4.records.iter().filter(|(rec, _)| rec.sijump).count(), 2);
    }
}

#[test]
fn store_into_code_atomics_and_division() {
    for target in TARGETS {
        let r = run("misc", target);
        assert_eq!(r.outcome().exit_code, 0, "{target}");
        let h = &r.hart;
        let min = if target == "rv32" {
            0xffff_ffff_8000_0000
        } else {
            0x8000_0000_0000_0000
        };
        // (register, value)
        let expected: &[(usize, u64)] = &[
            (9, 1 + 5),                  // s1: original then patched instruction
            (19, 0),                     // s3: sc.w succeeded
            (20, 1),                     // s4: sc.w without reservation
            (21, 11),                    // s5: amomin.w old value
            (22, -5i64 as u64),          // s6: amomaxu.w old value
            (23, -5i64 as u64),          // s7: memory
            (24, u64::MAX),              // s8: -1 / 0
            (25, u64::MAX),              // s9: -1 % 0
            (26, min),                   // s10: MIN / -1
            (27, 0),                     // s11: MIN % -1
            (12, 0xffff_ffff_ffff_fffe), // a2: mulhu(-1, -1)
            (13, 0),                     // a3: mulh(-1, -1)
            (14, u64::MAX),              // a4: mulhsu(-1, -1)
        ];
        for &(i, v) in expected {
            assert_eq!(h.x(i), v, "{target}: x{i}");
        }
        // The patched instruction was executed from the new bits.
        let patched: Vec<u32> = r
            .records
            .iter()
            .filter(|(rec, _)| rec.iaddr == r.at("patch"))
            .map(|&(_, insn)| insn)
            .collect();
        assert_eq!(patched, vec![0x0010_0513, 0x0050_0513], "{target}");
    }
}
