//! The software encoder pipeline's options on the command line, shared by `encode` and
//! `run`: parameters, hart model, the encoder's run-time options (`branchTrace.adoc`,
//! "Optional and run-time configurable modes"), the N-Trace encoder's options and framing;
//! names from `docs/cli.md`.

use super::framing_args::FramingArgs;
use super::hart_args::HartArgs;
use super::protocol_args::{NtraceArgs, ETRACE_ONLY};
use crate::error::CliError;
use clap::Args;
use etrace_encoder::EncoderOptions;
use etrace_spec::params::Params;
use std::path::PathBuf;

/// Options of hart -> encoder -> framing.
#[derive(Args)]
pub struct PipelineArgs {
    /// Encoder parameters (TOML or static config); default: those of the ELF's XLEN (RV64
    /// for `encode`'s CSV input).
    #[arg(long, value_name = "P")]
    pub params: Option<PathBuf>,
    /// Hart model options (ELF input).
    #[command(flatten)]
    pub hart: HartArgs,
    /// Encoder run-time options (for `run` with `--implicit-exception` the decoder is
    /// given the program's trap vectors).
    #[command(flatten)]
    pub encoder: EncoderArgs,
    /// N-Trace encoder options (`--protocol ntrace`).
    #[command(flatten)]
    pub ntrace: NtraceArgs,
    /// Framing options.
    #[command(flatten)]
    pub framing: FramingArgs,
}

/// `return_stack_size_p` (an 8-entry return stack) when `--implicit-return` is given
/// without `--params` (`docs/cli.md`, "Encoder run-time options").
pub const DEFAULT_RETURN_STACK_SIZE_P: u64 = 3;

/// `bpred_size_p` (64 two-bit counters) when `--branch-prediction` is given without
/// `--params`.
pub const DEFAULT_BPRED_SIZE_P: u64 = 6;

/// `params` (read from no file) with [`DEFAULT_RETURN_STACK_SIZE_P`] for `implicit_return`
/// and [`DEFAULT_BPRED_SIZE_P`] for `branch_prediction`.
pub fn with_default_sizes(
    mut params: Params,
    implicit_return: bool,
    branch_prediction: bool,
) -> Params {
    if implicit_return {
        params.return_stack_size_p = DEFAULT_RETURN_STACK_SIZE_P;
    }
    if branch_prediction {
        params.bpred_size_p = DEFAULT_BPRED_SIZE_P;
    }
    params
}

impl PipelineArgs {
    /// Checks the options against `--protocol` before anything runs, in one place for
    /// both protocols: the options of the other protocol are refused rather than ignored
    /// (with N-Trace the E-Trace encoder's and framings' options, with E-Trace the N-Trace
    /// encoder's), then the framing (E-Trace) or the SRC field (N-Trace) is checked.
    pub fn check_protocol(&self) -> Result<(), CliError> {
        if self.framing.ntrace() {
            self.encoder.refuse_for_ntrace()?;
            self.framing.check_protocol()
        } else {
            self.ntrace.refuse_for_etrace()?;
            self.framing.config().map(|_| ())
        }
    }

    /// The parameters of `--params`; without a file, `base` (the hart's defaults) with the
    /// default sizes of the return stack and the branch predictor that `--implicit-return`
    /// and `--branch-prediction` need.
    pub fn with_default_sizes(&self, base: Params) -> Params {
        if self.params.is_some() {
            return base;
        }
        with_default_sizes(
            base,
            self.encoder.implicit_return,
            self.encoder.branch_prediction,
        )
    }
}

/// Run-time options of the encoder.
#[derive(Args, Debug, Clone)]
pub struct EncoderArgs {
    /// `sec:full-address`: full instead of differential addresses.
    #[arg(long)]
    pub full_address: bool,
    /// Force a resync after N packets (0 = never).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 256,
        conflicts_with = "resync_max_code"
    )]
    pub resync_max: u32,
    /// The reference flow's resync-max code K: N = 2^(K+4).
    #[arg(long, value_name = "K")]
    pub resync_max_code: Option<u32>,
    /// `sec:si-jump`: sequentially inferable jumps (needs `sijump_p = 1`).
    #[arg(long)]
    pub sijump: bool,
    /// `sec:implicit-exception`: no trap handler address in trap packets.
    #[arg(long)]
    pub implicit_exception: bool,
    /// `sec:implicit-return`: returns predicted by the return stack are not reported (its
    /// size: --params, else return_stack_size_p = 3, an 8-entry stack; cosim: the build's).
    #[arg(long)]
    pub implicit_return: bool,
    /// `sec:branch-prediction`: correctly predicted branches as a count (its size: --params,
    /// else bpred_size_p = 6, 64 two-bit counters; cosim: the build's).
    #[arg(long)]
    pub branch_prediction: bool,
}

impl EncoderArgs {
    /// Refuses the options only the E-Trace encoder has with `--protocol ntrace`, which
    /// would otherwise ignore them (`--sijump` and `--resync-max` are shared).
    pub fn refuse_for_ntrace(&self) -> Result<(), CliError> {
        let given = [
            (self.full_address, "--full-address"),
            (self.implicit_exception, "--implicit-exception"),
            (self.implicit_return, "--implicit-return"),
            (self.branch_prediction, "--branch-prediction"),
        ];
        CliError::refuse_given(&given, ETRACE_ONLY)
    }

    /// The encoder options these flags select.
    pub fn options(&self) -> Result<EncoderOptions, CliError> {
        let resync_max = match self.resync_max_code {
            Some(k) => EncoderOptions::resync_packets_from_code(k).ok_or_else(|| {
                CliError::input(
                    format!("resync-max code {k} is too large"),
                    "--resync-max-code",
                )
            })?,
            None => self.resync_max,
        };
        Ok(EncoderOptions {
            full_address: self.full_address,
            implicit_exception: self.implicit_exception,
            sijump: self.sijump,
            implicit_return: self.implicit_return,
            branch_prediction: self.branch_prediction,
            resync_max,
        })
    }
}
