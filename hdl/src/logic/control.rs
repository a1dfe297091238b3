//! `TraceControl`: trace enable and disable, qualification, and when the window shifts and
//! the packet logic decides (`hdl/DESIGN.md`, cycle contract items 1-3; `payload.adoc`,
//! `sec:format33` and `sec:qual-status` for the support packets at enable and disable;
//! `ingressPort.adoc`, `sec:trigger` and `tab:ingress-side-band` for the triggers and
//! `halted`). The qualification rule is the model's
//! `etrace_model::encoder::qualification::Qualification`.
//!
//! Enable sequencing and qualification are one block because each needs the other in the
//! same cycle (a halt gap shifts the window; the trigger state runs while trace is on).

use rust_hdl::prelude::*;

/// Enable / disable sequencing and qualification.
///
/// * Off (after `reset`, or after a disable): the first cycle with `trace_enable` high is the
///   *enable cycle* (`enable_cycle`): the support packet is produced, all state is cleared
///   and a block on the port enters the empty window. The trigger state starts on.
/// * On: a block on the port shifts the window with its `qualified` / `notify`; in the cycle
///   `halted` rises and the next, a cycle without a block shifts an unqualified empty record
///   (`fill`, `fill_valid`).
/// * The first cycle with `trace_enable` low and the next one shift empty (invalid) slots;
///   the decisions for these two shifts (`finishing` high) are the model's
///   `Encoder::finish`. The enable input is ignored until they are done.
/// * `decide` is high in the cycle after each shift.
/// * Qualification (`sec:trigger`): `trigger[0]` (trace-on) traces from the block of its
///   cycle, `trigger[1]` (trace-off) stops after the block of its cycle, `trigger[2]`
///   (trace-notify) marks the block; a block is not qualified while `halted`.
#[derive(LogicBlock, Default)]
pub struct TraceControl {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Trace enable.
    pub trace_enable: Signal<In, Bit>,
    /// A block is on the ingress port.
    pub present: Signal<In, Bit>,
    /// `trigger[2:0]`: bit 0 trace-on, bit 1 trace-off, bit 2 trace-notify.
    pub trigger: Signal<In, Bits<3>>,
    /// `halted`: the hart is halted.
    pub halted: Signal<In, Bit>,
    /// The cycle that enables trace.
    pub enable_cycle: Signal<Out, Bit>,
    /// Shift the window at the edge.
    pub shift: Signal<Out, Bit>,
    /// Shift an empty record, not the port's block.
    pub fill: Signal<Out, Bit>,
    /// Valid bit of the empty record (1: halt gap, 0: disable).
    pub fill_valid: Signal<Out, Bit>,
    /// The block of this cycle is traced.
    pub qualified: Signal<Out, Bit>,
    /// Trace-notify on the block of this cycle.
    pub notify: Signal<Out, Bit>,
    /// Decide for the current instruction in this cycle.
    pub decide: Signal<Out, Bit>,
    /// This decision is one of the two after trace disable.
    pub finishing: Signal<Out, Bit>,
    enabled: DFF<Bit>,
    fin: DFF<Bits<2>>,
    decide_q: DFF<Bit>,
    on: DFF<Bit>,
    halted_q: DFF<Bit>,
    gap_due: DFF<Bit>,
    tracing: Signal<Local, Bit>,
    on_now: Signal<Local, Bit>,
    halt_rise: Signal<Local, Bit>,
    gap: Signal<Local, Bit>,
}

