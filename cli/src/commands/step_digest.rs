//! Digests of blocks of steps: how `etrace run`'s check ([`super::step_check`]) holds the
//! hart's steps once the hart runs far ahead of the decoder (a loop whose branches are all
//! predicted is one format 0 packet for millions of instructions, and the decoder sees
//! none of them until it arrives). A block of [`BLOCK_STEPS`] steps is kept as its count
//! and a 64-bit digest instead of the steps.

use etrace_decoder::pcs::Step;

/// Steps per digest block.
pub(super) const BLOCK_STEPS: u32 = 4096;

/// Odd multiplier of the mixing step (the 64-bit golden ratio).
const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// The count and digest of a sequence of steps. Each step enters as two words, each by
/// `h = (rotl(h, 5) ^ word) * MIX`: for a fixed state the map is one-to-one in the word,
/// and for a fixed word one-to-one in the state, so sequences that differ in one word of
/// one step always differ in their digest; other differences go unseen only when two
/// 64-bit digests collide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Digest {
    /// Steps in the digest.
    pub(super) count: u32,
    hash: u64,
}

impl Digest {
    /// Adds `step` at the end of the sequence.
    pub(super) fn add(&mut self, step: Step) {
        let (kind, value) = match step {
            Step::Instruction { pc, privilege } => (u64::from(privilege.code()), pc),
            Step::Trap { ecause, interrupt } => (0x100 | u64::from(interrupt), ecause),
        };
        self.word(kind);
        self.word(value);
        self.count += 1;
    }

    fn word(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(MIX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use etrace_spec::ingress::Privilege;

    fn digest(steps: &[Step]) -> Digest {
        let mut d = Digest::default();
        steps.iter().for_each(|s| d.add(*s));
        d
    }

    /// Every change of one step of a sequence (its address, privilege, kind, cause or
    /// interrupt flag) changes the digest; equal sequences have equal digests.
    #[test]
    fn one_changed_step_changes_the_digest() {
        let base: Vec<Step> = (0..64)
            .map(|i| Step::Instruction {
                pc: 0x8000_0000 + 4 * i,
                privilege: Privilege::Machine,
            })
            .collect();
        let whole = digest(&base);
        assert_eq!(digest(&base.clone()), whole);
        let changes = [
            Step::Instruction {
                pc: 0x8000_0002,
                privilege: Privilege::Machine,
            },
            Step::Instruction {
                pc: 0x8000_0000,
                privilege: Privilege::User,
            },
            Step::Trap {
                ecause: 3,
                interrupt: false,
            },
            Step::Trap {
                ecause: 3,
                interrupt: true,
            },
        ];
        for at in [0, 31, 63] {
            for step in changes {
                let mut changed = base.clone();
                changed[at] = step;
                assert_ne!(digest(&changed), whole, "step {at} -> {step:?}");
            }
        }
        // Two steps swapped.
        let mut swapped = base.clone();
        swapped.swap(10, 11);
        assert_ne!(digest(&swapped), whole);
    }
}
