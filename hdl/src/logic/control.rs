//! `TraceControl`: trace enable and disable, qualification, and when the window shifts and
//! the packet logic decides (`hdl/DESIGN.md`, cycle contract items 1-3; `payload.adoc`,
//! `sec:format33` and `sec:qual-status` for the support packets at enable and disable;
//! `ingressPort.adoc`, `sec:trigger` and `tab:ingress-side-band` for the triggers and
//! `halted`). The qualification rule is the model's
//! `etrace_encoder::qualification::Qualification`.
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
///
/// Every output comes from a flip-flop: it is the value for the inputs of the previous
/// cycle, and acts together with the block the ingress port registered at the same edge
/// (`hdl/DESIGN.md` item 0), so the window and the chart key start from registers.
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
    /// `fill` one cycle ahead (the input of its flip-flop): the ingress port registers the
    /// block's `iaddr` as 0 with it, so that the address entering `next` at a shift is a
    /// flip-flop.
    pub fill_ahead: Signal<Out, Bit>,
    /// The block of this cycle is traced.
    pub qualified: Signal<Out, Bit>,
    /// Trace-notify on the block of this cycle.
    pub notify: Signal<Out, Bit>,
    /// Decide for the current instruction in this cycle.
    pub decide: Signal<Out, Bit>,
    /// `decide` one cycle ahead (the input of its flip-flop): the ingress port registers
    /// the chart key gated by it, so a key is high only in a cycle that decides.
    pub decide_ahead: Signal<Out, Bit>,
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
    enable_cycle_now: Signal<Local, Bit>,
    shift_now: Signal<Local, Bit>,
    fill_now: Signal<Local, Bit>,
    fill_valid_now: Signal<Local, Bit>,
    qualified_now: Signal<Local, Bit>,
    notify_now: Signal<Local, Bit>,
    decide_now: Signal<Local, Bit>,
    finishing_now: Signal<Local, Bit>,
    enable_cycle_r: DFF<Bit>,
    shift_r: DFF<Bit>,
    fill_r: DFF<Bit>,
    fill_valid_r: DFF<Bit>,
    qualified_r: DFF<Bit>,
    notify_r: DFF<Bit>,
    decide_r: DFF<Bit>,
    finishing_r: DFF<Bit>,
}

impl Logic for TraceControl {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            enabled,
            fin,
            decide_q,
            on,
            halted_q,
            gap_due,
            enable_cycle_r,
            shift_r,
            fill_r,
            fill_valid_r,
            qualified_r,
            notify_r,
            decide_r,
            finishing_r
        );
        self.enable_cycle_now.next = false;
        self.tracing.next = false;
        self.decide_now.next = self.decide_q.q.val() && !self.reset.val();
        self.finishing_now.next = self.fin.q.val().any();
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
            self.enable_cycle_now.next = true;
            self.tracing.next = true;
            self.enabled.d.next = true;
        }
        if self.reset.val() {
            self.enable_cycle_now.next = false;
            self.tracing.next = false;
            self.enabled.d.next = false;
            self.fin.d.next = 0.into();
        }

        // Qualification (`sec:trigger`, `halted`).
        self.on_now.next =
            self.on.q.val() || self.enable_cycle_now.val() || self.trigger.val().get_bit(0);
        self.halt_rise.next = self.halted.val() && !self.halted_q.q.val();
        self.qualified_now.next = self.on_now.val() && !self.halted.val();
        self.notify_now.next = self.trigger.val().get_bit(2);
        self.gap.next = self.tracing.val()
            && !self.present.val()
            && (self.halt_rise.val() || self.gap_due.q.val());
        self.halted_q.d.next = self.halted.val();
        self.gap_due.d.next = self.tracing.val() && self.halt_rise.val();
        if self.tracing.val() {
            self.on.d.next = self.on_now.val() && !self.trigger.val().get_bit(1);
        }

        // Window shifts.
        self.shift_now.next = false;
        self.fill_now.next = false;
        self.fill_valid_now.next = false;
        if self.tracing.val() {
            self.shift_now.next = self.present.val() || self.gap.val();
            self.fill_now.next = !self.present.val();
            self.fill_valid_now.next = true;
        } else if (self.enabled.q.val() || (self.fin.q.val() == 1)) && !self.reset.val() {
            // The two empty slots of trace disable.
            self.shift_now.next = true;
            self.fill_now.next = true;
        }
        self.decide_q.d.next = self.shift_now.val() && !self.reset.val();

        // Every output from a flip-flop (`DESIGN.md` item 0): the window and the packet
        // logic see them with the block the ingress port registered in the same edge.
        self.enable_cycle_r.d.next = self.enable_cycle_now.val();
        self.enable_cycle.next = self.enable_cycle_r.q.val();
        self.shift_r.d.next = self.shift_now.val();
        self.shift.next = self.shift_r.q.val();
        self.fill_r.d.next = self.fill_now.val();
        self.fill.next = self.fill_r.q.val();
        self.fill_ahead.next = self.fill_now.val();
        self.fill_valid_r.d.next = self.fill_valid_now.val();
        self.fill_valid.next = self.fill_valid_r.q.val();
        self.qualified_r.d.next = self.qualified_now.val();
        self.qualified.next = self.qualified_r.q.val();
        self.notify_r.d.next = self.notify_now.val();
        self.notify.next = self.notify_r.q.val();
        self.decide_r.d.next = self.decide_now.val();
        self.decide.next = self.decide_r.q.val();
        self.decide_ahead.next = self.decide_now.val();
        self.finishing_r.d.next = self.finishing_now.val();
        self.finishing.next = self.finishing_r.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};
    use etrace_encoder::qualification::{Presented, Qualification};

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

    /// Expected outputs of one cycle: shift, fill, fill_valid, (qualified, notify).
    type Expected = (bool, bool, bool, Option<(bool, bool)>);

    /// Per cycle, from the model's qualification and the enable / disable sequence of
    /// `hdl/DESIGN.md` item 3.
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
        // The outputs are registered: those of cycle i are seen in cycle i + 1.
        for (i, (s, w)) in seen[1..].iter().zip(&want).enumerate() {
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