impl Logic for TraceControl {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, enabled, fin, decide_q, on, halted_q, gap_due);
        self.enable_cycle.next = false;
        self.tracing.next = false;
        self.decide.next = self.decide_q.q.val() && !self.reset.val();
        self.finishing.next = self.fin.q.val().any();
        if self.enabled.q.val() {
            if self.trace_enable.val() {
                self.tracing.next = true;
            } else {
                self.enabled.d.next = false;
                self.fin.d.next = 1.into();
            }
        } else if self.fin.q.val() == 1 {
            self.fin.d.next = 2.into();
        } else if self.fin.q.val() == 2 {
            self.fin.d.next = 0.into();
        } else if self.trace_enable.val() {
            self.enable_cycle.next = true;
            self.tracing.next = true;
            self.enabled.d.next = true;
        }
        if self.reset.val() {
            self.enable_cycle.next = false;
            self.tracing.next = false;
            self.enabled.d.next = false;
            self.fin.d.next = 0.into();
        }

        // Qualification (`sec:trigger`, `halted`).
        self.on_now.next =
            self.on.q.val() || self.enable_cycle.val() || self.trigger.val().get_bit(0);
        self.halt_rise.next = self.halted.val() && !self.halted_q.q.val();
        self.qualified.next = self.on_now.val() && !self.halted.val();
        self.notify.next = self.trigger.val().get_bit(2);
        self.gap.next = self.tracing.val()
            && !self.present.val()
            && (self.halt_rise.val() || self.gap_due.q.val());
        self.halted_q.d.next = self.halted.val();
        self.gap_due.d.next = self.tracing.val() && self.halt_rise.val();
        if self.tracing.val() {
            self.on.d.next = self.on_now.val() && !self.trigger.val().get_bit(1);
        }

        // Window shifts.
        self.shift.next = false;
        self.fill.next = false;
        self.fill_valid.next = false;
        if self.tracing.val() {
            self.shift.next = self.present.val() || self.gap.val();
            self.fill.next = !self.present.val();
            self.fill_valid.next = true;
        } else if (self.enabled.q.val() || (self.fin.q.val() == 1)) && !self.reset.val() {
            // The two empty slots of trace disable.
            self.shift.next = true;
            self.fill.next = true;
        }
        self.decide_q.d.next = self.shift.val() && !self.reset.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};
    use etrace_model::encoder::qualification::{Presented, Qualification};

    #[test]
    fn trace_control_verilog() {
        let mut uut = TraceControl::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("trace_control", &v).unwrap();
        lint("trace_control", &v).unwrap();
    }

    /// One cycle of stimulus: (trace_enable, present, trigger, halted).
    type Cycle = (bool, bool, u8, bool);

    fn stimulus() -> Vec<Cycle> {
        let mut s = 0x1234_5678u32;
        let mut out = Vec::new();
        let mut enable = false;
        let mut halted = false;
        for _ in 0..3000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            if s.is_multiple_of(61) {
                enable = !enable;
            }
            if s % 23 == 3 {
                halted = !halted;
            }
            let trigger = if (s >> 8).is_multiple_of(5) {
                ((s >> 12) % 8) as u8
            } else {
                0
            };
            out.push((enable, !(s >> 4).is_multiple_of(3), trigger, halted));
        }
        out
    }

    /// Expected per cycle: (shift, fill, fill_valid, qualified and notify when a block
    /// shifts in), from the model's qualification and the enable / disable sequence of
    /// `hdl/DESIGN.md` item 3.
    /// Expected outputs of one cycle: shift, fill, fill_valid, (qualified, notify).
    type Expected = (bool, bool, bool, Option<(bool, bool)>);

    fn expected(cycles: &[Cycle]) -> Vec<Expected> {
        let mut q = Qualification::new();
        let (mut enabled, mut fin) = (false, 0);
        let mut out = Vec::new();
        for &(te, present, trigger, halted) in cycles {
            let (tracing, empty) = if enabled {
                if te {
                    (true, false)
                } else {
                    enabled = false;
                    fin = 1;
                    (false, true)
                }
            } else if fin == 1 {
                fin = 2;
                (false, true)
            } else if fin == 2 {
                fin = 0;
                (false, false)
            } else if te {
                enabled = true;
                q.enable();
                (true, false)
            } else {
                (false, false)
            };
            if !tracing {
                q.idle(halted);
                out.push((empty, empty, false, None));
                continue;
            }
            out.push(match q.cycle(present, trigger, halted) {
                Presented::Nothing => (false, true, true, None),
                Presented::Gap => (true, true, true, None),
                Presented::Block { qualified, notify } => {
                    (true, false, true, Some((qualified, notify)))
                }
            });
        }
        out
    }

    #[test]
    fn sec_trigger_qualification_and_enable_sequence_match_model() {
        let cycles = stimulus();
        let want = expected(&cycles);
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen_tb = seen.clone();
        let stim = cycles.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<TraceControl>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<TraceControl>| {
            let mut x = sim.init()?;
            wait_clock_true!(sim, clock, x);
            for &(te, present, trigger, halted) in &stim {
                x.trace_enable.next = te;
                x.present.next = present;
                x.trigger.next = u64::from(trigger).into();
                x.halted.next = halted;
                x = sim.wait(1, x)?;
                seen_tb.lock().unwrap().push((
                    x.shift.val(),
                    x.fill.val(),
                    x.fill_valid.val(),
                    x.qualified.val(),
                    x.notify.val(),
                ));
                wait_clock_cycle!(sim, clock, x);
            }
            sim.done(x)
        });
        let mut uut = TraceControl::default();
        uut.connect_all();
        sim.run(Box::new(uut), 100_000).unwrap();
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), want.len());
        let mut blocks = 0;
        for (i, (s, w)) in seen.iter().zip(&want).enumerate() {
            assert_eq!(s.0, w.0, "cycle {i}: shift");
            if s.0 {
                assert_eq!((s.1, s.2), (w.1, w.2), "cycle {i}: fill / fill_valid");
            }
            if let Some(qn) = w.3 {
                assert_eq!((s.3, s.4), qn, "cycle {i}: qualified / notify");
                blocks += 1;
            }
        }
        assert!(blocks > 500, "stimulus reaches traced blocks");
    }
}
