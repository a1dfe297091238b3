//! The resynchronisation counter of `exampleAlgorithm.adoc`, section `sec:resync`, counting
//! te_inst packets. The model: `etrace_model::encoder::resync`.
//!
//! The count is [`RESYNC_MAX_BITS`] wide with an overflow flag (set once the count passed
//! 65535), so `count > resync_max` stays true for every `resync_max` up to 65535 however
//! many packets follow. `resync_max` = 0 disables resynchronisation. [`ResyncCounter`]
//! holds the count, the flag and the comparison results in registers: [`ResyncAdvance`]
//! forms the next count, and the comparisons of every count the decision can choose are
//! formed from registers while the decision settles, which then only selects one (a
//! change of `resync_max` applies one decision later).

use rust_hdl::prelude::*;

use crate::packer::ZeroExtend;

/// Width of the run-time `resync_max` input: at most 65535 packets between syncs.
pub const RESYNC_MAX_BITS: usize = 16;

/// The resync counter with registered comparisons (`sec:resync`): `at_max`, `exceeded`
/// and `exceeded_after_one` describe the count after the packets of the previous cycles,
/// as the decision of this cycle needs them.
#[derive(LogicBlock, Default)]
pub struct ResyncCounter {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Restart from 0 before counting this cycle's packets (trace enable).
    pub clear: Signal<In, Bit>,
    /// A synchronisation packet (format 3.0 / 3.1) is sent in this cycle: the count
    /// restarts from 0 after it.
    pub sync_sent: Signal<In, Bit>,
    /// Packets counted in this cycle (0-3).
    pub others: Signal<In, Bits<2>>,
    /// Run-time option: packets between forced syncs, 0 = off.
    pub resync_max: Signal<In, Bits<RESYNC_MAX_BITS>>,
    /// `resync count == max_resync`.
    pub at_max: Signal<Out, Bit>,
    /// `resync count > max_resync`.
    pub exceeded: Signal<Out, Bit>,
    /// One more packet would exceed the maximum (`count >= max_resync`).
    pub exceeded_after_one: Signal<Out, Bit>,
    advance: ResyncAdvance,
    count: DFF<Bits<RESYNC_MAX_BITS>>,
    overflow: DFF<Bit>,
    at_max_q: DFF<Bit>,
    exceeded_q: DFF<Bit>,
    after_one_q: DFF<Bit>,
    count_wide: ZeroExtend<RESYNC_MAX_BITS, RESYNC_SUM_BITS>,
    max_wide: ZeroExtend<RESYNC_MAX_BITS, RESYNC_SUM_BITS>,
    // `resync_max - count` (17 bits, bit 16 set when negative) and its parts.
    diff: Signal<Local, Bits<RESYNC_SUM_BITS>>,
    diff_negative: Signal<Local, Bit>,
    diff_small: Signal<Local, Bit>,
    diff_low: Signal<Local, Bits<2>>,
    enabled: Signal<Local, Bit>,
    max_small: Signal<Local, Bit>,
    max_low: Signal<Local, Bits<2>>,
    // `count + k` passes 65535 (k = 1, 2, 3).
    wraps_1: Signal<Local, Bit>,
    wraps_2: Signal<Local, Bit>,
    wraps_3: Signal<Local, Bit>,
    // The comparisons of `count + k` (k = 0..3) with the overflow flag after it.
    over_0: Signal<Local, Bit>,
    over_1: Signal<Local, Bit>,
    over_2: Signal<Local, Bit>,
    over_3: Signal<Local, Bit>,
    at_0: Signal<Local, Bit>,
    at_1: Signal<Local, Bit>,
    at_2: Signal<Local, Bit>,
    at_3: Signal<Local, Bit>,
    ex_0: Signal<Local, Bit>,
    ex_1: Signal<Local, Bit>,
    ex_2: Signal<Local, Bit>,
    ex_3: Signal<Local, Bit>,
    // The comparisons of a restarted count `c` (c = 1..3; 0 is never at or past a maximum).
    restart_at_1: Signal<Local, Bit>,
    restart_at_2: Signal<Local, Bit>,
    restart_at_3: Signal<Local, Bit>,
    restart_ex_2: Signal<Local, Bit>,
    restart_ex_3: Signal<Local, Bit>,
    next_at: Signal<Local, Bit>,
    next_ex: Signal<Local, Bit>,
}

