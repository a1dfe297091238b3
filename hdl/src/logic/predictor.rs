//! `Predictor`: the branch predictor of `branchTrace.adoc`, section
//! `sec:branch-prediction` (format 0 of `payload.adoc`): a table of 2^`bpred_size_p`
//! two-bit states indexed by instruction address bits from bit 1 (`iaddress_lsb_p`). The
//! model: `etrace_spec::predictor::BranchPredictor`, driven as `Encoder::record_branch` and
//! `Encoder::branches_reported` drive it.

use rust_hdl::prelude::*;

use crate::block_ram::BlockRam;

/// Largest `bpred_size_p` of the hardware (a table of 256 entries).
pub const BPRED_MAX_BITS: usize = 8;

/// Table entries of the largest predictor.
const ENTRIES: usize = 1 << BPRED_MAX_BITS;

/// Lowest address bit of the table index (`iaddress_lsb_p` = 1 of the hardware).
pub const INDEX_LSB: usize = 1;

/// Entries per word of the states' RAM (the RAM holds 2^[`BPRED_MAX_BITS`] / 4 words).
const WORD_ENTRIES: usize = 4;

/// Address bits of the states' RAM (index bits above the entry's place in its word: the
/// address bits from bit 3).
pub const PREDICTOR_WORD_ADDRESS_BITS: usize = BPRED_MAX_BITS - 2;

const WORD_ADDRESS_BITS: usize = PREDICTOR_WORD_ADDRESS_BITS;

