//! Tracing a real CPU (issue 23): the RISC-V Formal Interface (RVFI) retirement port of a
//! soft core turned into the encoder's ingress port (`ingressPort.adoc`,
//! `sec:single-retire`) by [`RvfiFrontEnd`], and the PicoRV32 SoC of the
//! lock-step co-simulation ([`picorv32_soc`]).

pub mod front_end;
pub mod picorv32_soc;
pub mod port;

pub use front_end::{FrontEndOptions, RvfiFrontEnd};
pub use port::Rvfi;
