//! The resynchronisation counter of `exampleAlgorithm.adoc`, section `sec:resync`, counting
//! te_inst packets. The model: `etrace_model::encoder::resync`.
//!
//! The hardware does not keep the count itself but what is left of it: `left` =
//! `resync_max - count`, a 17-bit two's complement value that stays negative once the
//! count passed the maximum (so `count > resync_max` stays true however many packets
//! follow, as the model's growing count). `resync_max` = 0 disables resynchronisation.
//! `resync_max` is latched when counting restarts at trace enable (`clear`): a run-time
//! change applies from the next trace enable, like the model's options, which are fixed
//! per trace session.
//!
//! [`ResyncCounter`] holds `left` (as a base and the packets still to subtract from it) and
//! the comparison results in registers. The comparisons of every `left - k` (k = 0..3
//! packets) with 0 are formed from registers while the packet decision settles; the
//! decision then only selects one, so no adder or compare follows the decision.

use rust_hdl::prelude::*;

use crate::packer::ZeroExtend;

/// Width of the run-time `resync_max` input: at most 65535 packets between syncs.
pub const RESYNC_MAX_BITS: usize = 16;

/// Width of `left` = `resync_max - count`: one sign bit above the maximum.
const LEFT_BITS: usize = RESYNC_MAX_BITS + 1;

// The kernel names the sign bit `16`: rust-hdl prints a constant's name, not its value.
const _: () = assert!(RESYNC_MAX_BITS == 16);

/// The resync counter with registered comparisons (`sec:resync`): `at_max`, `exceeded`
/// and `exceeded_after_one` describe the count after the packets of the previous cycles,
/// as the decision of this cycle needs them.
#[derive(LogicBlock, Default)]
pub struct ResyncCounter {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Restart from 0 before counting this cycle's packets (trace enable); latches
    /// `resync_max`.
    pub clear: Signal<In, Bit>,
    /// A synchronisation packet (format 3.0 / 3.1) is sent in this cycle: the count
    /// restarts from 0 after it.
    pub sync_sent: Signal<In, Bit>,
    /// Other packets counted in this cycle (0-3).
    pub others: Signal<In, Bits<2>>,
    /// Packets between forced syncs, 0 = off (read when `clear` is high).
    pub resync_max: Signal<In, Bits<RESYNC_MAX_BITS>>,
    /// `count == resync_max` (resync on).
    pub at_max: Signal<Out, Bit>,
    /// `count > resync_max` (resync on).
    pub exceeded: Signal<Out, Bit>,
    /// `count + 1 > resync_max` (resync on).
    pub exceeded_after_one: Signal<Out, Bit>,
    // `resync_max - count` before the previous cycle's packets, and those packets.
    base: DFF<Bits<LEFT_BITS>>,
    pend: DFF<Bits<2>>,
    // `resync_max` of this trace session, and whether it is not 0.
    max_q: DFF<Bits<RESYNC_MAX_BITS>>,
    enabled_q: DFF<Bit>,
    at_max_q: DFF<Bit>,
    exceeded_q: DFF<Bit>,
    after_one_q: DFF<Bit>,
    max_wide: ZeroExtend<RESYNC_MAX_BITS, LEFT_BITS>,
    max_q_wide: ZeroExtend<RESYNC_MAX_BITS, LEFT_BITS>,
    pend_wide: ZeroExtend<2, LEFT_BITS>,
    // `resync_max - count`, negative once the count passed the maximum.
    left: Signal<Local, Bits<LEFT_BITS>>,
    restart_value: Signal<Local, Bits<LEFT_BITS>>,
    base_negative: Signal<Local, Bit>,
    base_small: Signal<Local, Bit>,
    base_low: Signal<Local, Bits<3>>,
    pend_3: ZeroExtend<2, 3>,
    sum_0: Signal<Local, Bits<3>>,
    sum_1: Signal<Local, Bits<3>>,
    sum_2: Signal<Local, Bits<3>>,
    sum_3: Signal<Local, Bits<3>>,
    // `left == k` and `left < k` (k = 0..3): the comparisons of `left - k` with 0.
    at_0: Signal<Local, Bit>,
    at_1: Signal<Local, Bit>,
    at_2: Signal<Local, Bit>,
    at_3: Signal<Local, Bit>,
    ex_0: Signal<Local, Bit>,
    ex_1: Signal<Local, Bit>,
    ex_2: Signal<Local, Bit>,
    ex_3: Signal<Local, Bit>,
    // The comparisons of a restart with `c` packets: `resync_max == c`, `resync_max < c`.
    max_small: Signal<Local, Bit>,
    max_low: Signal<Local, Bits<2>>,
    restart_at_1: Signal<Local, Bit>,
    restart_at_2: Signal<Local, Bit>,
    restart_at_3: Signal<Local, Bit>,
    restart_ex_2: Signal<Local, Bit>,
    restart_ex_3: Signal<Local, Bit>,
    next_enabled: Signal<Local, Bit>,
    next_at: Signal<Local, Bit>,
    next_ex: Signal<Local, Bit>,
}

