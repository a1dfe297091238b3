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

use super::element_text::{element_line, privilege_name};
use super::encode::frame;
use super::encoder_args::PipelineArgs;
use super::fit_check::FitCheck;
use super::hart_args::add_bootrom_code;
use super::io::{load_params_for, read_elf};
use super::trace_args::{load_image, payload_events};
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_decoder::pcs::{push_record_steps, steps, Step};
use etrace_decoder::stream::decode_payloads;
use etrace_decoder::{DecoderConfig, TeDecoder, TraceElement, TrapVectors};
use etrace_encoder::Encoder;
use etrace_hart::Hart;
use etrace_spec::ingress::IngressRecord;
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

/// Runs `etrace run`.
pub fn run(args: RunArgs) -> Result<(), CliError> {
    let elf_name = args.elf.display().to_string();
    let options = args.pipeline.encoder.options()?;
    let bytes = read_elf(&args.elf)?;
    let image = load_image(std::slice::from_ref(&args.elf))?;
    let params = load_params_for(args.pipeline.params.as_deref(), &image)?;

    // Hart -> encoder, keeping the steps a decoder must reproduce.
    let mut enc = Encoder::new(&params, options).at("encoder options")?;
    let config = args.pipeline.hart.config(params.itype_width())?;
    let mut hart = Hart::from_elf(&bytes, config).at(&elf_name)?;
    let mut image = image;
    if args.pipeline.hart.spike_bootrom {
        add_bootrom_code(&mut image, hart.xlen(), hart.entry())?;
    }
    let mut expected: Vec<Step> = Vec::new();
    let mut retired = 0u64;
    let mut fit = FitCheck::new(&params);
    let mut sink = |rec: &IngressRecord, _insn: u32| {
        retired += u64::from(rec.iretire != 0);
        fit.record(rec);
        push_record_steps(&mut expected, rec);
        enc.push(rec);
    };
    let outcome = hart.run(&mut sink).at(&elf_name)?;
    fit.result(&elf_name)?;
    enc.finish();
    let packets = enc.take_packets();
    let framed = frame(&args.pipeline.framing, &params, &packets)?;

    // Deframe -> unpack -> decode -> instruction steps.
    let start = Instant::now();
    let (events, unit) = payload_events(&args.pipeline.framing, &framed.output)?;
    let config = DecoderConfig {
        trap_vectors: Some(TrapVectors {
            mtvec: hart.read_csr(0x305).unwrap_or(0),
            stvec: hart.read_csr(0x105).unwrap_or(0),
        }),
        ..DecoderConfig::default()
    };
    let mut decoder = TeDecoder::new(&image, &params, config);
    let elements = decode_payloads(&mut decoder, &params, &events);
    let decoded = steps(&elements, &image);
    let decode_time = start.elapsed().as_secs_f64();

    let errors: Vec<&TraceElement> = elements
        .iter()
        .filter(|e| matches!(e, TraceElement::DecodeError { .. }))
        .collect();
    if let Some(first) = errors.first() {
        let mut err = CliError::check(
            format!("{} decode errors in the trace of the hart", errors.len()),
            &elf_name,
        );
        for e in std::iter::once(first).chain(errors.iter().skip(1).take(4)) {
            err = err.with_context(element_line(e, unit));
        }
        return Err(err);
    }
    let decoded = decoded.map_err(|a| {
        CliError::check(
            format!("decoded trace leaves the program at {a:#x}"),
            &elf_name,
        )
    })?;
    let first_diff =
        (0..expected.len().max(decoded.len())).find(|&i| expected.get(i) != decoded.get(i));
    if let Some(n) = first_diff {
        let mut err = CliError::check(
            format!(
                "decoded trace differs from the hart at step {n} (expected {}, decoded {})",
                step_text(expected.get(n)),
                step_text(decoded.get(n))
            ),
            &elf_name,
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

    println!("verified: {} steps equal the hart's", expected.len());
    println!("instructions: {retired}");
    println!("packets: {}", packets.len());
    framed.print_sizes(retired);
    println!("decode time (deframe, unpack, decode, expand to PCs): {decode_time:.3} s");
    println!(
        "decoded instructions per second: {:.0}",
        decoder.instructions() as f64 / decode_time.max(1e-9)
    );
    if outcome.exit_code != 0 {
        return Err(CliError::check(
            format!("the program exited with code {}", outcome.exit_code),
            &elf_name,
        ));
    }
    Ok(())
}
