//! The encoder's memory-mapped control registers (RISC-V Trace Control Interface 1.0,
//! "Trace Encoder Control Interface"; which fields apply to E-Trace: E-Trace 2.0
//! `control.adoc`, `sec:ctl-basic` and `sec:ctl-modes`; to N-Trace: N-Trace 1.0 "N-Trace
//! Specific Trace Controls").
//!
//! * [`map`]: register offsets and field positions;
//! * [`registers`]: the register file's behaviour (the build's protocol, reset, WARL
//!   legalisation, RW1C, what the encoder sees), the golden model of the hardware block
//!   `etrace_hdl::control::TeRegisters`.

pub mod map;
pub mod registers;
