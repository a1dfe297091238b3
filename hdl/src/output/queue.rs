//! The 2-entry packet queue (`hdl/DESIGN.md` item 4): 0, 1 or 2 pushes per cycle into an
//! input register (so the payload packers' outputs end at flip-flops), which enter the
//! queue at the end of the next cycle with the flags of the bytes sign compression keeps
//! ([`SentBytes`], formed from the input register); the head's length after sign
//! compression comes from its flags ([`SentLength`]). At most one pop (the serializer).
//! `free` = 2 - occupancy - entries in the input register - `push_count` at the start of
//! the cycle: the pushes come from the packet logic's packet register (produced in the
//! previous cycle), so `free` counts every packet on its way as taken when the packet
//! logic decides, and it never produces more than `free` packets (it drops instead).

use rust_hdl::prelude::*;

use crate::bundle::bundle;
use crate::packer::{SentBytes, SentLength};

bundle! {
    /// What the packet logic (through the payload packers) hands the output path in each
    /// cycle (`hdl/DESIGN.md` item 4), the output path's reset, and the queue room it
    /// reports back: the bundle that joins the encoder core to every output path. `P` =
    /// payload width.
    pub struct Pushes<const P: usize> {
        /// Synchronous reset of the output path (the encoder's, from its input stage).
        reset: In<Bit>,
        /// Packets pushed in this cycle (0, 1, 2), produced in the previous cycle (the
        /// packet register's count; they were at most that cycle's `free`).
        push_count: In<Bits<2>>,
        /// First pushed packet: payload sign-extended to P bits.
        entry0_payload: In<Bits<P>>,
        /// Second pushed packet (used when `push_count` is 2).
        entry1_payload: In<Bits<P>>,
        /// 2 - occupancy - entries in the input register - `push_count` at the start of
        /// the cycle: the free queue entries, the packets pushed in it counted as taken.
        free: Out<Bits<2>>,
        /// No entry is queued or in the input register at the start of the cycle (`free`
        /// is 2 when `push_count` is 0 too): from a flip-flop.
        drained: Out<Bit>,
    }
    /// The side that pushes: the encoder core.
    pub struct PushesSource;
}

/// Queue of (payload, kept-byte flags, timestamp) entries; the head is slot 0 (`DESIGN.md`
/// item 4).
#[derive(LogicBlock, Default)]
pub struct PacketQueue<const P: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Reset (empty in the next cycle), the pushes and the room left.
    pub pushes: Pushes<P>,
    /// Timestamp of the entries in the input register (pushed in the previous cycle).
    pub in_timestamp: Signal<In, Bits<16>>,
    /// Removes the head at the end of this cycle (ignored when empty).
    pub pop: Signal<In, Bit>,
    /// The queue holds an entry at the start of the cycle.
    pub head_valid: Signal<Out, Bit>,
    /// Head entry: payload.
    pub head_payload: Signal<Out, Bits<P>>,
    /// Head entry: payload bytes after sign compression.
    pub head_length: Signal<Out, Bits<5>>,
    /// Head entry: timestamp.
    pub head_timestamp: Signal<Out, Bits<16>>,
    occupancy: DFF<Bits<2>>,
    slot0_payload: DFF<Bits<P>>,
    slot0_sent: DFF<Bits<P>>,
    slot0_timestamp: DFF<Bits<16>>,
    slot1_payload: DFF<Bits<P>>,
    slot1_sent: DFF<Bits<P>>,
    slot1_timestamp: DFF<Bits<16>>,
    in_count: DFF<Bits<2>>,
    in0_payload: DFF<Bits<P>>,
    in1_payload: DFF<Bits<P>>,
    sent0: SentBytes<P>,
    sent1: SentBytes<P>,
    head_sent: SentLength<P>,
    remaining: Signal<Local, Bits<2>>,
    // Entries queued and in the input register at the start of the cycle, as flags in
    // flip-flops (at least one, two): `free` is then a one-level function of them and
    // `push_count`, not a subtraction.
    used_any: DFF<Bit>,
    used_two: DFF<Bit>,
    next_used: Signal<Local, Bits<2>>,
}

