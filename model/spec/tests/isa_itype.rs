//! `ingressPort.adoc` table `tab:itype` and section `JumpClasses`: the itype of every
//! control-flow instruction shape, for `itype_width_p` 3 and 4, plus the `decoder.adoc`
//! predicates and jump targets. Encodings checked with `riscv64-unknown-elf-as`.

use etrace_spec::ingress::{Itype, ItypeWidth};
use etrace_spec::isa::{decode, JumpClass, Op, Xlen};
use JumpClass::*;
use Xlen::{X32, X64};

/// (assembly, raw, xlen, size, itype with width 3, itype with width 4, jump class)
#[rustfmt::skip]
const JUMPS: &[(&str, u32, Xlen, u8, u8, u8, JumpClass)] = &[
    ("jal x0", 0x0080_006f, X32, 4, 0, 11, JumpNoLinkage),
    ("jal x1", 0x0080_00ef, X32, 4, 0, 9, Call),
    ("jal x5", 0x0080_02ef, X32, 4, 0, 9, Call),
    ("jal x7", 0xff9f_f3ef, X32, 4, 0, 15, OtherWithLinkage),
    ("jal x1 (rv64)", 0x0080_00ef, X64, 4, 0, 9, Call),
    ("jalr x0, 0(x1)", 0x0000_8067, X32, 4, 6, 13, Return),
    ("jalr x0, 0(x5)", 0x0002_8067, X32, 4, 6, 13, Return),
    ("jalr x0, 0(x6)", 0x0003_0067, X32, 4, 6, 10, JumpNoLinkage),
    ("jalr x0, -12(x6)", 0xff43_0067, X64, 4, 6, 10, JumpNoLinkage),
    ("jalr x1, 0(x6)", 0x0003_00e7, X32, 4, 6, 8, Call),
    ("jalr x5, 0(x6)", 0x0003_02e7, X32, 4, 6, 8, Call),
    ("jalr x1, 0(x1)", 0x0000_80e7, X32, 4, 6, 8, Call),
    ("jalr x5, 0(x5)", 0x0002_82e7, X32, 4, 6, 8, Call),
    ("jalr x1, 0(x5)", 0x0002_80e7, X32, 4, 6, 12, CoroutineSwap),
    ("jalr x5, 0(x1)", 0x0000_82e7, X64, 4, 6, 12, CoroutineSwap),
    ("jalr x7, 0(x6)", 0x0003_03e7, X32, 4, 6, 14, OtherWithLinkage),
    ("jalr x7, 0(x1)", 0x0000_83e7, X32, 4, 6, 13, Return),
    ("jalr x7, 0(x5)", 0x0002_83e7, X64, 4, 6, 13, Return),
    ("jalr x0, 16(x0)", 0x0100_0067, X32, 4, 0, 11, JumpNoLinkage),
    ("jalr x1, 16(x0)", 0x0100_00e7, X32, 4, 0, 9, Call),
    ("jalr x7, 16(x0)", 0x0100_03e7, X32, 4, 0, 15, OtherWithLinkage),
    ("jalr x5, -4(x0)", 0xffc0_02e7, X64, 4, 0, 9, Call),
    ("c.j", 0xa029, X32, 2, 0, 11, JumpNoLinkage),
    ("c.j (rv64)", 0xa029, X64, 2, 0, 11, JumpNoLinkage),
    ("c.jal", 0x3fed, X32, 2, 0, 9, Call),
    ("c.jr x1", 0x8082, X32, 2, 6, 13, Return),
    ("c.jr x5", 0x8282, X64, 2, 6, 13, Return),
    ("c.jr x6", 0x8302, X32, 2, 6, 10, JumpNoLinkage),
    ("c.jalr x1", 0x9082, X32, 2, 6, 8, Call),
    ("c.jalr x5", 0x9282, X64, 2, 6, 12, CoroutineSwap),
    ("c.jalr x6", 0x9302, X32, 2, 6, 8, Call),
];

