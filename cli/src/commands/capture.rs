//! `etrace capture --serial DEV --baud N --elf PROG.elf [--protocol etrace|ntrace] [decode
//! options]` (`docs/cli.md`): reads a board's UART byte stream live (the encap stream of
//! `hdl/src/board`, `e-trace-encap/encapsulation.adoc`), deframes it as it arrives (the
//! push deframer of the framing registry, [`etrace_decoder::stream::PayloadStream`]),
//! decodes it (`decoder.adoc`); with `--protocol ntrace`, the MSEO bytes of an N-Trace
//! board (`hdl/src/board/ntrace_top.rs`) split into messages as they arrive
//! ([`MessageStream`]) and decoded by the N-Trace decoder; and writes the trace as `etrace decode` does (`--format
//! elements|pcs|spike-csv|json`), with a progress line on stderr when it is a terminal.
//!
//! It stops at the end of the stream (end of file, the device hung up), after
//! `--max-bytes`, after `--timeout` seconds without a byte, after `--duration` seconds,
//! or on Ctrl-C. The stream is entered at an arbitrary byte: decoding starts after the
//! first synchronisation sequence, unless `--synced` says the first byte is a packet
//! header. Exit codes as `etrace decode`: 0 without decode errors; 1 when there were any
//! (framing errors, a packet cut off by the end of the stream) or when nothing was
//! received; 2 for bad input or usage (device, ELF, options).

mod serial;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use etrace_decoder::stream::PayloadStream;
use etrace_decoder::{TeDecoder, TraceElement};
use etrace_ntrace::decoder::MessageStream;
use etrace_ntrace::message::FieldConfig;
use etrace_ntrace::{NtraceDecoder, NtraceDecoderConfig};
use etrace_spec::framing::{FramingKind, FramingSettings};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::decode::{decoder_config, parse_address, DecodeFormat};
use super::decode_output::{Decoding, Sink};
use super::element_text::OffsetUnit;
use super::framing_args::setting_error;
use super::io::{check_distinct, create_output, given_paths, Output, PartFile};
use super::protocol_args::{check_ntrace_src, Protocol, ProtocolArgs, ETRACE_ONLY};
use super::protocol_decoder::ProtocolDecoder;
use super::trace_args::load_image;
use crate::error::{CliError, InputContext};
use serial::{ReadOutcome, Source};

/// Arguments of `etrace capture`.
#[derive(Args)]
pub struct CaptureArgs {
    /// The board's serial device (e.g. /dev/ttyUSB1), or any readable file or FIFO.
    #[arg(long, value_name = "DEV")]
    pub serial: PathBuf,
    /// Baud rate (8N1) of a serial device: a standard rate such as 115200 or 3000000.
    #[arg(long, value_name = "N", default_value_t = 115_200)]
    pub baud: u32,
    /// The traced program (statically linked ELF); repeat for more programs.
    #[arg(long, value_name = "PROG.elf", required = true)]
    pub elf: Vec<PathBuf>,
    /// Encoder parameters (TOML or static config); default: those of the ELF's XLEN, with
    /// return_stack_size_p 3 and bpred_size_p 6 as `encode` uses them.
    #[arg(long, value_name = "P")]
    pub params: Option<PathBuf>,
    /// Trace protocol of the board: E-Trace packets (encap) or N-Trace messages (MSEO
    /// bytes).
    #[command(flatten)]
    pub protocol: ProtocolArgs,
    /// Transport framing: encap (the only framing of an E-Trace byte stream from a board).
    #[arg(long, value_name = "encap", default_value = "encap")]
    pub framing: FramingKind,
    /// Width of the encap `srcID` field (N-Trace: of the messages' SRC field) in bits
    /// (0-16).
    #[arg(long, value_name = "B", default_value_t = 0)]
    pub src_bits: u8,
    /// The packets carry a timestamp of `--timestamp-bytes` bytes.
    #[arg(long)]
    pub timestamp: bool,
    /// Timestamp length T in bytes with --timestamp (1-8, default 2).
    #[arg(long, value_name = "T")]
    pub timestamp_bytes: Option<u8>,
    /// The first byte read is a packet header (a stream read from its start, as
    /// `etrace decode` reads a file); by default decoding starts after the first
    /// synchronisation sequence.
    #[arg(long)]
    pub synced: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DecodeFormat::Elements)]
    pub format: DecodeFormat,
    /// Write the output here instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Also save the raw bytes received here (to decode them again with `etrace decode`).
    #[arg(long, value_name = "FILE")]
    pub raw: Option<PathBuf>,
    /// `mtvec` of the traced program (implicit exception mode).
    #[arg(long, value_name = "ADDR", value_parser = parse_address)]
    pub mtvec: Option<u64>,
    /// Most instructions the decoder follows for one packet, as for `decode` (E-Trace;
    /// default 67108864 = 2^26).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_walk: Option<u64>,
    /// `stvec` of the traced program (implicit exception mode, traps into S-mode).
    #[arg(long, value_name = "ADDR", value_parser = parse_address)]
    pub stvec: Option<u64>,
    /// Stop after this many bytes.
    #[arg(long, value_name = "N")]
    pub max_bytes: Option<u64>,
    /// Stop after this many seconds without a byte.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Stop after this many seconds in all.
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
}

