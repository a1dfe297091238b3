//! The N-Trace MSEO output path ("N-Trace Transmission Protocol", "MSEO Sequences",
//! "Error Message", "Synchronizing Messages" SYNC 7): the generator's messages of each
//! ingress record as MSEO bytes into a byte FIFO that sends `send_bytes` bytes every
//! `every_cycles` records, losing messages on overflow as the model's
//! `NtraceCycleEncoder` (`model/ntrace/src/encoder/cycle.rs`) does.
//!
//! Cycle contract (`hdl/DESIGN.md`, "N-Trace MSEO output path"): the model's cycle is one
//! *record step* here. The model puts all messages of a record into its FIFO at once (up to
//! nine messages, 8 x 25 + 3 = 203 bytes); the byte FIFO takes one byte per clock, so a
//! step takes several clocks and the path back-pressures its ingress (`in_ready`). A step:
//! take the record (the generator registers it), capture the generator's message slots (and
//! the Error message when the step restarts the trace), write them byte by byte in the
//! model's order with the model's fit rule, then send the step's bytes (`send_bytes` on
//! every `every_cycles`-th step). The byte stream and the step each byte leaves in are
//! those of the model's cycles; the clocks of a step are not.

use rust_hdl::prelude::*;

use super::generator::{NtraceGenerator, NtraceHwOptions};
use super::ingress::NtraceIngress;
use super::message::{
    FixedMessage, NtraceMessage, NtraceMessageSource, NtraceSlots, ADDR_BITS, HIST_BITS, LEAD_BITS,
};
use super::mseo::{MseoLayout, MseoLayoutHold, MseoMeasure};
use super::mseo_cursor::MseoCursor;
use crate::output::ByteFifo;

/// Free bytes an overflowed FIFO needs before the trace restarts (the model's
/// `RESTART_ROOM`): the Error message, the largest standard message (38 bytes, "N-Trace
/// Transmission Protocol") and an Ownership message.
pub const RESTART_ROOM: u32 = 4 + 38 + 12;
const _: () = assert!(RESTART_ROOM + 1 < 64, "the queue's room test reads 6 bits");

/// TCODE of the Error message ("Error Message").
const ERROR_TCODE: u8 = 8;
/// `lead` of the Error message: ETYPE 0 (4 bits), ECODE 0b100 "program trace messages
/// lost" above it.
const ERROR_LEAD: u8 = 0b100 << 4;
/// Bits of the Error message's `lead` always sent: ETYPE and one bit of ECODE.
const ERROR_LEAD_MIN: u8 = 5;

/// The output FIFO of the path, as the model's `FifoConfig`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NtraceFifoConfig {
    /// FIFO size in bytes (at least [`RESTART_ROOM`], at most the byte FIFO's depth).
    pub bytes: u32,
    /// Bytes sent on a sending step (at least 1).
    pub send_bytes: u32,
    /// Steps between sends (1: every step).
    pub every_cycles: u32,
    /// Test only: a restart writes no Error message (a fault the co-simulation catches).
    pub error_fault: bool,
}

/// One message slot held for the serialiser ("Fields in Messages"): loaded from `d`, or
/// shifted from `behind` (the slot after it).
#[derive(LogicBlock, Default)]
pub struct NtraceSlotHold {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Loads `d` at the end of this cycle.
    pub load: Signal<In, Bit>,
    /// Loads `behind` at the end of this cycle (when not `load`).
    pub shift: Signal<In, Bit>,
    /// The message loaded.
    pub d: NtraceMessage,
    /// The message shifted in.
    pub behind: NtraceMessage,
    /// The message held.
    pub q: NtraceMessageSource,
    valid: DFF<Bit>,
    tcode: DFF<Bits<6>>,
    lead: DFF<Bits<LEAD_BITS>>,
    lead_min: DFF<Bits<3>>,
    addr: DFF<Bits<ADDR_BITS>>,
    addr_valid: DFF<Bit>,
    hist: DFF<Bits<HIST_BITS>>,
    hist_valid: DFF<Bit>,
}

