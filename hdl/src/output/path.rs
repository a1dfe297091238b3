//! The output path as one block (`hdl/DESIGN.md`, "Data path", items 4-8): packet queue,
//! timestamp counter, framer / serializer and byte FIFO, with the byte-stream port
//! ([`OutputPath`]) or the ATB port ([`AtbOutputPath`]). A pushed entry's timestamp is the
//! counter value in its push cycle.

use rust_hdl::prelude::*;

use super::{AtbAdapter, ByteFifo, Framer, FramerConfig, PacketQueue, Timestamp};

/// Queue, timestamp, framer and a FIFO of depth `2^N`, with the byte-stream port
/// (`DESIGN.md` items 4-7). P = payload width.
#[derive(LogicBlock)]
pub struct OutputPath<const P: usize, const N: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Packets pushed in this cycle (0, 1, 2), produced in the previous cycle (the packet
    /// register's count; they were at most that cycle's `free`).
    pub push_count: Signal<In, Bits<2>>,
    /// First packet: payload sign-extended to P bits.
    pub entry0_payload: Signal<In, Bits<P>>,
    /// Second packet: payload.
    pub entry1_payload: Signal<In, Bits<P>>,
    /// Free queue entries at the start of the cycle (the packets pushed in it count as
    /// taken).
    pub free: Signal<Out, Bits<2>>,
    /// No packet is queued or in the queue's input register at the start of the cycle.
    pub drained: Signal<Out, Bit>,
    /// The encap `srcID` (low `src_bits` bits used).
    pub src_id: Signal<In, Bits<16>>,
    /// Output byte.
    pub out_data: Signal<Out, Bits<8>>,
    /// `out_data` is valid.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the byte.
    pub out_ready: Signal<In, Bit>,
    /// `out_data` is the last byte of a packet.
    pub out_last: Signal<Out, Bit>,
    queue: PacketQueue<P>,
    timestamp: Timestamp,
    framer: Framer<P>,
    fifo: ByteFifo<N>,
}

impl<const P: usize, const N: usize> OutputPath<P, N> {
    /// An output path with the given framing.
    pub fn new(config: FramerConfig) -> Self {
        OutputPath {
            clock: Default::default(),
            reset: Default::default(),
            push_count: Default::default(),
            entry0_payload: Default::default(),
            entry1_payload: Default::default(),
            free: Default::default(),
            drained: Default::default(),
            src_id: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_last: Default::default(),
            queue: Default::default(),
            timestamp: Default::default(),
            framer: Framer::new(config),
            fifo: Default::default(),
        }
    }
}

impl<const P: usize, const N: usize> Logic for OutputPath<P, N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.queue.clock.next = self.clock.val();
        self.timestamp.clock.next = self.clock.val();
        self.framer.clock.next = self.clock.val();
        self.fifo.clock.next = self.clock.val();
        self.queue.reset.next = self.reset.val();
        self.timestamp.reset.next = self.reset.val();
        self.framer.reset.next = self.reset.val();
        self.fifo.reset.next = self.reset.val();
        self.queue.push_count.next = self.push_count.val();
        self.queue.entry0_payload.next = self.entry0_payload.val();
        self.queue.entry1_payload.next = self.entry1_payload.val();
        self.queue.push_timestamp.next = self.timestamp.previous.val();
        self.queue.pop.next = self.framer.pop.val();
        self.free.next = self.queue.free.val();
        self.drained.next = self.queue.drained.val();
        self.framer.src_id.next = self.src_id.val();
        self.framer.head_valid.next = self.queue.head_valid.val();
        self.framer.head_payload.next = self.queue.head_payload.val();
        self.framer.head_length.next = self.queue.head_length.val();
        self.framer.head_timestamp.next = self.queue.head_timestamp.val();
        self.framer.can_write.next = self.fifo.can_write.val();
        self.fifo.wr_en.next = self.framer.wr_en.val();
        self.fifo.wr_data.next = self.framer.wr_data.val();
        self.fifo.wr_last.next = self.framer.wr_last.val();
        self.out_data.next = self.fifo.out_data.val();
        self.out_valid.next = self.fifo.out_valid.val();
        self.out_last.next = self.fifo.out_last.val();
        self.fifo.out_ready.next = self.out_ready.val();
    }
}

