//! "Decoding trace from multiple harts": the N-Trace streams of two harts (two programs,
//! SRC 1 and SRC 2 in a 4-bit SRC field) interleaved message by message into one stream;
//! a decoder following each SRC reconstructs its hart's execution exactly.

mod common;

use common::{assert_steps, decode, encode, expected_steps};
use etrace_decoder::ProgramImage;
use etrace_hart::HartConfig;
use etrace_ntrace::mseo::MessageSplitter;
use etrace_ntrace::NtraceOptions;
use etrace_spec::framing::{deframe_all, FrameEvent};

/// The messages of a stream, each as its bytes.
fn messages(bytes: &[u8], src_bits: u8) -> Vec<Vec<u8>> {
    deframe_all(&mut MessageSplitter::new(src_bits, true), bytes)
        .into_iter()
        .map(|e| match e {
            FrameEvent::Packet(p) => p.payload,
            FrameEvent::Error { error, .. } => panic!("{error}"),
        })
        .collect()
}

#[test]
fn two_harts_in_one_stream_decode_by_src() {
    let harts = [("recursion-rv32", 1u16), ("traps-rv32", 2u16)];
    let runs: Vec<_> = harts
        .iter()
        .map(|&(stem, src)| {
            let elf = etrace_programs::elf(stem).unwrap();
            let records = etrace_programs::run_records(stem, &elf, HartConfig::default()).unwrap();
            let options = NtraceOptions {
                src_bits: 4,
                src_id: src,
                call_stack: 4,
                ..NtraceOptions::default()
            };
            let bytes = encode(options, &records);
            (
                stem,
                options,
                ProgramImage::from_elf(&elf).unwrap(),
                records,
                bytes,
            )
        })
        .collect();
    // Interleave: one message of each hart in turn, idle bytes between some.
    let lists: Vec<Vec<Vec<u8>>> = runs.iter().map(|r| messages(&r.4, 4)).collect();
    let mut stream = Vec::new();
    for i in 0..lists.iter().map(Vec::len).max().unwrap() {
        for list in &lists {
            if let Some(m) = list.get(i) {
                stream.extend_from_slice(m);
                if i % 3 == 0 {
                    stream.push(0xFF);
                }
            }
        }
    }
    for (stem, options, image, records, _) in &runs {
        let elements = decode(image, options, &stream);
        assert_steps(stem, image, &elements, &expected_steps(records));
    }
}
