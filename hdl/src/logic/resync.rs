//! The resynchronisation counter of `exampleAlgorithm.adoc`, section `sec:resync`, counting
//! te_inst packets. The model: `etrace_encoder::resync`.
//!
//! The count is kept as what is left of it: `left` = `resync_max - count`, negative once the
//! count passed the maximum (it then stays negative however many packets follow, as the
//! model's growing count stays above the maximum). `resync_max` = 0 disables
//! resynchronisation. `resync_max` is latched when counting restarts at trace enable: a
//! run-time change applies from the next trace enable, like the model's options, which are
//! fixed per trace session.
//!
//! The decision reads whether `left` is 0 (at the maximum) or negative (exceeded) and
//! chooses how many packets are counted in its cycle (0, 1 or 2, or a restart), and the next
//! decision may follow in the next cycle. So [`ResyncCounter`] keeps `left` near zero as
//! flags in flip-flops, `left == 0`, `1`, `2` and `left < 0`, which the packets of a cycle
//! shift down by 0, 1 or 2 places: a multiplexer after the decision. The flags of `left ==
//! 3` and `4` that shift in come from the exact value, which is kept one cycle late (the
//! previous cycle's packets are subtracted in the next one, as `base - pend`), with its
//! comparisons with 3 to 6 in flip-flops too.

use rust_hdl::prelude::*;

use crate::packer::ZeroExtend;

/// Width of the run-time `resync_max` input: at most 65535 packets between syncs.
pub const RESYNC_MAX_BITS: usize = 16;

/// Width of `left` = `resync_max - count`: one sign bit above the maximum.
const LEFT_BITS: usize = RESYNC_MAX_BITS + 1;

// The kernel names the sign bit `16`: rust-hdl prints a constant's name, not its value.
const _: () = assert!(RESYNC_MAX_BITS == 16);

/// The resync counter (`sec:resync`): `at_max` and `exceeded` describe the count after the
/// packets of the previous cycles, as the decision of this cycle needs them.
#[derive(LogicBlock, Default)]
pub struct ResyncCounter {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Trace enable: counting restarts from 0 with this cycle's one packet (the enable
    /// support packet); latches `resync_max`.
    pub clear: Signal<In, Bit>,
    /// The count restarts from 0 after this cycle (a format 3.0 / 3.1 is sent, or `clear`).
    pub restart: Signal<In, Bit>,
    /// No packet is counted in this cycle.
    pub none: Signal<In, Bit>,
    /// Two packets are counted in this cycle (else one, unless `none` or `restart`).
    pub two: Signal<In, Bit>,
    /// Packets between forced syncs, 0 = off, one cycle ahead of `clear` (it is registered
    /// here, with the comparisons the restart needs).
    pub resync_max_ahead: Signal<In, Bits<RESYNC_MAX_BITS>>,
    /// `count == resync_max` (resync on).
    pub at_max: Signal<Out, Bit>,
    /// `count > resync_max` (resync on).
    pub exceeded: Signal<Out, Bit>,
    // `left == 0, 1, 2` and `left < 0`.
    at_0: DFF<Bit>,
    at_1: DFF<Bit>,
    at_2: DFF<Bit>,
    negative: DFF<Bit>,
    // The exact `left`, a cycle late: `base - pend`; and `base == 3 ..= 6`.
    base: DFF<Bits<LEFT_BITS>>,
    pend: DFF<Bits<2>>,
    base_3: DFF<Bit>,
    base_4: DFF<Bit>,
    base_5: DFF<Bit>,
    base_6: DFF<Bit>,
    // `resync_max` (registered, as every option is twice: `hdl/DESIGN.md` item 0), its
    // value latched at trace enable, and their comparisons with 1 ..= 6 (bit k: == k).
    max_in: DFF<Bits<RESYNC_MAX_BITS>>,
    max_in_is: DFF<Bits<8>>,
    max_q: DFF<Bits<RESYNC_MAX_BITS>>,
    max_is: DFF<Bits<8>>,
    ahead_small: Signal<Local, Bit>,
    ahead_low: Signal<Local, Bits<3>>,
    ahead_is: Signal<Local, Bits<8>>,
    max_in_wide: ZeroExtend<RESYNC_MAX_BITS, LEFT_BITS>,
    max_q_wide: ZeroExtend<RESYNC_MAX_BITS, LEFT_BITS>,
    pend_wide: ZeroExtend<2, LEFT_BITS>,
    left: Signal<Local, Bits<LEFT_BITS>>,
    restart_value: Signal<Local, Bits<LEFT_BITS>>,
    // What the restart sets: the flags of `left` = `resync_max` (after a sync) or
    // `resync_max - 1` (trace enable counts the support packet) being 0-2, and of the base
    // (`resync_max`) being 3-6.
    restart_at: Signal<Local, Bits<3>>,
    restart_far: Signal<Local, Bits<4>>,
    // `left == 3` and `4`, from `base` and `pend`.
    left_3: Signal<Local, Bit>,
    left_4: Signal<Local, Bit>,
    // `base - pend == 3 ..= 6`: the next `base_3 ..= base_6` without a restart.
    base_small: Signal<Local, Bit>,
    base_low: Signal<Local, Bits<4>>,
    pend_0: Signal<Local, Bit>,
    pend_1: Signal<Local, Bit>,
    pend_2: Signal<Local, Bit>,
    // The flags shifted by this cycle's packets (0: `keep`, 1: `one`, 2: `two`).
    keep_or_one_0: Signal<Local, Bit>,
    keep_or_one_1: Signal<Local, Bit>,
    keep_or_one_2: Signal<Local, Bit>,
    restart_or_two_0: Signal<Local, Bit>,
    restart_or_two_1: Signal<Local, Bit>,
    restart_or_two_2: Signal<Local, Bit>,
    negative_or_one: Signal<Local, Bit>,
}

