//! `Decision`: the packet decision of `exampleAlgorithm.adoc`, figure `fig:algo`, for the
//! current instruction, and the support packet when qualification ends (`payload.adoc`,
//! `sec:qual-status`). The model: `etrace_model::encoder::decision::decide` and
//! `Encoder::clock`.
//!
//! Combinational. Configuration of the hardware: no branch prediction, no implicit return,
//! `ctype_width_p` = 1 (so only `ctype` 1, imprecise context, is reported: by a format 3.2).

use crate::packet_kind::PacketKind;
use rust_hdl::prelude::*;

/// Which packets the chart produces for the current instruction (0, 1 or 2) and how their
/// fields and the encoder state follow from the window.
#[derive(LogicBlock, Default)]
pub struct Decision {
    /// A window shift happened at the last edge: decide now.
    pub decide: Signal<In, Bit>,
    /// The decision is one of the two after trace disable (`Encoder::finish`).
    pub finishing: Signal<In, Bit>,
    /// Run-time option `sijump` (`sec:si-jump`).
    pub sijump_option: Signal<In, Bit>,
    /// `prev` is traced.
    pub prev_traced: Signal<In, Bit>,
    /// `prev` `iretire`.
    pub prev_iretire: Signal<In, Bit>,
    /// `prev` signals a trap.
    pub prev_trap: Signal<In, Bit>,
    /// `prev` `itype` is an uninferable discontinuity.
    pub prev_uninferable: Signal<In, Bit>,
    /// `prev` `priv`.
    pub prev_privilege: Signal<In, Bits<2>>,
    /// `prev` `context`.
    pub prev_context: Signal<In, Bits<1>>,
    /// `prev` `sijump`.
    pub prev_sijump: Signal<In, Bit>,
    /// `curr` holds a record.
    pub curr_valid: Signal<In, Bit>,
    /// `curr` is traced.
    pub curr_traced: Signal<In, Bit>,
    /// `curr` trace-notify.
    pub curr_notify: Signal<In, Bit>,
    /// `curr` `iretire`.
    pub curr_iretire: Signal<In, Bit>,
    /// `curr` signals a trap.
    pub curr_trap: Signal<In, Bit>,
    /// `curr` `itype` is an uninferable discontinuity.
    pub curr_uninferable: Signal<In, Bit>,
    /// `curr` `priv`.
    pub curr_privilege: Signal<In, Bits<2>>,
    /// `curr` `context`.
    pub curr_context: Signal<In, Bits<1>>,
    /// `curr` `ctype`.
    pub curr_ctype: Signal<In, Bits<1>>,
    /// `curr` `sijump`.
    pub curr_sijump: Signal<In, Bit>,
    /// `next` is traced.
    pub next_traced: Signal<In, Bit>,
    /// `next` `iretire`.
    pub next_iretire: Signal<In, Bit>,
    /// `next` signals a trap.
    pub next_trap: Signal<In, Bit>,
    /// `next` `priv`.
    pub next_privilege: Signal<In, Bits<2>>,
    /// `next` `context`.
    pub next_context: Signal<In, Bits<1>>,
    /// Branches waiting, with the current instruction's.
    pub branches: Signal<In, Bits<5>>,
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
    prev_exception: Signal<Local, Bit>,
    prev_updiscon: Signal<Local, Bit>,
    curr_updiscon: Signal<Local, Bit>,
    curr_ppccd: Signal<Local, Bit>,
    next_exc_only: Signal<Local, Bit>,
    next_ppccd: Signal<Local, Bit>,
    next_is_format3: Signal<Local, Bit>,
    have_branches: Signal<Local, Bit>,
    er_n: Signal<Local, Bit>,
    curr_exc_only: Signal<Local, Bit>,
    cci: Signal<Local, Bit>,
    trap_action: Signal<Local, Bit>,
    sync_action: Signal<Local, Bit>,
    address_action: Signal<Local, Bit>,
}

