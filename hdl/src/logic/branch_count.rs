//! `BranchCount`: the count of correctly predicted branches of branch prediction mode
//! (`branchTrace.adoc`, `sec:branch-prediction`; `payload.adoc`, `sec:format0`): while
//! every branch since the last report was predicted correctly the branch map holds them;
//! at the 31st the map is dropped and only the count grows (format 0 `branch_count` is
//! the count minus 31) until a branch fails its prediction or an address is reported. The
//! model: `Encoder::record_branch` (`pbc`) and its `counting` state.

use crate::param::LocalParam;
use rust_hdl::prelude::*;

/// The predicted-branch count and its state flags. Combinational outputs for the
/// current cycle's decision; the state is registered here. Built without a predictor
/// (`bpred_size_p` 0, [`Default`]) it never counts, and synthesis removes it.
#[derive(LogicBlock)]
pub struct BranchCount {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The current instruction is a traced branch (in a deciding cycle).
    pub push: Signal<In, Bit>,
    /// Its prediction was correct.
    pub correct: Signal<In, Bit>,
    /// Run-time option `branch_prediction`: without it (or without a predictor) nothing is
    /// counted and the map holds every branch.
    pub option: Signal<In, Bit>,
    /// The branch map holds 30 branches before this cycle's.
    pub held_is_30: Signal<In, Bit>,
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
    /// The count reached its maximum, `branch_count` = 0xffff_ffff (an address is due).
    pub full: Signal<Out, Bit>,
    /// Format 0 `branch_count` after this cycle's branch.
    pub value: Signal<Out, Bits<32>>,
    counting_q: DFF<Bit>,
    some_failed: DFF<Bit>,
    count: DFF<Bits<32>>,
    inc: Signal<Local, Bit>,
    ok: Signal<Local, Bit>,
    at_max: Signal<Local, Bit>,
    below_max: Signal<Local, Bit>,
    available: Constant<Bit>,
    max_less_one: LocalParam<32, 0xffff_fffe>,
}

impl BranchCount {
    /// The count of an encoder with a predictor (`available`) or without.
    pub fn new(available: bool) -> Self {
        BranchCount {
            clock: Default::default(),
            push: Default::default(),
            correct: Default::default(),
            option: Default::default(),
            enabled: Default::default(),
            ok: Default::default(),
            held_is_30: Default::default(),
            clear: Default::default(),
            enter: Default::default(),
            counting: Default::default(),
            map_push: Default::default(),
            failed: Default::default(),
            full: Default::default(),
            value: Default::default(),
            counting_q: Default::default(),
            some_failed: Default::default(),
            count: Default::default(),
            inc: Default::default(),
            at_max: Default::default(),
            below_max: Default::default(),
            available: Constant::new(available),
            max_less_one: LocalParam::default(),
        }
    }
}

impl Default for BranchCount {
    /// Without a predictor.
    fn default() -> Self {
        BranchCount::new(false)
    }
}

impl Logic for BranchCount {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, counting_q, some_failed, count);
        self.enabled.next = self.available.val() && self.option.val();
        self.ok.next = self.enabled.val() && self.correct.val();
        self.enter.next = self.push.val()
            && !self.counting_q.q.val()
            && !self.some_failed.q.val()
            && self.ok.val()
            && self.held_is_30.val();
        self.counting.next = self.counting_q.q.val() || self.enter.val();
        self.map_push.next = self.push.val() && !self.counting.val();
        self.failed.next = self.counting_q.q.val() && self.push.val() && !self.ok.val();
        self.inc.next = self.counting_q.q.val() && self.push.val() && self.ok.val();
        self.at_max.next = self.count.q.val().all();
        self.below_max.next = self.count.q.val() == self.max_less_one.val();
        self.full.next = self.counting_q.q.val()
            && (self.at_max.val() || (self.below_max.val() && self.inc.val()));
        self.value.next = self.count.q.val();
        if self.inc.val() {
            self.value.next = self.count.q.val() + 1;
        }
        // The next state, written from the inputs and flip-flops only (the terms of
        // `counting`, `ok` and `value` spelled out), not from the signals above: `clear`
        // comes from the decision, which reads `enter`, so sharing them would put `clear`
        // and `enter` in one always block, a loop for Verilator (synthesis merges the
        // repeated terms).
        self.counting_q.d.next = self.available.val()
            && !self.clear.val()
            && (self.counting_q.q.val()
                || (self.push.val()
                    && !self.some_failed.q.val()
                    && self.option.val()
                    && self.correct.val()
                    && self.held_is_30.val()));
        self.some_failed.d.next = !self.clear.val()
            && (self.some_failed.q.val()
                || (self.push.val()
                    && !self.counting_q.q.val()
                    && !(self.available.val() && self.option.val() && self.correct.val())));
        self.count.d.next = self.count.q.val();
        if self.counting_q.q.val()
            && self.push.val()
            && self.available.val()
            && self.option.val()
            && self.correct.val()
        {
            self.count.d.next = self.count.q.val() + 1;
        }
        if self.clear.val() {
            self.count.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn branch_count_verilog() {
        let mut uut = BranchCount::new(true);
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("branch_count", &v).unwrap();
        lint("branch_count", &v).unwrap();
    }
}
