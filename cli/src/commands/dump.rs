//! `etrace dump`: deframe a stream (`--framing encap|smi|atb`) and list every te_inst
//! packet with its fields (`payload.adoc`), one line each: `#index @offset <listing>`.
//! Framing and packet errors are listed as `#? @offset error: ...` (for atb `@beat N` or
//! `@line N`), a run of them with nothing readable between once, with its extent;
//! decoding resumes after them (the deframers resynchronise) and the command exits 1 at
//! the end (a failed check, as `etrace decode`). The stream is read in pieces. The field
//! widths come from `--params`, `--elf` or `--rv32` / `--rv64`: without any of them the
//! command refuses to guess. With `--protocol ntrace` it lists the N-Trace messages of an
//! MSEO stream with their fields (`RISC-V-N-Trace.adoc` "N-Trace Messages (Details)").

use super::framing_args::FramingArgs;
use super::io::{load_params, load_params_for, read_pieces};
use super::trace_args::load_image;
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_ntrace::decoder::{MessageStream, StreamItem};
use etrace_spec::framing::FrameEvent;
use etrace_spec::packet::{unpack_with, IOptions, TeInst};
use etrace_spec::params::Params;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `etrace dump`.
#[derive(Args)]
pub struct DumpArgs {
    /// The framed stream (for atb: one beat per line, as `etrace encode` writes it); an
    /// empty file is an error.
    pub input: PathBuf,
    /// Encoder parameters (TOML or static config, at most 1 MiB), read over the RV64
    /// defaults (RV32 with `--rv32`, those of the ELF's XLEN with `--elf`).
    #[arg(long, value_name = "P")]
    pub params: Option<PathBuf>,
    /// The traced program: the default parameters are those of its XLEN.
    #[arg(long, value_name = "PROG.elf", conflicts_with_all = ["rv32", "rv64"])]
    pub elf: Option<PathBuf>,
    /// Start from the RV32 default parameters (a `--params` file overrides them).
    #[arg(long, conflicts_with = "rv64")]
    pub rv32: bool,
    /// Start from the RV64 default parameters (a `--params` file overrides them).
    #[arg(long)]
    pub rv64: bool,
    /// Framing options.
    #[command(flatten)]
    pub framing: FramingArgs,
    /// Take the run-time options that decide packet layouts (`ioptions`) from each support
    /// packet of the stream (`sec:format33`) instead of only from the flags below.
    #[arg(long)]
    pub ioptions_from_stream: bool,
    /// Initial `ioptions`: implicit exception mode (`sec:implicit-exception`).
    #[arg(long)]
    pub implicit_exception: bool,
    /// Initial `ioptions`: branch prediction mode (`sec:branch-prediction`).
    #[arg(long)]
    pub branch_prediction: bool,
    /// Initial `ioptions`: jump target cache mode.
    #[arg(long)]
    pub jump_target_cache: bool,
}

/// Lists packets, tracking the `ioptions` that decide the layouts.
struct Lister<W: Write> {
    ioptions: IOptions,
    follow_stream: bool,
    index: u64,
    errors: u64,
    /// The run of errors being gathered: its first line, and the place of its last error
    /// when there are more.
    run: Option<(String, u64, String)>,
    out: W,
}

impl<W: Write> Lister<W> {
    /// Lists one E-Trace payload, read with `params` and the current `ioptions`.
    fn payload(&mut self, offset: String, payload: &[u8], params: &Params) -> std::io::Result<()> {
        match unpack_with(payload, params, &self.ioptions) {
            Ok(inst) => {
                self.end_run()?;
                writeln!(
                    self.out,
                    "#{} @{offset} {}",
                    self.index,
                    inst.listing(params)
                )?;
                self.index += 1;
                if let (true, TeInst::Support(s)) = (self.follow_stream, &inst) {
                    self.ioptions = s.ioptions;
                }
                Ok(())
            }
            Err(e) => self.error(offset, e),
        }
    }

    fn error(
        &mut self,
        offset: impl std::fmt::Display,
        e: impl std::fmt::Display,
    ) -> std::io::Result<()> {
        self.errors += 1;
        match &mut self.run {
            Some((_, more, last)) => {
                *more += 1;
                *last = offset.to_string();
            }
            None => self.run = Some((format!("#? @{offset} error: {e}"), 0, String::new())),
        }
        Ok(())
    }