impl Logic for NtraceSlotHold {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid, tcode, lead, lead_min, addr, addr_valid, hist, hist_valid);
        if self.shift.val() {
            self.valid.d.next = self.behind.valid.val();
            self.tcode.d.next = self.behind.tcode.val();
            self.lead.d.next = self.behind.lead.val();
            self.lead_min.d.next = self.behind.lead_min.val();
            self.addr.d.next = self.behind.addr.val();
            self.addr_valid.d.next = self.behind.addr_valid.val();
            self.hist.d.next = self.behind.hist.val();
            self.hist_valid.d.next = self.behind.hist_valid.val();
        }
        if self.load.val() {
            self.valid.d.next = self.d.valid.val();
            self.tcode.d.next = self.d.tcode.val();
            self.lead.d.next = self.d.lead.val();
            self.lead_min.d.next = self.d.lead_min.val();
            self.addr.d.next = self.d.addr.val();
            self.addr_valid.d.next = self.d.addr_valid.val();
            self.hist.d.next = self.d.hist.val();
            self.hist_valid.d.next = self.d.hist_valid.val();
        }
        self.q.valid.next = self.valid.q.val();
        self.q.tcode.next = self.tcode.q.val();
        self.q.lead.next = self.lead.q.val();
        self.q.lead_min.next = self.lead_min.q.val();
        self.q.addr.next = self.addr.q.val();
        self.q.addr_valid.next = self.addr_valid.q.val();
        self.q.hist.next = self.hist.q.val();
        self.q.hist_valid.next = self.hist_valid.q.val();
    }
}

