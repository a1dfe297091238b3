//! `InputStage`: the flip-flops every encoder input passes through first (`hdl/DESIGN.md`,
//! cycle contract item 0): the ingress signals of `ingressPort.adoc` (tables
//! `tab:common-ingress` and `tab:single-ingress`), the control inputs (reset, trace enable,
//! trigger, halted), the run-time options and the output's source identifier.
//!
//! With them, no encoder logic depends combinationally on a pin: the hart's retirement
//! signals and the system's option registers only have to reach one flip-flop in a clock
//! period, whatever the encoder's own paths are, and a simulator evaluates the encoder's
//! logic once per clock edge instead of again whenever a pin changes. The output's ready
//! input is the only exception: a valid / ready transfer happens in the cycle both are high.
//!
//! A second register stage makes every input act two cycles after it was on the pins
//! (`hdl/DESIGN.md` item 0): the trace-control inputs (reset, trace enable, trigger, halted,
//! `iretire` / `itype`) feed `logic::control::TraceControl`, which registers its outputs;
//! the ingress block is registered again, decoded, by `ingress::IngressPort`; and the
//! signals that act with them (reset of the rest of the encoder, the run-time options,
//! the source identifier) are registered twice here (`X_q2`), but for `resync_max`, which
//! the resync counter registers with its comparisons.

use rust_hdl::prelude::*;

use crate::logic::resync::RESYNC_MAX_BITS;

/// One flip-flop per input: `X_q` is input `X` one cycle later, and for reset, the options
/// and the source identifier `X_q2` two (`DESIGN.md` item 0); `ID` is the width of the
/// output's source identifier.
#[derive(LogicBlock, Default)]
pub struct InputStage<const A: usize, const E: usize, const IT: usize, const ID: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the encoder stays in reset two cycles after the pin falls.
    pub reset: Signal<In, Bit>,
    /// `iretire`.
    pub iretire: Signal<In, Bit>,
    /// `itype`.
    pub itype: Signal<In, Bits<IT>>,
    /// `iaddr`.
    pub iaddr: Signal<In, Bits<A>>,
    /// `priv`.
    pub privilege: Signal<In, Bits<2>>,
    /// `cause`.
    pub cause: Signal<In, Bits<E>>,
    /// `tval`.
    pub tval: Signal<In, Bits<A>>,
    /// `context`.
    pub hart_context: Signal<In, Bits<1>>,
    /// `ctype`.
    pub ctype: Signal<In, Bits<1>>,
    /// `sijump`.
    pub sijump: Signal<In, Bit>,
    /// Trace enable.
    pub trace_enable: Signal<In, Bit>,
    /// Trigger: bit 0 start, bit 1 stop, bit 2 notify.
    pub trigger: Signal<In, Bits<3>>,
    /// Hart halted.
    pub halted: Signal<In, Bit>,
    /// Run-time option: full addresses.
    pub full_address: Signal<In, Bit>,
    /// Run-time option: implicit exception.
    pub implicit_exception: Signal<In, Bit>,
    /// Run-time option: sequentially inferable jumps.
    pub sijump_option: Signal<In, Bit>,
    /// Run-time option: packets between forced syncs.
    pub resync_max: Signal<In, Bits<RESYNC_MAX_BITS>>,
    /// The output's source identifier: `srcID` (`ID` = 16) or ATID (`ID` = 7).
    pub source_id: Signal<In, Bits<ID>>,
    /// `reset`, registered.
    pub reset_q: Signal<Out, Bit>,
    /// `iretire`, registered.
    pub iretire_q: Signal<Out, Bit>,
    /// `itype`, registered.
    pub itype_q: Signal<Out, Bits<IT>>,
    /// `iaddr`, registered.
    pub iaddr_q: Signal<Out, Bits<A>>,
    /// `privilege`, registered.
    pub privilege_q: Signal<Out, Bits<2>>,
    /// `cause`, registered.
    pub cause_q: Signal<Out, Bits<E>>,
    /// `tval`, registered.
    pub tval_q: Signal<Out, Bits<A>>,
    /// `hart_context`, registered.
    pub hart_context_q: Signal<Out, Bits<1>>,
    /// `ctype`, registered.
    pub ctype_q: Signal<Out, Bits<1>>,
    /// `sijump`, registered.
    pub sijump_q: Signal<Out, Bit>,
    /// `trace_enable`, registered.
    pub trace_enable_q: Signal<Out, Bit>,
    /// `trigger`, registered.
    pub trigger_q: Signal<Out, Bits<3>>,
    /// `halted`, registered.
    pub halted_q: Signal<Out, Bit>,
    /// `reset`, registered twice (it acts with the block register and the trace-control
    /// outputs, one cycle after `reset_q`).
    pub reset_q2: Signal<Out, Bit>,
    /// `full_address`, registered twice (it acts with the block register and the trace-control
    /// outputs, one cycle after `full_address_q`).
    pub full_address_q2: Signal<Out, Bit>,
    /// `implicit_exception`, registered twice (it acts with the block register and the trace-control
    /// outputs, one cycle after `implicit_exception_q`).
    pub implicit_exception_q2: Signal<Out, Bit>,
    /// `sijump_option`, registered twice (it acts with the block register and the trace-control
    /// outputs, one cycle after `sijump_option_q`).
    pub sijump_option_q2: Signal<Out, Bit>,
    /// `resync_max`, registered once here: the resync counter registers it again, with its
    /// comparisons (`logic::resync::ResyncCounter`).
    pub resync_max_q: Signal<Out, Bits<RESYNC_MAX_BITS>>,
    /// `source_id`, registered twice (it acts with the block register and the trace-control
    /// outputs, one cycle after `source_id_q`).
    pub source_id_q2: Signal<Out, Bits<ID>>,
    reset_ff: DFF<Bit>,
    iretire_ff: DFF<Bit>,
    itype_ff: DFF<Bits<IT>>,
    iaddr_ff: DFF<Bits<A>>,
    privilege_ff: DFF<Bits<2>>,
    cause_ff: DFF<Bits<E>>,
    tval_ff: DFF<Bits<A>>,
    hart_context_ff: DFF<Bits<1>>,
    ctype_ff: DFF<Bits<1>>,
    sijump_ff: DFF<Bit>,
    trace_enable_ff: DFF<Bit>,
    trigger_ff: DFF<Bits<3>>,
    halted_ff: DFF<Bit>,
    full_address_ff: DFF<Bit>,
    implicit_exception_ff: DFF<Bit>,
    sijump_option_ff: DFF<Bit>,
    resync_max_ff: DFF<Bits<RESYNC_MAX_BITS>>,
    source_id_ff: DFF<Bits<ID>>,
    reset_ff2: DFF<Bit>,
    full_address_ff2: DFF<Bit>,
    implicit_exception_ff2: DFF<Bit>,
    sijump_option_ff2: DFF<Bit>,
    source_id_ff2: DFF<Bits<ID>>,
}

