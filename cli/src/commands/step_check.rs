//! The step-by-step check of `etrace run` (`docs/cli.md`, "run"), done as the steps come:
//! the hart's steps wait in a bounded queue until the decoder, which lags the encoder by
//! the records between two packets, reproduces them; only the last three matched steps
//! are kept, for the context of a difference. Past [`LAG_LIMIT`] steps the hart's further
//! steps are kept as digests of blocks ([`super::step_digest`]), which the decoded steps
//! are compared with block by block; a block that differs is located exactly by running
//! the hart again ([`StepCheck::replay`]). A lag past the digests' bound is an error, not a
//! growing queue.

use super::element_text::privilege_name;
use super::step_digest::{Digest, BLOCK_STEPS};
use crate::error::CliError;
use etrace_decoder::pcs::Step;
use std::collections::VecDeque;

/// Steps of context printed before and after the first difference (three before it, the
/// difference and three after).
const BEFORE: usize = 3;
const FROM: usize = 4;

/// The steps one side may run ahead of the other step by step (16 bytes each: 64 MiB at
/// most); the hart's steps past them are kept as digests.
pub(super) const LAG_LIMIT: usize = 1 << 22;

/// Digest blocks the hart may run ahead by, past [`LAG_LIMIT`] (16 bytes each: 16 MiB at
/// most, for 2^32 steps).
pub(super) const DIGEST_LIMIT: usize = 1 << 20;

/// The comparison of the hart's steps with the decoded ones, in order.
pub(super) struct StepCheck {
    /// The hart's steps not yet compared, one by one.
    expected: VecDeque<Step>,
    /// The hart's steps after `expected`, once it ran `limit` steps ahead: digests of
    /// blocks of [`BLOCK_STEPS`] (the last may be growing).
    digests: VecDeque<Digest>,
    /// The steps in `digests`.
    digest_steps: u64,
    /// The decoded steps of the first digest block so far, and their digest.
    block: Vec<Step>,
    block_digest: Digest,
    /// The decoded steps not yet compared.
    decoded: VecDeque<Step>,
    /// No more decoded steps come (a replay): a hart step past them is a difference.
    decoded_ended: bool,
    matched: u64,
    recent: VecDeque<Step>,
    divergence: Option<Divergence>,
    limit: usize,
    hart_limit: usize,
    digest_limit: usize,
    /// Steps per digest block ([`BLOCK_STEPS`]).
    block_steps: u32,
    overflow: Option<&'static str>,
    /// The most steps either side was ahead (a measure of the decoder's lag).
    pub(super) max_lag: u64,
}

/// The first difference: its step index and the steps around it on both sides.
struct Divergence {
    at: u64,
    before: Vec<Step>,
    expected: Vec<Step>,
    decoded: Vec<Step>,
    /// Located to a digest block only: `decoded` holds the block's decoded steps (and
    /// those after it, up to [`FROM`]), `expected` nothing.
    blind: bool,
}

/// A difference located to a digest block, to be located exactly: the hart's steps from
/// step `from` on go to `check`'s [`StepCheck::expected`], which then finishes with the
/// difference.
pub(super) struct Replay {
    /// The index of the first hart step the check wants.
    pub(super) from: u64,
    /// The check, with the decoded steps from `from` on.
    pub(super) check: StepCheck,
}

impl StepCheck {
    /// A check that lets either side run at most `limit` steps ahead step by step, and
    /// the hart [`DIGEST_LIMIT`] digest blocks further.
    pub(super) fn new(limit: usize) -> StepCheck {
        StepCheck::with_digests(limit, limit, DIGEST_LIMIT, BLOCK_STEPS)
    }

    /// A check that lets the decoder run at most `limit` steps ahead, and the hart
    /// `hart_limit` steps one by one and `digest_limit` digest blocks of `block_steps`
    /// further.
    pub(super) fn with_digests(
        limit: usize,
        hart_limit: usize,
        digest_limit: usize,
        block_steps: u32,
    ) -> StepCheck {
        StepCheck {
            expected: VecDeque::new(),
            digests: VecDeque::new(),
            digest_steps: 0,
            block: Vec::new(),
            block_digest: Digest::default(),
            decoded: VecDeque::new(),
            decoded_ended: false,
            matched: 0,
            recent: VecDeque::with_capacity(BEFORE + 1),
            divergence: None,
            limit,
            hart_limit,
            digest_limit,
            block_steps,
            overflow: None,
            max_lag: 0,
        }
    }