impl<const P: usize> Logic for PacketQueue<P> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            occupancy,
            slot0_payload,
            slot0_sent,
            slot0_timestamp,
            slot1_payload,
            slot1_sent,
            slot1_timestamp,
            in_count,
            in0_payload,
            in1_payload,
            used_any,
            used_two
        );
        self.pushes.drained.next = !self.used_any.q.val();
        self.pushes.free.next = 0.into();
        if !self.used_any.q.val() {
            if self.pushes.push_count.val() == 0 {
                self.pushes.free.next = 2.into();
            }
            if self.pushes.push_count.val() == 1 {
                self.pushes.free.next = 1.into();
            }
        } else if !self.used_two.q.val() && (self.pushes.push_count.val() == 0) {
            self.pushes.free.next = 1.into();
        }
        // The input register: this cycle's pushes.
        self.in_count.d.next = self.pushes.push_count.val();
        self.in0_payload.d.next = self.pushes.entry0_payload.val();
        self.in1_payload.d.next = self.pushes.entry1_payload.val();
        // Which bytes sign compression keeps, from the input register; the head entry's
        // length from its flags.
        self.sent0.payload.next = self.in0_payload.q.val();
        self.sent1.payload.next = self.in1_payload.q.val();
        self.head_sent.sent.next = self.slot0_sent.q.val();
        self.head_valid.next = self.occupancy.q.val().any();
        self.head_payload.next = self.slot0_payload.q.val();
        self.head_length.next = self.head_sent.length.val();
        self.head_timestamp.next = self.slot0_timestamp.q.val();
        // Entries left after this cycle's pop.
        self.remaining.next = self.occupancy.q.val();
        if self.pop.val() & self.occupancy.q.val().any() {
            self.remaining.next = self.occupancy.q.val() - 1;
        }
        if self.remaining.val() == 0 {
            self.slot0_payload.d.next = self.in0_payload.q.val();
            self.slot0_sent.d.next = self.sent0.sent.val();
            self.slot0_timestamp.d.next = self.in_timestamp.val();
            self.slot1_payload.d.next = self.in1_payload.q.val();
            self.slot1_sent.d.next = self.sent1.sent.val();
            self.slot1_timestamp.d.next = self.in_timestamp.val();
        } else if self.remaining.val() == 1 {
            if self.pop.val() {
                self.slot0_payload.d.next = self.slot1_payload.q.val();
                self.slot0_sent.d.next = self.slot1_sent.q.val();
                self.slot0_timestamp.d.next = self.slot1_timestamp.q.val();
            }
            self.slot1_payload.d.next = self.in0_payload.q.val();
            self.slot1_sent.d.next = self.sent0.sent.val();
            self.slot1_timestamp.d.next = self.in_timestamp.val();
        }
        self.occupancy.d.next = self.remaining.val() + self.in_count.q.val();
        if self.pushes.reset.val() {
            self.occupancy.d.next = 0.into();
            self.in_count.d.next = 0.into();
        }
        // Never more than 2 (the packet logic produces at most `free`). The count before
        // the pop comes from registers and the push count, and the pop (late: it comes
        // from the serializer) picks between two compares at the end.
        self.next_used.next =
            self.occupancy.q.val() + self.in_count.q.val() + self.pushes.push_count.val();
        self.used_any.d.next = self.next_used.val().any();
        self.used_two.d.next = self.next_used.val().get_bit(1);
        if self.pop.val() & self.occupancy.q.val().any() {
            self.used_any.d.next = self.next_used.val().get_bit(1);
            self.used_two.d.next = self.next_used.val() == 3;
        }
        if self.pushes.reset.val() {
            self.used_any.d.next = false;
            self.used_two.d.next = false;
        }
    }
}
