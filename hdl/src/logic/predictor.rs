//! `Predictor`: the branch predictor of `branchTrace.adoc`, section
//! `sec:branch-prediction` (format 0 of `payload.adoc`): a table of 2^`bpred_size_p`
//! two-bit states indexed by instruction address bits from bit 1 (`iaddress_lsb_p`). The
//! model: `etrace_spec::predictor::BranchPredictor`, driven as `Encoder::record_branch` and
//! `Encoder::branches_reported` drive it.

use rust_hdl::prelude::*;

/// Largest `bpred_size_p` of the hardware (a table of 256 entries).
pub const BPRED_MAX_BITS: usize = 8;

/// Table entries of the largest predictor (bits of each of the two state vectors).
const ENTRIES: usize = 1 << BPRED_MAX_BITS;

/// Lowest address bit of the table index (`iaddress_lsb_p` = 1 of the hardware).
pub const INDEX_LSB: usize = 1;

/// The predictor table and its update for the current instruction's branch.
///
/// The table is built for [`BPRED_MAX_BITS`]; `bpred_size_p` (the constructor's
/// argument) masks the index, so synthesis keeps only the 2^`bpred_size_p` entries that
/// can be read. Each entry is a state `msb lsb`: `msb` is the prediction (1 = taken);
/// transitions 00 -fail-> 01, 01 -ok-> 00, -fail-> 11, 11 -fail-> 10, 10 -ok-> 11,
/// -fail-> 00, otherwise unchanged.
///
/// `correct` is the prediction of the table as it is before this cycle's update. With
/// `restart` (a synchronisation packet, or trace enable) every entry becomes 01, and the
/// branch of `update` then updates its entry from 01 (the model's reset, then the reported
/// instruction's own branch).
///
/// The prediction is read a cycle early (`hdl/DESIGN.md`, timing of the all-options
/// build): a flip-flop holds the `msb` of the entry of the address in `curr`, read in the
/// cycle before from the entry of the address that enters `curr` (`next`'s at a shift,
/// else `curr`'s own), with the entry this cycle writes forwarded. So `correct` is one
/// gate from flip-flops and the table's read multiplexer is off the decision's path.
/// The index may change only at a `shift` (`curr`'s address is a window register).
#[derive(LogicBlock)]
pub struct Predictor {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Bits [`BPRED_MAX_BITS`]`:1` of the current instruction's address (`iaddr`; the
    /// index from `iaddress_lsb_p` = 1).
    pub index_address: Signal<In, Bits<BPRED_MAX_BITS>>,
    /// The same bits of `next`'s address (`curr`'s after a `shift`).
    pub next_index_address: Signal<In, Bits<BPRED_MAX_BITS>>,
    /// The window shifts at the next edge: `next`'s address enters `curr`.
    pub shift: Signal<In, Bit>,
    /// The current instruction is a branch whose outcome enters the predictor.
    pub update: Signal<In, Bit>,
    /// The branch was taken.
    pub taken: Signal<In, Bit>,
    /// Every entry restarts at 01 (before `update`'s branch is applied).
    pub restart: Signal<In, Bit>,
    /// The table's prediction for the current instruction equals `taken`.
    pub correct: Signal<Out, Bit>,
    msb: DFF<Bits<ENTRIES>>,
    lsb: DFF<Bits<ENTRIES>>,
    // `msb` of `curr`'s entry, read a cycle early (the table's state before this cycle's
    // update). `correct` reads it alone: the update reads `restart`, which the decision
    // forms from `correct` (shared signals would be a loop for Verilator).
    prediction: DFF<Bit>,
    index: Signal<Local, Bits<BPRED_MAX_BITS>>,
    next_index: Signal<Local, Bits<BPRED_MAX_BITS>>,
    // `next`'s entry `msb` in the table before the update, and whether it is `curr`'s.
    next_msb: Signal<Local, Bit>,
    same_entry: Signal<Local, Bit>,
    // The `msb` of the entry `curr` holds after the edge, after this cycle's update.
    entered_msb: Signal<Local, Bit>,
    state_msb: Signal<Local, Bit>,
    state_lsb: Signal<Local, Bit>,
    ok: Signal<Local, Bit>,
    new_msb: Signal<Local, Bit>,
    new_lsb: Signal<Local, Bit>,
    base_msb: Signal<Local, Bits<ENTRIES>>,
    base_lsb: Signal<Local, Bits<ENTRIES>>,
    entry: Signal<Local, Bits<ENTRIES>>,
    set_msb: Signal<Local, Bits<ENTRIES>>,
    set_lsb: Signal<Local, Bits<ENTRIES>>,
    // The build has a predictor (`bpred_size_p` > 0): without one, the table logic is
    // constant (nothing for a simulator to evaluate; synthesis removed it anyway).
    present: Constant<Bit>,
    // Test only (`Fault::Predictor`): XORed into the prediction.
    fault: Constant<Bit>,
    index_mask: Constant<Bits<BPRED_MAX_BITS>>,
    one: Constant<Bits<ENTRIES>>,
    ones: Constant<Bits<ENTRIES>>,
}

