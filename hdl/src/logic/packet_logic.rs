//! `PacketLogic`: the encoder's packet logic (`hdl/DESIGN.md`, cycle contract items 1-4):
//! the ingress port and window, qualification, trace enable / disable, the chart's decision
//! (`exampleAlgorithm.adoc`, figure `fig:algo`), branch map, resync counter, address
//! computation, branch prediction (`sec:branch-prediction`: predictor and predicted-branch
//! count), implicit return (`sec:implicit-return`: the return stack) and the push / drop /
//! recovery of the produced packets. Its outputs are the packet field bundles `pkt0`,
//! `pkt1` and `count` for the payload packers: the payload layout one-hot and the field
//! values as the packet carries them (`payload.adoc`). The model:
//! `etrace_encoder::Encoder`.

use super::address::AddressUnit;
use super::branch_count::BranchCount;
use super::branch_map::BranchMap;
use super::control::TraceControl;
use super::decision::Decision;
use super::loss::LossControl;
use super::predictor::{Predictor, BPRED_MAX_BITS};
use super::resync::ResyncCounter;
use super::return_stack::{ReturnStack, IRDEPTH_BITS};
use crate::ingress::inputs::{Control, Ingress, Options};
use crate::ingress::IngressPort;
use crate::packer::layout::{bit, one_hot, MAP_LENGTHS};
use crate::packer::{MapLength, PacketFieldsSource, ZeroExtend, LAYOUTS};
use crate::param::LocalParam;
use rust_hdl::prelude::*;

