//! Decoding of every RV32/RV64 IMAFDC Zicsr Zifencei instruction form (unprivileged ISA,
//! "RV32/64G Instruction Set Listings" and "RVC Instruction Set Listings"; privileged
//! ISA "Privileged Instruction Listings"). The operation names are GNU objdump's
//! (`-M no-aliases`) for encodings made by `riscv64-unknown-elf-as`; compressed forms are
//! checked against the operation they expand to.

use etrace_spec::isa::{decode, instruction_size, Op, Xlen};
use Xlen::{X32, X64};

/// Every instruction form with its objdump decoding: `tests/data/isa_encodings.txt`
/// (raw, xlen, size, mnemonic of the (expanded) operation).
fn encodings() -> Vec<(u32, Xlen, u8, String)> {
    let text = include_str!("data/isa_encodings.txt");
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 4, "isa_encodings.txt: {line}");
            let raw = u32::from_str_radix(f[0].trim_start_matches("0x"), 16).expect(line);
            let xlen = match f[1] {
                "rv32" => X32,
                "rv64" => X64,
                other => panic!("isa_encodings.txt: xlen {other}"),
            };
            (raw, xlen, f[2].parse().expect(line), f[3].to_string())
        })
        .collect()
}

#[test]
fn decode_every_instruction_form() {
    let encodings = encodings();
    assert!(encodings.len() > 300, "isa_encodings.txt has every form");
    for (raw, xlen, size, mnemonic) in encodings {
        let mnemonic = mnemonic.as_str();
        let d = decode(raw, xlen);
        assert_eq!(d.op.mnemonic(), mnemonic, "{raw:#010x} on {xlen:?}");
        assert_eq!(d.size, size, "{raw:#010x} on {xlen:?}: size");
        assert_eq!(
            instruction_size(raw as u16),
            size,
            "{raw:#010x}: instruction_size"
        );
        assert_eq!(
            d.raw,
            if size == 2 { raw & 0xffff } else { raw },
            "{raw:#010x}: raw"
        );
        let fp = mnemonic.starts_with('f') && !mnemonic.starts_with("fence");
        assert_eq!(d.op.is_fp(), fp, "{mnemonic}: is_fp");
    }
}

