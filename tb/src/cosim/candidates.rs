//! Where a run of the decoded trace after a trace loss may lie in the hart's steps, as the
//! run grows one step at a time ([`super::stream_check`]): the places `p` in a window of
//! the hart's steps `h` with `h[p..p + i] == run[..i]`, kept as arithmetic progressions
//! so that a run inside a tight loop (where the places are many and all survive) costs a
//! few comparisons per step, not one per place.
//!
//! Each progression `first + k·d` (`k < count`) holds places whose span
//! `h[first .. last + i)` is `d`-periodic (`d <= i`): all its places but the last see the
//! same next step `h[first + i]`, the last sees `h[last + i]`, so two comparisons decide
//! the whole progression. Two neighbouring progressions with a gap `g <= i / 2` between
//! them (and step `g`, or a single place) are merged: the run then has period `g`
//! (Fine and Wilf's periodicity lemma), so that the places in any `i / 2` steps form one
//! progression and a window of `W` steps holds at most about `2·W / i` progressions.

use etrace_decoder::pcs::Step;

/// Places `first + k·step` for `k < count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Progression {
    first: usize,
    step: usize,
    count: usize,
}

impl Progression {
    fn last(&self) -> usize {
        self.first + (self.count - 1) * self.step
    }

    /// Whether `next` (after `self`, `gap` from its last place) joins it as a
    /// progression of step `gap`.
    fn joins(&self, next: &Progression, gap: usize) -> bool {
        (self.count == 1 || self.step == gap) && (next.count == 1 || next.step == gap)
    }
}

/// The places where the run so far (of `len` steps) occurs, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Candidates {
    progressions: Vec<Progression>,
    /// The previous step's progressions (their allocation, reused).
    spare: Vec<Progression>,
    /// Steps of the run matched so far.
    len: usize,
}

impl Candidates {
    /// A place where the run's first step occurs (in increasing order).
    pub(crate) fn add_first(&mut self, place: usize) {
        debug_assert!(self.progressions.last().is_none_or(|p| p.last() < place));
        self.len = 1;
        self.progressions.push(Progression {
            first: place,
            step: 0,
            count: 1,
        });
    }

    /// The first place left, if any.
    pub(crate) fn first(&self) -> Option<usize> {
        self.progressions.first().map(|p| p.first)
    }

    /// Forgets every place.
    pub(crate) fn clear(&mut self) {
        self.progressions.clear();
        self.len = 0;
    }

    /// The run's next step `next` (its step `len`): keeps the places whose hart step
    /// `place + len` is `next`; `hart(i)` is the hart's step `i` (`None` past its end).
    pub(crate) fn extend(&mut self, next: Step, mut hart: impl FnMut(usize) -> Option<Step>) {
        let i = self.len;
        let mut kept = std::mem::take(&mut self.spare);
        kept.clear();
        for mut p in self.progressions.drain(..) {
            let last = p.last();
            let last_kept = hart(last + i) == Some(next);
            let rest_kept = p.count > 1 && hart(p.first + i) == Some(next);
            match (rest_kept, last_kept) {
                (true, true) => {}
                (true, false) => p.count -= 1,
                (false, true) => {
                    p = Progression {
                        first: last,
                        step: 0,
                        count: 1,
                    }
                }
                (false, false) => continue,
            }
            if p.count == 1 {
                p.step = 0;
            }
            // Merge with the previous progression when the run now has the gap's period.
            if let Some(prev) = kept.last_mut() {
                let gap = p.first - prev.last();
                if 2 * gap <= i + 1 && prev.joins(&p, gap) {
                    prev.step = gap;
                    prev.count += p.count;
                    continue;
                }
            }
            kept.push(p);
        }
        self.spare = std::mem::replace(&mut self.progressions, kept);
        self.len = i + 1;
    }
}

#[cfg(test)]
mod tests {
    use etrace_spec::ingress::random::Rng;

    use super::*;
    use crate::cosim::verify::first_place;

    fn pc(pc: u64) -> Step {
        Step::Instruction {
            pc,
            privilege: etrace_spec::ingress::Privilege::Machine,
        }
    }

    /// The first place of `run` in `hart` at or after `after`, found step by step.
    fn place(hart: &[Step], after: usize, run: &[Step]) -> Option<usize> {
        let mut c = Candidates::default();
        for (p, s) in hart.iter().enumerate().skip(after) {
            if *s == run[0] {
                c.add_first(p);
            }
        }
        for &s in &run[1..] {
            c.extend(s, |i| hart.get(i).copied());
        }
        c.first()
    }

    #[test]
    fn places_equal_the_whole_trace_search() {
        let mut rng = Rng::new(27);
        for case in 0..400 {
            // Steps from a few pcs with loops of random periods, so that runs occur often.
            let period = 1 + rng.below(6);
            let alphabet = 1 + rng.below(4);
            let len = 50 + rng.below(400) as usize;
            let hart: Vec<Step> = (0..len as u64)
                .map(|i| {
                    if rng.chance(0.1) {
                        pc(100 + rng.below(alphabet))
                    } else {
                        pc(i % period)
                    }
                })
                .collect();
            let after = rng.below(len as u64 / 2) as usize;
            let start = after + rng.below((len - after) as u64) as usize;
            let run_len = 1 + rng.below((len - start) as u64) as usize;
            let mut run = hart[start..start + run_len].to_vec();
            if rng.chance(0.3) {
                let at = rng.below(run_len as u64) as usize;
                run[at] = pc(100 + rng.below(alphabet + 1));
            }
            assert_eq!(
                place(&hart, after, &run),
                first_place(&hart, after, &run),
                "case {case}: after {after}, run {run:?}, hart {hart:?}"
            );
        }
    }

    #[test]
    fn a_run_inside_a_long_tight_loop_costs_a_few_comparisons_per_step() {
        // A 4-step loop of 10^7 steps; a run of the last 10^7 - 10^5 of them, then the exit.
        // Every place in the 65,536-step window starts the loop: one comparison per place
        // and step would be about 1.6·10^11 comparisons.
        const LOOP: usize = 10_000_000;
        let hart = |i: usize| -> Option<Step> {
            match i {
                i if i < LOOP => Some(pc(i as u64 % 4)),
                i if i == LOOP => Some(pc(99)),
                _ => None,
            }
        };
        let start = 100_000;
        let mut c = Candidates::default();
        let mut compares = 0u64;
        for p in start - 3..start + (1 << 16) {
            if hart(p) == hart(start) {
                c.add_first(p);
            }
        }
        for i in start + 1..=LOOP {
            let step = hart(i).unwrap();
            c.extend(step, |j| {
                compares += 1;
                hart(j)
            });
        }
        assert_eq!(c.first(), Some(start));
        assert!(compares < 4 * LOOP as u64, "{compares} comparisons");
    }
}
