//! The encoder's control interface: memory-mapped registers of the RISC-V Trace Control
//! Interface 1.0 ("Trace Encoder Control Interface"), as E-Trace 2.0 `control.adoc` or
//! N-Trace 1.0 "N-Trace Specific Trace Controls" applies them.

pub mod te_registers;