/// The MSEO queue (module documentation): the message slots of a record step into a byte
/// FIFO of depth `2^N` holding at most `bytes` bytes, the overflow rule, the sends.
#[derive(LogicBlock)]
pub struct NtraceMseoQueue<const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty, not overflowed, idle at the next cycle.
    pub reset: Signal<In, Bit>,
    /// A record step is offered (its record, or the end of the trace).
    pub in_valid: Signal<In, Bit>,
    /// The step offered is the end of the trace (trace enable low): the model's `finish`.
    pub in_end: Signal<In, Bit>,
    /// The step is taken in this cycle (`in_valid` while idle).
    pub take: Signal<Out, Bit>,
    /// The record goes to the generator in this cycle (taken, and not lost to an
    /// overflow).
    pub feed: Signal<Out, Bit>,
    /// The generator restarts before the next record it is fed (SYNC 7): high while
    /// idle with an overflowed FIFO that has the restart room, so the next step fed is
    /// the restart (the end of the trace is not fed); no record is in the generator then,
    /// and the flip-flops it starts from keep the path off the step's `in_valid`.
    pub restart: Signal<Out, Bit>,
    /// The generator's slots, in the cycle after `feed` (the model's order).
    pub slots: NtraceSlots,
    /// A byte leaves the FIFO in this cycle (the trace port takes it).
    pub out_valid: Signal<Out, Bit>,
    /// The byte leaving.
    pub out_data: Signal<Out, Bits<8>>,
    /// The byte leaving ends its message (MSEO 11).
    pub out_last: Signal<Out, Bit>,
    /// Messages are being lost (the model's `overflowed`).
    pub lost: Signal<Out, Bit>,
    /// A step is in progress: taken, and its bytes not all written and sent (low when
    /// idle and after the end of the trace).
    pub busy: Signal<Out, Bit>,
    error: NtraceSlotHold,
    s0: NtraceSlotHold,
    s1: NtraceSlotHold,
    s2: NtraceSlotHold,
    s3: NtraceSlotHold,
    s4: NtraceSlotHold,
    s5: NtraceSlotHold,
    s6: NtraceSlotHold,
    s7: NtraceSlotHold,
    // The head message's layout, measured a cycle ahead (as the slots load, the Error
    // slot's message; as they advance, the slot behind the head) and held while its bytes
    // are written, so the fit decision and the byte start from flip-flops.
    head: MseoLayoutHold,
    // The Error message (present when due), and its layout, held as the slots load.
    error_message: FixedMessage,
    error_layout: MseoMeasure,
    // The message shifted into the last slot: none.
    no_message: FixedMessage,
    // The head's bytes one after another, the run being sent in a shift register.
    cursor: MseoCursor,
    // What the queue does not read: the head slot's fields only the layout reads (measured
    // before it became the head), and the layout's run starts and the top bit of its run
    // byte counts (at most 11: the cursor counts a run's bytes in 4 bits).
    unused_head_fields: Signal<Local, Bit>,
    fifo: ByteFifo<N>,
    // Step state, one flip-flop per state (each decision reads one): capture, write,
    // drain, and ended (after the end of the trace); none set: idle.
    capturing: DFF<Bit>,
    writing: DFF<Bit>,
    draining: DFF<Bit>,
    ended: DFF<Bit>,
    // The head is the step's last slot (`slots_left == 1`), kept as the slots advance.
    last_slot: DFF<Bit>,
    // The head writes a byte in this cycle if it is a message and nothing is lost:
    // `writing`, and a byte of it written (`mid_message`) or its fit known and met
    // (`checked`, `fits_q`); formed from their next values, so the FIFO's write enables
    // start from three flip-flops.
    go: DFF<Bit>,
    load: Signal<Local, Bit>,
    overflowed: DFF<Bit>,
    error_due: DFF<Bit>,
    end_step: DFF<Bit>,
    // Free bytes of the `bytes`-byte FIFO, the byte index in the head message, slots left
    // in the step, the step phase of the sends, bytes sent in this step.
    free: DFF<Bits<16>>,
    index: DFF<Bits<5>>,
    // `index != 0`, kept as the index moves (the write decision reads one flip-flop).
    mid_message: DFF<Bit>,
    slots_left: DFF<Bits<4>>,
    phase: DFF<Bits<16>>,
    sent: DFF<Bits<16>>,
    // The step has sent its `send_bytes` (`sent == send_bytes`), registered: cleared as a
    // drain ends (`sent` back to 0), and at each byte sent set from `sent == send_bytes -
    // 1`, so the send decision reads one flip-flop where it read a 16-bit compare.
    spent: DFF<Bit>,
    capacity: Constant<Bits<16>>,
    // `2^(N+1) - 1`: `free` <= `bytes` <= 2^N, so its bits above N are constant 0 and
    // synthesis drops them (with them, `pop`'s and `write`'s fan-out into `free`).
    free_mask: Constant<Bits<16>>,
    send_last: Constant<Bits<16>>,
    // The bits `sent` needs to count to `send_bytes` (`2^k - 1`, `2^k > send_bytes`): a
    // drain that may go on past `send_bytes` (the end's) wraps it and does not read
    // `spent`, so `sent`'s upper bits are constant 0 and the `spent` compare is narrow.
    sent_mask: Constant<Bits<16>>,
    every_last: Constant<Bits<16>>,
    error_on: Constant<Bit>,
    // Taking a step, from flip-flops formed a cycle ahead: idle; idle with nothing
    // lost (a step is fed); idle, overflowed and with the restart room, `free >=
    // RESTART_ROOM` (a step is fed and restarts the trace, unless it is the end). The
    // room is `free` of this cycle, not the next: `free` does not change in the cycle
    // before idle (the drain's last cycle sends nothing) nor while idle.
    idle: DFF<Bit>,
    open: DFF<Bit>,
    reopen: DFF<Bit>,
    // The fit of the head message, decided before its first byte from flip-flops: `fits_q`,
    // valid when `checked` is set. In the head's first cycle, 32 or more free bytes (a
    // message has at most 25) decide it for the second; else the length, registered in
    // the second cycle (`length_late`), decides it for the third. (`free` does not change
    // in a cycle that writes nothing: sends happen only while draining.)
    fits_q: DFF<Bit>,
    checked: DFF<Bit>,
    // Not the head's first cycle.
    aged: DFF<Bit>,
    roomy: Signal<Local, Bit>,
    // The Error message and the largest messages fit (`free >= RESTART_ROOM`), of the
    // next cycle: formed for each change of `free` from this cycle's.
    room: DFF<Bit>,
    room_now: Constant<Bits<6>>,
    room_after_write: Constant<Bits<6>>,
    room_after_send: Constant<Bits<6>>,
    // The head's byte `index` is its last (`index + 1 == length`), kept as the index
    // moves: false at a new head (index 0 of a message of 2 bytes or more, or of none),
    // `index + 2 == length` when a byte is written.
    last_byte: DFF<Bit>,
    // The head moves on in this cycle (the slots shift): writing, and the head empty,
    // after its last byte or lost. Registered from the next values of the flip-flops it
    // reads, so the shift enable of about 1,400 flip-flops is a flip-flop.
    // `head_valid_next` is the head slot's next valid, formed here from the hold's load
    // and shift rather than taken from the hold: an output of the hold that follows its
    // inputs, read back in this update, is a combinational loop for Verilator.
    advance_ff: DFF<Bit>,
    head_valid_next: Signal<Local, Bit>,
    advance: Signal<Local, Bit>,
    write: Signal<Local, Bit>,
    // This step sends (`phase == every_cycles - 1`), registered: `phase` changes only in
    // the last cycle of a drain, many cycles before the next drain reads it.
    send_now: DFF<Bit>,
    // A drain sends the FIFO's head: announced to the FIFO a cycle ahead (`read_next`,
    // from the next values of `draining` and `may_send`), which reads it as a flip-flop.
    pop: Signal<Local, Bit>,
    // The drain may send a byte in this cycle (`end_step`, or `send_now` and not `spent`),
    // formed from the three flip-flops' next values.
    may_send: DFF<Bit>,
    // A drain that does not end the trace ends in this cycle; the queue is idle after
    // this edge (without a reset).
    drain_ends: Signal<Local, Bit>,
    to_idle: Signal<Local, Bit>,
    // The step taken restarts the trace (the Error message goes first).
    restarting: Signal<Local, Bit>,
}