    /// The hart's next step.
    pub(super) fn expected(&mut self, step: Step) {
        if let Some(d) = &mut self.divergence {
            if !d.blind {
                push_context(&mut d.expected, step, FROM);
            }
        } else if self.overflow.is_none() {
            if self.digests.is_empty() && self.expected.len() < self.hart_limit {
                self.expected.push_back(step);
            } else {
                self.digest(step);
            }
            self.settle();
        }
    }

    /// Adds a hart step to the last digest block, or to a new one.
    fn digest(&mut self, step: Step) {
        match self.digests.back_mut() {
            Some(last) if last.count < self.block_steps => last.add(step),
            _ => {
                let mut block = Digest::default();
                block.add(step);
                self.digests.push_back(block);
            }
        }
        self.digest_steps += 1;
    }

    /// The decoder's next step.
    pub(super) fn decoded(&mut self, step: Step) {
        if let Some(d) = &mut self.divergence {
            let room = if d.blind {
                self.block_steps as usize
            } else {
                0
            } + FROM;
            push_context(&mut d.decoded, step, room);
        } else if self.overflow.is_none() {
            self.decoded.push_back(step);
            self.settle();
        }
    }

    /// A difference located to a digest block only: the check that locates it in the
    /// hart's steps run again (the three steps before the block, equal on both sides, and
    /// the block's decoded steps).
    pub(super) fn replay(&mut self) -> Option<Replay> {
        self.settle_end();
        if !self.divergence.as_ref().is_some_and(|d| d.blind) {
            return None;
        }
        let d = self.divergence.take()?;
        let from = d.at - d.before.len() as u64;
        let mut check = StepCheck::with_digests(usize::MAX, usize::MAX, 0, self.block_steps);
        check.matched = from;
        check.decoded = d.before.into_iter().chain(d.decoded).collect();
        check.decoded_ended = true;
        Some(Replay { from, check })
    }

    /// The error of a side that ran too far ahead, once it has.
    pub(super) fn lag_error(&self, place: &str) -> Option<CliError> {
        self.overflow.map(|side| {
            let steps = match side {
                "hart" => {
                    self.hart_limit as u64 + self.digest_limit as u64 * u64::from(self.block_steps)
                }
                _ => self.limit as u64,
            };
            CliError::check(
                format!(
                    "the {side} ran more than {steps} steps ahead of the other side (at step {}): \
                     the check holds no more",
                    self.matched
                ),
                place,
            )
        })
    }

    /// Ends the check: the number of equal steps, or the first difference as an error
    /// naming its step, both sides and the steps around it. (A difference in a digest
    /// block is located by [`StepCheck::replay`] first; without it, the error names the
    /// block.)
    pub(super) fn finish(mut self, place: &str) -> Result<u64, CliError> {
        if let Some(e) = self.lag_error(place) {
            return Err(e);
        }
        self.settle_end();
        match &self.divergence {
            None => Ok(self.matched),
            Some(d) => Err(d.error(place)),
        }
    }

    /// At the end of both sides: what is left on either side is a difference.
    fn settle_end(&mut self) {
        if self.divergence.is_some() || self.overflow.is_some() {
            return;
        }
        if !self.digests.is_empty() {
            self.diverge_blind();
        } else if !self.expected.is_empty() || !self.decoded.is_empty() {
            self.diverge(None, None);
        }
    }

    /// Compares the steps both sides have; records the first difference.
    fn settle(&mut self) {
        loop {
            if let (Some(&e), Some(&d)) = (self.expected.front(), self.decoded.front()) {
                self.expected.pop_front();
                self.decoded.pop_front();
                if e != d {
                    self.diverge(Some(e), Some(d));
                    return;
                }
                self.matched += 1;
                self.remember(&[e]);
                continue;
            }
            if !self.expected.is_empty() {
                if self.decoded_ended {
                    let e = self.expected.pop_front();
                    self.diverge(e, None);
                    return;
                }
                break;
            }
            let Some(&front) = self.digests.front() else {
                break;
            };
            if self.block_digest.count < front.count {
                let Some(d) = self.decoded.pop_front() else {
                    break;
                };
                self.block_digest.add(d);
                self.block.push(d);
                continue;
            }
            // The decoded steps of the whole block (or of all of the last block so far).
            if self.block_digest != front {
                self.diverge_blind();
                return;
            }
            self.digests.pop_front();
            self.digest_steps -= u64::from(front.count);
            self.matched += u64::from(front.count);
            let block = std::mem::take(&mut self.block);
            self.remember(&block);
            self.block = block;
            self.block.clear();
            self.block_digest = Digest::default();
        }
        let ahead = self.expected.len() as u64 + self.digest_steps;
        self.max_lag = self.max_lag.max(ahead).max(self.decoded.len() as u64);
        let side = if self.digests.len() > self.digest_limit {
            Some("hart")
        } else if self.decoded.len() > self.limit {
            Some("decoder")
        } else {
            None
        };
        if side.is_some() {
            self.overflow = side;
            self.expected = VecDeque::new();
            self.decoded = VecDeque::new();
            self.digests = VecDeque::new();
        }
    }

