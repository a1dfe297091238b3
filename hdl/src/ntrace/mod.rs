//! The N-Trace message generator in hardware (issue 25, first piece): N-Trace 1.0
//! (`RISC-V-N-Trace.adoc`) messages from the same ingress port as the E-Trace encoder,
//! as `model/ntrace`'s `NtraceEncoder` generates them, and their MSEO bytes ("N-Trace
//! Transmission Protocol"). Architecture: `hdl/DESIGN.md`, "N-Trace message generator".
//!
//! * [`ingress`]: the ingress signals N-Trace reads, one bundle ([`NtraceIngress`]);
//! * [`message`]: the message slot bundle, one N-Trace message as the fields the MSEO
//!   serialiser needs;
//! * [`generator`]: the rules of generating messages, per ingress record, with the I-CNT
//!   counter and the HIST register;
//! * [`hist_cut`]: the repeated history cut of a full HIST register at its smallest
//!   period, formed ahead for each outcome of the branch that fills it;
//! * [`call_stack`]: the return address stack of the implicit return optimisation;
//! * [`mseo`]: one message's MSEO bytes ("MSEO Sequences"): its layout and each byte;
//! * [`mseo_cursor`]: a held message's MSEO bytes one per cycle from a shift register;
//! * [`queue`]: the MSEO output path: the messages of each record into a byte FIFO,
//!   with the model's overflow rule (Error message, restart with SYNC 7);
//! * [`top`]: the N-Trace encoder top of a named configuration as Verilog with flat pins.

pub mod call_stack;
pub mod generator;
pub mod hist_cut;
pub mod ingress;
pub mod message;
pub mod mseo;
pub mod mseo_cursor;
pub mod queue;
pub mod top;

pub use call_stack::NtraceCallStack;
pub use generator::{NtraceGenerator, NtraceHwOptions};
pub use hist_cut::HistCut;
pub use ingress::NtraceIngress;
pub use message::{
    FixedMessage, NtraceMessage, NtraceMessageSource, NtraceSlots, NtraceSlotsSource,
};
pub use mseo::{MseoByteAt, MseoBytes, MseoLayout, MseoLayoutHold, MseoMeasure};
pub use mseo_cursor::MseoCursor;
pub use queue::{NtraceFifoConfig, NtraceMseoPath, NtraceMseoQueue, NtraceSlotHold};
pub use top::{generate_ntrace, ntrace_top_name, NtraceTopError, NtraceTopOptions};
