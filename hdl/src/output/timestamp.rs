//! The free-running 16-bit timestamp counter (`hdl/DESIGN.md` item 5): 0 in the first
//! cycle after reset; a packet's encap `timestamp` is its value in the cycle the packet
//! was produced, the cycle before its push (the packet register, item 4).

use rust_hdl::prelude::*;

/// A 16-bit cycle counter (`DESIGN.md` item 5), presented one cycle late: the value is
/// the timestamp of the packets pushed into the queue in this cycle.
#[derive(LogicBlock, Default)]
pub struct Timestamp {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the counter is 0 in the next cycle but one (so `previous` is
    /// 0xffff in the next cycle).
    pub reset: Signal<In, Bit>,
    /// The counter value in the previous cycle.
    pub previous: Signal<Out, Bits<16>>,
    count: DFF<Bits<16>>,
}

impl Logic for Timestamp {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count);
        self.previous.next = self.count.q.val();
        self.count.d.next = self.count.q.val() + 1;
        if self.reset.val() {
            self.count.d.next = 0xffff.into();
        }
    }
}
