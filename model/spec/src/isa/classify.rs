//! Instruction classification: the predicates of `decoder.adoc` (functions `is_branch`,
//! `is_inferable_jump`, ...), the jump classes of `ingressPort.adoc` section "Jump
//! classification and target inference" (`JumpClasses`) and the `itype` codes of
//! `ingressPort.adoc` table `tab:itype`.

use super::decode::Decoded;
use super::op::Op;
use super::Xlen;
use crate::ingress::{Itype, ItypeWidth};

/// The jump classes of `ingressPort.adoc`, section `JumpClasses` (recommended calling
/// convention; link registers are x1 and x5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JumpClass {
    /// Calls: `jal x1`, `jal x5`, `jalr x1, rs` (rs != x5), `jalr x5, rs` (rs != x1),
    /// `c.jalr rs1` (rs1 != x5), `c.jal`.
    Call,
    /// Other jumps without linkage: `jal x0`, `c.j`, `jalr x0, rs` (rs != x1, x5),
    /// `c.jr rs1` (rs1 != x1, x5).
    JumpNoLinkage,
    /// Returns: `jalr rd, rs` with rs in {x1, x5} and rd not in {x1, x5}; `c.jr x1`,
    /// `c.jr x5`.
    Return,
    /// Co-routine swap: `jalr x1, x5`, `jalr x5, x1`, `c.jalr x5`.
    CoroutineSwap,
    /// Other jumps with linkage: `jal rd` (rd not in {x0, x1, x5}), `jalr rd, rs`
    /// (rs not in {x1, x5}, rd not in {x0, x1, x5}).
    OtherWithLinkage,
    /// Not a jump.
    NotAJump,
}

fn is_link(r: u8) -> bool {
    r == 1 || r == 5
}

impl Decoded {
    /// `decoder.adoc` `is_branch`: BEQ, BNE, BLT, BGE, BLTU, BGEU, C.BEQZ, C.BNEZ.
    pub fn is_branch(&self) -> bool {
        matches!(
            self.op,
            Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu
        )
    }

    /// `decoder.adoc` `is_inferable_jump`: JAL, C.JAL, C.J, and also `jalr` with
    /// `rs1 = x0`.
    ///
    /// The last case follows the strict definition of `ingressPort.adoc` `JumpClasses`
    /// ("a constant embedded within the jump opcode"): its target is the constant `imm`,
    /// and `decoder.adoc`'s `is_uninferable_jump` excludes it (it requires `rs1 != 0`).
    /// Its target is not `pc + imm`: use [`Decoded::inferable_jump_target`].
    pub fn is_inferable_jump(&self) -> bool {
        match self.op {
            Op::Jal => true,
            Op::Jalr => self.rs1 == 0,
            _ => false,
        }
    }

    /// `decoder.adoc` `is_uninferable_jump`: JALR with `rs1 != 0`, C.JALR, C.JR.
    pub fn is_uninferable_jump(&self) -> bool {
        self.op == Op::Jalr && self.rs1 != 0
    }

    /// `decoder.adoc` `is_return_from_trap`: URET, SRET, MRET, DRET.
    pub fn is_return_from_trap(&self) -> bool {
        matches!(self.op, Op::Uret | Op::Sret | Op::Mret | Op::Dret)
    }

    /// `decoder.adoc` `is_uninferable_discon`: an uninferable jump or a return from trap.
    pub fn is_uninferable_discon(&self) -> bool {
        self.is_uninferable_jump() || self.is_return_from_trap()
    }

    /// `decoder.adoc` `is_call`: JALR with `rd = 1`, C.JALR, JAL with `rd = 1`, C.JAL
    /// (tail calls and x5 links excluded, as there).
    pub fn is_call(&self) -> bool {
        matches!(self.op, Op::Jal | Op::Jalr) && self.rd == 1
    }

    /// The instruction part of `decoder.adoc` `is_implicit_return`: JALR with `rs1 = 1`
    /// and `rd = 0` (any offset, as there), or C.JR x1.
    pub fn is_implicit_return_shape(&self) -> bool {
        self.op == Op::Jalr && self.rs1 == 1 && self.rd == 0
    }

    /// `decoder.adoc` `is_sequential_jump` without the `options.sijump` test: an
    /// uninferable jump whose `rs1` is the `rd` of the immediately preceding `auipc`,
    /// `lui` or `c.lui` (`ingressPort.adoc` `JumpClasses`, "sequentially inferable").
    /// Returns are excluded: the encoder ignores `sijump` for itype 13 (`tab:common-ingress`),
    /// so hart, encoder and decoder agree that a return is never sequentially inferable.
    pub fn is_sequential_jump(&self, prev: &Decoded) -> bool {
        self.is_uninferable_jump()
            && self.jump_class() != JumpClass::Return
            && matches!(prev.op, Op::Auipc | Op::Lui)
            && self.rs1 == prev.rd
    }

