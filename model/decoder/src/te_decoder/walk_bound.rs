//! The bound of a walk of `follow_execution_path` (`decoder.adoc` "Decoder pseudo code"),
//! so that a corrupted packet costs little: a walk ends early when it cannot reach the
//! reported address.
//!
//! * A loop: the decoder state that decides the path (`pc`, `last_pc`, the branch outcomes
//!   left, the implicit-return stack) repeats. The path is then periodic and consumes no
//!   branch outcome, so the reported address, not reached so far, never is. Detected with
//!   Brent's cycle finding, once a walk has gone [`QUIET_STEPS`] instructions without a
//!   branch: within about twice the length of the loop and its lead-in after that.
//! * A branch-free stretch longer than [`DecoderConfig::max_steps_between_branches`]: the
//!   trace describes instructions through its branch outcomes (a branch map, a branch
//!   count), so a walk may take at most that many instructions per reported branch.
//! * In all, at most [`DecoderConfig::max_steps_per_packet`] instructions.
//!
//! A walk that cannot reach its address may still be long within these bounds (a format 0
//! count of billions of predicted branches round a loop): `long_walk` keeps what such a
//! walk gives bounded, and crosses the turns of such a loop at once.
//!
//! [`DecoderConfig::max_steps_between_branches`]: super::DecoderConfig
//! [`DecoderConfig::max_steps_per_packet`]: super::DecoderConfig

use super::cursor::Cursor;
use super::return_stack::ReturnStack;

/// Why a walk was cut short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cut {
    /// The path repeats a state at `pc` without using a branch outcome.
    Loop {
        /// An address of the loop.
        pc: u64,
    },
    /// More instructions than the bound without a branch outcome, or in all.
    TooLong,
}

/// The path-deciding state at one point of a walk (the return stack is compared on a
/// match of the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    pc: u64,
    last_pc: u64,
    implicit_return: bool,
    outcomes: u64,
    depth: u64,
}

/// Branch-free instructions after which the slow checks start: until then a walk only
/// counts its steps (one addition and one comparison per step, so that decoding a sound
/// trace, which uses a branch outcome every few instructions, stays fast).
pub(super) const QUIET_STEPS: u64 = 64;

/// The step count and loop detector of one walk.
#[derive(Debug, Clone)]
pub(super) struct WalkBound {
    /// Instructions walked.
    steps: u64,
    /// `steps` beyond which the next slow check is due.
    check_at: u64,
    /// Outcomes left at the last slow check.
    outcomes: u64,
    /// `steps` at the last slow check that found an outcome used: the start of the
    /// branch-free stretch (at most [`QUIET_STEPS`] late).
    stretch_start: u64,
    max_steps: u64,
    max_between_branches: u64,
    /// Brent's saved state, its return stack, the checks since it was saved and the
    /// period it is kept for.
    saved: Option<Key>,
    saved_stack: Vec<u64>,
    since_saved: u64,
    period: u64,
}

impl WalkBound {
    /// The bound of a walk that starts with `outcomes` branch outcomes queued.
    pub fn new(outcomes: u64, max_steps: u64, max_between_branches: u64) -> WalkBound {
        WalkBound {
            steps: 0,
            check_at: QUIET_STEPS.min(max_steps),
            outcomes,
            stretch_start: 0,
            max_steps,
            max_between_branches,
            saved: None,
            saved_stack: Vec::new(),
            since_saved: 0,
            period: 1,
        }
    }

    /// Counts `n` more instructions, walked to the state of `cur`, `outcomes` branch
    /// outcomes left and `stack`; `Err` when the walk must end.
    #[inline(always)]
    pub fn step(
        &mut self,
        n: u64,
        cur: &Cursor,
        outcomes: u64,
        stack: &ReturnStack,
    ) -> Result<(), Cut> {
        self.steps += n;
        if self.steps > self.check_at {
            return self.slow_check(cur, outcomes, stack);
        }
        Ok(())
    }

