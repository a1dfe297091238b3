//! `etrace dump`: deframe a stream (`--framing encap|smi|atb`) and list every te_inst
//! packet with its fields (`payload.adoc`), one line each: `#index @offset <listing>`.
//! Framing and packet errors are listed as `#? @offset error: ...` (for atb `@beat N` or
//! `@line N`); decoding resumes after them (the deframers resynchronise) and the command
//! exits 2 at the end. With `--protocol ntrace` it lists the N-Trace messages of an MSEO
//! stream with their fields (`RISC-V-N-Trace.adoc` "N-Trace Messages (Details)").

use super::framing_args::FramingArgs;
use super::io::load_params;
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_ntrace::decoder::{MessageStream, StreamItem};
use etrace_spec::framing::{deframe_all, FrameEvent};
use etrace_spec::packet::{unpack_with, IOptions, TeInst};
use etrace_spec::params::Params;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `etrace dump`.
#[derive(Args)]
pub struct DumpArgs {
    /// The framed stream (for atb: one beat per line, as `etrace encode` writes it).
    pub input: PathBuf,
    /// Encoder parameters (TOML or static config); default RV64 (RV32 with `--rv32`).
    #[arg(long, value_name = "P")]
    pub params: Option<PathBuf>,
    /// Start from the RV32 default parameters (a `--params` file overrides them).
    #[arg(long)]
    pub rv32: bool,
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
struct Lister<'a, W: Write> {
    params: &'a Params,
    ioptions: IOptions,
    follow_stream: bool,
    index: u64,
    errors: u64,
    out: W,
}

impl<W: Write> Lister<'_, W> {
    fn payload(&mut self, offset: String, payload: &[u8]) -> std::io::Result<()> {
        match unpack_with(payload, self.params, &self.ioptions) {
            Ok(inst) => {
                writeln!(
                    self.out,
                    "#{} @{offset} {}",
                    self.index,
                    inst.listing(self.params)
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
        writeln!(self.out, "#? @{offset} error: {e}")
    }
}

/// Runs `etrace dump`.
pub fn run(args: DumpArgs) -> Result<(), CliError> {
    let params = load_params(args.params.as_deref(), if args.rv32 { 32 } else { 64 })?;
    let data = std::fs::read(&args.input).at(args.input.display())?;
    let stdout = std::io::stdout();
    let mut lister = Lister {
        params: &params,
        ioptions: IOptions {
            implicit_exception: args.implicit_exception,
            branch_prediction: args.branch_prediction,
            jump_target_cache: args.jump_target_cache,
            ..IOptions::default()
        },
        follow_stream: args.ioptions_from_stream,
        index: 0,
        errors: 0,
        out: std::io::BufWriter::new(stdout.lock()),
    };
    list(&args, &data, &mut lister)?;
    lister.out.flush().at("standard output")?;
    if lister.errors > 0 {
        return Err(CliError::input(
            format!("{} framing or packet errors", lister.errors),
            args.input.display(),
        ));
    }
    Ok(())
}

fn list<W: Write>(args: &DumpArgs, data: &[u8], lister: &mut Lister<W>) -> Result<(), CliError> {
    if args.framing.ntrace() {
        return list_ntrace(args, data, lister);
    }
    let mut deframer = args.framing.config()?.deframer(true);
    for event in deframe_all(deframer.as_mut(), data) {
        match event {
            FrameEvent::Packet(p) => lister.payload(p.at.packet_place(), &p.payload),
            FrameEvent::Error { at, error } => lister.error(at, error),
        }
        .at("standard output")?;
    }
    Ok(())
}

/// `--protocol ntrace`: every N-Trace message with its fields (`#index @offset MESSAGE`).
fn list_ntrace<W: Write>(
    args: &DumpArgs,
    data: &[u8],
    lister: &mut Lister<W>,
) -> Result<(), CliError> {
    let mut stream = MessageStream::new(args.framing.ntrace_fields(), true);
    let mut items = stream.push(data);
    items.extend(stream.finish());
    for item in items {
        match item {
            StreamItem::Message {
                offset, message, ..
            } => {
                let index = lister.index;
                lister.index += 1;
                writeln!(lister.out, "#{index} @{offset} {message}")
            }
            StreamItem::Error { offset, reason, .. } => {
                lister.error(offset.map_or("?".to_string(), |o| o.to_string()), reason)
            }
        }
        .at("standard output")?;
    }
    Ok(())
}
