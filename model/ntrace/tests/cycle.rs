//! The cycle model's output FIFO ("Error Message"): a random execution through a FIFO too
//! slow for it overflows; every overflow gives an Error message and a restart with SYNC 7;
//! the decoder reports each gap (TraceLost) and every stretch it decodes between gaps is
//! exactly the execution from the record where the trace restarted. With a fast FIFO
//! nothing is lost and the stream equals the plain encoder's.

mod common;

use common::random_program::RandomProgram;
use common::{decode, encode, expected_steps};
use etrace_decoder::pcs::steps;
use etrace_decoder::TraceElement;
use etrace_ntrace::encoder::cycle::{FifoConfig, NtraceCycleEncoder};
use etrace_ntrace::{NtraceMode, NtraceOptions};
use etrace_spec::ingress::IngressRecord;

fn cycle_encode(
    options: NtraceOptions,
    fifo: FifoConfig,
    records: &[IngressRecord],
) -> (Vec<u8>, Vec<u64>) {
    let mut encoder = NtraceCycleEncoder::new(options, fifo).unwrap();
    for r in records {
        encoder.push(r);
    }
    encoder.finish();
    (encoder.take_bytes(), encoder.restarts().to_vec())
}

#[test]
fn fifo_overflow_gives_error_messages_and_exact_stretches() {
    let program = RandomProgram::new(3, 4_000);
    let image = program.image();
    let records: Vec<IngressRecord> = program.run(11).take(200_000).collect();
    let expected = expected_steps(&records);
    // Step index of each record's first step.
    let mut first_step = Vec::with_capacity(records.len());
    let mut n = 0usize;
    for r in &records {
        first_step.push(n);
        n += expected_steps(std::slice::from_ref(r)).len();
    }
    let options = NtraceOptions {
        mode: NtraceMode::Btm,
        ..NtraceOptions::default()
    };
    let fifo = FifoConfig {
        bytes: 64,
        send_bytes: 1,
        every_cycles: 16,
    };
    let (bytes, restarts) = cycle_encode(options, fifo, &records);
    assert!(restarts.len() > 5, "{} restarts", restarts.len());
    let elements = decode(&image, &options, &bytes);
    assert!(elements.iter().all(|e| e.decode_error().is_none()));
    let lost = elements
        .iter()
        .filter(|e| matches!(e, TraceElement::TraceLost))
        .count();
    assert_eq!(lost, restarts.len() - 1, "one gap per restart");
    // The stretches between trace-on elements, each against the execution from its restart.
    let starts: Vec<usize> = elements
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, TraceElement::TraceOn { .. }))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(starts.len(), restarts.len());
    let mut decoded_total = 0;
    for (k, &s) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(elements.len());
        let stretch = steps(&elements[s..end], &image).unwrap();
        let from = first_step[restarts[k] as usize];
        assert_eq!(
            stretch[..],
            expected[from..from + stretch.len()],
            "stretch {k}"
        );
        decoded_total += stretch.len();
    }
    assert!(
        decoded_total > expected.len() / 10,
        "{decoded_total} of {}",
        expected.len()
    );
}

#[test]
fn a_fast_enough_fifo_loses_nothing() {
    let program = RandomProgram::new(4, 4_000);
    let records: Vec<IngressRecord> = program.run(12).take(50_000).collect();
    let options = NtraceOptions::default();
    let fifo = FifoConfig {
        bytes: 256,
        send_bytes: 4,
        every_cycles: 1,
    };
    let (bytes, restarts) = cycle_encode(options, fifo, &records);
    assert_eq!(restarts, vec![0]);
    assert_eq!(bytes, encode(options, &records));
}