impl Predictor {
    /// A predictor of 2^`bpred_size` entries (`bpred_size_p`, 1 to [`BPRED_MAX_BITS`]); with
    /// `fault` (test only), every prediction is inverted.
    ///
    /// # Panics
    ///
    /// If `bpred_size` is above [`BPRED_MAX_BITS`] (a configuration error the generator
    /// refuses first).
    pub fn new(bpred_size: u8, fault: bool) -> Self {
        assert!(usize::from(bpred_size) <= BPRED_MAX_BITS);
        Predictor {
            clock: Default::default(),
            index_address: Default::default(),
            next_index_address: Default::default(),
            shift: Default::default(),
            update: Default::default(),
            taken: Default::default(),
            restart: Default::default(),
            correct: Default::default(),
            msb: Default::default(),
            lsb: Default::default(),
            prediction: Default::default(),
            index: Default::default(),
            next_index: Default::default(),
            next_msb: Default::default(),
            same_entry: Default::default(),
            entered_msb: Default::default(),
            state_msb: Default::default(),
            state_lsb: Default::default(),
            ok: Default::default(),
            new_msb: Default::default(),
            new_lsb: Default::default(),
            base_msb: Default::default(),
            base_lsb: Default::default(),
            entry: Default::default(),
            set_msb: Default::default(),
            set_lsb: Default::default(),
            present: Constant::new(bpred_size > 0),
            fault: Constant::new(fault),
            index_mask: Constant::new(((1u64 << bpred_size) - 1).into()),
            one: Constant::new(1.into()),
            ones: Constant::new(Bits::<ENTRIES>::mask()),
        }
    }
}

impl Default for Predictor {
    /// The predictor of `bpred_size_p` 0: no table (every term constant), `correct`
    /// never read.
    fn default() -> Self {
        Predictor::new(0, false)
    }
}

