//! Framing options shared by `etrace encode` and `etrace dump` (`--framing encap|smi|atb`,
//! `docs/cli.md`): the encapsulation of `e-trace-encap/encapsulation.adoc`, the Siemens
//! messaging of the reference flow and ATB beats (`fragmentCodeAndTransport.adoc`).

use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_spec::framing::atb::AtbConfig;
use etrace_spec::framing::encap::EncapConfig;
use etrace_spec::framing::smi::SmiConfig;
use etrace_spec::framing::FramingKind;

/// Command-line options that select and configure a framing.
#[derive(Args, Clone, Debug)]
pub struct FramingArgs {
    /// Transport framing of the te_inst payloads: encap, smi or atb.
    #[arg(long, value_name = "encap|smi|atb")]
    pub framing: FramingKind,
    /// Width of the source field in bits: encap `srcID` (0-16), smi index (0-16); must be
    /// 0 for atb (the source is on ATID).
    #[arg(long, value_name = "B", default_value_t = 0)]
    pub src_bits: u8,
    /// Source number: encap `srcID`, smi index, ATB ATID (default 1 for atb, else 0).
    #[arg(long, value_name = "N")]
    pub src_id: Option<u16>,
    /// Timestamp every packet (encap / atb: `--timestamp-bytes` bytes; smi: 16 bits).
    #[arg(long)]
    pub timestamp: bool,
    /// Timestamp length T in bytes of encap / atb packets (1-8).
    #[arg(long, value_name = "T", default_value_t = 2)]
    pub timestamp_bytes: u8,
    /// ATDATA width in bits for atb (8, 16, 32, 64 or 128).
    #[arg(long, value_name = "BITS", default_value_t = 32)]
    pub atb_bits: u32,
    /// encap: insert a synchronisation sequence before the first packet and then after
    /// at least this many bytes (0 = none at all).
    #[arg(long, value_name = "BYTES", default_value_t = 4096)]
    pub sync_interval: usize,
}

impl FramingArgs {
    /// The source number (srcID, smi index or ATID).
    pub fn source(&self) -> u16 {
        self.src_id
            .unwrap_or(u16::from(self.framing == FramingKind::Atb))
    }

    /// The encapsulation settings (`encapsulation.adoc`).
    pub fn encap(&self) -> Result<EncapConfig, CliError> {
        let cfg = EncapConfig {
            src_bits: if self.framing == FramingKind::Atb {
                0
            } else {
                self.src_bits
            },
            timestamp_bytes: if self.timestamp {
                self.timestamp_bytes
            } else {
                0
            },
            ..EncapConfig::default()
        };
        if self.timestamp && self.timestamp_bytes == 0 {
            return Err(CliError::input(
                "--timestamp needs --timestamp-bytes of 1-8",
                "--timestamp-bytes",
            ));
        }
        cfg.validate().at("framing options")?;
        Ok(cfg)
    }

    /// The Siemens messaging settings.
    pub fn smi(&self) -> Result<SmiConfig, CliError> {
        let cfg = SmiConfig {
            index_bits: self.src_bits,
        };
        cfg.validate().at("--src-bits")?;
        Ok(cfg)
    }

    /// The ATB settings (`fragmentCodeAndTransport.adoc`, "ATB transport").
    pub fn atb(&self) -> Result<AtbConfig, CliError> {
        if self.src_bits != 0 {
            return Err(CliError::input(
                "atb carries the source on ATID: --src-bits must be 0",
                "--src-bits",
            ));
        }
        let mut cfg = AtbConfig::with_data_bits(self.atb_bits).at("--atb-bits")?;
        cfg.encap = self.encap()?;
        Ok(cfg)
    }

    /// The timestamp field width in bits (0 without `--timestamp`).
    pub fn timestamp_bits(&self) -> u32 {
        match (self.timestamp, self.framing) {
            (false, _) => 0,
            (true, FramingKind::Smi) => 16,
            (true, _) => 8 * u32::from(self.timestamp_bytes),
        }
    }
}
