//! One module per `etrace` sub-command.

pub mod calltree;
pub mod capture;
pub mod convert;
pub mod cosim;
pub mod cosim_core;
pub mod decode;
pub mod dump;
mod element_text;
pub mod encode;
mod encoder_args;
mod framing_args;
pub mod gen_verilog;
mod hart_args;
mod io;
pub mod iss;
pub mod run;
pub mod synth;
mod trace_args;
