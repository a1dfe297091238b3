//! The top of a board build: the encoder (`crate::output::Encoder`, byte-stream output) fed by
//! the ingress replay, its byte stream sent on the UART, a power-on reset, and two LEDs.

use rust_hdl::prelude::*;

use etrace_spec::ingress::IngressRecord;

use super::power_on_reset::PowerOnReset;
use super::replay::IngressReplay;
use super::stretch::PulseStretch;
use super::uart_tx::UartTx;
use super::BoardError;
use crate::encoder_core::CoreOptions;
use crate::generics::DEFAULT_FIFO_ADDRESS_BITS;
use crate::ingress::inputs::IngressSource;
use crate::logic::resync::RESYNC_MAX_BITS;
use crate::output::{Encoder, FramerConfig};
use crate::top::{check_sizes, TopError};

/// Width of the LED hold counters (4.19 M cycles: 0.17 s at 25 MHz).
pub const LED_COUNTER_BITS: usize = 22;

/// Build-time constants of a board top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardSettings {
    /// UART bit time in clock cycles (clock / baud).
    pub cycles_per_bit: u32,
    /// Fewest cycles between two replayed records (2-65536).
    pub period: u32,
    /// Cycles with trace disabled between two passes of the replay (1-65536).
    pub gap: u32,
    /// Cycles an LED stays lit after its event.
    pub led_hold: u64,
    /// The board's LEDs light when driven low.
    pub led_active_low: bool,
    /// The replay waits while the encoder's output FIFO holds bytes (no packet is ever
    /// dropped); without it the records come every `period` cycles whatever the UART's
    /// pace, and the encoder drops packets and recovers (`hdl/DESIGN.md` item 4).
    pub paced: bool,
}

/// The generation options of a board top's encoder (`etrace synth`'s): the encap framing's
/// `srcID` width and timestamps (`encapsulation.adoc`), and the core's parameters
/// (`discovery.adoc` `bpred_size_p`, `return_stack_size_p`). The board always frames encap:
/// its stream is read live, entered at an encap synchronisation sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BoardEncoder {
    /// Width of `srcID` in bits (0-16); the board sends `srcID` 0.
    pub src_bits: u8,
    /// Every packet carries the 2-byte timestamp (the cycle it is produced in).
    pub timestamp: bool,
    /// The core's generation parameters (a test fault in it is not built: a board carries
    /// a correct encoder).
    pub core: CoreOptions,
}

impl BoardEncoder {
    /// The options checked against the generator's limits (the errors of
    /// [`crate::top::generate`]).
    pub fn check(&self) -> Result<(), TopError> {
        check_sizes(self.src_bits, &self.core)
    }

    /// What the options add to the plain encoder, in words (empty without any): for the
    /// board's description.
    pub fn describe(&self) -> String {
        let mut words = Vec::new();
        if self.src_bits > 0 {
            words.push(format!("{}-bit srcID", self.src_bits));
        }
        if self.timestamp {
            words.push("timestamps".to_string());
        }
        if self.core.bpred_size > 0 {
            words.push(format!(
                "branch prediction ({} entries)",
                1u32 << self.core.bpred_size
            ));
        }
        if self.core.return_stack_size > 0 {
            words.push(format!(
                "implicit return ({} entries)",
                1u32 << self.core.return_stack_size
            ));
        }
        words.join(", ")
    }

    /// The framer's settings: encap with a synchronisation sequence every 4096 bytes, as
    /// `etrace encode --framing encap`.
    pub fn framing(&self) -> FramerConfig {
        FramerConfig {
            src_bits: self.src_bits,
            timestamp: self.timestamp,
            ..FramerConfig::default()
        }
    }
}

/// The board top (module documentation): `A` = `iaddress_width_p`, `E` = `ecause_width_p`,
/// `IT` = itype width, `P` = payload width, up to 2^`D` replayed records. The encoder has
/// a 64-byte FIFO and is built with a [`BoardEncoder`]; its run-time options are
/// constants: differential addresses, explicit exceptions, sijump off, a resync every 256
/// packets, and branch prediction and implicit return on (each only takes effect when the
/// hardware has its predictor or return stack: `BranchCount::enabled`,
/// `ReturnStack::enabled`).
#[derive(LogicBlock)]
pub struct BoardTop<const A: usize, const E: usize, const IT: usize, const P: usize, const D: usize>
{
    /// The board's oscillator.
    pub clock: Signal<In, Clock>,
    /// Serial output to the USB-UART bridge (8N1).
    pub uart_tx: Signal<Out, Bit>,
    /// LED: packets are being sent (lit after the last byte of each packet).
    pub led_activity: Signal<Out, Bit>,
    /// LED: the encoder lost trace (`trace_lost`) recently.
    pub led_lost: Signal<Out, Bit>,
    led_invert: Constant<Bit>,
    paced: Constant<Bit>,
    resync_max: Constant<Bits<RESYNC_MAX_BITS>>,
    por: PowerOnReset,
    replay: IngressReplay<A, E, IT, D>,
    encoder: Encoder<A, E, IT, P, DEFAULT_FIFO_ADDRESS_BITS>,
    uart: UartTx,
    activity: PulseStretch<LED_COUNTER_BITS>,
    loss: PulseStretch<LED_COUNTER_BITS>,
}

