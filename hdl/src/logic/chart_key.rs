//! `ChartKey`: the part of the packet decision (`exampleAlgorithm.adoc`, figure `fig:algo`
//! and the terms defined before it) that depends on the instruction window alone, not on the
//! encoder's state (branch map, resync count, reported traps, lost packets).
//!
//! Combinational. The ingress port evaluates it on the window as it will be after the
//! next edge and registers the result ([`ChartKeys`], [`crate::ingress::IngressPort`]'s
//! `keys` output), so the decision of the next cycle starts from flip-flops and only
//! combines them with the state ([`super::decision::Decision`]). Besides the chart's own
//! branches the key gives the unions and splits of them that the decision would otherwise
//! form after its state inputs (which packets report an address whatever the state says,
//! which of the rest can only be a branch map, a context or nothing), so every decision
//! output is a few logic levels from flip-flops. The model of the whole decision:
//! `etrace_encoder::decision::decide`.

use rust_hdl::prelude::*;

/// The chart key of a window: how far the window alone takes the chart
/// ([`ChartKey`]), as one packed struct (a `LogicStruct`: one vector in the Verilog),
/// formed by [`ChartKey`], registered by the ingress port and read by the decision.
#[derive(Copy, Clone, Debug, Default, PartialEq, LogicStruct)]
pub struct ChartKeys {
    /// `curr` untraced after a traced `prev`: the support packet of the end of
    /// qualification.
    pub support: Bit,
    /// `curr` exception-only after an exception `prev`: a format 3.1 (whose trap, as the
    /// state says).
    pub exc_after_exc: Bit,
    /// `curr` exception-only, reported now with its own trap (`prev` not an exception, and
    /// untraced, an uninferable discontinuity, or followed by an untraced `next`).
    pub exc_own: Bit,
    /// `curr` traced, not exception-only, `prev` an exception: a format 3.1 with `thaddr`,
    /// or a sync if the trap was reported already.
    pub after_exc: Bit,
    /// `curr` traced, not exception-only, `prev` not an exception: the recovery after lost
    /// packets may report it (`hdl/DESIGN.md` item 4).
    pub plain: Bit,
    /// `plain`, and `prev` untraced or `ppccd`: a sync.
    pub sync: Bit,
    /// `plain`, `prev` traced and no `ppccd`: the state decides.
    pub rest: Bit,
    /// `exc_after_exc` or `exc_own`: a format 3.1 whatever the state says.
    pub trap: Bit,
    /// `exc_after_exc`, `exc_own`, `after_exc` or `sync`: a format 3.1 or 3.0 (a sync)
    /// whatever the state says.
    pub trap_or_sync: Bit,
    /// `rest` with an address due whatever the branch map holds: `prev` an uninferable
    /// discontinuity, `er_n`, `next` exception-only or untraced.
    pub rest_address: Bit,
    /// `rest` and `prev` an uninferable discontinuity (the packet reports its target).
    pub rest_updiscon: Bit,
    /// `rest` without `rest_address`: a branch map, a context, an address for the branch
    /// map or the resync count, or nothing.
    pub rest_map: Bit,
    /// `rest_map` without `cci`.
    pub rest_quiet: Bit,
    /// `rest_map` with `cci` (an imprecise context change, format 3.2, `ctype` 1).
    pub rest_cci: Bit,
    /// `trap_or_sync` or `rest_address`: the packet reports `curr`'s address whatever the
    /// state says.
    pub reports: Bit,
    /// `next` `ppccd` (an address packet if branches are waiting).
    pub next_ppccd: Bit,
    /// `next` traced.
    pub next_traced: Bit,
    /// `next` traced and exception-only or `ppccd`: it will be reported by a format 3
    /// (with `resync_after_one`, the `updiscon` rule of `sec:updiscon`).
    pub next_format3: Bit,
    /// `curr` traced, a retired branch: its outcome enters the branch map.
    pub push: Bit,
    /// `next_ppccd` if the return stack's top matches `next`'s address (`top_hit`): a
    /// return in `curr` with `next` valid is then inferred, and no uninferable
    /// discontinuity (`sec:implicit-return`). The decision selects it with `top_hit`
    /// alone (one LUT from flip-flops), not with the return flags of the window.
    pub next_ppccd_ir: Bit,
    /// `next_format3` if the return stack's top matches `next`'s address (as
    /// `next_ppccd_ir`).
    pub next_format3_ir: Bit,
}

