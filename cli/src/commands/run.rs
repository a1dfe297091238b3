//! `etrace run`: the whole software flow in memory, verified: hart model -> ingress port
//! (`ingressPort.adoc`) -> golden encoder -> packing and framing (`--framing`) ->
//! deframing and unpacking -> the decoder of `decoder.adoc` -> executed instructions,
//! compared step by step (address and privilege of every retired instruction, cause and
//! interrupt flag of every trap, in order) with the hart's ingress records.
//!
//! The flow is a pipeline of bounded buffers: every few thousand records the encoder's
//! output so far is framed, deframed and decoded, and the decoded steps are checked
//! against the hart's steps, which wait in a bounded queue ([`super::step_check`]); memory
//! does not grow with the length of the run.
//!
//! Exit codes: 0 when the decoded trace equals the hart's (statistics on stdout); 1 on the
//! first difference or a decode error; 2 for bad input or usage. With
//! `--implicit-exception` the trap packets carry no handler address: the decoder is given
//! the program's trap vectors (`mtvec` / `stvec` as the hart leaves them, from a first run
//! of the hart model without tracing), as a debugger that knows the target's vector table
//! would.
//!
//! With `--protocol ntrace` the encoder is the N-Trace encoder (`--ntrace-mode`,
//! `--call-stack`, `--repeat-history`), its MSEO bytes are decoded as the N-Trace decoding
//! guidelines say, and the steps are compared without trap causes, which N-Trace does not
//! report.