impl<const A: usize, const E: usize, const IT: usize, const ID: usize> Logic
    for InputStage<A, E, IT, ID>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.reset_ff.clock.next = self.clock.val();
        self.reset_ff.d.next = self.reset.val();
        self.reset_q.next = self.reset_ff.q.val();
        self.iretire_ff.clock.next = self.clock.val();
        self.iretire_ff.d.next = self.iretire.val();
        self.iretire_q.next = self.iretire_ff.q.val();
        self.itype_ff.clock.next = self.clock.val();
        self.itype_ff.d.next = self.itype.val();
        self.itype_q.next = self.itype_ff.q.val();
        self.iaddr_ff.clock.next = self.clock.val();
        self.iaddr_ff.d.next = self.iaddr.val();
        self.iaddr_q.next = self.iaddr_ff.q.val();
        self.privilege_ff.clock.next = self.clock.val();
        self.privilege_ff.d.next = self.privilege.val();
        self.privilege_q.next = self.privilege_ff.q.val();
        self.cause_ff.clock.next = self.clock.val();
        self.cause_ff.d.next = self.cause.val();
        self.cause_q.next = self.cause_ff.q.val();
        self.tval_ff.clock.next = self.clock.val();
        self.tval_ff.d.next = self.tval.val();
        self.tval_q.next = self.tval_ff.q.val();
        self.hart_context_ff.clock.next = self.clock.val();
        self.hart_context_ff.d.next = self.hart_context.val();
        self.hart_context_q.next = self.hart_context_ff.q.val();
        self.ctype_ff.clock.next = self.clock.val();
        self.ctype_ff.d.next = self.ctype.val();
        self.ctype_q.next = self.ctype_ff.q.val();
        self.sijump_ff.clock.next = self.clock.val();
        self.sijump_ff.d.next = self.sijump.val();
        self.sijump_q.next = self.sijump_ff.q.val();
        self.trace_enable_ff.clock.next = self.clock.val();
        self.trace_enable_ff.d.next = self.trace_enable.val();
        self.trace_enable_q.next = self.trace_enable_ff.q.val();
        self.trigger_ff.clock.next = self.clock.val();
        self.trigger_ff.d.next = self.trigger.val();
        self.trigger_q.next = self.trigger_ff.q.val();
        self.halted_ff.clock.next = self.clock.val();
        self.halted_ff.d.next = self.halted.val();
        self.halted_q.next = self.halted_ff.q.val();
        self.full_address_ff.clock.next = self.clock.val();
        self.full_address_ff.d.next = self.full_address.val();
        self.implicit_exception_ff.clock.next = self.clock.val();
        self.implicit_exception_ff.d.next = self.implicit_exception.val();
        self.sijump_option_ff.clock.next = self.clock.val();
        self.sijump_option_ff.d.next = self.sijump_option.val();
        self.resync_max_ff.clock.next = self.clock.val();
        self.resync_max_ff.d.next = self.resync_max.val();
        self.source_id_ff.clock.next = self.clock.val();
        self.source_id_ff.d.next = self.source_id.val();
        self.reset_ff2.clock.next = self.clock.val();
        self.reset_ff2.d.next = self.reset_ff.q.val();
        self.reset_q2.next = self.reset_ff2.q.val();
        self.full_address_ff2.clock.next = self.clock.val();
        self.full_address_ff2.d.next = self.full_address_ff.q.val();
        self.full_address_q2.next = self.full_address_ff2.q.val();
        self.implicit_exception_ff2.clock.next = self.clock.val();
        self.implicit_exception_ff2.d.next = self.implicit_exception_ff.q.val();
        self.implicit_exception_q2.next = self.implicit_exception_ff2.q.val();
        self.sijump_option_ff2.clock.next = self.clock.val();
        self.sijump_option_ff2.d.next = self.sijump_option_ff.q.val();
        self.sijump_option_q2.next = self.sijump_option_ff2.q.val();
        self.resync_max_q.next = self.resync_max_ff.q.val();
        self.source_id_ff2.clock.next = self.clock.val();
        self.source_id_ff2.d.next = self.source_id_ff.q.val();
        self.source_id_q2.next = self.source_id_ff2.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn input_stage_verilog() {
        let mut uut = InputStage::<32, 5, 4, 16>::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("input_stage", &v).unwrap();
        lint("input_stage", &v).unwrap();
    }
}
