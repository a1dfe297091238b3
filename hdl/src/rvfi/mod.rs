//! Tracing a real CPU (issue 23): the RISC-V Formal Interface (RVFI) retirement port of a
//! soft core turned into the encoder's ingress port (`ingressPort.adoc`,
//! `sec:single-retire`) by [`RvfiFrontEnd`], the encoder with that front end for one's
//! own core ([`rvfi_encoder`]), the SoCs of the lock-step
//! co-simulation: what they share ([`soc`]), PicoRV32 ([`picorv32_soc`]) and SERV
//! ([`serv_soc`]), and the SoC tops of the boards ([`board_soc`]).

pub mod board_soc;
pub mod front_end;
pub mod picorv32_soc;
pub mod port;
pub mod rvfi_encoder;
pub mod serv_soc;
pub mod soc;
pub mod soc_control;

pub use front_end::{CoreTraps, FrontEndOptions, RvfiFrontEnd};
pub use port::Rvfi;
