//! `Decision`: the packet decision of `exampleAlgorithm.adoc`, figure `fig:algo`, for the
//! current instruction, and the support packet when qualification ends (`payload.adoc`,
//! `sec:qual-status`). The model: `etrace_model::encoder::decision::decide` and
//! `Encoder::clock`.
//!
//! Combinational, on the registered window part of the chart ([`super::chart_key`]) and
//! the encoder's state: so the decision starts from flip-flops and is a few logic levels
//! deep. The keys are high only in a deciding cycle (the ingress port registers them
//! gated), so no action is taken in other cycles. Configuration of the hardware: no
//! branch prediction, no implicit return, `ctype_width_p` = 1 (so only `ctype` 1,
//! imprecise context, is reported: by a format 3.2).

use crate::packet_kind::PacketKind;
use rust_hdl::prelude::*;

/// Which packets the chart produces for the current instruction (0, 1 or 2) and how their
/// fields and the encoder state follow from the window and the state.
#[derive(LogicBlock, Default)]
pub struct Decision {
    /// The decision is one of the two after trace disable (`Encoder::finish`).
    pub finishing: Signal<In, Bit>,
    /// `curr` holds a record (traced or not).
    pub curr_valid: Signal<In, Bit>,
    /// Chart key: the support packet of the end of qualification.
    pub key_support: Signal<In, Bit>,
    /// Chart key: `curr` exception-only after an exception.
    pub key_exc_after_exc: Signal<In, Bit>,
    /// Chart key: `curr` exception-only, reported with its own trap.
    pub key_exc_own: Signal<In, Bit>,
    /// Chart key: `prev` an exception, `curr` not exception-only.
    pub key_after_exc: Signal<In, Bit>,
    /// Chart key: a sync for a privilege / context change or an untraced `prev`.
    pub key_sync: Signal<In, Bit>,
    /// Chart key: the rest of the chart, decided by the state.
    pub key_rest: Signal<In, Bit>,
    /// Chart key: `prev` is an uninferable discontinuity.
    pub key_prev_updiscon: Signal<In, Bit>,
    /// Chart key: an address packet is due whatever the branch map holds.
    pub key_address_due: Signal<In, Bit>,
    /// Chart key: `next` `ppccd`.
    pub key_next_ppccd: Signal<In, Bit>,
    /// Chart key: `next` traced.
    pub key_next_traced: Signal<In, Bit>,
    /// Chart key: `next` will be reported by a format 3.
    pub key_next_format3: Signal<In, Bit>,
    /// Chart key: `cci`.
    pub key_cci: Signal<In, Bit>,
    /// Branches are waiting, the current instruction's included.
    pub have_branches: Signal<In, Bit>,
    /// The branch map is full.
    pub branch_map_full: Signal<In, Bit>,
    /// The trap of `prev` was reported already with `thaddr` = 0.
    pub prev_trap_reported: Signal<In, Bit>,
    /// Resync count at its maximum.
    pub resync_at_max: Signal<In, Bit>,
    /// Resync count above its maximum.
    pub resync_exceeded: Signal<In, Bit>,
    /// One more packet would exceed the resync maximum.
    pub resync_after_one: Signal<In, Bit>,
    /// Recovery after lost packets: report `curr` with a sync (`hdl/DESIGN.md` item 4).
    pub recover: Signal<In, Bit>,
    /// The last address packet reported an uninferable discontinuity's target.
    pub last_updiscon_target: Signal<In, Bit>,
    /// Packets produced (0-2).
    pub produced: Signal<Out, Bits<2>>,
    /// First packet.
    pub kind0: Signal<Out, PacketKind>,
    /// Second packet (only format 3.2 after a format 1 without address).
    pub kind1: Signal<Out, PacketKind>,
    /// Format 3.1 `thaddr`.
    pub thaddr: Signal<Out, Bit>,
    /// The trap reported is the one of `prev` (else `curr`).
    pub trap_in_prev: Signal<Out, Bit>,
    /// The trap of `curr` is reported now with `thaddr` = 0.
    pub curr_trap_reported: Signal<Out, Bit>,
    /// The packet reports `curr`'s address: it becomes the last address.
    pub reports_address: Signal<Out, Bit>,
    /// The packet is a format 1 / 2 with an address (differential when allowed).
    pub differential: Signal<Out, Bit>,
    /// The first packet is a format 1 without address (a full branch map): `branches` 0.
    pub full_map: Signal<Out, Bit>,
    /// The packet empties the branch map (every packet but the support and context ones).
    pub empties_map: Signal<Out, Bit>,
    /// The packet is a format 3.0 / 3.1: the resync count restarts.
    pub sync_sent: Signal<Out, Bit>,
    /// `updiscon` field (`sec:updiscon`).
    pub updiscon: Signal<Out, Bit>,
    /// Support packet `ienable`.
    pub ienable: Signal<Out, Bit>,
    /// Support packet `qual_status`.
    pub qual_status: Signal<Out, Bits<2>>,
    /// Write `last_updiscon_target` with `updiscon_target`.
    pub target_write: Signal<Out, Bit>,
    /// The address packet reports the target of `prev`'s uninferable discontinuity.
    pub updiscon_target: Signal<Out, Bit>,
    support_action: Signal<Local, Bit>,
    trap_action: Signal<Local, Bit>,
    sync_action: Signal<Local, Bit>,
    rest_open: Signal<Local, Bit>,
    address_cause: Signal<Local, Bit>,
    address_action: Signal<Local, Bit>,
    map_action: Signal<Local, Bit>,
    context_action: Signal<Local, Bit>,
}

