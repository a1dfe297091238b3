//! Transport framings of te_inst payloads, both directions, streaming:
//!
//! * [`encap`]: Unformatted Trace & Diagnostic Data Packet Encapsulation for RISC-V 1.0
//!   (`e-trace-encap/`), with null packets and synchronisation sequences;
//! * [`smi`]: the Siemens (UltraSoC) messaging header used by the reference flow's
//!   `te_inst_raw` files;
//! * [`atb`]: Arm ATB beats carrying the encap stream, the source on ATID, as a listing
//!   of one beat per line.
//!
//! Each implements the streaming interface of [`event`]: a push [`Deframer`] that takes
//! the stream in pieces of any size and yields payloads with their place and header
//! fields and errors with their place and cause, then resynchronises; and a [`Framer`]
//! that turns payloads into the stream. [`registry`] is the one list of the framings
//! ([`FramingKind`], [`FramingConfig`]); [`byte_stream`] is the push deframer shared by
//! the byte framings.

pub mod atb;
pub mod byte_stream;
pub mod encap;
mod error;
pub mod event;
pub mod registry;
pub mod smi;

#[cfg(test)]
mod interop_tests;
#[cfg(test)]
mod stream_tests;
#[cfg(test)]
mod tests;

pub use error::FrameError;
pub use event::{
    deframe_all, Deframed, Deframer, FrameEvent, Framer, Outgoing, Position, PositionUnit,
};
pub use registry::{
    Framing, FramingConfig, FramingKind, FramingSettings, SettingError, UnknownFraming,
};