impl Logic for Decision {
    #[hdl_gen]
    fn update(&mut self) {
        // Slot predicates (`exampleAlgorithm.adoc`, "Key to the chart").
        self.prev_exception.next = self.prev_traced.val() && self.prev_trap.val();
        self.prev_updiscon.next = self.prev_traced.val()
            && self.prev_iretire.val()
            && self.prev_uninferable.val()
            && !(self.sijump_option.val() && self.prev_sijump.val());
        self.curr_exc_only.next = self.curr_trap.val() && !self.curr_iretire.val();
        self.curr_updiscon.next = self.curr_iretire.val()
            && self.curr_uninferable.val()
            && !(self.sijump_option.val() && self.curr_sijump.val());
        // ppccd: privilege change, or context change with a discontinuity (ctype < 2).
        self.curr_ppccd.next = self.prev_traced.val()
            && ((self.curr_privilege.val() != self.prev_privilege.val())
                || ((self.curr_context.val() != self.prev_context.val())
                    && self.prev_updiscon.val()));
        self.next_exc_only.next =
            self.next_traced.val() && self.next_trap.val() && !self.next_iretire.val();
        self.next_ppccd.next = self.next_traced.val()
            && ((self.next_privilege.val() != self.curr_privilege.val())
                || ((self.next_context.val() != self.curr_context.val())
                    && self.curr_updiscon.val()));
        self.next_is_format3.next = self.next_traced.val()
            && (self.next_exc_only.val() || self.next_ppccd.val() || self.resync_after_one.val());
        self.have_branches.next = self.branches.val().any();
        self.er_n.next =
            (self.curr_iretire.val() && self.curr_trap.val()) || self.curr_notify.val();
        self.cci.next =
            (self.curr_context.val() != self.prev_context.val()) && self.curr_ctype.val().any();

        // Defaults: nothing produced.
        self.produced.next = 0.into();
        self.kind0.next = PacketKind::Support;
        self.kind1.next = PacketKind::Context;
        self.thaddr.next = false;
        self.trap_in_prev.next = false;
        self.curr_trap_reported.next = false;
        self.ienable.next = true;
        self.qual_status.next = 0.into();
        self.updiscon_target.next = false;
        self.trap_action.next = false;
        self.sync_action.next = false;
        self.address_action.next = false;

        if self.decide.val() {
            if !self.curr_traced.val() {
                if self.prev_traced.val() {
                    // Qualification ended (or trace disabled) after `prev`.
                    self.produced.next = 1.into();
                    self.ienable.next = !self.finishing.val() || self.curr_valid.val();
                    if self.last_updiscon_target.val() {
                        self.qual_status.next = 3.into();
                    } else {
                        self.qual_status.next = 1.into();
                    }
                }
            } else if self.curr_exc_only.val() {
                if self.prev_exception.val() {
                    self.trap_action.next = true;
                    if self.prev_trap_reported.val() {
                        self.curr_trap_reported.next = true;
                    } else {
                        self.trap_in_prev.next = true;
                    }
                } else if !self.prev_traced.val()
                    || self.prev_updiscon.val()
                    || !self.next_traced.val()
                {
                    self.trap_action.next = true;
                    self.curr_trap_reported.next = true;
                }
            } else if self.prev_exception.val() {
                if self.prev_trap_reported.val() {
                    self.sync_action.next = true;
                } else {
                    self.trap_action.next = true;
                    self.thaddr.next = true;
                    self.trap_in_prev.next = true;
                }
            } else if !self.prev_traced.val()
                || self.curr_ppccd.val()
                || self.resync_exceeded.val()
                || self.recover.val()
            {
                self.sync_action.next = true;
            } else if self.prev_updiscon.val() {
                self.address_action.next = true;
                self.updiscon_target.next = true;
            } else if (self.resync_at_max.val() && self.have_branches.val())
                || self.er_n.val()
                || self.next_exc_only.val()
                || (self.have_branches.val() && self.next_ppccd.val())
                || !self.next_traced.val()
            {
                self.address_action.next = true;
            } else if self.branch_map_full.val() {
                self.kind0.next = PacketKind::BranchMap;
                if self.cci.val() {
                    self.produced.next = 2.into();
                } else {
                    self.produced.next = 1.into();
                }
            } else if self.cci.val() {
                self.kind0.next = PacketKind::Context;
                self.produced.next = 1.into();
            }
        }
        if self.trap_action.val() {
            self.kind0.next = PacketKind::Trap;
            self.produced.next = 1.into();
        }
        if self.sync_action.val() {
            self.kind0.next = PacketKind::Sync;
            self.produced.next = 1.into();
        }
        if self.address_action.val() {
            if self.have_branches.val() {
                self.kind0.next = PacketKind::BranchAddress;
            } else {
                self.kind0.next = PacketKind::Address;
            }
            self.produced.next = 1.into();
        }
        self.reports_address.next =
            self.trap_action.val() || self.sync_action.val() || self.address_action.val();
        self.updiscon.next = self.updiscon_target.val() && self.next_is_format3.val();
        // Every packet of the chart (not the support packets) rewrites the flag.
        self.target_write.next =
            self.decide.val() && self.curr_traced.val() && self.produced.val().any();
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
