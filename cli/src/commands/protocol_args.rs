//! The trace protocol (`--protocol etrace|ntrace`, on `encode`, `dump`, `decode`, `run`,
//! `calltree`) and the N-Trace encoder's options (`--ntrace-mode`, `--call-stack`,
//! `--repeat-history`, on `encode` and `run`), names from `docs/cli.md`. N-Trace
//! (`RISC-V-N-Trace.adoc`) shares `--sijump`, `--resync-max` (messages between periodic
//! synchronisations), `--src-bits` / `--src-id` (the SRC field) and `--timestamp` with
//! E-Trace; its stream is MSEO bytes without further framing.

use super::encoder_args::EncoderArgs;
use super::framing_args::FramingArgs;
use crate::error::CliError;
use clap::{Args, ValueEnum};
use etrace_ntrace::encoder::{check_src, OptionError};
use etrace_ntrace::{NtraceMode, NtraceOptions};
use etrace_spec::ingress::ItypeWidth;

/// The error of an E-Trace option given with `--protocol ntrace`.
pub const ETRACE_ONLY: &str = "an option of E-Trace (not of --protocol ntrace)";

/// An N-Trace option that cannot be used, as a command-line error at its option.
fn option_error(e: OptionError) -> CliError {
    CliError::input(e.reason, format!("--{}", e.option))
}

/// Checks an N-Trace SRC field of `src_bits` bits holding `src_id` (default 0) as the
/// N-Trace encoder does: the one check of `--src-bits` / `--src-id` for every command
/// that writes or reads N-Trace.
pub fn check_ntrace_src(src_bits: u8, src_id: Option<u16>) -> Result<(), CliError> {
    check_src(src_bits, src_id.unwrap_or(0)).map_err(option_error)
}

/// The trace protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Protocol {
    /// E-Trace te_inst packets, framed (`--framing`).
    Etrace,
    /// N-Trace messages in MSEO bytes.
    Ntrace,
}

/// `--protocol`.
#[derive(Args, Clone, Copy, Debug)]
pub struct ProtocolArgs {
    /// Trace protocol: E-Trace packets (framed with --framing) or N-Trace messages (MSEO
    /// bytes, no framing).
    #[arg(long, value_enum, default_value_t = Protocol::Etrace)]
    pub protocol: Protocol,
}

/// N-Trace `trTeInstMode` on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Branch trace messaging.
    Btm,
    /// History trace messaging.
    Htm,
}

/// The N-Trace encoder's options.
#[derive(Args, Clone, Copy, Debug)]
pub struct NtraceArgs {
    /// N-Trace: branch trace messaging (a message per taken branch) or history trace
    /// messaging (a HIST bit per branch).
    #[arg(long, value_enum, default_value_t = ModeArg::Htm)]
    pub ntrace_mode: ModeArg,
    /// N-Trace: implicit-return call stack depth (0 = off; at most 32 in software, 8 in the
    /// hardware commands; needs itype width 4).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub call_stack: usize,
    /// N-Trace: repeated history (ResourceFull RCODE 2) and repeated branch messages.
    #[arg(long)]
    pub repeat_history: bool,
}

impl NtraceArgs {
    /// Refuses these options on an E-Trace command, which would otherwise ignore them.
    pub fn refuse_for_etrace(&self) -> Result<(), CliError> {
        let given = [
            (self.ntrace_mode != ModeArg::Htm, "--ntrace-mode"),
            (self.call_stack != 0, "--call-stack"),
            (self.repeat_history, "--repeat-history"),
        ];
        CliError::refuse_given(&given, super::ntrace_hardware_args::NTRACE_ONLY)
    }

    /// The encoder options of these flags with the shared ones (`--sijump`,
    /// `--resync-max`, `--src-bits`, `--src-id`, `--timestamp`).
    pub fn options(
        &self,
        encoder: &EncoderArgs,
        framing: &FramingArgs,
        itype_width: ItypeWidth,
    ) -> Result<NtraceOptions, CliError> {
        let options = NtraceOptions {
            mode: match self.ntrace_mode {
                ModeArg::Btm => NtraceMode::Btm,
                ModeArg::Htm => NtraceMode::Htm,
            },
            call_stack: self.call_stack,
            repeat_history: self.repeat_history,
            sijump: encoder.sijump,
            src_bits: framing.src_bits,
            src_id: framing.src_id.unwrap_or(0),
            timestamp: framing.timestamp,
            sync_max: encoder.options()?.resync_max,
            itype_width,
            ..NtraceOptions::default()
        };
        options.validate().map_err(option_error)?;
        Ok(options)
    }
}