    /// Keeps the last [`BEFORE`] of the matched `steps` as the context of a difference.
    #[inline]
    fn remember(&mut self, steps: &[Step]) {
        for &step in &steps[steps.len().saturating_sub(BEFORE)..] {
            if self.recent.len() == BEFORE {
                self.recent.pop_front();
            }
            self.recent.push_back(step);
        }
    }

    /// The first difference, somewhere in the first digest block (or the decoded steps
    /// ended in it): the block's decoded steps, then those queued after them.
    fn diverge_blind(&mut self) {
        let mut decoded = std::mem::take(&mut self.block);
        decoded.extend(self.decoded.drain(..).take(FROM));
        self.divergence = Some(Divergence {
            at: self.matched,
            before: self.recent.iter().copied().collect(),
            expected: Vec::new(),
            decoded,
            blind: true,
        });
        self.expected = VecDeque::new();
        self.digests = VecDeque::new();
        self.decoded = VecDeque::new();
    }

    /// The first difference, at the next step: `e` and `d` (when taken from the queues)
    /// then what remains queued on each side.
    fn diverge(&mut self, e: Option<Step>, d: Option<Step>) {
        let side = |first: Option<Step>, queue: &mut VecDeque<Step>| {
            let steps: Vec<Step> = first
                .into_iter()
                .chain(queue.drain(..))
                .take(FROM)
                .collect();
            *queue = VecDeque::new();
            steps
        };
        self.divergence = Some(Divergence {
            at: self.matched,
            before: self.recent.iter().copied().collect(),
            expected: side(e, &mut self.expected),
            decoded: side(d, &mut self.decoded),
            blind: false,
        });
    }
}

/// Keeps a step after the difference while the context wants more (`room` steps).
fn push_context(steps: &mut Vec<Step>, step: Step, room: usize) {
    if steps.len() < room {
        steps.push(step);
    }
}

impl Divergence {
    /// The error of `etrace run` for this difference, with three steps of context before
    /// and after it.
    fn error(&self, place: &str) -> CliError {
        let n = self.at;
        if self.blind {
            return CliError::check(
                format!(
                    "decoded trace differs from the hart in a block of steps from step {n} \
                     (kept as a digest: the hart ran more than {LAG_LIMIT} steps ahead)"
                ),
                place,
            );
        }
        let first = n - self.before.len() as u64;
        // Before the difference both sides are the same step.
        let at = |side: &[Step], i: u64| -> Option<Step> {
            if i < n {
                self.before.get((i - first) as usize).copied()
            } else {
                side.get((i - n) as usize).copied()
            }
        };
        let mut err = CliError::check(
            format!(
                "decoded trace differs from the hart at step {n} (expected {}, decoded {})",
                step_text(at(&self.expected, n)),
                step_text(at(&self.decoded, n))
            ),
            place,
        )
        .with_context(format!("{:>10}  {:<32} decoded", "step", "expected (hart)"));
        for i in first..n + FROM as u64 {
            err = err.with_context(format!(
                "{:>10}{} {:<32} {}",
                i,
                if i == n { '>' } else { ' ' },
                step_text(at(&self.expected, i)),
                step_text(at(&self.decoded, i))
            ));
        }
        err
    }
}

