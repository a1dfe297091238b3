//! `NtraceIngress`: the ingress signals the N-Trace generator reads, one bundle for the
//! generator's port and the MSEO path's (`hdl/DESIGN.md`, "N-Trace message generator").

use rust_hdl::prelude::*;

use crate::bundle::bundle;

bundle! {
    /// One block of the single-retirement ingress port as N-Trace reads it
    /// (`ingressPort.adoc`, `tab:single-ingress`): the signals of the E-Trace `Ingress`
    /// bundle that N-Trace reads (no `cause`, `tval`, `ctype`), `A` = `iaddress_width_p`,
    /// `IT` = `itype_width_p`.
    pub struct NtraceIngress<const A: usize, const IT: usize> {
        /// `iretire`: one instruction retired in this block.
        iretire: In<Bit>,
        /// `itype`: termination type (`tab:itype`), `IT` bits.
        itype: In<Bits<IT>>,
        /// `iaddr`: address of the instruction (or of the faulting one).
        iaddr: In<Bits<A>>,
        /// `priv`: privilege level, named `privilege`.
        privilege: In<Bits<2>>,
        /// `context`, named `hart_context`.
        hart_context: In<Bits<1>>,
        /// `sijump`: the block ends with a sequentially inferable jump ("Sequential Jump
        /// Optimization"; read only with `NtraceHwOptions::sijump`).
        sijump: In<Bit>,
        /// `ilastsize` of the block (1: a 32-bit instruction, 0: 16-bit): I-CNT counts
        /// half-words. Not on the E-Trace `Ingress` bundle (E-Trace does not need it).
        ilastsize: In<Bit>,
    }
}
