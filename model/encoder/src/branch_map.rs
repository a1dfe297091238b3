//! The branch map of `exampleAlgorithm.adoc` ("Update branch map"): outcomes of branches not
//! yet reported, bit 0 the oldest, 0 = taken, 1 = not taken (`payload.adoc`, format 1).

/// Largest number of branches a map holds before it must be reported (`rpt_br`).
pub const MAX_BRANCHES: u32 = 31;

/// Unreported branch outcomes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BranchMap {
    /// Number of branches in the map.
    pub branches: u32,
    /// Outcomes, bit 0 the oldest; 1 = not taken.
    pub map: u32,
}

impl BranchMap {
    /// Adds the outcome of the newest branch. The caller reports the map before it would
    /// exceed [`MAX_BRANCHES`].
    pub fn push(&mut self, taken: bool) {
        debug_assert!(self.branches < MAX_BRANCHES, "branch map overflow");
        if !taken {
            self.map |= 1 << self.branches;
        }
        self.branches += 1;
    }

    /// True when no branch is waiting to be reported.
    pub fn is_empty(&self) -> bool {
        self.branches == 0
    }

    /// True when the map holds [`MAX_BRANCHES`] branches.
    pub fn is_full(&self) -> bool {
        self.branches == MAX_BRANCHES
    }

    /// Takes the map for a packet, leaving it empty.
    pub fn take(&mut self) -> BranchMap {
        std::mem::take(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_format1_branch_map_bit0_is_oldest_and_1_means_not_taken() {
        let mut m = BranchMap::default();
        for taken in [true, false, false, true] {
            m.push(taken);
        }
        assert_eq!(m.branches, 4);
        assert_eq!(m.map, 0b0110);
        assert_eq!(
            m.take(),
            BranchMap {
                branches: 4,
                map: 0b0110
            }
        );
        assert!(m.is_empty());
    }

    #[test]
    fn full_at_31() {
        let mut m = BranchMap::default();
        for _ in 0..31 {
            m.push(false);
        }
        assert!(m.is_full());
        assert_eq!(m.map, 0x7fff_ffff);
    }
}
