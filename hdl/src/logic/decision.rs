//! `Decision`: the packet decision of `exampleAlgorithm.adoc`, figure `fig:algo`, for the
//! current instruction, and the support packet when qualification ends (`payload.adoc`,
//! `sec:qual-status`). The model: `etrace_encoder::decision::decide` and
//! `Encoder::clock`.
//!
//! Combinational, on the registered window part of the chart ([`super::chart_key`]) and
//! the encoder's state flags. The keys are high only in a deciding cycle (the ingress port
//! registers them gated), so no action is taken in other cycles. Configuration of the
//! hardware: `ctype_width_p` = 1 (so only `ctype` 1, imprecise context, is reported: by a
//! format 3.2). With implicit return ([`super::return_stack::ReturnStack`]) an inferred
//! return is no uninferable discontinuity (the ingress port selects the keys for an
//! inferred `prev`, `top_hit` those of `curr`) and address packets carry
//! `irreport` (`sec:irxx`). With branch prediction
//! ([`super::branch_count::BranchCount`]) the branches are counted instead of mapped from
//! the 31st correct prediction on, and reported by format 0 packets (`sec:format0`).
//!
//! The decision feeds the encoder's state back to the next decision (branch map, resync
//! count, lost flag: `hdl/DESIGN.md` item 2), so its outputs are formed as few logic levels
//! from the flip-flops as the chart allows: first the conditions of one or two inputs of
//! state (branches waiting, map full, the lost flag with a drained queue), then the
//! chart's outcomes from them and the keys (each an AND of a key with some of them), and
//! the payload layout of the packet one-hot ([`crate::packer::layout`]).

use super::chart_key::ChartKeys;
use crate::packer::layout::{bit, one_hot, LAYOUTS};
use crate::param::LocalParam;
use rust_hdl::prelude::*;

/// The decision's LUT boundaries (`hdl/DESIGN.md`, "LUT boundaries and `top_hit` alone",
/// [`crate::lut_boundary`]): the state conditions that many outcomes share (`held` and
/// the outcomes `empties_map`, `two`, `none` as boundaries measured slower on the
/// ECP5), each ending a LUT, so that the outcomes and the state updates after them are
/// not mapped through terms shared across the chart.
pub const LUT_BOUNDARIES: &[&str] = &[
    "next_ppccd",
    "due",
    "full",
    "open",
    "rest_open",
    "cci_open",
    "quiet_open",
    "map_open",
];

