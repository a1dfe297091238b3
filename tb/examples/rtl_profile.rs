//! A small driver for profiling the verilated encoder alone (issue 27, item 3): the first
//! records of the `workload-rv32` / `workload-rv64` program, one block per cycle (the
//! co-simulation's schedule without back-pressure), in batches of 1024 cycles per call
//! (`Rtl::run`, as `cosim::run` does). Prints cycles per second; run it under
//! `valgrind --tool=callgrind` for instructions per cycle.
//!
//! ```text
//! cargo run --release -p etrace-tb --example rtl_profile -- [rv32|rv64] [cycles]
//! ```

use std::process::ExitCode;
use std::time::Instant;

use etrace_encoder::EncoderOptions;
use etrace_hart::HartConfig;
use etrace_tb::{Inputs, Outputs, Rtl, Variant};

/// Cycles per call into the model (as `cosim::run`).
const BATCH: usize = 1024;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let variant: Variant = match args.next().as_deref().unwrap_or("rv32").parse() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e} (variant)");
            return ExitCode::from(2);
        }
    };
    let cycles: usize = match args.next().map(|c| c.parse()) {
        None => 200_000,
        Some(Ok(c)) => c,
        Some(Err(e)) => {
            eprintln!("error: {e} (cycles)");
            return ExitCode::from(2);
        }
    };
    let program = match variant.config().params().iaddress_width_p {
        32 => "workload-rv32",
        _ => "workload-rv64",
    };
    let records = match etrace_programs::records(program, HartConfig::default(), cycles) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e} ({program})");
            return ExitCode::from(1);
        }
    };
    let mut base = Inputs {
        ready: true,
        trace_enable: true,
        ..Inputs::default()
    };
    base.set_options(&EncoderOptions::default());
    let inputs: Vec<Inputs> = records
        .iter()
        .map(|r| {
            let mut i = base;
            i.set_block(Some(r));
            i
        })
        .collect();
    let mut rtl = Rtl::new(variant);
    rtl.reset(2);
    let mut outputs: Vec<Outputs> = Vec::with_capacity(BATCH);
    let mut bytes = 0usize;
    let start = Instant::now();
    for chunk in inputs.chunks(BATCH) {
        rtl.run(chunk, &mut outputs);
        bytes += outputs.iter().filter(|o| o.out_valid).count();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{variant} ({program}): {:.2} M cycles/s ({} cycles, {bytes} bytes out, {secs:.3} s)",
        inputs.len() as f64 / secs / 1e6,
        inputs.len()
    );
    ExitCode::SUCCESS
}
