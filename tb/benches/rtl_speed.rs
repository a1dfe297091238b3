//! Raw simulation speed of the verilated encoder: clock cycles per second of the `rv32` and
//! `rv64` builds stepping a real program's ingress records, one block every 41 cycles
//! (the co-simulation tests' schedule), output always ready.

use std::time::Instant;

use criterion::{criterion_group, Criterion, Throughput};
use etrace_encoder::EncoderOptions;
use etrace_hart::HartConfig;
use etrace_tb::{Inputs, Rtl, Variant};

/// Idle cycles after each block.
const GAP: usize = 40;
/// Records of the program used (the first ones).
const RECORDS: usize = 5_000;

/// The per-cycle inputs of `program`'s first records with `GAP` idle cycles after each,
/// trace enabled throughout, then 200 cycles with trace disabled.
fn stimulus(program: &str) -> Vec<Inputs> {
    let records = etrace_programs::records(program, HartConfig::default(), RECORDS).unwrap();
    let mut base = Inputs {
        ready: true,
        trace_enable: true,
        ..Inputs::default()
    };
    base.set_options(&EncoderOptions::default());
    let mut cycles = Vec::new();
    for r in &records {
        let mut i = base;
        i.set_block(Some(r));
        cycles.push(i);
        cycles.extend(std::iter::repeat_n(base, GAP));
    }
    cycles.extend(std::iter::repeat_n(
        Inputs {
            trace_enable: false,
            ..base
        },
        200,
    ));
    cycles
}

/// Resets `rtl` and runs every cycle of `stim`; returns the bytes taken (so nothing is
/// optimised away).
fn run(rtl: &mut Rtl, stim: &[Inputs]) -> usize {
    rtl.reset(2);
    stim.iter()
        .filter(|i| {
            let out = rtl.step(i);
            out.out_valid && i.ready
        })
        .count()
}

fn rtl_speed(c: &mut Criterion) {
    let mut group = c.benchmark_group("rtl_cycles");
    group.sample_size(10);
    for (variant, program) in [
        (Variant::Rv32, "workload-rv32"),
        (Variant::Rv64, "workload-rv64"),
    ] {
        let stim = stimulus(program);
        let mut rtl = Rtl::new(variant);
        group.throughput(Throughput::Elements(stim.len() as u64 + 2));
        group.bench_function(variant.name(), |b| b.iter(|| run(&mut rtl, &stim)));
    }
    group.finish();
}

/// One timed pass per variant, printed as cycles per second.
fn print_rates() {
    for (variant, program) in [
        (Variant::Rv32, "workload-rv32"),
        (Variant::Rv64, "workload-rv64"),
    ] {
        let stim = stimulus(program);
        let mut rtl = Rtl::new(variant);
        run(&mut rtl, &stim);
        let start = Instant::now();
        let mut bytes = 0;
        let passes = 5;
        for _ in 0..passes {
            bytes += run(&mut rtl, &stim);
        }
        let secs = start.elapsed().as_secs_f64();
        let cycles = passes as f64 * (stim.len() + 2) as f64;
        println!(
            "{variant}: {:.2} M cycles/s ({cycles} cycles, {bytes} bytes out, {secs:.3} s)",
            cycles / secs / 1e6
        );
    }
}

criterion_group!(benches, rtl_speed);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    print_rates();
}
