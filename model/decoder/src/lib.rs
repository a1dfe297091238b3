//! The trace decoder, layered as trace decoders in the field are (OpenCSD): bytes ->
//! framed packets ([`stream::PayloadStream`], pushed in pieces) -> te_inst packets ->
//! trace elements ([`TeDecoder`], the algorithm of `decoder.adoc`) -> per-instruction
//! PCs ([`pcs`]), over a [`ProgramImage`] made from one or more ELF files; [`calltree`] is the
//! call-hierarchy view of the per-instruction PCs; [`parallel`] decodes a stream on several
//! threads with the same output.

pub mod branches;
pub mod calltree;
pub mod element;
pub mod error;
pub mod image;
pub mod parallel;
pub mod pcs;
pub mod stream;
pub mod te_decoder;

pub use element::{RangeEnd, TraceElement};
pub use error::{DecodeCause, DecodeError};
pub use image::{ImageError, ProgramImage};
pub use te_decoder::{DecoderConfig, TeDecoder, TrapVectors};
