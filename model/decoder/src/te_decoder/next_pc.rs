//! `next_pc` of `decoder.adoc` ("Decoder pseudo code"), with the predicates it uses
//! (`is_taken_branch`, `is_sequential_jump`, `is_implicit_return`): where execution goes
//! after the instruction at `pc`. The one source of this rule for every walk of the
//! decoder (`follow_execution_path` and its straight-line fast path, the end of a trace
//! after an inferred address, `exception_address`), and of `report_pc`.

use super::cursor::{Cursor, Next};
use super::{Fail, TeDecoder};
use crate::branches::Outcome;
use crate::element::RangeEnd;
use crate::error::DecodeCause;
use crate::image::{Hot, HotKind};
use etrace_spec::packet::AddressInfo;

impl<'a> TeDecoder<'a> {
    /// `next_pc`: moves `cur` past the instruction `here` at `cur.pc` (pushing the return
    /// address of a call for implicit return); true when `here` is an uninferable
    /// discontinuity followed to `address`, the reported address. `te` is the packet being
    /// followed, if any (its implicit-return report, `sec:irxx`).
    #[inline(always)]
    pub(super) fn next_pc(
        &mut self,
        cur: &mut Cursor,
        here: &Hot,
        address: u64,
        te: Option<&AddressInfo>,
    ) -> Result<bool, Fail> {
        let this_pc = cur.pc;
        let next = if here.is_uninferable_discon() {
            self.next_uninferable(here, this_pc, cur.last_pc, address, te)?
        } else {
            self.next_inferable(here, this_pc)?
        };
        if here.call && self.options.implicit_return {
            self.return_stack.push(this_pc.wrapping_add(here.size()));
        }
        cur.advance(&next, self.addr_mask);
        Ok(next.stop)
    }

    /// `report_pc`: reports the instruction at `cur.pc` into `cur`'s open range (a closed
    /// range becomes an element); returns the instruction. An address outside the program
    /// image is an error, not an instruction.
    #[inline(always)]
    pub(super) fn report_pc(&mut self, cur: &mut Cursor) -> Result<&'a Hot, Fail> {
        let pc = cur.pc;
        let insn = self.lookup.seek(pc)?;
        if let Some(closed) = cur.report(pc, insn.size()) {
            self.elements.push(closed.element());
        }
        Ok(insn)
    }

    /// `next_pc` for an instruction that is not an uninferable discontinuity: the target
    /// follows from the program image and, for a branch, the next branch outcome.
    #[inline(always)]
    fn next_inferable(&mut self, here: &Hot, pc: u64) -> Result<Next, Fail> {
        Ok(match here.kind {
            HotKind::Branch => {
                if self.take_branch(pc)? {
                    Next::to(pc.wrapping_add(here.offset()), RangeEnd::TakenBranch)
                } else {
                    Next::to(pc.wrapping_add(here.size()), RangeEnd::NotTakenBranch)
                }
            }
            HotKind::InferableJump => {
                Next::to(pc.wrapping_add(here.offset()), RangeEnd::InferableJump)
            }
            HotKind::EcallEbreak => Next::to(pc.wrapping_add(here.size()), RangeEnd::EcallEbreak),
            _ => Next::to(pc.wrapping_add(here.size()), RangeEnd::Sequential),
        })
    }

    /// `next_pc` for an uninferable discontinuity at `pc` (`last_pc` the instruction
    /// before it): a sequentially inferable jump, an implicit return, or a stop at the
    /// reported `address` (kept out of the inner loop).
    #[inline(never)]
    fn next_uninferable(
        &mut self,
        here: &Hot,
        pc: u64,
        last_pc: u64,
        address: u64,
        te: Option<&AddressInfo>,
    ) -> Result<Next, Fail> {
        if here.kind == HotKind::UninferableJump {
            if self.is_sequential_jump(pc, last_pc)? {
                let prev = self.lookup.insn(last_pc)?;
                let target = self.lookup.insn(pc)?.decoded.sequential_jump_target(
                    &prev.decoded,
                    last_pc,
                    self.xlen,
                );
                return Ok(Next::to(target, RangeEnd::InferableJump));
            }
            if self.is_implicit_return(here, te) {
                return Ok(Next {
                    pc: self.return_stack.pop().unwrap_or(0),
                    end: RangeEnd::UninferableJump,
                    implicit_return: true,
                    stop: false,
                });
            }
        }
        if self.stop_at_last_branch {
            return Err(DecodeCause::UnexpectedDiscontinuity.into());
        }
        Ok(Next {
            pc: address,
            end: if here.kind == HotKind::TrapReturn {
                RangeEnd::TrapReturn
            } else {
                RangeEnd::UninferableJump
            },
            implicit_return: false,
            stop: true,
        })
    }

    /// `is_sequential_jump` for the uninferable jump at `pc` after `last_pc`.
    fn is_sequential_jump(&self, pc: u64, last_pc: u64) -> Result<bool, Fail> {
        if !self.options.sijump || last_pc == pc {
            return Ok(false);
        }
        let prev = self.lookup.insn(last_pc)?;
        Ok(self
            .lookup
            .insn(pc)?
            .decoded
            .is_sequential_jump(&prev.decoded))
    }

    /// `is_implicit_return` for the uninferable jump `here`, while following `te`.
    fn is_implicit_return(&self, here: &Hot, te: Option<&AddressInfo>) -> bool {
        if !self.options.implicit_return || !here.ret {
            return false;
        }
        let Some(predicted) = self.return_stack.top() else {
            return false;
        };
        // `decoder.adoc` treats a return at the reported depth as not implicit whenever
        // `irreport` is set; but the encoder also sets `irreport` to report the depth before
        // a format 3 packet (`sec:irxx`), and then the returns on the way are implicit (the
        // 2.0 ambiguity of spec issue #254). A mispredicted return is reported with its
        // actual target, which differs from the prediction, and only an encoder with a
        // return address stack predicts targets: that tells the two cases apart.
        if let Some(te) = te {
            if self.compare_return_addresses
                && te.irreport
                && te.irdepth == self.return_stack.depth()
                && predicted != self.address
            {
                return false;
            }
        }
        true
    }

    /// `is_taken_branch` for the branch at `at`: the next outcome, from the branch map,
    /// the predictor (`sec:branch-prediction`), or the one failed prediction; the
    /// predictor learns every outcome.
    #[inline(always)]
    fn take_branch(&mut self, at: u64) -> Result<bool, Fail> {
        let taken = match self.outcomes.take() {
            Some(Outcome::Known(taken)) => taken,
            Some(Outcome::Predicted) => self.predictor.predict(at),
            Some(Outcome::Mispredicted) => !self.predictor.predict(at),
            None => return Err(no_branch(at)),
        };
        if self.options.branch_prediction {
            self.predictor.update(at, taken);
        }
        Ok(taken)
    }
}

/// The error of a branch without a reported outcome (kept out of the hot path).
#[cold]
fn no_branch(address: u64) -> Fail {
    DecodeCause::BranchesExhausted { address }.into()
}
