//! Long walks of `follow_execution_path` (`decoder.adoc` "Decoder pseudo code"), with
//! memory and output bounded, whether the packet is sound or corrupted.
//!
//! The walk of a packet is as long as the path its branch outcomes describe. A format 0
//! packet (`payload.adoc` "Format 0 packets") counts up to 2^32 - 1 + 31 correctly
//! predicted branches, so a sound one can stand for billions of instructions (a long loop
//! whose branches the predictor gets right); a corrupted one (one flipped bit in
//! `branch_count`) looks just the same until its walk fails to reach the reported address
//! after the bound of `walk_bound`. The pseudo code reports every instruction as it walks
//! (`report_pc`), so a decoder that only followed it would either keep the whole walk of a
//! corrupted packet in memory, or write it out, before the error (tens of millions of
//! instructions for a few bytes of input). Here:
//!
//! * a walk keeps at most [`DecoderConfig::walk_buffer`] elements while it is not known to
//!   reach its address. Once it outgrows them, a copy of the decoder (a probe) follows the
//!   rest of the walk to its end, keeping nothing. A walk whose probe fails ends with the
//!   probe's error after the elements kept: a corrupted packet gives a bounded listing
//!   and its error;
//! * a walk whose probe reaches the address goes on from where it was, and pauses each
//!   time its buffer is full ([`Paused`]), so that the caller can hand the elements out
//!   ([`TeDecoder::process_with`]) before it goes on: a sound packet's walk is streamed,
//!   never held whole. The probe and the walk run the same code from the same state, so
//!   the walk reaches the address as the probe did;
//! * the probe crosses a path that repeats while it uses a run of correctly predicted
//!   branches (the same `pc`, `last_pc`, return stack and predictor table: Brent's cycle
//!   finding again) a whole number of periods at a time, leaving a few periods to walk
//!   before the run ends: a count of billions of predicted branches through a loop is
//!   checked in a few periods' time, and a corrupted one fails at once when the periods
//!   it needs exceed the bound. No stop condition of `follow_execution_path` can hold
//!   within the periods crossed: each needs the branch outcomes used up, or would have
//!   held in the first period.
//!
//! Format 3 walks pause too (the rest of the format 3 packet is done when the walk ends);
//! the follow-on to the end of a trace after an inferred address (`process_support`) has
//! at most one branch outcome to use, so its bound of branch-free instructions bounds it.
//!
//! [`DecoderConfig::walk_buffer`]: super::DecoderConfig

use super::cursor::Cursor;
use super::walk_bound::WalkBound;
use super::{Fail, TeDecoder};
use etrace_spec::packet::AddressInfo;
use etrace_spec::predictor::BranchPredictor;

/// Where a walk of `follow_execution_path` goes: what it is given when it starts, the same
/// at every step.
#[derive(Debug, Clone, Copy)]
pub(super) struct WalkTarget {
    /// The packet followed.
    pub te: AddressInfo,
    /// A format 3 packet's privilege (its walk stops under format 3's conditions).
    pub format3: Option<u8>,
    /// `pc` when the walk started.
    pub previous_address: u64,
}

/// A walk paused with its buffer full, and what it needs to go on.
#[derive(Debug, Clone)]
pub(super) struct Paused {
    /// The walk's bound so far.
    bound: WalkBound,
    /// Where it goes.
    target: WalkTarget,
    /// A format 3 packet's context (its walk is followed by the rest of the packet).
    pub context: u64,
}

/// Brent's cycle finding over the states of a probe's walk while it uses a run of
/// correctly predicted branches.
#[derive(Debug, Clone, Default)]
pub(super) struct CycleFinder {
    saved: Option<Box<CycleState>>,
    /// States seen since the saved one, and how long it is kept.
    since: u64,
    period: u64,
}

/// The state that decides a walk's path while the outcomes are predicted ones, and the
/// counts at that point.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CycleState {
    pc: u64,
    last_pc: u64,
    implicit_return: bool,
    stack: Vec<u64>,
    predictor: BranchPredictor,
    /// Instructions walked.
    steps: u64,
    /// Predicted outcomes left in the front run.
    predicted: u64,
    /// Outcomes left in all.
    outcomes: u64,
}

/// Periods of a repeating path always walked before the run of predicted branches ends.
const PERIODS_LEFT: u64 = 2;

impl<'a> TeDecoder<'a> {
    /// A walk starts: its buffer ends [`super::DecoderConfig::walk_buffer`] elements on.
    pub(super) fn start_walk(&mut self) {
        self.walk_verified = false;
        self.buffer_end = self.elements.len().saturating_add(self.config.walk_buffer);
    }

