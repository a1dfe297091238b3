//! One module per `etrace` sub-command.

pub mod calltree;
pub mod capture;
pub mod convert;
pub mod cosim;
pub mod cosim_core;
mod cosim_output;
pub mod decode;
mod decode_output;
pub mod dump;
mod element_text;
pub mod encode;
mod encoder_args;
mod fit_check;
mod framing_args;
pub mod gen_verilog;
mod hardware_args;
mod hart_args;
mod io;
pub mod iss;
mod packet_framer;
mod protocol_args;
mod protocol_decoder;
pub mod run;
mod step_check;
pub mod synth;
mod trace_args;