    /// Lists the run of errors gathered, if any.
    fn end_run(&mut self) -> std::io::Result<()> {
        match self.run.take() {
            Some((line, 0, _)) => writeln!(self.out, "{line}"),
            Some((line, more, last)) => {
                writeln!(self.out, "{line} (and {more} more errors through @{last})")
            }
            None => Ok(()),
        }
    }
}

/// Runs `etrace dump`.
pub fn run(args: DumpArgs) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut lister = Lister {
        ioptions: IOptions {
            implicit_exception: args.implicit_exception,
            branch_prediction: args.branch_prediction,
            jump_target_cache: args.jump_target_cache,
            ..IOptions::default()
        },
        follow_stream: args.ioptions_from_stream,
        index: 0,
        errors: 0,
        run: None,
        out: std::io::BufWriter::new(stdout.lock()),
    };
    args.framing.check_protocol()?;
    if args.framing.ntrace() {
        let mut stream = MessageStream::new(args.framing.ntrace_fields(), true);
        read_pieces(&args.input, |piece| {
            list_ntrace(stream.push(piece), &mut lister)
        })?;
        list_ntrace(stream.finish(), &mut lister)?;
    } else {
        // A framing problem is reported first.
        let framing = args.framing.config()?;
        let params = dump_params(&args)?;
        let mut deframer = framing.deframer(true);
        let mut events = Vec::new();
        read_pieces(&args.input, |piece| {
            deframer.push(piece, &mut events);
            list(events.drain(..), &mut lister, &params)
        })?;
        deframer.finish(&mut events);
        list(events.drain(..), &mut lister, &params)?;
    }
    lister.end_run().at("standard output")?;
    lister.out.flush().at("standard output")?;
    let what = if args.framing.ntrace() {
        "N-Trace messages"
    } else {
        "te_inst packets"
    };
    if lister.errors > 0 {
        return Err(CliError::check(
            format!("{} framing or packet errors", lister.errors),
            args.input.display(),
        ));
    }
    if lister.index == 0 {
        return Err(CliError::input(
            format!("no {what} in the stream"),
            args.input.display(),
        ));
    }
    Ok(())
}

/// The parameters the packets are read with: `--params` over the defaults of `--elf`'s
/// XLEN or of `--rv32` / `--rv64`; with none of these options, an error (the address
/// width decides every address field, and a wrong guess lists wrong fields).
fn dump_params(args: &DumpArgs) -> Result<Params, CliError> {
    if let Some(elf) = &args.elf {
        return load_params_for(
            args.params.as_deref(),
            &load_image(std::slice::from_ref(elf))?,
        );
    }
    if !(args.rv32 || args.rv64 || args.params.is_some()) {
        return Err(CliError::input(
            "the field widths are not known: give --params, --elf, --rv32 or --rv64",
            "dump",
        ));
    }
    load_params(args.params.as_deref(), if args.rv32 { 32 } else { 64 })
}

/// Lists frame events, their payloads read with `params`.
fn list<W: Write>(
    events: impl Iterator<Item = FrameEvent>,
    lister: &mut Lister<W>,
    params: &Params,
) -> Result<(), CliError> {
    for event in events {
        match event {
            FrameEvent::Packet(p) => lister.payload(p.at.packet_place(), &p.payload, params),
            FrameEvent::Error { at, error } => lister.error(at, error),
        }
        .at("standard output")?;
    }
    Ok(())
}

/// `--protocol ntrace`: every N-Trace message with its fields (`#index @offset MESSAGE`).
fn list_ntrace<W: Write>(items: Vec<StreamItem>, lister: &mut Lister<W>) -> Result<(), CliError> {
    for item in items {
        match item {
            StreamItem::Message {
                offset, message, ..
            } => lister.end_run().and_then(|()| {
                let index = lister.index;
                lister.index += 1;
                writeln!(lister.out, "#{index} @{offset} {message}")
            }),
            StreamItem::Error { offset, reason, .. } => {
                lister.error(offset.map_or("?".to_string(), |o| o.to_string()), reason)
            }
        }
        .at("standard output")?;
    }
    Ok(())
}
