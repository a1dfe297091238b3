//! The byte FIFO between the serializer and the output port (`hdl/DESIGN.md` item 7):
//! depth D = 2^N entries of (byte, `last`), `out_valid` iff the occupancy at the start of
//! the cycle is above 0, a write accepted only when it is below D.
//!
//! Storage is a synchronous-read RAM (`rust-hdl`'s `RAM`, which yosys maps to block RAM
//! on iCE40 / ECP5). The RAM reads the head of the next cycle at every edge; when the
//! byte written at the same edge is that head (the FIFO held no other byte), a bypass
//! register presents it instead, so the port behaves like a register FIFO.

use rust_hdl::prelude::*;

use crate::packer::ZeroExtend;

/// FIFO of 9-bit entries (byte + `last`), depth `2^N` (`DESIGN.md` item 7).
#[derive(LogicBlock, Default)]
pub struct ByteFifo<const N: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty in the next cycle.
    pub reset: Signal<In, Bit>,
    /// Writes `wr_data` / `wr_last` in this cycle (only when `can_write`).
    pub wr_en: Signal<In, Bit>,
    /// The byte written.
    pub wr_data: Signal<In, Bits<8>>,
    /// The byte written is the last of a packet.
    pub wr_last: Signal<In, Bit>,
    /// Occupancy < D at the start of the cycle.
    pub can_write: Signal<Out, Bit>,
    /// Occupancy > 0 at the start of the cycle.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the head byte when `out_valid && out_ready`.
    pub out_ready: Signal<In, Bit>,
    /// The head byte.
    pub out_data: Signal<Out, Bits<8>>,
    /// The head byte is the last of a packet.
    pub out_last: Signal<Out, Bit>,
    ram: RAM<Bits<9>, N>,
    wr_ptr: DFF<Bits<N>>,
    wr_wrap: DFF<Bit>,
    rd_ptr: DFF<Bits<N>>,
    rd_wrap: DFF<Bit>,
    bypass_valid: DFF<Bit>,
    bypass_entry: DFF<Bits<9>>,
    write: Signal<Local, Bit>,
    read: Signal<Local, Bit>,
    head: Signal<Local, Bits<9>>,
    next_rd_ptr: Signal<Local, Bits<N>>,
    entry: Signal<Local, Bits<9>>,
    data_9: ZeroExtend<8, 9>,
}

impl<const N: usize> Logic for ByteFifo<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            wr_ptr,
            wr_wrap,
            rd_ptr,
            rd_wrap,
            bypass_valid,
            bypass_entry
        );
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.out_valid.next = (self.wr_ptr.q.val() != self.rd_ptr.q.val())
            | (self.wr_wrap.q.val() != self.rd_wrap.q.val());
        self.can_write.next = (self.wr_ptr.q.val() != self.rd_ptr.q.val())
            | (self.wr_wrap.q.val() == self.rd_wrap.q.val());
        // (Recomputed, not read back from the outputs: Verilator then sees no loop
        // through this block.)
        self.write.next = self.wr_en.val()
            & ((self.wr_ptr.q.val() != self.rd_ptr.q.val())
                | (self.wr_wrap.q.val() == self.rd_wrap.q.val()));
        self.read.next = self.out_ready.val()
            & ((self.wr_ptr.q.val() != self.rd_ptr.q.val())
                | (self.wr_wrap.q.val() != self.rd_wrap.q.val()));
        self.data_9.narrow.next = self.wr_data.val();
        self.entry.next = self.data_9.wide.val();
        if self.wr_last.val() {
            self.entry.next = self.data_9.wide.val() | 256;
        }
        // The head: the bypass register if the last write went to it, else the RAM.
        self.head.next = self.ram.read_data.val();
        if self.bypass_valid.q.val() {
            self.head.next = self.bypass_entry.q.val();
        }
        self.out_data.next = self.head.val().get_bits::<8>(0);
        self.out_last.next = self.head.val().get_bit(8);
        // The RAM reads the head of the next cycle.
        self.next_rd_ptr.next = self.rd_ptr.q.val();
        if self.read.val() {
            self.next_rd_ptr.next = self.rd_ptr.q.val() + 1;
            if self.rd_ptr.q.val().all() {
                self.rd_wrap.d.next = !self.rd_wrap.q.val();
            }
        }
        self.rd_ptr.d.next = self.next_rd_ptr.val();
        self.ram.read_address.next = self.next_rd_ptr.val();
        self.ram.write_address.next = self.wr_ptr.q.val();
        self.ram.write_data.next = self.entry.val();
        self.ram.write_enable.next = self.write.val();
        if self.write.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + 1;
            if self.wr_ptr.q.val().all() {
                self.wr_wrap.d.next = !self.wr_wrap.q.val();
            }
        }
        self.bypass_valid.d.next =
            self.write.val() & (self.wr_ptr.q.val() == self.next_rd_ptr.val());
        self.bypass_entry.d.next = self.entry.val();
        if self.reset.val() {
            self.wr_ptr.d.next = 0.into();
            self.wr_wrap.d.next = false;
            self.rd_ptr.d.next = 0.into();
            self.rd_wrap.d.next = false;
            self.bypass_valid.d.next = false;
        }
    }
}
