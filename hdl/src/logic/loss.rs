//! `LossControl`: pushing the produced packets into the 2-entry packet queue or dropping
//! them, and the lost flag (`payload.adoc`, `sec:qual-status`, trace_lost; `hdl/DESIGN.md`,
//! cycle contract item 4). The model: `Encoder::set_queue_free`.

use rust_hdl::prelude::*;

/// Push / drop (combinational; the lost flag is a register of [`super::PacketLogic`], and
/// the decision decides on recovery because the chart's outcome depends on it).
///
/// With the lost flag clear, the produced packets are pushed when they fit in the free
/// queue entries, else all are dropped and the flag is set. With the flag set, packets are
/// dropped, except on `recover` (2 free entries, a decision for a traced instruction that
/// is not exception-only and does not follow a traced trap): then the trace-lost support
/// packet goes first, both it and the recovery sync are pushed and the flag clears. Trace
/// enable clears the flag before its support packet is pushed or dropped.
#[derive(LogicBlock, Default)]
pub struct LossControl {
    /// The lost flag.
    pub lost: Signal<In, Bit>,
    /// Trace enable: one packet (the enable support packet), the lost flag cleared first.
    pub enable: Signal<In, Bit>,
    /// At least one queue entry is free at the start of the cycle.
    pub free_one: Signal<In, Bit>,
    /// Two queue entries are free at the start of the cycle.
    pub free_two: Signal<In, Bit>,
    /// Recovery in this cycle.
    pub recover: Signal<In, Bit>,
    /// The chart produces no packet (not read on recovery).
    pub none: Signal<In, Bit>,
    /// The chart produces two packets (else one, unless `none`).
    pub two: Signal<In, Bit>,
    /// Packets pushed into the queue in this cycle.
    pub count: Signal<Out, Bits<2>>,
    /// The lost flag after this cycle.
    pub next_lost: Signal<Out, Bit>,
    lost_now: Signal<Local, Bit>,
    push_one: Signal<Local, Bit>,
    push_two: Signal<Local, Bit>,
    overflow: Signal<Local, Bit>,
    count_one: Signal<Local, Bits<2>>,
    count_two: Signal<Local, Bits<2>>,
}

impl Logic for LossControl {
    #[hdl_gen]
    fn update(&mut self) {
        self.lost_now.next = self.lost.val() && !self.enable.val();
        self.push_one.next =
            !self.lost_now.val() && !self.none.val() && !self.two.val() && self.free_one.val();
        self.push_two.next =
            self.recover.val() || (!self.lost.val() && self.two.val() && self.free_two.val());
        // (The two cases exclude each other: one bit each, no priority between them.)
        self.count_one.next = 0.into();
        if self.push_one.val() {
            self.count_one.next = 1.into();
        }
        self.count_two.next = 0.into();
        if self.push_two.val() {
            self.count_two.next = 2.into();
        }
        self.count.next = self.count_one.val() | self.count_two.val();
        // More packets than free entries: one without a free entry, or two without two.
        self.overflow.next =
            (!self.none.val() && !self.free_one.val()) || (self.two.val() && !self.free_two.val());
        self.next_lost.next = !self.recover.val() && (self.lost_now.val() || self.overflow.val());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn loss_control_verilog() {
        let mut uut = LossControl::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("loss_control", &v).unwrap();
        lint("loss_control", &v).unwrap();
    }
}
