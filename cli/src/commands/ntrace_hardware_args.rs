//! The generation options of the N-Trace encoder hardware (`--protocol ntrace` on
//! `gen-verilog`; `docs/cli.md`, "etrace gen-verilog"): the N-Trace options of
//! `protocol_args` (`--ntrace-mode`, `--call-stack`, `--repeat-history`) with
//! `--sijump` and `--resync-max` (generation parameters in the hardware, run-time options
//! in the model) and the output FIFO's send rate, turned into
//! `etrace_hdl::ntrace::NtraceTopOptions`.

use clap::Args;
use etrace_hdl::ntrace::{NtraceFifoConfig, NtraceHwOptions, NtraceTopOptions};

use super::hardware_args::HardwareArgs;
use super::protocol_args::{ModeArg, NtraceArgs};
use crate::error::CliError;
use etrace_spec::framing::FramingKind;

/// Default of `--resync-max` (messages between periodic synchronisations).
const DEFAULT_RESYNC_MAX: u32 = 256;
/// Default of `--send-bytes`.
const DEFAULT_SEND_BYTES: u32 = 4;
/// Default of `--send-every`.
const DEFAULT_SEND_EVERY: u32 = 1;

/// The error of an N-Trace option given to an E-Trace build.
pub const NTRACE_ONLY: &str = "an option of the N-Trace encoder (with --protocol ntrace)";

/// Generation options of the N-Trace hardware beyond those `encode` / `run` share.
#[derive(Args, Debug, Clone)]
pub struct NtraceHardwareArgs {
    /// N-Trace hardware: sequential jump optimisation (the `sijump` input marks a
    /// sequentially inferable jump, which is then not reported).
    #[arg(long)]
    pub sijump: bool,
    /// N-Trace hardware: messages between periodic synchronisations (0: none; at most
    /// 65528).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_RESYNC_MAX)]
    pub resync_max: u32,
    /// N-Trace hardware: bytes the output sends on a sending record step (1-65535).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEND_BYTES)]
    pub send_bytes: u32,
    /// N-Trace hardware: record steps between sends (1: every step; at most 65536).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEND_EVERY)]
    pub send_every: u32,
}

impl NtraceHardwareArgs {
    /// Refuses these and the shared N-Trace options (`ntrace`) on an E-Trace build, which
    /// would otherwise ignore them: `--sijump` because the E-Trace hardware takes it at run
    /// time, the others because only the N-Trace encoder has them.
    pub fn refuse_for_etrace(&self, ntrace: &NtraceArgs) -> Result<(), CliError> {
        if self.sijump {
            return Err(CliError::input(
                "a generation option of the N-Trace hardware (E-Trace takes it at run time)",
                "--sijump",
            ));
        }
        ntrace.refuse_for_etrace()?;
        let given = [
            (self.resync_max != DEFAULT_RESYNC_MAX, "--resync-max"),
            (self.send_bytes != DEFAULT_SEND_BYTES, "--send-bytes"),
            (self.send_every != DEFAULT_SEND_EVERY, "--send-every"),
        ];
        CliError::refuse_given(&given, NTRACE_ONLY)
    }

    /// The N-Trace generator's options with a FIFO of `fifo_bytes` bytes; refuses the
    /// E-Trace hardware options (`hardware`), which the N-Trace hardware does not have.
    pub fn top_options(
        &self,
        ntrace: &NtraceArgs,
        hardware: &HardwareArgs,
        fifo_bytes: usize,
    ) -> Result<NtraceTopOptions, CliError> {
        let refused = [
            (hardware.framing != FramingKind::Encap, "--framing"),
            (hardware.src_bits != 0, "--src-bits"),
            (hardware.timestamp, "--timestamp"),
            (hardware.bpred_size != 0, "--bpred-size"),
            (hardware.return_stack_size != 0, "--return-stack-size"),
        ];
        CliError::refuse_given(
            &refused,
            "the N-Trace hardware does not have this option (its stream is MSEO bytes; \
             SRC and TSTAMP fields are not built in hardware yet)",
        )?;
        let options = NtraceTopOptions {
            generator: NtraceHwOptions {
                htm: ntrace.ntrace_mode == ModeArg::Htm,
                sync_max: self.resync_max,
                sijump: self.sijump,
                call_stack: ntrace.call_stack,
                repeat_history: ntrace.repeat_history,
                ..NtraceHwOptions::default()
            },
            fifo: NtraceFifoConfig {
                bytes: u32::try_from(fifo_bytes).unwrap_or(u32::MAX),
                send_bytes: self.send_bytes,
                every_cycles: self.send_every,
                error_fault: false,
            },
        };
        Ok(options)
    }
}
