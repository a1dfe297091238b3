//! Set-up shared by the N-Trace integration tests: encoding an ingress stream, decoding
//! the bytes against a program image, and the steps a decoder must reproduce.

#![allow(dead_code)] // each test file uses a part

use etrace_decoder::pcs::{record_steps, steps, Step};
use etrace_decoder::{ProgramImage, TraceElement};
use etrace_ntrace::decoder::decode_bytes;
use etrace_ntrace::{NtraceDecoder, NtraceDecoderConfig, NtraceEncoder, NtraceMode, NtraceOptions};
use etrace_spec::ingress::IngressRecord;

pub mod random_program;

/// The option sets every program is checked under: (name, options).
pub fn option_sets() -> Vec<(&'static str, NtraceOptions)> {
    let htm = NtraceOptions::default();
    let btm = NtraceOptions {
        mode: NtraceMode::Btm,
        ..htm
    };
    vec![
        ("btm", btm),
        ("htm", htm),
        (
            "btm-repeat",
            NtraceOptions {
                repeat_history: true,
                ..btm
            },
        ),
        (
            "htm-callstack8",
            NtraceOptions {
                call_stack: 8,
                ..htm
            },
        ),
        (
            "htm-callstack8-repeat",
            NtraceOptions {
                call_stack: 8,
                repeat_history: true,
                ..htm
            },
        ),
        (
            "htm-sijump-callstack2-sync16",
            NtraceOptions {
                sijump: true,
                call_stack: 2,
                sync_max: 16,
                ..htm
            },
        ),
        (
            "btm-sijump-small-counters",
            NtraceOptions {
                sijump: true,
                icnt_bits: 5,
                hist_bits: 4,
                repeat_bits: 2,
                repeat_history: true,
                call_stack: 1,
                ..btm
            },
        ),
        (
            "htm-small-counters-src-timestamp",
            NtraceOptions {
                icnt_bits: 4,
                hist_bits: 3,
                repeat_bits: 1,
                repeat_history: true,
                call_stack: 3,
                src_bits: 4,
                src_id: 9,
                timestamp: true,
                sync_max: 5,
                ..htm
            },
        ),
    ]
}

/// The MSEO bytes of `records` under `options`.
pub fn encode(options: NtraceOptions, records: &[IngressRecord]) -> Vec<u8> {
    let mut encoder = NtraceEncoder::new(options).unwrap();
    for r in records {
        encoder.push(r);
    }
    encoder.finish();
    encoder.take_bytes()
}

/// The decoder's configuration for a stream of `options`.
pub fn decoder_config(options: &NtraceOptions) -> NtraceDecoderConfig {
    NtraceDecoderConfig {
        fields: options.fields(),
        src: (options.src_bits > 0).then_some(options.src_id),
        sijump: options.sijump,
    }
}

/// Decodes `bytes` against `image`.
pub fn decode(image: &ProgramImage, options: &NtraceOptions, bytes: &[u8]) -> Vec<TraceElement> {
    let config = decoder_config(options);
    let mut decoder = NtraceDecoder::new(image, config);
    decode_bytes(&mut decoder, config.fields, bytes)
}

/// The steps N-Trace can reproduce from `records`: every retired instruction with its
/// privilege, and every trap with its kind (exception or interrupt); N-Trace reports no
/// trap cause ("Trace Ingress Port": `cause` and `tval` are not needed), so it is 0.
pub fn expected_steps(records: &[IngressRecord]) -> Vec<Step> {
    record_steps(records)
        .into_iter()
        .map(etrace_ntrace::decoder::reproducible_step)
        .collect()
}

/// Checks that `elements` hold no decode error and expand to `expected`.
pub fn assert_steps(
    what: &str,
    image: &ProgramImage,
    elements: &[TraceElement],
    expected: &[Step],
) {
    if let Some(e) = elements.iter().find_map(TraceElement::decode_error) {
        panic!("{what}: decode error: {e}");
    }
    let decoded = steps(elements, image)
        .unwrap_or_else(|a| panic!("{what}: decoded trace leaves the image at {a:#x}"));
    if let Some(n) =
        (0..expected.len().max(decoded.len())).find(|&i| expected.get(i) != decoded.get(i))
    {
        panic!(
            "{what}: step {n} differs: expected {:?}, decoded {:?} ({} expected, {} decoded)",
            expected.get(n),
            decoded.get(n),
            expected.len(),
            decoded.len()
        );
    }
}
