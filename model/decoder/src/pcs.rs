//! The per-instruction view derived from trace elements: every executed instruction's
//! address, with the privilege it ran at, and the traps between them.

use super::element::TraceElement;
use super::image::ProgramImage;
use etrace_spec::ingress::{IngressRecord, Privilege};

/// One step of the reconstructed execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// An instruction retired at `pc`.
    Instruction {
        /// Its address.
        pc: u64,
        /// The privilege level it ran at (as last reported by the trace).
        privilege: Privilege,
    },
    /// A trap was taken.
    Trap {
        /// Cause.
        ecause: u64,
        /// Interrupt (else exception).
        interrupt: bool,
    },
}

/// Expands ranges into instruction addresses (walking the image by instruction size),
/// passing traps through; privilege comes from trace-on and privilege elements. Returns
/// `Err` with the address where the image has no instruction.
pub fn steps(elements: &[TraceElement], image: &ProgramImage) -> Result<Vec<Step>, u64> {
    // One step per instruction and trap: reserved up front (bounded, a corrupt count must
    // not reserve gigabytes).
    let expected: u64 = elements
        .iter()
        .map(|e| match e {
            TraceElement::Range { count, .. } => *count,
            TraceElement::Trap { .. } => 1,
            _ => 0,
        })
        .fold(0u64, u64::saturating_add);
    let mut out = Vec::with_capacity(expected.min(1 << 24) as usize);
    StepWalker::new().walk(elements, image, |step| out.push(step))?;
    Ok(out)
}

/// The steps of [`steps`] handed to a visitor one by one, without storing them, over a
/// trace that may arrive in pieces (the elements a decoder hands out as it goes,
/// `TeDecoder::take_elements`): the privilege carries over from one piece to the next, so
/// memory stays bounded however long the trace is.
#[derive(Debug, Clone)]
pub struct StepWalker {
    privilege: Privilege,
}

impl Default for StepWalker {
    fn default() -> Self {
        Self::new()
    }
}

impl StepWalker {
    /// A walker at the start of a trace (machine mode until a trace-on element says
    /// otherwise).
    pub fn new() -> StepWalker {
        StepWalker {
            privilege: Privilege::Machine,
        }
    }

    /// Hands the steps of the next piece of the trace to `visit`; returns how many there
    /// were, or `Err` with the address where the image has no instruction.
    pub fn walk(
        &mut self,
        elements: &[TraceElement],
        image: &ProgramImage,
        mut visit: impl FnMut(Step),
    ) -> Result<u64, u64> {
        let mut n = 0u64;
        for e in elements {
            match e {
                TraceElement::TraceOn { privilege: p, .. }
                | TraceElement::Privilege { privilege: p } => self.privilege = *p,
                TraceElement::Range { first, count, .. } => {
                    let mut pc = *first;
                    for _ in 0..*count {
                        visit(Step::Instruction {
                            pc,
                            privilege: self.privilege,
                        });
                        pc += image.insn(pc).ok_or(pc)?.size();
                    }
                    n += *count;
                }
                TraceElement::Trap {
                    ecause, interrupt, ..
                } => {
                    visit(Step::Trap {
                        ecause: *ecause,
                        interrupt: *interrupt,
                    });
                    n += 1;
                }
                _ => {}
            }
        }
        Ok(n)
    }
}

/// The steps a correct decode of the trace of `record` reproduces (`ingress.rs`
/// conventions): the retired instruction, then the trap (an `ecall` retires and traps).
pub fn push_record_steps(out: &mut Vec<Step>, record: &IngressRecord) {
    if record.iretire != 0 {
        out.push(Step::Instruction {
            pc: record.iaddr,
            privilege: record.privilege,
        });
    }
    if record.itype.is_trap() {
        out.push(Step::Trap {
            ecause: record.cause,
            interrupt: record.interrupt,
        });
    }
}

/// The steps of a whole ingress stream: what a decoder must reconstruct from its trace.
pub fn record_steps(records: &[IngressRecord]) -> Vec<Step> {
    let mut out = Vec::with_capacity(records.len());
    for r in records {
        push_record_steps(&mut out, r);
    }
    out
}
