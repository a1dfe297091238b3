//! Branch prediction in the RTL (`branchTrace.adoc`, `sec:branch-prediction`; format 0 of
//! `payload.adoc`, `sec:format0`): the builds with a 64-entry predictor (`bpred_size_p` 6)
//! against the cycle model with `branch_prediction` on, port equal in every cycle with and
//! without back-pressure, on every test program (decoded and checked against the hart) and
//! on a seeded random stream of more than two million cycles per build; and the build
//! with a faulty predictor caught inside a format 0 packet.

mod common;

use common::{cosim_program, program, random_cosim, BACK_PRESSURE, NO_STALL, PROGRAMS};
use etrace_decoder::stream::PayloadEvent;
use etrace_encoder::EncoderOptions;
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::{IngressRecord, Itype, ItypeWidth};
use etrace_tb::cosim::{run, CosimConfig, CosimError, StallConfig};
use etrace_tb::Variant;

/// The default options with `branch_prediction`.
fn prediction() -> EncoderOptions {
    EncoderOptions {
        branch_prediction: true,
        ..EncoderOptions::default()
    }
}

/// Format 0 packets (`sec:format0`: format bits 00) among the payloads of a stream.
fn format0_packets(events: &[PayloadEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, PayloadEvent::Payload { bytes, .. } if bytes[0] & 3 == 0))
        .count()
}

/// Co-simulates `name` on `variant` with `options` (`common::cosim_program`, srcID 0x5a).
/// Returns the format 0 packets of the stream.
fn check_program(
    name: &str,
    variant: Variant,
    options: EncoderOptions,
    stall: StallConfig,
) -> usize {
    format0_packets(&cosim_program(name, variant, options, stall, 0x5a).1)
}

#[test]
fn every_program_with_branch_prediction_with_and_without_back_pressure() {
    let mut format0 = 0;
    for name in PROGRAMS {
        let name = format!("{name}-rv32");
        for stall in [NO_STALL, BACK_PRESSURE] {
            format0 += check_program(&name, Variant::Rv32Bp, prediction(), stall);
        }
    }
    assert!(format0 > 100, "{format0} format 0 packets");
}

#[test]
fn every_program_on_the_all_options_build() {
    let all = EncoderOptions {
        full_address: false,
        implicit_exception: true,
        sijump: true,
        resync_max: 64,
        ..prediction()
    };
    let mut format0 = 0;
    for name in PROGRAMS {
        let name = format!("{name}-rv32");
        for stall in [NO_STALL, BACK_PRESSURE] {
            format0 += check_program(&name, Variant::Rv32All, all, stall);
        }
    }
    assert!(format0 > 100, "{format0} format 0 packets");
    // Without the run-time option the build encodes as one without a predictor.
    let none = check_program(
        "loops-rv32",
        Variant::Rv32Bp,
        EncoderOptions::default(),
        NO_STALL,
    );
    assert_eq!(none, 0);
}

/// A record of the random stream made predictable: most uninferable jumps (all but trap
/// returns, one in 20 kept) become branches, and a branch's outcome follows its address
/// (taken when address bit 3 is set, so the addresses sharing a predictor entry agree) but
/// for one branch in 30 that goes the other way: long runs of correct predictions (counted,
/// format 0) broken by failures. The encoder does not check that the stream is one
/// execution.
fn predictable(mut record: IngressRecord, rng: &mut Rng) -> IngressRecord {
    let itype = record.itype;
    let jump = itype.is_uninferable_discon() && itype != Itype::TrapReturn;
    if record.iretire != 0 && (itype.is_branch() || (jump && !rng.chance(1.0 / 20.0))) {
        let taken = (record.iaddr >> 3) & 1 == 1;
        record.itype = if taken ^ rng.chance(1.0 / 30.0) {
            Itype::TakenBranch
        } else {
            Itype::NontakenBranch
        };
    }
    record
}

#[test]
fn random_streams_of_two_million_cycles_with_branch_prediction() {
    for (variant, seed) in [(Variant::Rv32Bp, 31), (Variant::Rv32All, 32)] {
        let options = EncoderOptions {
            resync_max: 256,
            sijump: true,
            ..prediction()
        };
        let (config, stream) = random_cosim(variant, options, seed);
        let records = stream
            .take(1_600_000)
            .scan(Rng::new(seed), |rng, r| Some(predictable(r, rng)));
        let outcome =
            run(&config, records, &mut |_, _| {}).unwrap_or_else(|e| panic!("{variant}: {e}"));
        let s = outcome.stats;
        assert!(s.cycles >= 2_000_000, "{variant}: {} cycles", s.cycles);
        assert!(s.packets > 10_000 && s.dropped > 20, "{variant}: {s:?}");
        let format0 = format0_packets(&outcome.stream.payloads(&config.output()));
        assert!(format0 > 100, "{variant}: {format0} format 0 packets");
    }
}

#[test]
fn injected_predictor_fault_is_caught_in_a_format_0_packet() {
    let (records, _) = program("loops-rv32", ItypeWidth::W4);
    let mut config = CosimConfig::new(Variant::Rv32BpFault);
    config.options = prediction();
    let err = run(&config, records.iter().copied(), &mut |_, _| {}).unwrap_err();
    let CosimError::Mismatch(m) = err else {
        panic!("expected a mismatch, got {err}")
    };
    let text = m.to_string();
    assert!(m.byte.is_some(), "{text}");
    // The first difference lies in a packet that reports branches (format 0 or 1).
    let (rtl, model) = (m.packets.0.clone().unwrap(), m.packets.1.clone().unwrap());
    assert!(
        rtl.decoded.starts_with("Branch") || model.decoded.starts_with("Branch"),
        "{text}"
    );
    // The same program and options on the good build match.
    let mut good = CosimConfig::new(Variant::Rv32Bp);
    good.options = prediction();
    run(&good, records.iter().copied(), &mut |_, _| {}).unwrap_or_else(|e| panic!("{e}"));
}
