//! `etrace iss`: run an ELF on the hart model and write its instruction trace as a spike CSV
//! and / or an encoder-input CSV.

use super::hart_args::HartArgs;
use super::io::{check_distinct, create_output, finish_output, read_elf, write_stdout, PartFile};
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_hart::{Hart, IngressSink};
use etrace_spec::formats::encoder_input::{EncoderInputOptions, EncoderInputWriter};
use etrace_spec::formats::spike_csv::{SpikeRow, SpikeWriter};
use etrace_spec::ingress::{IngressRecord, ItypeWidth};
use etrace_spec::isa::Xlen;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `etrace iss`.
#[derive(Args)]
pub struct IssArgs {
    /// Statically linked RISC-V ELF program (RV32 or RV64, detected from the file).
    pub elf: PathBuf,
    /// Hart model options.
    #[command(flatten)]
    pub hart: HartArgs,
    /// Width of the itype field in the encoder input (3 or 4).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=4))]
    pub itype_width: u8,
    /// Write the spike instruction trace CSV here.
    #[arg(long, value_name = "OUT")]
    pub spike_csv: Option<PathBuf>,
    /// Write the encoder-input CSV here.
    #[arg(long, value_name = "OUT")]
    pub encoder_input: Option<PathBuf>,
}

/// Writes every record to the requested files.
struct FileSinks {
    spike: Option<SpikeWriter<PartFile>>,
    encoder_input: Option<EncoderInputWriter<PartFile>>,
    error: Option<std::io::Error>,
}

impl IngressSink for FileSinks {
    fn record(&mut self, rec: &IngressRecord, insn: u32) {
        if self.error.is_some() {
            return;
        }
        let result = (|| {
            if let Some(w) = &mut self.spike {
                w.write_row(&SpikeRow::from_ingress(rec, insn))?;
            }
            if let Some(w) = &mut self.encoder_input {
                w.write_record(rec)?;
            }
            Ok(())
        })();
        if let Err(e) = result {
            self.error = Some(e);
        }
    }
}

/// Runs `etrace iss`.
pub fn run(args: IssArgs) -> Result<(), CliError> {
    let mut outputs = Vec::new();
    outputs.extend(args.spike_csv.as_deref().map(|p| ("--spike-csv", p)));
    outputs.extend(
        args.encoder_input
            .as_deref()
            .map(|p| ("--encoder-input", p)),
    );
    check_distinct(&outputs, &[("the ELF", &args.elf)])?;
    let bytes = read_elf(&args.elf)?;
    // clap keeps the value in 3..=4.
    let itype_width = ItypeWidth::from_bits(u64::from(args.itype_width)).unwrap_or_default();
    let config = args.hart.config(itype_width)?;
    let mut hart = Hart::from_elf(&bytes, config).at(args.elf.display())?;
    let mut sinks = FileSinks {
        spike: match &args.spike_csv {
            Some(p) => Some(SpikeWriter::new(create_output(p)?).at(p.display())?),
            None => None,
        },
        encoder_input: match &args.encoder_input {
            Some(p) => {
                let columns = EncoderInputOptions {
                    context: true,
                    sijump: true,
                };
                Some(EncoderInputWriter::new(create_output(p)?, columns).at(p.display())?)
            }
            None => None,
        },
        error: None,
    };
    let start = Instant::now();
    let outcome = hart.run(&mut sinks);
    let elapsed = start.elapsed();
    if let Some(e) = sinks.error.take() {
        return Err(CliError::input(e, "writing the trace files"));
    }
    if let (Some(w), Some(p)) = (sinks.spike.take(), &args.spike_csv) {
        finish_output(w.into_inner(), p)?;
    }
    if let (Some(w), Some(p)) = (sinks.encoder_input.take(), &args.encoder_input) {
        finish_output(w.into_inner(), p)?;
    }
    let console = hart.console();
    if !console.is_empty() {
        let end = if console.ends_with('\n') { "" } else { "\n" };
        write_stdout(format_args!("{console}{end}"))?;
    }
    let outcome = outcome.map_err(|e| {
        CliError::input(e, args.elf.display())
            .with_context("the trace files hold the instructions retired up to this point")
    })?;
    let secs = elapsed.as_secs_f64().max(1e-9);
    let status = format!(
        "{}: {} ({}), exit code {}, {} instructions retired, {} traps, {} privilege changes, {:.1} M instructions/s",
        args.elf.display(),
        match hart.xlen() {
            Xlen::X32 => "RV32",
            Xlen::X64 => "RV64",
        },
        if args.hart.spike_bootrom { "spike boot ROM" } else { "ELF entry" },
        outcome.exit_code,
        outcome.retired,
        outcome.exceptions() + outcome.interrupts(),
        outcome.privilege_changes,
        outcome.retired as f64 / secs / 1e6,
    );
    if outcome.exit_code != 0 {
        // The error line first (`docs/cli.md`), the run's summary below it.
        return Err(CliError::check(
            format!("the program exited with code {}", outcome.exit_code),
            args.elf.display(),
        )
        .with_context(status));
    }
    eprintln!("{status}");
    Ok(())
}