    /// `decoder.adoc` `sequential_jump_target`: the target of a sequentially inferable
    /// jump whose preceding `auipc`/`lui`/`c.lui` `prev` is at `prev_addr` (bit 0 of a
    /// `jalr` target cleared, wrapped to XLEN).
    pub fn sequential_jump_target(&self, prev: &Decoded, prev_addr: u64, xlen: Xlen) -> u64 {
        let mut target = if prev.op == Op::Auipc { prev_addr } else { 0 };
        target = target.wrapping_add(prev.imm as u64);
        if self.op == Op::Jalr {
            target = target.wrapping_add(self.imm as u64) & !1;
        }
        target & xlen.mask()
    }

    /// `decoder.adoc` `exception_address` test: ECALL, EBREAK or C.EBREAK.
    pub fn is_ecall_or_ebreak(&self) -> bool {
        matches!(self.op, Op::Ecall | Op::Ebreak)
    }

    /// Target of a branch at `pc` (`pc + imm`, wrapped to XLEN); `None` if not a branch.
    pub fn branch_target(&self, pc: u64) -> Option<u64> {
        self.is_branch()
            .then(|| pc.wrapping_add(self.imm as u64) & self.xlen.mask())
    }

    /// Target of an inferable jump at `pc`: `pc + imm` for `jal`/`c.jal`/`c.j`, `imm`
    /// with bit 0 cleared for `jalr rd, imm(x0)`; `None` if not an inferable jump.
    pub fn inferable_jump_target(&self, pc: u64) -> Option<u64> {
        match self.op {
            Op::Jal => Some(pc.wrapping_add(self.imm as u64) & self.xlen.mask()),
            Op::Jalr if self.rs1 == 0 => Some((self.imm as u64) & !1 & self.xlen.mask()),
            _ => None,
        }
    }

    /// The jump class of `ingressPort.adoc` `JumpClasses` (with link registers x1, x5).
    pub fn jump_class(&self) -> JumpClass {
        match self.op {
            Op::Jal => match self.rd {
                0 => JumpClass::JumpNoLinkage,
                1 | 5 => JumpClass::Call,
                _ => JumpClass::OtherWithLinkage,
            },
            Op::Jalr => {
                let (rd, rs) = (self.rd, self.rs1);
                if is_link(rd) {
                    if is_link(rs) && rs != rd {
                        JumpClass::CoroutineSwap
                    } else {
                        JumpClass::Call
                    }
                } else if is_link(rs) {
                    JumpClass::Return
                } else if rd == 0 {
                    JumpClass::JumpNoLinkage
                } else {
                    JumpClass::OtherWithLinkage
                }
            }
            _ => JumpClass::NotAJump,
        }
    }

    /// The `itype` of this instruction when it retires without a trap
    /// (`ingressPort.adoc` table `tab:itype` and `JumpClasses`): 4/5 for a not
    /// taken/taken branch, 3 for `xRET`; with `width` 4 jumps get 8-15 by jump class and
    /// inferability (returns and co-routine swaps are always register jumps: 13, 12);
    /// with `width` 3 every uninferable jump is 6 and inferable jumps are 0. Everything
    /// else, `ecall`/`ebreak` included, is 0 (a hart reports those with 1 as they trap).
    pub fn itype(&self, taken: bool, width: ItypeWidth) -> Itype {
        if self.is_branch() {
            return if taken {
                Itype::TakenBranch
            } else {
                Itype::NontakenBranch
            };
        }
        if self.is_return_from_trap() {
            return Itype::TrapReturn;
        }
        let class = self.jump_class();
        if class == JumpClass::NotAJump {
            return Itype::None;
        }
        let inferable = self.is_inferable_jump();
        match width {
            ItypeWidth::W3 => {
                if inferable {
                    Itype::None
                } else {
                    Itype::UninferableJump3
                }
            }
            ItypeWidth::W4 => match (class, inferable) {
                (JumpClass::Call, false) => Itype::UninferableCall,
                (JumpClass::Call, true) => Itype::InferableCall,
                (JumpClass::JumpNoLinkage, false) => Itype::UninferableJump,
                (JumpClass::JumpNoLinkage, true) => Itype::InferableJump,
                (JumpClass::CoroutineSwap, _) => Itype::CoroutineSwap,
                (JumpClass::Return, _) => Itype::Return,
                (JumpClass::OtherWithLinkage, false) => Itype::OtherUninferableJump,
                (JumpClass::OtherWithLinkage, true) => Itype::OtherInferableJump,
                (JumpClass::NotAJump, _) => Itype::None,
            },
        }
    }
}
