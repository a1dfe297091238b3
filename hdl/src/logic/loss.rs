//! `LossControl`: pushing the produced packets into the 2-entry packet queue or dropping
//! them, and the lost flag (`payload.adoc`, `sec:qual-status`, trace_lost; `hdl/DESIGN.md`,
//! cycle contract item 4). The model: `Encoder::set_queue_free`.

use rust_hdl::prelude::*;

/// Push / drop (combinational; the lost flag is a register of [`super::PacketLogic`], which
/// also decides on `recover` because the chart's decision depends on it).
///
/// With the lost flag clear, the `produced` packets are pushed when they fit in
/// `queue_free`, else all are dropped and the flag is set. With the flag set, packets are
/// dropped, except on `recover` (2 free entries, a decision for a traced instruction that
/// is not exception-only and does not follow a traced trap): then the trace-lost support
/// packet goes first, both it and the recovery sync are pushed and the flag clears.
#[derive(LogicBlock, Default)]
pub struct LossControl {
    /// The lost flag.
    pub lost: Signal<In, Bit>,
    /// Clear the lost flag (trace enable).
    pub clear: Signal<In, Bit>,
    /// Free entries of the packet queue at the start of the cycle.
    pub queue_free: Signal<In, Bits<2>>,
    /// Recovery in this cycle.
    pub recover: Signal<In, Bit>,
    /// Packets produced in this cycle (without the trace-lost support packet; not read on
    /// recovery, which pushes the support packet and the recovery sync).
    pub produced: Signal<In, Bits<2>>,
    /// Packets pushed into the queue in this cycle.
    pub count: Signal<Out, Bits<2>>,
    /// The lost flag after this cycle.
    pub next_lost: Signal<Out, Bit>,
    lost_now: Signal<Local, Bit>,
}

impl Logic for LossControl {
    #[hdl_gen]
    fn update(&mut self) {
        self.lost_now.next = self.lost.val() && !self.clear.val();
        self.count.next = 0.into();
        self.next_lost.next = self.lost_now.val();
        if self.recover.val() {
            // The trace-lost support packet and the recovery sync.
            self.count.next = 2.into();
            self.next_lost.next = false;
        } else if self.produced.val().any() {
            if self.lost_now.val() || (self.produced.val() > self.queue_free.val()) {
                self.next_lost.next = true;
            } else {
                self.count.next = self.produced.val();
            }
        }
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
