//! Transport framings of te_inst payloads, both directions, streaming:
//!
//! * [`encap`]: Unformatted Trace & Diagnostic Data Packet Encapsulation for RISC-V 1.0
//!   (`e-trace-encap/`), with null packets and synchronisation sequences;
//! * [`smi`]: the Siemens (UltraSoC) messaging header used by the reference flow's
//!   `te_inst_raw` files;
//! * [`atb`]: Arm ATB beats carrying the encap stream, the source on ATID.
//!
//! Each has a framer (`frame(payload, source, timestamp)`) and a deframer iterating over a
//! byte stream (or beats) that yields packets with their byte offsets and header fields,
//! reports errors with the offset and cause, then resynchronises.

pub mod atb;
pub mod encap;
mod error;
pub mod smi;

#[cfg(test)]
mod interop_tests;
#[cfg(test)]
mod tests;

pub use error::FrameError;

use std::fmt;
use std::str::FromStr;

/// The framing names of the command line (`--framing encap|smi|atb`, `docs/cli.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FramingKind {
    /// RISC-V encapsulation ([`encap`]).
    Encap,
    /// Siemens messaging ([`smi`]).
    Smi,
    /// ATB beats ([`atb`]).
    Atb,
}

impl FramingKind {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            FramingKind::Encap => "encap",
            FramingKind::Smi => "smi",
            FramingKind::Atb => "atb",
        }
    }
}

impl fmt::Display for FramingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown framing name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown framing `{0}` (expected encap, smi or atb)")]
pub struct UnknownFraming(pub String);

impl FromStr for FramingKind {
    type Err = UnknownFraming;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "encap" => Ok(FramingKind::Encap),
            "smi" => Ok(FramingKind::Smi),
            "atb" => Ok(FramingKind::Atb),
            _ => Err(UnknownFraming(s.to_string())),
        }
    }
}