/// Which packets the chart produces for the current instruction and how the encoder state
/// and the packet fields follow from the window and the state.
#[derive(LogicBlock, Default)]
pub struct Decision {
    /// The cycle that enables trace (the enable support packet; never a deciding cycle).
    pub enable: Signal<In, Bit>,
    /// The decision is one of the two after trace disable (`Encoder::finish`).
    pub finishing: Signal<In, Bit>,
    /// `curr` holds a record (traced or not).
    pub curr_valid: Signal<In, Bit>,
    /// The chart key of the window, registered (0 but in a deciding cycle).
    pub keys: Signal<In, ChartKeys>,
    /// Branches are held in the branch map (the current instruction's not counted). While
    /// counting the map is empty.
    pub held_any: Signal<In, Bit>,
    /// A branch in this cycle is counted, not mapped (`BranchCount::counts`, a flip-flop).
    pub counts: Signal<In, Bit>,
    /// Correctly predicted branches are counted (`pbc` >= 31, `sec:format0`), this
    /// instruction's included.
    pub counting: Signal<In, Bit>,
    /// The count of correctly predicted branches reached its maximum (an address is due).
    pub count_full: Signal<In, Bit>,
    /// A branch in this cycle fills the map (it holds 30, the branch is mapped) or fails
    /// the count (`rpt_br`): a flip-flop.
    pub map_fills: Signal<In, Bit>,
    /// The branch map holds 31 branches (full).
    pub held_is_31: Signal<In, Bit>,
    /// The trap of `prev` was reported already with `thaddr` = 0.
    pub prev_trap_reported: Signal<In, Bit>,
    /// Resync count at its maximum.
    pub resync_at_max: Signal<In, Bit>,
    /// Resync count above its maximum.
    pub resync_exceeded: Signal<In, Bit>,
    /// The lost flag (`hdl/DESIGN.md` item 4).
    pub lost: Signal<In, Bit>,
    /// Nothing is queued or on its way to the queue (2 free entries while lost).
    pub queue_drained: Signal<In, Bit>,
    /// The last address packet reported an uninferable discontinuity's target.
    pub last_updiscon_target: Signal<In, Bit>,
    /// Run-time option `implicit_exception` (`sec:implicit-exception`).
    pub implicit_exception: Signal<In, Bit>,
    /// `prev` signals an interrupt.
    pub prev_interrupt: Signal<In, Bit>,
    /// `curr` signals an interrupt.
    pub curr_interrupt: Signal<In, Bit>,
    /// The return stack's top matches `next`'s address (`sec:implicit-return`): a
    /// return in `curr` with `next` valid is inferred, and the keys `next_ppccd_ir` /
    /// `next_format3_ir` apply (they fold in whether `curr` is such a return). Only read
    /// for the chart's `rest` (`plain` keys: the other keys give packets without
    /// `irreport`).
    pub top_hit: Signal<In, Bit>,
    /// `prev` is a return that failed the return stack's prediction.
    pub prev_mispredicted: Signal<In, Bit>,
    /// The return stack asks for the depth before a format 3 (`sec:irxx`).
    pub must_report: Signal<In, Bit>,
    /// Formats 0 / 1 / 2 `irreport` (`sec:irxx`) of an address packet.
    pub irreport: Signal<Out, Bit>,
    /// The chart produces no packet (no decision in this cycle, or one without a packet).
    pub none: Signal<Out, Bit>,
    /// The chart produces two packets: a format 1 without address and a format 3.2.
    pub two: Signal<Out, Bit>,
    /// The resync count restarts: a format 3.0 / 3.1 is sent (a sync, a trap, the recovery
    /// sync), or trace is enabled.
    pub restart: Signal<Out, Bit>,
    /// Recovery after lost packets: the trace-lost support packet and a sync reporting
    /// `curr` are pushed (`hdl/DESIGN.md` item 4).
    pub recover: Signal<Out, Bit>,
    /// The packet (or trace enable) empties the branch map.
    pub empties_map: Signal<Out, Bit>,
    /// Branches are held in the branch map, this instruction's included, before the
    /// packet's clear (0 when the map is dropped because counting starts): the map is
    /// not empty after the cycle if this holds and `empties_map` does not.
    pub held: Signal<Out, Bit>,
    /// The packet reports `curr`'s address: it becomes the last address.
    pub reports_address: Signal<Out, Bit>,
    /// The first packet's payload layout, one-hot (`packer::layout::bit`), but for a
    /// format 1 with address: see `map_address`.
    pub layout: Signal<Out, Bits<LAYOUTS>>,
    /// The first packet is a format 1 with address (`packer::layout::bit::BRANCH31` ...
    /// `BRANCH1`): its layout bit is the branch map length's, which the packet logic adds
    /// to `layout` (the decision does not read the length, so that its logic does not
    /// wait for the branch map's adder, and Verilator sees no loop through it).
    pub map_address: Signal<Out, Bit>,
    /// Format 3.1 `thaddr`.
    pub thaddr: Signal<Out, Bit>,
    /// The trap reported is the one of `prev` (else `curr`).
    pub trap_in_prev: Signal<Out, Bit>,
    /// Format 3.1 `interrupt` (not named `interrupt`, which Verilator's lint reserves).
    pub is_interrupt: Signal<Out, Bit>,
    /// The trap-reported flag after a decision in this cycle.
    pub next_trap_reported: Signal<Out, Bit>,
    /// The flag "the last address packet reported an uninferable discontinuity's target"
    /// after this cycle (cleared by trace enable).
    pub next_updiscon_target: Signal<Out, Bit>,
    /// `updiscon` field (`sec:updiscon`).
    pub updiscon: Signal<Out, Bit>,
    /// Support packet `ienable`.
    pub ienable: Signal<Out, Bit>,
    /// Support packet `qual_status`.
    pub qual_status: Signal<Out, Bits<2>>,
    // `next` ppccd / reported by a format 3 after the return stack's inference of `curr`
    // (one LUT of three flip-flops).
    next_ppccd: Signal<Local, Bit>,
    next_format3: Signal<Local, Bit>,
    // One or two inputs of state.
    map_push: Signal<Local, Bit>,
    due: Signal<Local, Bit>,
    full: Signal<Local, Bit>,
    drained_lost: Signal<Local, Bit>,
    open: Signal<Local, Bit>,
    idle: Signal<Local, Bit>,
    rest_open: Signal<Local, Bit>,
    quiet_open: Signal<Local, Bit>,
    cci_open: Signal<Local, Bit>,
    map_open: Signal<Local, Bit>,
    updiscon_open: Signal<Local, Bit>,
    state_sync: Signal<Local, Bit>,
    rest_closed: Signal<Local, Bit>,
    early_empties: Signal<Local, Bit>,
    // The chart's outcomes.
    trap_action: Signal<Local, Bit>,
    sync_action: Signal<Local, Bit>,
    address_action: Signal<Local, Bit>,
    map_action: Signal<Local, Bit>,
    context_action: Signal<Local, Bit>,
    silent: Signal<Local, Bit>,
    with_address: Signal<Local, Bit>,
    // The layout bits (each a vector with at most that bit set).
    l_support: Signal<Local, Bits<LAYOUTS>>,
    l_sync: Signal<Local, Bits<LAYOUTS>>,
    l_trap: Signal<Local, Bits<LAYOUTS>>,
    l_trap_address: Signal<Local, Bits<LAYOUTS>>,
    l_trap_address_tval: Signal<Local, Bits<LAYOUTS>>,
    l_trap_tval: Signal<Local, Bits<LAYOUTS>>,
    l_context: Signal<Local, Bits<LAYOUTS>>,
    l_address: Signal<Local, Bits<LAYOUTS>>,
    l_branch_map: Signal<Local, Bits<LAYOUTS>>,
    l_count: Signal<Local, Bits<LAYOUTS>>,
    l_count_only: Signal<Local, Bits<LAYOUTS>>,
    // The layouts (`packer::layout::bit`) one-hot, and the first format 1 with address.
    support_layout: LocalParam<LAYOUTS, { one_hot(bit::SUPPORT) }>,
    sync_layout: LocalParam<LAYOUTS, { one_hot(bit::SYNC) }>,
    trap_layout: LocalParam<LAYOUTS, { one_hot(bit::TRAP) }>,
    trap_address_layout: LocalParam<LAYOUTS, { one_hot(bit::TRAP_ADDRESS) }>,
    trap_address_tval_layout: LocalParam<LAYOUTS, { one_hot(bit::TRAP_ADDRESS_TVAL) }>,
    trap_tval_layout: LocalParam<LAYOUTS, { one_hot(bit::TRAP_TVAL) }>,
    context_layout: LocalParam<LAYOUTS, { one_hot(bit::CONTEXT) }>,
    address_layout: LocalParam<LAYOUTS, { one_hot(bit::ADDRESS) }>,
    branch_map_layout: LocalParam<LAYOUTS, { one_hot(bit::BRANCH_MAP) }>,
    count_layout: LocalParam<LAYOUTS, { one_hot(bit::BRANCH_COUNT) }>,
    count_only_layout: LocalParam<LAYOUTS, { one_hot(bit::BRANCH_COUNT_ONLY) }>,
}

