//! The N-Trace board top (issue 25, "Generation and tools"): the same ingress replay,
//! power-on reset, UART and LEDs as the E-Trace board top ([`super::board_top`]), with
//! the N-Trace MSEO path ([`NtraceMseoPath`]) in place of the E-Trace encoder.
//!
//! Each replayed record is registered and offered to the path as one record step; the
//! fall of the replay's trace enable is offered as the end of the trace (the model's
//! `finish`), and the path is reset when trace enable rises again, so that each pass is
//! one whole trace from a fresh encoder: the serial line carries, pass after pass, the
//! bytes of `NtraceCycleEncoder` run over the replayed records and finished. The path's
//! bytes go into a 256-byte buffer in front of the UART. The replay waits while a step is
//! offered or in progress or the buffer holds bytes, so a step is offered only into an
//! empty buffer, and no step emits more bytes than the path's FIFO holds (at most 256):
//! the buffer never overflows, whatever the baud rate. Which bytes leave in which step
//! does not depend on this pacing (the path's FIFO sends per record step), so the
//! stream is the model's at any UART speed.

use rust_hdl::prelude::*;

use etrace_spec::ingress::IngressRecord;

use super::board_top::{BoardSettings, LED_COUNTER_BITS};
use super::power_on_reset::PowerOnReset;
use super::replay::IngressReplay;
use super::stretch::PulseStretch;
use super::uart_tx::UartTx;
use super::BoardError;
use crate::ntrace::{NtraceFifoConfig, NtraceHwOptions, NtraceMseoPath};
use crate::output::ByteFifo;

/// Address bits of the path's byte FIFO and of the UART buffer (256 bytes each).
pub const NTRACE_BOARD_FIFO_BITS: usize = 8;

/// The N-Trace board top (module documentation): `A` = `iaddress_width_p`, `E` =
/// `ecause_width_p`, `IT` = itype width, up to 2^`D` replayed records. Same pins as
/// [`super::board_top::BoardTop`].
#[derive(LogicBlock)]
pub struct NtraceBoardTop<const A: usize, const E: usize, const IT: usize, const D: usize> {
    /// The board's oscillator.
    pub clock: Signal<In, Clock>,
    /// Serial output to the USB-UART bridge (8N1).
    pub uart_tx: Signal<Out, Bit>,
    /// LED: messages are being sent (lit after the last byte of each message).
    pub led_activity: Signal<Out, Bit>,
    /// LED: the path lost messages (FIFO overrun) recently.
    pub led_lost: Signal<Out, Bit>,
    led_invert: Constant<Bit>,
    por: PowerOnReset,
    replay: IngressReplay<A, E, IT, D>,
    path: NtraceMseoPath<A, E, IT, NTRACE_BOARD_FIFO_BITS>,
    buffer: ByteFifo<NTRACE_BOARD_FIFO_BITS>,
    uart: UartTx,
    activity: PulseStretch<LED_COUNTER_BITS>,
    loss: PulseStretch<LED_COUNTER_BITS>,
    // The step offered to the path: pending, the end of the trace, its record.
    pending: DFF<Bit>,
    pending_end: DFF<Bit>,
    iretire: DFF<Bit>,
    itype: DFF<Bits<IT>>,
    iaddr: DFF<Bits<A>>,
    privilege: DFF<Bits<2>>,
    hart_context: DFF<Bits<1>>,
    sijump: DFF<Bit>,
    ilastsize: DFF<Bit>,
    // The replay's trace enable in the previous cycle.
    enable_seen: DFF<Bit>,
    // The UART reads with `out_ready`, not `read_next`.
    unused_reading: Signal<Local, Bit>,
}

impl<const A: usize, const E: usize, const IT: usize, const D: usize> NtraceBoardTop<A, E, IT, D> {
    /// A board top replaying `records` with `settings` (`settings.paced` is not read: the
    /// replay always waits for the path, module documentation) into a path built with
    /// `generator` and `fifo` (at most 256 bytes).
    pub fn new(
        records: &[IngressRecord],
        settings: &BoardSettings,
        generator: NtraceHwOptions,
        fifo: NtraceFifoConfig,
    ) -> Result<Self, BoardError> {
        Ok(NtraceBoardTop {
            clock: Default::default(),
            uart_tx: Default::default(),
            led_activity: Default::default(),
            led_lost: Default::default(),
            led_invert: Constant::new(settings.led_active_low),
            por: Default::default(),
            replay: IngressReplay::new(records, settings.period, settings.gap)?,
            path: NtraceMseoPath::new(generator, fifo),
            buffer: Default::default(),
            uart: UartTx::new(settings.cycles_per_bit),
            activity: PulseStretch::new(settings.led_hold),
            loss: PulseStretch::new(settings.led_hold),
            pending: Default::default(),
            pending_end: Default::default(),
            iretire: Default::default(),
            itype: Default::default(),
            iaddr: Default::default(),
            privilege: Default::default(),
            hart_context: Default::default(),
            sijump: Default::default(),
            ilastsize: Default::default(),
            enable_seen: Default::default(),
            unused_reading: Default::default(),
        })
    }
}

