//! `BranchCount`: the count of correctly predicted branches of branch prediction mode
//! (`branchTrace.adoc`, `sec:branch-prediction`; `payload.adoc`, `sec:format0`): while
//! every branch since the last report was predicted correctly the branch map holds them;
//! at the 31st the map is dropped and only the count grows (format 0 `branch_count` is
//! the count minus 31) until a branch fails its prediction or an address is reported. The
//! model: `Encoder::record_branch` (`pbc`) and its `counting` state.

use rust_hdl::prelude::*;

/// The predicted-branch count (`W` bits: 32 in the encoder, fewer in tests) and its
/// state flags. Combinational outputs for the current cycle's decision; the state is
/// registered here. Whether the count is at its maximum, or one below, is held in
/// flip-flops beside it (kept as it counts), so `full` is not behind a `W`-bit compare.
/// Built without a predictor (`bpred_size_p` 0, [`Default`]) it never counts, and
/// synthesis removes it.
#[derive(LogicBlock)]
pub struct BranchCount<const W: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The current instruction is a traced branch (in a deciding cycle).
    pub push: Signal<In, Bit>,
    /// Its prediction is correct after this cycle's edge (the predictor's `correct_ahead`:
    /// registered here with the option, so that `ok` is one flip-flop at the head of the
    /// decision's paths).
    pub correct_ahead: Signal<In, Bit>,
    /// Run-time option `branch_prediction`: without it (or without a predictor) nothing is
    /// counted and the map holds every branch. Stable while trace is enabled
    /// (`hdl/DESIGN.md` item 2), so it is registered into `ok` with the prediction.
    pub option: Signal<In, Bit>,
    /// The branch map holds 29 branches before this cycle's (after any emptying): with a
    /// correct prediction this branch makes 30, and the next correct one enters counting.
    pub held_is_29: Signal<In, Bit>,
    /// The branch map holds 30 branches after the edge.
    pub held_is_30_ahead: Signal<In, Bit>,
    /// The branches are reported or dropped in this cycle (the map empties): the count
    /// restarts.
    pub clear: Signal<In, Bit>,
    /// Branch prediction is on: the option, in hardware with a predictor (`ioptions`).
    pub enabled: Signal<Out, Bit>,
    /// This branch is the 31st correctly predicted one: the map is dropped, counting
    /// starts.
    pub enter: Signal<Out, Bit>,
    /// Counting (`pbc` >= 31) for this cycle's decision, `enter` included.
    pub counting: Signal<Out, Bit>,
    /// The branch enters the branch map (it is not counted).
    pub map_push: Signal<Out, Bit>,
    /// Counting before this cycle and this branch failed its prediction (`rpt_br`; the
    /// format 0 `branch_fmt` addr-fail).
    pub failed: Signal<Out, Bit>,
    /// A branch in this cycle would be counted, not mapped: counting, or the map holds 30
    /// correctly predicted branches and this one is predicted correctly (a flip-flop,
    /// formed a cycle ahead, so that the decision's `held` reads three flip-flops:
    /// `hdl/DESIGN.md`, "The decision's `held` and `full` from flip-flops").
    pub counts: Signal<Out, Bit>,
    /// A branch in this cycle would fill the map (it holds 30 and the branch is mapped)
    /// or fail the count (counting, predicted wrongly; `rpt_br`): a flip-flop.
    pub fills: Signal<Out, Bit>,
    /// The count reached its maximum, `branch_count` = 0xffff_ffff (an address is due).
    pub full: Signal<Out, Bit>,
    /// Format 0 `branch_count` after this cycle's branch.
    pub value: Signal<Out, Bits<W>>,
    counting_q: DFF<Bit>,
    some_failed: DFF<Bit>,
    count: DFF<Bits<W>>,
    /// `count` is all ones.
    at_max: DFF<Bit>,
    /// `count` is all ones but bit 0.
    below_max: DFF<Bit>,
    /// The option on (in hardware with a predictor) and the prediction correct: the
    /// registered `enabled && correct`.
    ok: DFF<Bit>,
    /// The map holds 30 branches, none failed, not counting: a correctly predicted branch
    /// enters counting (`enter` is then one LUT of `push`, `ok` and this flip-flop). Formed
    /// for after the edge from the map's 29 and this cycle's branch.
    ready: DFF<Bit>,
    counts_q: DFF<Bit>,
    fills_q: DFF<Bit>,
    // After the edge, before the clear: counting, and `ready`.
    stays_counting: Signal<Local, Bit>,
    ready_kept: Signal<Local, Bit>,
    correct_next: Signal<Local, Bit>,
    // The increment as a `W`-bit addend (counting, a branch, predicted correctly).
    step: Signal<Local, Bits<W>>,
    available: Constant<Bit>,
    max_less_two: Constant<Bits<W>>,
}

