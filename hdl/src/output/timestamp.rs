//! The free-running 16-bit timestamp counter (`hdl/DESIGN.md` item 5): 0 in the first
//! cycle after reset; a packet's encap `timestamp` is its value in the cycle the packet
//! was produced, two cycles before it is in the queue's input register (the packet
//! register, item 4, then the push).

use rust_hdl::prelude::*;

/// A 16-bit cycle counter (`DESIGN.md` item 5), presented two cycles late: the value is
/// the timestamp of the packets in the queue's input register in this cycle. The counter
/// itself runs two cycles behind, so the queue needs no register of its own for the
/// timestamp (the input register's entries are always a cycle old).
#[derive(LogicBlock, Default)]
pub struct Timestamp {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the counter is 0 in the first cycle after it, so `queued` is
    /// 0xfffe in the next cycle, 0xffff in the one after, then 0.
    pub reset: Signal<In, Bit>,
    /// The counter value two cycles before.
    pub queued: Signal<Out, Bits<16>>,
    count: DFF<Bits<16>>,
}

impl Logic for Timestamp {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count);
        self.queued.next = self.count.q.val();
        self.count.d.next = self.count.q.val() + 1;
        if self.reset.val() {
            self.count.d.next = 0xfffe.into();
        }
    }
}