impl Logic for ResyncCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, at_0, at_1, at_2, negative, base, pend, base_3, base_4, base_5, base_6,
            max_in, max_in_is, max_q, max_is
        );
        self.at_max.next = self.at_0.q.val();
        self.exceeded.next = self.negative.q.val();

        // `resync_max` registered, and its comparisons with 1 ..= 6.
        self.ahead_small.next = !self.resync_max_ahead.val().get_bits::<13>(3).any();
        self.ahead_low.next = self.resync_max_ahead.val().get_bits::<3>(0);
        self.ahead_is.next = 0.into();
        if self.ahead_small.val() {
            if self.ahead_low.val() == 1 {
                self.ahead_is.next = 2.into();
            }
            if self.ahead_low.val() == 2 {
                self.ahead_is.next = 4.into();
            }
            if self.ahead_low.val() == 3 {
                self.ahead_is.next = 8.into();
            }
            if self.ahead_low.val() == 4 {
                self.ahead_is.next = 16.into();
            }
            if self.ahead_low.val() == 5 {
                self.ahead_is.next = 32.into();
            }
            if self.ahead_low.val() == 6 {
                self.ahead_is.next = 64.into();
            }
        }
        self.max_in.d.next = self.resync_max_ahead.val();
        self.max_in_is.d.next = self.ahead_is.val();
        if self.clear.val() {
            self.max_q.d.next = self.max_in.q.val();
            self.max_is.d.next = self.max_in_is.q.val();
        }

        // The exact value, a cycle late: `left` is the registered base less the packets of
        // the previous cycle, and stays negative once it is (a negative base subtracts
        // nothing).
        // (The subtraction is from registers; the choice of a negative base follows it.)
        self.pend_wide.narrow.next = self.pend.q.val();
        self.left.next = self.base.q.val() - self.pend_wide.wide.val();
        if self.base.q.val().get_bit(16) {
            self.left.next = self.base.q.val();
        }
        // `left == 3 ..= 6`, from registers: `base == k + pend` (no subtraction on this
        // path; a negative base is never small).
        self.base_small.next = !self.base.q.val().get_bits::<13>(4).any();
        self.base_low.next = self.base.q.val().get_bits::<4>(0);
        self.pend_0.next = self.pend.q.val() == 0;
        self.pend_1.next = self.pend.q.val() == 1;
        self.pend_2.next = self.pend.q.val() == 2;
        // `left == 3`, `4` from the flags of the base and the pending packets.
        self.left_3.next = self.base_3.q.val();
        self.left_4.next = self.base_4.q.val();
        if self.pend_1.val() {
            self.left_3.next = self.base_4.q.val();
            self.left_4.next = self.base_5.q.val();
        }
        if self.pend_2.val() {
            self.left_3.next = self.base_5.q.val();
            self.left_4.next = self.base_6.q.val();
        }

        // The restart value: `resync_max` after a sync (not counted), `resync_max - 1` at
        // trace enable (the support packet is counted).
        self.max_in_wide.narrow.next = self.max_in.q.val();
        self.max_q_wide.narrow.next = self.max_q.q.val();
        self.restart_value.next = self.max_q_wide.wide.val();
        if self.clear.val() {
            self.restart_value.next = self.max_in_wide.wide.val();
        }
        self.restart_at.next = self.max_is.q.val().get_bits::<3>(0);
        self.restart_far.next = self.max_is.q.val().get_bits::<4>(3);
        if self.clear.val() {
            self.restart_at.next = self.max_in_is.q.val().get_bits::<3>(1);
            self.restart_far.next = self.max_in_is.q.val().get_bits::<4>(3);
        }

        // The next exact value and its comparisons.
        self.base.d.next = self.left.val();
        self.pend.d.next = 1.into();
        self.base_3.d.next = self.base_small.val()
            && ((self.pend_0.val() && (self.base_low.val() == 3))
                || (self.pend_1.val() && (self.base_low.val() == 4))
                || (self.pend_2.val() && (self.base_low.val() == 5)));
        self.base_4.d.next = self.base_small.val()
            && ((self.pend_0.val() && (self.base_low.val() == 4))
                || (self.pend_1.val() && (self.base_low.val() == 5))
                || (self.pend_2.val() && (self.base_low.val() == 6)));
        self.base_5.d.next = self.base_small.val()
            && ((self.pend_0.val() && (self.base_low.val() == 5))
                || (self.pend_1.val() && (self.base_low.val() == 6))
                || (self.pend_2.val() && (self.base_low.val() == 7)));
        self.base_6.d.next = self.base_small.val()
            && ((self.pend_0.val() && (self.base_low.val() == 6))
                || (self.pend_1.val() && (self.base_low.val() == 7))
                || (self.pend_2.val() && (self.base_low.val() == 8)));
        if self.none.val() {
            self.pend.d.next = 0.into();
        }
        if self.two.val() {
            self.pend.d.next = 2.into();
        }
        if self.restart.val() {
            self.base.d.next = self.restart_value.val();
            self.pend.d.next = 0.into();
            self.base_3.d.next = self.restart_far.val().get_bit(0);
            self.base_4.d.next = self.restart_far.val().get_bit(1);
            self.base_5.d.next = self.restart_far.val().get_bit(2);
            self.base_6.d.next = self.restart_far.val().get_bit(3);
        }
        if self.clear.val() {
            self.pend.d.next = 1.into();
        }

        // The flags: shifted down by the packets of this cycle, or the restart's. `none`,
        // `two` and `restart` come from the decision, so each flag is two multiplexers of
        // registers after them.
        self.keep_or_one_0.next = self.at_1.q.val();
        self.keep_or_one_1.next = self.at_2.q.val();
        self.keep_or_one_2.next = self.left_3.val();
        if self.none.val() {
            self.keep_or_one_0.next = self.at_0.q.val();
            self.keep_or_one_1.next = self.at_1.q.val();
            self.keep_or_one_2.next = self.at_2.q.val();
        }
        self.restart_or_two_0.next = self.at_2.q.val();
        self.restart_or_two_1.next = self.left_3.val();
        self.restart_or_two_2.next = self.left_4.val();
        if self.restart.val() {
            self.restart_or_two_0.next = self.restart_at.val().get_bit(0);
            self.restart_or_two_1.next = self.restart_at.val().get_bit(1);
            self.restart_or_two_2.next = self.restart_at.val().get_bit(2);
        }
        self.at_0.d.next = self.keep_or_one_0.val();
        self.at_1.d.next = self.keep_or_one_1.val();
        self.at_2.d.next = self.keep_or_one_2.val();
        if self.restart.val() || self.two.val() {
            self.at_0.d.next = self.restart_or_two_0.val();
            self.at_1.d.next = self.restart_or_two_1.val();
            self.at_2.d.next = self.restart_or_two_2.val();
        }
        self.negative_or_one.next =
            self.negative.q.val() || (!self.none.val() && self.at_0.q.val());
        self.negative.d.next = !self.restart.val()
            && (self.negative_or_one.val() || (self.two.val() && self.at_1.q.val()));
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
    }
}
