//! Throughput of the instruction trace decoder of `decoder.adoc` on the workload programs
//! (`programs/elf/workload-rv64.elf`, `-rv32.elf`), in reconstructed instructions per
//! second: (a) te_inst packets to trace elements, (b) elements plus the per-instruction
//! steps, (c) the independent `riscv-etrace` tracer on the same packets. The packets are
//! prepared once (hart -> encoder -> pack -> unpack).

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use etrace_decoder::pcs::steps;
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_spec::packet::{pack, TeInst};
use etrace_spec::params::Params;
use riscv_etrace::packet::payload::InstructionTrace;

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/support/riscv_etrace_glue.rs"]
mod glue;
use common::{params_for, program};
use glue::{their_trace_count, unpack_both};

/// Everything a measurement needs, prepared once.
struct Prepared {
    elf: Vec<u8>,
    params: Params,
    image: ProgramImage,
    packets: Vec<TeInst>,
    theirs: Vec<InstructionTrace>,
    retired: u64,
}

fn prepare(target: &str) -> Prepared {
    let stem = format!("workload-{target}");
    let program = program(&stem);
    let retired = program.records.iter().filter(|r| r.iretire != 0).count() as u64;
    let params = params_for(&stem);
    let payloads: Vec<Vec<u8>> =
        Encoder::encode_all(&params, EncoderOptions::default(), &program.records)
            .unwrap()
            .iter()
            .map(|p| pack(&p.packet, &params).unwrap().bytes)
            .collect();
    let (packets, theirs) = unpack_both(&payloads, &params).unwrap();
    Prepared {
        elf: program.elf,
        params,
        image: program.image,
        packets,
        theirs,
        retired,
    }
}

/// (a) packets to elements; returns the elements.
fn decode(p: &Prepared) -> Vec<TraceElement> {
    let mut decoder = TeDecoder::new(&p.image, &p.params, DecoderConfig::default());
    for (i, packet) in p.packets.iter().enumerate() {
        decoder.process(packet, i as u64, None);
    }
    decoder.take_elements(true)
}

/// (c) the riscv-etrace tracer; returns the number of instructions it reconstructed.
fn trace_theirs(p: &Prepared) -> u64 {
    their_trace_count(&p.elf, &p.params, &p.theirs).unwrap()
}

/// Prints one line with the mean rate of `f` over a few runs.
fn summary(label: &str, instructions: u64, mut f: impl FnMut()) {
    let runs = 5;
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    let secs = start.elapsed().as_secs_f64() / f64::from(runs);
    println!(
        "summary {label}: {:.1} M instructions/s ({instructions} instructions in {:.2} ms)",
        instructions as f64 / secs / 1e6,
        secs * 1e3
    );
}

fn bench_decoder(c: &mut Criterion) {
    let mut group = c.benchmark_group("decoder");
    group.sample_size(10);
    for target in ["rv64", "rv32"] {
        let p = prepare(target);
        // The measurements are only meaningful if they reconstruct the whole run.
        let elements = decode(&p);
        assert!(!elements
            .iter()
            .any(|e| matches!(e, TraceElement::DecodeError { .. })));
        let decoded = steps(&elements, &p.image).unwrap().len() as u64;
        assert!(
            decoded >= p.retired,
            "{decoded} steps < {} retired",
            p.retired
        );
        assert_eq!(trace_theirs(&p), p.retired, "riscv-etrace instructions");
        group.throughput(Throughput::Elements(p.retired));

        summary(&format!("workload-{target}/elements"), p.retired, || {
            black_box(decode(&p));
        });
        summary(&format!("workload-{target}/steps"), p.retired, || {
            black_box(steps(&decode(&p), &p.image).unwrap());
        });
        summary(
            &format!("workload-{target}/riscv-etrace"),
            p.retired,
            || {
                black_box(trace_theirs(&p));
            },
        );

        group.bench_function(format!("workload-{target}/elements"), |b| {
            b.iter(|| black_box(decode(&p)))
        });
        group.bench_function(format!("workload-{target}/steps"), |b| {
            b.iter(|| black_box(steps(&decode(&p), &p.image).unwrap()))
        });
        group.bench_function(format!("workload-{target}/riscv-etrace"), |b| {
            b.iter(|| black_box(trace_theirs(&p)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_decoder);
criterion_main!(benches);
