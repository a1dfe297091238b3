//! CSR behaviour of the hart model, spike-compatible (privileged ISA "Control and Status
//! Registers"; `docs/spike.md`): counter writes take effect after
//! the writing instruction, WARL fields (`mstatus.MPP`, `mtvec.MODE`, `mie`, `mip`,
//! `medeleg`, `mideleg`, `satp.MODE`), counter enables from U, FP CSRs trap while
//! `mstatus.FS` is Off, an invalid dynamic rounding mode traps.

mod hart_common;

use etrace_spec::ingress::Itype;
use hart_common::{run, TARGETS};

#[test]
fn csr_values_and_access_rules() {
    for target in TARGETS {
        let rv64 = target == "rv64";
        let r = run("csr", target);
        assert_eq!(r.outcome().exit_code, 0, "{target}");
        let bytes = if rv64 { 8 } else { 4 };
        let word = |base: u64, i: u64| {
            let b = r.hart.read_memory(base + i * bytes, bytes).unwrap();
            let mut v = [0u8; 8];
            v[..bytes as usize].copy_from_slice(b);
            u64::from_le_bytes(v)
        };
        let out = r.at("out");
        let misa = if rv64 {
            0x8000_0000_0014_112d
        } else {
            0x4014_112d
        };
        // (slot, value)
        let expected: &[(u64, u64)] = &[
            (0, 100),                       // minstret right after writing it
            (1, 1001),                      // mcycle one instruction after writing it
            (2, misa),                      // RV32/64 I M A F D C S U
            (3, 0),                         // mstatus.MPP = 2 reads as U
            (4, 1),                         // mtvec.MODE = 3 reads as 1
            (5, 0xaaa),                     // mie writable bits
            (6, 0x2a2),  // mip: SSIP STIP SEIP writable, MTIP (mtime >= mtimecmp = 0)
            (7, 0xb3ff), // medeleg delegable exceptions
            (8, 0x222),  // mideleg delegable interrupts
            (9, 5),      // marchid: spike
            (10, 0),     // satp: only Bare
            (11, 0xff),  // fcsr
            (12, 7),     // frm
            (14, if rv64 { 6 } else { 5 }), // traps taken
        ];
        for &(slot, value) in expected {
            assert_eq!(word(out, slot), value, "{target}: out[{slot}]");
        }
        // instret read from U: 100 plus the instructions completed since the write
        // (ecall/ebreak excluded, as spike's minstret).
        let from = r.index_at("c_minstret") + 1;
        let to = r.index_at("c_u_instret");
        let completed = r.records[from..to]
            .iter()
            .filter(|(rec, _)| rec.iretire == 1 && rec.itype != Itype::Exception)
            .count() as u64;
        assert_eq!(word(out, 13), 100 + completed, "{target}: instret");
        // The traps, in order.
        let mut causes = vec![2, 2, 2, 8, 8];
        if rv64 {
            causes.push(2);
        }
        for (i, &c) in causes.iter().enumerate() {
            assert_eq!(word(r.at("causes"), i as u64), c, "{target}: trap {i}");
        }
        for label in ["c_fcsr_off", "c_badrm", "c_u_cycle"] {
            let rec = r.record_at(label);
            assert_eq!(
                (rec.iretire, rec.itype, rec.cause),
                (0, Itype::Exception, 2),
                "{label}"
            );
            assert_eq!(rec.tval, r.insn_at(label), "{target} {label}: tval");
        }
        let cycleh = r.record_at("c_cycleh");
        assert_eq!(cycleh.itype == Itype::Exception, rv64, "{target}: cycleh");
    }
}