#[test]
fn ingressport_itype_of_jumps_width3_and_width4() {
    for &(asm, raw, xlen, size, w3, w4, class) in JUMPS {
        let d = decode(raw, xlen);
        assert_eq!(d.size, size, "{asm}: size");
        assert_eq!(d.jump_class(), class, "{asm}: jump class");
        for taken in [false, true] {
            assert_eq!(
                d.itype(taken, ItypeWidth::W3).code(),
                w3,
                "{asm}: itype width 3"
            );
            assert_eq!(
                d.itype(taken, ItypeWidth::W4).code(),
                w4,
                "{asm}: itype width 4"
            );
        }
        assert_eq!(
            d.is_uninferable_jump(),
            w3 == 6,
            "{asm}: is_uninferable_jump"
        );
        assert_eq!(d.is_inferable_jump(), w3 == 0, "{asm}: is_inferable_jump");
        assert_eq!(
            d.is_uninferable_discon(),
            w3 == 6,
            "{asm}: is_uninferable_discon"
        );
        assert!(!d.is_branch(), "{asm}: is_branch");
    }
}

/// (assembly, raw, xlen, size) of the branches: itype 4 not taken, 5 taken, any width.
const BRANCHES: &[(&str, u32, Xlen, u8)] = &[
    ("beq", 0x0020_8863, X32, 4),
    ("bne", 0xfe20_98e3, X32, 4),
    ("blt", 0x0020_c863, X64, 4),
    ("bge", 0x0020_d863, X32, 4),
    ("bltu", 0x0020_e863, X64, 4),
    ("bgeu", 0x0020_f863, X32, 4),
    ("c.beqz", 0xc411, X32, 2),
    ("c.bnez", 0xf8f5, X64, 2),
];

#[test]
fn ingressport_itype_of_branches() {
    for &(asm, raw, xlen, size) in BRANCHES {
        let d = decode(raw, xlen);
        assert_eq!(d.size, size, "{asm}");
        assert!(d.is_branch(), "{asm}");
        assert_eq!(d.jump_class(), NotAJump, "{asm}");
        for w in [ItypeWidth::W3, ItypeWidth::W4] {
            assert_eq!(d.itype(false, w), Itype::NontakenBranch, "{asm}");
            assert_eq!(d.itype(true, w), Itype::TakenBranch, "{asm}");
        }
        assert!(
            !d.is_uninferable_discon() && !d.is_inferable_jump(),
            "{asm}"
        );
    }
}

/// (assembly, raw, xlen, itype at both widths, is_return_from_trap, is_ecall_or_ebreak)
const OTHERS: &[(&str, u32, Xlen, u8, bool, bool)] = &[
    ("mret", 0x3020_0073, X32, 3, true, false),
    ("sret", 0x1020_0073, X64, 3, true, false),
    ("uret", 0x0020_0073, X32, 3, true, false),
    ("dret", 0x7b20_0073, X64, 3, true, false),
    ("ecall", 0x0000_0073, X32, 0, false, true),
    ("ebreak", 0x0010_0073, X64, 0, false, true),
    ("c.ebreak", 0x9002, X32, 0, false, true),
    ("wfi", 0x1050_0073, X32, 0, false, false),
    ("fence.i", 0x0000_100f, X32, 0, false, false),
    ("auipc x6", 0x1234_5317, X32, 0, false, false),
    ("lui x6", 0x1234_5337, X64, 0, false, false),
    ("sfence.vma", 0x1200_0073, X64, 0, false, false),
    (
        "c.jal encoding on rv64 is c.addiw",
        0x3fed,
        X64,
        0,
        false,
        false,
    ),
    ("c.mv x6, x7", 0x831e, X32, 0, false, false),
    ("c.add x6, x7", 0x931e, X64, 0, false, false),
];

#[test]
fn ingressport_itype_of_other_instructions() {
    for &(asm, raw, xlen, itype, xret, ecall) in OTHERS {
        let d = decode(raw, xlen);
        for w in [ItypeWidth::W3, ItypeWidth::W4] {
            for taken in [false, true] {
                assert_eq!(d.itype(taken, w).code(), itype, "{asm}");
            }
        }
        assert_eq!(d.is_return_from_trap(), xret, "{asm}");
        assert_eq!(d.is_uninferable_discon(), xret, "{asm}");
        assert_eq!(d.is_ecall_or_ebreak(), ecall, "{asm}");
        assert_eq!(d.jump_class(), NotAJump, "{asm}");
    }
}