/// A step as the difference report shows it.
fn step_text(s: Option<Step>) -> String {
    match s {
        Some(Step::Instruction { pc, privilege }) => {
            format!("insn {pc:#x} {}", privilege_name(privilege))
        }
        Some(Step::Trap { ecause, interrupt }) => {
            format!("trap ecause={ecause} interrupt={}", u8::from(interrupt))
        }
        None => "(end)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Step, StepCheck};
    use crate::error::CliError;
    use etrace_spec::ingress::Privilege;

    fn what(e: CliError) -> String {
        match e {
            CliError::Check { what, .. } | CliError::Input { what, .. } => what,
        }
    }

    fn insn(pc: u64) -> Step {
        Step::Instruction {
            pc,
            privilege: Privilege::Machine,
        }
    }

    /// The check fed in any interleaving gives what a whole-trace comparison gives: the
    /// count of equal steps, or the first index where the sides differ (a missing step
    /// counts as a difference), with the hart's steps held one by one or, past a lag of 2
    /// steps, as digests of blocks of 3 steps (a difference in a block then located by a
    /// replay of the hart's steps, [`StepCheck::replay`]).
    #[test]
    fn streamed_check_equals_the_whole_comparison() {
        let base: Vec<Step> = (0..40).map(|i| insn(0x100 + 4 * i)).collect();
        let cases: Vec<(&[Step], Vec<Step>)> = vec![
            (&base, base.clone()),
            (&base, changed(&base, 17)),
            (&base, changed(&base, 0)),
            (&base, changed(&base, 39)),
            (&base, base[..30].to_vec()),
            (&base, base[..31].to_vec()),
            (&base[..2], base.clone()),
            (&base[..31], base.clone()),
        ];
        for (expected, decoded) in &cases {
            let whole =
                (0..expected.len().max(decoded.len())).find(|&i| expected.get(i) != decoded.get(i));
            for (lead, digests) in [1usize, 5, 40]
                .into_iter()
                .flat_map(|l| [(l, false), (l, true)])
            {
                let mut check = if digests {
                    StepCheck::with_digests(64, 2, 64, 3)
                } else {
                    StepCheck::new(64)
                };
                let (mut e, mut d) = (expected.iter(), decoded.iter());
                loop {
                    let taken: Vec<&Step> = e.by_ref().take(lead).collect();
                    taken.iter().for_each(|s| check.expected(**s));
                    let got = d.next();
                    if let Some(s) = got {
                        check.decoded(*s);
                    }
                    if taken.is_empty() && got.is_none() {
                        break;
                    }
                }
                if let Some(mut replay) = check.replay() {
                    assert!(digests, "lead {lead}: a replay without digests");
                    for s in &expected[replay.from as usize..] {
                        replay.check.expected(*s);
                    }
                    check = replay.check;
                }
                match (check.finish("t"), whole) {
                    (Ok(n), None) => assert_eq!(n, expected.len() as u64),
                    (Err(err), Some(i)) => {
                        let text = what(err);
                        assert!(text.contains(&format!("at step {i} ")), "{text}");
                    }
                    (got, want) => panic!(
                        "lead {lead}, digests {digests}: {:?} vs {want:?}",
                        got.map_err(what)
                    ),
                }
            }
        }
    }

    /// `steps` with step `at` changed.
    fn changed(steps: &[Step], at: usize) -> Vec<Step> {
        let mut changed = steps.to_vec();
        changed[at] = insn(0x999);
        changed
    }

    /// A hart that runs further ahead than the limit and its digest blocks is an error,
    /// and the queues stop growing; so is a decoder further ahead than the limit.
    #[test]
    fn a_lag_past_the_limit_is_an_error() {
        let mut check = StepCheck::with_digests(8, 8, 4, 2);
        for i in 0..100 {
            check.expected(insn(4 * i));
        }
        assert!(check.max_lag <= 8 + 4 * 2 + 1, "{}", check.max_lag);
        let err = what(check.finish("t").unwrap_err());
        assert!(
            err.contains("the hart ran more than 16 steps ahead"),
            "{err}"
        );
        let mut check = StepCheck::new(8);
        for i in 0..100 {
            check.decoded(insn(4 * i));
        }
        assert!(check.max_lag <= 9);
        let err = what(check.finish("t").unwrap_err());
        assert!(
            err.contains("the decoder ran more than 8 steps ahead"),
            "{err}"
        );
    }

    /// A hart far ahead of the decoder: its steps past the limit are held as digests
    /// (memory: the limit's steps and a digest per block), all matched once the decoder
    /// catches up; after that the check holds steps one by one again.
    #[test]
    fn a_hart_far_ahead_is_checked_by_digests() {
        let steps: Vec<Step> = (0..10_000)
            .map(|i| insn(0x8000_0000 + 2 * (i % 37)))
            .collect();
        let mut check = StepCheck::with_digests(100, 100, 1000, 64);
        for s in &steps[..9000] {
            check.expected(*s);
        }
        assert_eq!(check.expected.len(), 100);
        assert_eq!(check.digests.len(), (8900usize).div_ceil(64));
        for s in &steps[..9000] {
            check.decoded(*s);
        }
        assert!(check.digests.is_empty() && check.expected.is_empty());
        for s in &steps[9000..] {
            check.expected(*s);
            check.decoded(*s);
        }
        assert!(check.digests.is_empty());
        assert_eq!(check.max_lag, 9000);
        assert!(check.replay().is_none());
        assert_eq!(check.finish("t").unwrap(), 10_000);
    }
}
