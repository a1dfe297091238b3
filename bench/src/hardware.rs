//! Hardware compression (issue 22): bits per retired instruction measured from the bytes
//! the RTL itself produced (a co-simulation of each build, no back-pressure), beside the
//! golden encoder's payloads for the same records and options.

use std::fmt::Write;
use std::path::Path;

use etrace_decoder::stream::PayloadEvent;
use etrace_encoder::EncoderOptions;
use etrace_spec::isa::Xlen;
use etrace_tb::cosim::{self, CosimConfig};
use etrace_tb::Variant;

use crate::programs::{our_payloads, Program, Run};
use crate::table::{sig3, Table};

/// One hardware build and the run-time options it is measured with.
struct Build {
    /// Row text.
    name: &'static str,
    /// The verilated build.
    variant: Variant,
    /// Run-time options on its option pins.
    options: EncoderOptions,
}

/// The builds measured for programs of `xlen`: the default byte stream, the smi framing,
/// branch prediction, implicit return, and every option together.
fn builds(xlen: Xlen) -> Vec<Build> {
    let d = EncoderOptions::default();
    let prediction = EncoderOptions {
        branch_prediction: true,
        ..d
    };
    match xlen {
        Xlen::X64 => vec![Build {
            name: "rv64, encap, default options",
            variant: Variant::Rv64,
            options: d,
        }],
        Xlen::X32 => vec![
            Build {
                name: "rv32, encap, default options",
                variant: Variant::Rv32,
                options: d,
            },
            Build {
                name: "rv32, smi (te_inst_raw), default options",
                variant: Variant::Rv32Smi,
                options: d,
            },
            Build {
                name: "rv32, encap, bpred_size_p 6, --branch-prediction",
                variant: Variant::Rv32Bp,
                options: prediction,
            },
            Build {
                name: "rv32, encap, return_stack_size_p 2, --implicit-return",
                variant: Variant::Rv32Ir,
                options: EncoderOptions {
                    implicit_return: true,
                    ..d
                },
            },
            Build {
                name: "rv32 all options: smi 8-bit index + timestamp, bpred_size_p 6, \
                       return_stack_size_p 2, --branch-prediction --implicit-return --sijump",
                variant: Variant::Rv32All,
                options: EncoderOptions {
                    sijump: true,
                    implicit_return: true,
                    ..prediction
                },
            },
        ],
    }
}

/// What one co-simulation measured.
struct Measured {
    /// Framed bytes the RTL produced.
    rtl_bytes: u64,
    /// Payload bytes in them (deframed).
    rtl_payload_bytes: u64,
    /// Payload bytes of the golden encoder for the same records and options.
    model_payload_bytes: u64,
    /// Support packets the RTL sent beyond the golden encoder's: its `trace_lost`
    /// reports after a FIFO overflow.
    losses: usize,
    /// The RTL's payloads are the golden encoder's, in order.
    equal: bool,
}

/// Support packets (`payload.adoc`, format 3 subformat 3: the low four bits 1111) among
/// `payloads`.
fn support_packets(payloads: &[Vec<u8>]) -> usize {
    payloads
        .iter()
        .filter(|p| p.first().is_some_and(|b| b & 0xF == 0xF))
        .count()
}

/// The equality cell: equal, or the losses that explain a difference, or a mismatch.
fn equality(m: &Measured) -> String {
    match (m.equal, m.losses) {
        (true, _) => "yes".into(),
        (false, 0) => "NO: the payloads differ without a loss".into(),
        (false, n) => format!("after {n} trace_lost (FIFO overflow)"),
    }
}

/// Probability of an idle cycle before each retirement in the measured runs: about four
/// cycles per instruction, the rate of PicoRV32 (Dhrystone: 380 180 cycles for 88 838
/// instructions in the lock-step co-simulation).
const CORE_IDLE_PROBABILITY: f64 = 0.75;

fn measure(run: &Run, build: &Build, idle_probability: f64) -> Result<Measured, String> {
    let mut config = CosimConfig::new(build.variant);
    config.options = build.options;
    config.stall.idle_probability = idle_probability;
    let outcome = cosim::run(&config, run.records.iter().copied(), &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    let output = config.output();
    let rtl: Vec<Vec<u8>> = outcome
        .stream
        .payloads(&output)
        .into_iter()
        .filter_map(|e| match e {
            PayloadEvent::Payload { bytes, .. } => Some(bytes),
            _ => None,
        })
        .collect();
    let model = our_payloads(&build.variant.params(), build.options, &run.records)?;
    let len = |p: &[Vec<u8>]| p.iter().map(|b| b.len() as u64).sum::<u64>();
    Ok(Measured {
        rtl_bytes: outcome.stream.byte_count(),
        rtl_payload_bytes: len(&rtl),
        model_payload_bytes: len(&model),
        losses: support_packets(&rtl).saturating_sub(support_packets(&model)),
        equal: rtl == model,
    })
}

/// The section: a row per program and build.
pub fn section(programs: &Path, names: &[String]) -> String {
    let mut t = Table::new(&[
        "program",
        "hardware build and options",
        "RTL framed bits / insn",
        "RTL payload bits / insn",
        "model payload bits / insn",
        "RTL payloads = model's",
        "at 1 insn / cycle: RTL payloads = model's",
    ]);
    for name in names {
        eprintln!("bench: hardware: {name}");
        let prepared = Program::load(programs, name).and_then(|p| p.run().map(|r| (p, r)));
        let (program, run) = match prepared {
            Ok(p) => p,
            Err(e) => {
                let mut cells = vec![name.clone(), "(preparation)".into(), e];
                cells.resize(7, String::new());
                t.row(cells);
                continue;
            }
        };
        let per_insn = |bytes: u64| sig3(8.0 * bytes as f64 / run.retired.max(1) as f64);
        for build in builds(program.xlen) {
            let core_rate = measure(&run, &build, CORE_IDLE_PROBABILITY);
            let full_rate = measure(&run, &build, 0.0);
            let mut cells = vec![name.clone(), build.name.to_string()];
            match core_rate {
                Ok(m) => cells.extend([
                    per_insn(m.rtl_bytes),
                    per_insn(m.rtl_payload_bytes),
                    per_insn(m.model_payload_bytes),
                    equality(&m),
                ]),
                Err(e) => cells.extend([
                    format!("error: {e}"),
                    String::new(),
                    String::new(),
                    String::new(),
                ]),
            }
            cells.push(match full_rate {
                Ok(m) => equality(&m),
                Err(e) => format!("error: {e}"),
            });
            t.row(cells);
        }
    }
    let mut out =
        String::from("### Hardware compression (bits per instruction of the RTL's own bytes)\n\n");
    out.push_str(&t.render());
    let _ = writeln!(
        out,
        "\nEach build co-simulated on the program's ingress records (`etrace_tb::cosim::run`, \
         byte-exact with the cycle model in every cycle, output always ready) with an idle \
         cycle before each retirement with probability {CORE_IDLE_PROBABILITY} (about four \
         cycles per instruction, PicoRV32's rate); the RTL's bytes deframed and compared with \
         the golden encoder's payloads for the same records and options (`etrace encode`'s \
         packets); where they differ, the RTL's extra support packets (format 3.3) are counted: \
         a burst of packets faster than a byte per cycle overflowed the FIFO, and the RTL (as \
         the cycle model, cycle for cycle) reported the loss (`trace_lost`) and \
         resynchronised. The last column runs the same records at one retirement per cycle."
    );
    out
}
