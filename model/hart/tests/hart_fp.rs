//! F and D on the hart model (unprivileged ISA chapters "F", "D"): loads, `fadd.d`,
//! `fmadd.d`, `feq.d`, `fmv.w.x`, NaN-boxing of singles, conversions, accrued flags,
//! `mstatus.FS` becoming Dirty.

mod hart_common;

use hart_common::{run, TARGETS};

#[test]
fn fp_operations_nan_boxing_and_flags() {
    let fmadd = 1.5f64.mul_add(2.25, 0.1).to_bits();
    for target in TARGETS {
        let r = run("fp", target);
        assert_eq!(r.outcome().exit_code, 0, "{target}");
        let h = &r.hart;
        // (register, expected 64-bit image)
        let f_regs: &[(usize, u64)] = &[
            (1, 1.5f64.to_bits()),
            (2, 2.25f64.to_bits()),
            (3, 3.75f64.to_bits()),
            (5, fmadd),
            (6, 0xffff_ffff_3fc0_0000),
            (7, 1.5f64.to_bits()),
            (8, 0xffff_ffff_7fc0_0000),
            (9, f64::INFINITY.to_bits()),
            (10, 0),
        ];
        for &(i, v) in f_regs {
            assert_eq!(h.f(i), v, "{target}: f{i}");
        }
        // s2..s8 = x18..x24
        let x_regs: &[(usize, u64)] = &[
            (18, 1),      // feq.d equal
            (19, 0),      // feq.d different
            (20, 1),      // fcvt.d.s of the boxed 1.5f
            (21, 1 << 9), // fclass.s: quiet NaN
            (22, 3),      // fcvt.w.d rtz
            (23, 4),      // fcvt.w.d rup
            (24, 0x9),    // fflags: NX | DZ
        ];
        for &(i, v) in x_regs {
            assert_eq!(h.x(i), v, "{target}: x{i}");
        }
        let mstatus = h.x(25);
        assert_eq!((mstatus >> 13) & 3, 3, "{target}: mstatus.FS dirty");
        assert_eq!(
            mstatus >> 63,
            1,
            "{target}: mstatus.SD (sign-extended on RV32)"
        );
        let out = h.read_memory(r.at("out"), 20).unwrap();
        assert_eq!(out[0..8], 3.75f64.to_bits().to_le_bytes(), "{target}");
        assert_eq!(out[8..16], fmadd.to_le_bytes(), "{target}");
        assert_eq!(out[16..20], 0x3fc0_0000u32.to_le_bytes(), "{target}");
    }
}
