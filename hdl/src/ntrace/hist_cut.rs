//! `HistCut`: the repeated history cut of a full HIST register (N-Trace 1.0, "Repeated
//! History Optimization", "ResourceFull Message"), as the model's
//! `History::take_periodic`: when the `n` branch bits of the full register repeat with a
//! period `p <= n / 2`, the smallest such period is taken, the whole periods are sent and
//! the other `n mod p` bits start the next HIST.
//!
//! The cut is formed ahead, for one outcome of the branch that would fill the register,
//! from the HIST flip-flops as they are before that branch: HIST changes only in the
//! cycle after a record (and to 1 at a restart or a reset, when it is not one branch short
//! of full), and records are at least three cycles apart, so the two register stages
//! here (the period found, then the cut) are current whenever a record is present. The
//! generator keeps one block per outcome and selects by the record's outcome, so no
//! period test is on the record's paths. The cut is also compared here with the last full
//! HIST sent (`same`, for the HREPEAT count), so that compare is off them too.

use rust_hdl::prelude::*;

use super::message::HIST_BITS;

/// Largest period of a full HIST register tried: half the branch bits of the widest
/// register (31 branch bits, `NTRACE_MAX_HIST` 32 with the stop bit).
pub const MAX_PERIOD: usize = (HIST_BITS - 1) / 2;

/// The cut of `hist` filled by `outcome`, two cycles after `hist` is on its port: `sent`,
/// the HIST field of the ResourceFull RCODE 1 (the whole register when it has no period),
/// `kept`, the HIST register after it (1 when it has no period), and `same`, `sent` equal
/// to `last_full`. Meaningful only when `hist` is one branch short of full.
#[derive(LogicBlock)]
pub struct HistCut {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The HIST register before the branch that fills it (stop bit included).
    pub hist: Signal<In, Bits<HIST_BITS>>,
    /// The last full HIST sent ("Repeated History Optimization"), compared with `sent`.
    pub last_full: Signal<In, Bits<HIST_BITS>>,
    /// The HIST field sent ("HIST Field Full"), cut at the smallest period.
    pub sent: Signal<Out, Bits<HIST_BITS>>,
    /// The HIST register after the message: the bits after the whole periods.
    pub kept: Signal<Out, Bits<HIST_BITS>>,
    /// `sent` is `last_full`: the cut repeats the last full HIST (counted, not sent).
    pub same: Signal<Out, Bit>,
    // Stage 1: a period was found (`cut`) and the bits it leaves, `n mod p` (`rest`).
    cut: DFF<Bit>,
    rest: DFF<Bits<HIST_BITS>>,
    // Stage 2: the cut.
    sent_ff: DFF<Bits<HIST_BITS>>,
    kept_ff: DFF<Bits<HIST_BITS>>,
    // The full register's branch bits (stop bit cleared).
    branches: Signal<Local, Bits<HIST_BITS>>,
    outcome: Constant<Bits<HIST_BITS>>,
    // The stop bit of a full register, the branch bits' mask (`n` bits), the periods tried
    // (bit `p`: `p <= n / 2`), a one, and per period `p` the bits it leaves, `n mod p`
    // (written out: the kernel has no arrays).
    full_stop: Constant<Bits<HIST_BITS>>,
    mask: Constant<Bits<HIST_BITS>>,
    periods: Constant<Bits<16>>,
    one: Constant<Bits<HIST_BITS>>,
    rest_1: Constant<Bits<HIST_BITS>>,
    rest_2: Constant<Bits<HIST_BITS>>,
    rest_3: Constant<Bits<HIST_BITS>>,
    rest_4: Constant<Bits<HIST_BITS>>,
    rest_5: Constant<Bits<HIST_BITS>>,
    rest_6: Constant<Bits<HIST_BITS>>,
    rest_7: Constant<Bits<HIST_BITS>>,
    rest_8: Constant<Bits<HIST_BITS>>,
    rest_9: Constant<Bits<HIST_BITS>>,
    rest_10: Constant<Bits<HIST_BITS>>,
    rest_11: Constant<Bits<HIST_BITS>>,
    rest_12: Constant<Bits<HIST_BITS>>,
    rest_13: Constant<Bits<HIST_BITS>>,
    rest_14: Constant<Bits<HIST_BITS>>,
    rest_15: Constant<Bits<HIST_BITS>>,
}

