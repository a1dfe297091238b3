//! The branch outcomes a decoder has been told about but not yet used (`decoder.adoc`'s
//! `branches` / `branch_map`), extended for branch prediction (`payload.adoc` format 0):
//! a queue, oldest first, of branch-map bits, runs of correctly predicted branches, and
//! single failed predictions, in the order the packets reported them.

use std::collections::VecDeque;

/// Where the outcome of the next branch comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Given by a branch map (or a format 3 `branch` bit): taken or not.
    Known(bool),
    /// The predictor's prediction was correct.
    Predicted,
    /// The predictor's prediction failed.
    Mispredicted,
}

#[derive(Debug, Clone, Copy)]
enum Segment {
    /// `n` outcomes, bit 0 the oldest; 1 = not taken.
    Map { bits: u64, n: u32 },
    /// `n` correctly predicted branches.
    Predicted(u64),
    /// One failed prediction.
    Mispredicted,
}

/// Unused branch outcomes.
#[derive(Debug, Clone, Default)]
pub struct BranchQueue {
    /// The oldest branch-map outcomes, kept out of `segments` so that taking one is a
    /// shift (bit 0 the oldest; 1 = not taken): `head_n` of them, all older than
    /// `segments`.
    head_bits: u64,
    head_n: u32,
    segments: VecDeque<Segment>,
    total: u64,
}

impl BranchQueue {
    /// Number of branches whose outcomes are queued.
    #[inline]
    pub fn len(&self) -> u64 {
        self.total
    }

    /// True when no outcome is queued.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// True when `other` holds the same outcomes in the same order (whatever the
    /// segments); queues of more than 256 outcomes are not compared and count as different.
    pub fn same_outcomes(&self, other: &BranchQueue) -> bool {
        if self.total != other.total || self.total > 256 {
            return false;
        }
        let (mut a, mut b) = (self.clone(), other.clone());
        std::iter::from_fn(|| a.take()).eq(std::iter::from_fn(|| b.take()))
    }

    /// Forgets every outcome.
    pub fn clear(&mut self) {
        self.head_bits = 0;
        self.head_n = 0;
        self.segments.clear();
        self.total = 0;
    }

    /// Appends `n` (1..=32) outcomes of a branch map.
    pub fn push_map(&mut self, bits: u32, n: u32) {
        let mask = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        let bits = u64::from(bits & mask);
        if self.segments.is_empty() && self.head_n + n <= 64 {
            self.head_bits |= bits << self.head_n;
            self.head_n += n;
            self.total += u64::from(n);
            return;
        }
        match self.segments.back_mut() {
            Some(Segment::Map { bits: b, n: m }) if *m + n <= 64 => {
                *b |= bits << *m;
                *m += n;
            }
            _ => self.segments.push_back(Segment::Map { bits, n }),
        }
        self.total += u64::from(n);
    }

    /// Appends `n` correctly predicted branches.
    pub fn push_predicted(&mut self, n: u64) {
        if n > 0 {
            self.segments.push_back(Segment::Predicted(n));
            self.total += n;
        }
    }

    /// The correctly predicted branches at the front of the queue, when the oldest outcome
    /// is one of a run of them (else `None`).
    pub fn front_predicted(&self) -> Option<u64> {
        match self.segments.front() {
            Some(&Segment::Predicted(n)) if self.head_n == 0 => Some(n),
            _ => None,
        }
    }

    /// Takes `n` outcomes of the run of correctly predicted branches at the front at once;
    /// false (and nothing taken) when the front run has no more than `n`.
    pub fn skip_predicted(&mut self, n: u64) -> bool {
        match self.segments.front_mut() {
            Some(Segment::Predicted(m)) if self.head_n == 0 && *m > n => {
                *m -= n;
                self.total -= n;
                true
            }
            _ => false,
        }
    }

    /// Appends one failed prediction.
    pub fn push_mispredicted(&mut self) {
        self.segments.push_back(Segment::Mispredicted);
        self.total += 1;
    }

    /// Takes the oldest outcome.
    #[inline]
    pub fn take(&mut self) -> Option<Outcome> {
        if self.head_n > 0 {
            let taken = self.head_bits & 1 == 0;
            self.head_bits >>= 1;
            self.head_n -= 1;
            self.total -= 1;
            return Some(Outcome::Known(taken));
        }
        self.take_segment()
    }

    /// [`Self::take`] when the head map is used up: from the oldest queued segment (a
    /// branch map becomes the new head).
    fn take_segment(&mut self) -> Option<Outcome> {
        if let Some(&Segment::Map { bits, n }) = self.segments.front() {
            self.segments.pop_front();
            self.head_bits = bits;
            self.head_n = n;
            return self.take();
        }
        let front = self.segments.front_mut()?;
        let (outcome, empty) = match front {
            Segment::Map { bits, n } => {
                let taken = *bits & 1 == 0;
                *bits >>= 1;
                *n -= 1;
                (Outcome::Known(taken), *n == 0)
            }
            Segment::Predicted(n) => {
                *n -= 1;
                (Outcome::Predicted, *n == 0)
            }
            Segment::Mispredicted => (Outcome::Mispredicted, true),
        };
        if empty {
            self.segments.pop_front();
        }
        self.total -= 1;
        Some(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_come_out_in_report_order() {
        let mut q = BranchQueue::default();
        q.push_predicted(2);
        q.push_map(0b10, 2);
        q.push_mispredicted();
        q.push_map(0b1, 1);
        assert_eq!(q.len(), 6);
        let got: Vec<_> = std::iter::from_fn(|| q.take()).collect();
        use Outcome::*;
        assert_eq!(
            got,
            vec![
                Predicted,
                Predicted,
                Known(true),
                Known(false),
                Mispredicted,
                Known(false)
            ]
        );
        assert!(q.is_empty());
    }

    /// A run of predicted branches at the front can be skipped in part, never whole, and
    /// not from behind a branch map.
    #[test]
    fn predicted_runs_are_skipped_from_the_front_only() {
        let mut q = BranchQueue::default();
        q.push_map(0b1, 1);
        q.push_predicted(10);
        q.push_mispredicted();
        assert_eq!(q.front_predicted(), None);
        assert!(!q.skip_predicted(1));
        assert_eq!(q.take(), Some(Outcome::Known(false)));
        assert_eq!(q.front_predicted(), Some(10));
        assert!(!q.skip_predicted(10));
        assert!(q.skip_predicted(7));
        assert_eq!((q.front_predicted(), q.len()), (Some(3), 4));
        let rest: Vec<_> = std::iter::from_fn(|| q.take()).collect();
        use Outcome::*;
        assert_eq!(rest, vec![Predicted, Predicted, Predicted, Mispredicted]);
    }
}
