//! `IngressPort`: the single-retirement ingress port of `ingressPort.adoc` (tables
//! `tab:common-ingress` and `tab:single-ingress`, section `sec:single-retire`) registered
//! into the previous / current / next window of `exampleAlgorithm.adoc` ("A 3-stage pipeline
//! within the encoder is assumed"), as `hdl/DESIGN.md`, cycle contract item 1 fixes it.
//!
//! The port never back-pressures. `itype` (`IT` = 3 or 4 bits, table `tab:itype`) is decoded
//! once, on entry, into the classes the chart needs: trap (1, 2), interrupt (2), uninferable
//! discontinuity (3, 6, 8, 10, 12, 13, 14; `xRET` as in the spec errata; the 3-bit code 6
//! is the model's `Itype::UninferableJump3`), branch (4, 5) and taken branch (5).
//!
//! Not on this port: `ilastsize` (only needed for the predicted return address of implicit
//! return mode, `sec:single-retire`; the hardware configurations have no implicit return),
//! `time` (`notime_p` = 1) and a separate interrupt flag (the spec has none: `itype` 2 is
//! the interrupt).

use rust_hdl::prelude::*;

/// The ingress port and the instruction window (`ingressPort.adoc`, `sec:single-retire`).
///
/// A *block* is on the port when `iretire != 0 || itype != 0`. At a rising edge
/// with `shift` high the window moves: `prev <= curr`, `curr <= next`, `next <=` the block
/// (with `qualified` / `notify`), or, with `fill` high, an empty record whose valid bit is
/// `fill_valid` (1: an unqualified gap while the hart halts; 0: the empty slots of trace
/// disable). `clear` empties `prev` and `curr` at the same edge (trace enable).
#[derive(LogicBlock, Default)]
pub struct IngressPort<const A: usize, const E: usize, const IT: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// `iretire`: one instruction retired in this block (`tab:single-ingress`).
    pub iretire: Signal<In, Bit>,
    /// `itype`: termination type (`tab:itype`), `IT` = `itype_width_p` bits.
    pub itype: Signal<In, Bits<IT>>,
    /// `iaddr`: address of the instruction (or of the faulting one).
    pub iaddr: Signal<In, Bits<A>>,
    /// `priv`: privilege level (`tab:priv`).
    pub privilege: Signal<In, Bits<2>>,
    /// `cause`: exception or interrupt cause.
    pub cause: Signal<In, Bits<E>>,
    /// `tval`: trap value.
    pub tval: Signal<In, Bits<A>>,
    /// `context` (`context_width_p` = 1); named `hart_context` because `context` is a
    /// SystemVerilog keyword.
    pub hart_context: Signal<In, Bits<1>>,
    /// `ctype` (`ctype_width_p` = 1, `tab:context-type`).
    pub ctype: Signal<In, Bits<1>>,
    /// `sijump`: the block ends with a sequentially inferable jump.
    pub sijump: Signal<In, Bit>,
    /// Shift the window at the next edge.
    pub shift: Signal<In, Bit>,
    /// Shift an empty record instead of the port's block.
    pub fill: Signal<In, Bit>,
    /// Valid bit of the empty record.
    pub fill_valid: Signal<In, Bit>,
    /// The block is qualified (traced).
    pub qualified: Signal<In, Bit>,
    /// Trace-notify on the block.
    pub notify: Signal<In, Bit>,
    /// Empty `prev` and `curr` at the edge (trace enable).
    pub clear: Signal<In, Bit>,
    /// `prev` holds a traced record.
    pub prev_traced: Signal<Out, Bit>,
    /// `prev` `iretire`.
    pub prev_iretire: Signal<Out, Bit>,
    /// `prev` signals a trap (`itype` 1 or 2).
    pub prev_trap: Signal<Out, Bit>,
    /// `prev` signals an interrupt (`itype` 2).
    pub prev_interrupt: Signal<Out, Bit>,
    /// `prev` `itype` is an uninferable discontinuity.
    pub prev_uninferable: Signal<Out, Bit>,
    /// `prev` `priv`.
    pub prev_privilege: Signal<Out, Bits<2>>,
    /// `prev` `cause`.
    pub prev_cause: Signal<Out, Bits<E>>,
    /// `prev` `tval`.
    pub prev_tval: Signal<Out, Bits<A>>,
    /// `prev` `context`.
    pub prev_context: Signal<Out, Bits<1>>,
    /// `prev` `sijump`.
    pub prev_sijump: Signal<Out, Bit>,
    /// `curr` holds a record.
    pub curr_valid: Signal<Out, Bit>,
    /// `curr` holds a traced record.
    pub curr_traced: Signal<Out, Bit>,
    /// `curr` trace-notify.
    pub curr_notify: Signal<Out, Bit>,
    /// `curr` `iretire`.
    pub curr_iretire: Signal<Out, Bit>,
    /// `curr` signals a trap (`itype` 1 or 2).
    pub curr_trap: Signal<Out, Bit>,
    /// `curr` signals an interrupt (`itype` 2).
    pub curr_interrupt: Signal<Out, Bit>,
    /// `curr` `itype` is an uninferable discontinuity.
    pub curr_uninferable: Signal<Out, Bit>,
    /// `curr` `itype` is a branch (4 or 5).
    pub curr_branch: Signal<Out, Bit>,
    /// `curr` `itype` is a taken branch (5).
    pub curr_taken: Signal<Out, Bit>,
    /// `curr` `iaddr`.
    pub curr_iaddr: Signal<Out, Bits<A>>,
    /// `curr` `priv`.
    pub curr_privilege: Signal<Out, Bits<2>>,
    /// `curr` `cause`.
    pub curr_cause: Signal<Out, Bits<E>>,
    /// `curr` `tval`.
    pub curr_tval: Signal<Out, Bits<A>>,
    /// `curr` `context`.
    pub curr_context: Signal<Out, Bits<1>>,
    /// `curr` `ctype`.
    pub curr_ctype: Signal<Out, Bits<1>>,
    /// `curr` `sijump`.
    pub curr_sijump: Signal<Out, Bit>,
    /// `next` holds a traced record.
    pub next_traced: Signal<Out, Bit>,
    /// `next` `iretire`.
    pub next_iretire: Signal<Out, Bit>,
    /// `next` signals a trap (`itype` 1 or 2).
    pub next_trap: Signal<Out, Bit>,
    /// `next` `priv`.
    pub next_privilege: Signal<Out, Bits<2>>,
    /// `next` `context`.
    pub next_context: Signal<Out, Bits<1>>,
    // Window registers.
    p_valid: DFF<Bit>,
    p_qualified: DFF<Bit>,
    p_iretire: DFF<Bit>,
    p_trap: DFF<Bit>,
    p_interrupt: DFF<Bit>,
    p_uninferable: DFF<Bit>,
    p_privilege: DFF<Bits<2>>,
    p_cause: DFF<Bits<E>>,
    p_tval: DFF<Bits<A>>,
    p_context: DFF<Bits<1>>,
    p_sijump: DFF<Bit>,
    c_valid: DFF<Bit>,
    c_qualified: DFF<Bit>,
    c_notify: DFF<Bit>,
    c_iretire: DFF<Bit>,
    c_trap: DFF<Bit>,
    c_interrupt: DFF<Bit>,
    c_uninferable: DFF<Bit>,
    c_branch: DFF<Bit>,
    c_taken: DFF<Bit>,
    c_iaddr: DFF<Bits<A>>,
    c_privilege: DFF<Bits<2>>,
    c_cause: DFF<Bits<E>>,
    c_tval: DFF<Bits<A>>,
    c_context: DFF<Bits<1>>,
    c_ctype: DFF<Bits<1>>,
    c_sijump: DFF<Bit>,
    n_valid: DFF<Bit>,
    n_qualified: DFF<Bit>,
    n_notify: DFF<Bit>,
    n_iretire: DFF<Bit>,
    n_trap: DFF<Bit>,
    n_interrupt: DFF<Bit>,
    n_uninferable: DFF<Bit>,
    n_branch: DFF<Bit>,
    n_taken: DFF<Bit>,
    n_iaddr: DFF<Bits<A>>,
    n_privilege: DFF<Bits<2>>,
    n_cause: DFF<Bits<E>>,
    n_tval: DFF<Bits<A>>,
    n_context: DFF<Bits<1>>,
    n_ctype: DFF<Bits<1>>,
    n_sijump: DFF<Bit>,
    itype_hi: Signal<Local, Bit>,
    itype_lo: Signal<Local, Bits<3>>,
    k_trap: Signal<Local, Bit>,
    k_interrupt: Signal<Local, Bit>,
    k_uninferable: Signal<Local, Bit>,
    k_branch: Signal<Local, Bit>,
    k_taken: Signal<Local, Bit>,
}