use super::element_text::{element_line, OffsetUnit};
use super::encoder_args::PipelineArgs;
use super::fit_check::FitCheck;
use super::hart_args::add_bootrom_code;
use super::io::{load_params_for, outln, read_elf};
use super::packet_framer::PacketFramer;
use super::protocol_decoder::ProtocolDecoder;
use super::step_check::{Replay, StepCheck, LAG_LIMIT};
use super::trace_args::{framing_of, load_image, ntrace_decoder};
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_decoder::pcs::{Step, StepWalker};
use etrace_decoder::stream::PayloadStream;
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement, TrapVectors};
use etrace_encoder::Encoder;
use etrace_hart::{Hart, HartConfig};
use etrace_ntrace::decoder::{reproducible_step, MessageStream};
use etrace_ntrace::NtraceEncoder;
use etrace_spec::framing::FramingKind;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::params::Params;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `etrace run`.
#[derive(Args)]
#[command(mut_arg("framing", |a| {
    a.help("Transport framing of the te_inst payloads: encap (the default), smi or atb \
            (N-Trace has none)")
}))]
pub struct RunArgs {
    /// Statically linked RISC-V ELF program, run on the hart model.
    pub elf: PathBuf,
    /// Parameters, hart, encoder and framing options (default `--framing encap`).
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

/// Ingress records between two hand-overs from the encoder to the decoder.
const RECORDS_PER_PIECE: u64 = 4096;

/// Decode errors listed with the error of a run whose trace had some.
const LISTED_ERRORS: usize = 5;

/// Runs `etrace run`.
pub fn run(mut args: RunArgs) -> Result<(), CliError> {
    if !args.pipeline.framing.ntrace() {
        let framing = &mut args.pipeline.framing.framing;
        framing.get_or_insert(FramingKind::Encap);
    }
    args.pipeline.check_protocol()?;
    let elf_name = args.elf.display().to_string();
    let bytes = read_elf(&args.elf)?;
    let mut image = load_image(std::slice::from_ref(&args.elf))?;
    let params = args
        .pipeline
        .with_default_sizes(load_params_for(args.pipeline.params.as_deref(), &image)?);
    let config = args.pipeline.hart.config(params.itype_width())?;
    let mut hart = Hart::from_elf(&bytes, config).at(&elf_name)?;
    if args.pipeline.hart.spike_bootrom {
        add_bootrom_code(&mut image, hart.xlen(), hart.entry())?;
    }
    let encoding = if args.pipeline.framing.ntrace() {
        Encoding::ntrace(&args.pipeline, &params)?
    } else {
        Encoding::etrace(&args.pipeline, &params)?
    };
    let decoder = if args.pipeline.framing.ntrace() {
        let sijump = encoding.sijump();
        ProtocolDecoder::ntrace(ntrace_decoder(&image, &args.pipeline.framing, sijump))
    } else {
        let trap_vectors = if args.pipeline.encoder.implicit_exception {
            Some(trap_vectors(&bytes, config, &elf_name)?)
        } else {
            None
        };
        let config = DecoderConfig {
            trap_vectors,
            // The encoder's own trace: a format 0 packet may stand for billions of
            // instructions (a loop whose branches are all predicted), and no corrupted count
            // needs cutting short.
            max_steps_per_packet: u64::MAX,
            ..DecoderConfig::default()
        };
        ProtocolDecoder::etrace(TeDecoder::new(&image, &params, config), &params)
    };
    let mut pipeline = Pipeline::new(encoding, decoder, &image);
    let exit = hart.run(&mut |rec: &IngressRecord, _insn: u32| pipeline.record(rec));
    let exit = exit.at(&elf_name)?;
    let summary = pipeline.finish(&elf_name, |record| {
        let mut again = Hart::from_elf(&bytes, config).at(&elf_name)?;
        // Run to its end as the first run did (the check ignores what it does not need).
        let _ = again.run(&mut |rec: &IngressRecord, _insn: u32| record(rec));
        Ok(())
    })?;
    outln!("verified: {} steps equal the hart's", summary.steps)?;
    outln!("instructions: {}", summary.retired)?;
    for line in &summary.stats {
        outln!("{line}")?;
    }
    let decode_time = summary.decode_time.as_secs_f64();
    outln!("decode time (deframe, unpack, decode, expand to PCs): {decode_time:.3} s")?;
    outln!(
        "decoded instructions per second: {:.0}",
        summary.decoded as f64 / decode_time.max(1e-9)
    )?;
    if exit.exit_code != 0 {
        return Err(CliError::check(
            format!("the program exited with code {}", exit.exit_code),
            &elf_name,
        ));
    }
    Ok(())
}

/// The steps of the check for one ingress record: its instruction, then its trap (with
/// `ntrace`, as an N-Trace decoder can reproduce them).
fn record_steps(rec: &IngressRecord, ntrace: bool, mut step: impl FnMut(Step)) {
    let mut expect = |s: Step| step(if ntrace { reproducible_step(s) } else { s });
    if rec.iretire != 0 {
        expect(Step::Instruction {
            pc: rec.iaddr,
            privilege: rec.privilege,
        });
    }
    if rec.itype.is_trap() {
        expect(Step::Trap {
            ecause: rec.cause,
            interrupt: rec.interrupt,
        });
    }
}

/// The trap vectors of the program (`mtvec` / `stvec` as a whole run of the hart model,
/// untraced, leaves them), for a decoder of traces without handler addresses.
fn trap_vectors(elf: &[u8], config: HartConfig, elf_name: &str) -> Result<TrapVectors, CliError> {
    let mut hart = Hart::from_elf(elf, config).at(elf_name)?;
    hart.run(&mut |_: &IngressRecord, _: u32| {}).at(elf_name)?;
    Ok(TrapVectors {
        mtvec: hart.read_csr(0x305).unwrap_or(0),
        stvec: hart.read_csr(0x105).unwrap_or(0),
    })
}

/// The encoder side of the pipeline: one protocol's encoder and the layer that turns its
/// output back into what the decoder reads.
// One value per run: the size of its variants does not matter.
#[allow(clippy::large_enum_variant)]
enum Encoding {
    /// E-Trace: golden encoder, packing and framing, then the deframer of `--framing`.
    Etrace {
        encoder: Box<Encoder>,
        framer: PacketFramer,
        deframer: PayloadStream,
        fit: FitCheck,
        framed: Vec<u8>,
        unit: OffsetUnit,
    },
    /// N-Trace: the N-Trace encoder's MSEO bytes, split into messages (odd addresses
    /// refused).
    Ntrace {
        encoder: Box<NtraceEncoder>,
        fit: FitCheck,
        messages: MessageStream,
        bytes: u64,
        sijump: bool,
    },
}

impl Encoding {
    /// The E-Trace encoder of the pipeline options, with its framing.
    fn etrace(p: &PipelineArgs, params: &Params) -> Result<Encoding, CliError> {
        let encoder = Encoder::new(params, p.encoder.options()?).at("encoder options")?;
        let (framing, unit) = framing_of(&p.framing)?;
        Ok(Encoding::Etrace {
            encoder: Box::new(encoder),
            framer: PacketFramer::new(&p.framing, params)?,
            deframer: PayloadStream::new(&framing, true),
            fit: FitCheck::new(params),
            framed: Vec::new(),
            unit,
        })
    }

    /// The N-Trace encoder of the pipeline options (`--protocol ntrace`).
    fn ntrace(p: &PipelineArgs, params: &Params) -> Result<Encoding, CliError> {
        let options = p
            .ntrace
            .options(&p.encoder, &p.framing, params.itype_width())?;
        let encoder =
            NtraceEncoder::new(options).map_err(|e| CliError::input(e.reason, e.option))?;
        Ok(Encoding::Ntrace {
            encoder: Box::new(encoder),
            fit: FitCheck::ntrace(),
            messages: MessageStream::new(p.framing.ntrace_fields(), true),
            bytes: 0,
            sijump: options.sijump,
        })
    }

