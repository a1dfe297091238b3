//! The branch predictor of `branchTrace.adoc`, section `sec:branch-prediction`: a table of
//! 2^`bpred_size_p` two-bit states indexed by instruction address bits, shared by the
//! encoder and (as an identical copy) the decoder.

/// Two-bit predictor table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchPredictor {
    states: Vec<u8>,
    /// Lowest address bit of the index: 1 with compressed instructions, else 2.
    index_lsb: u32,
}

/// The state every entry is set to when a synchronisation packet is sent.
const RESET_STATE: u8 = 0b01;

impl BranchPredictor {
    /// A predictor with 2^`bpred_size_p` entries, indexed from address bit `index_lsb`
    /// (`iaddress_lsb_p`, at least 1).
    pub fn new(bpred_size_p: u64, index_lsb: u64) -> BranchPredictor {
        BranchPredictor {
            states: vec![RESET_STATE; 1usize << bpred_size_p.min(20)],
            index_lsb: index_lsb.max(1) as u32,
        }
    }

    /// Sets every entry to 01 (`sec:branch-prediction`: "initialized to 01 when a
    /// synchronization packet is sent").
    pub fn reset(&mut self) {
        self.states.fill(RESET_STATE);
    }

    fn index(&self, address: u64) -> usize {
        ((address >> self.index_lsb) as usize) & (self.states.len() - 1)
    }

    /// The prediction for the branch at `address`: true = taken (the state's MSB).
    pub fn predict(&self, address: u64) -> bool {
        self.states[self.index(address)] & 0b10 != 0
    }

    /// Updates the entry of the branch at `address` with its outcome and returns whether the
    /// prediction was correct. Transitions: 00 -fail-> 01; 01 -ok-> 00, -fail-> 11;
    /// 11 -fail-> 10; 10 -ok-> 11, -fail-> 00.
    pub fn update(&mut self, address: u64, taken: bool) -> bool {
        let i = self.index(address);
        let state = self.states[i];
        let predicted = state & 0b10 != 0;
        let correct = predicted == taken;
        self.states[i] = match (state, correct) {
            (0b00, true) => 0b00,
            (0b00, false) => 0b01,
            (0b01, true) => 0b00,
            (0b01, false) => 0b11,
            (0b11, true) => 0b11,
            (0b11, false) => 0b10,
            (0b10, true) => 0b11,
            (_, _) => 0b00,
        };
        correct
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sec_branch_prediction_two_failures_flip_the_prediction() {
        let mut p = BranchPredictor::new(2, 1);
        let a = 0x8000_0004;
        assert!(!p.predict(a)); // 01: not taken
        assert!(!p.update(a, true)); // fails -> 11
        assert!(p.predict(a));
        assert!(p.update(a, true)); // 11 stays
        assert!(!p.update(a, false)); // 11 -> 10, still predicts taken
        assert!(p.predict(a));
        assert!(!p.update(a, false)); // 10 fails -> 00
        assert!(!p.predict(a));
        assert!(p.update(a, false)); // 00 stays
        p.reset();
        assert!(!p.predict(a));
    }

    #[test]
    fn sec_branch_prediction_index_uses_address_bits_from_lsb() {
        let mut p = BranchPredictor::new(1, 1); // 2 entries, index = address bit 1
        p.update(0x0, true); // entry 0: 01 -> 11
        assert!(p.predict(0x0));
        assert!(!p.predict(0x2));
        assert!(p.predict(0x4));
    }
}