impl<const A: usize, const E: usize, const IT: usize, const P: usize, const D: usize>
    BoardTop<A, E, IT, P, D>
{
    /// A board top replaying `records` with `settings`, its encoder built with `encoder`.
    pub fn new(
        records: &[IngressRecord],
        settings: &BoardSettings,
        encoder: &BoardEncoder,
    ) -> Result<Self, BoardError> {
        encoder.check()?;
        Ok(BoardTop {
            clock: Default::default(),
            uart_tx: Default::default(),
            led_activity: Default::default(),
            led_lost: Default::default(),
            led_invert: Constant::new(settings.led_active_low),
            paced: Constant::new(settings.paced),
            resync_max: Constant::new(256u64.into()),
            por: Default::default(),
            replay: IngressReplay::new(records, settings.period, settings.gap)?,
            encoder: Encoder::new(
                encoder.framing(),
                CoreOptions {
                    fault: None,
                    ..encoder.core
                },
            ),
            uart: UartTx::new(settings.cycles_per_bit),
            activity: PulseStretch::new(settings.led_hold),
            loss: PulseStretch::new(settings.led_hold),
        })
    }
}

impl<const A: usize, const E: usize, const IT: usize, const P: usize, const D: usize> Logic
    for BoardTop<A, E, IT, P, D>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.por.clock.next = self.clock.val();
        self.replay.clock.next = self.clock.val();
        self.encoder.clock.next = self.clock.val();
        self.uart.clock.next = self.clock.val();
        self.activity.clock.next = self.clock.val();
        self.loss.clock.next = self.clock.val();
        self.replay.reset.next = self.por.reset.val();
        self.encoder.inputs.reset.next = self.por.reset.val();
        self.uart.reset.next = self.por.reset.val();
        // Ingress from the replay.
        self.replay.hold.next = self.encoder.pins.out_valid.val() & self.paced.val();
        IngressSource::<A, E, IT>::join(&mut self.replay.block, &mut self.encoder.inputs.block);
        self.encoder.inputs.control.trace_enable.next = self.replay.trace_enable.val();
        self.encoder.inputs.control.trigger.next = 0.into();
        self.encoder.inputs.control.halted.next = false;
        // Run-time options.
        self.encoder.inputs.options.full_address.next = false;
        self.encoder.inputs.options.implicit_exception.next = false;
        self.encoder.inputs.options.sijump_option.next = false;
        self.encoder.inputs.options.branch_prediction.next = true;
        self.encoder.inputs.options.implicit_return.next = true;
        self.encoder.inputs.options.resync_max.next = self.resync_max.val();
        self.encoder.src_id.next = 0.into();
        // Byte stream to the UART.
        self.uart.data.next = self.encoder.pins.out_data.val();
        self.uart.valid.next = self.encoder.pins.out_valid.val();
        self.encoder.pins.out_ready.next = self.uart.ready.val();
        self.uart_tx.next = self.uart.tx.val();
        // LEDs.
        self.activity.pulse.next = self.encoder.pins.out_valid.val()
            & self.uart.ready.val()
            & self.encoder.pins.out_last.val();
        self.loss.pulse.next = self.encoder.trace_lost.val();
        self.led_activity.next = self.activity.active.val() ^ self.led_invert.val();
        self.led_lost.next = self.loss.active.val() ^ self.led_invert.val();
    }
}

/// Declares a ULX3S top: the board top `$inner` with the ULX3S's extra pin, `wifi_gpio0`
/// held high, so that the ESP32 module's firmware does not reconfigure the FPGA.
macro_rules! ulx3s_top {
    ($(#[$meta:meta])* pub struct $name:ident<$($g:ident),+> wraps $inner:ident;) => {
        $(#[$meta])*
        #[derive(LogicBlock)]
        pub struct $name<$(const $g: usize),+> {
            /// The board's 25 MHz oscillator.
            pub clock: Signal<In, Clock>,
            /// Serial output to the FTDI bridge (8N1).
            pub uart_tx: Signal<Out, Bit>,
            /// LED: trace is being sent.
            pub led_activity: Signal<Out, Bit>,
            /// LED: the encoder lost trace recently.
            pub led_lost: Signal<Out, Bit>,
            /// ESP32 GPIO0, held high.
            pub wifi_gpio0: Signal<Out, Bit>,
            board: $inner<$($g),+>,
        }

        impl<$(const $g: usize),+> $name<$($g),+> {
            /// The ULX3S top around `board`.
            pub fn new(board: $inner<$($g),+>) -> Self {
                $name {
                    clock: Default::default(),
                    uart_tx: Default::default(),
                    led_activity: Default::default(),
                    led_lost: Default::default(),
                    wifi_gpio0: Default::default(),
                    board,
                }
            }
        }

        impl<$(const $g: usize),+> Logic for $name<$($g),+> {
            #[hdl_gen]
            fn update(&mut self) {
                self.board.clock.next = self.clock.val();
                self.uart_tx.next = self.board.uart_tx.val();
                self.led_activity.next = self.board.led_activity.val();
                self.led_lost.next = self.board.led_lost.val();
                self.wifi_gpio0.next = true;
            }
        }
    };
}
pub(crate) use ulx3s_top;

ulx3s_top! {
    /// The E-Trace board top on the ULX3S.
    pub struct Ulx3sTop<A, E, IT, P, D> wraps BoardTop;
}
