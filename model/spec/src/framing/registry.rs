//! The one place that lists the framings: [`FramingKind`] names them for the command line
//! (`--framing`, `docs/cli.md`), [`FramingConfig`] holds one with its configuration, and
//! each configuration type implements [`Framing`] to make its configuration from the
//! command line's [`FramingSettings`], its push [`Deframer`] and its [`Framer`].
//!
//! A new framing is a new module whose configuration implements [`Framing`], its
//! `pub mod` line in `framing/mod.rs`, and one line (with its doc line) in the
//! `framings!` list below; a byte framing whose headers give the packet size implements
//! [`PacketFormat`](super::byte_stream::PacketFormat) and reuses the push deframer of
//! [`byte_stream`](super::byte_stream).

use std::fmt;
use std::str::FromStr;

use super::byte_stream::BoundaryScan;
use super::event::{Deframer, Framer, PositionUnit};

/// The framing options of the command line (`docs/cli.md`); each framing reads those it
/// uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FramingSettings {
    /// `--src-bits`: width of the source field (encap `srcID`, smi index).
    pub src_bits: u8,
    /// `--src-id`: the source number to frame with (default: the framing's).
    pub src_id: Option<u16>,
    /// `--timestamp`: every framed packet carries a timestamp.
    pub timestamp: bool,
    /// `--timestamp-bytes`: timestamp length T in bytes (encap, atb).
    pub timestamp_bytes: u8,
    /// `--atb-bits`: ATDATA width in bits.
    pub atb_bits: u32,
    /// `--sync-interval`: bytes between encap synchronisation sequences (0: none).
    pub sync_interval: usize,
}

/// A framing setting that cannot be used: the option that gives it and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct SettingError {
    /// The command-line option (or `framing options`).
    pub option: &'static str,
    /// What is wrong.
    pub reason: String,
}

impl SettingError {
    /// The error `reason` of `option`.
    pub fn new(option: &'static str, reason: impl fmt::Display) -> SettingError {
        SettingError {
            option,
            reason: reason.to_string(),
        }
    }
}

/// Refuses a `--src-id` that does not fit the `bits` of a framing's source `field`
/// (encap `srcID`, smi index), so that a framer is refused when it is made rather than at
/// its first packet.
pub(super) fn check_source_fits(
    settings: &FramingSettings,
    bits: u8,
    field: &str,
) -> Result<(), SettingError> {
    match settings.src_id {
        Some(id) if !crate::bitfield::fits(u64::from(id), u32::from(bits)) => {
            Err(SettingError::new(
                "--src-id",
                format!("{field} {id} does not fit in the {bits} bits of --src-bits"),
            ))
        }
        _ => Ok(()),
    }
}

/// What the registry needs of a framing; implemented by its configuration type.
pub trait Framing {
    /// The configuration of the command line's settings.
    fn from_settings(settings: &FramingSettings) -> Result<Self, SettingError>
    where
        Self: Sized;

    /// A push deframer for a stream whose first byte starts a packet (`synced`) or that
    /// is entered at an arbitrary byte.
    fn deframer(&self, synced: bool) -> Box<dyn Deframer>;

    /// A scan of the packet boundaries of a stream whose first byte starts a packet, for
    /// framings whose packets are found from their headers ([`BoundaryScan`]); `None`
    /// for the others.
    fn boundary_scan(&self) -> Option<Box<dyn BoundaryScan>> {
        None
    }

    /// A push deframer for the part of a stream that starts with a packet at byte
    /// `offset`, as the whole stream's deframer is there (a part cut at a boundary that
    /// [`Framing::boundary_scan`] found); `None` where there is no boundary scan.
    fn deframer_at(&self, _offset: usize) -> Option<Box<dyn Deframer>> {
        None
    }

    /// A framer with the writing settings (synchronisation interval, timestamps, source).
    fn framer(&self, settings: &FramingSettings) -> Result<Box<dyn Framer>, SettingError>;