/// `decoder.adoc` `is_call` and `is_implicit_return`: (assembly, raw, xlen, is_call,
/// is_implicit_return_shape).
const CALLS: &[(&str, u32, Xlen, bool, bool)] = &[
    ("jal x1", 0x0080_00ef, X32, true, false),
    ("jal x5", 0x0080_02ef, X32, false, false),
    ("jal x0", 0x0080_006f, X32, false, false),
    ("jalr x1, 0(x6)", 0x0003_00e7, X32, true, false),
    ("jalr x1, 0(x5)", 0x0002_80e7, X32, true, false),
    ("jalr x5, 0(x6)", 0x0003_02e7, X32, false, false),
    ("jalr x0, 0(x1)", 0x0000_8067, X32, false, true),
    ("jalr x0, 0(x5)", 0x0002_8067, X32, false, false),
    ("jalr x7, 0(x1)", 0x0000_83e7, X32, false, false),
    ("c.jal", 0x3fed, X32, true, false),
    ("c.jalr x5", 0x9282, X32, true, false),
    ("c.jalr x6", 0x9302, X64, true, false),
    ("c.jr x1", 0x8082, X32, false, true),
    ("c.jr x5", 0x8282, X32, false, false),
    ("c.j", 0xa029, X32, false, false),
];

#[test]
fn decoder_is_call_and_implicit_return_shape() {
    for &(asm, raw, xlen, call, ret) in CALLS {
        let d = decode(raw, xlen);
        assert_eq!(d.is_call(), call, "{asm}");
        assert_eq!(d.is_implicit_return_shape(), ret, "{asm}");
    }
}

/// Jump and branch targets: (assembly, raw, xlen, pc, branch_target, inferable_jump_target)
#[allow(clippy::type_complexity)]
const TARGETS: &[(&str, u32, Xlen, u64, Option<u64>, Option<u64>)] = &[
    (
        "jal x1, +8",
        0x0080_00ef,
        X32,
        0x8000_0004,
        None,
        Some(0x8000_000c),
    ),
    (
        "jal x7, -8",
        0xff9f_f3ef,
        X32,
        0x8000_000c,
        None,
        Some(0x8000_0004),
    ),
    (
        "jal x7, -8 wraps (rv32)",
        0xff9f_f3ef,
        X32,
        0x4,
        None,
        Some(0xffff_fffc),
    ),
    (
        "jal x7, -8 wraps (rv64)",
        0xff9f_f3ef,
        X64,
        0x4,
        None,
        Some(u64::MAX - 3),
    ),
    (
        "jalr x0, 16(x0)",
        0x0100_0067,
        X64,
        0x8000_0000,
        None,
        Some(0x10),
    ),
    (
        "jalr x5, -4(x0) (rv32)",
        0xffc0_02e7,
        X32,
        0x100,
        None,
        Some(0xffff_fffc),
    ),
    ("jalr x0, 0(x1)", 0x0000_8067, X32, 0x100, None, None),
    (
        "beq +16",
        0x0020_8863,
        X32,
        0x8000_0054,
        Some(0x8000_0064),
        None,
    ),
    (
        "bne -16",
        0xfe20_98e3,
        X64,
        0x8000_0058,
        Some(0x8000_0048),
        None,
    ),
    ("c.j +10", 0xa029, X32, 0x98, None, Some(0xa2)),
    ("c.jal -6", 0x3fed, X32, 0x9a, None, Some(0x94)),
    ("c.beqz +12", 0xc411, X32, 0xa8, Some(0xb4), None),
    ("c.bnez -12", 0xf8f5, X64, 0xaa, Some(0x9e), None),
    (
        "beq -4096",
        0x80b5_0063,
        X64,
        0x1_0010,
        Some(0x1_0010 - 4096),
        None,
    ),
    ("bne +4094", 0x7eb5_1fe3, X64, 0x14, Some(0x14 + 4094), None),
];