impl<const N: usize> NtraceMseoQueue<N> {
    /// A queue with the FIFO `fifo`.
    ///
    /// # Panics
    /// If `fifo` is outside the model's range or larger than the byte FIFO (`2^N`).
    pub fn new(fifo: NtraceFifoConfig) -> Self {
        assert!(
            fifo.bytes >= RESTART_ROOM && fifo.bytes as u64 <= 1u64 << N && N < 16,
            "FIFO of {} bytes: needs {RESTART_ROOM} to 2^{N}",
            fifo.bytes
        );
        assert!(fifo.send_bytes >= 1 && fifo.send_bytes < 1 << 16);
        assert!(fifo.every_cycles >= 1 && fifo.every_cycles <= 1 << 16);
        NtraceMseoQueue {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_end: Default::default(),
            take: Default::default(),
            feed: Default::default(),
            restart: Default::default(),
            slots: Default::default(),
            out_valid: Default::default(),
            out_data: Default::default(),
            out_last: Default::default(),
            lost: Default::default(),
            busy: Default::default(),
            error: Default::default(),
            s0: Default::default(),
            s1: Default::default(),
            s2: Default::default(),
            s3: Default::default(),
            s4: Default::default(),
            s5: Default::default(),
            s6: Default::default(),
            s7: Default::default(),
            head: Default::default(),
            error_message: FixedMessage::new(ERROR_TCODE, ERROR_LEAD, ERROR_LEAD_MIN),
            error_layout: Default::default(),
            no_message: FixedMessage::none(),
            cursor: Default::default(),
            unused_head_fields: Default::default(),
            fifo: Default::default(),
            capturing: Default::default(),
            writing: Default::default(),
            draining: Default::default(),
            ended: Default::default(),
            last_slot: Default::default(),
            go: Default::default(),
            load: Default::default(),
            overflowed: Default::default(),
            error_due: Default::default(),
            end_step: Default::default(),
            free: Default::default(),
            index: Default::default(),
            mid_message: Default::default(),
            slots_left: Default::default(),
            phase: Default::default(),
            sent: Default::default(),
            spent: Default::default(),
            capacity: Constant::new(bits::<16>(u64::from(fifo.bytes))),
            free_mask: Constant::new(bits::<16>((2u64 << N) - 1)),
            send_last: Constant::new(bits::<16>(u64::from(fifo.send_bytes - 1))),
            sent_mask: Constant::new(bits::<16>(
                (u64::from(fifo.send_bytes) + 1).next_power_of_two() - 1,
            )),
            every_last: Constant::new(bits::<16>(u64::from(fifo.every_cycles - 1))),
            error_on: Constant::new(!fifo.error_fault),
            idle: Default::default(),
            open: Default::default(),
            reopen: Default::default(),
            fits_q: Default::default(),
            checked: Default::default(),
            aged: Default::default(),
            roomy: Default::default(),
            room: Default::default(),
            room_now: Constant::new(bits::<6>(u64::from(RESTART_ROOM))),
            room_after_write: Constant::new(bits::<6>(u64::from(RESTART_ROOM + 1))),
            room_after_send: Constant::new(bits::<6>(u64::from(RESTART_ROOM - 1))),
            last_byte: Default::default(),
            advance_ff: Default::default(),
            head_valid_next: Default::default(),
            advance: Default::default(),
            write: Default::default(),
            send_now: Default::default(),
            pop: Default::default(),
            may_send: Default::default(),
            drain_ends: Default::default(),
            to_idle: Default::default(),
            restarting: Default::default(),
        }
    }
}

