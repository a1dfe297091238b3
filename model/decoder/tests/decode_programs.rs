//! The software round trip of `decoder.adoc`: every test program runs on the hart model, its
//! ingress stream is encoded, packed and unpacked, and decoded against the program image;
//! the reconstructed instruction addresses, privileges and traps must equal the hart's, in
//! order, under every option set of the encoder issue, for RV32 and RV64.

mod common;

use common::{
    assert_no_decode_error, assert_same_steps, decode, decode_payloads, params_for, program,
};
use etrace_decoder::pcs::{record_steps, steps, StepWalker};
use etrace_decoder::{DecoderConfig, TeDecoder, TraceElement};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_spec::packet::TeInst;
use etrace_spec::params::Params;

const PROGRAMS: [&str; 9] = [
    "minimal",
    "recursion",
    "tailcall",
    "fnptr_switch",
    "loops",
    "traps",
    "privilege",
    "timer",
    "workload",
];

/// (name, options, sijump_p) of the encoder issue's option sets, plus resync every 16
/// packets, branch prediction (format 0, `bpred_size_p` = 5) and implicit return with a
/// 16-entry return address stack and with an 8-deep call counter.
fn option_sets() -> Vec<(&'static str, EncoderOptions, bool)> {
    let d = EncoderOptions::default();
    vec![
        ("differential", d, false),
        (
            "differential-noresync",
            EncoderOptions { resync_max: 0, ..d },
            false,
        ),
        (
            "full",
            EncoderOptions {
                full_address: true,
                ..d
            },
            false,
        ),
        (
            "full-noresync",
            EncoderOptions {
                full_address: true,
                resync_max: 0,
                ..d
            },
            false,
        ),
        ("sijump", EncoderOptions { sijump: true, ..d }, true),
        (
            "bpred",
            EncoderOptions {
                branch_prediction: true,
                ..d
            },
            false,
        ),
        (
            "implicit-return",
            EncoderOptions {
                implicit_return: true,
                ..d
            },
            false,
        ),
        (
            "implicit-return-counter",
            EncoderOptions {
                implicit_return: true,
                ..d
            },
            false,
        ),
        (
            "resync16",
            EncoderOptions {
                resync_max: 16,
                ..d
            },
            false,
        ),
    ]
}

#[test]
fn decoder_adoc_round_trip_of_every_program() {
    for name in PROGRAMS {
        for xlen in ["rv32", "rv64"] {
            let stem = format!("{name}-{xlen}");
            let program = program(&stem);
            let want = record_steps(&program.records);
            for (set, options, sijump) in option_sets() {
                if name == "workload" && !matches!(set, "differential" | "full-noresync") {
                    continue;
                }
                let mut params: Params = params_for(&stem);
                if sijump {
                    params.sijump_p = 1;
                }
                params.bpred_size_p = 5;
                if set == "implicit-return-counter" {
                    params.call_counter_size_p = 3;
                } else {
                    params.return_stack_size_p = 4;
                }
                let packets = Encoder::encode_all(&params, options, &program.records).unwrap();
                let elements =
                    decode_payloads(&program.image, &params, packets.iter().map(|p| &p.packet));
                let what = format!("{stem} {set}");
                assert_no_decode_error(&elements, &what);
                let got = steps(&elements, &program.image).unwrap();
                assert_same_steps(&got, &want, &what);
            }
        }
    }
}

#[test]
fn decoder_adoc_a_flipped_branch_bit_is_detected() {
    let program = program("loops-rv32");
    let want = record_steps(&program.records);
    assert!(want.len() > 10_000);
    let params = Params::rv32();
    let mut packets =
        Encoder::encode_all(&params, EncoderOptions::default(), &program.records).unwrap();
    let victim = packets
        .iter()
        .position(|p| matches!(&p.packet, TeInst::Branch(b) if b.branches > 3))
        .expect("a format 1 packet");
    if let TeInst::Branch(b) = &mut packets[victim].packet {
        b.branch_map ^= 1;
    }
    let elements = decode(
        &program.image,
        &params,
        DecoderConfig::default(),
        packets.iter().map(|p| &p.packet),
    );
    let errors = elements
        .iter()
        .filter(|e| matches!(e, TraceElement::DecodeError { .. }))
        .count();
    let got = steps(&elements, &program.image).unwrap();
    assert!(
        errors > 0 || got != want,
        "a corrupted branch map must not decode to the hart's sequence"
    );
}

/// `decoder.adoc` decoding as a stream: elements taken from the decoder every few packets
/// (`take_elements(false)`) and walked piece by piece (`StepWalker`) give the hart's steps,
/// with the privilege carried across pieces (programs that change privilege and trap).
#[test]
fn decoder_adoc_streamed_in_pieces_equals_the_hart() {
    for name in ["privilege-rv32", "traps-rv64", "timer-rv32"] {
        let program = program(name);
        let want = record_steps(&program.records);
        let image = &program.image;
        let params = params_for(name);
        let packets =
            Encoder::encode_all(&params, EncoderOptions::default(), &program.records).unwrap();
        for every in [1, 3, 64] {
            let mut decoder = TeDecoder::new(image, &params, DecoderConfig::default());
            let mut walker = StepWalker::new();
            let mut got = Vec::new();
            for (i, p) in packets.iter().enumerate() {
                decoder.process(&p.packet, i as u64, None);
                if i % every == 0 {
                    let piece = decoder.take_elements(false);
                    walker.walk(&piece, image, |s| got.push(s)).unwrap();
                }
            }
            let piece = decoder.take_elements(true);
            walker.walk(&piece, image, |s| got.push(s)).unwrap();
            assert_eq!(got, want, "{name}, elements taken every {every} packets");
        }
    }
}