/// The packet logic of one encoder: `A` = `iaddress_width_p`, `E` = `ecause_width_p`,
/// `IT` = `itype_width_p` (3 or 4).
///
/// The packets produced in a cycle (0-2) are presented in the next cycle (`hdl/DESIGN.md`
/// item 4, the packet register): `count` of them, described by the bundles `pkt0` and,
/// when `count` is 2, `pkt1`; the payload packers work on these registers, not on the
/// decision. The second packet of a cycle is a format 3.2 context packet (after a format 1
/// branch map) or the format 3.0 recovery sync (after the trace-lost support packet), so
/// `pkt1` carries only the fields of those two formats, with the same values as `pkt0`;
/// its other fields are constant 0 (synthesis prunes the second packer's logic of the
/// other formats).
///
/// The ingress block, trace enable, trigger and halted come one cycle ahead of `reset`
/// and the run-time options (`hdl/DESIGN.md` item 0): the ingress port registers the block
/// and trace control registers its outputs, so both act in the next cycle, with them.
/// `options.resync_max` comes one cycle ahead of the other options: the resync counter
/// registers it.
#[derive(LogicBlock, Default)]
pub struct PacketLogic<const A: usize, const E: usize, const IT: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: trace disabled, nothing pending.
    pub reset: Signal<In, Bit>,
    /// `reset` one cycle ahead, for trace control (whose outputs are registered).
    pub reset_ahead: Signal<In, Bit>,
    /// The ingress block (`ingressPort.adoc`, `tab:single-ingress`).
    pub block: Ingress<A, E, IT>,
    /// Trace control: trace enable (`hdl/DESIGN.md`, item 3), `trigger`, `halted`.
    pub control: Control,
    /// The run-time options; `resync_max` (latched at trace enable) one cycle ahead.
    pub options: Options,
    /// Free entries of the packet queue at the start of the cycle (0-2): 2 minus the
    /// packets queued and those in this block's packet register.
    pub queue_free: Signal<In, Bits<2>>,
    /// No packet is queued or in the queue's input register at the start of the cycle
    /// (`queue_free` is 2 when, in addition, this block's packet register is empty).
    pub queue_drained: Signal<In, Bit>,
    /// Packets produced in the previous cycle and pushed into the queue in this one (0-2).
    pub count: Signal<Out, Bits<2>>,
    /// Packets were dropped and the trace-lost recovery has not happened yet.
    pub lost: Signal<Out, Bit>,
    /// Packet 0 (`count` >= 1).
    pub pkt0: PacketFieldsSource<A, E>,
    /// Packet 1 (`count` = 2): a format 3.2 context packet or the format 3.0 recovery
    /// sync; the fields of the other formats are 0.
    pub pkt1: PacketFieldsSource<A, E>,
    ingress: IngressPort<A, E, IT>,
    trace_control: TraceControl,
    branch_map: BranchMap,
    map_length: MapLength,
    x_map_length: ZeroExtend<MAP_LENGTHS, LAYOUTS>,
    predictor: Predictor,
    branch_count: BranchCount<32>,
    return_stack: ReturnStack<A>,
    resync: ResyncCounter,
    address_unit: AddressUnit<A>,
    decision: Decision,
    loss: LossControl,
    // State of the chart (registers here: the decision reads and updates them).
    // The branch map as last updated, and whether a packet emptied it since (the empty
    // flag is applied when the map is read, so the decision drives one flip-flop, not the
    // clear of 37).
    held_count: DFF<Bits<5>>,
    held_map: DFF<Bits<32>>,
    held_empty: DFF<Bit>,
    // The held count as the decision needs it, in flip-flops (so the decision does not wait
    // for the count's adder and compare): above 0, 30, 31 (after any emptying).
    held_any: DFF<Bit>,
    held_is_30: DFF<Bit>,
    held_is_31: DFF<Bit>,
    lost_flag: DFF<Bit>,
    trap_reported: DFF<Bit>,
    updiscon_target: DFF<Bit>,
    // The packet register: the bundle of the packets produced in this cycle.
    reg_count: DFF<Bits<2>>,
    reg_layout0: DFF<Bits<LAYOUTS>>,
    reg_pkt1_sync: DFF<Bit>,
    reg_branch: DFF<Bit>,
    reg_privilege: DFF<Bits<2>>,
    reg_ecause: DFF<Bits<E>>,
    reg_interrupt: DFF<Bit>,
    reg_thaddr: DFF<Bit>,
    reg_address: DFF<Bits<A>>,
    reg_tval: DFF<Bits<A>>,
    reg_notify: DFF<Bit>,
    reg_notify_updiscon: DFF<Bit>,
    reg_branches: DFF<Bits<5>>,
    reg_branch_map: DFF<Bits<32>>,
    reg_branch_count: DFF<Bits<32>>,
    reg_branch_fail: DFF<Bit>,
    reg_ienable: DFF<Bit>,
    reg_qual_status: DFF<Bits<2>>,
    reg_ioptions: DFF<Bits<6>>,
    reg_irreport: DFF<Bit>,
    reg_irdepth: DFF<Bits<IRDEPTH_BITS>>,
    present: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    held_is_29: Signal<Local, Bit>,
    // `held_is_30` / `31` after the cycle if the packet does not empty the map.
    kept_30: Signal<Local, Bit>,
    kept_31: Signal<Local, Bit>,
    empties: Signal<Local, Bit>,
    option_ie: Signal<Local, Bits<6>>,
    option_fa: Signal<Local, Bits<6>>,
    option_sj: Signal<Local, Bits<6>>,
    option_bp: Signal<Local, Bits<6>>,
    option_ir: Signal<Local, Bits<6>>,
    // The layouts of packet 1 (`packer::layout::bit`).
    context_layout: LocalParam<LAYOUTS, { one_hot(bit::CONTEXT) }>,
    sync_layout: LocalParam<LAYOUTS, { one_hot(bit::SYNC) }>,
    branch31_bit: LocalParam<4, { bit::BRANCH31 as u64 }>,
}

impl<const A: usize, const E: usize, const IT: usize> PacketLogic<A, E, IT> {
    /// The packet logic with a predictor of 2^`bpred_size` entries (`bpred_size_p`; 0:
    /// none, the `branch_prediction` option is ignored) and a return stack of
    /// 2^`return_stack_size` entries (`return_stack_size_p`; 0: none, the
    /// `implicit_return` option is ignored); with `predictor_fault` (test only), every
    /// prediction is inverted, with `return_stack_fault` every pushed address is wrong.
    pub fn new(
        bpred_size: u8,
        predictor_fault: bool,
        return_stack_size: u8,
        return_stack_fault: bool,
    ) -> Self {
        PacketLogic {
            predictor: Predictor::new(bpred_size, predictor_fault),
            branch_count: BranchCount::new(bpred_size > 0),
            return_stack: ReturnStack::new(return_stack_size, return_stack_fault),
            ..Default::default()
        }
    }
}