impl<const N: usize> Logic for NtraceMseoQueue<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            capturing,
            writing,
            draining,
            ended,
            last_slot,
            advance_ff,
            go,
            may_send,
            overflowed,
            error_due,
            end_step,
            free,
            index,
            mid_message,
            slots_left,
            phase,
            sent,
            spent,
            send_now,
            idle,
            open,
            reopen,
            fits_q,
            checked,
            aged,
            room,
            last_byte
        );
        self.error.clock.next = self.clock.val();
        self.s0.clock.next = self.clock.val();
        self.s1.clock.next = self.clock.val();
        self.s2.clock.next = self.clock.val();
        self.s3.clock.next = self.clock.val();
        self.s4.clock.next = self.clock.val();
        self.s5.clock.next = self.clock.val();
        self.s6.clock.next = self.clock.val();
        self.s7.clock.next = self.clock.val();
        self.fifo.clock.next = self.clock.val();
        self.fifo.reset.next = self.reset.val();
        self.lost.next = self.overflowed.q.val();
        self.busy.next = self.capturing.q.val() || self.writing.q.val() || self.draining.q.val();

        // Taking a step: an overflowed FIFO loses the record until it has the restart
        // room; then the Error message goes first and the generator restarts. The end of
        // the trace is the model's `finish`: no restart, no message when overflowed.
        self.take.next = self.in_valid.val() && self.idle.q.val();
        self.feed.next = self.in_valid.val()
            && (self.open.q.val() || (self.reopen.q.val() && !self.in_end.val()));
        self.restart.next = self.reopen.q.val();
        self.restarting.next = self.in_valid.val() && self.reopen.q.val() && !self.in_end.val();
        if self.take.val() {
            self.end_step.d.next = self.in_end.val();
            self.error_due.d.next = self.restarting.val();
            if self.restarting.val() {
                self.overflowed.d.next = false;
            }
        }

        // The slots: loaded in the cycle after the record enters the generator, the
        // Error message first; shifted towards `error` (the head) one at a time.
        self.error_message.present.next = self.error_due.q.val() && self.error_on.val();
        NtraceMessage::join(&mut self.error.d, &mut self.error_message.message);
        NtraceMessage::link(&mut self.slots.early_hrepeat, &mut self.s0.d);
        NtraceMessage::link(&mut self.slots.repeat_branch, &mut self.s1.d);
        NtraceMessage::link(&mut self.slots.block_end, &mut self.s2.d);
        NtraceMessage::link(&mut self.slots.sync_owner, &mut self.s3.d);
        NtraceMessage::link(&mut self.slots.owner, &mut self.s4.d);
        NtraceMessage::link(&mut self.slots.icnt_full, &mut self.s5.d);
        NtraceMessage::link(&mut self.slots.late_hrepeat, &mut self.s6.d);
        NtraceMessage::link(&mut self.slots.hist_full, &mut self.s7.d);
        NtraceMessage::join(&mut self.error.behind, &mut self.s0.q);
        NtraceMessage::join(&mut self.s0.behind, &mut self.s1.q);
        NtraceMessage::join(&mut self.s1.behind, &mut self.s2.q);
        NtraceMessage::join(&mut self.s2.behind, &mut self.s3.q);
        NtraceMessage::join(&mut self.s3.behind, &mut self.s4.q);
        NtraceMessage::join(&mut self.s4.behind, &mut self.s5.q);
        NtraceMessage::join(&mut self.s5.behind, &mut self.s6.q);
        NtraceMessage::join(&mut self.s6.behind, &mut self.s7.q);
        self.no_message.present.next = false;
        NtraceMessage::join(&mut self.s7.behind, &mut self.no_message.message);
        self.load.next = self.capturing.q.val();
        // The layout of the message that is the head after this edge: the Error slot's as
        // the slots load (the Error message or none), else the slot behind the head.
        NtraceMessage::join(&mut self.head.message, &mut self.s0.q);
        NtraceMessage::join(
            &mut self.error_layout.message,
            &mut self.error_message.message,
        );
        MseoLayout::join(&mut self.head.preset, &mut self.error_layout.layout);
        self.head.use_preset.next = self.load.val();
        self.head.clock.next = self.clock.val();
        self.unused_head_fields.next = self.error.q.lead_min.val().any()
            || self.error.q.addr_valid.val()
            || self.error.q.hist_valid.val()
            || self.head.layout.addr_start.val().any()
            || self.head.layout.hist_start.val().any()
            || self.head.layout.length.val().any()
            || self.head.layout.lead_bytes.val().get_bit(4)
            || self.head.layout.addr_bytes.val().get_bit(4)
            || self.head.layout.hist_bytes.val().get_bit(4);
        self.cursor.clock.next = self.clock.val();
        self.cursor.tcode.next = self.error.q.tcode.val();
        self.cursor.lead.next = self.error.q.lead.val();
        self.cursor.addr.next = self.error.q.addr.val();
        self.cursor.hist.next = self.error.q.hist.val();
        self.cursor.lead_bytes.next = self.head.layout.lead_bytes.val().get_bits::<4>(0);
        self.cursor.addr_bytes.next = self.head.layout.addr_bytes.val().get_bits::<4>(0);
        self.cursor.hist_bytes.next = self.head.layout.hist_bytes.val().get_bits::<4>(0);
        self.cursor.first.next = !self.mid_message.q.val();

        // Writing the head message: it goes in whole if it fits when its first byte
        // would be written and nothing was lost before it (the model's `enqueue`). The
        // fit is decided into `fits_q` before the first byte is written: in the head's
        // first cycle with 32 or more free (a message has at most 25 bytes), else in its
        // second from the registered length and 5 bits of `free`. The compare ends in a
        // flip-flop and the write enables start from flip-flops.
        self.roomy.next = self.free.q.val().get_bits::<11>(5).any();
        self.fits_q.d.next =
            self.roomy.val() || (self.head.length_late.val() <= self.free.q.val().get_bits::<5>(0));
        self.checked.d.next = false;
        self.aged.d.next = false;
        self.write.next = false;
        // The head moves on (`advance_ff`, below) when it is empty, after its last byte, or
        // lost: a message that does not fit sets `overflowed` and is passed over in the
        // next cycle.
        self.advance.next = self.advance_ff.q.val();
        if self.writing.q.val() {
            self.aged.d.next = !self.advance.val();
            self.checked.d.next = !self.advance.val() && (self.roomy.val() || self.aged.q.val());
            if self.error.q.valid.val() && !self.overflowed.q.val() {
                if self.go.q.val() {
                    self.write.next = true;
                } else if self.checked.q.val() {
                    self.overflowed.d.next = true;
                }
            }
        }
        self.head.load.next = self.load.val() || self.advance.val();
        self.error.load.next = self.load.val();
        self.s0.load.next = self.load.val();
        self.s1.load.next = self.load.val();
        self.s2.load.next = self.load.val();
        self.s3.load.next = self.load.val();
        self.s4.load.next = self.load.val();
        self.s5.load.next = self.load.val();
        self.s6.load.next = self.load.val();
        self.s7.load.next = self.load.val();
        self.error.shift.next = self.advance.val();
        self.s0.shift.next = self.advance.val();
        self.s1.shift.next = self.advance.val();
        self.s2.shift.next = self.advance.val();
        self.s3.shift.next = self.advance.val();
        self.s4.shift.next = self.advance.val();
        self.s5.shift.next = self.advance.val();
        self.s6.shift.next = self.advance.val();
        self.s7.shift.next = self.advance.val();
        if self.capturing.q.val() {
            self.slots_left.d.next = 9.into();
            self.index.d.next = 0.into();
            self.last_byte.d.next = false;
            self.mid_message.d.next = false;
        }
        if self.write.val() {
            self.index.d.next = self.index.q.val() + 1;
            self.mid_message.d.next = true;
            // (No byte is written in a head's first cycle, so its length is registered.)
            self.last_byte.d.next = (self.index.q.val() + 2) == self.head.length_late.val();
        }
        if self.advance.val() {
            self.index.d.next = 0.into();
            self.mid_message.d.next = false;
            self.last_byte.d.next = false;
            self.slots_left.d.next = self.slots_left.q.val() - 1;
        }
        // The byte FIFO has room for every byte counted in `free` (`bytes` <= 2^N).
        self.fifo.wr_en.next = self.write.val() && self.fifo.can_write.val();
        self.cursor.last.next = self.last_byte.q.val();
        self.cursor.step.next = self.write.val();
        self.fifo.wr_data.next = self.cursor.mseo_byte.val();
        self.fifo.wr_last.next = self.last_byte.q.val();

        // Sending: `send_bytes` bytes on every `every_cycles`-th step; everything at the
        // end of the trace.
        self.send_now.d.next = self.phase.q.val() == self.every_last.val();
        self.pop.next = self.fifo.reading.val();
        self.fifo.stream.out_ready.next = false;
        self.out_valid.next = self.pop.val();
        self.out_data.next = self.fifo.stream.out_data.val();
        self.out_last.next = self.fifo.stream.out_last.val();
        if self.pop.val() {
            self.sent.d.next = (self.sent.q.val() + 1) & self.sent_mask.val();
            self.spent.d.next = self.sent.q.val() == self.send_last.val();
        }
        if self.draining.q.val() && !self.pop.val() {
            self.sent.d.next = 0.into();
            self.spent.d.next = false;
            self.phase.d.next = self.phase.q.val() + 1;
            if self.send_now.q.val() {
                self.phase.d.next = 0.into();
            }
        }
        // Free bytes: one less per byte written, one more per byte sent (never both in a
        // cycle). (`RESTART_ROOM + 1` < 64: 6 bits of `free` decide the room. The three
        // compares stand side by side so that `write` and `pop` only select among them.)
        self.room.d.next = self.free.q.val().get_bits::<10>(6).any()
            || (self.free.q.val().get_bits::<6>(0) >= self.room_now.val());
        if self.write.val() {
            self.room.d.next = self.free.q.val().get_bits::<10>(6).any()
                || (self.free.q.val().get_bits::<6>(0) >= self.room_after_write.val());
        }
        if self.pop.val() {
            self.room.d.next = self.free.q.val().get_bits::<10>(6).any()
                || (self.free.q.val().get_bits::<6>(0) >= self.room_after_send.val());
        }
        if self.write.val() {
            self.free.d.next = (self.free.q.val() - 1) & self.free_mask.val();
        }
        if self.pop.val() {
            self.free.d.next = (self.free.q.val() + 1) & self.free_mask.val();
        }
        if self.reset.val() {
            self.overflowed.d.next = false;
            self.error_due.d.next = false;
            self.end_step.d.next = false;
            self.free.d.next = self.capacity.val();
            self.room.d.next = true;
            self.index.d.next = 0.into();
            self.mid_message.d.next = false;
            self.last_byte.d.next = false;
            self.slots_left.d.next = 0.into();
            self.phase.d.next = 0.into();
            self.sent.d.next = 0.into();
            self.spent.d.next = false;
        }
        // The next state, each flip-flop formed on its own: a step taken captures (fed) or
        // drains at once (lost, or the end); the capture writes; the write drains after
        // the last slot; the drain goes on while it sends, then idles, or ends after the
        // end of the trace.
        if self.advance.val() {
            self.last_slot.d.next = self.slots_left.q.val() == 2;
        }
        if self.capturing.q.val() || self.reset.val() {
            self.last_slot.d.next = false;
        }
        self.capturing.d.next = self.take.val() && self.feed.val() && !self.reset.val();
        self.writing.d.next = (self.capturing.q.val()
            || (self.writing.q.val() && !(self.advance.val() && self.last_slot.q.val())))
            && !self.reset.val();
        self.draining.d.next = ((self.take.val() && !self.feed.val())
            || (self.writing.q.val() && self.advance.val() && self.last_slot.q.val())
            || (self.draining.q.val() && self.pop.val()))
            && !self.reset.val();
        self.ended.d.next = (self.ended.q.val()
            || (self.draining.q.val() && !self.pop.val() && self.end_step.q.val()))
            && !self.reset.val();
        self.go.d.next = self.writing.d.val()
            && (self.mid_message.d.val() || (self.checked.d.val() && self.fits_q.d.val()));
        self.may_send.d.next =
            self.end_step.d.val() || (self.send_now.d.val() && !self.spent.d.val());
        self.head_valid_next.next = self.error.q.valid.val();
        if self.advance.val() {
            self.head_valid_next.next = self.s0.q.valid.val();
        }
        if self.load.val() {
            self.head_valid_next.next = self.error.d.valid.val();
        }
        self.advance_ff.d.next = self.writing.d.val()
            && (!self.head_valid_next.val() || self.last_byte.d.val() || self.overflowed.d.val());
        // `draining && may_send` of the next cycle (the FIFO adds `out_valid`).
        self.fifo.read_next.next = self.draining.d.val() && self.may_send.d.val();
        // The step-taking flip-flops: idle, with `!overflowed`, and with `overflowed` and
        // the room, of the next cycle. Formed from this cycle's flip-flops rather than from
        // the next state: the queue is idle after this edge when it is idle and takes no
        // step, or when a drain that is not the end's ends (it sends nothing), or at a
        // reset; `overflowed` changes only while writing, at a take and at a reset.
        self.drain_ends.next = self.draining.q.val()
            && !self.end_step.q.val()
            && !(self.fifo.stream.out_valid.val() && self.may_send.q.val());
        self.to_idle.next = (!self.capturing.q.val()
            && !self.writing.q.val()
            && !self.draining.q.val()
            && !self.ended.q.val()
            && !self.take.val())
            || self.drain_ends.val();
        self.idle.d.next = self.to_idle.val() || self.reset.val();
        self.open.d.next = (self.to_idle.val() && !self.overflowed.q.val()) || self.reset.val();
        self.reopen.d.next =
            self.to_idle.val() && self.overflowed.q.val() && self.room.q.val() && !self.reset.val();
    }
}