    /// Goes on with the walk `paused` (the caller took the elements or kept them), to the
    /// end of its packet or its next pause.
    pub(super) fn resume_walk(&mut self, paused: Paused) -> Result<(), Fail> {
        self.buffer_end = self.elements.len().saturating_add(self.config.walk_buffer);
        let Paused {
            bound,
            target,
            context,
        } = paused;
        let mut cur = self.cursor;
        let result = self.follow(&mut cur, &target, bound);
        self.cursor = cur;
        result?;
        match (&mut self.paused, target.format3) {
            (Some(again), _) => again.context = context,
            (None, Some(privilege)) => self.end_sync_walk(privilege, context)?,
            (None, None) => {}
        }
        Ok(())
    }

    /// A step at or past the buffer's end: in a probe (every step) the elements are
    /// dropped when the buffer is full and the path's periods are looked for; else the
    /// walk filled its buffer, and is verified (once) and pauses (true).
    #[cold]
    #[inline(never)]
    pub(super) fn past_buffer_end(
        &mut self,
        cur: &Cursor,
        bound: &mut WalkBound,
        target: &WalkTarget,
    ) -> Result<bool, Fail> {
        if self.probe.is_some() {
            if self.elements.len() >= self.config.walk_buffer {
                self.elements.clear();
            }
            self.probe_cycle(cur, bound)?;
            return Ok(false);
        }
        if !self.walk_verified {
            self.verify_walk(cur, bound, target)?;
            self.walk_verified = true;
        }
        self.paused = Some(Box::new(Paused {
            bound: bound.clone(),
            target: *target,
            context: 0,
        }));
        Ok(true)
    }

    /// Follows the rest of the walk at `cur` on a probe (a copy of the decoder that keeps
    /// no elements): its error, if it does not reach the address.
    fn verify_walk(
        &mut self,
        cur: &Cursor,
        bound: &WalkBound,
        target: &WalkTarget,
    ) -> Result<(), Fail> {
        let elements = std::mem::take(&mut self.elements);
        let mut probe = self.clone();
        self.elements = elements;
        probe.probe = Some(Box::default());
        // Every step of a probe goes to `past_buffer_end`.
        probe.buffer_end = 0;
        let mut cur = *cur;
        probe.follow(&mut cur, target, bound.clone())
    }

    /// A probe's walk enters its next phase: the states seen so far do not recur.
    pub(super) fn forget_cycle(&mut self) {
        if let Some(finder) = &mut self.probe {
            **finder = CycleFinder::default();
        }
    }

    /// A probe at `cur`, `bound` its walk's bound: when the path has repeated a state
    /// while using a run of correctly predicted branches only, crosses all but
    /// [`PERIODS_LEFT`] periods of what is left of the run at once; the error when the
    /// walk is then too long.
    pub(super) fn probe_cycle(&mut self, cur: &Cursor, bound: &mut WalkBound) -> Result<(), Fail> {
        let Some(mut finder) = self.probe.take() else {
            return Ok(());
        };
        let result = self.find_cycle(&mut finder, cur, bound);
        self.probe = Some(finder);
        result
    }

    /// [`Self::probe_cycle`] with the finder at hand.
    fn find_cycle(
        &mut self,
        finder: &mut CycleFinder,
        cur: &Cursor,
        bound: &mut WalkBound,
    ) -> Result<(), Fail> {
        let Some(predicted) = self.outcomes.front_predicted() else {
            *finder = CycleFinder::default();
            return Ok(());
        };
        let outcomes = self.outcomes.len();
        if let Some(saved) = &finder.saved {
            let used = saved.outcomes - outcomes;
            if used > 0
                && saved.predicted.checked_sub(predicted) == Some(used)
                && saved.pc == cur.pc
                && saved.last_pc == cur.last_pc
                && saved.implicit_return == cur.last_was_implicit_return
                && saved.stack == self.return_stack.entries()
                && saved.predictor == self.predictor
            {
                // The path from here is the path from the saved state: it repeats every
                // `length` instructions and `used` outcomes, for as long as the run lasts.
                let length = bound.steps() - saved.steps;
                let periods = (predicted / used).saturating_sub(PERIODS_LEFT);
                *finder = CycleFinder::default();
                if periods > 0 && self.outcomes.skip_predicted(periods * used) {
                    bound
                        .skip(periods.saturating_mul(length))
                        .map_err(|cut| self.not_reached(cut))?;
                }
                return Ok(());
            }
        }
        finder.since += 1;
        if finder.saved.is_none() || finder.since >= finder.period {
            finder.period = if finder.saved.is_some() {
                finder.period.saturating_mul(2)
            } else {
                1
            };
            finder.since = 0;
            finder.saved = Some(Box::new(CycleState {
                pc: cur.pc,
                last_pc: cur.last_pc,
                implicit_return: cur.last_was_implicit_return,
                stack: self.return_stack.entries().to_vec(),
                predictor: self.predictor.clone(),
                steps: bound.steps(),
                predicted,
                outcomes,
            }));
        }
        Ok(())
    }
}