#[test]
fn decoder_branch_and_inferable_jump_targets() {
    for &(asm, raw, xlen, pc, branch, jump) in TARGETS {
        let d = decode(raw, xlen);
        assert_eq!(d.branch_target(pc), branch, "{asm}");
        assert_eq!(d.inferable_jump_target(pc), jump, "{asm}");
    }
}

/// `decoder.adoc` `is_sequential_jump` / `sequential_jump_target`:
/// (case, prev raw, prev addr, jump raw, xlen, is sequential, target when sequential).
const SEQUENTIAL: &[(&str, u32, u64, u32, Xlen, bool, u64)] = &[
    // auipc x6, 0x12345 ; jalr x0, -12(x6)
    (
        "auipc+jalr",
        0x1234_5317,
        0x8000_0000,
        0xff43_0067,
        X32,
        true,
        0x9234_4ff4,
    ),
    // lui x6, 0x12345 ; c.jr x6
    (
        "lui+c.jr",
        0x1234_5337,
        0x8000_0000,
        0x8302,
        X64,
        true,
        0x1234_5000,
    ),
    // c.lui x6, 0x12 ; c.jalr x6
    ("c.lui+c.jalr", 0x6349, 0x100, 0x9302, X32, true, 0x12000),
    // lui x6 ; jalr x1, 0(x7): other register
    (
        "lui+jalr other reg",
        0x1234_5337,
        0x100,
        0x0003_80e7,
        X32,
        false,
        0,
    ),
    // c.mv x6, x7 ; c.jr x6: not auipc/lui
    ("c.mv+c.jr", 0x831e, 0x100, 0x8302, X32, false, 0),
    // auipc x6 ; jal x1: inferable, not a sequential jump
    ("auipc+jal", 0x1234_5317, 0x100, 0x0080_00ef, X32, false, 0),
    // auipc x1, 0 ; jalr x1, 8(x1) (a `call`): rs1 == rd == x1
    (
        "call pseudo",
        0x0000_0097,
        0x8000_0010,
        0x0080_80e7,
        X64,
        true,
        0x8000_0018,
    ),
    // lui x6, 0xfffff on rv64: sign-extended
    (
        "lui negative rv64",
        0xffff_f337,
        0x100,
        0x8302,
        X64,
        true,
        0xffff_ffff_ffff_f000,
    ),
];

#[test]
fn decoder_sequential_jumps() {
    for &(case, prev_raw, prev_addr, raw, xlen, seq, target) in SEQUENTIAL {
        let prev = decode(prev_raw, xlen);
        let d = decode(raw, xlen);
        assert_eq!(d.is_sequential_jump(&prev), seq, "{case}");
        if seq {
            assert_eq!(
                d.sequential_jump_target(&prev, prev_addr, xlen),
                target,
                "{case}"
            );
        }
    }
}

#[test]
fn compressed_forms_are_told_apart() {
    let cj = decode(0xa029, X32);
    assert!(cj.compressed() && cj.op == Op::Jal && cj.rd == 0);
    let cjal = decode(0x3fed, X32);
    assert!(cjal.compressed() && cjal.op == Op::Jal && cjal.rd == 1);
    let cjr = decode(0x8082, X32);
    assert!(cjr.compressed() && cjr.op == Op::Jalr && cjr.rd == 0 && cjr.imm == 0);
    let cjalr = decode(0x9302, X32);
    assert!(cjalr.compressed() && cjalr.op == Op::Jalr && cjalr.rd == 1 && cjalr.rs1 == 6);
    let cbeqz = decode(0xc411, X32);
    assert!(cbeqz.compressed() && cbeqz.op == Op::Beq && cbeqz.rs1 == 8 && cbeqz.rs2 == 0);
    let clui = decode(0x6349, X32);
    assert!(clui.compressed() && clui.op == Op::Lui && clui.imm == 0x12000);
    let cebreak = decode(0x9002, X64);
    assert!(cebreak.compressed() && cebreak.op == Op::Ebreak);
    let jal = decode(0x0080_00ef, X32);
    assert!(!jal.compressed());
}