/// The generator with the MSEO queue (module documentation): a record step is offered
/// with `in_valid` (its record on `ingress`, or the end of the trace with
/// `trace_enable` low) and taken when `in_ready`; the bytes leave on `out_data` when
/// `out_valid`. `A`, `E`, `IT` as the generator, FIFO depth `2^N`.
#[derive(LogicBlock)]
pub struct NtraceMseoPath<const A: usize, const E: usize, const IT: usize, const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// The ingress signals ([`NtraceIngress`]): the record of the offered step (the
    /// generator sees its `iretire` and `itype` only when the step is fed).
    pub ingress: NtraceIngress<A, IT>,
    /// Trace enable (low: the step ends the trace).
    pub trace_enable: Signal<In, Bit>,
    /// A record step is offered.
    pub in_valid: Signal<In, Bit>,
    /// The step is taken in this cycle.
    pub in_ready: Signal<Out, Bit>,
    /// A byte leaves in this cycle.
    pub out_valid: Signal<Out, Bit>,
    /// The byte.
    pub out_data: Signal<Out, Bits<8>>,
    /// The byte ends its message.
    pub out_last: Signal<Out, Bit>,
    /// Messages are being lost (FIFO overrun, until the restart).
    pub lost: Signal<Out, Bit>,
    /// A step is in progress (taken, its bytes not all written and sent): a board or a
    /// bridge that must not offer the next step before the last one's bytes are out
    /// waits for it to fall.
    pub busy: Signal<Out, Bit>,
    generator: NtraceGenerator<A, E, IT>,
    queue: NtraceMseoQueue<N>,
}

