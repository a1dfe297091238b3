//! [`check_decoded`](super::verify::check_decoded) as the trace comes (issue 27,
//! "streaming everywhere"): payload events are decoded as they arrive and each run of the
//! trace between losses is compared with the hart's steps, which are pulled from an
//! iterator as they are needed; the first run is compared step by step, so nothing grows
//! with the length of a run without losses. A run after a loss may start anywhere after
//! the previous one: its first step is looked for in the next steps of the hart (a window
//! of [`SEARCH_WINDOW`] steps, or [`StreamCheck::with_window`]'s, e.g. [`window_for`] the
//! output's FIFO and back-pressure), and every place found is a candidate that each
//! further step of the run keeps or drops ([`super::candidates`]: a few comparisons per
//! step, however many places there are); the first candidate left at the end of the run
//! is where it is placed (the first place where the hart's steps continue with the whole
//! run, as `check_decoded` finds it). Only the hart's steps from the first candidate on are
//! held, never the run. The result is `check_decoded`'s for the same trace and steps, as
//! long as each run after a loss starts within the window after the previous run's end; a
//! run not found there, when the hart has steps past the window, is
//! [`StreamCheckError::TooFar`].

use std::collections::VecDeque;

use etrace_decoder::pcs::{push_record_steps, Step, StepWalker};
use etrace_decoder::stream::{feed_payloads, PayloadEvent};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::params::Params;

use super::candidates::Candidates;
use super::verify::{DecodeMismatch, DecodeSummary};

/// The hart's steps after the previous run's end in which a run after a loss may start
/// (the least window).
pub const SEARCH_WINDOW: usize = 1 << 16;

/// The largest window [`window_for`] gives (the hart's steps held while a run after a loss
/// is placed).
pub const MAX_SEARCH_WINDOW: usize = 1 << 24;

/// The window for the output of a co-simulation with a FIFO of `fifo_bytes` whose consumer
/// is not ready with probability `stall_probability`: a loss lasts until the FIFO drains,
/// at about `1 - stall_probability` bytes per cycle, while the hart presents a record (at
/// most two steps) per cycle; eight times that, at least [`SEARCH_WINDOW`], at most
/// [`MAX_SEARCH_WINDOW`].
pub fn window_for(fifo_bytes: usize, stall_probability: f64) -> usize {
    let drain = (1.0 - stall_probability).max(1e-9);
    let steps = 8.0 * fifo_bytes.max(1) as f64 / drain;
    (steps.min(MAX_SEARCH_WINDOW as f64) as usize).clamp(SEARCH_WINDOW, MAX_SEARCH_WINDOW)
}

/// Why the streamed check stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamCheckError {
    /// The decoded trace does not match (as [`super::verify::check_decoded`] says).
    #[error("{0}")]
    Mismatch(#[from] DecodeMismatch),
    /// A run after a trace loss is not in the window of the hart's steps after the
    /// previous run, and the hart has steps past the window.
    #[error(
        "run {run} after a trace loss ({len} steps, first {first:?}) does not continue any \
         of the hart's {window} steps after step {after}{why}; the check looks no further",
        why = if *.first_seen {
            " (its first step occurs there)"
        } else {
            " (its first step does not occur there: most likely a real mismatch)"
        }
    )]
    TooFar {
        /// Run index.
        run: usize,
        /// Its length in steps.
        len: usize,
        /// Its first step.
        first: Step,
        /// Where the previous run ended in the hart's steps.
        after: usize,
        /// The window's length in steps.
        window: usize,
        /// Whether the run's first step occurs in the window.
        first_seen: bool,
    },
}

/// The streamed comparison of a decoded trace with the hart's steps.
pub struct StreamCheck<'a, S> {
    params: Params,
    image: &'a ProgramImage,
    decoder: TeDecoder<'a>,
    packets: u64,
    walker: StepWalker,
    runs: Runs<S>,
    /// The first decode error (it is reported before any other difference).
    decode_error: Option<DecodeMismatch>,
    /// A `TraceOff` ends a run as a loss does ([`StreamCheck::with_trace_off_runs`]).
    trace_off_ends_run: bool,
}