impl<const A: usize, const E: usize, const IT: usize> Logic for PacketLogic<A, E, IT> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            held_count,
            held_map,
            held_empty,
            held_any,
            held_is_30,
            held_is_31,
            lost_flag,
            trap_reported,
            updiscon_target,
            reg_count,
            reg_layout0,
            reg_pkt1_sync,
            reg_branch,
            reg_privilege,
            reg_ecause,
            reg_interrupt,
            reg_thaddr,
            reg_address,
            reg_tval,
            reg_notify,
            reg_notify_updiscon,
            reg_branches,
            reg_branch_map,
            reg_branch_count,
            reg_branch_fail,
            reg_ienable,
            reg_qual_status,
            reg_ioptions,
            reg_irreport,
            reg_irdepth
        );
        self.ingress.clock.next = self.clock.val();
        self.trace_control.clock.next = self.clock.val();
        self.address_unit.clock.next = self.clock.val();
        self.resync.clock.next = self.clock.val();
        self.predictor.clock.next = self.clock.val();
        self.branch_count.clock.next = self.clock.val();
        self.return_stack.clock.next = self.clock.val();

        // Ingress port and window.
        self.present.next = self.block.iretire.val() || self.block.itype.val().any();
        Ingress::<A, E, IT>::link(&mut self.block, &mut self.ingress.block);
        self.ingress.shift.next = self.trace_control.shift.val();
        self.ingress.fill.next = self.trace_control.fill.val();
        self.ingress.fill_valid.next = self.trace_control.fill_valid.val();
        self.ingress.fill_ahead.next = self.trace_control.fill_ahead.val();
        self.ingress.qualified.next = self.trace_control.qualified.val();
        self.ingress.notify.next = self.trace_control.notify.val();
        self.ingress.clear.next = self.trace_control.enable_cycle.val();
        self.ingress.decide_ahead.next = self.trace_control.decide_ahead.val();
        self.ingress.sijump_option.next = self.options.sijump_option.val();
        self.ingress.prev_inferred.next = self.return_stack.prev_inferred.val();

        // Enable / disable and qualification.
        self.trace_control.reset.next = self.reset_ahead.val();
        self.trace_control.trace_enable.next = self.control.trace_enable.val();
        self.trace_control.present.next = self.present.val();
        self.trace_control.trigger.next = self.control.trigger.val();
        self.trace_control.halted.next = self.control.halted.val();

        // Branch map: the current instruction's branch enters before the decision.
        self.branch_map.held_count.next = self.held_count.q.val();
        self.branch_map.held_map.next = self.held_map.q.val();
        if self.held_empty.q.val() {
            self.branch_map.held_count.next = 0.into();
            self.branch_map.held_map.next = 0.into();
        }
        // Branch prediction: the predictor restarts with every sync (and trace enable);
        // from the 31st correct prediction on the branches are counted, not mapped.
        self.predictor.index_address.next =
            self.ingress.curr_iaddr.val().get_bits::<BPRED_MAX_BITS>(1);
        self.predictor.next_index_address.next = self.ingress.next_index_address.val();
        self.predictor.ahead_word_address.next = self.ingress.next_word_address_ahead.val();
        self.predictor.shift.next = self.trace_control.shift.val();
        self.predictor.update.next = self.ingress.keys.val().push;
        self.predictor.taken.next = self.ingress.curr_taken.val();
        self.predictor.taken_ahead.next = self.ingress.curr_taken_ahead.val();
        self.predictor.restart.next = self.decision.restart.val();
        self.branch_count.push.next = self.ingress.keys.val().push;
        self.branch_count.correct_ahead.next = self.predictor.correct_ahead.val();
        self.branch_count.option.next = self.options.branch_prediction.val();
        self.branch_count.clear.next = self.decision.empties_map.val();
        self.push.next = self.branch_count.map_push.val();
        self.branch_map.push.next = self.push.val();
        self.branch_map.not_taken.next = !self.ingress.curr_taken.val();
        self.map_length.held.next = self.branch_map.held_count.val();
        self.map_length.push.next = self.push.val();

        // Implicit return: the return stack follows `curr`'s calls and returns, and
        // restarts with every sync (and trace enable), as the predictor.
        self.return_stack.option.next = self.options.implicit_return.val();
        self.return_stack.decide.next = self.trace_control.decide.val();
        self.return_stack.update.next =
            self.ingress.keys.val().plain || self.ingress.keys.val().after_exc;
        self.return_stack.call.next = self.ingress.curr_call.val();
        self.return_stack.ret.next = self.ingress.curr_return.val();
        self.return_stack.branch.next = self.ingress.keys.val().push;
        self.return_stack.link.next = self.ingress.curr_link.val();
        self.return_stack.next_valid.next = self.ingress.next_valid.val();
        self.return_stack.shift.next = self.trace_control.shift.val();
        self.return_stack.next_iaddr.next = self.ingress.next_iaddr.val();
        self.return_stack.incoming_iaddr.next = self.ingress.incoming_iaddr.val();
        self.return_stack.restart.next = self.decision.restart.val();

        // Decision.
        self.decision.enable.next = self.trace_control.enable_cycle.val();
        self.decision.finishing.next = self.trace_control.finishing.val();
        self.decision.curr_valid.next = self.ingress.curr_valid.val();
        self.decision.keys.next = self.ingress.keys.val();
        self.decision.held_any.next = self.held_any.q.val();
        self.decision.counts.next = self.branch_count.counts.val();
        self.decision.counting.next = self.branch_count.counting.val();
        self.decision.count_full.next = self.branch_count.full.val();
        self.decision.map_fills.next = self.branch_count.fills.val();
        self.decision.held_is_31.next = self.held_is_31.q.val();
        self.decision.prev_trap_reported.next = self.trap_reported.q.val();
        self.decision.resync_at_max.next = self.resync.at_max.val();
        self.decision.resync_exceeded.next = self.resync.exceeded.val();
        self.decision.lost.next = self.lost_flag.q.val();
        self.decision.queue_drained.next = self.queue_drained.val();
        self.decision.last_updiscon_target.next = self.updiscon_target.q.val();
        self.decision.implicit_exception.next = self.options.implicit_exception.val();
        self.decision.prev_interrupt.next = self.ingress.prev_interrupt.val();
        self.decision.curr_interrupt.next = self.ingress.curr_interrupt.val();
        self.decision.top_hit.next = self.return_stack.hit.val();
        self.decision.prev_mispredicted.next = self.return_stack.prev_mispredicted.val();
        self.decision.must_report.next = self.return_stack.must_report.val();

        // Push / drop.
        self.loss.lost.next = self.lost_flag.q.val();
        self.loss.enable.next = self.trace_control.enable_cycle.val();
        self.loss.free_one.next = self.queue_free.val().any();
        self.loss.free_two.next = self.queue_free.val().get_bit(1);
        self.loss.recover.next = self.decision.recover.val();
        self.loss.none.next = self.decision.none.val();
        self.loss.two.next = self.decision.two.val();
        self.lost_flag.d.next = self.loss.next_lost.val();
        self.reg_count.d.next = self.loss.count.val();
        if self.reset.val() {
            self.reg_count.d.next = 0.into();
        }
        self.lost.next = self.lost_flag.q.val();

        // Branch map state: emptied by a packet that reports it, at trace enable, and when
        // counting starts.
        self.held_count.d.next = self.branch_map.branches.val();
        self.held_map.d.next = self.branch_map.map_bits.val();
        self.empties.next = self.decision.empties_map.val() || self.branch_count.enter.val();
        self.held_empty.d.next = self.empties.val();
        // The flags of the count after this cycle (`branch_map.branches`, or 0 if emptied):
        // the decision's clear last, in one LUT after it. The map holds a branch after the
        // cycle if the decision's `held` says so and the packet does not empty it; 30 and
        // 31 follow the push (no push when counting starts, then the map holds 30, not 31).
        self.held_is_29.next = !self.held_empty.q.val() && (self.held_count.q.val() == 29);
        self.branch_count.held_is_29.next = self.held_is_29.val();
        self.held_any.d.next = self.decision.held.val() && !self.decision.empties_map.val();
        self.kept_30.next = self.held_is_30.q.val() && !self.branch_count.enter.val();
        self.kept_31.next = self.held_is_31.q.val();
        if self.push.val() {
            self.kept_30.next = self.held_is_29.val();
            self.kept_31.next = self.held_is_30.q.val();
        }
        self.held_is_30.d.next = self.kept_30.val() && !self.decision.empties_map.val();
        self.held_is_31.d.next = self.kept_31.val() && !self.decision.empties_map.val();
        self.branch_count.held_is_30_ahead.next = self.held_is_30.d.val();

        // Resync count: the trace-lost support packet is not counted.
        self.resync.clear.next = self.trace_control.enable_cycle.val();
        self.resync.restart.next = self.decision.restart.val();
        self.resync.none.next = self.decision.none.val();
        self.resync.two.next = self.decision.two.val();
        self.resync.resync_max_ahead.next = self.options.resync_max.val();

        // Address field and last address; format 1 / 2 addresses may be differential.
        self.address_unit.clear.next = self.trace_control.enable_cycle.val();
        self.address_unit.iaddr.next = self.ingress.curr_iaddr.val();
        self.address_unit.full_address.next = self.options.full_address.val();
        self.address_unit.update.next = self.decision.reports_address.val();

        // State flags of the chart.
        if self.trace_control.decide.val() {
            self.trap_reported.d.next = self.decision.next_trap_reported.val();
        }
        if self.trace_control.enable_cycle.val() {
            self.trap_reported.d.next = false;
        }
        self.updiscon_target.d.next = self.decision.next_updiscon_target.val();

        // The packet register.
        // A format 1 with address: the layout bit of the branch map's length
        // (`packer::layout::map_length_bit`), added after the decision.
        self.x_map_length.narrow.next = self.map_length.length.val();
        self.reg_layout0.d.next = self.decision.layout.val();
        if self.decision.map_address.val() {
            self.reg_layout0.d.next = self.decision.layout.val()
                | (self.x_map_length.wide.val() << self.branch31_bit.val());
        }
        self.reg_pkt1_sync.d.next = self.decision.recover.val();
        self.reg_branch.d.next =
            !(self.ingress.curr_iretire.val() && self.ingress.curr_taken.val());
        self.reg_privilege.d.next = self.ingress.curr_privilege.val();
        if self.decision.trap_in_prev.val() {
            self.reg_ecause.d.next = self.ingress.prev_cause.val();
            self.reg_tval.d.next = self.ingress.prev_tval.val();
        } else {
            self.reg_ecause.d.next = self.ingress.curr_cause.val();
            self.reg_tval.d.next = self.ingress.curr_tval.val();
        }
        self.reg_interrupt.d.next = self.decision.is_interrupt.val();
        self.reg_thaddr.d.next = self.decision.thaddr.val();
        self.reg_address.d.next = self.address_unit.address.val();
        // Formats 1 / 2 send `notify` relative to the address field's top bit and
        // `updiscon` relative to the sent `notify`: both are formed after the register,
        // with the address field, from `notify` and `notify XOR updiscon`.
        self.reg_notify.d.next = self.ingress.curr_notify.val();
        self.reg_notify_updiscon.d.next =
            self.ingress.curr_notify.val() ^ self.decision.updiscon.val();
        self.reg_branches.d.next = self.branch_map.branches.val();
        self.reg_branch_map.d.next = self.branch_map.map_bits.val();
        self.reg_branch_count.d.next = self.branch_count.value.val();
        self.reg_branch_fail.d.next = self.branch_count.failed.val();
        self.reg_ienable.d.next = self.decision.ienable.val();
        self.reg_qual_status.d.next = self.decision.qual_status.val();
        self.reg_irreport.d.next = self.decision.irreport.val();
        self.reg_irdepth.d.next = self.return_stack.depth.val();
        // `ioptions` (`IOptions::bits`): bit 0 implicit_return, bit 1 implicit_exception,
        // bit 2 full_address, bit 4 branch_prediction, bit 5 sijump.
        self.option_ie.next = 0.into();
        if self.options.implicit_exception.val() {
            self.option_ie.next = 2.into();
        }
        self.option_fa.next = 0.into();
        if self.options.full_address.val() {
            self.option_fa.next = 4.into();
        }
        self.option_sj.next = 0.into();
        if self.options.sijump_option.val() {
            self.option_sj.next = 32.into();
        }
        self.option_bp.next = 0.into();
        if self.branch_count.enabled.val() {
            self.option_bp.next = 16.into();
        }
        self.option_ir.next = 0.into();
        if self.return_stack.enabled.val() {
            self.option_ir.next = 1.into();
        }
        self.reg_ioptions.d.next = self.option_ie.val()
            | self.option_fa.val()
            | self.option_sj.val()
            | self.option_bp.val()
            | self.option_ir.val();

        self.count.next = self.reg_count.q.val();
        self.pkt0.layout.next = self.reg_layout0.q.val();
        self.pkt0.branch.next = self.reg_branch.q.val();
        self.pkt0.privilege.next = self.reg_privilege.q.val();
        self.pkt0.ecause.next = self.reg_ecause.q.val();
        self.pkt0.is_interrupt.next = self.reg_interrupt.q.val();
        self.pkt0.thaddr.next = self.reg_thaddr.q.val();
        self.pkt0.address.next = self.reg_address.q.val();
        self.pkt0.address_f12.next = self.address_unit.address_f12.val();
        self.pkt0.tval.next = self.reg_tval.q.val();
        self.pkt0.notify_bit.next =
            self.reg_notify.q.val() ^ self.address_unit.address_f12_msb.val();
        self.pkt0.updiscon_bit.next =
            self.reg_notify_updiscon.q.val() ^ self.address_unit.address_f12_msb.val();
        self.pkt0.branches.next = self.reg_branches.q.val();
        self.pkt0.branch_map.next = self.reg_branch_map.q.val();
        self.pkt0.branch_count.next = self.reg_branch_count.q.val();
        self.pkt0.branch_fail.next = self.reg_branch_fail.q.val();
        self.pkt0.ienable.next = self.reg_ienable.q.val();
        self.pkt0.qual_status.next = self.reg_qual_status.q.val();
        self.pkt0.ioptions.next = self.reg_ioptions.q.val();
        self.pkt0.irreport.next = self.reg_irreport.q.val();
        self.pkt0.irdepth.next = self.reg_irdepth.q.val();
        // Packet 1: a context packet (after a branch map) or the recovery sync (after the
        // trace-lost support packet), with the fields of packet 0 those formats carry.
        self.pkt1.layout.next = self.context_layout.val();
        if self.reg_pkt1_sync.q.val() {
            self.pkt1.layout.next = self.sync_layout.val();
        }
        self.pkt1.branch.next = self.reg_branch.q.val();
        self.pkt1.privilege.next = self.reg_privilege.q.val();
        self.pkt1.address.next = self.reg_address.q.val();
        self.pkt1.ecause.next = 0.into();
        self.pkt1.is_interrupt.next = false;
        self.pkt1.thaddr.next = false;
        self.pkt1.address_f12.next = 0.into();
        self.pkt1.tval.next = 0.into();
        self.pkt1.notify_bit.next = false;
        self.pkt1.updiscon_bit.next = false;
        self.pkt1.branches.next = 0.into();
        self.pkt1.branch_map.next = 0.into();
        self.pkt1.branch_count.next = 0.into();
        self.pkt1.branch_fail.next = false;
        self.pkt1.ienable.next = false;
        self.pkt1.qual_status.next = 0.into();
        self.pkt1.ioptions.next = 0.into();
        self.pkt1.irreport.next = false;
        self.pkt1.irdepth.next = 0.into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::verilog::{generate, lint, yosys_check};

    fn check(config: Config) {
        let name = format!("packet_logic_{}", config.name());
        let v = crate::with_config!(config, [A, E, IT, P] => {
            let mut uut = PacketLogic::<A, E, IT>::default();
            uut.connect_all();
            generate(&uut)
        });
        yosys_check(&name, &v).unwrap();
        lint(&name, &v).unwrap();
    }

    #[test]
    fn packet_logic_verilog_rv32() {
        check(Config::Rv32);
    }

    #[test]
    fn packet_logic_verilog_rv32_itype3() {
        check(Config::Rv32Itype3);
    }

    #[test]
    fn packet_logic_verilog_rv64() {
        check(Config::Rv64);
    }

    #[test]
    fn packet_logic_verilog_rv64_itype3() {
        check(Config::Rv64Itype3);
    }
}
