//! The RVFI signals the front end reads (RISC-V Formal Interface, one retirement channel,
//! `XLEN` = 32), as a bundle.

use rust_hdl::prelude::*;

use crate::bundle::bundle;

bundle! {
    /// One RVFI retirement channel (`rvfi_*`, XLEN = 32): the signals an E-Trace ingress
    /// block is derived from.
    pub struct Rvfi {
        /// `rvfi_valid`: an instruction retired (or trapped) in this cycle.
        valid: In<Bit>,
        /// `rvfi_insn`: the instruction word (a compressed one in the low 16 bits).
        insn: In<Bits<32>>,
        /// `rvfi_pc_rdata`: the instruction's address.
        pc_rdata: In<Bits<32>>,
        /// `rvfi_rs1_rdata`: the value of `rs1` the instruction read.
        rs1_rdata: In<Bits<32>>,
        /// `rvfi_rs2_rdata`: the value of `rs2` the instruction read.
        rs2_rdata: In<Bits<32>>,
        /// `rvfi_trap`: the instruction raised an exception.
        trap: In<Bit>,
        /// `rvfi_mode`: the privilege level it ran at (`tab:priv` encoding, 2 bits).
        mode: In<Bits<2>>,
    }
    /// The side that drives an [`Rvfi`] channel (the core).
    pub struct RvfiSource;
}
