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
/// The states are kept in a RAM with a synchronous read (block RAM on the FPGAs,
/// `hdl/DESIGN.md`, "The branch predictor's table"), beside one flip-flop per entry,
/// `valid`: written since the last restart. A restart clears `valid`, and an entry that is
/// not valid reads as 01. Two flip-flops hold `curr`'s entry (`prediction` its `msb`,
/// `curr_lsb` its `lsb`), so `correct` is one gate from flip-flops and the update reads no
/// table. They are loaded as a record enters `curr` from `next`'s entry, which the RAM
/// read in the cycle before at `next`'s address after that edge (`ahead_index_address`),
/// with the entry written at that edge forwarded (`written`) and this cycle's update
/// forwarded as before. The index may change only at a `shift` (`curr`'s address is a
/// window register).
#[derive(LogicBlock)]
pub struct Predictor {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Bits [`BPRED_MAX_BITS`]`:1` of the current instruction's address (`iaddr`; the
    /// index from `iaddress_lsb_p` = 1).
    pub index_address: Signal<In, Bits<BPRED_MAX_BITS>>,
    /// The same bits of `next`'s address (`curr`'s after a `shift`).
    pub next_index_address: Signal<In, Bits<BPRED_MAX_BITS>>,
    /// The same bits of `next`'s address after this cycle's edge (the input of its
    /// flip-flops: `next_index_address` in the next cycle).
    pub ahead_index_address: Signal<In, Bits<BPRED_MAX_BITS>>,
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
    // The entries' states (`msb lsb`) as last written; valid where `valid` is set.
    states: RAM<Bits<2>, BPRED_MAX_BITS>,
    // The entry was written since the last restart (else it is 01).
    valid: DFF<Bits<ENTRIES>>,
    // The state of `curr`'s entry (the table's before this cycle's update). `correct`
    // reads `prediction` alone: the update reads `restart`, which the decision forms from
    // `correct` (shared signals would be a loop for Verilator).
    prediction: DFF<Bit>,
    curr_lsb: DFF<Bit>,
    // The last edge wrote the entry the RAM read at it, with `written_state`.
    written: DFF<Bit>,
    written_state: DFF<Bits<2>>,
    index: Signal<Local, Bits<BPRED_MAX_BITS>>,
    next_index: Signal<Local, Bits<BPRED_MAX_BITS>>,
    ahead_index: Signal<Local, Bits<BPRED_MAX_BITS>>,
    // `next`'s entry state in the table before the update, and whether it is `curr`'s.
    next_state: Signal<Local, Bits<2>>,
    same_entry: Signal<Local, Bit>,
    // The state of the entry `curr` holds after the edge, after this cycle's update.
    entered_state: Signal<Local, Bits<2>>,
    state_msb: Signal<Local, Bit>,
    state_lsb: Signal<Local, Bit>,
    ok: Signal<Local, Bit>,
    new_msb: Signal<Local, Bit>,
    new_lsb: Signal<Local, Bit>,
    new_state: Signal<Local, Bits<2>>,
    base_valid: Signal<Local, Bits<ENTRIES>>,
    entry: Signal<Local, Bits<ENTRIES>>,
    // The build has a predictor (`bpred_size_p` > 0): without one, the table logic is
    // constant (nothing for a simulator to evaluate; synthesis removed it anyway).
    present: Constant<Bit>,
    // Test only (`Fault::Predictor`): XORed into the prediction.
    fault: Constant<Bit>,
    index_mask: Constant<Bits<BPRED_MAX_BITS>>,
    one: Constant<Bits<ENTRIES>>,
    // The restart state 01 (also the `lsb` alone), and the `msb` alone.
    weak_not_taken: Constant<Bits<2>>,
    msb_set: Constant<Bits<2>>,
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
            ahead_index_address: Default::default(),
            shift: Default::default(),
            update: Default::default(),
            taken: Default::default(),
            restart: Default::default(),
            correct: Default::default(),
            states: Default::default(),
            valid: Default::default(),
            prediction: Default::default(),
            curr_lsb: Default::default(),
            written: Default::default(),
            written_state: Default::default(),
            index: Default::default(),
            next_index: Default::default(),
            ahead_index: Default::default(),
            next_state: Default::default(),
            same_entry: Default::default(),
            entered_state: Default::default(),
            state_msb: Default::default(),
            state_lsb: Default::default(),
            ok: Default::default(),
            new_msb: Default::default(),
            new_lsb: Default::default(),
            new_state: Default::default(),
            base_valid: Default::default(),
            entry: Default::default(),
            present: Constant::new(bpred_size > 0),
            fault: Constant::new(fault),
            index_mask: Constant::new(((1u64 << bpred_size) - 1).into()),
            one: Constant::new(1.into()),
            weak_not_taken: Constant::new(1.into()),
            msb_set: Constant::new(2.into()),
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
        dff_setup!(
            self,
            clock,
            valid,
            prediction,
            curr_lsb,
            written,
            written_state
        );
        self.states.read_clock.next = self.clock.val();
        self.states.write_clock.next = self.clock.val();
        self.correct.next = (self.prediction.q.val() ^ self.fault.val()) == self.taken.val();
        // Without a predictor: every term constant, the table never written.
        self.index.next = 0.into();
        self.next_index.next = 0.into();
        self.ahead_index.next = 0.into();
        self.state_msb.next = false;
        self.state_lsb.next = false;
        self.ok.next = false;
        self.new_msb.next = false;
        self.new_lsb.next = false;
        self.new_state.next = 0.into();
        self.base_valid.next = 0.into();
        self.entry.next = 0.into();
        self.next_state.next = 0.into();
        self.same_entry.next = false;
        self.entered_state.next = 0.into();
        self.states.read_address.next = 0.into();
        self.states.write_address.next = 0.into();
        self.states.write_data.next = 0.into();
        self.states.write_enable.next = false;
        self.valid.d.next = 0.into();
        self.prediction.d.next = false;
        self.curr_lsb.d.next = false;
        self.written.d.next = false;
        self.written_state.d.next = 0.into();
        if self.present.val() {
            self.index.next = self.index_address.val() & self.index_mask.val();
            self.state_msb.next = self.prediction.q.val();
            self.state_lsb.next = self.curr_lsb.q.val();
            self.ok.next = (self.state_msb.val() ^ self.fault.val()) == self.taken.val();
            // The entry after the update: from its state, or from 01 after a restart (then
            // the prediction is "not taken", correct when not taken).
            self.new_msb.next = (self.state_msb.val() && self.state_lsb.val())
                || (self.state_msb.val() && self.ok.val())
                || (!self.state_msb.val() && self.state_lsb.val() && !self.ok.val());
            self.new_lsb.next = self.state_msb.val() == self.ok.val();
            self.base_valid.next = self.valid.q.val();
            if self.restart.val() {
                self.new_msb.next = self.taken.val();
                self.new_lsb.next = self.taken.val();
                self.base_valid.next = 0.into();
            }
            self.new_state.next = 0.into();
            if self.new_msb.val() {
                self.new_state.next = self.msb_set.val();
            }
            if self.new_lsb.val() {
                self.new_state.next = self.new_state.val() | self.weak_not_taken.val();
            }
            self.entry.next = self.one.val() << self.index.val();
            self.valid.d.next = self.base_valid.val();
            if self.update.val() {
                self.valid.d.next = self.base_valid.val() | self.entry.val();
            }
            self.states.write_address.next = self.index.val();
            self.states.write_data.next = self.new_state.val();
            self.states.write_enable.next = self.update.val();
            // The read for the next cycle: `next`'s entry after the edge, and whether this
            // edge's write is that entry (the RAM's read then is the state before it).
            self.ahead_index.next = self.ahead_index_address.val() & self.index_mask.val();
            self.states.read_address.next = self.ahead_index.val();
            self.written.d.next = self.update.val() && (self.ahead_index.val() == self.index.val());
            self.written_state.d.next = self.new_state.val();
            // The early read: `next`'s entry as the table is now, then the entry that is
            // `curr`'s after the edge, as this cycle's update leaves it (the updated entry
            // forwarded, 01 after a restart).
            self.next_index.next = self.next_index_address.val() & self.index_mask.val();
            self.next_state.next = self.weak_not_taken.val();
            if self.valid.q.val().get_bit(self.next_index.val().index()) {
                self.next_state.next = self.states.read_data.val();
            }
            if self.written.q.val() {
                self.next_state.next = self.written_state.q.val();
            }
            self.same_entry.next = self.next_index.val() == self.index.val();
            self.entered_state.next = 0.into();
            if self.prediction.q.val() {
                self.entered_state.next = self.msb_set.val();
            }
            if self.curr_lsb.q.val() {
                self.entered_state.next = self.entered_state.val() | self.weak_not_taken.val();
            }
            if self.shift.val() {
                self.entered_state.next = self.next_state.val();
            }
            if self.restart.val() {
                self.entered_state.next = self.weak_not_taken.val();
            }
            if self.update.val() && (self.same_entry.val() || !self.shift.val()) {
                self.entered_state.next = self.new_state.val();
            }
            self.prediction.d.next = self.entered_state.val().get_bit(1);
            self.curr_lsb.d.next = self.entered_state.val().get_bit(0);
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
    /// in some cycles, not in others, `next` changes at a shift and sometimes without one,
    /// and `next` is often `curr`'s entry, so the early read and the RAM's read are
    /// forwarded), with restarts (the first one clears the table as trace enable does):
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
            // `next` after the edge: a new record at a shift, and sometimes without one (a
            // record entering an empty `next`).
            let following = if shift || rng.chance(0.2) {
                0x8000_0000 + 2 * rng.below(24)
            } else {
                next_address
            };
            uut.index_address.next = index(address);
            uut.next_index_address.next = index(next_address);
            uut.ahead_index_address.next = index(following);
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
            }
            next_address = following;
        }
    }
}
