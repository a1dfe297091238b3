//! The per-instruction view derived from trace elements: every executed instruction's
//! address, with the privilege it ran at, and the traps between them.

use super::element::TraceElement;
use super::image::ProgramImage;
use crate::ingress::{IngressRecord, Privilege};

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
    // One step per instruction and trap: reserved up front (bounded, as the counts come
    // from a trace).
    let expected: u64 = elements
        .iter()
        .map(|e| match e {
            TraceElement::Range { count, .. } => *count,
            TraceElement::Trap { .. } => 1,
            _ => 0,
        })
        .fold(0u64, u64::saturating_add);
    let mut out = Vec::with_capacity(expected.min(1 << 24) as usize);
    let mut privilege = Privilege::Machine;
    for e in elements {
        match e {
            TraceElement::TraceOn { privilege: p, .. }
            | TraceElement::Privilege { privilege: p } => privilege = *p,
            TraceElement::Range { first, count, .. } => {
                let mut pc = *first;
                for _ in 0..*count {
                    out.push(Step::Instruction { pc, privilege });
                    pc += image.insn(pc).ok_or(pc)?.size();
                }
            }
            TraceElement::Trap {
                ecause, interrupt, ..
            } => out.push(Step::Trap {
                ecause: *ecause,
                interrupt: *interrupt,
            }),
            _ => {}
        }
    }
    Ok(out)
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