impl<const W: usize> BranchCount<W> {
    /// The count of an encoder with a predictor (`available`) or without.
    pub fn new(available: bool) -> Self {
        BranchCount {
            clock: Default::default(),
            push: Default::default(),
            correct_ahead: Default::default(),
            option: Default::default(),
            enabled: Default::default(),
            ok: Default::default(),
            held_is_29: Default::default(),
            ready: Default::default(),
            clear: Default::default(),
            enter: Default::default(),
            counting: Default::default(),
            map_push: Default::default(),
            failed: Default::default(),
            full: Default::default(),
            value: Default::default(),
            counting_q: Default::default(),
            counts: Default::default(),
            fills: Default::default(),
            held_is_30_ahead: Default::default(),
            counts_q: Default::default(),
            fills_q: Default::default(),
            stays_counting: Default::default(),
            ready_kept: Default::default(),
            correct_next: Default::default(),
            some_failed: Default::default(),
            count: Default::default(),
            step: Default::default(),
            at_max: Default::default(),
            below_max: Default::default(),
            available: Constant::new(available),
            max_less_two: Constant::new(Bits::<W>::mask() - 2),
        }
    }
}

impl<const W: usize> Default for BranchCount<W> {
    /// Without a predictor.
    fn default() -> Self {
        BranchCount::new(false)
    }
}

