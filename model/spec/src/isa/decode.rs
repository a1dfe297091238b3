//! Decoding of 32-bit instruction words (RISC-V unprivileged ISA, chapter "RV32/64G
//! Instruction Set Listings"; privileged ISA, "Privileged Instruction Listings").

use super::op::Op;
use super::rvc::decode_compressed;
use super::{instruction_size, Xlen};

/// One decoded instruction.
///
/// Register fields hold the architectural register numbers of the operation after
/// expansion of a compressed instruction (`c.jr x1` is `jalr x0, 0(x1)`); integer and
/// floating-point registers share the fields. Fields an operation does not use are 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decoded {
    /// The operation.
    pub op: Op,
    /// Instruction size in bytes: 2 (compressed) or 4.
    pub size: u8,
    /// Destination register.
    pub rd: u8,
    /// First source register (for `csrr*i`: the 5-bit immediate `uimm`).
    pub rs1: u8,
    /// Second source register.
    pub rs2: u8,
    /// Third source register (fused multiply-add).
    pub rs3: u8,
    /// Immediate, sign-extended: the offset of branches, jumps, loads and stores, the
    /// operand of register-immediate operations, the shift amount of shifts, the value
    /// `imm << 12` of `lui`/`auipc`.
    pub imm: i64,
    /// The instruction bits (16 significant bits for a compressed instruction).
    pub raw: u32,
    /// CSR address of the Zicsr operations.
    pub csr: u16,
    /// Rounding mode field of F/D operations (7 = dynamic).
    pub rm: u8,
    /// Acquire bit of the A operations.
    pub aq: bool,
    /// Release bit of the A operations.
    pub rl: bool,
    /// The XLEN the instruction was decoded for (targets wrap to XLEN bits).
    pub xlen: Xlen,
}

impl Decoded {
    /// An illegal instruction of `size` bytes with instruction bits `raw`.
    pub fn illegal(raw: u32, size: u8, xlen: Xlen) -> Decoded {
        Decoded {
            op: Op::Illegal,
            size,
            rd: 0,
            rs1: 0,
            rs2: 0,
            rs3: 0,
            imm: 0,
            raw,
            csr: 0,
            rm: 0,
            aq: false,
            rl: false,
            xlen,
        }
    }

    /// True for a 16-bit (compressed, "C" extension) instruction. Together with the
    /// exact expansion this identifies the spec's `C.*` opcodes: `c.jal` is `jal` with
    /// `rd = 1`, `c.j` is `jal` with `rd = 0`, `c.jr` / `c.jalr` are `jalr` with
    /// `rd = 0` / `rd = 1` and `imm = 0`, `c.beqz` / `c.bnez` are `beq` / `bne` with
    /// `rs2 = 0`, `c.lui` is `lui`, `c.ebreak` is `ebreak`.
    pub fn compressed(&self) -> bool {
        self.size == 2
    }

    pub(super) fn new(op: Op, raw: u32, xlen: Xlen) -> Decoded {
        Decoded {
            op,
            ..Decoded::illegal(raw, 4, xlen)
        }
    }
}

/// Decode the instruction whose first bits are `raw` (the low 16 bits for a compressed
/// instruction; higher bits are then ignored) for base ISA `xlen`.
///
/// Unknown and reserved encodings, and encodings of other lengths than 16 and 32 bits,
/// give [`Op::Illegal`] with the size given by [`instruction_size`]; this never panics.
pub fn decode(raw: u32, xlen: Xlen) -> Decoded {
    if instruction_size(raw as u16) == 2 {
        decode_compressed(raw as u16, xlen)
    } else {
        decode_32(raw, xlen)
    }
}