/// The runs of the trace matched against the hart's steps.
struct Runs<S> {
    hart: S,
    /// Hart steps pulled and not yet passed, from step `held_at` on.
    held: VecDeque<Step>,
    held_at: usize,
    /// Where the previous run ended in the hart's steps.
    after: usize,
    /// The current run: its index, steps, first step.
    run: usize,
    len: usize,
    first: Option<Step>,
    /// After a loss: the places in the hart's steps where the run so far is found, whether
    /// the run's first step was found, and whether the search for it stopped at the
    /// window's end with more hart steps.
    candidates: Candidates,
    first_seen: bool,
    cut: bool,
    /// The window's length in steps.
    window: usize,
    /// The current run's first difference, replaced by a trace that leaves the program.
    pending: Option<StreamCheckError>,
    /// The first run that did not match ends the comparison.
    failed: Option<StreamCheckError>,
    summary: DecodeSummary,
}

impl<'a, S: Iterator<Item = Step>> StreamCheck<'a, S> {
    /// A check of a trace of an encoder with `params` over `image` against the `hart`'s
    /// steps.
    pub fn new(
        params: &Params,
        image: &'a ProgramImage,
        decoder: DecoderConfig,
        hart: S,
    ) -> StreamCheck<'a, S> {
        StreamCheck {
            params: params.clone(),
            image,
            decoder: TeDecoder::new(image, params, decoder),
            packets: 0,
            walker: StepWalker::new(),
            runs: Runs {
                hart,
                held: VecDeque::new(),
                held_at: 0,
                after: 0,
                run: 0,
                len: 0,
                first: None,
                candidates: Candidates::default(),
                first_seen: false,
                cut: false,
                window: SEARCH_WINDOW,
                pending: None,
                failed: None,
                summary: DecodeSummary::default(),
            },
            decode_error: None,
            trace_off_ends_run: false,
        }
    }

    /// The check of a trace that software switches off and on again (the trace control
    /// registers): a `TraceOff` ends a run as a loss does, and the run after it is looked
    /// for in the window after the previous one.
    pub fn with_trace_off_runs(mut self) -> StreamCheck<'a, S> {
        self.trace_off_ends_run = true;
        self
    }

    /// The check with a window of `steps` hart steps (at least 1) in which a run after a
    /// loss may start ([`window_for`]; default [`SEARCH_WINDOW`]).
    pub fn with_window(mut self, steps: usize) -> StreamCheck<'a, S> {
        self.runs.window = steps.max(1);
        self
    }

    /// The next payload events of the trace.
    pub fn push(&mut self, events: &[PayloadEvent]) {
        self.packets = feed_payloads(&mut self.decoder, &self.params, self.packets, events);
        let elements = self.decoder.take_elements(false);
        self.elements(&elements);
    }

    /// The end of the trace: how much of the hart's execution it covered, or the first
    /// problem.
    pub fn finish(mut self) -> Result<DecodeSummary, StreamCheckError> {
        let elements = self.decoder.take_elements(true);
        self.elements(&elements);
        if let Some(e) = self.decode_error {
            return Err(e.into());
        }
        self.runs.end_run();
        match self.runs.failed {
            Some(e) => Err(e),
            None => Ok(self.runs.summary),
        }
    }

    fn elements(&mut self, elements: &[TraceElement]) {
        for e in elements {
            if let Some(d) = e.decode_error() {
                self.decode_error.get_or_insert(DecodeMismatch::Decode {
                    packet: d.packet_index,
                    reason: d.cause.to_string(),
                });
                continue;
            }
            if self.decode_error.is_some() || self.runs.failed.is_some() {
                continue;
            }
            let trace_off = self.trace_off_ends_run && matches!(e, TraceElement::TraceOff);
            if matches!(e, TraceElement::TraceLost) || trace_off {
                self.runs.end_run();
                self.walker = StepWalker::new();
                continue;
            }
            if matches!(
                self.runs.pending,
                Some(StreamCheckError::Mismatch(
                    DecodeMismatch::OutsideImage { .. }
                ))
            ) {
                continue;
            }
            let runs = &mut self.runs;
            if let Err(address) = self
                .walker
                .walk(std::slice::from_ref(e), self.image, |s| runs.step(s))
            {
                runs.pending = Some(
                    DecodeMismatch::OutsideImage {
                        run: runs.run,
                        address,
                    }
                    .into(),
                );
            }
        }
    }
}

