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

use super::element_text::{
    element_json, element_line, for_each_insn, ExpandError, OffsetUnit, SpikeRows,
};
use super::io::output_or_stdout;
use super::trace_args::TraceArgs;
use crate::error::CliError;
use clap::{Args, ValueEnum};
use etrace_decoder::{DecoderConfig, ProgramImage, TraceElement, TrapVectors};
use std::io::Write;
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

/// The decoder configuration of `--mtvec` / `--stvec` (trap vectors given when either is).
pub(super) fn decoder_config(mtvec: Option<u64>, stvec: Option<u64>) -> DecoderConfig {
    DecoderConfig {
        trap_vectors: (mtvec.is_some() || stvec.is_some()).then(|| TrapVectors {
            mtvec: mtvec.unwrap_or(0),
            stvec: stvec.unwrap_or(0),
        }),
        ..DecoderConfig::default()
    }
}

/// Runs `etrace decode`.
pub fn run(args: DecodeArgs) -> Result<(), CliError> {
    let config = decoder_config(args.mtvec, args.stvec);
    let (image, elements, unit) = args.trace.decode(config)?;

    let (out_name, out) = output_or_stdout(args.output.as_deref())?;
    let mut errors: Vec<String> = elements
        .iter()
        .filter(|e| matches!(e, TraceElement::DecodeError { .. }))
        .map(|e| element_line(e, unit))
        .collect();
    match write_output(args.format, &elements, &image, unit, out) {
        Ok(()) => {}
        Err(ExpandError::Io(e)) => return Err(CliError::input(e, out_name)),
        Err(ExpandError::NotInImage(a)) => errors.push(format!(
            "decode-error: no instruction in the programs at {a:#x}"
        )),
    }
    if errors.is_empty() {
        return Ok(());
    }
    let mut err = CliError::check(
        format!("{} decode errors", errors.len()),
        args.trace.place(),
    );
    for line in errors.iter().take(20) {
        err = err.with_context(line);
    }
    Err(err)
}

fn write_output(
    format: DecodeFormat,
    elements: &[TraceElement],
    image: &ProgramImage,
    unit: OffsetUnit,
    mut out: Box<dyn Write>,
) -> Result<(), ExpandError> {
    match format {
        DecodeFormat::Elements => {
            for e in elements {
                writeln!(out, "{}", element_line(e, unit))?;
            }
        }
        DecodeFormat::Json => {
            for e in elements {
                writeln!(out, "{}", element_json(e))?;
            }
        }
        DecodeFormat::Pcs => {
            for e in elements {
                if let TraceElement::Range { first, count, .. } = e {
                    for_each_insn(image, *first, *count, |pc| writeln!(out, "{pc:#x}"))?;
                }
            }
        }
        DecodeFormat::SpikeCsv => {
            let mut rows = SpikeRows::new(image, out)?;
            for e in elements {
                rows.element(e)?;
            }
            out = rows.finish()?;
        }
    }
    out.flush()?;
    Ok(())
}
