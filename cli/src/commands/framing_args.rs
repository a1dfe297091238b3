//! Framing options shared by `etrace encode`, `dump`, `decode`, `run` and `calltree`
//! (`--framing encap|smi|atb`, `docs/cli.md`), turned into a framing of the registry of
//! [`etrace_spec::framing`] (the encapsulation of `e-trace-encap/encapsulation.adoc`, the
//! Siemens messaging of the reference flow, ATB beats of `fragmentCodeAndTransport.adoc`).

use super::protocol_args::{check_ntrace_src, Protocol, ProtocolArgs, ETRACE_ONLY};
use crate::error::CliError;
use clap::Args;
use etrace_spec::framing::smi::SMI_TIMESTAMP_BYTES;
use etrace_spec::framing::{FramingConfig, FramingKind, FramingSettings, SettingError};

/// Default of `--timestamp-bytes`.
const DEFAULT_TIMESTAMP_BYTES: u8 = 2;
/// Default of `--atb-bits`.
const DEFAULT_ATB_BITS: u32 = 32;
/// Default of `--sync-interval`.
const DEFAULT_SYNC_INTERVAL: usize = 4096;

/// Command-line options that select and configure a framing.
#[derive(Args, Clone, Debug)]
pub struct FramingArgs {
    /// The trace protocol (an N-Trace stream has no framing).
    #[command(flatten)]
    pub protocol: ProtocolArgs,
    /// Transport framing of the te_inst payloads: encap, smi or atb (required for
    /// E-Trace; N-Trace has none).
    #[arg(long, value_name = "encap|smi|atb")]
    pub framing: Option<FramingKind>,
    /// Width of the source field in bits: encap `srcID` (0-16), smi index (0-16); must be
    /// 0 for atb (the source is on ATID).
    #[arg(long, value_name = "B", default_value_t = 0)]
    pub src_bits: u8,
    /// Source number: encap `srcID`, smi index, ATB ATID (default 1 for atb, else 0).
    #[arg(long, value_name = "N")]
    pub src_id: Option<u16>,
    /// Timestamp every packet (encap / atb: `--timestamp-bytes` bytes; smi: 16 bits) with
    /// the cycle it is produced in (encode / run: as if one record entered per cycle).
    #[arg(long)]
    pub timestamp: bool,
    /// Timestamp length T in bytes of encap / atb packets with --timestamp (1-8, default
    /// 2; smi timestamps are 2 bytes).
    #[arg(long, value_name = "T")]
    pub timestamp_bytes: Option<u8>,
    /// ATDATA width in bits for atb: 8, 16, 32, 64 or 128 (default 32).
    #[arg(long, value_name = "BITS")]
    pub atb_bits: Option<u32>,
    /// encap: insert a synchronisation sequence before the first packet and then after
    /// at least this many bytes (0 = none at all; default 4096).
    #[arg(long, value_name = "BYTES")]
    pub sync_interval: Option<usize>,
}

impl FramingArgs {
    /// The framing settings of these options.
    pub fn settings(&self) -> FramingSettings {
        FramingSettings {
            src_bits: self.src_bits,
            src_id: self.src_id,
            timestamp: self.timestamp,
            timestamp_bytes: self.timestamp_bytes.unwrap_or(DEFAULT_TIMESTAMP_BYTES),
            atb_bits: self.atb_bits.unwrap_or(DEFAULT_ATB_BITS),
            sync_interval: self.sync_interval.unwrap_or(DEFAULT_SYNC_INTERVAL),
        }
    }

    /// The framing with its configuration (from the registry of
    /// [`etrace_spec::framing`]). An option the framing would not use is refused rather
    /// than ignored: `--atb-bits` without atb, `--sync-interval` without encap,
    /// `--timestamp-bytes` without `--timestamp` or with a length smi's fixed timestamp
    /// cannot honour.
    pub fn config(&self) -> Result<FramingConfig, CliError> {
        let kind = self.framing.ok_or_else(|| {
            CliError::input(
                "E-Trace needs a framing: give --framing encap, smi or atb",
                "--framing",
            )
        })?;
        let refuse = |what: String, option: &str| Err(CliError::input(what, option));
        if kind != FramingKind::Atb && self.atb_bits.is_some() {
            return refuse(
                format!("{kind} has no ATDATA width (atb only)"),
                "--atb-bits",
            );
        }
        if kind != FramingKind::Encap && self.sync_interval.is_some() {
            return refuse(
                format!("{kind} has no synchronisation sequences (encap only)"),
                "--sync-interval",
            );
        }
        if let Some(bytes) = self.timestamp_bytes {
            if !self.timestamp {
                return refuse(
                    "the length of timestamps, which only --timestamp adds".to_string(),
                    "--timestamp-bytes",
                );
            }
            if kind == FramingKind::Smi && bytes != SMI_TIMESTAMP_BYTES {
                return refuse(
                    format!("smi timestamps are always {SMI_TIMESTAMP_BYTES} bytes"),
                    "--timestamp-bytes",
                );
            }
        }
        kind.config(&self.settings()).map_err(setting_error)
    }

    /// Checks these options against `--protocol`: an N-Trace stream is MSEO bytes with
    /// no further framing (`docs/cli.md`), so `--framing` and the options of the E-Trace
    /// framings are refused rather than ignored, and its SRC field (`--src-bits`,
    /// `--src-id`) is checked as the N-Trace encoder checks it.
    pub fn check_protocol(&self) -> Result<(), CliError> {
        if !self.ntrace() {
            return Ok(());
        }
        if self.framing.is_some() {
            return Err(CliError::input(
                "an N-Trace stream is MSEO bytes without framing",
                "--framing",
            ));
        }
        let given = [
            (self.timestamp_bytes.is_some(), "--timestamp-bytes"),
            (self.atb_bits.is_some(), "--atb-bits"),
            (self.sync_interval.is_some(), "--sync-interval"),
        ];
        CliError::refuse_given(&given, ETRACE_ONLY)?;
        check_ntrace_src(self.src_bits, self.src_id)
    }

    /// Whether the stream is N-Trace (`--protocol ntrace`).
    pub fn ntrace(&self) -> bool {
        self.protocol.protocol == Protocol::Ntrace
    }

    /// The N-Trace message fields these options configure (SRC width, timestamps).
    pub fn ntrace_fields(&self) -> etrace_ntrace::message::FieldConfig {
        etrace_ntrace::message::FieldConfig {
            src_bits: self.src_bits,
            timestamp: self.timestamp,
        }
    }
}

/// A framing setting that cannot be used, as a command-line error at its option.
pub fn setting_error(e: SettingError) -> CliError {
    let option = e.option;
    CliError::input(e, option)
}
