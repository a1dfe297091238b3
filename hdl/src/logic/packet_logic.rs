//! `PacketLogic`: the encoder's packet logic (`hdl/DESIGN.md`, cycle contract items 1-4):
//! the ingress port and window, qualification, trace enable / disable, the chart's decision
//! (`exampleAlgorithm.adoc`, figure `fig:algo`), branch map, resync counter, address
//! computation and the push / drop / recovery of the produced packets. Its outputs are the
//! packet field bundle `pkt0_*`, `pkt1_*` and `count` for the payload packer, as logical
//! field values (`payload.adoc`). The model: `etrace_model::encoder::Encoder`.

use super::address::AddressUnit;
use super::branch_map::BranchMap;
use super::control::TraceControl;
use super::decision::Decision;
use super::loss::LossControl;
use super::resync::{ResyncCounter, RESYNC_MAX_BITS};
use crate::ingress::IngressPort;
use crate::packer::{MapLength, TrapVariant, MAP_LENGTHS, TRAP_VARIANTS};
use crate::packet_kind::PacketKind;
use rust_hdl::prelude::*;

/// The packet logic of one encoder: `A` = `iaddress_width_p`, `E` = `ecause_width_p`,
/// `IT` = `itype_width_p` (3 or 4).
///
/// The packets produced in a cycle (0-2) are presented in the next cycle (`hdl/DESIGN.md`
/// item 4, the packet register): `count` of them, described by the bundles `pkt0_*` and,
/// when `count` is 2, `pkt1_*`; the payload packers work on these registers, not on the
/// decision. The second packet of a cycle is a format 3.2 context
/// packet (after a format 1 branch map) or the format 3.0 recovery sync (after the
/// trace-lost support packet), so `pkt1_*` has only the fields of those two formats; they
/// have the same values as in `pkt0_*`.
///
/// The ingress signals, trace enable, trigger and halted come one cycle ahead of `reset`
/// and the run-time options (`hdl/DESIGN.md` item 0): the ingress port registers the block
/// and trace control registers its outputs, so both act in the next cycle, with them.
#[derive(LogicBlock, Default)]
pub struct PacketLogic<const A: usize, const E: usize, const IT: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: trace disabled, nothing pending.
    pub reset: Signal<In, Bit>,
    /// `reset` one cycle ahead, for trace control (whose outputs are registered).
    pub reset_ahead: Signal<In, Bit>,
    /// `iretire` (`ingressPort.adoc`, `tab:single-ingress`).
    pub iretire: Signal<In, Bit>,
    /// `itype` (`tab:itype`, `IT` bits).
    pub itype: Signal<In, Bits<IT>>,
    /// `iaddr`.
    pub iaddr: Signal<In, Bits<A>>,
    /// `priv`.
    pub privilege: Signal<In, Bits<2>>,
    /// `cause`.
    pub cause: Signal<In, Bits<E>>,
    /// `tval`.
    pub tval: Signal<In, Bits<A>>,
    /// `context` (named `hart_context`: `context` is a SystemVerilog keyword).
    pub hart_context: Signal<In, Bits<1>>,
    /// `ctype`.
    pub ctype: Signal<In, Bits<1>>,
    /// `sijump`.
    pub sijump: Signal<In, Bit>,
    /// Trace enable (`hdl/DESIGN.md`, item 3).
    pub trace_enable: Signal<In, Bit>,
    /// `trigger[2:0]` (`tab:ingress-side-band`, `sec:trigger`): trace-on, trace-off,
    /// trace-notify.
    pub trigger: Signal<In, Bits<3>>,
    /// `halted` (`tab:ingress-side-band`).
    pub halted: Signal<In, Bit>,
    /// Run-time option `full_address` (`sec:full-address`).
    pub full_address: Signal<In, Bit>,
    /// Run-time option `implicit_exception` (`sec:implicit-exception`).
    pub implicit_exception: Signal<In, Bit>,
    /// Run-time option `sijump` (`sec:si-jump`).
    pub sijump_option: Signal<In, Bit>,
    /// Run-time option: te_inst packets between forced syncs (`sec:resync`), 0 = off;
    /// latched at trace enable.
    pub resync_max: Signal<In, Bits<RESYNC_MAX_BITS>>,
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
    /// Packet 0: which te_inst.
    pub pkt0_kind: Signal<Out, PacketKind>,
    /// Packet 0: format 3.0 / 3.1 `branch`.
    pub pkt0_branch: Signal<Out, Bit>,
    /// Packet 0: `privilege`.
    pub pkt0_privilege: Signal<Out, Bits<2>>,
    /// Packet 0: format 3.1 `ecause`.
    pub pkt0_ecause: Signal<Out, Bits<E>>,
    /// Packet 0: format 3.1 `interrupt`.
    pub pkt0_interrupt: Signal<Out, Bit>,
    /// Packet 0: format 3.1 `thaddr`.
    pub pkt0_thaddr: Signal<Out, Bit>,
    /// Packet 0: format 3.1 variant, one-hot (`packer::layout::TrapVariant`): whether the
    /// `address` field (not with `thaddr` under implicit exception,
    /// `sec:implicit-exception`) and `tval` (not for an interrupt) are sent.
    pub pkt0_trap_variant: Signal<Out, Bits<TRAP_VARIANTS>>,
    /// Packet 0: format 1 with address `branch_map` length, one-hot
    /// (`packer::layout::MapLength` of `branches`).
    pub pkt0_map_length: Signal<Out, Bits<MAP_LENGTHS>>,
    /// Packet 0: `address` (low `A - 1` bits; full or differential).
    pub pkt0_address: Signal<Out, Bits<A>>,
    /// Packet 0: format 3.1 `tval`.
    pub pkt0_tval: Signal<Out, Bits<A>>,
    /// Packet 0: `notify` (logical value).
    pub pkt0_notify: Signal<Out, Bit>,
    /// Packet 0: `updiscon` (logical value).
    pub pkt0_updiscon: Signal<Out, Bit>,
    /// Packet 0: `irreport` (logical value; always 0 without implicit return).
    pub pkt0_irreport: Signal<Out, Bit>,
    /// Packet 0: format 1 `branches`.
    pub pkt0_branches: Signal<Out, Bits<5>>,
    /// Packet 0: format 1 `branch_map` (bit 31 unused).
    pub pkt0_branch_map: Signal<Out, Bits<32>>,
    /// Packet 0: format 3.3 `ienable`.
    pub pkt0_ienable: Signal<Out, Bit>,
    /// Packet 0: format 3.3 `qual_status`.
    pub pkt0_qual_status: Signal<Out, Bits<2>>,
    /// Packet 0: format 3.3 `ioptions` (`IOptions::bits`; driven for every packet).
    pub pkt0_ioptions: Signal<Out, Bits<6>>,
    /// Packet 1: which te_inst.
    pub pkt1_kind: Signal<Out, PacketKind>,
    /// Packet 1: format 3.0 / 3.1 `branch`.
    pub pkt1_branch: Signal<Out, Bit>,
    /// Packet 1: `privilege`.
    pub pkt1_privilege: Signal<Out, Bits<2>>,
    /// Packet 1: `address` (low `A - 1` bits; full or differential).
    pub pkt1_address: Signal<Out, Bits<A>>,
    ingress: IngressPort<A, E, IT>,
    control: TraceControl,
    branch_map: BranchMap,
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
    reg_kind0: DFF<PacketKind>,
    reg_kind1: DFF<PacketKind>,
    reg_branch: DFF<Bit>,
    reg_privilege: DFF<Bits<2>>,
    reg_ecause: DFF<Bits<E>>,
    reg_interrupt: DFF<Bit>,
    reg_thaddr: DFF<Bit>,
    reg_trap_variant: DFF<Bits<TRAP_VARIANTS>>,
    reg_map_length: DFF<Bits<MAP_LENGTHS>>,
    trap_variant: TrapVariant,
    map_length_stay: MapLength,
    map_length_push: MapLength,
    reg_address: DFF<Bits<A>>,
    reg_tval: DFF<Bits<A>>,
    reg_notify: DFF<Bit>,
    reg_updiscon: DFF<Bit>,
    reg_irreport: DFF<Bit>,
    reg_branches: DFF<Bits<5>>,
    reg_branch_map: DFF<Bits<32>>,
    reg_ienable: DFF<Bit>,
    reg_qual_status: DFF<Bits<2>>,
    reg_ioptions: DFF<Bits<6>>,
    present: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    empty_now: Signal<Local, Bit>,
    held_is_29: Signal<Local, Bit>,
    recover: Signal<Local, Bit>,
    produced: Signal<Local, Bits<2>>,
    branch_value: Signal<Local, Bit>,
    privilege_value: Signal<Local, Bits<2>>,
    ecause_value: Signal<Local, Bits<E>>,
    interrupt_value: Signal<Local, Bit>,
    thaddr_value: Signal<Local, Bit>,
    address_value: Signal<Local, Bits<A>>,
    tval_value: Signal<Local, Bits<A>>,
    notify_value: Signal<Local, Bit>,
    updiscon_value: Signal<Local, Bit>,
    irreport_value: Signal<Local, Bit>,
    branches_value: Signal<Local, Bits<5>>,
    branch_map_value: Signal<Local, Bits<32>>,
    ioptions_value: Signal<Local, Bits<6>>,
    kind0_value: Signal<Local, PacketKind>,
    kind1_value: Signal<Local, PacketKind>,
    ienable_value: Signal<Local, Bit>,
    qual_status_value: Signal<Local, Bits<2>>,
    trap_interrupt: Signal<Local, Bit>,
    option_ie: Signal<Local, Bits<6>>,
    option_fa: Signal<Local, Bits<6>>,
    option_sj: Signal<Local, Bits<6>>,
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
            reg_kind0,
            reg_kind1,
            reg_branch,
            reg_privilege,
            reg_ecause,
            reg_interrupt,
            reg_thaddr,
            reg_trap_variant,
            reg_map_length,
            reg_address,
            reg_tval,
            reg_notify,
            reg_updiscon,
            reg_irreport,
            reg_branches,
            reg_branch_map,
            reg_ienable,
            reg_qual_status,
            reg_ioptions
        );
        self.ingress.clock.next = self.clock.val();
        self.control.clock.next = self.clock.val();
        self.address_unit.clock.next = self.clock.val();
        self.resync.clock.next = self.clock.val();

        // Ingress port and window.
        self.present.next = self.iretire.val() || self.itype.val().any();
        self.ingress.iretire.next = self.iretire.val();
        self.ingress.itype.next = self.itype.val();
        self.ingress.iaddr.next = self.iaddr.val();
        self.ingress.privilege.next = self.privilege.val();
        self.ingress.cause.next = self.cause.val();
        self.ingress.tval.next = self.tval.val();
        self.ingress.hart_context.next = self.hart_context.val();
        self.ingress.ctype.next = self.ctype.val();
        self.ingress.sijump.next = self.sijump.val();
        self.ingress.shift.next = self.control.shift.val();
        self.ingress.fill.next = self.control.fill.val();
        self.ingress.fill_valid.next = self.control.fill_valid.val();
        self.ingress.qualified.next = self.control.qualified.val();
        self.ingress.notify.next = self.control.notify.val();
        self.ingress.clear.next = self.control.enable_cycle.val();
        self.ingress.decide_ahead.next = self.control.decide_ahead.val();
        self.ingress.sijump_option.next = self.sijump_option.val();

        // Enable / disable and qualification.
        self.control.reset.next = self.reset_ahead.val();
        self.control.trace_enable.next = self.trace_enable.val();
        self.control.present.next = self.present.val();
        self.control.trigger.next = self.trigger.val();
        self.control.halted.next = self.halted.val();

        // Branch map: the current instruction's branch enters before the decision.
        self.branch_map.held_count.next = self.held_count.q.val();
        self.branch_map.held_map.next = self.held_map.q.val();
        if self.held_empty.q.val() {
            self.branch_map.held_count.next = 0.into();
            self.branch_map.held_map.next = 0.into();
        }
        self.push.next = self.ingress.key_push.val();
        self.branch_map.push.next = self.push.val();
        self.branch_map.not_taken.next = !self.ingress.curr_taken.val();

        // Recovery (`hdl/DESIGN.md` item 4): lost, 2 free entries, a decision for a traced
        // instruction that is not exception-only and does not report the trap of the
        // previous one (the recovery sync carries an address). Nothing is pushed in a cycle
        // that leaves the lost flag set, so while it is set the packet register is empty
        // and 2 free entries is a drained queue: one flip-flop instead of `queue_free`.
        self.recover.next =
            self.lost_flag.q.val() && self.queue_drained.val() && self.ingress.key_plain.val();

        // Decision.
        self.decision.finishing.next = self.control.finishing.val();
        self.decision.curr_valid.next = self.ingress.curr_valid.val();
        self.decision.key_support.next = self.ingress.key_support.val();
        self.decision.key_exc_after_exc.next = self.ingress.key_exc_after_exc.val();
        self.decision.key_exc_own.next = self.ingress.key_exc_own.val();
        self.decision.key_after_exc.next = self.ingress.key_after_exc.val();
        self.decision.key_sync.next = self.ingress.key_sync.val();
        self.decision.key_rest.next = self.ingress.key_rest.val();
        self.decision.key_prev_updiscon.next = self.ingress.key_prev_updiscon.val();
        self.decision.key_address_due.next = self.ingress.key_address_due.val();
        self.decision.key_next_ppccd.next = self.ingress.key_next_ppccd.val();
        self.decision.key_next_traced.next = self.ingress.key_next_is_traced.val();
        self.decision.key_next_format3.next = self.ingress.key_next_format3.val();
        self.decision.key_cci.next = self.ingress.key_cci.val();
        self.decision.have_branches.next = self.held_any.q.val() || self.push.val();
        self.decision.branch_map_full.next =
            self.held_is_31.q.val() || (self.held_is_30.q.val() && self.push.val());
        self.decision.prev_trap_reported.next = self.trap_reported.q.val();
        self.decision.resync_at_max.next = self.resync.at_max.val();
        self.decision.resync_exceeded.next = self.resync.exceeded.val();
        self.decision.resync_after_one.next = self.resync.exceeded_after_one.val();
        self.decision.recover.next = self.recover.val();
        self.decision.last_updiscon_target.next = self.updiscon_target.q.val();

        // Packets produced; push / drop.
        self.produced.next = self.decision.produced.val();
        if self.control.enable_cycle.val() {
            self.produced.next = 1.into();
        }
        self.loss.lost.next = self.lost_flag.q.val();
        self.loss.clear.next = self.control.enable_cycle.val();
        self.loss.queue_free.next = self.queue_free.val();
        self.loss.recover.next = self.recover.val();
        self.loss.produced.next = self.produced.val();
        self.lost_flag.d.next = self.loss.next_lost.val();
        self.reg_count.d.next = self.loss.count.val();
        if self.reset.val() {
            self.reg_count.d.next = 0.into();
        }
        self.lost.next = self.lost_flag.q.val();

        // Branch map state: emptied by a packet that reports it, and at trace enable.
        self.held_count.d.next = self.branch_map.branches.val();
        self.held_map.d.next = self.branch_map.map_bits.val();
        self.empty_now.next = self.control.enable_cycle.val() || self.decision.empties_map.val();
        self.held_empty.d.next = self.empty_now.val();
        // The flags of the count after this cycle (`branch_map.branches`, or 0 if emptied).
        // `!empty_now` is written into every assignment on purpose: one common clear after
        // the push mux was tried and lets synthesis put the decision behind the mux (ECP5
        // 130 -> 106 MHz).
        self.held_is_29.next = !self.held_empty.q.val() && (self.held_count.q.val() == 29);
        self.held_any.d.next = !self.empty_now.val() && (self.held_any.q.val() || self.push.val());
        self.held_is_30.d.next = !self.empty_now.val() && self.held_is_30.q.val();
        self.held_is_31.d.next = !self.empty_now.val() && self.held_is_31.q.val();
        if self.push.val() {
            self.held_is_30.d.next = !self.empty_now.val() && self.held_is_29.val();
            self.held_is_31.d.next = !self.empty_now.val() && self.held_is_30.q.val();
        }

        // Resync count: the trace-lost support packet is not counted.
        self.resync.clear.next = self.control.enable_cycle.val();
        self.resync.sync_sent.next = self.decision.sync_sent.val();
        self.resync.others.next = self.produced.val();
        self.resync.resync_max.next = self.resync_max.val();

        // Address field and last address; format 1 / 2 addresses may be differential.
        self.address_unit.clear.next = self.control.enable_cycle.val();
        self.address_unit.iaddr.next = self.ingress.curr_iaddr.val();
        self.address_unit.full_address.next = self.full_address.val();
        self.address_unit.update.next = self.decision.reports_address.val();
        self.address_unit.differential.next = self.decision.differential.val();

        // State flags of the chart.
        if self.control.decide.val() {
            self.trap_reported.d.next = self.decision.curr_trap_reported.val();
        }
        if self.decision.target_write.val() {
            self.updiscon_target.d.next = self.decision.updiscon_target.val();
        }
        if self.control.enable_cycle.val() {
            self.trap_reported.d.next = false;
            self.updiscon_target.d.next = false;
        }

        // Field values shared by both packets of the cycle.
        self.branch_value.next =
            !(self.ingress.curr_iretire.val() && self.ingress.curr_taken.val());
        self.privilege_value.next = self.ingress.curr_privilege.val();
        if self.decision.trap_in_prev.val() {
            self.ecause_value.next = self.ingress.prev_cause.val();
            self.trap_interrupt.next = self.ingress.prev_interrupt.val();
            self.tval_value.next = self.ingress.prev_tval.val();
        } else {
            self.ecause_value.next = self.ingress.curr_cause.val();
            self.trap_interrupt.next = self.ingress.curr_interrupt.val();
            self.tval_value.next = self.ingress.curr_tval.val();
        }
        if self.trap_interrupt.val() {
            self.tval_value.next = 0.into();
        }
        self.interrupt_value.next = self.trap_interrupt.val();
        self.thaddr_value.next = self.decision.thaddr.val();
        self.address_value.next = self.address_unit.address.val();
        self.notify_value.next = self.ingress.curr_notify.val();
        self.updiscon_value.next = self.decision.updiscon.val();
        self.irreport_value.next = false;
        self.branches_value.next = self.branch_map.branches.val();
        if self.decision.full_map.val() {
            self.branches_value.next = 0.into();
        }
        self.branch_map_value.next = self.branch_map.map_bits.val();
        // `ioptions` (`IOptions::bits`): bit 1 implicit_exception, bit 2 full_address,
        // bit 5 sijump.
        self.option_ie.next = 0.into();
        if self.implicit_exception.val() {
            self.option_ie.next = 2.into();
        }
        self.option_fa.next = 0.into();
        if self.full_address.val() {
            self.option_fa.next = 4.into();
        }
        self.option_sj.next = 0.into();
        if self.sijump_option.val() {
            self.option_sj.next = 32.into();
        }
        self.ioptions_value.next =
            self.option_ie.val() | self.option_fa.val() | self.option_sj.val();
        // Kinds and the support fields.
        self.kind0_value.next = self.decision.kind0.val();
        self.kind1_value.next = self.decision.kind1.val();
        self.ienable_value.next = self.decision.ienable.val();
        self.qual_status_value.next = self.decision.qual_status.val();
        if self.control.enable_cycle.val() {
            self.kind0_value.next = PacketKind::Support;
            self.ienable_value.next = true;
            self.qual_status_value.next = 0.into();
        } else if self.recover.val() {
            self.kind0_value.next = PacketKind::Support;
            self.ienable_value.next = true;
            self.qual_status_value.next = 2.into();
            self.kind1_value.next = self.decision.kind0.val();
        }

        // The packet register and the bundles it presents.
        self.reg_kind0.d.next = self.kind0_value.val();
        self.reg_kind1.d.next = self.kind1_value.val();
        self.reg_branch.d.next = self.branch_value.val();
        self.reg_privilege.d.next = self.privilege_value.val();
        self.reg_ecause.d.next = self.ecause_value.val();
        self.reg_interrupt.d.next = self.interrupt_value.val();
        self.reg_thaddr.d.next = self.thaddr_value.val();
        // The packer's variants, decoded before the register (`packer::layout`).
        self.trap_variant.with_address.next =
            !(self.thaddr_value.val() && self.implicit_exception.val());
        self.trap_variant.is_interrupt.next = self.interrupt_value.val();
        self.reg_trap_variant.d.next = self.trap_variant.variant.val();
        // The map length with and without this cycle's branch, from the held count (1 and
        // 31 when emptied: `branches` 1, or 0 read as 31); the push, which comes from the
        // decision, selects last.
        self.map_length_stay.branches.next = self.held_count.q.val();
        self.map_length_push.branches.next = self.held_count.q.val() + 1;
        if self.push.val() {
            self.reg_map_length.d.next = self.map_length_push.length.val();
            if self.held_empty.q.val() {
                self.reg_map_length.d.next = 16.into();
            }
        } else {
            self.reg_map_length.d.next = self.map_length_stay.length.val();
            if self.held_empty.q.val() {
                self.reg_map_length.d.next = 1.into();
            }
        }
        self.reg_address.d.next = self.address_value.val();
        self.reg_tval.d.next = self.tval_value.val();
        self.reg_notify.d.next = self.notify_value.val();
        self.reg_updiscon.d.next = self.updiscon_value.val();
        self.reg_irreport.d.next = self.irreport_value.val();
        self.reg_branches.d.next = self.branches_value.val();
        self.reg_branch_map.d.next = self.branch_map_value.val();
        self.reg_ienable.d.next = self.ienable_value.val();
        self.reg_qual_status.d.next = self.qual_status_value.val();
        self.reg_ioptions.d.next = self.ioptions_value.val();
        self.count.next = self.reg_count.q.val();
        self.pkt0_kind.next = self.reg_kind0.q.val();
        self.pkt1_kind.next = self.reg_kind1.q.val();
        self.pkt0_branch.next = self.reg_branch.q.val();
        self.pkt1_branch.next = self.reg_branch.q.val();
        self.pkt0_privilege.next = self.reg_privilege.q.val();
        self.pkt1_privilege.next = self.reg_privilege.q.val();
        self.pkt0_ecause.next = self.reg_ecause.q.val();
        self.pkt0_interrupt.next = self.reg_interrupt.q.val();
        self.pkt0_thaddr.next = self.reg_thaddr.q.val();
        self.pkt0_trap_variant.next = self.reg_trap_variant.q.val();
        self.pkt0_map_length.next = self.reg_map_length.q.val();
        self.pkt0_address.next = self.reg_address.q.val();
        self.pkt1_address.next = self.reg_address.q.val();
        self.pkt0_tval.next = self.reg_tval.q.val();
        self.pkt0_notify.next = self.reg_notify.q.val();
        self.pkt0_updiscon.next = self.reg_updiscon.q.val();
        self.pkt0_irreport.next = self.reg_irreport.q.val();
        self.pkt0_branches.next = self.reg_branches.q.val();
        self.pkt0_branch_map.next = self.reg_branch_map.q.val();
        self.pkt0_ienable.next = self.reg_ienable.q.val();
        self.pkt0_qual_status.next = self.reg_qual_status.q.val();
        self.pkt0_ioptions.next = self.reg_ioptions.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check, VerilogCheckError};

    /// Verilator's lint report without its UNOPTFLAT and UNUSEDPARAM warnings (the waivers
    /// of `scripts/check-verilog.sh`).
    ///
    /// rust-hdl emits one `always @(*)` per module, so a combinational sub-block whose
    /// outputs the parent reads and whose inputs the parent writes forms a loop at the
    /// granularity of always blocks, which Verilator reports as UNOPTFLAT (a simulation
    /// performance note, not a width or logic problem; the real signal paths are acyclic:
    /// every state is a register of this block). The packet register's `PacketKind`
    /// flip-flops are modules that declare every value of the enum as a localparam and use
    /// none (UNUSEDPARAM). Every other warning still fails.
    fn lint_with_check_verilog_waivers(name: &str, v: &str) {
        match lint(name, v) {
            Ok(()) => {}
            Err(VerilogCheckError::Lint { report, .. }) => {
                let others = report.lines().any(|l| {
                    (l.starts_with("%Warning")
                        && !l.starts_with("%Warning-UNOPTFLAT")
                        && !l.starts_with("%Warning-UNUSEDPARAM"))
                        || (l.starts_with("%Error") && !l.contains("Exiting due to"))
                });
                assert!(!others && report.contains("UNOPTFLAT"), "{report}");
            }
            Err(e) => panic!("{e}"),
        }
    }

    fn check<const A: usize, const E: usize, const IT: usize>(name: &str) {
        let mut uut = PacketLogic::<A, E, IT>::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check(name, &v).unwrap();
        lint_with_check_verilog_waivers(name, &v);
    }

    #[test]
    fn packet_logic_verilog_rv32() {
        check::<32, 5, 4>("packet_logic_rv32");
    }

    #[test]
    fn packet_logic_verilog_rv32_itype3() {
        check::<32, 5, 3>("packet_logic_rv32_itype3");
    }

    #[test]
    fn packet_logic_verilog_rv64() {
        check::<64, 6, 4>("packet_logic_rv64");
    }

    #[test]
    fn packet_logic_verilog_rv64_itype3() {
        check::<64, 6, 3>("packet_logic_rv64_itype3");
    }
}