    /// The source number framed when `--src-id` is not given.
    fn default_source(&self) -> u16 {
        0
    }

    /// The unit of the [`Position::index`](super::Position::index) of its events.
    fn position_unit(&self) -> PositionUnit;
}

/// Generates [`FramingKind`] and [`FramingConfig`] from one line per framing:
/// `Variant = "name", path::to::ConfigType;`.
macro_rules! framings {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal, $config:ty;)*) => {
        /// The framings by their command-line names (`--framing`, `docs/cli.md`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum FramingKind {
            $($(#[doc = $doc])* $variant,)*
        }

        impl FramingKind {
            /// Every framing.
            pub const ALL: &'static [FramingKind] = &[$(FramingKind::$variant),*];

            /// The command-line name.
            pub fn name(self) -> &'static str {
                match self {
                    $(FramingKind::$variant => $name,)*
                }
            }

            /// The framing's configuration from the command line's settings.
            pub fn config(self, settings: &FramingSettings) -> Result<FramingConfig, SettingError> {
                match self {
                    $(FramingKind::$variant => {
                        <$config as Framing>::from_settings(settings).map(FramingConfig::$variant)
                    })*
                }
            }
        }

        /// A framing with its configuration.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum FramingConfig {
            $($(#[doc = $doc])* $variant($config),)*
        }

        impl FramingConfig {
            /// Which framing it is.
            pub fn kind(&self) -> FramingKind {
                match self {
                    $(FramingConfig::$variant(_) => FramingKind::$variant,)*
                }
            }

            /// The framing's implementation.
            pub fn framing(&self) -> &dyn Framing {
                match self {
                    $(FramingConfig::$variant(config) => config,)*
                }
            }
        }
    };
}

framings! {
    /// RISC-V encapsulation ([`encap`](super::encap)).
    Encap = "encap", super::encap::EncapConfig;
    /// Siemens messaging ([`smi`](super::smi)).
    Smi = "smi", super::smi::SmiConfig;
    /// ATB beats ([`atb`](super::atb)).
    Atb = "atb", super::atb::AtbConfig;
}

impl FramingConfig {
    /// A push deframer (see [`Framing::deframer`]).
    pub fn deframer(&self, synced: bool) -> Box<dyn Deframer> {
        self.framing().deframer(synced)
    }

    /// A boundary scan (see [`Framing::boundary_scan`]).
    pub fn boundary_scan(&self) -> Option<Box<dyn BoundaryScan>> {
        self.framing().boundary_scan()
    }

    /// A deframer for a part starting at `offset` (see [`Framing::deframer_at`]).
    pub fn deframer_at(&self, offset: usize) -> Option<Box<dyn Deframer>> {
        self.framing().deframer_at(offset)
    }

    /// A framer (see [`Framing::framer`]).
    pub fn framer(&self, settings: &FramingSettings) -> Result<Box<dyn Framer>, SettingError> {
        self.framing().framer(settings)
    }

    /// The source number to frame with: `--src-id`, else the framing's default.
    pub fn source(&self, settings: &FramingSettings) -> u16 {
        settings
            .src_id
            .unwrap_or_else(|| self.framing().default_source())
    }

    /// The unit of its event positions.
    pub fn position_unit(&self) -> PositionUnit {
        self.framing().position_unit()
    }
}

impl fmt::Display for FramingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown framing name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFraming(pub String);

impl fmt::Display for UnknownFraming {
    /// `unknown framing `x` (expected encap, smi or atb)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown framing `{}` (expected ", self.0)?;
        let names = FramingKind::ALL;
        for (i, kind) in names.iter().enumerate() {
            let sep = match names.len() - i {
                n if n == names.len() => "",
                1 => " or ",
                _ => ", ",
            };
            write!(f, "{sep}{kind}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownFraming {}

impl FromStr for FramingKind {
    type Err = UnknownFraming;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FramingKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownFraming(s.to_string()))
    }
}