/// The chart's window predicates and how far the window alone takes the chart.
///
/// Slots: `prev` is the current `curr` register, `curr` the current `next`, `next` the
/// block entering the window (or the empty record). Per slot the ingress port keeps the
/// predicates the chart needs (traced, exception-only, uninferable discontinuity, ...),
/// formed when the record enters the window.
///
/// With `curr` traced, the chart's first tests are window-only: `curr` exception-only
/// (reported with a format 3.1, or not at all), `prev` an exception (a format 3.1 or a
/// sync, as the state says), `prev` untraced or a privilege / context change (a sync).
/// What is left (`rest`) depends on the resync count, lost packets and the branch map.
#[derive(LogicBlock, Default)]
pub struct ChartKey {
    /// `prev` and `curr` are emptied at this edge (trace enable).
    pub clear: Signal<In, Bit>,
    /// `prev` holds a traced record (before `clear`).
    pub prev_traced: Signal<In, Bit>,
    /// `prev` signals a trap.
    pub prev_trap: Signal<In, Bit>,
    /// `prev` is an uninferable discontinuity (`updiscon`, with the `sijump` option).
    pub prev_updiscon: Signal<In, Bit>,
    /// `prev` `priv`.
    pub prev_privilege: Signal<In, Bits<2>>,
    /// `prev` `context`.
    pub prev_context: Signal<In, Bits<1>>,
    /// `curr` holds a traced record (before `clear`).
    pub curr_traced: Signal<In, Bit>,
    /// `curr` is exception-only (a trap, no instruction retired).
    pub curr_exc_only: Signal<In, Bit>,
    /// `curr` is an uninferable discontinuity.
    pub curr_updiscon: Signal<In, Bit>,
    /// `curr` is `er_n`: a retired instruction with a trap, or trace-notify.
    pub curr_er_n: Signal<In, Bit>,
    /// `curr` is a retired branch.
    pub curr_branch: Signal<In, Bit>,
    /// `curr` `priv`.
    pub curr_privilege: Signal<In, Bits<2>>,
    /// `curr` `context`.
    pub curr_context: Signal<In, Bits<1>>,
    /// `curr` `ctype`.
    pub curr_ctype: Signal<In, Bits<1>>,
    /// `curr` retires a return.
    pub curr_return: Signal<In, Bit>,
    /// `next` holds a record (traced or not).
    pub next_valid: Signal<In, Bit>,
    /// `next` holds a traced record.
    pub next_traced: Signal<In, Bit>,
    /// `next` is exception-only.
    pub next_exc_only: Signal<In, Bit>,
    /// `next` `priv`.
    pub next_privilege: Signal<In, Bits<2>>,
    /// `next` `context`.
    pub next_context: Signal<In, Bits<1>>,
    /// The chart key of the window.
    pub keys: Signal<Out, ChartKeys>,
    pt: Signal<Local, Bit>,
    ct: Signal<Local, Bit>,
    prev_exception: Signal<Local, Bit>,
    pupd: Signal<Local, Bit>,
    ppccd: Signal<Local, Bit>,
    nexo: Signal<Local, Bit>,
    nppccd: Signal<Local, Bit>,
    nppccd_ir: Signal<Local, Bit>,
    inferable: Signal<Local, Bit>,
    cci: Signal<Local, Bit>,
    address_due: Signal<Local, Bit>,
    own: Signal<Local, Bit>,
}

