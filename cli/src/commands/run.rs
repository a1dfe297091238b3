//! `etrace run`: the whole software flow in memory, verified: hart model -> ingress port
//! (`ingressPort.adoc`) -> golden encoder -> packing and framing (`--framing`) ->
//! deframing and unpacking -> the decoder of `decoder.adoc` -> executed instructions,
//! compared step by step (address and privilege of every retired instruction, cause and
//! interrupt flag of every trap, in order) with the hart's ingress records.
//!
//! Exit codes: 0 when the decoded trace equals the hart's (statistics on stdout); 1 on the
//! first difference or a decode error; 2 for bad input or usage. With
//! `--implicit-exception` the trap packets carry no handler address: the decoder is given
//! the program's trap vectors (`mtvec` / `stvec` as the hart left them), as a debugger that
//! knows the target's vector table would.
//!
//! With `--protocol ntrace` the encoder is the N-Trace encoder (`--ntrace-mode`,
//! `--call-stack`, `--repeat-history`), its MSEO bytes are decoded as the N-Trace decoding
//! guidelines say, and the steps are compared without trap causes, which N-Trace does not
//! report.

use super::element_text::{element_line, privilege_name, OffsetUnit};
use super::encode::frame;
use super::encoder_args::PipelineArgs;
use super::fit_check::FitCheck;
use super::hart_args::add_bootrom_code;
use super::io::{load_params_for, read_elf};
use super::trace_args::{decode_ntrace, load_image, payload_events};
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_decoder::pcs::{push_record_steps, steps, Step};
use etrace_decoder::stream::decode_payloads;
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement, TrapVectors};
use etrace_encoder::Encoder;
use etrace_hart::Hart;
use etrace_ntrace::decoder::reproducible_step;
use etrace_ntrace::NtraceEncoder;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::params::Params;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `etrace run`.
#[derive(Args)]
#[command(mut_arg("framing", |a| a.required(false).default_value("encap")))]
pub struct RunArgs {
    /// Statically linked RISC-V ELF program, run on the hart model.
    pub elf: PathBuf,
    /// Parameters, hart, encoder and framing options (default `--framing encap`).
    #[command(flatten)]
    pub pipeline: PipelineArgs,
}

fn step_text(s: Option<&Step>) -> String {
    match s {
        Some(Step::Instruction { pc, privilege }) => {
            format!("insn {pc:#x} {}", privilege_name(*privilege))
        }
        Some(Step::Trap { ecause, interrupt }) => {
            format!("trap ecause={ecause} interrupt={}", u8::from(*interrupt))
        }
        None => "(end)".to_string(),
    }
}

/// What one protocol's pipeline hands to the check: the hart's steps and the decoded
/// elements, with the figures to print.
struct Outcome {
    /// The steps the decoder must reproduce.
    expected: Vec<Step>,
    /// The decoded trace.
    elements: Vec<TraceElement>,
    /// Its steps, or the address where it leaves the program.
    steps: Result<Vec<Step>, u64>,
    /// The unit of the offsets its errors name.
    unit: OffsetUnit,
    /// Retired instructions.
    retired: u64,
    /// The program's exit code.
    exit_code: u64,
    /// Statistics lines (packets or messages, bytes, bits per instruction).
    stats: Vec<String>,
    /// Seconds spent decoding.
    decode_time: f64,
    /// Instructions the decoder reconstructed.
    decoded: u64,
}

/// What both protocols' pipelines start from.
#[derive(Clone, Copy)]
struct Setup<'a> {
    args: &'a RunArgs,
    params: &'a Params,
    image: &'a ProgramImage,
    elf_name: &'a str,
}

/// Runs `etrace run`.
pub fn run(args: RunArgs) -> Result<(), CliError> {
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
    let setup = Setup {
        args: &args,
        params: &params,
        image: &image,
        elf_name: &elf_name,
    };
    let outcome = if args.pipeline.framing.ntrace() {
        run_ntrace(setup, &mut hart)?
    } else {
        run_etrace(setup, &mut hart)?
    };
    verify(&outcome, &elf_name)?;
    let expected = &outcome.expected;
    println!("verified: {} steps equal the hart's", expected.len());
    println!("instructions: {}", outcome.retired);
    for line in &outcome.stats {
        println!("{line}");
    }
    println!(
        "decode time (deframe, unpack, decode, expand to PCs): {:.3} s",
        outcome.decode_time
    );
    println!(
        "decoded instructions per second: {:.0}",
        outcome.decoded as f64 / outcome.decode_time.max(1e-9)
    );
    if outcome.exit_code != 0 {
        return Err(CliError::check(
            format!("the program exited with code {}", outcome.exit_code),
            &elf_name,
        ));
    }
    Ok(())
}

/// Runs the program on the hart model, handing every ingress record to `encode`; the
/// steps a decoder must reproduce, the retired instructions and the exit code.
fn run_hart(
    hart: &mut Hart,
    elf_name: &str,
    encode: &mut dyn FnMut(&IngressRecord),
) -> Result<(Vec<Step>, u64, u64), CliError> {
    let mut expected: Vec<Step> = Vec::new();
    let mut retired = 0u64;
    let mut sink = |rec: &IngressRecord, _insn: u32| {
        retired += u64::from(rec.iretire != 0);
        push_record_steps(&mut expected, rec);
        encode(rec);
    };
    let exit = hart.run(&mut sink).at(elf_name)?;
    Ok((expected, retired, exit.exit_code))
}

