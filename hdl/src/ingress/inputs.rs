//! The encoder's inputs as bundles (`hdl/DESIGN.md`, "Bundles"): the ingress block of the
//! single-retirement port ([`Ingress`]), trace control ([`Control`]), the run-time options
//! ([`Options`]), and all of them with reset ([`EncoderInputs`], the first pins of every
//! encoder top).

use rust_hdl::prelude::*;

use crate::bundle::bundle;
use crate::logic::resync::RESYNC_MAX_BITS;

bundle! {
    /// One block of the single-retirement ingress port (`ingressPort.adoc`, tables
    /// `tab:common-ingress` and `tab:single-ingress`, section `sec:single-retire`): `A` =
    /// `iaddress_width_p`, `E` = `ecause_width_p`, `IT` = `itype_width_p`. Not on the
    /// port: `time` and a separate interrupt flag ([`crate::ingress::port`]).
    pub struct Ingress<const A: usize, const E: usize, const IT: usize> {
        /// `iretire`: one instruction retired in this block.
        iretire: In<Bit>,
        /// `itype`: termination type (`tab:itype`), `IT` bits.
        itype: In<Bits<IT>>,
        /// `iaddr`: address of the instruction (or of the faulting one).
        iaddr: In<Bits<A>>,
        /// `priv`: privilege level (`tab:priv`), named `privilege`.
        privilege: In<Bits<2>>,
        /// `cause`: exception or interrupt cause.
        cause: In<Bits<E>>,
        /// `tval`: trap value.
        tval: In<Bits<A>>,
        /// `context` (`context_width_p` = 1), named `hart_context`: `context` is a
        /// SystemVerilog keyword.
        hart_context: In<Bits<1>>,
        /// `ctype` (`ctype_width_p` = 1, `tab:context-type`).
        ctype: In<Bits<1>>,
        /// `sijump`: the block ends with a sequentially inferable jump.
        sijump: In<Bit>,
        /// `ilastsize`: the retired instruction is 2^`ilastsize` half-words (0: 16-bit,
        /// 1: 32-bit); read for the return address a call pushes (`sec:implicit-return`).
        ilastsize: In<Bit>,
    }
    /// The side that drives an [`Ingress`] block: the board's replay, the input stage.
    pub struct IngressSource;
    /// An ingress block registered (the input stage, `hdl/DESIGN.md` item 0).
    pub struct IngressRegister;
}

bundle! {
    /// Trace control (`hdl/DESIGN.md` item 3; `ingressPort.adoc`, `tab:ingress-side-band`).
    pub struct Control {
        /// Trace enable (run-time control).
        trace_enable: In<Bit>,
        /// `trigger[2:0]` (`sec:trigger`): bit 0 trace-on, bit 1 trace-off, bit 2
        /// trace-notify.
        trigger: In<Bits<3>>,
        /// `halted`: the hart is halted.
        halted: In<Bit>,
    }
    /// The side that drives [`Control`] (the input stage).
    pub struct ControlSource;
    /// Trace control registered (the input stage).
    pub struct ControlRegister;
}

bundle! {
    /// The run-time options (`branchTrace.adoc`, "Optional and run-time configurable
    /// modes"), stable while trace is enabled (`hdl/DESIGN.md` item 2).
    pub struct Options {
        /// `full_address` (`sec:full-address`).
        full_address: In<Bit>,
        /// `implicit_exception` (`sec:implicit-exception`).
        implicit_exception: In<Bit>,
        /// `sijump` (`sec:si-jump`), named `sijump_option` (`sijump` is the ingress
        /// signal).
        sijump_option: In<Bit>,
        /// `branch_prediction` (`sec:branch-prediction`): correctly predicted branches are
        /// counted (format 0); ignored by hardware without a predictor (`bpred_size_p` 0).
        branch_prediction: In<Bit>,
        /// `implicit_return` (`sec:implicit-return`): returns to the address the return
        /// stack predicts are not reported; ignored by hardware without a return stack
        /// (`return_stack_size_p` 0).
        implicit_return: In<Bit>,
        /// te_inst packets between forced syncs (`sec:resync`), 0 = off; latched at trace
        /// enable.
        resync_max: In<Bits<RESYNC_MAX_BITS>>,
    }
    /// The side that drives [`Options`] (the input stage).
    pub struct OptionsSource;
    /// The run-time options registered (the input stage).
    pub struct OptionsRegister;
}

/// Every input of an encoder but its output port's: reset, the ingress block, trace
/// control and the run-time options. The first pins of every encoder top, in this order,
/// each named as its signal (`crate::verilog::flatten_ports`).
#[derive(LogicInterface, Default)]
pub struct EncoderInputs<const A: usize, const E: usize, const IT: usize> {
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// The ingress block.
    pub block: Ingress<A, E, IT>,
    /// Trace control.
    pub control: Control,
    /// The run-time options.
    pub options: Options,
}
