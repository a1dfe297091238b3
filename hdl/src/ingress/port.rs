//! `IngressPort`: the single-retirement ingress port of `ingressPort.adoc` (tables
//! `tab:common-ingress` and `tab:single-ingress`, section `sec:single-retire`) registered
//! into the previous / current / next window of `exampleAlgorithm.adoc` ("A 3-stage pipeline
//! within the encoder is assumed"), as `hdl/DESIGN.md`, cycle contract item 1 fixes it.
//!
//! The port never back-pressures. It registers the block it is given (the block register,
//! `hdl/DESIGN.md` item 0), so it enters the window with trace control's registered
//! outputs for the same cycle. `itype` (`IT` = 3 or 4 bits, table `tab:itype`) is decoded
//! once, into that register, into the classes the chart needs: trap (1, 2), interrupt (2),
//! uninferable discontinuity (3, 6, 8, 10, 12, 13, 14; `xRET` as in the spec errata; the
//! 3-bit code 6 is the model's `Itype::UninferableJump3`), branch (4, 5) and taken branch
//! (5), and for implicit return (`sec:implicit-return`) call (8, 9) and return (13), with
//! `ilastsize` for the address after a call.
//!
//! Not on this port: `time` (`notime_p` = 1) and a separate interrupt flag (the spec has
//! none: `itype` 2 is the interrupt).

use rust_hdl::prelude::*;

use super::inputs::Ingress;
use super::NextSequential;
use crate::logic::chart_key::{ChartKey, ChartKeys};
use crate::logic::predictor::{BPRED_MAX_BITS, PREDICTOR_WORD_ADDRESS_BITS};
use crate::param::ZeroParam;

