//! The resynchronisation counter of `exampleAlgorithm.adoc`, section `sec:resync`, counting
//! te_inst packets. The model: `etrace_model::encoder::resync`.
//!
//! The count is [`RESYNC_MAX_BITS`] wide with an overflow flag (set once the count passed
//! 65535), so `count > resync_max` stays true for every `resync_max` up to 65535 however
//! many packets follow. `resync_max` = 0 disables resynchronisation. The count, the flag
//! and the comparison results are registers of [`super::PacketLogic`]: [`ResyncAdvance`]
//! forms the next count, [`ResyncCheck`] compares it with `resync_max`, and the decision
//! reads the registered comparisons (a change of `resync_max` applies one decision later).

use rust_hdl::prelude::*;

use crate::packer::ZeroExtend;

/// Width of the run-time `resync_max` input: at most 65535 packets between syncs.
pub const RESYNC_MAX_BITS: usize = 16;

/// Compares the packet count with `resync_max` (`sec:resync`).
#[derive(LogicBlock, Default)]
pub struct ResyncCheck {
    /// Packets since the last sync.
    pub count: Signal<In, Bits<RESYNC_MAX_BITS>>,
    /// The count passed 65535.
    pub overflow: Signal<In, Bit>,
    /// Run-time option: packets between forced syncs, 0 = off.
    pub resync_max: Signal<In, Bits<RESYNC_MAX_BITS>>,
    /// `resync count == max_resync`.
    pub at_max: Signal<Out, Bit>,
    /// `resync count > max_resync`.
    pub exceeded: Signal<Out, Bit>,
    /// One more packet would exceed the maximum.
    pub exceeded_after_one: Signal<Out, Bit>,
}

impl Logic for ResyncCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.at_max.next = self.resync_max.val().any()
            && !self.overflow.val()
            && (self.count.val() == self.resync_max.val());
        self.exceeded.next = self.resync_max.val().any()
            && (self.overflow.val() || (self.count.val() > self.resync_max.val()));
        self.exceeded_after_one.next = self.exceeded.val() || self.at_max.val();
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
        let mut uut = ResyncCheck::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("resync_check", &v).unwrap();
        lint("resync_check", &v).unwrap();
        let mut uut = ResyncAdvance::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("resync_advance", &v).unwrap();
        lint("resync_advance", &v).unwrap();
    }
}
