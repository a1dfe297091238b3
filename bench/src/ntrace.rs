//! N-Trace beside E-Trace (issue 24, `RISC-V-N-Trace.adoc`): bits per instruction of the
//! N-Trace MSEO stream in BTM, HTM, HTM with an 8-deep implicit-return call stack, and
//! with repeated history as well, beside the e-trace-encap stream of every E-Trace option
//! set, on every program; and the speed of both encoders and decoders, each from ingress
//! records to its transport bytes and from those bytes to per-PC steps.

use std::fmt::Write;
use std::path::Path;

use etrace_decoder::pcs::steps;
use etrace_decoder::stream::{decode_payloads, payloads, Framing};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_encoder::EncoderOptions;
use etrace_ntrace::decoder::decode_bytes;
use etrace_ntrace::{NtraceDecoder, NtraceDecoderConfig, NtraceEncoder, NtraceMode, NtraceOptions};
use etrace_spec::framing::encap::EncapConfig;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::params::Params;

use crate::compression::{bits, encap_sizes, encap_stream, option_sets};
use crate::harness::{measure, Plan};
use crate::programs::Program;
use crate::table::{short, si, Table};

/// The N-Trace settings measured: (column name in `etrace` flags, options).
fn ntrace_sets() -> Vec<(&'static str, NtraceOptions)> {
    let htm = NtraceOptions::default();
    let cs = NtraceOptions {
        call_stack: 8,
        ..htm
    };
    vec![
        (
            "BTM",
            NtraceOptions {
                mode: NtraceMode::Btm,
                ..htm
            },
        ),
        ("HTM", htm),
        ("HTM `--call-stack 8`", cs),
        (
            "HTM `--call-stack 8 --repeat-history`",
            NtraceOptions {
                repeat_history: true,
                ..cs
            },
        ),
    ]
}

/// The N-Trace encoder's MSEO bytes of `records`.
pub(crate) fn ntrace_bytes(
    options: NtraceOptions,
    records: &[IngressRecord],
) -> Result<Vec<u8>, String> {
    let mut encoder = NtraceEncoder::new(options).map_err(|e| e.to_string())?;
    for r in records {
        encoder.push(r);
    }
    encoder.finish();
    Ok(encoder.take_bytes())
}

/// Decoded steps of `elements`; an error on a decode error.
fn step_count(elements: &[TraceElement], image: &ProgramImage) -> Result<u64, String> {
    if let Some(e) = elements.iter().find_map(TraceElement::decode_error) {
        return Err(e.to_string());
    }
    steps(elements, image)
        .map(|s| s.len() as u64)
        .map_err(|a| format!("the decoded trace leaves the program at {a:#x}"))
}

/// The N-Trace decoder from MSEO bytes to per-PC steps: their number.
fn ntrace_steps(
    image: &ProgramImage,
    options: &NtraceOptions,
    bytes: &[u8],
) -> Result<u64, String> {
    let config = NtraceDecoderConfig {
        fields: options.fields(),
        src: None,
        sijump: options.sijump,
    };
    let mut decoder = NtraceDecoder::new(image, config);
    step_count(&decode_bytes(&mut decoder, config.fields, bytes), image)
}

/// The E-Trace decoder from e-trace-encap bytes to per-PC steps: their number.
fn etrace_steps(image: &ProgramImage, params: &Params, bytes: &[u8]) -> Result<u64, String> {
    let events = payloads(&Framing::Encap(EncapConfig::default()), bytes);
    let mut decoder = TeDecoder::new(image, params, DecoderConfig::default());
    step_count(&decode_payloads(&mut decoder, params, &events), image)
}

fn cell(result: Result<u64, String>, retired: u64) -> String {
    match result {
        Ok(bytes) => format!("{:.3}", bits(bytes, retired)),
        Err(e) => format!("fails: {}", short(&e)),
    }
}