impl HistCut {
    /// The cut of a `hist_bits`-wide register (stop bit included) filled by a taken
    /// (`taken`) or a not-taken branch.
    ///
    /// # Panics
    ///
    /// If `hist_bits` is not in 2..=[`HIST_BITS`] (a configuration error).
    pub fn new(hist_bits: usize, taken: bool) -> Self {
        assert!(
            (2..=HIST_BITS).contains(&hist_bits),
            "hist_bits {hist_bits} is not in 2..={HIST_BITS}"
        );
        let branches = hist_bits - 1;
        let periods = (1..=MAX_PERIOD)
            .filter(|p| 2 * p <= branches)
            .fold(0u64, |m, p| m | 1 << p);
        let rest = |p: usize| Constant::new(bits::<HIST_BITS>((branches % p) as u64));
        HistCut {
            clock: Default::default(),
            hist: Default::default(),
            last_full: Default::default(),
            sent: Default::default(),
            kept: Default::default(),
            same: Default::default(),
            cut: Default::default(),
            rest: Default::default(),
            sent_ff: Default::default(),
            kept_ff: Default::default(),
            branches: Default::default(),
            outcome: Constant::new(bits::<HIST_BITS>(u64::from(taken))),
            full_stop: Constant::new(bits::<HIST_BITS>(1 << branches)),
            mask: Constant::new(bits::<HIST_BITS>((1 << branches) - 1)),
            periods: Constant::new(bits::<16>(periods)),
            one: Constant::new(bits::<HIST_BITS>(1)),
            rest_1: rest(1),
            rest_2: rest(2),
            rest_3: rest(3),
            rest_4: rest(4),
            rest_5: rest(5),
            rest_6: rest(6),
            rest_7: rest(7),
            rest_8: rest(8),
            rest_9: rest(9),
            rest_10: rest(10),
            rest_11: rest(11),
            rest_12: rest(12),
            rest_13: rest(13),
            rest_14: rest(14),
            rest_15: rest(15),
        }
    }
}

impl Default for HistCut {
    fn default() -> Self {
        Self::new(HIST_BITS, false)
    }
}

impl Logic for HistCut {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cut, rest, sent_ff, kept_ff);
        // The full register's branch bits: the stop bit shifted out of `hist` into the top
        // bit, the outcome in bit 0, the stop bit cleared.
        self.branches.next = ((self.hist.val() << 1) | self.outcome.val()) ^ self.full_stop.val();
        // Stage 1: the smallest period whose shift leaves the branch bits as they are (the
        // last assignment wins).
        self.cut.d.next = false;
        self.rest.d.next = 0.into();
        if self.periods.val().get_bit(15)
            && ((self.branches.val() >> 15) == (self.branches.val() & (self.mask.val() >> 15)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_15.val();
        }
        if self.periods.val().get_bit(14)
            && ((self.branches.val() >> 14) == (self.branches.val() & (self.mask.val() >> 14)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_14.val();
        }
        if self.periods.val().get_bit(13)
            && ((self.branches.val() >> 13) == (self.branches.val() & (self.mask.val() >> 13)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_13.val();
        }
        if self.periods.val().get_bit(12)
            && ((self.branches.val() >> 12) == (self.branches.val() & (self.mask.val() >> 12)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_12.val();
        }
        if self.periods.val().get_bit(11)
            && ((self.branches.val() >> 11) == (self.branches.val() & (self.mask.val() >> 11)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_11.val();
        }
        if self.periods.val().get_bit(10)
            && ((self.branches.val() >> 10) == (self.branches.val() & (self.mask.val() >> 10)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_10.val();
        }
        if self.periods.val().get_bit(9)
            && ((self.branches.val() >> 9) == (self.branches.val() & (self.mask.val() >> 9)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_9.val();
        }
        if self.periods.val().get_bit(8)
            && ((self.branches.val() >> 8) == (self.branches.val() & (self.mask.val() >> 8)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_8.val();
        }
        if self.periods.val().get_bit(7)
            && ((self.branches.val() >> 7) == (self.branches.val() & (self.mask.val() >> 7)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_7.val();
        }
        if self.periods.val().get_bit(6)
            && ((self.branches.val() >> 6) == (self.branches.val() & (self.mask.val() >> 6)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_6.val();
        }
        if self.periods.val().get_bit(5)
            && ((self.branches.val() >> 5) == (self.branches.val() & (self.mask.val() >> 5)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_5.val();
        }
        if self.periods.val().get_bit(4)
            && ((self.branches.val() >> 4) == (self.branches.val() & (self.mask.val() >> 4)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_4.val();
        }
        if self.periods.val().get_bit(3)
            && ((self.branches.val() >> 3) == (self.branches.val() & (self.mask.val() >> 3)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_3.val();
        }
        if self.periods.val().get_bit(2)
            && ((self.branches.val() >> 2) == (self.branches.val() & (self.mask.val() >> 2)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_2.val();
        }
        if self.periods.val().get_bit(1)
            && ((self.branches.val() >> 1) == (self.branches.val() & (self.mask.val() >> 1)))
        {
            self.cut.d.next = true;
            self.rest.d.next = self.rest_1.val();
        }
        // Stage 2: the whole periods with their stop bit, and the rest with its own (the
        // whole register and an empty one without a period).
        self.sent_ff.d.next = self.branches.val() | self.full_stop.val();
        self.kept_ff.d.next = self.one.val();
        if self.cut.q.val() {
            self.sent_ff.d.next = (self.full_stop.val() >> self.rest.q.val())
                | (self.branches.val() >> self.rest.q.val());
            self.kept_ff.d.next = (self.one.val() << self.rest.q.val())
                | (self.branches.val() & ((self.one.val() << self.rest.q.val()) - 1));
        }
        self.sent.next = self.sent_ff.q.val();
        self.kept.next = self.kept_ff.q.val();
        self.same.next = self.sent_ff.q.val() == self.last_full.val();
    }
}

#[cfg(test)]
#[path = "hist_cut_tests.rs"]
mod tests;
