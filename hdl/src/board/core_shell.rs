//! The board side of a SoC top that traces a running core (issue 23,
//! [`crate::rvfi::board_soc`]): power-on reset, the restart of the program when it ends,
//! the trace enable around that restart, the UART that sends the encoder's byte stream,
//! and the two LEDs, as in the replay top ([`super::board_top::BoardTop`]).
//!
//! The program runs in a loop: when it ends (`end_of_program`: its store of an exit code
//! to `tohost`, or the core halted), the core keeps running for
//! [`TRACED_AFTER_END`] cycles with trace on, so that its last retirements reach the
//! trace; then trace is off (the encoder reports the end of the trace) and, after
//! [`QUIET_BEFORE_RESET`] more cycles, the core, its front end and its devices are held in
//! reset for [`CORE_RESET_CYCLES`] cycles, and longer until the encoder has handed its last
//! byte to the UART (so that each pass's trace is whole); the core starts again from its
//! reset address with trace on, and the encoder begins a new trace with a
//! synchronisation. The RAM is
//! not reloaded: a program that does not initialise its data at start sees the values
//! of the previous pass (the trace still shows what the core executes).

use rust_hdl::prelude::*;

use super::board_top::LED_COUNTER_BITS;
use super::power_on_reset::PowerOnReset;
use super::stretch::PulseStretch;
use super::uart_tx::UartTx;

/// Cycles the core is traced after the end of its program.
pub const TRACED_AFTER_END: u64 = 128;
/// Cycles with trace off before the core is reset.
pub const QUIET_BEFORE_RESET: u64 = 64;
/// Cycles the core is held in reset between two passes.
pub const CORE_RESET_CYCLES: u64 = 63;

/// Width of the restart counter: it counts down from `TRACED_AFTER_END +
/// QUIET_BEFORE_RESET + CORE_RESET_CYCLES` (255).
const RESTART_BITS: usize = 8;

/// The board shell of a core SoC (module documentation).
#[derive(LogicBlock)]
pub struct CoreShell {
    /// The board's oscillator.
    pub clock: Signal<In, Clock>,
    /// The program ended in this cycle (ignored during a restart).
    pub end_of_program: Signal<In, Bit>,
    /// The encoder's byte stream: a byte is offered.
    pub out_valid: Signal<In, Bit>,
    /// The byte offered.
    pub out_data: Signal<In, Bits<8>>,
    /// The byte is the last of its packet.
    pub out_last: Signal<In, Bit>,
    /// The encoder lost trace in this cycle.
    pub trace_lost: Signal<In, Bit>,
    /// The UART takes the byte offered.
    pub out_ready: Signal<Out, Bit>,
    /// Power-on reset: the encoder's reset.
    pub por_reset: Signal<Out, Bit>,
    /// Reset of the core, its front end and its devices: power-on reset or a restart.
    pub core_reset: Signal<Out, Bit>,
    /// The encoder's `trace_enable`.
    pub trace_enable: Signal<Out, Bit>,
    /// Serial output to the USB-UART bridge (8N1).
    pub uart_tx: Signal<Out, Bit>,
    /// LED: packets are being sent.
    pub led_activity: Signal<Out, Bit>,
    /// LED: the encoder lost trace recently.
    pub led_lost: Signal<Out, Bit>,
    led_invert: Constant<Bit>,
    restart_from: Constant<Bits<RESTART_BITS>>,
    trace_off_below: Constant<Bits<RESTART_BITS>>,
    reset_below: Constant<Bits<RESTART_BITS>>,
    /// Cycles left of the restart (0: the program runs).
    restart: DFF<Bits<RESTART_BITS>>,
    por: PowerOnReset,
    uart: UartTx,
    activity: PulseStretch<LED_COUNTER_BITS>,
    loss: PulseStretch<LED_COUNTER_BITS>,
}

impl CoreShell {
    /// A shell whose UART bit lasts `cycles_per_bit` cycles, whose LEDs stay lit for
    /// `led_hold` cycles and light when driven low if `led_active_low`.
    pub fn new(cycles_per_bit: u32, led_hold: u64, led_active_low: bool) -> Self {
        let start = TRACED_AFTER_END + QUIET_BEFORE_RESET + CORE_RESET_CYCLES;
        CoreShell {
            clock: Default::default(),
            end_of_program: Default::default(),
            out_valid: Default::default(),
            out_data: Default::default(),
            out_last: Default::default(),
            trace_lost: Default::default(),
            out_ready: Default::default(),
            por_reset: Default::default(),
            core_reset: Default::default(),
            trace_enable: Default::default(),
            uart_tx: Default::default(),
            led_activity: Default::default(),
            led_lost: Default::default(),
            led_invert: Constant::new(led_active_low),
            restart_from: Constant::new(start.into()),
            trace_off_below: Constant::new((start - TRACED_AFTER_END + 1).into()),
            reset_below: Constant::new((CORE_RESET_CYCLES + 1).into()),
            restart: Default::default(),
            por: Default::default(),
            uart: UartTx::new(cycles_per_bit),
            activity: PulseStretch::new(led_hold),
            loss: PulseStretch::new(led_hold),
        }
    }
}

