//! Corrupted N-Trace streams (the trace of a test program, sync every 4 messages):
//! truncated at every length, single bit flips, random bytes, all-zero and all-0xFF
//! input. The reader and decoder must not panic or hang, every error must name its byte
//! offset, decoding must resume at the next synchronising message, and what is decoded
//! before a truncation must be the start of the program's execution.

mod common;

use common::{decode, encode, expected_steps};
use etrace_decoder::pcs::steps;
use etrace_decoder::{ProgramImage, TraceElement};
use etrace_hart::HartConfig;
use etrace_ntrace::decoder::{MessageStream, StreamItem};
use etrace_ntrace::NtraceOptions;
use etrace_spec::ingress::random::Rng;

struct Case {
    image: ProgramImage,
    options: NtraceOptions,
    bytes: Vec<u8>,
    expected: Vec<etrace_decoder::pcs::Step>,
    /// Byte offsets of the synchronising messages.
    syncs: Vec<u64>,
}

fn case() -> Case {
    let stem = "traps-rv32";
    let elf = etrace_programs::elf(stem).unwrap();
    let records = etrace_programs::run_records(stem, &elf, HartConfig::default()).unwrap();
    let options = NtraceOptions {
        call_stack: 4,
        repeat_history: true,
        sync_max: 4,
        ..NtraceOptions::default()
    };
    let bytes = encode(options, &records);
    let mut stream = MessageStream::new(options.fields(), true);
    let mut items = stream.push(&bytes);
    items.extend(stream.finish());
    let syncs = items
        .iter()
        .filter_map(|i| match i {
            StreamItem::Message {
                offset, message, ..
            } if message.body.sync().is_some() => Some(*offset),
            _ => None,
        })
        .collect();
    Case {
        image: ProgramImage::from_elf(&elf).unwrap(),
        options,
        bytes,
        expected: expected_steps(&records),
        syncs,
    }
}

/// Every decode error names a byte offset inside the stream.
fn assert_errors_placed(elements: &[TraceElement], len: usize, what: &str) {
    for e in elements.iter().filter_map(TraceElement::decode_error) {
        let offset = e
            .byte_offset
            .unwrap_or_else(|| panic!("{what}: error without offset: {e}"));
        assert!(
            offset <= len as u64,
            "{what}: offset {offset} beyond {len}: {e}"
        );
    }
}

#[test]
fn truncation_at_every_length_decodes_a_prefix() {
    let c = case();
    assert!(
        c.syncs.len() > 3,
        "{} sync messages in {} bytes",
        c.syncs.len(),
        c.bytes.len()
    );
    for len in 0..c.bytes.len() {
        let cut = &c.bytes[..len];
        let elements = decode(&c.image, &c.options, cut);
        let what = format!("cut at {len}");
        assert_errors_placed(&elements, len, &what);
        let errors: Vec<_> = elements.iter().filter_map(|e| e.decode_error()).collect();
        assert!(errors.len() <= 1, "{what}: {errors:?}");
        let decoded = steps(&elements, &c.image).unwrap();
        assert_eq!(decoded[..], c.expected[..decoded.len()], "{what}");
    }
}

#[test]
fn bit_flips_resynchronise_at_the_next_sync_message() {
    let c = case();
    let mut rng = Rng::new(24);
    for _ in 0..2000 {
        let at = rng.below(c.bytes.len() as u64) as usize;
        let mut bytes = c.bytes.clone();
        bytes[at] ^= 1 << rng.below(8);
        let elements = decode(&c.image, &c.options, &bytes);
        let what = format!("flip at {at}");
        assert_errors_placed(&elements, bytes.len(), &what);
        // After an error, tracing restarts at a sync message that starts after it.
        if let Some(first) = elements.iter().position(|e| e.decode_error().is_some()) {
            let err_at = elements[first].decode_error().unwrap().byte_offset.unwrap();
            let later_sync = c.syncs.iter().any(|&s| s > err_at + 64);
            let resumed = elements[first..]
                .iter()
                .any(|e| matches!(e, TraceElement::TraceOn { .. }));
            assert!(!later_sync || resumed, "{what}: no resynchronisation");
        }
    }
}

#[test]
fn random_all_zero_and_all_ones_input() {
    let c = case();
    let mut rng = Rng::new(5);
    let random: Vec<u8> = (0..50_000).map(|_| rng.next_u64() as u8).collect();
    for (what, bytes) in [
        ("random", random),
        ("all-zero", vec![0u8; 50_000]),
        ("all-0xFF", vec![0xFFu8; 50_000]),
    ] {
        let elements = decode(&c.image, &c.options, &bytes);
        assert_errors_placed(&elements, bytes.len(), what);
        let errors = elements
            .iter()
            .filter(|e| e.decode_error().is_some())
            .count();
        match what {
            "all-zero" => assert!(errors > 0, "all-zero input reports errors"),
            "all-0xFF" => assert!(elements.is_empty(), "idle bytes only: {elements:?}"),
            _ => {}
        }
    }
}
