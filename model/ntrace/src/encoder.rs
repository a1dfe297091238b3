//! The N-Trace encoder of the model: BTM and HTM message generation from the ingress port
//! ("Main N-Trace Trace Modes", "Rules of Generating Messages", "Pseudo-code of Simple
//! N-Trace Encoder"), with periodic synchronisation, I-CNT-full and HIST-full handling,
//! traps, privilege and context changes (Ownership messages), and the optimisation
//! extensions: sequential jumps, implicit return with a call stack of a chosen depth,
//! repeated history (ResourceFull RCODE 2) and repeated branches (RepeatBranch); [`cycle`]
//! adds the output FIFO, whose overflow produces Error messages.

pub mod address;
pub mod cycle;
mod engine;
pub mod history;
mod options;

#[cfg(test)]
mod spec_examples;

pub use engine::NtraceEncoder;
pub use options::{check_src, NtraceMode, NtraceOptions, OptionError, MAX_SRC_BITS};
