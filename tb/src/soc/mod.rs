//! The SoCs of a core (`etrace_hdl::rvfi::soc`: PicoRV32, SERV) built with Verilator ([`Soc`]) and
//! the lock-step co-simulation that checks it against the hart model ([`lockstep`]).

pub mod lockstep;
mod model;

pub use crate::ports::{SocInputs, SocOutputs};
pub use model::{LoadError, Soc};