/// The ingress port and the instruction window (`ingressPort.adoc`, `sec:single-retire`).
///
/// A *block* is on the port when `iretire != 0 || itype != 0`. At a rising edge
/// with `shift` high the window moves: `prev <= curr`, `curr <= next`, `next <=` the block
/// (with `qualified` / `notify`), or, with `fill` high, an empty record whose valid bit is
/// `fill_valid` (1: an unqualified gap while the hart halts; 0: the empty slots of trace
/// disable). `clear` empties `prev` and `curr` at the same edge (trace enable).
///
/// Each record keeps, besides its fields, the chart's predicates of it (traced,
/// exception-only, uninferable discontinuity, `er_n`, retired branch), formed as it enters
/// `next`, so the chart key is a few logic levels from flip-flops.
///
/// The `keys` output is the chart key of the window ([`ChartKey`]) from flip-flops, high
/// only in a cycle that decides (registered with `decide_ahead`): 0 in every other cycle.
#[derive(LogicBlock, Default)]
pub struct IngressPort<const A: usize, const E: usize, const IT: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The ingress block (`tab:single-ingress`): registered into the block register.
    pub block: Ingress<A, E, IT>,
    /// Shift the window (with the block register's block) at the next edge.
    pub shift: Signal<In, Bit>,
    /// Shift an empty record instead of the port's block.
    pub fill: Signal<In, Bit>,
    /// Valid bit of the empty record.
    pub fill_valid: Signal<In, Bit>,
    /// `fill` one cycle ahead (with the block it registers): the block register holds
    /// `iaddr` 0 for a cycle that will fill, as the empty record has.
    pub fill_ahead: Signal<In, Bit>,
    /// The block is qualified (traced).
    pub qualified: Signal<In, Bit>,
    /// Trace-notify on the block.
    pub notify: Signal<In, Bit>,
    /// Empty `prev` and `curr` at the edge (trace enable).
    pub clear: Signal<In, Bit>,
    /// The packet logic decides in the next cycle: the registered keys are gated by it.
    pub decide_ahead: Signal<In, Bit>,
    /// Run-time option `sijump` (`sec:si-jump`): a sequentially inferable jump is not an
    /// uninferable discontinuity. Read as a block enters `next`.
    pub sijump_option: Signal<In, Bit>,
    /// `prev` is a return inferred from the return stack (`sec:implicit-return`): the
    /// registered keys of the window with `prev` not an uninferable discontinuity apply.
    pub prev_inferred: Signal<In, Bit>,
    /// `prev` signals an interrupt (`itype` 2).
    pub prev_interrupt: Signal<Out, Bit>,
    /// `prev` `cause`.
    pub prev_cause: Signal<Out, Bits<E>>,
    /// `prev` `tval`.
    pub prev_tval: Signal<Out, Bits<A>>,
    /// `curr` holds a record.
    pub curr_valid: Signal<Out, Bit>,
    /// `curr` trace-notify.
    pub curr_notify: Signal<Out, Bit>,
    /// `curr` `iretire`.
    pub curr_iretire: Signal<Out, Bit>,
    /// `curr` signals an interrupt (`itype` 2).
    pub curr_interrupt: Signal<Out, Bit>,
    /// `curr` `itype` is a taken branch (5).
    pub curr_taken: Signal<Out, Bit>,
    /// `curr_taken` after this cycle's edge (the input of its flip-flop), for the
    /// predictor's outcome formed a cycle early (`logic::predictor`).
    pub curr_taken_ahead: Signal<Out, Bit>,
    /// `curr` `iaddr`.
    pub curr_iaddr: Signal<Out, Bits<A>>,
    /// `curr` `priv`.
    pub curr_privilege: Signal<Out, Bits<2>>,
    /// `curr` `cause`.
    pub curr_cause: Signal<Out, Bits<E>>,
    /// `curr` `tval`.
    pub curr_tval: Signal<Out, Bits<A>>,
    /// `curr` retires a call (`itype` 8 or 9).
    pub curr_call: Signal<Out, Bit>,
    /// `curr` retires a return (`itype` 13).
    pub curr_return: Signal<Out, Bit>,
    /// The address after `curr` (`iaddr` plus its size): the link a call pushes, from
    /// flip-flops (formed as the record enters `curr`).
    pub curr_link: Signal<Out, Bits<A>>,
    /// `next` holds a record (traced or not).
    pub next_valid: Signal<Out, Bit>,
    /// `next` `iaddr` bits 1 and up, as many as the predictor's index takes at most
    /// (0 for an empty record).
    pub next_index_address: Signal<Out, Bits<BPRED_MAX_BITS>>,
    /// The predictor's word address (`iaddr` bits from 3) of `next` as it is after this
    /// cycle's edge (the input of its flip-flops), for the table's read a cycle early
    /// (`logic::predictor`).
    pub next_word_address_ahead: Signal<Out, Bits<PREDICTOR_WORD_ADDRESS_BITS>>,
    /// `next` `iaddr` (flip-flops).
    pub next_iaddr: Signal<Out, Bits<A>>,
    /// The `iaddr` that enters `next` at a shift (flip-flops: the block's, 0 for the empty
    /// record), for comparisons made a cycle early, before the shift selects
    /// (`logic::return_stack`).
    pub incoming_iaddr: Signal<Out, Bits<A>>,
    /// The registered chart key (0 but in a deciding cycle).
    pub keys: Signal<Out, ChartKeys>,
    // The chart key of the window after the edge, its register, and no key.
    chart_key: ChartKey,
    key_reg: DFF<ChartKeys>,
    // The same with `prev` not an uninferable discontinuity (an inferred return).
    chart_key_ir: ChartKey,
    key_reg_ir: DFF<ChartKeys>,
    no_key: ZeroParam<ChartKeys>,
    // The block register: the port's block, itype decoded, one cycle later.
    b_iretire: DFF<Bit>,
    b_trap: DFF<Bit>,
    b_interrupt: DFF<Bit>,
    b_uninferable: DFF<Bit>,
    b_branch: DFF<Bit>,
    b_taken: DFF<Bit>,
    b_exc_only: DFF<Bit>,
    b_iaddr: DFF<Bits<A>>,
    b_privilege: DFF<Bits<2>>,
    b_cause: DFF<Bits<E>>,
    b_tval: DFF<Bits<A>>,
    b_context: DFF<Bits<1>>,
    b_ctype: DFF<Bits<1>>,
    b_sijump: DFF<Bit>,
    b_call: DFF<Bit>,
    b_return: DFF<Bit>,
    b_ilastsize: DFF<Bit>,
    // Window registers (`prev` keeps only what the trap fields need).
    p_interrupt: DFF<Bit>,
    p_cause: DFF<Bits<E>>,
    p_tval: DFF<Bits<A>>,
    c_valid: DFF<Bit>,
    c_traced: DFF<Bit>,
    c_notify: DFF<Bit>,
    c_iretire: DFF<Bit>,
    c_trap: DFF<Bit>,
    c_interrupt: DFF<Bit>,
    c_updiscon: DFF<Bit>,
    c_taken: DFF<Bit>,
    c_iaddr: DFF<Bits<A>>,
    c_privilege: DFF<Bits<2>>,
    c_cause: DFF<Bits<E>>,
    c_tval: DFF<Bits<A>>,
    c_context: DFF<Bits<1>>,
    c_call: DFF<Bit>,
    c_return: DFF<Bit>,
    c_link: DFF<Bits<A>>,
    n_link: NextSequential<A>,
    n_valid: DFF<Bit>,
    n_traced: DFF<Bit>,
    n_notify: DFF<Bit>,
    n_iretire: DFF<Bit>,
    n_trap: DFF<Bit>,
    n_interrupt: DFF<Bit>,
    n_updiscon: DFF<Bit>,
    n_exc_only: DFF<Bit>,
    n_er_n: DFF<Bit>,
    n_branch: DFF<Bit>,
    n_taken: DFF<Bit>,
    n_iaddr: DFF<Bits<A>>,
    n_privilege: DFF<Bits<2>>,
    n_cause: DFF<Bits<E>>,
    n_tval: DFF<Bits<A>>,
    n_context: DFF<Bits<1>>,
    n_ctype: DFF<Bits<1>>,
    n_call: DFF<Bit>,
    n_return: DFF<Bit>,
    n_ilastsize: DFF<Bit>,
    itype_hi: Signal<Local, Bit>,
    itype_lo: Signal<Local, Bits<3>>,
    k_trap: Signal<Local, Bit>,
    k_interrupt: Signal<Local, Bit>,
    k_uninferable: Signal<Local, Bit>,
    k_branch: Signal<Local, Bit>,
    k_taken: Signal<Local, Bit>,
    k_call: Signal<Local, Bit>,
    k_return: Signal<Local, Bit>,
}