/// The output path with the ATB port: ATDATA of DW bits, ATBYTES of BW bits
/// (`DESIGN.md` item 8). The encap framing has no srcID (the source is on ATID) and the
/// model's ATB framing has no sync sequences, so `sync_interval` must be 0.
#[derive(LogicBlock)]
pub struct AtbOutputPath<const P: usize, const N: usize, const DW: usize, const BW: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Packets pushed in this cycle (0, 1, 2), produced in the previous cycle (the packet
    /// register's count; they were at most that cycle's `free`).
    pub push_count: Signal<In, Bits<2>>,
    /// First packet: payload sign-extended to P bits.
    pub entry0_payload: Signal<In, Bits<P>>,
    /// Second packet: payload.
    pub entry1_payload: Signal<In, Bits<P>>,
    /// Free queue entries at the start of the cycle (the packets pushed in it count as
    /// taken).
    pub free: Signal<Out, Bits<2>>,
    /// No packet is queued or in the queue's input register at the start of the cycle.
    pub drained: Signal<Out, Bit>,
    /// The ATID of the trace source.
    pub source_atid: Signal<In, Bits<7>>,
    /// ATDATA.
    pub atdata: Signal<Out, Bits<DW>>,
    /// ATBYTES.
    pub atbytes: Signal<Out, Bits<BW>>,
    /// ATID.
    pub atid: Signal<Out, Bits<7>>,
    /// ATVALID.
    pub atvalid: Signal<Out, Bit>,
    /// ATREADY.
    pub atready: Signal<In, Bit>,
    path: OutputPath<P, N>,
    adapter: AtbAdapter<DW, BW>,
}

impl<const P: usize, const N: usize, const DW: usize, const BW: usize> AtbOutputPath<P, N, DW, BW> {
    /// An ATB output path; panics when `src_bits` or `sync_interval` is not 0.
    pub fn new(config: FramerConfig) -> Self {
        assert_eq!(config.src_bits, 0, "ATB carries the source on ATID");
        assert_eq!(
            config.sync_interval, 0,
            "the ATB framing has no sync sequences"
        );
        AtbOutputPath {
            clock: Default::default(),
            reset: Default::default(),
            push_count: Default::default(),
            entry0_payload: Default::default(),
            entry1_payload: Default::default(),
            free: Default::default(),
            drained: Default::default(),
            source_atid: Default::default(),
            atdata: Default::default(),
            atbytes: Default::default(),
            atid: Default::default(),
            atvalid: Default::default(),
            atready: Default::default(),
            path: OutputPath::new(config),
            adapter: AtbAdapter::new(),
        }
    }
}

impl<const P: usize, const N: usize, const DW: usize, const BW: usize> Logic
    for AtbOutputPath<P, N, DW, BW>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.path.clock.next = self.clock.val();
        self.adapter.clock.next = self.clock.val();
        self.path.reset.next = self.reset.val();
        self.adapter.reset.next = self.reset.val();
        self.path.push_count.next = self.push_count.val();
        self.path.entry0_payload.next = self.entry0_payload.val();
        self.path.entry1_payload.next = self.entry1_payload.val();
        self.free.next = self.path.free.val();
        self.drained.next = self.path.drained.val();
        self.path.src_id.next = 0.into();
        self.adapter.in_valid.next = self.path.out_valid.val();
        self.adapter.in_data.next = self.path.out_data.val();
        self.adapter.in_last.next = self.path.out_last.val();
        self.path.out_ready.next = self.adapter.in_ready.val();
        self.adapter.source_atid.next = self.source_atid.val();
        self.atdata.next = self.adapter.atdata.val();
        self.atbytes.next = self.adapter.atbytes.val();
        self.atid.next = self.adapter.atid.val();
        self.atvalid.next = self.adapter.atvalid.val();
        self.adapter.atready.next = self.atready.val();
    }
}
