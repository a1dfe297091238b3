//! The E-Trace encoder hardware in RustHDL (`rust-hdl` 0.46), generated as Verilog.
//! Architecture and the cycle contract shared with the golden model: `hdl/DESIGN.md`.

pub mod block_ram;
pub mod board;
mod bundle;
pub mod config;
pub mod control_interface;
pub mod encoder_core;
pub mod fusesoc;
pub mod generics;
pub mod ingress;
pub mod logic;
pub mod lut_boundary;
pub mod ntrace;
pub mod output;
pub mod packer;
pub mod packet_kind;
pub mod param;
pub mod rvfi;
#[cfg(test)]
mod test_rng;
pub mod top;
pub mod verilog;