impl Logic for Predictor {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, msb, lsb, prediction);
        self.correct.next = (self.prediction.q.val() ^ self.fault.val()) == self.taken.val();
        // Without a predictor: every term constant, the table and the prediction 0.
        self.index.next = 0.into();
        self.next_index.next = 0.into();
        self.state_msb.next = false;
        self.state_lsb.next = false;
        self.ok.next = false;
        self.new_msb.next = false;
        self.new_lsb.next = false;
        self.base_msb.next = 0.into();
        self.base_lsb.next = 0.into();
        self.entry.next = 0.into();
        self.set_msb.next = 0.into();
        self.set_lsb.next = 0.into();
        self.next_msb.next = false;
        self.same_entry.next = false;
        self.entered_msb.next = false;
        self.msb.d.next = 0.into();
        self.lsb.d.next = 0.into();
        self.prediction.d.next = false;
        if self.present.val() {
            self.index.next = self.index_address.val() & self.index_mask.val();
            self.state_msb.next = self.prediction.q.val();
            self.state_lsb.next = self.lsb.q.val().get_bit(self.index.val().index());
            self.ok.next = (self.state_msb.val() ^ self.fault.val()) == self.taken.val();
            // The entry after the update: from its state, or from 01 after a restart (then
            // the prediction is "not taken", correct when not taken).
            self.new_msb.next = (self.state_msb.val() && self.state_lsb.val())
                || (self.state_msb.val() && self.ok.val())
                || (!self.state_msb.val() && self.state_lsb.val() && !self.ok.val());
            self.new_lsb.next = self.state_msb.val() == self.ok.val();
            self.base_msb.next = self.msb.q.val();
            self.base_lsb.next = self.lsb.q.val();
            if self.restart.val() {
                self.new_msb.next = self.taken.val();
                self.new_lsb.next = self.taken.val();
                self.base_msb.next = 0.into();
                self.base_lsb.next = self.ones.val();
            }
            self.entry.next = self.one.val() << self.index.val();
            self.set_msb.next = 0.into();
            if self.new_msb.val() {
                self.set_msb.next = self.entry.val();
            }
            self.set_lsb.next = 0.into();
            if self.new_lsb.val() {
                self.set_lsb.next = self.entry.val();
            }
            self.msb.d.next = self.base_msb.val();
            self.lsb.d.next = self.base_lsb.val();
            if self.update.val() {
                self.msb.d.next = (self.base_msb.val() & !self.entry.val()) | self.set_msb.val();
                self.lsb.d.next = (self.base_lsb.val() & !self.entry.val()) | self.set_lsb.val();
            }
            // The early read: the entry that is `curr`'s after the edge, as this cycle's update
            // leaves it (the updated entry forwarded, 01 after a restart, else the table).
            self.next_index.next = self.next_index_address.val() & self.index_mask.val();
            self.next_msb.next = self.msb.q.val().get_bit(self.next_index.val().index());
            self.same_entry.next = self.next_index.val() == self.index.val();
            self.entered_msb.next = self.prediction.q.val();
            if self.shift.val() {
                self.entered_msb.next = self.next_msb.val();
            }
            if self.restart.val() {
                self.entered_msb.next = false;
            }
            self.prediction.d.next = self.entered_msb.val();
            if self.update.val() && (self.same_entry.val() || !self.shift.val()) {
                self.prediction.d.next = self.new_msb.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};
    use etrace_spec::ingress::random::Rng;
    use etrace_spec::predictor::BranchPredictor;

    #[test]
    fn predictor_verilog() {
        let mut uut = Predictor::new(6, false);
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("predictor", &v).unwrap();
        lint("predictor", &v).unwrap();
    }

    fn settle(uut: &mut Predictor) {
        assert!(simulate(uut, 100), "the predictor does not settle");
    }

    /// Random branches at a few addresses as they pass through `curr` (the window shifts
    /// in some cycles, not in others, and `next` is often `curr`'s entry, so the early read
    /// is forwarded), with restarts (the first one clears the table as trace enable does):
    /// the block's `correct` equals the model's prediction outcome in every cycle.
    #[test]
    fn predictions_are_the_models() {
        let mut uut = Predictor::new(3, false);
        uut.connect_all();
        let mut model = BranchPredictor::new(3, 1);
        let mut rng = Rng::new(22);
        let mut address = 0x8000_0000u64;
        let mut next_address = 0x8000_0000 + 2 * rng.below(24);
        let index = |a: u64| Bits::<BPRED_MAX_BITS>::from((a >> INDEX_LSB) & 0xff);
        for step in 0..6000 {
            let taken = !rng.chance(0.3);
            let update = step > 0 && rng.chance(0.8);
            let restart = step == 0 || rng.chance(0.02);
            let shift = rng.chance(0.6);
            uut.index_address.next = index(address);
            uut.next_index_address.next = index(next_address);
            uut.shift.next = shift;
            uut.taken.next = taken;
            uut.update.next = update;
            uut.restart.next = restart;
            settle(&mut uut);
            if update {
                let expected = model.update(address, taken);
                assert_eq!(uut.correct.val(), expected, "step {step}");
            }
            if restart {
                model.reset();
                if update {
                    model.update(address, taken);
                }
            }
            uut.clock.next = Clock { clk: true };
            settle(&mut uut);
            uut.clock.next = Clock { clk: false };
            settle(&mut uut);
            if shift {
                address = next_address;
                next_address = 0x8000_0000 + 2 * rng.below(24);
            }
        }
    }
}