    /// N-Trace: the encoder may leave sequentially inferable jumps unreported.
    fn sijump(&self) -> bool {
        matches!(self, Encoding::Ntrace { sijump: true, .. })
    }

    /// The unit of the offsets that decode errors name.
    fn unit(&self) -> OffsetUnit {
        match self {
            Encoding::Etrace { unit, .. } => *unit,
            Encoding::Ntrace { .. } => OffsetUnit::Byte,
        }
    }

    /// Takes the next ingress record.
    fn push(&mut self, rec: &IngressRecord) {
        match self {
            Encoding::Etrace { encoder, fit, .. } => {
                fit.record(rec, None);
                encoder.push(rec);
            }
            Encoding::Ntrace { encoder, fit, .. } => {
                fit.record(rec, None);
                encoder.push(rec);
            }
        }
    }

    /// Hands what the encoder produced since the last call to `decoder` (all of it, the
    /// encoder finished, when `last`); the time spent deframing and decoding.
    fn hand_over(
        &mut self,
        decoder: &mut ProtocolDecoder,
        last: bool,
        mut elements: impl FnMut(&[TraceElement]) -> Result<(), CliError>,
    ) -> Result<Duration, CliError> {
        match self {
            Encoding::Etrace {
                encoder,
                framer,
                deframer,
                framed,
                ..
            } => {
                if last {
                    encoder.finish();
                }
                framer.write(&encoder.take_packets(), framed)?;
                let start = Instant::now();
                let mut events = deframer.push(framed);
                if last {
                    events.extend(deframer.finish());
                }
                framed.clear();
                decoder.payloads_each(&events, &mut elements)?;
                Ok(start.elapsed())
            }
            Encoding::Ntrace {
                encoder,
                messages,
                bytes,
                ..
            } => {
                if last {
                    encoder.finish();
                }
                let out = encoder.take_bytes();
                *bytes += out.len() as u64;
                let start = Instant::now();
                decoder.messages_each(messages.push(&out), &mut elements)?;
                if last {
                    decoder.messages_each(messages.finish(), &mut elements)?;
                }
                Ok(start.elapsed())
            }
        }
    }

    /// The statistics lines of the whole run (packets or messages, bytes, bits per
    /// instruction).
    fn stats(&self, retired: u64) -> Vec<String> {
        match self {
            Encoding::Etrace { framer, .. } => {
                let mut lines = vec![format!("packets: {}", framer.packets)];
                lines.extend(framer.size_lines(retired));
                lines
            }
            Encoding::Ntrace { encoder, bytes, .. } => vec![
                format!("messages: {}", encoder.messages()),
                format!("bytes: {bytes}"),
                format!(
                    "bits per instruction: {:.4}",
                    8.0 * *bytes as f64 / retired.max(1) as f64
                ),
            ],
        }
    }
}

/// The decode errors of the trace: how many, and the first few as element lines.
#[derive(Default)]
struct DecodeErrors {
    count: u64,
    listed: Vec<String>,
}

/// The pipeline of `etrace run`: records in, the check of the decoded steps against the
/// hart's as they come.
struct Pipeline<'a> {
    encoding: Encoding,
    decoder: ProtocolDecoder<'a>,
    consumer: Consumer<'a>,
    /// The first error of the encoder side (packing, framing) or of the check's bound.
    failed: Option<CliError>,
    records: u64,
    retired: u64,
    decode_time: Duration,
}

/// The decoder's side of the check: decoded elements -> steps -> the check.
struct Consumer<'a> {
    image: &'a ProgramImage,
    /// The unit of the offsets decode errors name.
    unit: OffsetUnit,
    walker: StepWalker,
    check: StepCheck,
    errors: DecodeErrors,
    /// The address where the decoded trace left the program, once it has.
    left_at: Option<u64>,
    decoded_steps: u64,
}

impl Consumer<'_> {
    /// The steps of the next decoded elements into the check; decode errors counted.
    fn consume(&mut self, elements: &[TraceElement]) {
        for e in elements {
            if matches!(e, TraceElement::DecodeError { .. }) {
                self.errors.count += 1;
                if self.errors.listed.len() < LISTED_ERRORS {
                    self.errors.listed.push(element_line(e, self.unit));
                }
            }
        }
        if self.left_at.is_some() {
            return;
        }
        let check = &mut self.check;
        match self.walker.walk(elements, self.image, |s| check.decoded(s)) {
            Ok(n) => self.decoded_steps += n,
            Err(address) => self.left_at = Some(address),
        }
    }
}

