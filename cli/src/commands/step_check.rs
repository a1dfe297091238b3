//! The step-by-step check of `etrace run` (`docs/cli.md`, "run"), done as the steps come:
//! the hart's steps wait in a bounded queue until the decoder, which lags the encoder by
//! the records between two packets, reproduces them; only the last three matched steps
//! are kept, for the context of a difference. A lag past the bound is an error, not a
//! growing queue.

use super::element_text::privilege_name;
use crate::error::CliError;
use etrace_decoder::pcs::Step;
use std::collections::VecDeque;

/// Steps of context printed before and after the first difference (three before it, the
/// difference and three after).
const BEFORE: usize = 3;
const FROM: usize = 4;

/// The steps one side may run ahead of the other (16 bytes each: 64 MiB at most).
pub(super) const LAG_LIMIT: usize = 1 << 22;

/// The comparison of the hart's steps with the decoded ones, in order.
pub(super) struct StepCheck {
    expected: VecDeque<Step>,
    decoded: VecDeque<Step>,
    matched: u64,
    recent: VecDeque<Step>,
    divergence: Option<Divergence>,
    limit: usize,
    overflow: Option<&'static str>,
    /// The longest either queue grew (a measure of the decoder's lag).
    pub(super) max_lag: usize,
}

/// The first difference: its step index and the steps around it on both sides.
struct Divergence {
    at: u64,
    before: Vec<Step>,
    expected: Vec<Step>,
    decoded: Vec<Step>,
}

impl StepCheck {
    /// A check that lets either side run at most `limit` steps ahead.
    pub(super) fn new(limit: usize) -> StepCheck {
        StepCheck {
            expected: VecDeque::new(),
            decoded: VecDeque::new(),
            matched: 0,
            recent: VecDeque::with_capacity(BEFORE + 1),
            divergence: None,
            limit,
            overflow: None,
            max_lag: 0,
        }
    }

    /// The hart's next step.
    pub(super) fn expected(&mut self, step: Step) {
        if let Some(d) = &mut self.divergence {
            push_context(&mut d.expected, step);
        } else if self.overflow.is_none() {
            self.expected.push_back(step);
            self.settle();
        }
    }

    /// The decoder's next step.
    pub(super) fn decoded(&mut self, step: Step) {
        if let Some(d) = &mut self.divergence {
            push_context(&mut d.decoded, step);
        } else if self.overflow.is_none() {
            self.decoded.push_back(step);
            self.settle();
        }
    }

    /// The error of a side that ran too far ahead, once it has.
    pub(super) fn lag_error(&self, place: &str) -> Option<CliError> {
        self.overflow.map(|side| {
            CliError::check(
                format!(
                    "the {side} ran more than {} steps ahead of the other side (at step {}): \
                     the check holds no more",
                    self.limit, self.matched
                ),
                place,
            )
        })
    }

    /// Ends the check: the number of equal steps, or the first difference as an error
    /// naming its step, both sides and the steps around it.
    pub(super) fn finish(mut self, place: &str) -> Result<u64, CliError> {
        if let Some(e) = self.lag_error(place) {
            return Err(e);
        }
        if self.divergence.is_none() && (!self.expected.is_empty() || !self.decoded.is_empty()) {
            self.diverge(None, None);
        }
        match &self.divergence {
            None => Ok(self.matched),
            Some(d) => Err(d.error(place)),
        }
    }

    /// Compares the steps both sides have; records the first difference.
    fn settle(&mut self) {
        while !self.expected.is_empty() && !self.decoded.is_empty() {
            let (e, d) = (self.expected.pop_front(), self.decoded.pop_front());
            if e != d {
                self.diverge(e, d);
                return;
            }
            self.matched += 1;
            if self.recent.len() == BEFORE {
                self.recent.pop_front();
            }
            self.recent.extend(e);
        }
        let lag = self.expected.len().max(self.decoded.len());
        self.max_lag = self.max_lag.max(lag);
        if lag > self.limit {
            self.overflow = Some(if self.expected.len() > self.limit {
                "hart"
            } else {
                "decoder"
            });
            self.expected = VecDeque::new();
            self.decoded = VecDeque::new();
        }
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
        });
    }
}

/// Keeps a step after the difference while the context wants more.
fn push_context(steps: &mut Vec<Step>, step: Step) {
    if steps.len() < FROM {
        steps.push(step);
    }
}

impl Divergence {
    /// The error of `etrace run` for this difference, with three steps of context before
    /// and after it.
    fn error(&self, place: &str) -> CliError {
        let n = self.at;
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
    /// counts as a difference).
    #[test]
    fn streamed_check_equals_the_whole_comparison() {
        let base: Vec<Step> = (0..40).map(|i| insn(0x100 + 4 * i)).collect();
        let mut changed = base.clone();
        changed[17] = insn(0x999);
        let cases: [(&[Step], &[Step]); 4] = [
            (&base, &base),
            (&base, &changed),
            (&base, &base[..30]),
            (&base[..2], &base),
        ];
        for (expected, decoded) in cases {
            let whole =
                (0..expected.len().max(decoded.len())).find(|&i| expected.get(i) != decoded.get(i));
            for lead in [1usize, 5, 40] {
                let mut check = StepCheck::new(64);
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
                match (check.finish("t"), whole) {
                    (Ok(n), None) => assert_eq!(n, expected.len() as u64),
                    (Err(err), Some(i)) => {
                        let text = what(err);
                        assert!(text.contains(&format!("at step {i} ")), "{text}");
                    }
                    (got, want) => panic!("lead {lead}: {:?} vs {want:?}", got.map_err(what)),
                }
            }
        }
    }

    /// A side that runs further ahead than the limit is an error, and the queue stops
    /// growing.
    #[test]
    fn a_lag_past_the_limit_is_an_error() {
        let mut check = StepCheck::new(8);
        for i in 0..100 {
            check.expected(insn(4 * i));
        }
        assert!(check.max_lag <= 9);
        let err = what(check.finish("t").unwrap_err());
        assert!(
            err.contains("the hart ran more than 8 steps ahead"),
            "{err}"
        );
    }
}
