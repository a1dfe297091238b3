//! The RTL's output decoded (`decoder.adoc`, through the model's deframer, unpacker and
//! decoder) and compared with the hart's execution: every run of the trace between
//! losses must be a contiguous part of the hart's steps (address and privilege of each
//! retired instruction, cause of each trap), in order.

use etrace_decoder::pcs::{steps, Step};
use etrace_decoder::stream::{decode_payloads, PayloadEvent};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_spec::params::Params;

/// What the decoded trace must reproduce.
#[derive(Debug)]
pub struct ExpectedExecution {
    /// The program.
    pub image: ProgramImage,
    /// The hart's steps (`decoder::pcs::push_record_steps` of every record).
    pub steps: Vec<Step>,
    /// Decoder settings (trap vectors for implicit exception mode).
    pub decoder: DecoderConfig,
}

/// How much of the hart's execution the decoded trace covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DecodeSummary {
    /// Steps decoded and found equal to the hart's.
    pub steps: u64,
    /// Runs of the trace (1 + trace losses).
    pub runs: u64,
}

/// Why the decoded trace does not match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeMismatch {
    /// The decoder reported an error.
    #[error("decode error at packet {packet}: {reason}")]
    Decode {
        /// Packet index.
        packet: u64,
        /// The decoder's message.
        reason: String,
    },
    /// The decoded trace left the program image.
    #[error("run {run}: the decoded trace leaves the program at {address:#x}")]
    OutsideImage {
        /// Run index.
        run: usize,
        /// The address.
        address: u64,
    },
    /// A run is not a contiguous part of the hart's execution after the previous run.
    #[error(
        "run {run} ({len} steps, first {first:?}) is not a contiguous part of the hart's \
         execution after step {after}"
    )]
    NotInExecution {
        /// Run index.
        run: usize,
        /// Its length in steps.
        len: usize,
        /// Its first step.
        first: Step,
        /// Where the previous run ended in the hart's steps.
        after: usize,
    },
    /// The first run does not start with the hart's first step.
    #[error("step {index}: decoded {decoded:?}, the hart did {expected:?}")]
    Differs {
        /// Step index.
        index: usize,
        /// Decoded step.
        decoded: Option<Step>,
        /// The hart's step.
        expected: Option<Step>,
    },
}

/// Decodes `events` and compares them with `expected`.
pub fn check_decoded(
    params: &Params,
    events: &[PayloadEvent],
    expected: &ExpectedExecution,
) -> Result<DecodeSummary, DecodeMismatch> {
    let mut decoder = TeDecoder::new(&expected.image, params, expected.decoder);
    let elements = decode_payloads(&mut decoder, params, events);
    if let Some(e) = elements.iter().find_map(TraceElement::decode_error) {
        return Err(DecodeMismatch::Decode {
            packet: e.packet_index,
            reason: e.cause.to_string(),
        });
    }
    let all = &expected.steps;
    let mut summary = DecodeSummary::default();
    let mut after = 0usize;
    for (run, elements) in elements
        .split(|e| matches!(e, TraceElement::TraceLost))
        .enumerate()
    {
        let got = steps(elements, &expected.image)
            .map_err(|address| DecodeMismatch::OutsideImage { run, address })?;
        summary.runs += 1;
        if got.is_empty() {
            continue;
        }
        let start = if run == 0 {
            if let Some(index) = (0..got.len()).find(|&i| all.get(i) != Some(&got[i])) {
                return Err(DecodeMismatch::Differs {
                    index,
                    decoded: got.get(index).copied(),
                    expected: all.get(index).copied(),
                });
            }
            0
        } else {
            first_place(all, after, &got).ok_or(DecodeMismatch::NotInExecution {
                run,
                len: got.len(),
                first: got[0],
                after,
            })?
        };
        after = start + got.len();
        summary.steps += got.len() as u64;
    }
    Ok(summary)
}

/// The first place at or after `after` where the hart's steps `all` continue with the
/// whole run `got` (not empty): where a run after a trace loss is placed.
pub(crate) fn first_place(all: &[Step], after: usize, got: &[Step]) -> Option<usize> {
    (after..all.len()).find(|&p| all[p] == got[0] && all[p..].starts_with(got))
}