/// Set by the SIGINT handler: stop reading and finish the output.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
    // A second Ctrl-C ends the process at once.
    // SAFETY: signal() is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// Why reading stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// End of file or hang-up.
    End,
    /// `--max-bytes`.
    MaxBytes,
    /// `--timeout`.
    Timeout,
    /// `--duration`.
    Duration,
    /// Ctrl-C.
    Interrupted,
}

impl Stop {
    fn text(self) -> &'static str {
        match self {
            Stop::End => "end of stream",
            Stop::MaxBytes => "--max-bytes reached",
            Stop::Timeout => "--timeout without data",
            Stop::Duration => "--duration elapsed",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// The error `e` that ended a capture after `total` bytes, once the raw file and the
/// decoded output hold what was received before it (a capture is a recording: a device
/// that fails after an hour keeps the hour). Errors finishing them are added to `e`.
fn keep_received(
    e: CliError,
    raw: Option<PartFile>,
    decoding: Decoding,
    device: &str,
    total: u64,
) -> CliError {
    let mut e = e.with_context(format!(
        "the outputs hold what was received before the error ({total} bytes)"
    ));
    if let Some(Err(kept)) = raw.map(PartFile::finish) {
        e = e.with_context(kept);
    }
    // Decode errors are not the cause here; an error writing the output is.
    if let Err(kept @ CliError::Input { .. }) = decoding.finish(device) {
        e = e.with_context(kept);
    }
    e
}

/// A duration option in seconds.
fn seconds(value: Option<f64>, option: &str) -> Result<Option<Duration>, CliError> {
    value
        .map(|s| {
            Duration::try_from_secs_f64(s)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    CliError::input(format!("{s} is not a positive number of seconds"), option)
                })
        })
        .transpose()
}

/// The trace losses the encoder reported among `elements`.
fn trace_losses(elements: &[TraceElement]) -> u64 {
    elements
        .iter()
        .filter(|e| matches!(e, TraceElement::TraceLost))
        .count() as u64
}

/// The stream reader of the protocol: packets deframed, or messages split.
enum Reader {
    Etrace(PayloadStream),
    Ntrace(MessageStream),
}

impl Reader {
    /// Reads `bytes` into `decoder`, handing the elements to `elements` as they come (for
    /// N-Trace after each message, which can stand for millions of instructions).
    fn push(
        &mut self,
        decoder: &mut ProtocolDecoder,
        bytes: &[u8],
        mut elements: impl FnMut(&[TraceElement]) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        match self {
            Reader::Etrace(r) => {
                decoder.payloads_each(&r.push(bytes), &mut elements)?;
                elements(&decoder.take_elements(false))
            }
            Reader::Ntrace(r) => decoder.messages_each(r.push(bytes), elements),
        }
    }

    /// Bytes of a packet or message begun and not ended.
    fn pending(&self) -> usize {
        match self {
            Reader::Etrace(r) => r.pending(),
            Reader::Ntrace(r) => r.pending(),
        }
    }