/// What a verified run prints.
struct Summary {
    steps: u64,
    retired: u64,
    stats: Vec<String>,
    decode_time: Duration,
    decoded: u64,
}

impl<'a> Pipeline<'a> {
    /// A pipeline from `encoding` into `decoder`, whose steps walk `image`.
    fn new(
        encoding: Encoding,
        decoder: ProtocolDecoder<'a>,
        image: &'a ProgramImage,
    ) -> Pipeline<'a> {
        let consumer = Consumer {
            image,
            unit: encoding.unit(),
            walker: StepWalker::new(),
            check: StepCheck::new(LAG_LIMIT),
            errors: DecodeErrors::default(),
            left_at: None,
            decoded_steps: 0,
        };
        Pipeline {
            encoding,
            decoder,
            consumer,
            failed: None,
            records: 0,
            retired: 0,
            decode_time: Duration::ZERO,
        }
    }

    /// The hart's next record: its steps into the check, the record into the encoder and,
    /// every [`RECORDS_PER_PIECE`], the encoder's output on to the decoder.
    fn record(&mut self, rec: &IngressRecord) {
        if self.failed.is_some() {
            return;
        }
        self.retired += u64::from(rec.iretire != 0);
        let ntrace = matches!(self.encoding, Encoding::Ntrace { .. });
        record_steps(rec, ntrace, |step| self.consumer.check.expected(step));
        self.encoding.push(rec);
        self.records += 1;
        if self.records % RECORDS_PER_PIECE == 0 {
            if let Err(e) = self.hand_over(false) {
                self.failed = Some(e);
            }
        }
    }

    /// Moves the encoder's output through the decoder and the decoded steps into the
    /// check (the elements of a long walk as they come, so that memory stays bounded).
    fn hand_over(&mut self, last: bool) -> Result<(), CliError> {
        let consumer = &mut self.consumer;
        self.decode_time += self
            .encoding
            .hand_over(&mut self.decoder, last, |elements| {
                consumer.consume(elements);
                Ok(())
            })?;
        let start = Instant::now();
        let elements = self.decoder.take_elements(last);
        self.consumer.consume(&elements);
        self.decode_time += start.elapsed();
        match self.consumer.check.lag_error("the decoded trace") {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The end of the run: the rest of the trace decoded and checked; what to print, or
    /// the first problem (records the parameters cannot hold, packing or framing, decode
    /// errors, a trace that leaves the program, the first differing step). `replay` runs
    /// the hart again, handing it its records, when a difference was located only to a
    /// block of steps kept as a digest ([`StepCheck::replay`]).
    fn finish(
        mut self,
        elf_name: &str,
        replay: impl FnOnce(&mut dyn FnMut(&IngressRecord)) -> Result<(), CliError>,
    ) -> Result<Summary, CliError> {
        let (Encoding::Etrace { fit, .. } | Encoding::Ntrace { fit, .. }) = &self.encoding;
        fit.result(elf_name)?;
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.hand_over(true)?;
        if self.consumer.errors.count > 0 {
            let mut err = CliError::check(
                format!(
                    "{} decode errors in the trace of the hart",
                    self.consumer.errors.count
                ),
                elf_name,
            );
            for line in &self.consumer.errors.listed {
                err = err.with_context(line);
            }
            return Err(err);
        }
        if let Some(a) = self.consumer.left_at {
            return Err(CliError::check(
                format!("decoded trace leaves the program at {a:#x}"),
                elf_name,
            ));
        }
        let steps = match self.consumer.check.replay() {
            None => self.consumer.check.finish(elf_name)?,
            Some(Replay { from, mut check }) => {
                let ntrace = matches!(self.encoding, Encoding::Ntrace { .. });
                let mut index = 0u64;
                replay(&mut |rec| {
                    record_steps(rec, ntrace, |step| {
                        if index >= from {
                            check.expected(step);
                        }
                        index += 1;
                    })
                })?;
                check.finish(elf_name)?;
                return Err(CliError::check(
                    format!(
                        "decoded trace differs from the hart in the steps from step {from} (by \
                         their digest), but a second run of the hart gave the decoded steps"
                    ),
                    elf_name,
                ));
            }
        };
        let decoded = match self.encoding {
            Encoding::Etrace { .. } => self.decoder.instructions(),
            Encoding::Ntrace { .. } => self.consumer.decoded_steps,
        };
        Ok(Summary {
            steps,
            retired: self.retired,
            stats: self.encoding.stats(self.retired),
            decode_time: self.decode_time,
            decoded,
        })
    }
}