/// E-Trace: golden encoder, packing and framing, deframing, unpacking, the decoder of
/// `decoder.adoc`.
fn run_etrace(run: Setup, hart: &mut Hart) -> Result<Outcome, CliError> {
    let (args, params, image, elf_name) = (run.args, run.params, run.image, run.elf_name);
    let options = args.pipeline.encoder.options()?;
    let mut enc = Encoder::new(params, options).at("encoder options")?;
    let mut fit = FitCheck::new(params);
    let (expected, retired, exit_code) = run_hart(hart, elf_name, &mut |rec| {
        fit.record(rec);
        enc.push(rec)
    })?;
    fit.result(elf_name)?;
    enc.finish();
    let packets = enc.take_packets();
    let framed = frame(&args.pipeline.framing, params, &packets)?;

    let start = Instant::now();
    let (events, unit) = payload_events(&args.pipeline.framing, &framed.output)?;
    let config = DecoderConfig {
        trap_vectors: Some(TrapVectors {
            mtvec: hart.read_csr(0x305).unwrap_or(0),
            stvec: hart.read_csr(0x105).unwrap_or(0),
        }),
        ..DecoderConfig::default()
    };
    let mut decoder = TeDecoder::new(image, params, config);
    let elements = decode_payloads(&mut decoder, params, &events);
    let decoded = steps(&elements, image);
    let decode_time = start.elapsed().as_secs_f64();
    let mut stats = vec![format!("packets: {}", packets.len())];
    stats.extend(framed.size_lines(retired));
    Ok(Outcome {
        expected,
        elements,
        steps: decoded,
        unit,
        retired,
        exit_code,
        stats,
        decode_time,
        decoded: decoder.instructions(),
    })
}

/// N-Trace (`--protocol ntrace`): the N-Trace encoder's MSEO bytes, the decoder of the
/// N-Trace decoding guidelines; trap causes are not compared (N-Trace does not carry them).
fn run_ntrace(run: Setup, hart: &mut Hart) -> Result<Outcome, CliError> {
    let (args, params, image, elf_name) = (run.args, run.params, run.image, run.elf_name);
    let p = &args.pipeline;
    let options = p
        .ntrace
        .options(&p.encoder, &p.framing, params.itype_width())?;
    let mut enc = NtraceEncoder::new(options).map_err(|e| CliError::input(e.reason, e.option))?;
    let (expected, retired, exit_code) = run_hart(hart, elf_name, &mut |rec| enc.push(rec))?;
    enc.finish();
    let bytes = enc.take_bytes();
    let expected = expected.into_iter().map(reproducible_step).collect();

    let start = Instant::now();
    let elements = decode_ntrace(image, &p.framing, options.sijump, &bytes);
    let decoded = steps(&elements, image);
    let decode_time = start.elapsed().as_secs_f64();
    Ok(Outcome {
        expected,
        elements,
        decoded: decoded.as_ref().map_or(0, |s| s.len() as u64),
        steps: decoded,
        unit: OffsetUnit::Byte,
        retired,
        exit_code,
        stats: vec![
            format!("messages: {}", enc.messages()),
            format!("bytes: {}", bytes.len()),
            format!(
                "bits per instruction: {:.4}",
                8.0 * bytes.len() as f64 / retired.max(1) as f64
            ),
        ],
        decode_time,
    })
}

/// The decoded trace against the hart's steps: no decode error, the same steps.
fn verify(outcome: &Outcome, elf_name: &str) -> Result<(), CliError> {
    let errors: Vec<&TraceElement> = outcome
        .elements
        .iter()
        .filter(|e| matches!(e, TraceElement::DecodeError { .. }))
        .collect();
    if let Some(first) = errors.first() {
        let mut err = CliError::check(
            format!("{} decode errors in the trace of the hart", errors.len()),
            elf_name,
        );
        for e in std::iter::once(first).chain(errors.iter().skip(1).take(4)) {
            err = err.with_context(element_line(e, outcome.unit));
        }
        return Err(err);
    }
    let decoded = outcome.steps.as_ref().map_err(|a| {
        CliError::check(
            format!("decoded trace leaves the program at {a:#x}"),
            elf_name,
        )
    })?;
    let expected = &outcome.expected;
    let first_diff =
        (0..expected.len().max(decoded.len())).find(|&i| expected.get(i) != decoded.get(i));
    if let Some(n) = first_diff {
        let mut err = CliError::check(
            format!(
                "decoded trace differs from the hart at step {n} (expected {}, decoded {})",
                step_text(expected.get(n)),
                step_text(decoded.get(n))
            ),
            elf_name,
        )
        .with_context(format!("{:>10}  {:<32} decoded", "step", "expected (hart)"));
        for i in n.saturating_sub(3)..n + 4 {
            err = err.with_context(format!(
                "{:>10}{} {:<32} {}",
                i,
                if i == n { '>' } else { ' ' },
                step_text(expected.get(i)),
                step_text(decoded.get(i))
            ));
        }
        return Err(err);
    }
    Ok(())
}