impl<const A: usize, const E: usize, const IT: usize> Logic for IngressPort<A, E, IT> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            key_reg,
            key_reg_ir,
            p_interrupt,
            p_cause,
            p_tval,
            c_valid,
            c_traced,
            c_notify,
            c_iretire,
            c_trap,
            c_interrupt,
            c_updiscon,
            c_taken,
            c_iaddr,
            c_privilege,
            c_cause,
            c_tval,
            c_context,
            c_call,
            c_return,
            c_link,
            n_valid,
            n_traced,
            n_notify,
            n_iretire,
            n_trap,
            n_interrupt,
            n_updiscon,
            n_exc_only,
            n_er_n,
            n_branch,
            n_taken,
            n_iaddr,
            n_privilege,
            n_cause,
            n_tval,
            n_context,
            n_ctype,
            n_call,
            n_return,
            n_ilastsize,
            b_iretire,
            b_trap,
            b_interrupt,
            b_uninferable,
            b_branch,
            b_taken,
            b_exc_only,
            b_iaddr,
            b_privilege,
            b_cause,
            b_tval,
            b_context,
            b_ctype,
            b_sijump,
            b_call,
            b_return,
            b_ilastsize
        );
        // `tab:itype`: codes 8-15 exist only with 4 bits (bit 3 set).
        self.itype_hi.next = (self.block.itype.val() >> 3).any();
        self.itype_lo.next = self.block.itype.val().get_bits::<3>(0);
        self.k_trap.next =
            !self.itype_hi.val() && ((self.itype_lo.val() == 1) || (self.itype_lo.val() == 2));
        self.k_interrupt.next = !self.itype_hi.val() && (self.itype_lo.val() == 2);
        self.k_branch.next =
            !self.itype_hi.val() && ((self.itype_lo.val() == 4) || (self.itype_lo.val() == 5));
        self.k_taken.next = !self.itype_hi.val() && (self.itype_lo.val() == 5);
        self.k_uninferable.next = (!self.itype_hi.val()
            && ((self.itype_lo.val() == 3) || (self.itype_lo.val() == 6)))
            || (self.itype_hi.val()
                && ((self.itype_lo.val() == 0)
                    || (self.itype_lo.val() == 2)
                    || (self.itype_lo.val() == 4)
                    || (self.itype_lo.val() == 5)
                    || (self.itype_lo.val() == 6)));
        self.k_call.next =
            self.itype_hi.val() && ((self.itype_lo.val() == 0) || (self.itype_lo.val() == 1));
        self.k_return.next = self.itype_hi.val() && (self.itype_lo.val() == 5);
        // The block register (`hdl/DESIGN.md` item 0): the block acts with the registered
        // trace-control outputs of the same inputs.
        self.b_iretire.d.next = self.block.iretire.val();
        self.b_trap.d.next = self.k_trap.val();
        self.b_interrupt.d.next = self.k_interrupt.val();
        self.b_uninferable.d.next = self.k_uninferable.val();
        self.b_branch.d.next = self.k_branch.val();
        self.b_taken.d.next = self.k_taken.val();
        self.b_exc_only.d.next = self.k_trap.val() && !self.block.iretire.val();
        self.b_iaddr.d.next = self.block.iaddr.val();
        // (The fill branch below still writes `n_iaddr` 0 itself; with this zero it could
        // take `b_iaddr` like the other branch. Left as measured: the change would move
        // placement and the README's figures.)
        if self.fill_ahead.val() {
            self.b_iaddr.d.next = 0.into();
        }
        self.b_privilege.d.next = self.block.privilege.val();
        self.b_cause.d.next = self.block.cause.val();
        self.b_tval.d.next = self.block.tval.val();
        self.b_context.d.next = self.block.hart_context.val();
        self.b_ctype.d.next = self.block.ctype.val();
        self.b_sijump.d.next = self.block.sijump.val();
        self.b_call.d.next = self.k_call.val();
        self.b_return.d.next = self.k_return.val();
        self.b_ilastsize.d.next = self.block.ilastsize.val();
        self.n_link.iaddr.next = self.n_iaddr.q.val();
        self.n_link.ilastsize.next = self.n_ilastsize.q.val();
        if self.shift.val() {
            // prev <= curr
            self.p_interrupt.d.next = self.c_interrupt.q.val();
            self.p_cause.d.next = self.c_cause.q.val();
            self.p_tval.d.next = self.c_tval.q.val();
            // curr <= next
            self.c_valid.d.next = self.n_valid.q.val() && !self.clear.val();
            self.c_traced.d.next = self.n_traced.q.val() && !self.clear.val();
            self.c_notify.d.next = self.n_notify.q.val();
            self.c_iretire.d.next = self.n_iretire.q.val();
            self.c_trap.d.next = self.n_trap.q.val();
            self.c_interrupt.d.next = self.n_interrupt.q.val();
            self.c_updiscon.d.next = self.n_updiscon.q.val();
            self.c_taken.d.next = self.n_taken.q.val();
            self.c_iaddr.d.next = self.n_iaddr.q.val();
            self.c_privilege.d.next = self.n_privilege.q.val();
            self.c_cause.d.next = self.n_cause.q.val();
            self.c_tval.d.next = self.n_tval.q.val();
            self.c_context.d.next = self.n_context.q.val();
            self.c_call.d.next = self.n_call.q.val();
            self.c_return.d.next = self.n_return.q.val();
            self.c_link.d.next = self.n_link.address.val();
            // next <= the block, or an empty record
            if self.fill.val() {
                self.n_valid.d.next = self.fill_valid.val();
                self.n_traced.d.next = false;
                self.n_notify.d.next = false;
                self.n_iretire.d.next = false;
                self.n_trap.d.next = false;
                self.n_interrupt.d.next = false;
                self.n_updiscon.d.next = false;
                self.n_exc_only.d.next = false;
                self.n_er_n.d.next = false;
                self.n_branch.d.next = false;
                self.n_taken.d.next = false;
                self.n_iaddr.d.next = 0.into();
                self.n_privilege.d.next = 0.into();
                self.n_cause.d.next = 0.into();
                self.n_tval.d.next = 0.into();
                self.n_context.d.next = 0.into();
                self.n_ctype.d.next = 0.into();
                self.n_call.d.next = false;
                self.n_return.d.next = false;
                self.n_ilastsize.d.next = false;
            } else {
                self.n_valid.d.next = true;
                self.n_traced.d.next = self.qualified.val();
                self.n_notify.d.next = self.notify.val();
                self.n_iretire.d.next = self.b_iretire.q.val();
                self.n_trap.d.next = self.b_trap.q.val();
                self.n_interrupt.d.next = self.b_interrupt.q.val();
                self.n_updiscon.d.next = self.b_iretire.q.val()
                    && self.b_uninferable.q.val()
                    && !(self.sijump_option.val() && self.b_sijump.q.val());
                self.n_exc_only.d.next = self.b_exc_only.q.val();
                self.n_er_n.d.next =
                    (self.b_iretire.q.val() && self.b_trap.q.val()) || self.notify.val();
                self.n_branch.d.next = self.b_iretire.q.val() && self.b_branch.q.val();
                self.n_taken.d.next = self.b_taken.q.val();
                self.n_iaddr.d.next = self.b_iaddr.q.val();
                self.n_privilege.d.next = self.b_privilege.q.val();
                self.n_cause.d.next = self.b_cause.q.val();
                self.n_tval.d.next = self.b_tval.q.val();
                self.n_context.d.next = self.b_context.q.val();
                self.n_ctype.d.next = self.b_ctype.q.val();
                self.n_call.d.next = self.b_iretire.q.val() && self.b_call.q.val();
                self.n_return.d.next = self.b_iretire.q.val() && self.b_return.q.val();
                self.n_ilastsize.d.next = self.b_ilastsize.q.val();
            }
        } else if self.clear.val() {
            self.c_valid.d.next = false;
            self.c_traced.d.next = false;
            self.n_valid.d.next = false;
            self.n_traced.d.next = false;
        }
        // The chart key of the window as it is after a shift at the edge, registered: the
        // decision of the next cycle reads it from flip-flops. A decision follows every
        // shift (`decide_ahead` implies `shift`), and the keys are registered gated by
        // `decide_ahead`, so the key is formed from the shifted slots directly: `prev` from
        // `curr`, `curr` from `next`, `next` from the block register or the empty record.
        self.chart_key.clear.next = self.clear.val();
        self.chart_key.prev_traced.next = self.c_traced.q.val();
        self.chart_key.prev_trap.next = self.c_trap.q.val();
        self.chart_key.prev_updiscon.next = self.c_updiscon.q.val();
        self.chart_key.prev_privilege.next = self.c_privilege.q.val();
        self.chart_key.prev_context.next = self.c_context.q.val();
        self.chart_key.curr_traced.next = self.n_traced.q.val();
        self.chart_key.curr_exc_only.next = self.n_exc_only.q.val();
        self.chart_key.curr_updiscon.next = self.n_updiscon.q.val();
        self.chart_key.curr_er_n.next = self.n_er_n.q.val();
        self.chart_key.curr_branch.next = self.n_branch.q.val();
        self.chart_key.curr_privilege.next = self.n_privilege.q.val();
        self.chart_key.curr_context.next = self.n_context.q.val();
        self.chart_key.curr_ctype.next = self.n_ctype.q.val();
        self.chart_key.curr_return.next = self.n_return.q.val();
        self.chart_key.next_valid.next = !self.fill.val() || self.fill_valid.val();
        // (The chart reads the other `next` fields only when `next` is traced.)
        self.chart_key.next_traced.next = !self.fill.val() && self.qualified.val();
        self.chart_key.next_exc_only.next = self.b_exc_only.q.val();
        self.chart_key.next_privilege.next = self.b_privilege.q.val();
        self.chart_key.next_context.next = self.b_context.q.val();
        // The key if `prev` turns out an inferred return (the return stack decides that
        // in the cycle `prev` is `curr`): `prev` is then no uninferable discontinuity.
        self.chart_key_ir.clear.next = self.clear.val();
        self.chart_key_ir.prev_traced.next = self.c_traced.q.val();
        self.chart_key_ir.prev_trap.next = self.c_trap.q.val();
        self.chart_key_ir.prev_updiscon.next = false;
        self.chart_key_ir.prev_privilege.next = self.c_privilege.q.val();
        self.chart_key_ir.prev_context.next = self.c_context.q.val();
        self.chart_key_ir.curr_traced.next = self.n_traced.q.val();
        self.chart_key_ir.curr_exc_only.next = self.n_exc_only.q.val();
        self.chart_key_ir.curr_updiscon.next = self.n_updiscon.q.val();
        self.chart_key_ir.curr_er_n.next = self.n_er_n.q.val();
        self.chart_key_ir.curr_branch.next = self.n_branch.q.val();
        self.chart_key_ir.curr_privilege.next = self.n_privilege.q.val();
        self.chart_key_ir.curr_context.next = self.n_context.q.val();
        self.chart_key_ir.curr_ctype.next = self.n_ctype.q.val();
        self.chart_key_ir.curr_return.next = self.n_return.q.val();
        self.chart_key_ir.next_valid.next = !self.fill.val() || self.fill_valid.val();
        self.chart_key_ir.next_traced.next = !self.fill.val() && self.qualified.val();
        self.chart_key_ir.next_exc_only.next = self.b_exc_only.q.val();
        self.chart_key_ir.next_privilege.next = self.b_privilege.q.val();
        self.chart_key_ir.next_context.next = self.b_context.q.val();
        // Registered gated by `decide_ahead` (a synchronous reset of the key register, not
        // a gate in front of it).
        self.key_reg.d.next = self.no_key.val();
        self.key_reg_ir.d.next = self.no_key.val();
        if self.decide_ahead.val() {
            self.key_reg.d.next = self.chart_key.keys.val();
            self.key_reg_ir.d.next = self.chart_key_ir.keys.val();
        }
        self.keys.next = self.key_reg.q.val();
        if self.prev_inferred.val() {
            self.keys.next = self.key_reg_ir.q.val();
        }

        self.prev_interrupt.next = self.p_interrupt.q.val();
        self.prev_cause.next = self.p_cause.q.val();
        self.prev_tval.next = self.p_tval.q.val();
        self.curr_valid.next = self.c_valid.q.val();
        self.curr_notify.next = self.c_notify.q.val();
        self.curr_iretire.next = self.c_iretire.q.val();
        self.curr_interrupt.next = self.c_interrupt.q.val();
        self.curr_taken.next = self.c_taken.q.val();
        self.curr_taken_ahead.next = self.c_taken.d.val();
        self.curr_iaddr.next = self.c_iaddr.q.val();
        self.curr_privilege.next = self.c_privilege.q.val();
        self.curr_cause.next = self.c_cause.q.val();
        self.curr_tval.next = self.c_tval.q.val();
        self.curr_call.next = self.c_call.q.val();
        self.curr_return.next = self.c_return.q.val();
        self.curr_link.next = self.c_link.q.val();
        self.next_valid.next = self.n_valid.q.val();
        self.next_index_address.next = self.n_iaddr.q.val().get_bits::<BPRED_MAX_BITS>(1);
        self.next_word_address_ahead.next = self
            .n_iaddr
            .d
            .val()
            .get_bits::<PREDICTOR_WORD_ADDRESS_BITS>(3);
        self.next_iaddr.next = self.n_iaddr.q.val();
        self.incoming_iaddr.next = self.b_iaddr.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::verilog::{generate, lint, yosys_check};

    fn check(config: Config) {
        let name = format!("ingress_{}", config.name());
        let v = crate::with_config!(config, [A, E, IT, P] => {
            let mut uut = IngressPort::<A, E, IT>::default();
            uut.connect_all();
            generate(&uut)
        });
        yosys_check(&name, &v).unwrap();
        lint(&name, &v).unwrap();
    }

    #[test]
    fn ingress_port_verilog_rv32_itype3() {
        check(Config::Rv32Itype3);
    }

    #[test]
    fn ingress_port_verilog_rv64() {
        check(Config::Rv64);
    }
}
