//! A seeded random execution of a random program (`common::random_program`), encoded
//! and decoded as a stream: 10 million instructions under the richest option sets, and
//! 300 000 under every option set of `common::option_sets`; the decoded steps must equal
//! the execution's, compared as they come (nothing of the run is stored but the bytes).

mod common;

use common::random_program::RandomProgram;
use common::{decoder_config, expected_steps, option_sets};
use etrace_decoder::pcs::StepWalker;
use etrace_ntrace::decoder::{feed, MessageStream, StreamItem};
use etrace_ntrace::{NtraceDecoder, NtraceEncoder, NtraceMode, NtraceOptions};
use etrace_spec::ingress::IngressRecord;

/// The records of execution `seed` up to `instructions` retired instructions, continued
/// past a trap at that point (a trap's handler address is only known on the record after
/// it, "Handling of 3-bit itype values", so a trace cannot end on one).
fn records(
    program: &RandomProgram,
    seed: u64,
    instructions: u64,
) -> impl Iterator<Item = IngressRecord> + '_ {
    program
        .run(seed)
        .scan((0u64, false), move |(n, done), rec| {
            if *done {
                return None;
            }
            *n += u64::from(rec.iretire);
            *done = *n >= instructions && !rec.itype.is_trap();
            Some(rec)
        })
}

/// Runs `instructions` retired instructions of execution `seed` through the encoder and
/// decoder under `options`; returns the MSEO bytes per instruction.
fn round_trip(
    program: &RandomProgram,
    seed: u64,
    instructions: u64,
    options: NtraceOptions,
) -> f64 {
    let image = program.image();
    let mut encoder = NtraceEncoder::new(options).unwrap();
    for rec in records(program, seed, instructions) {
        encoder.push(&rec);
    }
    encoder.finish();
    let bytes = encoder.take_bytes();

    // The same execution again, as the expected steps, compared with the decoded ones.
    let mut expected = records(program, seed, instructions);
    let mut pending = std::collections::VecDeque::new();
    let mut compared = 0u64;
    let config = decoder_config(&options);
    let mut decoder = NtraceDecoder::new(&image, config);
    let mut stream = MessageStream::new(config.fields, true);
    let mut walker = StepWalker::new();
    let mut check = |items: Vec<StreamItem>, decoder: &mut NtraceDecoder| {
        feed(decoder, items);
        let elements = decoder.take_elements();
        if let Some(e) = elements.iter().find_map(|e| e.decode_error()) {
            panic!("seed {seed}: decode error after {compared} steps: {e}");
        }
        walker
            .walk(&elements, &image, |step| {
                if pending.is_empty() {
                    if let Some(rec) = expected.next() {
                        pending.extend(expected_steps(&[rec]));
                    }
                }
                let want = pending.pop_front();
                assert_eq!(Some(step), want, "seed {seed}: step {compared}");
                compared += 1;
            })
            .unwrap();
    };
    for piece in bytes.chunks(1 << 16) {
        let items = stream.push(piece);
        check(items, &mut decoder);
    }
    let items = stream.finish();
    check(items, &mut decoder);
    assert!(
        pending.is_empty() && expected.next().is_none(),
        "seed {seed}: trace ends early"
    );
    assert!(compared >= instructions, "{compared} steps");
    bytes.len() as f64 / instructions as f64
}

#[test]
fn ten_million_random_instructions_reconstruct_exactly() {
    let program = RandomProgram::new(24, 30_000);
    let best = NtraceOptions {
        call_stack: 8,
        repeat_history: true,
        sijump: true,
        ..NtraceOptions::default()
    };
    let btm = NtraceOptions {
        mode: NtraceMode::Btm,
        ..best
    };
    for (seed, options) in [(1, best), (2, btm)] {
        round_trip(&program, seed, 10_000_000, options);
    }
}

#[test]
fn random_executions_reconstruct_under_every_option_set() {
    let program = RandomProgram::new(7, 5_000);
    for (i, (name, options)) in option_sets().into_iter().enumerate() {
        let per_insn = round_trip(&program, 100 + i as u64, 300_000, options);
        assert!(per_insn > 0.0, "{name}");
    }
}