impl Logic for ResyncCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            count,
            overflow,
            at_max_q,
            exceeded_q,
            after_one_q
        );
        self.at_max.next = self.at_max_q.q.val();
        self.exceeded.next = self.exceeded_q.q.val();
        self.exceeded_after_one.next = self.after_one_q.q.val();

        // The next count.
        self.advance.count.next = self.count.q.val();
        self.advance.overflow.next = self.overflow.q.val();
        self.advance.clear.next = self.clear.val();
        self.advance.sync_sent.next = self.sync_sent.val();
        self.advance.others.next = self.others.val();
        self.count.d.next = self.advance.next_count.val();
        self.overflow.d.next = self.advance.next_overflow.val();

        // From registers: `count + k` against the maximum, through `max - count`:
        // `count + k == max` iff `diff == k`, `count + k > max` iff `diff < k`.
        self.count_wide.narrow.next = self.count.q.val();
        self.max_wide.narrow.next = self.resync_max.val();
        self.diff.next = self.max_wide.wide.val() - self.count_wide.wide.val();
        self.diff_negative.next = self.diff.val().get_bit(16);
        self.diff_small.next = !self.diff.val().get_bits::<15>(2).any();
        self.diff_low.next = self.diff.val().get_bits::<2>(0);
        self.enabled.next = self.resync_max.val().any();
        self.wraps_1.next = self.count.q.val().all();
        self.wraps_2.next = self.count.q.val().get_bits::<15>(1).all();
        self.wraps_3.next =
            self.count.q.val().get_bits::<14>(2).all() && self.count.q.val().get_bits::<2>(0).any();
        self.over_0.next = self.overflow.q.val();
        self.over_1.next = self.overflow.q.val() || self.wraps_1.val();
        self.over_2.next = self.overflow.q.val() || self.wraps_2.val();
        self.over_3.next = self.overflow.q.val() || self.wraps_3.val();
        self.at_0.next = self.enabled.val()
            && !self.over_0.val()
            && self.diff_small.val()
            && !self.diff_negative.val()
            && (self.diff_low.val() == 0);
        self.at_1.next = self.enabled.val()
            && !self.over_1.val()
            && self.diff_small.val()
            && !self.diff_negative.val()
            && (self.diff_low.val() == 1);
        self.at_2.next = self.enabled.val()
            && !self.over_2.val()
            && self.diff_small.val()
            && !self.diff_negative.val()
            && (self.diff_low.val() == 2);
        self.at_3.next = self.enabled.val()
            && !self.over_3.val()
            && self.diff_small.val()
            && !self.diff_negative.val()
            && (self.diff_low.val() == 3);
        self.ex_0.next = self.enabled.val() && (self.over_0.val() || self.diff_negative.val());
        self.ex_1.next = self.enabled.val()
            && (self.over_1.val()
                || self.diff_negative.val()
                || (self.diff_small.val() && (self.diff_low.val() == 0)));
        self.ex_2.next = self.enabled.val()
            && (self.over_2.val()
                || self.diff_negative.val()
                || (self.diff_small.val() && !self.diff_low.val().get_bit(1)));
        self.ex_3.next = self.enabled.val()
            && (self.over_3.val()
                || self.diff_negative.val()
                || (self.diff_small.val() && (self.diff_low.val() != 3)));

        // A restart: the count is this cycle's packets, `c` = 1..3 (no overflow).
        self.max_small.next = !self.resync_max.val().get_bits::<14>(2).any();
        self.max_low.next = self.resync_max.val().get_bits::<2>(0);
        self.restart_at_1.next = self.max_small.val() && (self.max_low.val() == 1);
        self.restart_at_2.next = self.max_small.val() && (self.max_low.val() == 2);
        self.restart_at_3.next = self.max_small.val() && (self.max_low.val() == 3);
        self.restart_ex_2.next = self.max_small.val() && (self.max_low.val() == 1);
        self.restart_ex_3.next =
            self.max_small.val() && ((self.max_low.val() == 1) || (self.max_low.val() == 2));

        // The decision selects (as `ResyncAdvance` selects the count).
        self.next_at.next = self.at_0.val();
        self.next_ex.next = self.ex_0.val();
        if self.others.val() == 1 {
            self.next_at.next = self.at_1.val();
            self.next_ex.next = self.ex_1.val();
        }
        if self.others.val() == 2 {
            self.next_at.next = self.at_2.val();
            self.next_ex.next = self.ex_2.val();
        }
        if self.others.val() == 3 {
            self.next_at.next = self.at_3.val();
            self.next_ex.next = self.ex_3.val();
        }
        if self.clear.val() {
            self.next_at.next = false;
            self.next_ex.next = false;
            if self.others.val() == 1 {
                self.next_at.next = self.restart_at_1.val();
            }
            if self.others.val() == 2 {
                self.next_at.next = self.restart_at_2.val();
                self.next_ex.next = self.restart_ex_2.val();
            }
            if self.others.val() == 3 {
                self.next_at.next = self.restart_at_3.val();
                self.next_ex.next = self.restart_ex_3.val();
            }
        }
        if self.sync_sent.val() {
            self.next_at.next = false;
            self.next_ex.next = false;
        }
        self.at_max_q.d.next = self.next_at.val();
        self.exceeded_q.d.next = self.next_ex.val();
        self.after_one_q.d.next = self.next_at.val() || self.next_ex.val();
    }
}