impl<const A: usize, const E: usize, const IT: usize, const D: usize> Logic
    for NtraceBoardTop<A, E, IT, D>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            pending,
            pending_end,
            iretire,
            itype,
            iaddr,
            privilege,
            hart_context,
            sijump,
            ilastsize,
            enable_seen
        );
        self.por.clock.next = self.clock.val();
        self.replay.clock.next = self.clock.val();
        self.path.clock.next = self.clock.val();
        self.buffer.clock.next = self.clock.val();
        self.uart.clock.next = self.clock.val();
        self.activity.clock.next = self.clock.val();
        self.loss.clock.next = self.clock.val();
        self.replay.reset.next = self.por.reset.val();
        self.buffer.reset.next = self.por.reset.val();
        self.uart.reset.next = self.por.reset.val();
        // A new trace from a fresh path at each rise of trace enable.
        self.enable_seen.d.next = self.replay.trace_enable.val();
        self.path.reset.next =
            self.por.reset.val() | (self.replay.trace_enable.val() & !self.enable_seen.q.val());
        // The replay waits for the step offered, the step in progress and the buffer.
        self.replay.hold.next =
            self.pending.q.val() | self.path.busy.val() | self.buffer.stream.out_valid.val();
        if self.path.in_ready.val() {
            self.pending.d.next = false;
        }
        if self.replay.present.val() {
            self.pending.d.next = true;
            self.pending_end.d.next = false;
            self.iretire.d.next = self.replay.block.iretire.val();
            self.itype.d.next = self.replay.block.itype.val();
            self.iaddr.d.next = self.replay.block.iaddr.val();
            self.privilege.d.next = self.replay.block.privilege.val();
            self.hart_context.d.next = self.replay.block.hart_context.val();
            self.sijump.d.next = self.replay.block.sijump.val();
            self.ilastsize.d.next = self.replay.block.ilastsize.val();
        }
        if self.enable_seen.q.val() & !self.replay.trace_enable.val() {
            self.pending.d.next = true;
            self.pending_end.d.next = true;
            self.iretire.d.next = false;
            self.itype.d.next = 0.into();
        }
        if self.por.reset.val() {
            self.pending.d.next = false;
            self.pending_end.d.next = false;
        }
        self.path.in_valid.next = self.pending.q.val();
        self.path.trace_enable.next = !self.pending_end.q.val();
        self.path.ingress.iretire.next = self.iretire.q.val();
        self.path.ingress.itype.next = self.itype.q.val();
        self.path.ingress.iaddr.next = self.iaddr.q.val();
        self.path.ingress.privilege.next = self.privilege.q.val();
        self.path.ingress.hart_context.next = self.hart_context.q.val();
        self.path.ingress.sijump.next = self.sijump.q.val();
        self.path.ingress.ilastsize.next = self.ilastsize.q.val();
        // MSEO bytes into the buffer, the buffer to the UART.
        self.buffer.wr_en.next = self.path.out_valid.val();
        self.buffer.wr_data.next = self.path.out_data.val();
        self.buffer.wr_last.next = self.path.out_last.val();
        self.uart.data.next = self.buffer.stream.out_data.val();
        self.uart.valid.next = self.buffer.stream.out_valid.val();
        self.buffer.stream.out_ready.next = self.uart.ready.val();
        self.buffer.read_next.next = false;
        self.unused_reading.next = self.buffer.reading.val();
        self.uart_tx.next = self.uart.tx.val();
        // LEDs.
        self.activity.pulse.next = self.buffer.stream.out_valid.val()
            & self.uart.ready.val()
            & self.buffer.stream.out_last.val();
        self.loss.pulse.next = self.path.lost.val();
        self.led_activity.next = self.activity.active.val() ^ self.led_invert.val();
        self.led_lost.next = self.loss.active.val() ^ self.led_invert.val();
    }
}

super::board_top::ulx3s_top! {
    /// The N-Trace board top on the ULX3S.
    pub struct NtraceUlx3sTop<A, E, IT, D> wraps NtraceBoardTop;
}
