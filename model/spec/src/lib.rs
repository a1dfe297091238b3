//! The spec-level types of the project's RISC-V E-Trace encoder, shared by the hardware,
//! the golden model and the tools.
//!
//! * [`bitfield`]: the low `width` bits of a value, as every field is cut;
//! * [`ingress`]: the hart-to-encoder port of `ingressPort.adoc` (and a seeded random
//!   ingress stream for tests);
//! * [`isa`]: instruction decoding and the classification tables (`ingressPort.adoc`
//!   itype, `decoder.adoc` predicates), shared by the hart model and the decoder;
//! * [`elf`]: the program images the hart model runs and the decoder follows;
//! * [`params`]: the encoder parameters of `discovery.adoc`;
//! * [`packet`]: te_inst packets and their payload bits (`payload.adoc`);
//! * [`predictor`]: the branch predictor both encoder and decoder keep (`branchTrace.adoc`);
//! * [`framing`]: the transport framings of payloads (e-trace-encap, UltraSoC-style, ATB);
//! * [`formats`]: the reference flow's files (spike CSV, encoder-input CSV, parameter files);
//! * [`trace_control`]: the encoder's memory-mapped control registers (Trace Control
//!   Interface 1.0).

// The riscv-etrace glue shared with the decoder's tests names this crate by its name.
#[cfg(test)]
extern crate self as etrace_spec;

pub mod bitfield;
pub mod elf;
pub mod formats;
pub mod framing;
pub mod ingress;
pub mod isa;
pub mod packet;
pub mod params;
pub mod predictor;
pub mod trace_control;
