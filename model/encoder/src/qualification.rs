//! Instruction qualification from the ingress side-band inputs (`ingressPort.adoc`, table
//! `tab:ingress-side-band` and section `sec:trigger`): the trace-on / trace-off / trace-notify
//! triggers and the `halted` signal, evaluated once per cycle as the hardware's packet logic
//! does (`hdl/DESIGN.md`, cycle contract item 1).
//!
//! Rules (one cycle at a time, while trace is enabled):
//!
//! * `on` is the trigger state: set when trace is enabled ([`Qualification::enable`]),
//!   cleared by a trace-off pulse (`trigger[1]`) after the block of that cycle, set by a
//!   trace-on pulse (`trigger[0]`) from the block of that cycle. So trace-off followed by
//!   trace-on in the next cycle keeps tracing, and trace-on with trace-off in one cycle
//!   traces only that cycle's block (`sec:trigger`).
//! * A block is qualified when `on` (or trace-on in its cycle) and the hart is not halted.
//! * `trigger[2]` (trace-notify) marks the block of its cycle.
//! * `halted` (`tab:ingress-side-band`, `exampleAlgorithm.adoc`: "behave as if it has received
//!   an unqualified instruction"): in the cycle `halted` rises and in the next one, a cycle
//!   without a block presents an unqualified empty record ([`Presented::Gap`]), so that the
//!   last traced instruction is reported and the support packet with `qual_status` ended
//!   follows without waiting for more blocks; tracing resumes with a sync.

use etrace_spec::ingress::IngressRecord;

/// `trigger[0]`: trace-on.
pub const TRIGGER_START: u8 = 1;
/// `trigger[1]`: trace-off.
pub const TRIGGER_STOP: u8 = 2;
/// `trigger[2]`: trace-notify.
pub const TRIGGER_NOTIFY: u8 = 4;

/// What one cycle of the ingress port presents to the encoder's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presented {
    /// Nothing: the window does not shift (an idle cycle).
    Nothing,
    /// The cycle's block, with its qualification and trace-notify.
    Block {
        /// The block is traced.
        qualified: bool,
        /// Trace-notify trigger in this cycle.
        notify: bool,
    },
    /// An unqualified empty record (the hart halted).
    Gap,
}

impl Presented {
    /// The arguments of [`super::Encoder::push_with`] for this cycle, given the cycle's
    /// ingress record; `None` when the window does not shift.
    pub fn push_args(self, rec: &IngressRecord) -> Option<(IngressRecord, bool, bool)> {
        match self {
            Presented::Nothing => None,
            Presented::Block { qualified, notify } => Some((*rec, qualified, notify)),
            Presented::Gap => Some((IngressRecord::default(), false, false)),
        }
    }
}

/// The qualification state (`sec:trigger`, `halted`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Qualification {
    /// Trigger state: tracing until a trace-off pulse.
    on: bool,
    /// `halted` in the previous cycle.
    halted: bool,
    /// `halted` rose in the previous cycle: one more gap is due.
    gap_due: bool,
}

impl Qualification {
    /// The state after reset (trace disabled, not halted).
    pub fn new() -> Qualification {
        Qualification::default()
    }

    /// Trace is enabled in this cycle: the trigger state starts on. Call before
    /// [`Qualification::cycle`] for the enabling cycle.
    pub fn enable(&mut self) {
        self.on = true;
    }

    /// One cycle while trace is enabled: `present` says whether a block is on the port
    /// (`iretire != 0 || itype != 0`), `trigger` is the 3-bit trigger input.
    pub fn cycle(&mut self, present: bool, trigger: u8, halted: bool) -> Presented {
        let start = trigger & TRIGGER_START != 0;
        let stop = trigger & TRIGGER_STOP != 0;
        let notify = trigger & TRIGGER_NOTIFY != 0;
        let on = self.on || start;
        let halt_rise = halted && !self.halted;
        let presented = if present {
            Presented::Block {
                qualified: on && !halted,
                notify,
            }
        } else if halt_rise || self.gap_due {
            Presented::Gap
        } else {
            Presented::Nothing
        };
        self.on = on && !stop;
        self.gap_due = halt_rise;
        self.halted = halted;
        presented
    }

    /// One cycle while trace is disabled (only `halted` is followed).
    pub fn idle(&mut self, halted: bool) {
        self.gap_due = false;
        self.halted = halted;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(qualified: bool) -> Presented {
        Presented::Block {
            qualified,
            notify: false,
        }
    }

    #[test]
    fn sec_trigger_off_then_on_next_cycle_keeps_tracing() {
        let mut q = Qualification::new();
        q.enable();
        assert_eq!(q.cycle(true, 0, false), block(true));
        assert_eq!(q.cycle(true, TRIGGER_STOP, false), block(true));
        assert_eq!(q.cycle(true, TRIGGER_START, false), block(true));
        assert_eq!(q.cycle(true, 0, false), block(true));
    }

    #[test]
    fn sec_trigger_on_and_off_together_trace_only_that_cycle() {
        let mut q = Qualification::new();
        q.enable();
        assert_eq!(q.cycle(true, TRIGGER_STOP, false), block(true));
        assert_eq!(q.cycle(true, 0, false), block(false));
        assert_eq!(
            q.cycle(true, TRIGGER_START | TRIGGER_STOP, false),
            block(true)
        );
        assert_eq!(q.cycle(true, 0, false), block(false));
        // A trace-on pulse in a cycle without a block still turns tracing on.
        assert_eq!(q.cycle(false, TRIGGER_START, false), Presented::Nothing);
        assert_eq!(q.cycle(true, 0, false), block(true));
    }

    #[test]
    fn tab_trigger_notify_marks_the_block() {
        let mut q = Qualification::new();
        q.enable();
        assert_eq!(
            q.cycle(true, TRIGGER_NOTIFY, false),
            Presented::Block {
                qualified: true,
                notify: true
            }
        );
    }

    #[test]
    fn tab_ingress_side_band_halted_presents_two_gaps() {
        let mut q = Qualification::new();
        q.enable();
        assert_eq!(q.cycle(true, 0, false), block(true));
        assert_eq!(q.cycle(false, 0, true), Presented::Gap);
        assert_eq!(q.cycle(false, 0, true), Presented::Gap);
        assert_eq!(q.cycle(false, 0, true), Presented::Nothing);
        assert_eq!(q.cycle(true, 0, true), block(false));
        assert_eq!(q.cycle(true, 0, false), block(true));
        // A block in the cycle halted rises is itself the first unqualified record.
        assert_eq!(q.cycle(true, 0, true), block(false));
        assert_eq!(q.cycle(false, 0, true), Presented::Gap);
        assert_eq!(q.cycle(false, 0, true), Presented::Nothing);
    }
}