impl<const W: usize> Logic for BranchCount<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            counting_q,
            some_failed,
            ok,
            count,
            at_max,
            below_max,
            ready,
            counts_q,
            fills_q
        );
        self.enabled.next = self.available.val() && self.option.val();
        self.ok.d.next = self.enabled.val() && self.correct_ahead.val();
        self.enter.next = self.push.val() && self.ok.q.val() && self.ready.q.val();
        // (`counts` is `counting_q || (ready && ok)`, and `ready` excludes `counting_q`.)
        self.counting.next = self.counts_q.q.val() && (self.counting_q.q.val() || self.push.val());
        self.map_push.next = self.push.val() && !self.counts_q.q.val();
        self.failed.next = self.counting_q.q.val() && self.push.val() && !self.ok.q.val();
        // `at_max` and `below_max` are set only while counting (a clear resets them with
        // `counting_q`), so `full` needs no `counting_q` term: one LUT of four inputs.
        self.full.next =
            self.at_max.q.val() || (self.below_max.q.val() && self.push.val() && self.ok.q.val());
        // One adder with the increment as its addend: the count register and the reported
        // value both take its sum (no multiplexer between the count and the count plus 1).
        self.step.next = 0.into();
        if self.counting_q.q.val() && self.push.val() && self.ok.q.val() {
            self.step.next = 1.into();
        }
        self.value.next = self.count.q.val() + self.step.val();
        // The next state, written from the inputs and flip-flops only (the terms of
        // `counting` spelled out; `value` reads them spelled out too, through `step`), not
        // from the signals above: `clear` comes from the decision, which reads `enter`, so
        // sharing them would put `clear` and `enter` in one always block, a loop for
        // Verilator (synthesis merges the repeated terms).
        self.counting_q.d.next = self.available.val()
            && !self.clear.val()
            && (self.counting_q.q.val()
                || (self.push.val() && self.ok.q.val() && self.ready.q.val()));
        // `ready` after the edge: not cleared, and either this branch is correctly predicted
        // and makes the map's 30th (the map held 29; a branch that enters counting finds 30,
        // so it clears `ready`), or there is no branch and `ready` keeps its value.
        self.ready_kept.next = self.ready.q.val();
        if self.push.val() {
            self.ready_kept.next = self.ok.q.val()
                && !self.counting_q.q.val()
                && !self.some_failed.q.val()
                && self.held_is_29.val();
        }
        self.ready.d.next = self.ready_kept.val() && self.available.val() && !self.clear.val();
        // `counts` and `fills` after the edge, from the state after it (`counting_q`,
        // `ready`, `ok`) written out as above.
        self.stays_counting.next =
            self.counting_q.q.val() || (self.push.val() && self.ok.q.val() && self.ready.q.val());
        self.correct_next.next = self.enabled.val() && self.correct_ahead.val();
        self.counts_q.d.next = self.available.val()
            && !self.clear.val()
            && (self.stays_counting.val() || (self.ready_kept.val() && self.correct_next.val()));
        self.fills_q.d.next = (self.held_is_30_ahead.val() && !self.counts_q.d.val())
            || (self.available.val()
                && !self.clear.val()
                && self.stays_counting.val()
                && !self.correct_next.val());
        self.counts.next = self.counts_q.q.val();
        self.fills.next = self.fills_q.q.val();
        self.some_failed.d.next = !self.clear.val()
            && (self.some_failed.q.val()
                || (self.push.val() && !self.counting_q.q.val() && !self.ok.q.val()));
        self.count.d.next = self.value.val();
        self.at_max.d.next = self.at_max.q.val();
        self.below_max.d.next = self.below_max.q.val();
        if self.counting_q.q.val() && self.push.val() && self.ok.q.val() {
            self.at_max.d.next = self.below_max.q.val();
            self.below_max.d.next = self.count.q.val() == self.max_less_two.val();
        }
        if self.clear.val() {
            self.count.d.next = 0.into();
            self.at_max.d.next = false;
            self.below_max.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::xorshift;
    use crate::verilog::{generate, lint, yosys_check};

    /// A simulation of a 4-bit count (it wraps often) with its clock.
    fn clocked() -> Simulation<BranchCount<4>> {
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<BranchCount<4>>| {
            x.clock.next = !x.clock.val()
        });
        sim
    }

    /// Runs `sim` on a 4-bit count with a predictor.
    fn run_4_bit(mut sim: Simulation<BranchCount<4>>) {
        let mut uut = BranchCount::<4>::new(true);
        uut.connect_all();
        sim.run(Box::new(uut), 100_000).unwrap();
    }

    #[test]
    fn branch_count_verilog() {
        let mut uut = BranchCount::<32>::new(true);
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("branch_count", &v).unwrap();
        lint("branch_count", &v).unwrap();
    }

    /// `full` as the count's value says (`sec:format0`: the count at its maximum, or one
    /// below and counting this branch), the reported `value` (the count with this branch)
    /// and the count after the edge, on a 4-bit count that wraps often, over random
    /// branches, predictions and clears.
    #[test]
    fn full_follows_the_count() {
        let mut sim = clocked();
        sim.add_testbench(move |mut sim: Sim<BranchCount<4>>| {
            let mut x = sim.init()?;
            x.option.next = true;
            let mut state = 0x2545_f491_u64;
            let mut fulls = 0;
            let mut after = None;
            let mut correct_before = false;
            for _ in 0..4000 {
                xorshift(&mut state);
                x.push.next = state & 3 != 0;
                x.correct_ahead.next = state & 0x1c != 0;
                x.held_is_29.next = state & 0x20 != 0;
                x.clear.next = state & 0x7c0 == 0;
                wait_clock_false!(sim, clock, x);
                let count = x.count.q.val().to_u64();
                // `ok` holds the prediction driven before the last edge.
                sim_assert_eq!(sim, x.ok.q.val(), correct_before, x);
                let inc = x.counting_q.q.val() && x.push.val() && correct_before;
                let expected = x.counting_q.q.val() && (count == 15 || (count == 14 && inc));
                sim_assert_eq!(sim, x.full.val(), expected, x);
                // The reported count: this branch's count included.
                let value = (count + u64::from(inc)) & 15;
                sim_assert_eq!(sim, x.value.val().to_u64(), value, x);
                fulls += usize::from(expected);
                // The count after the previous edge: 0 after a clear, else its `value`.
                if let Some(after) = after {
                    sim_assert_eq!(sim, count, after, x);
                }
                after = Some(if x.clear.val() { 0 } else { value });
                correct_before = x.correct_ahead.val();
                wait_clock_true!(sim, clock, x);
            }
            sim_assert!(sim, fulls > 50, x);
            sim.done(x)
        });
        run_4_bit(sim);
    }

    /// `counts` and `fills` (flip-flops formed a cycle ahead) against their meaning on the
    /// state after the edge: counting, or `ready` with a correct prediction; the map's 30
    /// with a branch that is not counted, or counting with a wrong prediction.
    #[test]
    fn counts_and_fills_follow_the_state() {
        let mut sim = clocked();
        sim.add_testbench(move |mut sim: Sim<BranchCount<4>>| {
            let mut x = sim.init()?;
            x.option.next = true;
            let mut state = 0x1b87_3593_u64;
            let mut held_30_before = false;
            let (mut counted, mut filled) = (0, 0);
            for _ in 0..4000 {
                xorshift(&mut state);
                x.push.next = state & 1 != 0;
                x.correct_ahead.next = state & 0x6 != 0;
                x.held_is_29.next = state & 0x18 != 0;
                x.held_is_30_ahead.next = state & 0x60 == 0x60;
                x.clear.next = state & 0x780 == 0;
                wait_clock_false!(sim, clock, x);
                let counting = x.counting_q.q.val();
                let ok = x.ok.q.val();
                let counts = counting || (x.ready.q.val() && ok);
                sim_assert_eq!(sim, x.counts.val(), counts, x);
                let fills = (held_30_before && !counts) || (counting && !ok);
                sim_assert_eq!(sim, x.fills.val(), fills, x);
                counted += usize::from(counts && !counting);
                filled += usize::from(fills);
                held_30_before = x.held_is_30_ahead.val();
                wait_clock_true!(sim, clock, x);
            }
            sim_assert!(sim, counted > 20 && filled > 100, x);
            sim.done(x)
        });
        run_4_bit(sim);
    }
}