impl<const A: usize, const E: usize, const IT: usize> Logic for IngressPort<A, E, IT> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            p_valid,
            p_qualified,
            p_iretire,
            p_trap,
            p_interrupt,
            p_uninferable,
            p_privilege,
            p_cause,
            p_tval,
            p_context,
            p_sijump,
            c_valid,
            c_qualified,
            c_notify,
            c_iretire,
            c_trap,
            c_interrupt,
            c_uninferable,
            c_branch,
            c_taken,
            c_iaddr,
            c_privilege,
            c_cause,
            c_tval,
            c_context,
            c_ctype,
            c_sijump,
            n_valid,
            n_qualified,
            n_notify,
            n_iretire,
            n_trap,
            n_interrupt,
            n_uninferable,
            n_branch,
            n_taken,
            n_iaddr,
            n_privilege,
            n_cause,
            n_tval,
            n_context,
            n_ctype,
            n_sijump
        );
        // `tab:itype`: codes 8-15 exist only with 4 bits (bit 3 set).
        self.itype_hi.next = (self.itype.val() >> 3).any();
        self.itype_lo.next = self.itype.val().get_bits::<3>(0);
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
        if self.shift.val() {
            // prev <= curr
            self.p_valid.d.next = self.c_valid.q.val() && !self.clear.val();
            self.p_qualified.d.next = self.c_qualified.q.val();
            self.p_iretire.d.next = self.c_iretire.q.val();
            self.p_trap.d.next = self.c_trap.q.val();
            self.p_interrupt.d.next = self.c_interrupt.q.val();
            self.p_uninferable.d.next = self.c_uninferable.q.val();
            self.p_privilege.d.next = self.c_privilege.q.val();
            self.p_cause.d.next = self.c_cause.q.val();
            self.p_tval.d.next = self.c_tval.q.val();
            self.p_context.d.next = self.c_context.q.val();
            self.p_sijump.d.next = self.c_sijump.q.val();
            // curr <= next
            self.c_valid.d.next = self.n_valid.q.val() && !self.clear.val();
            self.c_qualified.d.next = self.n_qualified.q.val();
            self.c_notify.d.next = self.n_notify.q.val();
            self.c_iretire.d.next = self.n_iretire.q.val();
            self.c_trap.d.next = self.n_trap.q.val();
            self.c_interrupt.d.next = self.n_interrupt.q.val();
            self.c_uninferable.d.next = self.n_uninferable.q.val();
            self.c_branch.d.next = self.n_branch.q.val();
            self.c_taken.d.next = self.n_taken.q.val();
            self.c_iaddr.d.next = self.n_iaddr.q.val();
            self.c_privilege.d.next = self.n_privilege.q.val();
            self.c_cause.d.next = self.n_cause.q.val();
            self.c_tval.d.next = self.n_tval.q.val();
            self.c_context.d.next = self.n_context.q.val();
            self.c_ctype.d.next = self.n_ctype.q.val();
            self.c_sijump.d.next = self.n_sijump.q.val();
            // next <= the block, or an empty record
            if self.fill.val() {
                self.n_valid.d.next = self.fill_valid.val();
                self.n_qualified.d.next = false;
                self.n_notify.d.next = false;
                self.n_iretire.d.next = false;
                self.n_trap.d.next = false;
                self.n_interrupt.d.next = false;
                self.n_uninferable.d.next = false;
                self.n_branch.d.next = false;
                self.n_taken.d.next = false;
                self.n_iaddr.d.next = 0.into();
                self.n_privilege.d.next = 0.into();
                self.n_cause.d.next = 0.into();
                self.n_tval.d.next = 0.into();
                self.n_context.d.next = 0.into();
                self.n_ctype.d.next = 0.into();
                self.n_sijump.d.next = false;
            } else {
                self.n_valid.d.next = true;
                self.n_qualified.d.next = self.qualified.val();
                self.n_notify.d.next = self.notify.val();
                self.n_iretire.d.next = self.iretire.val();
                self.n_trap.d.next = self.k_trap.val();
                self.n_interrupt.d.next = self.k_interrupt.val();
                self.n_uninferable.d.next = self.k_uninferable.val();
                self.n_branch.d.next = self.k_branch.val();
                self.n_taken.d.next = self.k_taken.val();
                self.n_iaddr.d.next = self.iaddr.val();
                self.n_privilege.d.next = self.privilege.val();
                self.n_cause.d.next = self.cause.val();
                self.n_tval.d.next = self.tval.val();
                self.n_context.d.next = self.hart_context.val();
                self.n_ctype.d.next = self.ctype.val();
                self.n_sijump.d.next = self.sijump.val();
            }
        } else if self.clear.val() {
            self.p_valid.d.next = false;
            self.c_valid.d.next = false;
            self.n_valid.d.next = false;
        }
        self.prev_traced.next = self.p_valid.q.val() && self.p_qualified.q.val();
        self.prev_iretire.next = self.p_iretire.q.val();
        self.prev_trap.next = self.p_trap.q.val();
        self.prev_interrupt.next = self.p_interrupt.q.val();
        self.prev_uninferable.next = self.p_uninferable.q.val();
        self.prev_privilege.next = self.p_privilege.q.val();
        self.prev_cause.next = self.p_cause.q.val();
        self.prev_tval.next = self.p_tval.q.val();
        self.prev_context.next = self.p_context.q.val();
        self.prev_sijump.next = self.p_sijump.q.val();
        self.curr_valid.next = self.c_valid.q.val();
        self.curr_traced.next = self.c_valid.q.val() && self.c_qualified.q.val();
        self.curr_notify.next = self.c_notify.q.val();
        self.curr_iretire.next = self.c_iretire.q.val();
        self.curr_trap.next = self.c_trap.q.val();
        self.curr_interrupt.next = self.c_interrupt.q.val();
        self.curr_uninferable.next = self.c_uninferable.q.val();
        self.curr_branch.next = self.c_branch.q.val();
        self.curr_taken.next = self.c_taken.q.val();
        self.curr_iaddr.next = self.c_iaddr.q.val();
        self.curr_privilege.next = self.c_privilege.q.val();
        self.curr_cause.next = self.c_cause.q.val();
        self.curr_tval.next = self.c_tval.q.val();
        self.curr_context.next = self.c_context.q.val();
        self.curr_ctype.next = self.c_ctype.q.val();
        self.curr_sijump.next = self.c_sijump.q.val();
        self.next_traced.next = self.n_valid.q.val() && self.n_qualified.q.val();
        self.next_iretire.next = self.n_iretire.q.val();
        self.next_trap.next = self.n_trap.q.val();
        self.next_privilege.next = self.n_privilege.q.val();
        self.next_context.next = self.n_context.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    fn check<const A: usize, const E: usize, const IT: usize>(name: &str) {
        let mut uut = IngressPort::<A, E, IT>::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check(name, &v).unwrap();
        lint(name, &v).unwrap();
    }

    #[test]
    fn ingress_port_verilog_rv32_itype3() {
        check::<32, 5, 3>("ingress_rv32_itype3");
    }

    #[test]
    fn ingress_port_verilog_rv64() {
        check::<64, 6, 4>("ingress_rv64");
    }
}
