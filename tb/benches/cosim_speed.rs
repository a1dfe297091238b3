//! End-to-end co-simulation speed (issue 6): the hart model runs the million-instruction
//! workload, its ingress stream drives the verilated encoder and the cycle model together,
//! the ports are compared in every cycle and the taken bytes are decoded and checked against
//! the hart. Prints cycles per second of the whole (hart + RTL + model + comparison), and of
//! the cycle loop alone, for the `rv32` and `rv64` builds, without and with back-pressure;
//! then, for comparison in the same run, the cycle loop of the same co-simulation in one
//! thread with one call into the RTL per cycle (`cosim::run_per_cycle`, the loop before
//! batches; issue 27).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use etrace_spec::ingress::ItypeWidth;
use etrace_tb::cosim::verify::check_decoded;
use etrace_tb::cosim::{run, run_per_cycle, CosimConfig, StallConfig};
use etrace_tb::Variant;

/// Runs `program` on the hart, then co-simulates it on `variant` and checks the decoding.
fn bench(program: &str, variant: Variant, stall: StallConfig) {
    let start = Instant::now();
    let (records, expected) = common::program(program, ItypeWidth::W4);
    let hart_seconds = start.elapsed().as_secs_f64();
    let mut config = CosimConfig::new(variant);
    config.stall = stall;
    let outcome = run(&config, records.iter().copied(), &mut |_, _| {}).unwrap();
    let events = outcome.stream.payloads(&config.output());
    let summary = check_decoded(&config.params(), &events, &expected).unwrap();
    let total = start.elapsed().as_secs_f64();
    let s = outcome.stats;
    println!(
        "{program} on {variant} (stall {:.2}, idle {:.2}): {:.2} M cycles/s end to end \
         ({} cycles, {} instructions, {} packets, {} bytes, {} steps decoded; \
         {total:.2} s = hart and ELF {hart_seconds:.2} s + cycle loop {:.2} s ({:.2} M cycles/s) \
         + decode check {:.2} s)",
        stall.stall_probability,
        stall.idle_probability,
        s.cycles as f64 / total / 1e6,
        s.cycles,
        s.instructions,
        s.packets,
        s.bytes,
        summary.steps,
        s.seconds,
        s.cycles_per_second() / 1e6,
        total - hart_seconds - s.seconds,
    );
}

/// The cycle loop of `program` on `variant` without stalls: batched with the model thread
/// (`run`) and per cycle in one thread (`run_per_cycle`); the two outcomes must agree.
fn compare(program: &str, variant: Variant) {
    let (records, _) = common::program(program, ItypeWidth::W4);
    let config = CosimConfig::new(variant);
    let batched = run(&config, records.iter().copied(), &mut |_, _| {}).unwrap();
    let per_cycle = run_per_cycle(&config, records.iter().copied()).unwrap();
    assert_eq!(batched.stream, per_cycle.stream, "{program} on {variant}");
    let (b, p) = (batched.stats, per_cycle.stats);
    println!(
        "{program} on {variant}, cycle loop: batched, model thread {:.2} M cycles/s; \
         per-cycle FFI, single thread {:.2} M cycles/s ({} cycles; {:.2}x)",
        b.cycles_per_second() / 1e6,
        p.cycles_per_second() / 1e6,
        b.cycles,
        p.seconds / b.seconds,
    );
}

fn main() {
    let no_stall = StallConfig::default();
    let back_pressure = StallConfig {
        stall_probability: 0.3,
        idle_probability: 0.2,
        seed: 1,
    };
    for (program, variant) in [
        ("workload-rv32", Variant::Rv32),
        ("workload-rv64", Variant::Rv64),
    ] {
        bench(program, variant, no_stall);
        bench(program, variant, back_pressure);
    }
    for (program, variant) in [
        ("workload-rv32", Variant::Rv32),
        ("workload-rv64", Variant::Rv64),
    ] {
        compare(program, variant);
    }
}
