//! Golden model of the project's RISC-V E-Trace encoder.
//!
//! Layers, each in its own module:
//! * [`ingress`]: the hart-to-encoder port of `ingressPort.adoc`;
//! * `isa`: instruction decoding and the classification tables (`ingressPort.adoc` itype,
//!   `decoder.adoc` predicates), shared by the hart model and the decoder;
//! * `hart`: a RISC-V hart that runs ELF programs and emits the ingress stream;
//! * `params`: the encoder parameters of `discovery.adoc`;
//! * `formats`: the reference flow's files (spike CSV, encoder-input CSV, parameter files).

pub mod calltree;
pub mod cycle;
pub mod decoder;
pub mod encoder;
pub mod formats;
pub mod framing;
pub mod hart;
pub mod ingress;
pub mod isa;
pub mod packet;
pub mod params;