/// Operand fields: (raw, xlen, op, rd, rs1, rs2, rs3, imm).
#[allow(clippy::type_complexity)]
const FIELDS: &[(u32, Xlen, Op, u8, u8, u8, u8, i64)] = &[
    (0xfffff537, X64, Op::Lui, 10, 0, 0, 0, -4096),
    (0x00001597, X32, Op::Auipc, 11, 0, 0, 0, 4096),
    (0x001000ef, X32, Op::Jal, 1, 0, 0, 0, 2048),
    (0x80058567, X64, Op::Jalr, 10, 11, 0, 0, -2048),
    (0x80b50063, X64, Op::Beq, 0, 10, 11, 0, -4096),
    (0x7eb51fe3, X64, Op::Bne, 0, 10, 11, 0, 4094),
    (0xfff58503, X32, Op::Lb, 10, 11, 0, 0, -1),
    (0x80a59023, X64, Op::Sh, 0, 11, 10, 0, -2048),
    (0x03f59513, X64, Op::Slli, 10, 11, 0, 0, 63),
    (0x43f5d513, X64, Op::Srai, 10, 11, 0, 0, 63),
    (0x41f5d513, X32, Op::Srai, 10, 11, 0, 0, 31),
    (0x4015d51b, X64, Op::Sraiw, 10, 11, 0, 0, 1),
    (0x68c5f543, X64, Op::FmaddS, 10, 11, 12, 13, 0),
    (0xc0059553, X32, Op::FcvtWS, 10, 11, 0, 0, 0),
    (0x4015f553, X64, Op::FcvtSD, 10, 11, 0, 0, 0),
    (0x00a5a227, X32, Op::Fsw, 0, 11, 10, 0, 4),
    // compressed: the operation they expand to
    (0x1fe0, X64, Op::Addi, 8, 2, 0, 0, 1020), // c.addi4spn x8, x2, 1020
    (0x3ce0, X64, Op::Fld, 8, 9, 0, 0, 248),   // c.fld f8, 248(x9)
    (0x7ce0, X64, Op::Ld, 8, 9, 0, 0, 248),    // c.ld x8, 248(x9)
    (0x7ce0, X32, Op::Flw, 8, 9, 0, 0, 124),   // c.flw f8, 124(x9)
    (0xa480, X64, Op::Fsd, 0, 9, 8, 0, 8),     // c.fsd f8, 8(x9)
    (0xe480, X64, Op::Sd, 0, 9, 8, 0, 8),      // c.sd x8, 8(x9)
    (0xe0c0, X32, Op::Fsw, 0, 9, 8, 0, 4),     // c.fsw f8, 4(x9)
    (0x0001, X64, Op::Addi, 0, 0, 0, 0, 0),    // c.nop
    (0x1501, X64, Op::Addi, 10, 10, 0, 0, -32), // c.addi x10, -32
    (0x257d, X64, Op::Addiw, 10, 10, 0, 0, 31), // c.addiw x10, 31
    (0x557d, X64, Op::Addi, 10, 0, 0, 0, -1),  // c.li x10, -1
    (0x7101, X64, Op::Addi, 2, 2, 0, 0, -512), // c.addi16sp -512
    (0x7501, X64, Op::Lui, 10, 0, 0, 0, -0x20 << 12), // c.lui x10, 0xfffe0
    (0x907d, X64, Op::Srli, 8, 8, 0, 0, 63),   // c.srli x8, 63
    (0x8405, X32, Op::Srai, 8, 8, 0, 0, 1),    // c.srai x8, 1
    (0x987d, X64, Op::Andi, 8, 8, 0, 0, -1),   // c.andi x8, -1
    (0x8c05, X64, Op::Sub, 8, 8, 9, 0, 0),     // c.sub x8, x9
    (0x9c25, X64, Op::Addw, 8, 8, 9, 0, 0),    // c.addw x8, x9
    (0xb001, X64, Op::Jal, 0, 0, 0, 0, -2048), // c.j -2048
    (0x2ffd, X32, Op::Jal, 1, 0, 0, 0, 2046),  // c.jal +2046
    (0xd001, X64, Op::Beq, 0, 8, 0, 0, -256),  // c.beqz x8, -256
    (0xec7d, X64, Op::Bne, 0, 8, 0, 0, 254),   // c.bnez x8, +254
    (0x157e, X64, Op::Slli, 10, 10, 0, 0, 63), // c.slli x10, 63
    (0x357e, X64, Op::Fld, 10, 2, 0, 0, 504),  // c.fldsp f10, 504(x2)
    (0x557e, X64, Op::Lw, 10, 2, 0, 0, 252),   // c.lwsp x10, 252(x2)
    (0x757e, X64, Op::Ld, 10, 2, 0, 0, 504),   // c.ldsp x10, 504(x2)
    (0x757e, X32, Op::Flw, 10, 2, 0, 0, 252),  // c.flwsp f10, 252(x2)
    (0x8502, X64, Op::Jalr, 0, 10, 0, 0, 0),   // c.jr x10
    (0x852e, X64, Op::Add, 10, 0, 11, 0, 0),   // c.mv x10, x11
    (0x9502, X64, Op::Jalr, 1, 10, 0, 0, 0),   // c.jalr x10
    (0x952e, X64, Op::Add, 10, 10, 11, 0, 0),  // c.add x10, x11
    (0xbfaa, X64, Op::Fsd, 0, 2, 10, 0, 504),  // c.fsdsp f10, 504(x2)
    (0xdfaa, X64, Op::Sw, 0, 2, 10, 0, 252),   // c.swsp x10, 252(x2)
    (0xffaa, X64, Op::Sd, 0, 2, 10, 0, 504),   // c.sdsp x10, 504(x2)
    (0xffaa, X32, Op::Fsw, 0, 2, 10, 0, 252),  // c.fswsp f10, 252(x2)
];

#[test]
fn decode_operand_fields() {
    for &(raw, xlen, op, rd, rs1, rs2, rs3, imm) in FIELDS {
        let d = decode(raw, xlen);
        assert_eq!(
            (d.op, d.rd, d.rs1, d.rs2, d.rs3, d.imm),
            (op, rd, rs1, rs2, rs3, imm),
            "{raw:#010x} on {xlen:?}"
        );
    }
}

