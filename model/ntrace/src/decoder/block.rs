//! Following one block of a message through the program image ("Decoding Algorithm
//! Principles"): each instruction takes 1 or 2 from I-CNT; direct conditional branches
//! take a HIST bit while there are any and are not taken after (in BTM the last
//! instruction of a DirectBranch message is a taken branch); inferable jumps are
//! followed; before the end of the count an uninferable jump is followed only when it is
//! inferable: a return or co-routine swap predicted by the call stack ("Implicit Return
//! Optimization") or a sequentially inferable jump ("Sequential Jump Optimization").
//!
//! Counts accumulate (ResourceFull I-CNT and HREPEAT, RepeatBranch B-CNT), so a corrupted
//! stream of a few bytes could send a walk round a loop of the image for as long as it
//! says; a walk takes at most [`MAX_STEPS_PER_MESSAGE`] instructions for one message, as
//! the E-Trace decoder's walks do per packet.

use super::history::BlockHistory;
use crate::call_stack::CallStack;
use etrace_decoder::image::{Insn, InsnKind};
use etrace_decoder::{DecodeCause, ProgramImage, RangeEnd, TraceElement};
use etrace_spec::isa::{Decoded, JumpClass};

/// Most instructions followed for one message (its I-CNT and HIST, with those of the
/// ResourceFull messages before it, and its RepeatBranch repeats) before the stream counts
/// as corrupted: the E-Trace decoder's bound per packet.
pub const MAX_STEPS_PER_MESSAGE: u64 = 1 << 22;

/// Where a block ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BlockEnd {
    /// The PC after the block as the program infers it (`None` after an uninferable jump
    /// or trap return that nothing predicted: the message's address gives it).
    pub next: Option<u64>,
    /// Instructions in the block.
    pub instructions: u64,
    /// Where the block began.
    pub start: u64,
    /// The block's last instruction and its address (`None` for an empty block).
    pub last: Option<(u64, Insn)>,
}

impl BlockEnd {
    /// The block ends with an uninferable jump or trap return (`is_uninferable_discon`).
    pub fn ends_uninferable(&self) -> bool {
        self.last
            .is_some_and(|(_, insn)| insn.is_uninferable_discon())
    }
}

/// What the walk needs besides the image.
pub(super) struct BlockWalk<'a> {
    pub image: &'a ProgramImage,
    pub stack: &'a mut CallStack,
    pub elements: &'a mut Vec<TraceElement>,
    /// Sequentially inferable jumps are followed.
    pub sijump: bool,
    /// Instructions the message may still take ([`MAX_STEPS_PER_MESSAGE`] at its start).
    pub steps_left: &'a mut u64,
}

impl BlockWalk<'_> {
    /// Follows `icnt` half-words and the bits of `hist` from `pc`; `last_taken`: the last
    /// instruction is a taken branch (BTM DirectBranch).
    pub fn run(
        &mut self,
        mut pc: u64,
        mut icnt: u64,
        hist: &mut BlockHistory,
        last_taken: bool,
    ) -> Result<BlockEnd, DecodeCause> {
        let mut range: Option<(u64, u64, u64)> = None;
        let mut prev: Option<(Decoded, u64)> = None;
        let mut instructions = 0u64;
        let start = pc;
        let mut next = Some(pc);
        let mut last_insn = None;
        while icnt > 0 || !hist.is_empty() {
            let fail = |walk: &mut Self, range: &mut _, cause| {
                walk.close(range, RangeEnd::Sequential);
                Err(cause)
            };
            if icnt == 0 {
                return fail(self, &mut range, DecodeCause::HistoryLeft { address: pc });
            }
            if *self.steps_left == 0 {
                let cause = DecodeCause::CountTooLong {
                    address: pc,
                    within: MAX_STEPS_PER_MESSAGE,
                };
                return fail(self, &mut range, cause);
            }
            let Some(&insn) = self.image.insn(pc) else {
                return fail(self, &mut range, DecodeCause::NoInstruction { address: pc });
            };
            let size = insn.size();
            if size / 2 > icnt {
                return fail(
                    self,
                    &mut range,
                    DecodeCause::CountEndsInside { address: pc },
                );
            }
            icnt -= size / 2;
            instructions += 1;
            last_insn = Some((pc, insn));
            *self.steps_left -= 1;
            let (first, count) = range.map_or((pc, 0), |(f, _, n)| (f, n));
            range = Some((first, pc, count + 1));
            let sequential = pc.wrapping_add(size);
            let last = icnt == 0 && hist.is_empty();
            let (target, end) = match insn.kind {
                InsnKind::Other | InsnKind::EcallEbreak => (Some(sequential), RangeEnd::Sequential),
                InsnKind::Branch { offset } => {
                    let taken = match hist.next_bit() {
                        Some(bit) => bit,
                        None => last && last_taken,
                    };
                    if taken {
                        (Some(pc.wrapping_add(offset as u64)), RangeEnd::TakenBranch)
                    } else {
                        (Some(sequential), RangeEnd::NotTakenBranch)
                    }
                }
                InsnKind::InferableJump { offset } => {
                    if insn.jump_class() == JumpClass::Call {
                        self.stack.push(sequential);
                    }
                    (
                        Some(pc.wrapping_add(offset as u64)),
                        RangeEnd::InferableJump,
                    )
                }
                InsnKind::UninferableJump => {
                    let class = insn.jump_class();
                    let popped = match class {
                        JumpClass::Return | JumpClass::CoroutineSwap => self.stack.pop(),
                        _ => None,
                    };
                    let inferred = match popped {
                        Some(a) => Some(a),
                        None if self.sijump && class != JumpClass::Return => prev
                            .filter(|(p, _)| insn.decoded.is_sequential_jump(p))
                            .map(|(p, at)| {
                                insn.decoded
                                    .sequential_jump_target(&p, at, insn.decoded.xlen)
                            }),
                        None => None,
                    };
                    if matches!(class, JumpClass::Call | JumpClass::CoroutineSwap) {
                        self.stack.push(sequential);
                    }
                    if inferred.is_none() && !last {
                        return fail(
                            self,
                            &mut range,
                            DecodeCause::UninferableInBlock { address: pc },
                        );
                    }
                    (inferred, RangeEnd::UninferableJump)
                }
                InsnKind::TrapReturn => {
                    if !last {
                        return fail(
                            self,
                            &mut range,
                            DecodeCause::UninferableInBlock { address: pc },
                        );
                    }
                    (None, RangeEnd::TrapReturn)
                }
            };
            // A branch took the last HIST bit: the block may end here too.
            if (icnt == 0 && hist.is_empty()) || target != Some(sequential) {
                self.close(&mut range, end);
            }
            prev = Some((insn.decoded, pc));
            next = target;
            if let Some(t) = target {
                pc = t;
            }
        }
        Ok(BlockEnd {
            next,
            instructions,
            start,
            last: last_insn,
        })
    }

    fn close(&mut self, range: &mut Option<(u64, u64, u64)>, end: RangeEnd) {
        if let Some((first, last, count)) = range.take() {
            self.elements.push(TraceElement::Range {
                first,
                last,
                count,
                end,
            });
        }
    }
}
