//! Expansion of 16-bit instructions (unprivileged ISA, chapter "C" Extension for
//! Compressed Instructions, section "RVC Instruction Set Listings").

use super::decode::Decoded;
use super::op::Op;
use super::Xlen;

fn bit(raw: u16, n: u32) -> u32 {
    u32::from((raw >> n) & 1)
}

fn field(raw: u16, hi: u32, lo: u32) -> u32 {
    (u32::from(raw) >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

/// Sign-extend the `width` low bits of `v`.
fn sext(v: u32, width: u32) -> i64 {
    let shift = 32 - width;
    i64::from(((v << shift) as i32) >> shift)
}

/// Register number of a 3-bit `rd'`/`rs1'`/`rs2'` field (x8-x15 / f8-f15).
fn creg(v: u32) -> u8 {
    8 + v as u8
}

/// CI-format 6-bit signed immediate (`imm[5]` = bit 12, `imm[4:0]` = bits 6:2).
fn ci_imm(raw: u16) -> i64 {
    sext((bit(raw, 12) << 5) | field(raw, 6, 2), 6)
}

/// CI-format 6-bit unsigned shift amount.
fn ci_shamt(raw: u16) -> u32 {
    (bit(raw, 12) << 5) | field(raw, 6, 2)
}

/// CJ-format jump offset.
fn cj_imm(raw: u16) -> i64 {
    let v = (bit(raw, 12) << 11)
        | (bit(raw, 11) << 4)
        | (field(raw, 10, 9) << 8)
        | (bit(raw, 8) << 10)
        | (bit(raw, 7) << 6)
        | (bit(raw, 6) << 7)
        | (field(raw, 5, 3) << 1)
        | (bit(raw, 2) << 5);
    sext(v, 12)
}

/// CB-format branch offset.
fn cb_imm(raw: u16) -> i64 {
    let v = (bit(raw, 12) << 8)
        | (field(raw, 11, 10) << 3)
        | (field(raw, 6, 5) << 6)
        | (field(raw, 4, 3) << 1)
        | (bit(raw, 2) << 5);
    sext(v, 9)
}

/// Offset of `c.lw`/`c.sw`/`c.flw`/`c.fsw` (word scaled).
fn cl_w_off(raw: u16) -> i64 {
    i64::from((field(raw, 12, 10) << 3) | (bit(raw, 6) << 2) | (bit(raw, 5) << 6))
}

/// Offset of `c.ld`/`c.sd`/`c.fld`/`c.fsd` (double-word scaled).
fn cl_d_off(raw: u16) -> i64 {
    i64::from((field(raw, 12, 10) << 3) | (field(raw, 6, 5) << 6))
}

/// Decode and expand a 16-bit instruction.
pub(super) fn decode_compressed(raw: u16, xlen: Xlen) -> Decoded {
    let rv64 = xlen == Xlen::X64;
    let raw32 = u32::from(raw);
    let illegal = Decoded::illegal(raw32, 2, xlen);
    let mut d = Decoded::illegal(raw32, 2, xlen);
    let funct3 = field(raw, 15, 13);
    let rd_full = field(raw, 11, 7) as u8;
    let rs2_full = field(raw, 6, 2) as u8;
    let rd_p = creg(field(raw, 4, 2));
    let rs1_p = creg(field(raw, 9, 7));
    match (raw & 3, funct3) {
        // Quadrant 0
        (0, 0) => {
            // c.addi4spn: addi rd', x2, nzuimm
            let nzuimm = (field(raw, 12, 11) << 4)
                | (field(raw, 10, 7) << 6)
                | (bit(raw, 6) << 2)
                | (bit(raw, 5) << 3);
            if nzuimm == 0 {
                return illegal;
            }
            d.op = Op::Addi;
            d.rd = rd_p;
            d.rs1 = 2;
            d.imm = i64::from(nzuimm);
        }
        (0, 1) | (0, 2) | (0, 3) => {
            d.op = match (funct3, rv64) {
                (1, _) => Op::Fld,
                (2, _) => Op::Lw,
                (3, false) => Op::Flw,
                _ => Op::Ld,
            };
            d.rd = rd_p;
            d.rs1 = rs1_p;
            d.imm = if matches!(d.op, Op::Lw | Op::Flw) {
                cl_w_off(raw)
            } else {
                cl_d_off(raw)
            };
        }
        (0, 5) | (0, 6) | (0, 7) => {
            d.op = match (funct3, rv64) {
                (5, _) => Op::Fsd,
                (6, _) => Op::Sw,
                (7, false) => Op::Fsw,
                _ => Op::Sd,
            };
            d.rs1 = rs1_p;
            d.rs2 = rd_p;
            d.imm = if matches!(d.op, Op::Sw | Op::Fsw) {
                cl_w_off(raw)
            } else {
                cl_d_off(raw)
            };
        }
        // Quadrant 1
        (1, 0) => {
            // c.nop / c.addi (rd = 0 or imm = 0 are hints)
            d.op = Op::Addi;
            d.rd = rd_full;
            d.rs1 = rd_full;
            d.imm = ci_imm(raw);
        }
        (1, 1) => {
            if rv64 {
                // c.addiw (rd = 0 reserved)
                if rd_full == 0 {
                    return illegal;
                }
                d.op = Op::Addiw;
                d.rd = rd_full;
                d.rs1 = rd_full;
                d.imm = ci_imm(raw);
            } else {
                // c.jal: jal x1, offset
                d.op = Op::Jal;
                d.rd = 1;
                d.imm = cj_imm(raw);
            }
        }
        (1, 2) => {
            // c.li: addi rd, x0, imm
            d.op = Op::Addi;
            d.rd = rd_full;
            d.imm = ci_imm(raw);
        }
        (1, 3) => {
            if rd_full == 2 {
                // c.addi16sp: addi x2, x2, nzimm
                let v = (bit(raw, 12) << 9)
                    | (bit(raw, 6) << 4)
                    | (bit(raw, 5) << 6)
                    | (field(raw, 4, 3) << 7)
                    | (bit(raw, 2) << 5);
                if v == 0 {
                    return illegal;
                }
                d.op = Op::Addi;
                d.rd = 2;
                d.rs1 = 2;
                d.imm = sext(v, 10);
            } else {
                // c.lui: lui rd, nzimm (nzimm = 0 reserved)
                let imm = ci_imm(raw);
                if imm == 0 {
                    return illegal;
                }
                d.op = Op::Lui;
                d.rd = rd_full;
                d.imm = imm << 12;
            }
        }
        (1, 4) => {
            d.rd = rs1_p;
            d.rs1 = rs1_p;
            match field(raw, 11, 10) {
                0 | 1 => {
                    let shamt = ci_shamt(raw);
                    if !rv64 && shamt >= 32 {
                        return illegal;
                    }
                    d.op = if field(raw, 11, 10) == 0 {
                        Op::Srli
                    } else {
                        Op::Srai
                    };
                    d.imm = i64::from(shamt);
                }
                2 => {
                    d.op = Op::Andi;
                    d.imm = ci_imm(raw);
                }
                _ => {
                    d.rs2 = rd_p;
                    d.op = match (bit(raw, 12), field(raw, 6, 5), rv64) {
                        (0, 0, _) => Op::Sub,
                        (0, 1, _) => Op::Xor,
                        (0, 2, _) => Op::Or,
                        (0, 3, _) => Op::And,
                        (1, 0, true) => Op::Subw,
                        (1, 1, true) => Op::Addw,
                        _ => return illegal,
                    };
                }
            }
        }
        (1, 5) => {
            // c.j: jal x0, offset
            d.op = Op::Jal;
            d.imm = cj_imm(raw);
        }
        (1, 6) | (1, 7) => {
            // c.beqz / c.bnez: beq/bne rs1', x0, offset
            d.op = if funct3 == 6 { Op::Beq } else { Op::Bne };
            d.rs1 = rs1_p;
            d.imm = cb_imm(raw);
        }
        // Quadrant 2
        (2, 0) => {
            let shamt = ci_shamt(raw);
            if !rv64 && shamt >= 32 {
                return illegal;
            }
            d.op = Op::Slli;
            d.rd = rd_full;
            d.rs1 = rd_full;
            d.imm = i64::from(shamt);
        }
        (2, 1) | (2, 2) | (2, 3) => {
            d.op = match (funct3, rv64) {
                (1, _) => Op::Fld,
                (2, _) => Op::Lw,
                (3, false) => Op::Flw,
                _ => Op::Ld,
            };
            // c.lwsp / c.ldsp with rd = 0 are reserved.
            if rd_full == 0 && matches!(d.op, Op::Lw | Op::Ld) {
                return illegal;
            }
            d.rd = rd_full;
            d.rs1 = 2;
            d.imm = if matches!(d.op, Op::Lw | Op::Flw) {
                i64::from((bit(raw, 12) << 5) | (field(raw, 6, 4) << 2) | (field(raw, 3, 2) << 6))
            } else {
                i64::from((bit(raw, 12) << 5) | (field(raw, 6, 5) << 3) | (field(raw, 4, 2) << 6))
            };
        }
        (2, 4) => match (bit(raw, 12), rd_full, rs2_full) {
            (0, 0, 0) => return illegal,
            (0, rs1, 0) => {
                // c.jr: jalr x0, 0(rs1)
                d.op = Op::Jalr;
                d.rs1 = rs1;
            }
            (0, rd, rs2) => {
                // c.mv: add rd, x0, rs2
                d.op = Op::Add;
                d.rd = rd;
                d.rs2 = rs2;
            }
            (_, 0, 0) => d.op = Op::Ebreak,
            (_, rs1, 0) => {
                // c.jalr: jalr x1, 0(rs1)
                d.op = Op::Jalr;
                d.rd = 1;
                d.rs1 = rs1;
            }
            (_, rd, rs2) => {
                // c.add: add rd, rd, rs2
                d.op = Op::Add;
                d.rd = rd;
                d.rs1 = rd;
                d.rs2 = rs2;
            }
        },
        (2, 5) | (2, 6) | (2, 7) => {
            d.op = match (funct3, rv64) {
                (5, _) => Op::Fsd,
                (6, _) => Op::Sw,
                (7, false) => Op::Fsw,
                _ => Op::Sd,
            };
            d.rs1 = 2;
            d.rs2 = rs2_full;
            d.imm = if matches!(d.op, Op::Sw | Op::Fsw) {
                i64::from((field(raw, 12, 9) << 2) | (field(raw, 8, 7) << 6))
            } else {
                i64::from((field(raw, 12, 10) << 3) | (field(raw, 9, 7) << 6))
            };
        }
        _ => return illegal,
    }
    d
}