/// The compression table on `names` (file stems below `programs/elf`).
pub fn section(programs: &Path, names: &[String]) -> String {
    let nsets = ntrace_sets();
    let esets = option_sets();
    let mut header = vec!["program".to_string(), "instructions".to_string()];
    header.extend(nsets.iter().map(|(n, _)| format!("N-Trace {n}")));
    header.extend(esets.iter().map(|s| format!("E-Trace `{}`", s.name)));
    let mut table = Table::new(&header);
    // Sums over the programs: bytes of each column, instructions.
    let mut sums = vec![Ok(0u64); nsets.len() + esets.len()];
    let mut retired_sum = 0u64;
    for name in names {
        eprintln!("bench: N-Trace: {name}");
        let loaded = Program::load(programs, name).and_then(|p| p.run().map(|r| (p, r)));
        let (program, run) = match loaded {
            Ok(x) => x,
            Err(e) => {
                table.row(vec![name.clone(), format!("fails: {}", short(&e))]);
                continue;
            }
        };
        let mut sizes: Vec<Result<u64, String>> = nsets
            .iter()
            .map(|(_, o)| ntrace_bytes(*o, &run.records).map(|b| b.len() as u64))
            .collect();
        sizes.extend(esets.iter().map(|set| {
            encap_sizes(&set.params(&program), set.options, &run.records).map(|(_, f)| f)
        }));
        retired_sum += run.retired;
        for (sum, size) in sums.iter_mut().zip(&sizes) {
            *sum = match (sum.clone(), size) {
                (Ok(a), Ok(b)) => Ok(a + b),
                _ => Err("a program fails".to_string()),
            };
        }
        let mut row = vec![name.clone(), run.retired.to_string()];
        row.extend(sizes.into_iter().map(|s| cell(s, run.retired)));
        table.row(row);
    }
    let mut row = vec!["**all**".to_string(), retired_sum.to_string()];
    row.extend(sums.iter().cloned().map(|s| cell(s, retired_sum)));
    table.row(row);

    let ratio = |a: usize, b: usize| match (&sums[a], &sums[b]) {
        (Ok(x), Ok(y)) => format!("{:.2}", *x as f64 / (*y).max(1) as f64),
        _ => "—".to_string(),
    };
    let best = |range: std::ops::Range<usize>| {
        range
            .filter_map(|i| sums[i].as_ref().ok().map(|b| (bits(*b, retired_sum), i)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    };
    let mut s = String::new();
    let _ = writeln!(s, "### N-Trace beside E-Trace\n");
    let _ = writeln!(
        s,
        "Each program's ingress records (the same as above) through the N-Trace encoder \
         (`--protocol ntrace`: MSEO bytes, the whole transport stream, sync every 256 \
         messages) and through our E-Trace encoder in each option set (the e-trace-encap \
         stream, as the first table's second figure). Bits per retired instruction:\n"
    );
    s.push_str(&table.render());
    let _ = writeln!(
        s,
        "\nOver all programs: BTM / HTM = {} (bytes); HTM / HTM with call stack = {}; HTM \
         with call stack / with call stack and repeated history = {}.",
        ratio(0, 1),
        ratio(1, 2),
        ratio(2, 3)
    );
    if let (Some((n, ni)), Some((e, ei))) = (
        best(0..nsets.len()),
        best(nsets.len()..nsets.len() + esets.len()),
    ) {
        let _ = writeln!(
            s,
            "Best N-Trace: {n:.3} bits per instruction ({}); best E-Trace: {e:.3} (`{}`).",
            nsets[ni].0,
            esets[ei - nsets.len()].name
        );
    }
    s
}

/// The speed table on `names`: both encoders and both decoders.
pub fn speed_section(programs: &Path, names: &[String], plan: Plan) -> String {
    let mut t = Table::new(&["what", "program", "E-Trace", "N-Trace", "N-Trace / E-Trace"]);
    let (_, nt) = ntrace_sets().pop().expect("settings");
    let et = EncoderOptions::default();
    for name in names {
        eprintln!("bench: N-Trace speed: {name}");
        let loaded = Program::load(programs, name).and_then(|p| {
            let run = p.run()?;
            let image = ProgramImage::from_elf(&p.elf).map_err(|e| e.to_string())?;
            Ok((p, run, image))
        });
        let (program, run, image) = match loaded {
            Ok(x) => x,
            Err(e) => {
                t.row(vec![
                    "(preparation)".into(),
                    name.clone(),
                    format!("fails: {}", short(&e)),
                ]);
                continue;
            }
        };
        let params = program.params();
        let n = run.retired;
        let rate = |timing: Result<crate::harness::Timing, String>| timing.map(|t| t.rate(n));
        let encoders = (
            rate(measure(plan, || encap_stream(&params, et, &run.records))),
            rate(measure(plan, || ntrace_bytes(nt, &run.records))),
        );
        let decoders = match (
            encap_stream(&params, et, &run.records),
            ntrace_bytes(nt, &run.records),
        ) {
            (Ok((_, e)), Ok(nb)) => (
                rate(measure(plan, || etrace_steps(&image, &params, &e))),
                rate(measure(plan, || ntrace_steps(&image, &nt, &nb))),
            ),
            (a, b) => {
                let err = |r: Result<(), String>| r.map(|_| 0.0);
                (err(a.map(|_| ())), err(b.map(|_| ())))
            }
        };
        for (what, (e, nr)) in [
            ("encoder (records -> transport bytes)", encoders),
            ("decoder (transport bytes -> per-PC steps)", decoders),
        ] {
            let text = |r: &Result<f64, String>| match r {
                Ok(v) => format!("{} insn/s", si(*v)),
                Err(e) => format!("fails: {}", short(e)),
            };
            let ratio = match (&e, &nr) {
                (Ok(a), Ok(b)) => format!("{:.2}", b / a),
                _ => "—".to_string(),
            };
            t.row(vec![what.into(), name.clone(), text(&e), text(&nr), ratio]);
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "\n#### N-Trace and E-Trace speed\n");
    let _ = writeln!(
        s,
        "{}. E-Trace: default options, te_inst packets packed and framed as e-trace-encap, \
         decoded by deframing, unpacking and the decoder of `decoder.adoc`; N-Trace: HTM \
         with an 8-deep call stack and repeated history, MSEO bytes decoded by the reader \
         and the decoder of the N-Trace decoding guidelines. Both decoders expand to per-PC \
         steps and must decode without error.\n",
        plan.describe()
    );
    s.push_str(&t.render());
    s
}