impl<S: Iterator<Item = Step>> Runs<S> {
    /// The hart's step `index`, pulled as needed (`None` past its end).
    fn hart_step(&mut self, index: usize) -> Option<Step> {
        // Steps before `held_at` are only passed once no candidate needs them.
        debug_assert!(
            index >= self.held_at,
            "step {index} before {}",
            self.held_at
        );
        while self.held_at + self.held.len() <= index {
            self.held.push_back(self.hart.next()?);
        }
        self.held.get(index - self.held_at).copied()
    }

    /// Forgets the hart's steps before `index`.
    fn pass(&mut self, index: usize) {
        while self.held_at < index && self.held.pop_front().is_some() {
            self.held_at += 1;
        }
    }

    /// The next decoded step of the current run.
    fn step(&mut self, step: Step) {
        let index = self.len;
        self.len += 1;
        if self.pending.is_some() {
            return;
        }
        self.first.get_or_insert(step);
        if self.run == 0 {
            let expected = self.hart_step(index);
            self.pass(index + 1);
            if expected != Some(step) {
                self.pending = Some(
                    DecodeMismatch::Differs {
                        index,
                        decoded: Some(step),
                        expected,
                    }
                    .into(),
                );
            }
            return;
        }
        let mut candidates = std::mem::take(&mut self.candidates);
        if index == 0 {
            let end = self.after + self.window;
            let mut p = self.after;
            while let Some(s) = self.hart_step(p) {
                if p == end {
                    self.cut = true;
                    break;
                }
                if s == step {
                    candidates.add_first(p);
                    self.first_seen = true;
                }
                p += 1;
            }
        } else {
            candidates.extend(step, |p| self.hart_step(p));
        }
        // The candidates need the hart's steps after this one only.
        match candidates.first() {
            Some(p) => self.pass(p + index + 1),
            None => self.pass(self.held_at + self.held.len()),
        }
        self.candidates = candidates;
    }

    /// The end of the current run: it is placed in the hart's steps, or the comparison
    /// fails.
    fn end_run(&mut self) {
        if self.failed.is_some() {
            return;
        }
        let run = self.run;
        self.run += 1;
        let (len, first) = (std::mem::take(&mut self.len), self.first.take());
        let start = self.candidates.first();
        self.candidates.clear();
        let cut = std::mem::take(&mut self.cut);
        let first_seen = std::mem::take(&mut self.first_seen);
        if let Some(e) = self.pending.take() {
            self.failed = Some(e);
            return;
        }
        // A run is counted when it has steps (the first always: an empty trace is one
        // empty run).
        if first.is_some() || run == 0 {
            self.summary.runs += 1;
        }
        let Some(first) = first else {
            return;
        };
        let start = if run == 0 {
            0
        } else if let Some(start) = start {
            start
        } else {
            let after = self.after;
            self.failed = Some(if cut {
                StreamCheckError::TooFar {
                    run,
                    len,
                    first,
                    after,
                    window: self.window,
                    first_seen,
                }
            } else {
                DecodeMismatch::NotInExecution {
                    run,
                    len,
                    first,
                    after,
                }
                .into()
            });
            return;
        };
        self.after = start + len;
        self.pass(self.after);
        self.summary.steps += len as u64;
    }
}

/// The hart's steps of a stream of its records (`decoder::pcs::push_record_steps` of each
/// record, in order), as [`StreamCheck`] pulls them.
pub struct HartSteps<I> {
    records: I,
    steps: Vec<Step>,
    at: usize,
}

impl<I: Iterator<Item = IngressRecord>> HartSteps<I> {
    /// The steps of `records`.
    pub fn new(records: I) -> HartSteps<I> {
        HartSteps {
            records,
            steps: Vec::with_capacity(2),
            at: 0,
        }
    }
}

impl<I: Iterator<Item = IngressRecord>> Iterator for HartSteps<I> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        while self.at == self.steps.len() {
            self.steps.clear();
            self.at = 0;
            push_record_steps(&mut self.steps, &self.records.next()?);
        }
        self.at += 1;
        Some(self.steps[self.at - 1])
    }
}
