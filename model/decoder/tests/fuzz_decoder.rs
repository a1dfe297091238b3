//! Robustness of the receive path (deframer, `unpack_with`, the `decoder.adoc` decoder)
//! against corrupted real streams: framed packet streams of real programs (hart ->
//! encoder -> encap / Siemens framing) with random bit flips, deleted, inserted and
//! duplicated byte runs and truncation. The decoder must not panic or hang, must only
//! report instructions that exist in the program image, and, after damage in the middle,
//! must resynchronise: once later synchronisation packets arrive, the end of the run is
//! reconstructed exactly as the hart executed it.
//!
//! The cases are few and seeded (proptest's deterministic runner) so the test takes a few
//! seconds.

use std::sync::OnceLock;

mod common;

use common::{params_for, program};
use etrace_decoder::pcs::{record_steps, steps, Step};
use etrace_decoder::stream::{decode_payloads, payloads, Framing, PayloadEvent};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_spec::framing::encap::{EncapConfig, EncapWriter};
use etrace_spec::framing::smi::SmiConfig;
use etrace_spec::packet::{pack, unpack_with, IOptions, TeInst};
use etrace_spec::params::Params;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm, TestRng, TestRunner};

/// A resync interval short enough that the damaged region is soon followed by a
/// synchronisation packet (`sec:resync`, in packets).
const RESYNC_MAX: u32 = 16;
/// Encap synchronisation sequences every this many bytes, so the deframer recovers.
const ENCAP_SYNC_INTERVAL: usize = 64;
/// Steps at the end of the run that must be reconstructed exactly after damage in the
/// first half.
const TAIL: usize = 40;

struct Case {
    name: &'static str,
    params: Params,
    image: ProgramImage,
    want: Vec<Step>,
    /// The unframed payloads.
    payloads: Vec<Vec<u8>>,
}

fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        ["recursion-rv32", "traps-rv64", "fnptr_switch-rv32"]
            .into_iter()
            .map(|name| {
                let program = program(name);
                let params = params_for(name);
                let options = EncoderOptions {
                    resync_max: RESYNC_MAX,
                    ..EncoderOptions::default()
                };
                let payloads = Encoder::encode_all(&params, options, &program.records)
                    .unwrap()
                    .iter()
                    .map(|p| pack(&p.packet, &params).unwrap().bytes)
                    .collect();
                Case {
                    name,
                    params,
                    want: record_steps(&program.records),
                    image: program.image,
                    payloads,
                }
            })
            .collect()
    })
}

fn framed(case: &Case, encap: bool) -> (Framing, Vec<u8>) {
    if encap {
        let cfg = EncapConfig::default();
        let mut w = EncapWriter::new(cfg, ENCAP_SYNC_INTERVAL);
        for p in &case.payloads {
            w.write(p, 0, None).unwrap();
        }
        (Framing::Encap(cfg), w.into_bytes())
    } else {
        let cfg = SmiConfig::default();
        let bytes = case
            .payloads
            .iter()
            .flat_map(|p| cfg.frame(p, 0, None).unwrap())
            .collect();
        (Framing::Smi(cfg), bytes)
    }
}

