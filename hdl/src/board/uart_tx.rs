//! The board's serial transmitter: asynchronous 8N1 framing (one start bit at 0, eight
//! data bits least significant first, one stop bit at 1; the line idles at 1), with a bit
//! time of a whole number of clock cycles fixed at generation (clock / baud).

use rust_hdl::prelude::*;

use crate::packer::ZeroExtend;

/// 8N1 UART transmitter with a valid / ready byte input: a byte is taken when `valid &&
/// ready`; `ready` is high exactly when the transmitter is idle. Each bit lasts
/// `cycles_per_bit` clock cycles; the start bit begins in the cycle after the byte is
/// taken.
#[derive(LogicBlock)]
pub struct UartTx {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle (line at 1) in the next cycle.
    pub reset: Signal<In, Bit>,
    /// The byte to send.
    pub data: Signal<In, Bits<8>>,
    /// `data` holds a byte.
    pub valid: Signal<In, Bit>,
    /// Idle: the byte is taken in this cycle if `valid`.
    pub ready: Signal<Out, Bit>,
    /// The serial line.
    pub tx: Signal<Out, Bit>,
    /// Clock cycles per bit, minus one.
    bit_cycles: Constant<Bits<16>>,
    /// The complement of the bits still to send, least significant first (complemented
    /// so that the power-up value 0 is an idle line).
    line: DFF<Bits<10>>,
    /// Bits still to send (0: idle).
    remaining: DFF<Bits<4>>,
    /// Cycles left in the current bit.
    timer: DFF<Bits<16>>,
    inverted: ZeroExtend<8, 10>,
}

impl UartTx {
    /// A transmitter with bits of `cycles_per_bit` clock cycles (2 to 65536).
    pub fn new(cycles_per_bit: u32) -> Self {
        let minus_one = u64::from(cycles_per_bit.clamp(2, 65_536) - 1);
        UartTx {
            clock: Default::default(),
            reset: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            ready: Default::default(),
            tx: Default::default(),
            bit_cycles: Constant::new(minus_one.into()),
            line: Default::default(),
            remaining: Default::default(),
            timer: Default::default(),
            inverted: Default::default(),
        }
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, line, remaining, timer);
        self.ready.next = !self.remaining.q.val().any();
        self.tx.next = !self.line.q.val().get_bit(0);
        // Complement of {stop 1, data, start 0}: bit 0 = 1, bits 1-8 = !data, bit 9 = 0.
        self.inverted.narrow.next = !self.data.val();
        if self.remaining.q.val().any() {
            if self.timer.q.val().any() {
                self.timer.d.next = self.timer.q.val() - 1;
            } else {
                self.timer.d.next = self.bit_cycles.val();
                self.line.d.next = self.line.q.val() >> 1;
                self.remaining.d.next = self.remaining.q.val() - 1;
            }
        } else if self.valid.val() {
            self.line.d.next = (self.inverted.wide.val() << 1) | 1;
            self.remaining.d.next = 10.into();
            self.timer.d.next = self.bit_cycles.val();
        }
        if self.reset.val() {
            self.line.d.next = 0.into();
            self.remaining.d.next = 0.into();
            self.timer.d.next = 0.into();
        }
    }
}