impl Logic for Decision {
    #[hdl_gen]
    fn update(&mut self) {
        // The chart (`fig:algo`): each action in terms of the key and the state.
        self.support_action.next = self.key_support.val();
        self.trap_action.next = self.key_exc_after_exc.val()
            || self.key_exc_own.val()
            || (self.key_after_exc.val() && !self.prev_trap_reported.val());
        self.sync_action.next = (self.key_after_exc.val() && self.prev_trap_reported.val())
            || self.key_sync.val()
            || (self.key_rest.val() && self.resync_exceeded.val());
        self.rest_open.next = self.key_rest.val() && !self.resync_exceeded.val();
        self.address_cause.next = self.key_prev_updiscon.val()
            || self.key_address_due.val()
            || (self.have_branches.val()
                && (self.resync_at_max.val() || self.key_next_ppccd.val()));
        self.address_action.next = self.rest_open.val() && self.address_cause.val();
        self.map_action.next =
            self.rest_open.val() && !self.address_cause.val() && self.branch_map_full.val();
        self.context_action.next = self.rest_open.val()
            && !self.address_cause.val()
            && !self.branch_map_full.val()
            && self.key_cci.val();

        // Packets and their kinds.
        self.produced.next = 0.into();
        if self.support_action.val()
            || self.trap_action.val()
            || self.sync_action.val()
            || self.address_action.val()
            || self.map_action.val()
            || self.context_action.val()
        {
            self.produced.next = 1.into();
        }
        if self.map_action.val() && self.key_cci.val() {
            self.produced.next = 2.into();
        }
        self.kind0.next = PacketKind::Support;
        if self.trap_action.val() {
            self.kind0.next = PacketKind::Trap;
        }
        if self.sync_action.val() {
            self.kind0.next = PacketKind::Sync;
        }
        if self.address_action.val() {
            if self.have_branches.val() {
                self.kind0.next = PacketKind::BranchAddress;
            } else {
                self.kind0.next = PacketKind::Address;
            }
        }
        if self.map_action.val() {
            self.kind0.next = PacketKind::BranchMap;
        }
        if self.context_action.val() {
            self.kind0.next = PacketKind::Context;
        }
        self.kind1.next = PacketKind::Context;
        self.full_map.next = self.map_action.val();
        self.differential.next = self.address_action.val();
        self.sync_sent.next = self.trap_action.val() || self.sync_action.val();
        self.empties_map.next = self.trap_action.val()
            || self.sync_action.val()
            || self.address_action.val()
            || self.map_action.val();

        // Fields and state flags.
        self.thaddr.next = self.key_after_exc.val() && !self.prev_trap_reported.val();
        self.trap_in_prev.next = (self.key_exc_after_exc.val() || self.key_after_exc.val())
            && !self.prev_trap_reported.val();
        self.curr_trap_reported.next = (self.key_exc_after_exc.val()
            && self.prev_trap_reported.val())
            || self.key_exc_own.val();
        self.reports_address.next =
            self.trap_action.val() || self.sync_action.val() || self.address_action.val();
        self.updiscon_target.next = self.rest_open.val() && self.key_prev_updiscon.val();
        self.updiscon.next = self.updiscon_target.val()
            && (self.key_next_format3.val()
                || (self.key_next_traced.val() && self.resync_after_one.val()));
        self.ienable.next = true;
        self.qual_status.next = 0.into();
        if self.support_action.val() {
            self.ienable.next = !self.finishing.val() || self.curr_valid.val();
            if self.last_updiscon_target.val() {
                self.qual_status.next = 3.into();
            } else {
                self.qual_status.next = 1.into();
            }
        }
        // Every packet of the chart (not the support packets) rewrites the flag.
        self.target_write.next = self.trap_action.val()
            || self.sync_action.val()
            || self.address_action.val()
            || self.map_action.val()
            || self.context_action.val();

        // Recovery (`hdl/DESIGN.md` item 4) reports `curr` with a sync whatever the state
        // says: the chart above is formed without it and `recover` (late: it comes from the
        // queue's free entries) selects last. `produced` stays the chart's: on recovery
        // the loss control pushes 2 packets whatever it says, and the resync counter
        // restarts (`sync_sent`) whatever it counts.
        if self.recover.val() {
            self.kind0.next = PacketKind::Sync;
            self.full_map.next = false;
            self.sync_sent.next = true;
            self.reports_address.next = true;
            self.differential.next = false;
            self.empties_map.next = true;
            self.updiscon.next = false;
            self.updiscon_target.next = false;
            self.target_write.next = true;
        }
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
