//! `ChartKey`: the part of the packet decision (`exampleAlgorithm.adoc`, figure `fig:algo`
//! and its "Key to the chart") that depends on the instruction window alone, not on the
//! encoder's state (branch map, resync count, reported traps, lost packets).
//!
//! Combinational. The ingress port evaluates it on the window as it will be after the
//! next edge and registers the result ([`crate::ingress::IngressPort`]'s `key_*`
//! outputs), so the decision of the next cycle starts from flip-flops and only combines
//! them with the state ([`super::decision::Decision`]). The model of the whole decision:
//! `etrace_model::encoder::decision::decide`.

use rust_hdl::prelude::*;

/// The chart's window predicates and how far the window alone takes the chart.
///
/// With `curr` traced, the chart's first tests are window-only: `curr` exception-only
/// (reported with a format 3.1, or not at all), `prev` an exception (a format 3.1 or a
/// sync, as the state says), `prev` untraced or a privilege / context change (a sync).
/// What is left (`rest`) depends on the resync count, lost packets and the branch map.
#[derive(LogicBlock, Default)]
pub struct ChartKey {
    /// Run-time option `sijump` (`sec:si-jump`).
    pub sijump_option: Signal<In, Bit>,
    /// `prev` holds a traced record.
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
    /// `curr` holds a traced record.
    pub curr_traced: Signal<In, Bit>,
    /// `curr` trace-notify.
    pub curr_notify: Signal<In, Bit>,
    /// `curr` `iretire`.
    pub curr_iretire: Signal<In, Bit>,
    /// `curr` signals a trap.
    pub curr_trap: Signal<In, Bit>,
    /// `curr` `itype` is an uninferable discontinuity.
    pub curr_uninferable: Signal<In, Bit>,
    /// `curr` `itype` is a branch.
    pub curr_branch: Signal<In, Bit>,
    /// `curr` `priv`.
    pub curr_privilege: Signal<In, Bits<2>>,
    /// `curr` `context`.
    pub curr_context: Signal<In, Bits<1>>,
    /// `curr` `ctype`.
    pub curr_ctype: Signal<In, Bits<1>>,
    /// `curr` `sijump`.
    pub curr_sijump: Signal<In, Bit>,
    /// `next` holds a traced record.
    pub next_traced: Signal<In, Bit>,
    /// `next` `iretire`.
    pub next_iretire: Signal<In, Bit>,
    /// `next` signals a trap.
    pub next_trap: Signal<In, Bit>,
    /// `next` `priv`.
    pub next_privilege: Signal<In, Bits<2>>,
    /// `next` `context`.
    pub next_context: Signal<In, Bits<1>>,
    /// `curr` untraced after a traced `prev`: the support packet of the end of
    /// qualification.
    pub support: Signal<Out, Bit>,
    /// `curr` exception-only after an exception `prev`: a format 3.1 (whose trap, as the
    /// state says).
    pub exc_after_exc: Signal<Out, Bit>,
    /// `curr` exception-only, reported now with its own trap (`prev` not an exception, and
    /// untraced, an uninferable discontinuity, or followed by an untraced `next`).
    pub exc_own: Signal<Out, Bit>,
    /// `curr` traced, not exception-only, `prev` an exception: a format 3.1 with `thaddr`,
    /// or a sync if the trap was reported already.
    pub after_exc: Signal<Out, Bit>,
    /// `curr` traced, not exception-only, `prev` not an exception: the recovery after lost
    /// packets may report it (`hdl/DESIGN.md` item 4).
    pub plain: Signal<Out, Bit>,
    /// `plain`, and `prev` untraced or `ppccd`: a sync.
    pub sync: Signal<Out, Bit>,
    /// `plain`, `prev` traced and no `ppccd`: the state decides.
    pub rest: Signal<Out, Bit>,
    /// `prev` is an uninferable discontinuity (`updiscon`, with `sijump`).
    pub prev_updiscon: Signal<Out, Bit>,
    /// An address packet regardless of the branch map: `er_n`, `next` exception-only or
    /// untraced.
    pub address_due: Signal<Out, Bit>,
    /// `next` `ppccd` (an address packet if branches are waiting).
    pub next_ppccd: Signal<Out, Bit>,
    /// `next` traced (as `next_traced`, registered with the key).
    pub next_is_traced: Signal<Out, Bit>,
    /// `next` traced and exception-only or `ppccd`: it will be reported by a format 3
    /// (with `resync_after_one`, the `updiscon` rule of `sec:updiscon`).
    pub next_format3: Signal<Out, Bit>,
    /// `curr` traced, a retired branch: its outcome enters the branch map.
    pub push: Signal<Out, Bit>,
    /// `cci`: an imprecise context change (format 3.2, `ctype` 1).
    pub cci: Signal<Out, Bit>,
    prev_exception: Signal<Local, Bit>,
    curr_exc_only: Signal<Local, Bit>,
    curr_updiscon: Signal<Local, Bit>,
    curr_ppccd: Signal<Local, Bit>,
    next_exc_only: Signal<Local, Bit>,
    er_n: Signal<Local, Bit>,
}

impl Logic for ChartKey {
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
        self.er_n.next =
            (self.curr_iretire.val() && self.curr_trap.val()) || self.curr_notify.val();
        self.cci.next = self.curr_traced.val()
            && (self.curr_context.val() != self.prev_context.val())
            && self.curr_ctype.val().any();

        // The window's part of the chart.
        self.support.next = !self.curr_traced.val() && self.prev_traced.val();
        self.exc_after_exc.next =
            self.curr_traced.val() && self.curr_exc_only.val() && self.prev_exception.val();
        self.exc_own.next = self.curr_traced.val()
            && self.curr_exc_only.val()
            && !self.prev_exception.val()
            && (!self.prev_traced.val() || self.prev_updiscon.val() || !self.next_traced.val());
        self.after_exc.next =
            self.curr_traced.val() && !self.curr_exc_only.val() && self.prev_exception.val();
        self.plain.next =
            self.curr_traced.val() && !self.curr_exc_only.val() && !self.prev_exception.val();
        self.sync.next = self.plain.val() && (!self.prev_traced.val() || self.curr_ppccd.val());
        self.rest.next = self.plain.val() && self.prev_traced.val() && !self.curr_ppccd.val();
        self.address_due.next =
            self.er_n.val() || self.next_exc_only.val() || !self.next_traced.val();
        self.next_format3.next =
            self.next_traced.val() && (self.next_exc_only.val() || self.next_ppccd.val());
        self.next_is_traced.next = self.next_traced.val();
        self.push.next =
            self.curr_traced.val() && self.curr_iretire.val() && self.curr_branch.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn chart_key_verilog() {
        let mut uut = ChartKey::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("chart_key", &v).unwrap();
        lint("chart_key", &v).unwrap();
    }
}
