//! Co-simulation of the N-Trace MSEO output path (`etrace_hdl::ntrace::NtraceMseoPath`,
//! rust-hdl simulator) with the model's cycle encoder `NtraceCycleEncoder` on the same
//! records and FIFO: the bytes that leave in each record step equal the bytes the model
//! sends in that cycle, with a FIFO that never overflows and with small, slow FIFOs that
//! overflow again and again (messages lost, Error message, restart with SYNC 7); a
//! mismatched FIFO and a restart without its Error message are caught.

use etrace_hart::HartConfig;
use etrace_hdl::ntrace::{NtraceFifoConfig, NtraceHwOptions, NtraceMseoPath};
use etrace_ntrace::encoder::cycle::{FifoConfig, NtraceCycleEncoder};
use etrace_ntrace::message::layout::parse;
use etrace_ntrace::message::{Body, FieldConfig, SyncReason};
use etrace_spec::ingress::IngressRecord;
use rust_hdl::prelude::*;
use std::sync::{Arc, Mutex};

mod ntrace_common;
use ntrace_common::{drive_record, model_options, random_records};

/// FIFO depth of the simulated path: 2^8 bytes.
const N: usize = 8;

type Path = NtraceMseoPath<32, 5, 4, N>;

/// The bytes that leave the hardware path in each record step, and the end step last.
fn run_path(
    records: &[IngressRecord],
    options: NtraceHwOptions,
    fifo: NtraceFifoConfig,
) -> Vec<Vec<u8>> {
    let out = Arc::new(Mutex::new(vec![Vec::new(); records.len() + 1]));
    let out_tb = out.clone();
    let recs = records.to_vec();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Path>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Path>| {
        let mut x = sim.init()?;
        x.reset.next = true;
        wait_clock_true!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        x.reset.next = false;
        // The step whose bytes are leaving: the last one taken; after the end step, until
        // no byte left for longer than a step takes.
        let mut current = 0;
        let mut idle = 0;
        let mut step = 0;
        let mut clocks = 0u64;
        while step <= recs.len() || idle < 300 {
            x.in_valid.next = step <= recs.len();
            // A record, or the end of the trace.
            drive_record(&mut x.ingress, &mut x.trace_enable, recs.get(step));
            x = sim.wait(1, x)?;
            if x.out_valid.val() {
                let byte = x.out_data.val().to_u64() as u8;
                // `out_last` marks the byte that ends a message (MSEO 11).
                assert_eq!(x.out_last.val(), byte & 3 == 3, "byte {byte:02x}");
                out_tb.lock().unwrap()[current].push(byte);
                idle = 0;
            } else if step > recs.len() {
                idle += 1;
            }
            if x.in_ready.val() {
                current = step;
                step += 1;
            }
            clocks += 1;
            wait_clock_cycle!(sim, clock, x);
        }
        eprintln!(
            "{} steps in {clocks} clocks ({:.1} a step)",
            recs.len() + 1,
            clocks as f64 / (recs.len() + 1) as f64
        );
        sim.done(x)
    });
    let mut uut = Path::new(options, fifo);
    uut.connect_all();
    sim.run(Box::new(uut), 1_000 * records.len() as u64 + 10_000)
        .unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// The bytes the model sends in each cycle, the end last, and its (re)starts.
fn run_model(
    records: &[IngressRecord],
    options: NtraceHwOptions,
    fifo: NtraceFifoConfig,
) -> (Vec<Vec<u8>>, Vec<u64>) {
    let mut e = NtraceCycleEncoder::new(
        model_options(options),
        FifoConfig {
            bytes: fifo.bytes as usize,
            send_bytes: fifo.send_bytes,
            every_cycles: fifo.every_cycles,
        },
    )
    .unwrap();
    let mut steps = Vec::new();
    for r in records {
        e.push(r);
        steps.push(e.take_bytes());
    }
    e.finish();
    steps.push(e.take_bytes());
    (steps, e.restarts().to_vec())
}

/// Compares the path's bytes with the model's, step by step: the model's (re)starts, or
/// the first difference.
fn compare(
    records: &[IngressRecord],
    options: NtraceHwOptions,
    hw_fifo: NtraceFifoConfig,
    model_fifo: NtraceFifoConfig,
) -> Result<(usize, Vec<u64>), String> {
    let (expected, restarts) = run_model(records, options, model_fifo);
    let got = run_path(records, options, hw_fifo);
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        if g != e {
            return Err(format!("step {i}: hardware {g:02x?}, model {e:02x?}"));
        }
    }
    assert_eq!(got.len(), expected.len());
    Ok((expected.iter().map(Vec::len).sum(), restarts))
}

