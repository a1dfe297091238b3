//! Trace elements: what the decoder reconstructs from te_inst packets, in the manner of
//! OpenCSD's generic trace elements and ARM PFT's instruction / exception objects
//! (`seeds/003`): ranges of executed instructions separated by waypoints, traps, trap
//! returns, privilege and context changes, trace on / off, and gaps.
//!
//! The per-instruction PC stream is derived from the elements ([`super::pcs`]), not the
//! other way round.

use crate::error::DecodeError;
use etrace_spec::ingress::Privilege;

/// What ended an instruction range: the class of its last instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RangeEnd {
    /// A sequential instruction: the range was cut by a packet boundary, a trap or the end
    /// of the trace.
    Sequential,
    /// A taken branch.
    TakenBranch,
    /// A not-taken branch.
    NotTakenBranch,
    /// An inferable jump (`jal`, `c.j`, `c.jal`, `jalr` with `rs1 = x0`).
    InferableJump,
    /// An uninferable jump (register target).
    UninferableJump,
    /// `xRET`.
    TrapReturn,
    /// `ecall` / `ebreak`.
    EcallEbreak,
}

/// One decoded trace element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceElement {
    /// Tracing starts (or restarts after a gap) at `address`.
    TraceOn {
        /// First traced instruction.
        address: u64,
        /// Its privilege.
        privilege: Privilege,
    },
    /// Executed instructions `first..=last`, `count` of them, laid out sequentially.
    Range {
        /// Address of the first instruction.
        first: u64,
        /// Address of the last instruction.
        last: u64,
        /// Number of instructions.
        count: u64,
        /// Class of the last instruction.
        end: RangeEnd,
    },
    /// A trap (`format 3 subformat 1`).
    Trap {
        /// Exception or interrupt cause.
        ecause: u64,
        /// Interrupt (else exception).
        interrupt: bool,
        /// Trap value (0 for interrupts).
        tval: u64,
        /// Address of the instruction the trap was taken at (the EPC), when known.
        epc: Option<u64>,
    },
    /// The privilege level changed (reported by a format 3 packet).
    Privilege {
        /// The new level.
        privilege: Privilege,
    },
    /// The context changed (format 3 packets carrying `context`).
    Context {
        /// The new context.
        context: u64,
    },
    /// Tracing stopped (support packet: qualification ended or encoder disabled).
    TraceOff,
    /// Packets were lost (`qual_status = trace_lost`) or skipped after an error: the trace
    /// has a gap and resumes at the next synchronisation packet.
    TraceLost,
    /// The packet stream contradicts the program, or the program is missing, or a packet
    /// could not be read: where and why (boxed: errors are rare, the other elements stay
    /// small); decoding resumes at the next format 3 synchronisation packet.
    DecodeError(Box<DecodeError>),
}

impl TraceElement {
    /// The decode error of a [`TraceElement::DecodeError`], else `None`.
    pub fn decode_error(&self) -> Option<&DecodeError> {
        match self {
            TraceElement::DecodeError(e) => Some(e),
            _ => None,
        }
    }
}