/// One edit of the byte stream, at a position given as a fraction (of 2^16) of its length.
#[derive(Debug, Clone)]
enum Mutation {
    FlipBit { at: u16, bit: u8 },
    Delete { at: u16, len: u8 },
    Insert { at: u16, bytes: Vec<u8> },
    Duplicate { at: u16, len: u8 },
    Truncate { at: u16 },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<u16>(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        2 => (any::<u16>(), 1u8..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        2 => (any::<u16>(), proptest::collection::vec(any::<u8>(), 1..24))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        2 => (any::<u16>(), 1u8..40).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
        1 => any::<u16>().prop_map(|at| Mutation::Truncate { at }),
    ]
}

/// Applies `m` within `window` (a byte range of the stream).
fn apply(bytes: &mut Vec<u8>, m: &Mutation, window: std::ops::Range<usize>) {
    let place = |at: u16| window.start + (window.len() * usize::from(at)) / 65536;
    match m {
        Mutation::FlipBit { at, bit } => {
            let i = place(*at).min(bytes.len().saturating_sub(1));
            if let Some(b) = bytes.get_mut(i) {
                *b ^= 1 << bit;
            }
        }
        Mutation::Delete { at, len } => {
            let i = place(*at).min(bytes.len());
            let end = (i + usize::from(*len)).min(bytes.len());
            bytes.drain(i..end);
        }
        Mutation::Insert { at, bytes: new } => {
            let i = place(*at).min(bytes.len());
            bytes.splice(i..i, new.iter().copied());
        }
        Mutation::Duplicate { at, len } => {
            let i = place(*at).min(bytes.len());
            let end = (i + usize::from(*len)).min(bytes.len());
            let run: Vec<u8> = bytes[i..end].to_vec();
            bytes.splice(end..end, run);
        }
        Mutation::Truncate { at } => {
            let i = place(*at).min(bytes.len());
            bytes.truncate(i);
        }
    }
}

fn config() -> DecoderConfig {
    DecoderConfig {
        max_steps_per_packet: 1 << 20,
        ..DecoderConfig::default()
    }
}

/// True when a support packet shows up after the first packet: a corrupted packet that
/// reads as one may change the options (e.g. `full_address`) for the rest of the stream,
/// after which no exact reconstruction can be expected.
fn forged_support(events: &[PayloadEvent], params: &Params) -> bool {
    let mut options = IOptions::default();
    let mut support = 0usize;
    let count = events
        .iter()
        .filter(|e| matches!(e, PayloadEvent::Payload { .. }))
        .count();
    for (i, e) in events
        .iter()
        .filter_map(|e| match e {
            PayloadEvent::Payload { bytes, .. } => Some(bytes),
            _ => None,
        })
        .enumerate()
    {
        if let Ok(TeInst::Support(s)) = unpack_with(e, params, &options) {
            options = s.ioptions;
            // The genuine ones: the first packet and the last one (end of qualification).
            if i != 0 && i + 1 != count {
                support += 1;
            }
        }
    }
    support > 0
}

/// Runs deframer + unpack + decoder on `bytes` and checks the elements.
fn check(case: &Case, framing: &Framing, bytes: &[u8], expect_tail: bool) -> Result<(), String> {
    let events = payloads(framing, bytes);
    let mut decoder = TeDecoder::new(&case.image, &case.params, config());
    let elements = decode_payloads(&mut decoder, &case.params, &events);
    for e in &elements {
        if let TraceElement::Range { first, last, .. } = e {
            if case.image.insn(*first).is_none() || case.image.insn(*last).is_none() {
                return Err(format!(
                    "range {first:#x}..={last:#x} outside the image: {e:?}"
                ));
            }
        }
    }
    let got = steps(&elements, &case.image).map_err(|a| format!("no instruction at {a:#x}"))?;
    if expect_tail && !forged_support(&events, &case.params) {
        let tail = &case.want[case.want.len() - TAIL..];
        if got.len() < TAIL || &got[got.len() - TAIL..] != tail {
            return Err(format!(
                "not resynchronised: last steps {:?}, want {:?}",
                &got[got.len().saturating_sub(4)..],
                &tail[TAIL - 4..]
            ));
        }
    }
    Ok(())
}

/// The unmutated streams decode to the hart's steps (the baseline of the fuzz test).
#[test]
fn decoder_adoc_framed_real_streams_decode_exactly() {
    for case in cases() {
        for encap in [true, false] {
            let (framing, bytes) = framed(case, encap);
            let events = payloads(&framing, &bytes);
            let mut decoder = TeDecoder::new(&case.image, &case.params, config());
            let elements = decode_payloads(&mut decoder, &case.params, &events);
            assert_eq!(
                steps(&elements, &case.image).unwrap(),
                case.want,
                "{} encap={encap}",
                case.name
            );
        }
    }
}

/// `decoder.adoc` error handling: random damage to real encap / Siemens streams never
/// panics or hangs, never yields instructions outside the image, and damage confined to
/// the first half of the stream is followed by an exact reconstruction of the run's end.
#[test]
fn decoder_adoc_resynchronises_after_damaged_streams() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 320,
            failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    let strategy = (
        0usize..3,
        any::<bool>(),
        proptest::collection::vec(mutation(), 1..4),
    );
    runner
        .run(&strategy, |(which, encap, mutations)| {
            let case = &cases()[which];
            let (framing, mut bytes) = framed(case, encap);
            // Damage in the second quarter only: the rest of the stream holds many
            // synchronisation packets (every RESYNC_MAX packets).
            let window = bytes.len() / 4..bytes.len() / 2;
            let truncated = mutations
                .iter()
                .any(|m| matches!(m, Mutation::Truncate { .. }));
            for m in &mutations {
                apply(&mut bytes, m, window.clone());
            }
            check(case, &framing, &bytes, !truncated).map_err(|e| {
                TestCaseError::fail(format!("{} encap={encap} {mutations:?}: {e}", case.name))
            })
        })
        .unwrap();
}