    /// The end of the stream (`at_end`: the stream ended, so a packet begun is cut off;
    /// else reading stopped and it is dropped) into `decoder`, its elements handed to
    /// `elements` as [`Reader::push`] hands them (the open instruction range stays in the
    /// decoder).
    fn end(
        &mut self,
        decoder: &mut ProtocolDecoder,
        at_end: bool,
        mut elements: impl FnMut(&[TraceElement]) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        match self {
            Reader::Etrace(r) => {
                let events = if at_end { r.finish() } else { r.stop() };
                decoder.payloads_each(&events, &mut elements)?;
                elements(&decoder.take_elements(false))
            }
            Reader::Ntrace(r) => {
                let items = if at_end { r.finish() } else { r.stop() };
                decoder.messages_each(items, elements)
            }
        }
    }
}

/// The input files with their options (for [`check_distinct`]).
fn inputs(args: &CaptureArgs) -> Vec<(&'static str, &Path)> {
    let mut inputs = vec![("--serial", args.serial.as_path())];
    inputs.extend(args.elf.iter().map(|e| ("--elf", e.as_path())));
    inputs.extend(args.params.iter().map(|p| ("--params", p.as_path())));
    inputs
}

/// The output files with their options (standard output is none).
fn outputs(args: &CaptureArgs) -> Vec<(&'static str, &Path)> {
    given_paths(&[("--raw", &args.raw), ("--output", &args.output)])
}