impl<const A: usize, const E: usize, const IT: usize, const N: usize> NtraceMseoPath<A, E, IT, N> {
    /// A path with generator options `options` and the FIFO `fifo`.
    pub fn new(options: NtraceHwOptions, fifo: NtraceFifoConfig) -> Self {
        NtraceMseoPath {
            clock: Default::default(),
            reset: Default::default(),
            ingress: Default::default(),
            trace_enable: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            out_valid: Default::default(),
            out_data: Default::default(),
            out_last: Default::default(),
            lost: Default::default(),
            busy: Default::default(),
            generator: NtraceGenerator::new(options),
            queue: NtraceMseoQueue::new(fifo),
        }
    }
}

impl<const A: usize, const E: usize, const IT: usize, const N: usize> Logic
    for NtraceMseoPath<A, E, IT, N>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.generator.clock.next = self.clock.val();
        self.queue.clock.next = self.clock.val();
        self.generator.reset.next = self.reset.val();
        self.queue.reset.next = self.reset.val();
        self.queue.in_valid.next = self.in_valid.val();
        self.queue.in_end.next = !self.trace_enable.val();
        self.in_ready.next = self.queue.take.val();
        // The generator reads the record (and trace enable) only when the step is fed.
        self.generator.record.next = self.queue.feed.val();
        self.generator.trace_enable.next = self.trace_enable.val();
        self.generator.ingress.iretire.next = self.ingress.iretire.val();
        self.generator.ingress.itype.next = self.ingress.itype.val();
        self.generator.ingress.iaddr.next = self.ingress.iaddr.val();
        self.generator.ingress.privilege.next = self.ingress.privilege.val();
        self.generator.ingress.hart_context.next = self.ingress.hart_context.val();
        self.generator.ingress.sijump.next = self.ingress.sijump.val();
        self.generator.ingress.ilastsize.next = self.ingress.ilastsize.val();
        self.generator.restart.next = self.queue.restart.val();
        NtraceSlots::join(&mut self.queue.slots, &mut self.generator.slots);
        self.out_valid.next = self.queue.out_valid.val();
        self.out_data.next = self.queue.out_data.val();
        self.out_last.next = self.queue.out_last.val();
        self.lost.next = self.queue.lost.val();
        self.busy.next = self.queue.busy.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn ntrace_mseo_queue_verilog() {
        let fifo = NtraceFifoConfig {
            bytes: 200,
            send_bytes: 2,
            every_cycles: 3,
            error_fault: false,
        };
        let mut uut = NtraceMseoQueue::<8>::new(fifo);
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("ntrace_mseo_queue", &v).unwrap();
        lint("ntrace_mseo_queue", &v).unwrap();
        let mut uut = NtraceMseoPath::<32, 5, 4, 8>::new(NtraceHwOptions::default(), fifo);
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("ntrace_mseo_path", &v).unwrap();
        lint("ntrace_mseo_path", &v).unwrap();
    }
}