#[test]
fn decode_csr_rm_and_ordering_fields() {
    let d = decode(0x30059573, X64); // csrrw x10, mstatus, x11
    assert_eq!((d.op, d.csr, d.rd, d.rs1), (Op::Csrrw, 0x300, 10, 11));
    let d = decode(0x305fd573, X32); // csrrwi x10, mtvec, 31
    assert_eq!((d.op, d.csr, d.rs1, d.imm), (Op::Csrrwi, 0x305, 31, 31));
    let d = decode(0x68c5f543, X64); // fmadd.s (dynamic rounding)
    assert_eq!(d.rm, 7);
    let d = decode(0x68c59547, X64); // fmsub.s ..., rtz
    assert_eq!((d.op, d.rm), (Op::FmsubS, 1));
    let d = decode(0x08c5a553, X32); // fsub.s ..., rdn
    assert_eq!((d.op, d.rm), (Op::FsubS, 2));
    let d = decode(0x0cc5a52f, X64); // amoswap.w.aq
    assert_eq!(
        (d.op, d.aq, d.rl, d.rd, d.rs1, d.rs2),
        (Op::AmoswapW, true, false, 10, 11, 12)
    );
    let d = decode(0x02c5a52f, X32); // amoadd.w.rl
    assert_eq!((d.op, d.aq, d.rl), (Op::AmoaddW, false, true));
    let d = decode(0x1605b52f, X64); // lr.d.aqrl
    assert_eq!(
        (d.op, d.aq, d.rl, d.rd, d.rs1),
        (Op::LrD, true, true, 10, 11)
    );
}

/// Reserved and unsupported encodings: (case, raw, xlen, size).
const ILLEGAL: &[(&str, u32, Xlen, u8)] = &[
    ("all-zero parcel", 0x0000, X32, 2),
    ("all-zero parcel rv64", 0x0000, X64, 2),
    ("all-ones word", 0xffff_ffff, X64, 4),
    ("48-bit encoding", 0x0000_001f, X64, 4),
    ("64-bit encoding", 0x0000_003f, X32, 4),
    ("ld on rv32", 0x0085_b503, X32, 4),
    ("slli shamt 63 on rv32", 0x03f5_9513, X32, 4),
    ("c.slli shamt 63 on rv32", 0x157e, X32, 2),
    ("c.srli shamt 63 on rv32", 0x907d, X32, 2),
    ("c.addiw rd=0", 0x2005, X64, 2),
    ("c.lwsp rd=0", 0x4002, X32, 2),
    ("c.ldsp rd=0", 0x6002, X64, 2),
    ("c.jr x0", 0x8002, X64, 2),
    ("c.addi16sp 0", 0x6101, X32, 2),
    ("c.lui imm 0", 0x6301, X64, 2),
    ("c.addi4spn 0", 0x0004, X64, 2),
    ("quadrant 0 funct3 100", 0x8000, X64, 2),
    ("c.subw on rv32", 0x9c05, X32, 2),
    ("fadd.s rm=5", 0x00c5_d553, X64, 4),
    ("fmadd.h (fmt 2)", 0x6cc5_f543, X64, 4),
    ("csr funct3 100", 0x3005_4573, X64, 4),
    ("lr.w rs2 != 0", 0x1015_a52f, X32, 4),
    ("jalr funct3 1", 0x0000_9067, X32, 4),
    ("branch funct3 2", 0x0020_a863, X64, 4),
    ("sfence.vma rd != 0", 0x12b5_00f3, X64, 4),
    ("amo .d on rv32", 0x0cc5_b52f, X32, 4),
    ("fmv.x.d on rv32", 0xe205_8553, X32, 4),
    ("load funct3 7", 0x0005_f503, X64, 4),
    ("ecall with rs1 set", 0x0000_8073, X64, 4),
    ("vector opcode", 0x0000_0057, X64, 4),
    ("addiw on rv32", 0xff95_851b, X32, 4),
];

#[test]
fn decode_reserved_encodings_are_illegal() {
    for &(case, raw, xlen, size) in ILLEGAL {
        let d = decode(raw, xlen);
        assert_eq!(d.op, Op::Illegal, "{case}");
        assert_eq!(d.size, size, "{case}");
    }
}

#[test]
fn decode_never_panics_on_any_halfword() {
    for hw in 0..=u16::MAX {
        for xlen in [X32, X64] {
            let d = decode(u32::from(hw) | 0xabcd_0000, xlen);
            assert_eq!(d.size, instruction_size(hw));
        }
    }
}