impl Logic for ResyncCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            base,
            pend,
            max_q,
            enabled_q,
            at_max_q,
            exceeded_q,
            after_one_q
        );
        self.at_max.next = self.at_max_q.q.val();
        self.exceeded.next = self.exceeded_q.q.val();
        self.exceeded_after_one.next = self.after_one_q.q.val();
        self.max_wide.narrow.next = self.resync_max.val();
        self.max_q_wide.narrow.next = self.max_q.q.val();

        // `left` is the registered base less the packets of the previous cycle (their
        // subtraction is left to this cycle, so none follows the decision), and stays
        // negative once it is (a negative base subtracts nothing). The next base is this
        // `left`, or a restart: one multiplexer after the subtraction.
        self.pend_wide.narrow.next = self.pend.q.val();
        if self.base.q.val().get_bit(16) {
            self.pend_wide.narrow.next = 0.into();
        }
        self.left.next = self.base.q.val() - self.pend_wide.wide.val();
        self.restart_value.next = self.max_q_wide.wide.val();
        if self.clear.val() {
            self.restart_value.next = self.max_wide.wide.val();
        }
        self.base.d.next = self.left.val();
        if self.clear.val() || self.sync_sent.val() {
            self.base.d.next = self.restart_value.val();
        }
        self.pend.d.next = self.others.val();
        self.next_enabled.next = self.enabled_q.q.val();
        if self.clear.val() {
            self.max_q.d.next = self.resync_max.val();
            self.enabled_q.d.next = self.resync_max.val().any();
            self.next_enabled.next = self.resync_max.val().any();
        }
        if self.sync_sent.val() {
            self.pend.d.next = 0.into();
        }

        // From registers: `left - k` against 0 for every k the decision can choose, as
        // `base` against `pend + k` (no subtraction on this path; a negative base is a
        // negative `left`, and a base above 7 is above every `pend + k`).
        self.base_negative.next = self.base.q.val().get_bit(16);
        self.base_small.next = !self.base.q.val().get_bits::<14>(3).any();
        self.base_low.next = self.base.q.val().get_bits::<3>(0);
        self.pend_3.narrow.next = self.pend.q.val();
        self.sum_0.next = self.pend_3.wide.val();
        self.sum_1.next = self.pend_3.wide.val() + 1;
        self.sum_2.next = self.pend_3.wide.val() + 2;
        self.sum_3.next = self.pend_3.wide.val() + 3;
        self.at_0.next = self.base_small.val() && (self.base_low.val() == self.sum_0.val());
        self.at_1.next = self.base_small.val() && (self.base_low.val() == self.sum_1.val());
        self.at_2.next = self.base_small.val() && (self.base_low.val() == self.sum_2.val());
        self.at_3.next = self.base_small.val() && (self.base_low.val() == self.sum_3.val());
        self.ex_0.next = self.base_negative.val()
            || (self.base_small.val() && (self.base_low.val() < self.sum_0.val()));
        self.ex_1.next = self.base_negative.val()
            || (self.base_small.val() && (self.base_low.val() < self.sum_1.val()));
        self.ex_2.next = self.base_negative.val()
            || (self.base_small.val() && (self.base_low.val() < self.sum_2.val()));
        self.ex_3.next = self.base_negative.val()
            || (self.base_small.val() && (self.base_low.val() < self.sum_3.val()));

        // A restart: `left` is `resync_max - c` for this cycle's packets `c` = 1..3.
        self.max_small.next = !self.resync_max.val().get_bits::<14>(2).any();
        self.max_low.next = self.resync_max.val().get_bits::<2>(0);
        self.restart_at_1.next = self.max_small.val() && (self.max_low.val() == 1);
        self.restart_at_2.next = self.max_small.val() && (self.max_low.val() == 2);
        self.restart_at_3.next = self.max_small.val() && (self.max_low.val() == 3);
        self.restart_ex_2.next = self.max_small.val() && (self.max_low.val() == 1);
        self.restart_ex_3.next =
            self.max_small.val() && ((self.max_low.val() == 1) || (self.max_low.val() == 2));

        // The decision selects (as it selects the next `left`).
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
        self.at_max_q.d.next = self.next_enabled.val() && self.next_at.val();
        self.exceeded_q.d.next = self.next_enabled.val() && self.next_ex.val();
        self.after_one_q.d.next =
            self.next_enabled.val() && (self.next_at.val() || self.next_ex.val());
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