impl Logic for CoreShell {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, restart);
        self.por.clock.next = self.clock.val();
        self.uart.clock.next = self.clock.val();
        self.activity.clock.next = self.clock.val();
        self.loss.clock.next = self.clock.val();
        self.por_reset.next = self.por.reset.val();
        self.uart.reset.next = self.por.reset.val();
        // The restart (module documentation).
        if self.por.reset.val() {
            self.restart.d.next = 0.into();
        } else if self.restart.q.val().any() {
            // The last cycle of the core's reset waits for the encoder's output to drain.
            if !(self.restart.q.val() == 1 && self.out_valid.val()) {
                self.restart.d.next = self.restart.q.val() - 1;
            }
        } else if self.end_of_program.val() {
            self.restart.d.next = self.restart_from.val();
        }
        self.trace_enable.next =
            !self.restart.q.val().any() | (self.restart.q.val() >= self.trace_off_below.val());
        self.core_reset.next = self.por.reset.val()
            | (self.restart.q.val().any() & (self.restart.q.val() < self.reset_below.val()));
        // Byte stream to the UART.
        self.uart.data.next = self.out_data.val();
        self.uart.valid.next = self.out_valid.val();
        self.out_ready.next = self.uart.ready.val();
        self.uart_tx.next = self.uart.tx.val();
        // LEDs.
        self.activity.pulse.next =
            self.out_valid.val() & self.uart.ready.val() & self.out_last.val();
        self.loss.pulse.next = self.trace_lost.val();
        self.led_activity.next = self.activity.active.val() ^ self.led_invert.val();
        self.led_lost.next = self.loss.active.val() ^ self.led_invert.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the shell from power-up; `end` says in which cycles the program ends; returns
    /// (core_reset, trace_enable) of every cycle.
    /// `valid` says in which cycles the encoder offers a byte.
    fn run(
        cycles: usize,
        end: impl Fn(usize) -> bool,
        valid: impl Fn(usize) -> bool,
    ) -> Vec<(bool, bool)> {
        let mut shell = CoreShell::new(4, 8, false);
        shell.connect_all();
        let mut seen = Vec::new();
        for cycle in 0..cycles {
            shell.end_of_program.next = end(cycle);
            shell.out_valid.next = valid(cycle);
            shell.clock.next = Clock { clk: false };
            assert!(simulate(&mut shell, 100));
            seen.push((shell.core_reset.val(), shell.trace_enable.val()));
            shell.clock.next = Clock { clk: true };
            assert!(simulate(&mut shell, 100));
        }
        seen
    }

    #[test]
    fn a_program_end_is_traced_then_the_core_restarts_with_trace_on() {
        let end_at = 100;
        let seen = run(600, |c| c == end_at || c == end_at + 5, |_| false);
        // Power-on reset: the core in reset for the first 16 cycles, then running.
        assert!(seen[..16].iter().all(|&(reset, _)| reset));
        assert!(seen[16..=end_at].iter().all(|&s| s == (false, true)));
        let after = &seen[end_at + 1..];
        let traced = after.iter().take_while(|&&s| s == (false, true)).count();
        assert_eq!(traced as u64, TRACED_AFTER_END);
        let quiet = after[traced..]
            .iter()
            .take_while(|&&s| s == (false, false))
            .count();
        assert_eq!(quiet as u64, QUIET_BEFORE_RESET);
        let held = after[traced + quiet..]
            .iter()
            .take_while(|&&s| s == (true, false))
            .count();
        assert_eq!(held as u64, CORE_RESET_CYCLES);
        // Then the core runs again, traced, and the second end (during the restart) was
        // ignored.
        assert!(after[traced + quiet + held..]
            .iter()
            .all(|&s| s == (false, true)));
    }

    #[test]
    fn the_core_stays_in_reset_until_the_encoder_output_drains() {
        let end_at = 100;
        // The encoder offers bytes until cycle 700 (the UART is slow).
        let seen = run(900, |c| c == end_at, |c| c < 700);
        let first_run_again = (end_at..900).find(|&c| seen[c] == (false, true) && seen[c - 1].0);
        // The last cycle in reset is the one after the last byte was offered.
        assert_eq!(first_run_again, Some(701));
    }
}