/// Runs `etrace capture`.
pub fn run(args: CaptureArgs) -> Result<(), CliError> {
    let ntrace = args.protocol.protocol == Protocol::Ntrace;
    if args.framing != FramingKind::Encap {
        let reason = if ntrace {
            "an N-Trace stream is MSEO bytes without framing"
        } else {
            "capture reads encap byte streams only (the framing of the board builds)"
        };
        return Err(CliError::input(reason, "--framing"));
    }
    if ntrace {
        check_ntrace_src(args.src_bits, None)?;
        let given = [
            (args.max_walk.is_some(), "--max-walk"),
            (args.timestamp_bytes.is_some(), "--timestamp-bytes"),
        ];
        CliError::refuse_given(&given, ETRACE_ONLY)?;
    } else if args.timestamp_bytes.is_some() && !args.timestamp {
        return Err(CliError::input(
            "the length of timestamps, which only --timestamp adds",
            "--timestamp-bytes",
        ));
    }
    let settings = FramingSettings {
        src_bits: args.src_bits,
        src_id: None,
        timestamp: args.timestamp,
        timestamp_bytes: args.timestamp_bytes.unwrap_or(2),
        atb_bits: 32,
        sync_interval: 0,
    };
    let framing = args.framing.config(&settings).map_err(setting_error)?;
    let timeout = seconds(args.timeout, "--timeout")?;
    let duration = seconds(args.duration, "--duration")?;
    let image = load_image(&args.elf)?;
    let params = super::io::decoder_params_for(args.params.as_deref(), &image)?;
    let mut config = decoder_config(args.mtvec, args.stvec, &image)?;
    if let Some(max) = args.max_walk {
        config.max_steps_per_packet = max;
    }
    check_distinct(&outputs(&args), &inputs(&args))?;
    let device = args.serial.display().to_string();
    let mut source = Source::open(&args.serial, args.baud).map_err(|e| {
        let place = if matches!(e, serial::SerialError::Baud(_)) {
            "--baud".to_string()
        } else {
            device.clone()
        };
        CliError::input(e, place)
    })?;
    let mut raw = match &args.raw {
        Some(p) => Some(create_output(p)?),
        None => None,
    };
    let out = Output::open(args.output.as_deref())?;
    let out_name = out.name();
    let (mut decoder, mut reader) = if ntrace {
        let fields = FieldConfig {
            src_bits: args.src_bits,
            timestamp: args.timestamp,
        };
        let config = NtraceDecoderConfig {
            fields,
            src: (args.src_bits > 0).then_some(0),
            sijump: true,
        };
        (
            ProtocolDecoder::ntrace(NtraceDecoder::new(&image, config)),
            Reader::Ntrace(MessageStream::new(fields, args.synced)),
        )
    } else {
        (
            ProtocolDecoder::etrace(TeDecoder::new(&image, &params, config), &params),
            Reader::Etrace(PayloadStream::new(&framing, args.synced)),
        )
    };
    let mut decoding = Decoding::new(
        Sink::new(args.format, OffsetUnit::Byte, &image, out).at(&out_name)?,
        out_name,
        OffsetUnit::Byte,
    );

    // SAFETY: installs a handler that only stores to an atomic and calls signal().
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_sigint as extern "C" fn(libc::c_int) as usize,
        );
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} capture {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let units = if ntrace { "messages" } else { "packets" };
    let started = Instant::now();
    let mut last_byte = started;
    let mut total = 0u64;
    let mut losses = 0u64;
    let mut buf = vec![0u8; 1 << 16];
    // A failed read or write ends the capture as an error (below), after what was received
    // has been written out.
    let stop: Result<Stop, CliError> = loop {
        if INTERRUPTED.load(Ordering::SeqCst) {
            break Ok(Stop::Interrupted);
        }
        let now = Instant::now();
        if duration.is_some_and(|d| now - started >= d) {
            break Ok(Stop::Duration);
        }
        if timeout.is_some_and(|t| now - last_byte >= t) {
            break Ok(Stop::Timeout);
        }
        let room = match args.max_bytes {
            Some(max) if total >= max => break Ok(Stop::MaxBytes),
            Some(max) => buf.len().min((max - total) as usize),
            None => buf.len(),
        };
        let outcome = match source
            .read(&mut buf[..room], Duration::from_millis(100))
            .at(&device)
        {
            Ok(outcome) => outcome,
            Err(e) => break Err(e),
        };
        match outcome {
            ReadOutcome::Bytes(n) => {
                let bytes = &buf[..n];
                total += n as u64;
                last_byte = Instant::now();
                if let (Some(file), Some(path)) = (raw.as_mut(), &args.raw) {
                    if let Err(e) = file.write_all(bytes).at(path.display()) {
                        break Err(e);
                    }
                }
                let pushed = reader.push(&mut decoder, bytes, |elements| {
                    losses += trace_losses(elements);
                    decoding.write(elements, false)
                });
                if let Err(e) = pushed {
                    break Err(e);
                }
                bar.set_message(format!(
                    "{device}: {total} bytes, {} {}, {} instructions, {losses} trace \
                     losses, {} decode errors",
                    decoder.packets,
                    units,
                    decoder.instructions(),
                    decoding.error_count
                ));
                bar.tick();
            }
            ReadOutcome::Idle => bar.tick(),
            ReadOutcome::End => break Ok(Stop::End),
        }
    };
    // SAFETY: restores the default action.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
    let stop = match stop {
        Ok(stop) => stop,
        Err(e) => {
            bar.abandon();
            return Err(keep_received(e, raw, decoding, &device, total));
        }
    };
    let pending = reader.pending();
    let ended = reader
        .end(&mut decoder, stop == Stop::End, |elements| {
            losses += trace_losses(elements);
            decoding.write(elements, false)
        })
        .and_then(|()| {
            let elements = decoder.take_elements(true);
            losses += trace_losses(&elements);
            decoding.write(&elements, true)
        });
    if let Err(e) = ended {
        bar.abandon();
        return Err(keep_received(e, raw, decoding, &device, total));
    }
    let (packets, instructions, error_count) = (
        decoder.packets,
        decoder.instructions(),
        decoding.error_count,
    );
    let checked = decoding.finish(&device);
    if let Some(file) = raw {
        file.finish()?;
    }
    let undecoded = if stop != Stop::End && pending > 0 {
        format!(", {pending} bytes of an incomplete last packet not decoded")
    } else {
        String::new()
    };
    bar.finish_with_message(format!(
        "{device}: {total} bytes, {packets} {units}, {instructions} instructions, \
         {losses} trace losses, {error_count} decode errors ({}{undecoded})",
        stop.text()
    ));
    if losses > 0 {
        // Said whether or not the progress line is shown (stderr not a terminal).
        eprintln!(
            "{device}: trace lost {losses} times (the encoder's FIFO overflowed); the \
             decoder resumed at the next synchronisation each time"
        );
    }
    if total == 0 {
        return Err(CliError::check(
            format!("no bytes received ({})", stop.text()),
            device,
        ));
    }
    checked
}
