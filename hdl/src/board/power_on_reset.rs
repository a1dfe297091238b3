//! Power-on reset of the board top: the FPGA's flip-flops start at 0 after configuration;
//! a small counter holds the synchronous reset of everything else high for the first 16
//! clock cycles.

use rust_hdl::prelude::*;

/// Reset high for the first 16 cycles after configuration, then low for good.
#[derive(LogicBlock, Default)]
pub struct PowerOnReset {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset for the rest of the design, active high.
    pub reset: Signal<Out, Bit>,
    count: DFF<Bits<5>>,
}

impl Logic for PowerOnReset {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count);
        self.reset.next = !self.count.q.val().get_bit(4);
        if !self.count.q.val().get_bit(4) {
            self.count.d.next = self.count.q.val() + 1;
        }
    }
}