impl Logic for Decision {
    #[hdl_gen]
    fn update(&mut self) {
        // State conditions, one LUT each: branches waiting (with this one) and an address
        // due for them (resync count at its maximum, or `next` ppccd) or for the full
        // branch count; the map full after this branch, or a failed prediction while
        // counting (`rpt_br`); the lost flag with a drained queue (recovery is possible).
        self.next_ppccd.next = self.keys.val().next_ppccd;
        self.next_format3.next = self.keys.val().next_format3;
        if self.top_hit.val() {
            self.next_ppccd.next = self.keys.val().next_ppccd_ir;
            self.next_format3.next = self.keys.val().next_format3_ir;
        }
        // (`held_any` is 0 while counting, so `counts` with a branch drops the map; three
        // flip-flops.)
        self.map_push.next = self.keys.val().push && !self.counts.val();
        self.held.next = (self.held_any.val() && !(self.keys.val().push && self.counts.val()))
            || self.map_push.val();
        self.due.next = (self.held.val() && (self.resync_at_max.val() || self.next_ppccd.val()))
            || self.count_full.val();
        self.full.next = self.held_is_31.val() || (self.keys.val().push && self.map_fills.val());
        self.drained_lost.next = self.lost.val() && self.queue_drained.val();
        self.open.next = !self.resync_exceeded.val() && !self.drained_lost.val();
        self.idle.next = !self.keys.val().support
            && !self.keys.val().trap_or_sync
            && !self.keys.val().rest
            && !self.enable.val();
        self.rest_open.next = self.keys.val().rest && self.open.val();
        self.quiet_open.next = self.keys.val().rest_quiet && self.open.val();
        self.cci_open.next = self.keys.val().rest_cci && self.open.val();
        self.map_open.next = self.keys.val().rest_map && self.open.val();
        self.updiscon_open.next = self.keys.val().rest_updiscon && self.open.val();
        self.state_sync.next =
            (self.keys.val().after_exc && self.prev_trap_reported.val()) || self.keys.val().sync;
        self.rest_closed.next = self.keys.val().rest && !self.open.val();
        // Recovery (`hdl/DESIGN.md` item 4): lost, 2 free entries (nothing is pushed in a
        // cycle that leaves the lost flag set, so while it is set the packet register is
        // empty and 2 free entries is a drained queue), a decision for a traced instruction
        // that is not exception-only and does not report the trap of the previous one. It
        // reports `curr` with a sync whatever the chart says.
        self.recover.next = self.drained_lost.val() && self.keys.val().plain;

        // The chart (`fig:algo`): each outcome from the keys and the conditions above.
        self.trap_action.next =
            self.keys.val().trap || (self.keys.val().after_exc && !self.prev_trap_reported.val());
        self.sync_action.next =
            (self.state_sync.val() || self.rest_closed.val()) && !self.recover.val();
        self.address_action.next =
            self.rest_open.val() && (self.keys.val().rest_address || self.due.val());
        self.map_action.next = self.map_open.val() && !self.due.val() && self.full.val();
        self.context_action.next = self.cci_open.val() && !self.due.val() && !self.full.val();
        self.silent.next = self.quiet_open.val() && !self.due.val() && !self.full.val();
        self.none.next = self.idle.val() || self.silent.val();
        self.two.next = self.cci_open.val() && !self.due.val() && self.full.val();
        self.restart.next =
            self.enable.val() || self.keys.val().trap_or_sync || self.rest_closed.val();
        // The map's clear: the keys that clear it whatever the state says (`rest_address`
        // is `rest` but `rest_map`; `rest_map` closed is the recovery sync), one LUT beside
        // `due`, and then `due` or `full` in one LUT (`hdl/DESIGN.md`, "The decision's
        // `held` and `full` from flip-flops").
        self.early_empties.next = self.enable.val()
            || self.keys.val().reports
            || (self.keys.val().rest_map && !self.open.val());
        self.empties_map.next = self.early_empties.val()
            || (self.keys.val().rest && (self.due.val() || self.full.val()));
        self.reports_address.next = self.keys.val().reports
            || self.rest_closed.val()
            || (self.keys.val().rest && self.due.val());

        // Fields and state flags.
        self.thaddr.next = self.keys.val().after_exc && !self.prev_trap_reported.val();
        self.trap_in_prev.next = (self.keys.val().exc_after_exc || self.keys.val().after_exc)
            && !self.prev_trap_reported.val();
        self.is_interrupt.next = self.curr_interrupt.val();
        if self.trap_in_prev.val() {
            self.is_interrupt.next = self.prev_interrupt.val();
        }
        self.next_trap_reported.next = (self.keys.val().exc_after_exc
            && self.prev_trap_reported.val())
            || self.keys.val().exc_own;
        // Every packet of the chart but the support packets rewrites the flag: with 1 for
        // an address packet reporting the target of `prev`'s discontinuity.
        self.next_updiscon_target.next = (!self.enable.val()
            && !self.keys.val().rest
            && !self.keys.val().trap_or_sync
            && self.last_updiscon_target.val())
            || self.updiscon_open.val()
            || (self.silent.val() && self.last_updiscon_target.val());
        self.updiscon.next = self.updiscon_open.val()
            && (self.next_format3.val()
                || (self.keys.val().next_traced && self.resync_at_max.val()));
        // `irreport`: the target of a return that failed the prediction, or the last
        // packet before a format 3 when the return stack asks for it (the model's
        // `Encoder::implicit_return_report`).
        self.irreport.next = (self.updiscon_open.val() && self.prev_mispredicted.val())
            || (self.must_report.val()
                && (!self.keys.val().next_traced
                    || self.next_format3.val()
                    || self.resync_at_max.val()));
        self.ienable.next =
            !(self.keys.val().support && self.finishing.val() && !self.curr_valid.val());
        self.qual_status.next = 0.into();
        if self.keys.val().support {
            if self.last_updiscon_target.val() {
                self.qual_status.next = 3.into();
            } else {
                self.qual_status.next = 1.into();
            }
        }
        if self.recover.val() {
            self.qual_status.next = 2.into();
        }

        // The layout (`packer::layout::bit`): on recovery the trace-lost support packet
        // goes first, the recovery sync second.
        self.with_address.next = !(self.thaddr.val() && self.implicit_exception.val());
        self.l_support.next = 0.into();
        if self.keys.val().support || self.enable.val() || self.recover.val() {
            self.l_support.next = self.support_layout.val();
        }
        self.l_sync.next = 0.into();
        if self.sync_action.val() {
            self.l_sync.next = self.sync_layout.val();
        }
        self.l_trap.next = 0.into();
        if self.trap_action.val() && !self.with_address.val() && self.is_interrupt.val() {
            self.l_trap.next = self.trap_layout.val();
        }
        self.l_trap_address.next = 0.into();
        if self.trap_action.val() && self.with_address.val() && self.is_interrupt.val() {
            self.l_trap_address.next = self.trap_address_layout.val();
        }
        self.l_trap_address_tval.next = 0.into();
        if self.trap_action.val() && self.with_address.val() && !self.is_interrupt.val() {
            self.l_trap_address_tval.next = self.trap_address_tval_layout.val();
        }
        self.l_trap_tval.next = 0.into();
        if self.trap_action.val() && !self.with_address.val() && !self.is_interrupt.val() {
            self.l_trap_tval.next = self.trap_tval_layout.val();
        }
        self.l_context.next = 0.into();
        if self.context_action.val() {
            self.l_context.next = self.context_layout.val();
        }
        self.l_address.next = 0.into();
        if self.address_action.val() && !self.held.val() && !self.counting.val() {
            self.l_address.next = self.address_layout.val();
        }
        self.l_count.next = 0.into();
        if self.address_action.val() && self.counting.val() {
            self.l_count.next = self.count_layout.val();
        }
        self.map_address.next = self.address_action.val() && self.held.val();
        self.l_branch_map.next = 0.into();
        if self.map_action.val() && !self.counting.val() {
            self.l_branch_map.next = self.branch_map_layout.val();
        }
        self.l_count_only.next = 0.into();
        if self.map_action.val() && self.counting.val() {
            self.l_count_only.next = self.count_only_layout.val();
        }
        self.layout.next = self.l_support.val()
            | self.l_sync.val()
            | self.l_trap.val()
            | self.l_trap_address.val()
            | self.l_trap_address_tval.val()
            | self.l_trap_tval.val()
            | self.l_context.val()
            | self.l_address.val()
            | self.l_branch_map.val()
            | self.l_count.val()
            | self.l_count_only.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn decision_verilog() {
        let mut uut = Decision::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("decision", &v).unwrap();
        lint("decision", &v).unwrap();
    }
}