impl Logic for ChartKey {
    #[hdl_gen]
    fn update(&mut self) {
        // Slot predicates (`exampleAlgorithm.adoc`, the terms defined before `fig:algo`).
        self.pt.next = self.prev_traced.val() && !self.clear.val();
        self.ct.next = self.curr_traced.val() && !self.clear.val();
        self.prev_exception.next = self.pt.val() && self.prev_trap.val();
        self.pupd.next = self.pt.val() && self.prev_updiscon.val();
        // ppccd: privilege change, or context change with a discontinuity (ctype < 2).
        self.ppccd.next = self.pt.val()
            && ((self.curr_privilege.val() != self.prev_privilege.val())
                || ((self.curr_context.val() != self.prev_context.val())
                    && self.prev_updiscon.val()));
        self.nexo.next = self.next_traced.val() && self.next_exc_only.val();
        self.nppccd.next = self.next_traced.val()
            && ((self.next_privilege.val() != self.curr_privilege.val())
                || ((self.next_context.val() != self.curr_context.val())
                    && self.curr_updiscon.val()));
        // A return in `curr` with `next` valid is inferred when the stack's top matches
        // `next` (the decision knows that from `top_hit`); other records never are.
        self.inferable.next = self.curr_return.val() && self.next_valid.val();
        self.nppccd_ir.next = self.nppccd.val();
        if self.inferable.val() {
            self.nppccd_ir.next =
                self.next_traced.val() && (self.next_privilege.val() != self.curr_privilege.val());
        }
        self.cci.next =
            (self.curr_context.val() != self.prev_context.val()) && self.curr_ctype.val().any();
        self.address_due.next = self.curr_er_n.val() || self.nexo.val() || !self.next_traced.val();
        self.own.next = !self.pt.val() || self.pupd.val() || !self.next_traced.val();

        // The window's part of the chart.
        self.keys.next.support = !self.ct.val() && self.pt.val();
        self.keys.next.exc_after_exc =
            self.ct.val() && self.curr_exc_only.val() && self.prev_exception.val();
        self.keys.next.exc_own = self.ct.val()
            && self.curr_exc_only.val()
            && !self.prev_exception.val()
            && self.own.val();
        self.keys.next.trap = self.keys.val().exc_after_exc || self.keys.val().exc_own;
        self.keys.next.after_exc =
            self.ct.val() && !self.curr_exc_only.val() && self.prev_exception.val();
        self.keys.next.plain =
            self.ct.val() && !self.curr_exc_only.val() && !self.prev_exception.val();
        self.keys.next.sync = self.keys.val().plain && (!self.pt.val() || self.ppccd.val());
        self.keys.next.rest = self.keys.val().plain && self.pt.val() && !self.ppccd.val();
        self.keys.next.trap_or_sync =
            self.keys.val().trap || self.keys.val().after_exc || self.keys.val().sync;
        self.keys.next.rest_address =
            self.keys.val().rest && (self.pupd.val() || self.address_due.val());
        self.keys.next.rest_updiscon = self.keys.val().rest && self.pupd.val();
        self.keys.next.rest_map =
            self.keys.val().rest && !self.pupd.val() && !self.address_due.val();
        self.keys.next.rest_quiet = self.keys.val().rest_map && !self.cci.val();
        self.keys.next.rest_cci = self.keys.val().rest_map && self.cci.val();
        self.keys.next.reports = self.keys.val().trap_or_sync || self.keys.val().rest_address;
        self.keys.next.next_ppccd = self.nppccd.val();
        self.keys.next.next_traced = self.next_traced.val();
        self.keys.next.next_format3 = self.nexo.val() || self.nppccd.val();
        self.keys.next.push = self.ct.val() && self.curr_branch.val();
        self.keys.next.next_ppccd_ir = self.nppccd_ir.val();
        self.keys.next.next_format3_ir = self.nexo.val() || self.nppccd_ir.val();
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
