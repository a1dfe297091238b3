//! The byte FIFO between the serializer and the output port (`hdl/DESIGN.md` item 7):
//! depth D = 2^N entries of (byte, `last`), `out_valid` iff the occupancy at the start of
//! the cycle is above 0, a write accepted only when it is below D.
//!
//! Storage is a synchronous-read RAM ([`BlockRam`]: block RAM on iCE40, block or LUT RAM
//! on ECP5). The RAM reads the head of the next cycle at every edge; when the byte
//! written at the same edge is that head (the FIFO held no other byte), a bypass register
//! presents it instead, so the port behaves like a register FIFO.

use rust_hdl::prelude::*;

use crate::block_ram::BlockRam;
use crate::bundle::bundle;
use crate::packer::ZeroExtend;

bundle! {
    /// A byte stream with valid / ready (`hdl/DESIGN.md` item 7) as its consumer sees it:
    /// a byte is taken in a cycle with `out_valid` and `out_ready` high. The names are
    /// those of the byte-stream encoder's pins.
    pub struct ByteStream {
        /// The byte.
        out_data: In<Bits<8>>,
        /// `out_data` holds a byte.
        out_valid: In<Bit>,
        /// The consumer takes the byte in this cycle (when `out_valid`).
        out_ready: Out<Bit>,
        /// The byte is the last of a packet.
        out_last: In<Bit>,
    }
    /// The side that sends a [`ByteStream`]: the byte FIFO, the output path, the top.
    pub struct ByteStreamSource;
}

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
    /// The head byte: `out_valid` iff the occupancy at the start of the cycle is above 0.
    pub stream: ByteStreamSource,
    /// The consumer takes the head in the next cycle if there is one: `out_ready`
    /// announced a cycle ahead (and `out_ready` held low), so that the read is a flip-flop
    /// (`reading`) and the RAM's read address one LUT from flip-flops.
    pub read_next: Signal<In, Bit>,
    /// A byte is taken in this cycle by `read_next` (`out_valid` is high).
    pub reading: Signal<Out, Bit>,
    ram: BlockRam<Bits<9>, N>,
    wr_ptr: DFF<Bits<N>>,
    rd_ptr: DFF<Bits<N>>,
    // `rd_ptr + 1`, kept in its own flip-flops (bit 0 inverted, so that the power-up 0
    // reads as 1): a read only selects it, so the RAM's read address is one multiplexer
    // behind the consumer's `out_ready`.
    rd_ptr_ahead: DFF<Bits<N>>,
    rd_ptr_plus_one: Signal<Local, Bits<N>>,
    bypass_valid: DFF<Bit>,
    bypass_entry: DFF<Bits<9>>,
    // The occupancy and its two flags in flip-flops (the ports' status comes straight
    // from a register, not from a pointer compare).
    occupancy: DFF<Bits<N>>,
    nonempty: DFF<Bit>,
    full: DFF<Bit>,
    // `read_next` of the last cycle, and the FIFO was not empty after it.
    read_ff: DFF<Bit>,
    occupancy_one: Signal<Local, Bit>,
    occupancy_almost_full: Signal<Local, Bit>,
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
            rd_ptr,
            rd_ptr_ahead,
            bypass_valid,
            bypass_entry,
            occupancy,
            nonempty,
            full,
            read_ff
        );
        self.ram.clock.next = self.clock.val();
        self.stream.out_valid.next = self.nonempty.q.val();
        self.can_write.next = !self.full.q.val();
        self.write.next = self.wr_en.val() & !self.full.q.val();
        self.read.next =
            (self.stream.out_ready.val() & self.nonempty.q.val()) | self.read_ff.q.val();
        self.reading.next = self.read_ff.q.val();
        // Occupancy modulo D (0 when full): the flags tell 0 from D.
        self.occupancy_one.next = self.occupancy.q.val() == 1;
        self.occupancy_almost_full.next = self.occupancy.q.val().all();
        if self.write.val() & !self.read.val() {
            self.occupancy.d.next = self.occupancy.q.val() + 1;
        }
        if self.read.val() & !self.write.val() {
            self.occupancy.d.next = self.occupancy.q.val() - 1;
        }
        self.nonempty.d.next = self.write.val()
            | (self.nonempty.q.val() & !(self.read.val() & self.occupancy_one.val()));
        self.full.d.next = !self.read.val()
            & (self.full.q.val() | (self.write.val() & self.occupancy_almost_full.val()));
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
        self.stream.out_data.next = self.head.val().get_bits::<8>(0);
        self.stream.out_last.next = self.head.val().get_bit(8);
        // The RAM reads the head of the next cycle.
        self.rd_ptr_plus_one.next = self.rd_ptr_ahead.q.val() ^ 1;
        self.next_rd_ptr.next = self.rd_ptr.q.val();
        if self.read.val() {
            self.next_rd_ptr.next = self.rd_ptr_plus_one.val();
            self.rd_ptr_ahead.d.next = (self.rd_ptr_plus_one.val() + 1) ^ 1;
        }
        self.rd_ptr.d.next = self.next_rd_ptr.val();
        self.ram.read_address.next = self.next_rd_ptr.val();
        self.ram.write_address.next = self.wr_ptr.q.val();
        self.ram.write_data.next = self.entry.val();
        self.ram.write_enable.next = self.write.val();
        if self.write.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + 1;
        }
        // The byte written is the next cycle's head when the FIFO holds no other byte
        // then: it was empty, or it held one byte and that byte is read now (`wr_ptr ==
        // next_rd_ptr` without a pointer compare behind `out_ready`).
        self.bypass_valid.d.next = self.write.val()
            & (!self.nonempty.q.val() | (self.read.val() & self.occupancy_one.val()));
        self.bypass_entry.d.next = self.entry.val();
        if self.reset.val() {
            self.wr_ptr.d.next = 0.into();
            self.rd_ptr.d.next = 0.into();
            self.rd_ptr_ahead.d.next = 0.into();
            self.bypass_valid.d.next = false;
            self.occupancy.d.next = 0.into();
            self.nonempty.d.next = false;
            self.full.d.next = false;
        }
        self.read_ff.d.next = self.read_next.val() & self.nonempty.d.val();
    }
}
