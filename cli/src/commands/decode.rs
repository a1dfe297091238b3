//! `etrace decode`: framed te_inst packets (`--framing encap|smi|atb`) and the program's
//! ELF file(s) -> the trace decoder of `decoder.adoc` -> trace elements, program addresses,
//! a spike instruction-trace CSV or JSON (`--format`).
//!
//! Packets are unpacked with the `ioptions` of the latest support packet (`sec:format33`).
//! Framing, packet and decoding errors become `decode-error` elements; decoding resumes
//! at the next synchronisation packet. With `--protocol ntrace` the stream is N-Trace
//! messages in MSEO bytes, decoded as the N-Trace decoding guidelines say.
//!
//! Exit codes: 0 without decode errors; 1 when there were any (a failed check: they are
//! listed on stderr, and inline with `--format elements` / `json`); 2 for bad input or
//! usage (unreadable files, options).

use super::decode_output::{Decoding, Sink};
use super::io::{check_distinct, Output};
use super::trace_args::TraceArgs;
use crate::error::{CliError, InputContext};
use clap::{Args, ValueEnum};
use etrace_decoder::{DecoderConfig, ProgramImage, TrapVectors};
use std::path::PathBuf;

/// The output formats of `etrace decode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DecodeFormat {
    /// One line per trace element.
    Elements,
    /// One hex address per executed instruction.
    Pcs,
    /// Spike instruction-trace CSV rows.
    SpikeCsv,
    /// One JSON object per trace element per line.
    Json,
}

/// Arguments of `etrace decode`.
#[derive(Args)]
pub struct DecodeArgs {
    /// The trace and its programs.
    #[command(flatten)]
    pub trace: TraceArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DecodeFormat::Elements)]
    pub format: DecodeFormat,
    /// Write the output here instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// `mtvec` of the traced program, for traces made in implicit exception mode
    /// (`sec:implicit-exception`: trap packets then carry no handler address).
    #[arg(long, value_name = "ADDR", value_parser = parse_address)]
    pub mtvec: Option<u64>,
    /// `stvec` of the traced program (implicit exception mode, traps into S-mode).
    #[arg(long, value_name = "ADDR", value_parser = parse_address)]
    pub stvec: Option<u64>,
}

/// An address in hex (`0x...`) or decimal.
pub(super) fn parse_address(text: &str) -> Result<u64, String> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => t.parse(),
    }
    .map_err(|e| format!("`{text}` is not an address: {e}"))
}

/// The decoder configuration of `--mtvec` / `--stvec` (trap vectors given when either is),
/// for programs of `image`: each must be a value the CSR can hold (privileged ISA,
/// "Machine Trap-Vector Base-Address Register"): XLEN bits, MODE (bits 1:0) direct (0) or
/// vectored (1); 2 and 3 are reserved.
pub(super) fn decoder_config(
    mtvec: Option<u64>,
    stvec: Option<u64>,
    image: &ProgramImage,
) -> Result<DecoderConfig, CliError> {
    let xlen = image.xlen().unwrap_or_default().bits();
    for (option, value) in [("--mtvec", mtvec), ("--stvec", stvec)] {
        let Some(value) = value else { continue };
        if !etrace_spec::bitfield::fits(value, xlen) {
            return Err(CliError::input(
                format!("{value:#x} does not fit in the {xlen} bits of the program's XLEN"),
                option,
            ));
        }
        if value & 3 > 1 {
            return Err(CliError::input(
                format!(
                    "{value:#x} has MODE {} (bits 1:0), which is reserved: 0 is direct, 1 \
                     vectored",
                    value & 3
                ),
                option,
            ));
        }
    }
    Ok(DecoderConfig {
        trap_vectors: (mtvec.is_some() || stvec.is_some()).then(|| TrapVectors {
            mtvec: mtvec.unwrap_or(0),
            stvec: stvec.unwrap_or(0),
        }),
        ..DecoderConfig::default()
    })
}

/// Runs `etrace decode`: the trace is read in pieces and the output written as it is
/// decoded.
pub fn run(args: DecodeArgs) -> Result<(), CliError> {
    let (image, params) = args.trace.programs()?;
    let unit = args.trace.unit()?;
    if let Some(out) = &args.output {
        check_distinct(&[("--output", out)], &args.trace.inputs())?;
    }
    let config = decoder_config(args.mtvec, args.stvec, &image)?;
    let out = Output::open(args.output.as_deref())?;
    let out_name = out.name();
    let mut decoder = args.trace.decoder(&image, &params, config);
    let sink = Sink::new(args.format, unit, &image, out).at(&out_name)?;
    let mut decoding = Decoding::new(sink, out_name, unit);
    args.trace.decode(&mut decoder, |elements, last| {
        decoding.write(elements, last)
    })?;
    if decoder.packets == 0 && decoding.error_count == 0 {
        return Err(CliError::input(
            format!("no {} in the trace", decoder.units()),
            args.trace.place(),
        ));
    }
    decoding.finish(&args.trace.place())
}