/// A FIFO that never overflows: room for every record's messages, 4 bytes sent a step.
const WIDE: NtraceFifoConfig = NtraceFifoConfig {
    bytes: 256,
    send_bytes: 4,
    every_cycles: 1,
    error_fault: false,
};
/// A small, slow FIFO: 1 byte every 2 steps.
const SLOW: NtraceFifoConfig = NtraceFifoConfig {
    bytes: 60,
    send_bytes: 1,
    every_cycles: 2,
    error_fault: false,
};
/// A small FIFO sending 1 byte every 8 steps (the programs send fewer bytes per record
/// than the random records).
const TRICKLE: NtraceFifoConfig = NtraceFifoConfig {
    bytes: 60,
    send_bytes: 1,
    every_cycles: 8,
    error_fault: false,
};
/// A small FIFO sending 3 bytes every 5 steps.
const BURSTY: NtraceFifoConfig = NtraceFifoConfig {
    bytes: 80,
    send_bytes: 3,
    every_cycles: 5,
    error_fault: false,
};

fn small_counters() -> NtraceHwOptions {
    NtraceHwOptions {
        icnt_bits: 6,
        hist_bits: 5,
        sync_max: 12,
        sijump: true,
        call_stack: 2,
        repeat_history: true,
        repeat_bits: 2,
        ..NtraceHwOptions::default()
    }
}

#[test]
fn rv32_programs_match_the_cycle_model_byte_by_byte() {
    let names = etrace_programs::manifest_names(&etrace_programs::dir()).unwrap();
    // Recursion, loops and function pointers.
    let programs = names
        .iter()
        .filter(|n| ["recursion", "loops", "fnptr_switch"].contains(&n.as_str()));
    let mut trickle_restarts = 0;
    for name in programs {
        let stem = format!("{name}-rv32");
        let records = etrace_programs::records(&stem, HartConfig::default(), 2_000).unwrap();
        for fifo in [WIDE, TRICKLE] {
            let (bytes, restarts) = compare(&records, small_counters(), fifo, fifo)
                .unwrap_or_else(|e| panic!("{stem} {fifo:?}: {e}"));
            eprintln!(
                "{stem} {fifo:?}: {} records, {bytes} bytes, (re)starts at {restarts:?}",
                records.len()
            );
            if fifo == WIDE {
                assert_eq!(restarts, [0], "{stem}: the wide FIFO overflowed");
            } else {
                assert!(restarts.len() > 2, "{stem}: restarts {restarts:?}");
                trickle_restarts += restarts.len() - 1;
            }
        }
    }
    assert!(
        trickle_restarts >= 6,
        "{trickle_restarts} restarts with the trickling FIFO"
    );
}

#[test]
fn random_records_match_the_cycle_model_byte_by_byte() {
    for (k, (options, fifo, overflows)) in [
        (NtraceHwOptions::default(), WIDE, false),
        (small_counters(), SLOW, true),
        (
            NtraceHwOptions {
                htm: false,
                ..small_counters()
            },
            BURSTY,
            true,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let records = random_records(0x3a0 + k as u64, 3_000);
        let (bytes, restarts) = compare(&records, options, fifo, fifo)
            .unwrap_or_else(|e| panic!("random {k} {fifo:?}: {e}"));
        eprintln!(
            "random {k} {fifo:?}: {} records, {bytes} bytes, {} (re)starts",
            records.len(),
            restarts.len()
        );
        if overflows {
            assert!(restarts.len() > 10, "random {k}: restarts {restarts:?}");
        } else {
            assert_eq!(restarts, [0], "random {k}");
        }
    }
}

/// The Error messages and the ProgTraceSync messages with SYNC 7 in `steps`' bytes.
fn overrun_messages(steps: &[Vec<u8>]) -> (usize, usize) {
    let bytes: Vec<u8> = steps.concat();
    let (mut errors, mut syncs) = (0, 0);
    for m in bytes.split_inclusive(|b| b & 3 == 3) {
        match parse(m, &FieldConfig::default()).unwrap().body {
            Body::Error {
                etype: 0,
                ecode: 0b100,
            } => errors += 1,
            Body::ProgTraceSync { sync, .. } if sync == SyncReason::FIFO_OVERRUN => syncs += 1,
            _ => {}
        }
    }
    (errors, syncs)
}

#[test]
fn restarts_send_the_error_message_and_sync_7() {
    let records = random_records(0x3c0, 1_000);
    let options = small_counters();
    let steps = run_path(&records, options, SLOW);
    let (_, restarts) = run_model(&records, options, SLOW);
    let (errors, syncs) = overrun_messages(&steps);
    assert!(restarts.len() > 3, "restarts {restarts:?}");
    assert_eq!((errors, syncs), (restarts.len() - 1, restarts.len() - 1));
    // A restart without its Error message is caught.
    let faulty = NtraceFifoConfig {
        error_fault: true,
        ..SLOW
    };
    assert_eq!(overrun_messages(&run_path(&records, options, faulty)).0, 0);
    assert!(compare(&records, options, faulty, SLOW).is_err());
}

#[test]
fn a_fifo_of_another_size_is_caught() {
    // The hardware FIFO holds one byte more than the model's: its overflows differ.
    let records = random_records(0x3b0, 1_000);
    let options = small_counters();
    let bigger = NtraceFifoConfig {
        bytes: SLOW.bytes + 1,
        ..SLOW
    };
    assert!(compare(&records, options, SLOW, SLOW).is_ok());
    assert!(compare(&records, options, bigger, SLOW).is_err());
}