/// The packet count after this cycle's packets: 0 after a sync packet (format 3.0 / 3.1),
/// else increased by the other packets.
///
/// The sums `count + 1`, `count + 2` and `count + 3` (with their carry out, the overflow)
/// depend on registers only, so they are formed while the packet decision settles; the
/// decision then only selects one. An adder after the decision was the encoder's longest
/// path (resync compare -> decision -> adder -> overflow compare).
#[derive(LogicBlock, Default)]
pub struct ResyncAdvance {
    /// Packets since the last sync.
    pub count: Signal<In, Bits<RESYNC_MAX_BITS>>,
    /// The count passed 65535.
    pub overflow: Signal<In, Bit>,
    /// Restart from 0 before counting this cycle's packets (trace enable).
    pub clear: Signal<In, Bit>,
    /// A synchronisation packet is sent.
    pub sync_sent: Signal<In, Bit>,
    /// Other packets sent in this cycle (0-2).
    pub others: Signal<In, Bits<2>>,
    /// The new count.
    pub next_count: Signal<Out, Bits<RESYNC_MAX_BITS>>,
    /// The new overflow flag.
    pub next_overflow: Signal<Out, Bit>,
    count_wide: ZeroExtend<RESYNC_MAX_BITS, RESYNC_SUM_BITS>,
    others_wide: ZeroExtend<2, RESYNC_MAX_BITS>,
    plus_one: Signal<Local, Bits<RESYNC_SUM_BITS>>,
    plus_two: Signal<Local, Bits<RESYNC_SUM_BITS>>,
    plus_three: Signal<Local, Bits<RESYNC_SUM_BITS>>,
}

/// A count plus its carry out.
const RESYNC_SUM_BITS: usize = RESYNC_MAX_BITS + 1;

// The kernel names the carry bit `16`: rust-hdl prints a constant's name, not its value.
const _: () = assert!(RESYNC_MAX_BITS == 16);

impl Logic for ResyncAdvance {
    #[hdl_gen]
    fn update(&mut self) {
        self.count_wide.narrow.next = self.count.val();
        self.others_wide.narrow.next = self.others.val();
        self.plus_one.next = self.count_wide.wide.val() + 1;
        self.plus_two.next = self.count_wide.wide.val() + 2;
        self.plus_three.next = self.count_wide.wide.val() + 3;
        self.next_count.next = self.count.val();
        self.next_overflow.next = self.overflow.val();
        if self.others.val() == 1 {
            self.next_count.next = self.plus_one.val().get_bits::<RESYNC_MAX_BITS>(0);
            self.next_overflow.next = self.overflow.val() || self.plus_one.val().get_bit(16);
        }
        if self.others.val() == 2 {
            self.next_count.next = self.plus_two.val().get_bits::<RESYNC_MAX_BITS>(0);
            self.next_overflow.next = self.overflow.val() || self.plus_two.val().get_bit(16);
        }
        if self.others.val() == 3 {
            self.next_count.next = self.plus_three.val().get_bits::<RESYNC_MAX_BITS>(0);
            self.next_overflow.next = self.overflow.val() || self.plus_three.val().get_bit(16);
        }
        // Counting restarts from 0: the count is just this cycle's packets.
        if self.clear.val() {
            self.next_count.next = self.others_wide.wide.val();
            self.next_overflow.next = false;
        }
        if self.sync_sent.val() {
            self.next_count.next = 0.into();
            self.next_overflow.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn resync_verilog() {
        let mut uut = ResyncCounter::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("resync_counter", &v).unwrap();
        lint("resync_counter", &v).unwrap();
        let mut uut = ResyncAdvance::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("resync_advance", &v).unwrap();
        lint("resync_advance", &v).unwrap();
    }
}