    /// Instructions walked so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Counts `n` instructions crossed without walking them (whole periods of a path that
    /// repeats while it uses branch outcomes); `Err` when the walk is then too long.
    pub fn skip(&mut self, n: u64) -> Result<(), Cut> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.max_steps {
            return Err(Cut::TooLong);
        }
        self.stretch_start = self.steps;
        self.forget_states();
        Ok(())
    }

    /// The checks of [`Self::step`] beyond the quiet steps: the bounds, and in a
    /// branch-free stretch the loop check at every step.
    #[cold]
    #[inline(never)]
    fn slow_check(&mut self, cur: &Cursor, outcomes: u64, stack: &ReturnStack) -> Result<(), Cut> {
        if self.steps > self.max_steps {
            return Err(Cut::TooLong);
        }
        if outcomes != self.outcomes {
            // A branch outcome was used: the path cannot have repeated since.
            self.outcomes = outcomes;
            self.stretch_start = self.steps;
            self.forget_states();
            self.check_at = self.steps.saturating_add(QUIET_STEPS).min(self.max_steps);
            return Ok(());
        }
        if self.steps - self.stretch_start > self.max_between_branches {
            return Err(Cut::TooLong);
        }
        self.check_at = self.steps;
        self.check_loop(cur, outcomes, stack)
    }

    /// Forgets the states seen so far (the walk goes on under other stop conditions, so
    /// that a state seen before no longer means a loop).
    pub fn forget_states(&mut self) {
        self.saved = None;
        self.period = 1;
    }

    /// Brent's cycle finding over the walk's states.
    fn check_loop(&mut self, cur: &Cursor, outcomes: u64, stack: &ReturnStack) -> Result<(), Cut> {
        let key = Key {
            pc: cur.pc,
            last_pc: cur.last_pc,
            implicit_return: cur.last_was_implicit_return,
            outcomes,
            depth: stack.depth(),
        };
        if self.saved == Some(key) && stack.entries() == self.saved_stack.as_slice() {
            return Err(Cut::Loop { pc: cur.pc });
        }
        self.since_saved += 1;
        if self.saved.is_none() || self.since_saved >= self.period {
            self.save(key, stack);
        }
        Ok(())
    }

    /// Keeps `key` as Brent's saved state, for twice as long as the one before.
    fn save(&mut self, key: Key, stack: &ReturnStack) {
        if self.saved.is_some() {
            self.period = self.period.saturating_mul(2);
        }
        self.saved = Some(key);
        self.saved_stack.clear();
        self.saved_stack.extend_from_slice(stack.entries());
        self.since_saved = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(pc: u64, last_pc: u64) -> Cursor {
        Cursor {
            pc,
            last_pc,
            ..Cursor::default()
        }
    }

    /// A walk around `period` addresses with no branch outcome used is found to loop
    /// within about twice its length; one that uses outcomes is not.
    #[test]
    fn loops_without_branches_are_found() {
        let stack = ReturnStack::new(4);
        for period in [1u64, 2, 3, 7, 100] {
            let mut bound = WalkBound::new(5, 1 << 26, 1 << 16);
            let mut found = None;
            for i in 0..QUIET_STEPS + 10 * period + 10 {
                let pc = 0x100 + 2 * (i % period);
                if let Err(cut) = bound.step(
                    1,
                    &at(pc, 0x100 + 2 * ((i + period - 1) % period)),
                    5,
                    &stack,
                ) {
                    found = Some((i, cut));
                    break;
                }
            }
            let (i, cut) = found.unwrap_or_else(|| panic!("period {period}: no loop found"));
            assert!(matches!(cut, Cut::Loop { .. }), "period {period}: {cut:?}");
            let most = QUIET_STEPS + 4 * period + 2;
            assert!(i <= most, "period {period}: found after {i} steps");
        }
        let mut bound = WalkBound::new(1000, 1 << 26, 1 << 16);
        for i in 0..1000 {
            assert_eq!(bound.step(1, &at(0x100, 0x100), 1000 - i, &stack), Ok(()));
        }
    }

    /// Branch-free stretches and whole walks are bounded.
    #[test]
    fn long_walks_are_cut() {
        let stack = ReturnStack::new(4);
        let mut bound = WalkBound::new(0, 1 << 26, 100);
        let cut = (0..200u64).find_map(|i| {
            bound
                .step(1, &at(2 * i, (2 * i).wrapping_sub(2)), 0, &stack)
                .err()
        });
        assert_eq!(cut, Some(Cut::TooLong));
        let mut bound = WalkBound::new(1000, 50, 100);
        let cut = (0..200u64).find_map(|i| {
            bound
                .step(1, &at(2 * i, (2 * i).wrapping_sub(2)), 1000 - i, &stack)
                .err()
        });
        assert_eq!(cut, Some(Cut::TooLong));
    }
}
