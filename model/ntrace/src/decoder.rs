//! The N-Trace decoder of "N-Trace Decoding Guidelines" ("Decoding Algorithm
//! Principles"): decoding starts at a synchronising message; each message's HIST and
//! I-CNT are followed through the program image (HIST first, through inferable jumps and
//! direct conditional branches, then the rest of I-CNT with branches not taken), then the
//! F-ADDR / U-ADDR is applied; ResourceFull messages add to the I-CNT and HIST of the next
//! message, RepeatBranch repeats the previous branch message B-CNT times, messages of
//! other SRC values are skipped ("Decoding trace from multiple harts"); the instructions
//! followed for one message are bounded ([`MAX_STEPS_PER_MESSAGE`]), and each branch
//! message's block must end with the instruction the message reports (the messages'
//! "Explanations and Notes"), so a corrupted count is an error, not another program flow.
//! It produces the trace
//! elements of `etrace-decoder`, so per-PC steps and call trees work unchanged.

pub mod address;
mod block;
mod engine;
pub mod history;
mod stream;

#[cfg(test)]
mod message_end_tests;
#[cfg(test)]
mod spec_examples;
#[cfg(test)]
mod test_support;

pub use block::MAX_STEPS_PER_MESSAGE;
pub use engine::{NtraceDecoder, NtraceDecoderConfig};

use etrace_decoder::pcs::Step;

/// A step as N-Trace reproduces it: traps without their cause, which N-Trace does not
/// report ("Trace Ingress Port": the encoder needs no `cause` and `tval`; B-TYPE tells
/// exceptions from interrupts).
pub fn reproducible_step(step: Step) -> Step {
    match step {
        Step::Trap { interrupt, .. } => Step::Trap {
            ecause: 0,
            interrupt,
        },
        other => other,
    }
}
pub use stream::{decode_bytes, feed, MessageStream, StreamItem};