/// Words of the largest table.
const WORDS: usize = ENTRIES / WORD_ENTRIES;

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
/// `hdl/DESIGN.md`, "The branch predictor's table"), four entries to a word, beside one
/// flip-flop per word, `valid`: written since the last restart. A restart clears `valid`,
/// and a word that is not valid reads as four entries 01. `curr`'s word is held in
/// flip-flops (`curr_word`), so an update writes the whole word back with its entry
/// changed. Two flip-flops hold `curr`'s entry (`prediction` its `msb`, `curr_lsb` its
/// `lsb`), so the update reads no table, and a third holds `correct` itself (formed from
/// `prediction`'s input and `taken_ahead`). All are loaded as a record enters `curr`,
/// from `next`'s word, which the RAM read in the cycle before at `next`'s address after
/// that edge (`ahead_word_address`), with the word written at that edge forwarded
/// (`written`) and this cycle's update forwarded when `next` is in `curr`'s word. The
/// index may change only at a `shift` (`curr`'s address is a window register).
#[derive(LogicBlock)]
pub struct Predictor {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Bits [`BPRED_MAX_BITS`]`:1` of the current instruction's address (`iaddr`; the
    /// index from `iaddress_lsb_p` = 1).
    pub index_address: Signal<In, Bits<BPRED_MAX_BITS>>,
    /// The same bits of `next`'s address (`curr`'s after a `shift`).
    pub next_index_address: Signal<In, Bits<BPRED_MAX_BITS>>,
    /// The word address bits of `next`'s address after this cycle's edge (bits
    /// [`BPRED_MAX_BITS`]`:3` of the input of its flip-flops: the word of
    /// `next_index_address` in the next cycle).
    pub ahead_word_address: Signal<In, Bits<WORD_ADDRESS_BITS>>,
    /// The window shifts at the next edge: `next`'s address enters `curr`.
    pub shift: Signal<In, Bit>,
    /// The current instruction is a branch whose outcome enters the predictor.
    pub update: Signal<In, Bit>,
    /// The branch was taken.
    pub taken: Signal<In, Bit>,
    /// `taken` after this cycle's edge.
    pub taken_ahead: Signal<In, Bit>,
    /// Every entry restarts at 01 (before `update`'s branch is applied).
    pub restart: Signal<In, Bit>,
    /// `correct` after this cycle's edge: whether the table's prediction for the current
    /// instruction will equal `taken` in the next cycle (the input of the flip-flop
    /// `correct_q`; the consumer registers it with terms of its own, the branch count with
    /// its option).
    pub correct_ahead: Signal<Out, Bit>,
    // The words of four entry states (`msb lsb`, entry 0 lowest) as last written; valid
    // where `valid` is set.
    states: BlockRam<Bits<8>, WORD_ADDRESS_BITS>,
    // The word was written since the last restart (else its entries are 01).
    valid: DFF<Bits<WORDS>>,
    // `valid` of the word the RAM read at the last edge, after that edge (0 after a
    // restart; a word written at that edge is `written`'s): the read's 16:1 multiplexer is
    // in the cycle before, beside the RAM's own read.
    read_valid: DFF<Bit>,
    // `curr`'s word, and its entry's state (the table's before this cycle's update).
    curr_word: DFF<Bits<8>>,
    prediction: DFF<Bit>,
    curr_lsb: DFF<Bit>,
    // `correct` itself, formed a cycle early from `prediction`'s and `taken`'s inputs, so
    // that it is a flip-flop at the head of the decision's path.
    correct_q: DFF<Bit>,
    // The last edge wrote the word the RAM read at it, with `written_word`.
    written: DFF<Bit>,
    written_word: DFF<Bits<8>>,
    index: Signal<Local, Bits<BPRED_MAX_BITS>>,
    next_index: Signal<Local, Bits<BPRED_MAX_BITS>>,
    // Word addresses, and the bit where an entry starts in its word.
    word: Signal<Local, Bits<WORD_ADDRESS_BITS>>,
    next_word_address: Signal<Local, Bits<WORD_ADDRESS_BITS>>,
    ahead_word: Signal<Local, Bits<WORD_ADDRESS_BITS>>,
    place: Signal<Local, Bits<8>>,
    next_place: Signal<Local, Bits<8>>,
    // `next`'s word and entry state in the table before the update, and whether they are
    // `curr`'s.
    next_word: Signal<Local, Bits<8>>,
    next_state: Signal<Local, Bits<2>>,
    // `next`'s word shifted so that its entry is lowest (the other entries unused).
    next_entry_low: Signal<Local, Bits<8>>,
    unused_next_entry_high: Signal<Local, Bits<6>>,
    same_word: Signal<Local, Bit>,
    same_entry: Signal<Local, Bit>,
    // The state of the entry `curr` holds after the edge, after this cycle's update.
    entered_state: Signal<Local, Bits<2>>,
    state_msb: Signal<Local, Bit>,
    state_lsb: Signal<Local, Bit>,
    ok: Signal<Local, Bit>,
    new_msb: Signal<Local, Bit>,
    new_lsb: Signal<Local, Bit>,
    new_state: Signal<Local, Bits<2>>,
    new_entry: Signal<Local, Bits<8>>,
    // `curr`'s word after a restart, after the update, and after this cycle.
    base_word: Signal<Local, Bits<8>>,
    new_word: Signal<Local, Bits<8>>,
    word_after: Signal<Local, Bits<8>>,
    base_valid: Signal<Local, Bits<WORDS>>,
    word_bit: Signal<Local, Bits<WORDS>>,
    // The build has a predictor (`bpred_size_p` > 0): without one, the table logic is
    // constant (nothing for a simulator to evaluate; synthesis removed it anyway).
    present: Constant<Bit>,
    // Test only (`Fault::Predictor`): XORed into the prediction.
    fault: Constant<Bit>,
    index_mask: Constant<Bits<BPRED_MAX_BITS>>,
    word_mask: Constant<Bits<WORD_ADDRESS_BITS>>,
    one: Constant<Bits<WORDS>>,
    // The restart state 01 (also the `lsb` alone), the `msb` alone; in a word: an entry's
    // bits, its `msb`, its `lsb`, and four entries 01.
    weak_not_taken: Constant<Bits<2>>,
    msb_set: Constant<Bits<2>>,
    entry_mask: Constant<Bits<8>>,
    entry_msb: Constant<Bits<8>>,
    entry_lsb: Constant<Bits<8>>,
    weak_word: Constant<Bits<8>>,
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
            ahead_word_address: Default::default(),
            shift: Default::default(),
            update: Default::default(),
            taken: Default::default(),
            taken_ahead: Default::default(),
            restart: Default::default(),
            correct_ahead: Default::default(),
            states: Default::default(),
            valid: Default::default(),
            read_valid: Default::default(),
            curr_word: Default::default(),
            prediction: Default::default(),
            correct_q: Default::default(),
            curr_lsb: Default::default(),
            written: Default::default(),
            written_word: Default::default(),
            index: Default::default(),
            next_index: Default::default(),
            word: Default::default(),
            next_word_address: Default::default(),
            ahead_word: Default::default(),
            place: Default::default(),
            next_place: Default::default(),
            next_word: Default::default(),
            next_state: Default::default(),
            next_entry_low: Default::default(),
            unused_next_entry_high: Default::default(),
            same_word: Default::default(),
            same_entry: Default::default(),
            entered_state: Default::default(),
            state_msb: Default::default(),
            state_lsb: Default::default(),
            ok: Default::default(),
            new_msb: Default::default(),
            new_lsb: Default::default(),
            new_state: Default::default(),
            new_entry: Default::default(),
            base_word: Default::default(),
            new_word: Default::default(),
            word_after: Default::default(),
            base_valid: Default::default(),
            word_bit: Default::default(),
            present: Constant::new(bpred_size > 0),
            fault: Constant::new(fault),
            index_mask: Constant::new(((1u64 << bpred_size) - 1).into()),
            word_mask: Constant::new((((1u64 << bpred_size) - 1) >> 2).into()),
            one: Constant::new(1.into()),
            weak_not_taken: Constant::new(1.into()),
            msb_set: Constant::new(2.into()),
            entry_mask: Constant::new(3.into()),
            entry_msb: Constant::new(2.into()),
            entry_lsb: Constant::new(1.into()),
            weak_word: Constant::new(0x55.into()),
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
            read_valid,
            curr_word,
            prediction,
            curr_lsb,
            correct_q,
            written,
            written_word
        );
        self.states.clock.next = self.clock.val();
        // Without a predictor: every term constant, the table never written.
        self.index.next = 0.into();
        self.next_index.next = 0.into();
        self.word.next = 0.into();
        self.next_word_address.next = 0.into();
        self.ahead_word.next = 0.into();
        self.place.next = 0.into();
        self.next_place.next = 0.into();
        self.state_msb.next = false;
        self.state_lsb.next = false;
        self.ok.next = false;
        self.new_msb.next = false;
        self.new_lsb.next = false;
        self.new_state.next = 0.into();
        self.new_entry.next = 0.into();
        self.base_word.next = 0.into();
        self.new_word.next = 0.into();
        self.word_after.next = 0.into();
        self.base_valid.next = 0.into();
        self.word_bit.next = 0.into();
        self.next_word.next = 0.into();
        self.next_state.next = 0.into();
        self.next_entry_low.next = 0.into();
        self.unused_next_entry_high.next = 0.into();
        self.same_word.next = false;
        self.same_entry.next = false;
        self.entered_state.next = 0.into();
        self.states.read_address.next = 0.into();
        self.states.write_address.next = 0.into();
        self.states.write_data.next = 0.into();
        self.states.write_enable.next = false;
        self.valid.d.next = 0.into();
        self.curr_word.d.next = 0.into();
        self.prediction.d.next = false;
        self.curr_lsb.d.next = false;
        self.written.d.next = false;
        self.written_word.d.next = 0.into();
        self.read_valid.d.next = false;
        if self.present.val() {
            self.index.next = self.index_address.val() & self.index_mask.val();
            self.next_index.next = self.next_index_address.val() & self.index_mask.val();
            self.word.next = self.index.val().get_bits::<WORD_ADDRESS_BITS>(2);
            self.next_word_address.next = self.next_index.val().get_bits::<WORD_ADDRESS_BITS>(2);
            self.ahead_word.next = self.ahead_word_address.val() & self.word_mask.val();
            self.place.next = (self.index.val() & 3) << 1;
            self.next_place.next = (self.next_index.val() & 3) << 1;
            self.state_msb.next = self.prediction.q.val();
            self.state_lsb.next = self.curr_lsb.q.val();
            // The outcome against `curr`'s prediction: `correct`, held since the last edge.
            self.ok.next = self.correct_q.q.val();
            // The entry after the update: from its state, or from 01 after a restart (then
            // the prediction is "not taken", correct when not taken).
            self.new_msb.next = (self.state_msb.val() && self.state_lsb.val())
                || (self.state_msb.val() && self.ok.val())
                || (!self.state_msb.val() && self.state_lsb.val() && !self.ok.val());
            self.new_lsb.next = self.state_msb.val() == self.ok.val();
            self.base_valid.next = self.valid.q.val();
            self.base_word.next = self.curr_word.q.val();
            if self.restart.val() {
                self.new_msb.next = self.taken.val();
                self.new_lsb.next = self.taken.val();
                self.base_valid.next = 0.into();
                self.base_word.next = self.weak_word.val();
            }
            // The new state as the low bits of a word (the entry lowest).
            self.new_entry.next = 0.into();
            if self.new_msb.val() {
                self.new_entry.next = self.entry_msb.val();
            }
            if self.new_lsb.val() {
                self.new_entry.next = self.new_entry.val() | self.entry_lsb.val();
            }
            self.new_state.next = self.new_entry.val().get_bits::<2>(0);
            // `curr`'s word with its entry updated, written back whole.
            self.new_word.next = (self.base_word.val()
                & !(self.entry_mask.val() << self.place.val()))
                | (self.new_entry.val() << self.place.val());
            self.word_after.next = self.base_word.val();
            self.word_bit.next = self.one.val() << self.word.val();
            self.valid.d.next = self.base_valid.val();
            if self.update.val() {
                self.word_after.next = self.new_word.val();
                self.valid.d.next = self.base_valid.val() | self.word_bit.val();
            }
            self.states.write_address.next = self.word.val();
            self.states.write_data.next = self.new_word.val();
            self.states.write_enable.next = self.update.val();
            // The read for the next cycle: `next`'s word after the edge, and whether this
            // edge's write is that word (the RAM's read then is the word before it).
            self.states.read_address.next = self.ahead_word.val();
            self.written.d.next = self.update.val() && (self.ahead_word.val() == self.word.val());
            self.written_word.d.next = self.new_word.val();
            self.read_valid.d.next =
                !self.restart.val() && self.valid.q.val().get_bit(self.ahead_word.val().index());
            // `next`'s word and entry as the table is now.
            self.next_word.next = self.weak_word.val();
            if self.read_valid.q.val() {
                self.next_word.next = self.states.read_data.val();
            }
            if self.written.q.val() {
                self.next_word.next = self.written_word.q.val();
            }
            self.next_entry_low.next = self.next_word.val() >> self.next_place.val();
            self.next_state.next = self.next_entry_low.val().get_bits::<2>(0);
            self.unused_next_entry_high.next = self.next_entry_low.val().get_bits::<6>(2);
            self.same_word.next = self.next_word_address.val() == self.word.val();
            self.same_entry.next = self.next_index.val() == self.index.val();
            // The entry that is `curr`'s after the edge, as this cycle's update leaves it
            // (the updated entry forwarded, 01 after a restart).
            self.entered_state.next = self.weak_not_taken.val();
            if !self.curr_lsb.q.val() {
                self.entered_state.next = 0.into();
            }
            if self.prediction.q.val() {
                self.entered_state.next = self.entered_state.val() | self.msb_set.val();
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
            // The word that is `curr`'s after the edge: `next`'s from the table (all 01
            // after a restart), or `curr`'s own after this cycle when it is the same word.
            self.curr_word.d.next = self.word_after.val();
            if self.shift.val() && !self.same_word.val() {
                self.curr_word.d.next = self.next_word.val();
                if self.restart.val() {
                    self.curr_word.d.next = self.weak_word.val();
                }
            }
        }
        self.correct_q.d.next =
            (self.prediction.d.val() ^ self.fault.val()) == self.taken_ahead.val();
        self.correct_ahead.next = self.correct_q.d.val();
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
    /// the block's `correct` (`correct_q`, registered from `correct_ahead`) equals the
    /// model's prediction outcome in every cycle.
    #[test]
    fn predictions_are_the_models() {
        // 2 entries (one word), 8 (two words), 64 (16 words, more than the addresses).
        for (size, seed) in [(1u8, 21u64), (3, 22), (6, 23)] {
            let mut uut = Predictor::new(size, false);
            uut.connect_all();
            let mut model = BranchPredictor::new(u64::from(size), 1);
            let mut rng = Rng::new(seed);
            let mut address = 0x8000_0000u64;
            let mut next_address = 0x8000_0000 + 2 * rng.below(24);
            let mut taken = !rng.chance(0.3);
            let index = |a: u64| Bits::<BPRED_MAX_BITS>::from((a >> INDEX_LSB) & 0xff);
            let word = |a: u64| Bits::<WORD_ADDRESS_BITS>::from((a >> (INDEX_LSB + 2)) & 0x3f);
            for step in 0..8000 {
                // `taken` after the edge (`correct` is formed a cycle early from it).
                let taken_after = !rng.chance(0.3);
                let update = step > 0 && rng.chance(0.8);
                let restart = step == 0 || rng.chance(0.02);
                let shift = rng.chance(0.6);
                // `next` after the edge: a new record at a shift, and sometimes without one
                // (a record entering an empty `next`).
                let following = if shift || rng.chance(0.2) {
                    0x8000_0000 + 2 * rng.below(24)
                } else {
                    next_address
                };
                uut.index_address.next = index(address);
                uut.next_index_address.next = index(next_address);
                uut.ahead_word_address.next = word(following);
                uut.shift.next = shift;
                uut.taken.next = taken;
                uut.taken_ahead.next = taken_after;
                uut.update.next = update;
                uut.restart.next = restart;
                settle(&mut uut);
                if update {
                    let expected = model.update(address, taken);
                    assert_eq!(uut.correct_q.q.val(), expected, "size {size}, step {step}");
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
                taken = taken_after;
            }
        }
    }
}
