//! The PicoRV32 SoC (`etrace_hdl::rvfi::picorv32_soc`) built with Verilator ([`Soc`]) and
//! the lock-step co-simulation that checks it against the hart model ([`lockstep`]).

pub mod lockstep;
mod model;

pub use crate::ports::{SocInputs, SocOutputs};
pub use model::{LoadError, Soc};