fn bits(raw: u32, hi: u32, lo: u32) -> u32 {
    (raw >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

fn imm_i(raw: u32) -> i64 {
    i64::from((raw as i32) >> 20)
}

fn imm_s(raw: u32) -> i64 {
    i64::from((((raw & 0xfe00_0000) as i32) >> 20) | bits(raw, 11, 7) as i32)
}

fn imm_b(raw: u32) -> i64 {
    let v = (bits(raw, 31, 31) << 12)
        | (bits(raw, 7, 7) << 11)
        | (bits(raw, 30, 25) << 5)
        | (bits(raw, 11, 8) << 1);
    i64::from(((v << 19) as i32) >> 19)
}

fn imm_u(raw: u32) -> i64 {
    i64::from((raw & 0xffff_f000) as i32)
}

fn imm_j(raw: u32) -> i64 {
    let v = (bits(raw, 31, 31) << 20)
        | (bits(raw, 19, 12) << 12)
        | (bits(raw, 20, 20) << 11)
        | (bits(raw, 30, 21) << 1);
    i64::from(((v << 11) as i32) >> 11)
}

/// Decode a 32-bit instruction.
fn decode_32(raw: u32, xlen: Xlen) -> Decoded {
    let rv64 = xlen == Xlen::X64;
    let rd = bits(raw, 11, 7) as u8;
    let rs1 = bits(raw, 19, 15) as u8;
    let rs2 = bits(raw, 24, 20) as u8;
    let funct3 = bits(raw, 14, 12);
    let funct7 = bits(raw, 31, 25);
    let mut d = Decoded::new(Op::Illegal, raw, xlen);
    let illegal = Decoded::illegal(raw, 4, xlen);
    match raw & 0x7f {
        0x37 | 0x17 => {
            d.op = if raw & 0x7f == 0x37 {
                Op::Lui
            } else {
                Op::Auipc
            };
            d.rd = rd;
            d.imm = imm_u(raw);
        }
        0x6f => {
            d.op = Op::Jal;
            d.rd = rd;
            d.imm = imm_j(raw);
        }
        0x67 => {
            if funct3 != 0 {
                return illegal;
            }
            d.op = Op::Jalr;
            d.rd = rd;
            d.rs1 = rs1;
            d.imm = imm_i(raw);
        }
        0x63 => {
            d.op = match funct3 {
                0 => Op::Beq,
                1 => Op::Bne,
                4 => Op::Blt,
                5 => Op::Bge,
                6 => Op::Bltu,
                7 => Op::Bgeu,
                _ => return illegal,
            };
            d.rs1 = rs1;
            d.rs2 = rs2;
            d.imm = imm_b(raw);
        }
        0x03 => {
            d.op = match (funct3, rv64) {
                (0, _) => Op::Lb,
                (1, _) => Op::Lh,
                (2, _) => Op::Lw,
                (3, true) => Op::Ld,
                (4, _) => Op::Lbu,
                (5, _) => Op::Lhu,
                (6, true) => Op::Lwu,
                _ => return illegal,
            };
            d.rd = rd;
            d.rs1 = rs1;
            d.imm = imm_i(raw);
        }
        0x23 => {
            d.op = match (funct3, rv64) {
                (0, _) => Op::Sb,
                (1, _) => Op::Sh,
                (2, _) => Op::Sw,
                (3, true) => Op::Sd,
                _ => return illegal,
            };
            d.rs1 = rs1;
            d.rs2 = rs2;
            d.imm = imm_s(raw);
        }
        0x13 => {
            d.rd = rd;
            d.rs1 = rs1;
            d.imm = imm_i(raw);
            // Shift amounts: 5 bits on RV32, 6 bits on RV64.
            let shamt_hi = if rv64 { bits(raw, 31, 26) << 1 } else { funct7 };
            let shamt = if rv64 {
                bits(raw, 25, 20)
            } else {
                bits(raw, 24, 20)
            };
            d.op = match funct3 {
                0 => Op::Addi,
                2 => Op::Slti,
                3 => Op::Sltiu,
                4 => Op::Xori,
                6 => Op::Ori,
                7 => Op::Andi,
                1 if shamt_hi == 0 => Op::Slli,
                5 if shamt_hi == 0 => Op::Srli,
                5 if shamt_hi == 0x20 => Op::Srai,
                _ => return illegal,
            };
            if matches!(d.op, Op::Slli | Op::Srli | Op::Srai) {
                d.imm = i64::from(shamt);
            }
        }
        0x1b if rv64 => {
            d.rd = rd;
            d.rs1 = rs1;
            d.imm = imm_i(raw);
            d.op = match (funct3, funct7) {
                (0, _) => Op::Addiw,
                (1, 0) => Op::Slliw,
                (5, 0) => Op::Srliw,
                (5, 0x20) => Op::Sraiw,
                _ => return illegal,
            };
            if d.op != Op::Addiw {
                d.imm = i64::from(bits(raw, 24, 20));
            }
        }
        0x33 => {
            d.rd = rd;
            d.rs1 = rs1;
            d.rs2 = rs2;
            d.op = match (funct7, funct3) {
                (0, 0) => Op::Add,
                (0, 1) => Op::Sll,
                (0, 2) => Op::Slt,
                (0, 3) => Op::Sltu,
                (0, 4) => Op::Xor,
                (0, 5) => Op::Srl,
                (0, 6) => Op::Or,
                (0, 7) => Op::And,
                (0x20, 0) => Op::Sub,
                (0x20, 5) => Op::Sra,
                (1, 0) => Op::Mul,
                (1, 1) => Op::Mulh,
                (1, 2) => Op::Mulhsu,
                (1, 3) => Op::Mulhu,
                (1, 4) => Op::Div,
                (1, 5) => Op::Divu,
                (1, 6) => Op::Rem,
                (1, 7) => Op::Remu,
                _ => return illegal,
            };
        }
        0x3b if rv64 => {
            d.rd = rd;
            d.rs1 = rs1;
            d.rs2 = rs2;
            d.op = match (funct7, funct3) {
                (0, 0) => Op::Addw,
                (0, 1) => Op::Sllw,
                (0, 5) => Op::Srlw,
                (0x20, 0) => Op::Subw,
                (0x20, 5) => Op::Sraw,
                (1, 0) => Op::Mulw,
                (1, 4) => Op::Divw,
                (1, 5) => Op::Divuw,
                (1, 6) => Op::Remw,
                (1, 7) => Op::Remuw,
                _ => return illegal,
            };
        }
        0x0f => {
            // FENCE (any fm/pred/succ, reserved fields ignored as the ISA asks), FENCE.I.
            d.op = match funct3 {
                0 => Op::Fence,
                1 => Op::FenceI,
                _ => return illegal,
            };
            d.rd = rd;
            d.rs1 = rs1;
            d.imm = imm_i(raw);
        }
        0x73 => return decode_system(raw, xlen),
        0x2f => return decode_amo(raw, xlen),
        0x07 | 0x27 => {
            let store = raw & 0x7f == 0x27;
            d.op = match (funct3, store) {
                (2, false) => Op::Flw,
                (3, false) => Op::Fld,
                (2, true) => Op::Fsw,
                (3, true) => Op::Fsd,
                _ => return illegal,
            };
            d.rs1 = rs1;
            if store {
                d.rs2 = rs2;
                d.imm = imm_s(raw);
            } else {
                d.rd = rd;
                d.imm = imm_i(raw);
            }
        }
        0x43 | 0x47 | 0x4b | 0x4f => {
            let double = match bits(raw, 26, 25) {
                0 => false,
                1 => true,
                _ => return illegal,
            };
            d.op = match (raw & 0x7f, double) {
                (0x43, false) => Op::FmaddS,
                (0x47, false) => Op::FmsubS,
                (0x4b, false) => Op::FnmsubS,
                (0x4f, false) => Op::FnmaddS,
                (0x43, true) => Op::FmaddD,
                (0x47, true) => Op::FmsubD,
                (0x4b, true) => Op::FnmsubD,
                _ => Op::FnmaddD,
            };
            d.rd = rd;
            d.rs1 = rs1;
            d.rs2 = rs2;
            d.rs3 = bits(raw, 31, 27) as u8;
            d.rm = funct3 as u8;
        }
        0x53 => return decode_op_fp(raw, xlen),
        _ => return illegal,
    }
    if d.op.uses_rm() && matches!(d.rm, 5 | 6) {
        return illegal;
    }
    d
}

/// SYSTEM major opcode: privileged instructions and Zicsr.
fn decode_system(raw: u32, xlen: Xlen) -> Decoded {
    let mut d = Decoded::new(Op::Illegal, raw, xlen);
    let funct3 = bits(raw, 14, 12);
    if funct3 == 0 {
        d.op = match raw {
            0x0000_0073 => Op::Ecall,
            0x0010_0073 => Op::Ebreak,
            0x0020_0073 => Op::Uret,
            0x1020_0073 => Op::Sret,
            0x3020_0073 => Op::Mret,
            0x7b20_0073 => Op::Dret,
            0x1050_0073 => Op::Wfi,
            _ if raw & 0xfe00_7fff == 0x1200_0073 => {
                d.rs1 = bits(raw, 19, 15) as u8;
                d.rs2 = bits(raw, 24, 20) as u8;
                Op::SfenceVma
            }
            _ => Op::Illegal,
        };
        return d;
    }
    d.op = match funct3 {
        1 => Op::Csrrw,
        2 => Op::Csrrs,
        3 => Op::Csrrc,
        5 => Op::Csrrwi,
        6 => Op::Csrrsi,
        7 => Op::Csrrci,
        _ => return Decoded::illegal(raw, 4, xlen),
    };
    d.rd = bits(raw, 11, 7) as u8;
    d.rs1 = bits(raw, 19, 15) as u8;
    d.csr = bits(raw, 31, 20) as u16;
    if funct3 >= 5 {
        d.imm = i64::from(d.rs1);
    }
    d
}

/// AMO major opcode (A extension).
fn decode_amo(raw: u32, xlen: Xlen) -> Decoded {
    let illegal = Decoded::illegal(raw, 4, xlen);
    let double = match (bits(raw, 14, 12), xlen) {
        (2, _) => false,
        (3, Xlen::X64) => true,
        _ => return illegal,
    };
    let funct5 = bits(raw, 31, 27);
    let rs2 = bits(raw, 24, 20) as u8;
    let op = match (funct5, double) {
        (0x02, false) if rs2 == 0 => Op::LrW,
        (0x03, false) => Op::ScW,
        (0x01, false) => Op::AmoswapW,
        (0x00, false) => Op::AmoaddW,
        (0x04, false) => Op::AmoxorW,
        (0x0c, false) => Op::AmoandW,
        (0x08, false) => Op::AmoorW,
        (0x10, false) => Op::AmominW,
        (0x14, false) => Op::AmomaxW,
        (0x18, false) => Op::AmominuW,
        (0x1c, false) => Op::AmomaxuW,
        (0x02, true) if rs2 == 0 => Op::LrD,
        (0x03, true) => Op::ScD,
        (0x01, true) => Op::AmoswapD,
        (0x00, true) => Op::AmoaddD,
        (0x04, true) => Op::AmoxorD,
        (0x0c, true) => Op::AmoandD,
        (0x08, true) => Op::AmoorD,
        (0x10, true) => Op::AmominD,
        (0x14, true) => Op::AmomaxD,
        (0x18, true) => Op::AmominuD,
        (0x1c, true) => Op::AmomaxuD,
        _ => return illegal,
    };
    let mut d = Decoded::new(op, raw, xlen);
    d.rd = bits(raw, 11, 7) as u8;
    d.rs1 = bits(raw, 19, 15) as u8;
    d.rs2 = rs2;
    d.aq = bits(raw, 26, 26) == 1;
    d.rl = bits(raw, 25, 25) == 1;
    d
}

/// OP-FP major opcode (F and D extensions).
fn decode_op_fp(raw: u32, xlen: Xlen) -> Decoded {
    let rv64 = xlen == Xlen::X64;
    let illegal = Decoded::illegal(raw, 4, xlen);
    let funct7 = bits(raw, 31, 25);
    let funct3 = bits(raw, 14, 12);
    let rs2 = bits(raw, 24, 20);
    use Op::*;
    let op = match (funct7, rs2, funct3) {
        (0x00, _, _) => FaddS,
        (0x04, _, _) => FsubS,
        (0x08, _, _) => FmulS,
        (0x0c, _, _) => FdivS,
        (0x2c, 0, _) => FsqrtS,
        (0x01, _, _) => FaddD,
        (0x05, _, _) => FsubD,
        (0x09, _, _) => FmulD,
        (0x0d, _, _) => FdivD,
        (0x2d, 0, _) => FsqrtD,
        (0x10, _, 0) => FsgnjS,
        (0x10, _, 1) => FsgnjnS,
        (0x10, _, 2) => FsgnjxS,
        (0x11, _, 0) => FsgnjD,
        (0x11, _, 1) => FsgnjnD,
        (0x11, _, 2) => FsgnjxD,
        (0x14, _, 0) => FminS,
        (0x14, _, 1) => FmaxS,
        (0x15, _, 0) => FminD,
        (0x15, _, 1) => FmaxD,
        (0x20, 1, _) => FcvtSD,
        (0x21, 0, _) => FcvtDS,
        (0x50, _, 0) => FleS,
        (0x50, _, 1) => FltS,
        (0x50, _, 2) => FeqS,
        (0x51, _, 0) => FleD,
        (0x51, _, 1) => FltD,
        (0x51, _, 2) => FeqD,
        (0x60, 0, _) => FcvtWS,
        (0x60, 1, _) => FcvtWuS,
        (0x60, 2, _) if rv64 => FcvtLS,
        (0x60, 3, _) if rv64 => FcvtLuS,
        (0x61, 0, _) => FcvtWD,
        (0x61, 1, _) => FcvtWuD,
        (0x61, 2, _) if rv64 => FcvtLD,
        (0x61, 3, _) if rv64 => FcvtLuD,
        (0x68, 0, _) => FcvtSW,
        (0x68, 1, _) => FcvtSWu,
        (0x68, 2, _) if rv64 => FcvtSL,
        (0x68, 3, _) if rv64 => FcvtSLu,
        (0x69, 0, _) => FcvtDW,
        (0x69, 1, _) => FcvtDWu,
        (0x69, 2, _) if rv64 => FcvtDL,
        (0x69, 3, _) if rv64 => FcvtDLu,
        (0x70, 0, 0) => FmvXW,
        (0x70, 0, 1) => FclassS,
        (0x71, 0, 0) if rv64 => FmvXD,
        (0x71, 0, 1) => FclassD,
        (0x78, 0, 0) => FmvWX,
        (0x79, 0, 0) if rv64 => FmvDX,
        _ => return illegal,
    };
    if op.uses_rm() && matches!(funct3, 5 | 6) {
        return illegal;
    }
    let mut d = Decoded::new(op, raw, xlen);
    d.rd = bits(raw, 11, 7) as u8;
    d.rs1 = bits(raw, 19, 15) as u8;
    // For the one-operand operations the rs2 field selects the operation.
    let unary = matches!(
        funct7,
        0x2c | 0x2d | 0x20 | 0x21 | 0x60 | 0x61 | 0x68 | 0x69
    ) || funct7 >= 0x70;
    d.rs2 = if unary { 0 } else { rs2 as u8 };
    d.rm = funct3 as u8;
    d
}
