//! RISC-V N-Trace (the Nexus-based trace, version 1.0) in the model, from the same ingress
//! port as E-Trace (`RISC-V-N-Trace.adoc` "Trace Ingress Port"):
//!
//! * [`message`]: the messages and their fields ("N-Trace Messages (Details)", "Field
//!   Encoding and Calculation Techniques");
//! * [`mseo`]: the MSEO transport ("N-Trace Transmission Protocol": 6-bit MDO and 2-bit
//!   MSEO per byte), a writer and a streaming reader with resynchronisation;
//! * [`encoder`]: BTM and HTM message generation ("Rules of Generating Messages",
//!   "Pseudo-code of Simple N-Trace Encoder", "Optimization Extensions");
//! * [`decoder`]: the decoder of "N-Trace Decoding Guidelines", producing the trace
//!   elements of `etrace-decoder` (so per-PC steps and call trees work unchanged).

pub mod call_stack;
pub mod decoder;
pub mod encoder;
pub mod message;
pub mod mseo;

pub use decoder::{NtraceDecoder, NtraceDecoderConfig};
pub use encoder::{NtraceEncoder, NtraceMode, NtraceOptions};
pub use message::{Body, Message, MessageError, Tcode};
