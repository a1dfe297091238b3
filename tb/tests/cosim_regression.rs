//! The RTL-against-model regression (`etrace_tb::cosim`, `hdl/DESIGN.md` "Cycle contract"):
//! every test program on the RV32 and RV64 builds (and the itype-3, timestamp, smi and ATB
//! builds), with and without output back-pressure and idle cycles, port equal to the cycle
//! model in every cycle and the RTL's trace decoding to the hart's execution; a random
//! ingress stream of more than ten million cycles; the deliberately faulty build caught
//! with a full report; and a consumer of the output that stops the run.

mod common;

use common::{cosim_program, program, BACK_PRESSURE, NO_STALL, PROGRAMS};
use etrace_encoder::EncoderOptions;
use etrace_spec::ingress::random::{RandomStream, RandomStreamConfig};
use etrace_spec::ingress::ItypeWidth;
use etrace_tb::cosim::{
    run, run_per_cycle, run_streaming, CosimConfig, CosimError, StallConfig, TakenItems,
};
use etrace_tb::Variant;

/// Co-simulates `name` on `variant` (`common::cosim_program`, srcID 0xb). Returns
/// (packets, dropped).
fn check_program(
    name: &str,
    variant: Variant,
    options: EncoderOptions,
    stall: StallConfig,
) -> (u64, u64) {
    let (s, _) = cosim_program(name, variant, options, stall, 0xb);
    (s.packets, s.dropped)
}

#[test]
fn every_program_rv32_and_rv64_without_back_pressure() {
    for name in PROGRAMS {
        for (suffix, variant) in [("rv32", Variant::Rv32), ("rv64", Variant::Rv64)] {
            let (packets, _) = check_program(
                &format!("{name}-{suffix}"),
                variant,
                EncoderOptions::default(),
                NO_STALL,
            );
            assert!(packets > 2, "{name}-{suffix}");
        }
    }
}

#[test]
fn every_program_rv32_and_rv64_with_back_pressure() {
    let mut dropped = 0;
    for name in PROGRAMS {
        for (suffix, variant) in [("rv32", Variant::Rv32), ("rv64", Variant::Rv64)] {
            dropped += check_program(
                &format!("{name}-{suffix}"),
                variant,
                EncoderOptions::default(),
                BACK_PRESSURE,
            )
            .1;
        }
    }
    assert!(dropped > 0, "back-pressure drops packets ({dropped})");
}

#[test]
fn itype3_timestamp_smi_and_atb_builds_with_options_and_back_pressure() {
    let full = EncoderOptions {
        full_address: true,
        implicit_exception: true,
        sijump: true,
        resync_max: 16,
        ..EncoderOptions::default()
    };
    for (name, variant, options) in [
        ("fnptr_switch-rv32", Variant::Rv32Itype3, full),
        ("traps-rv64", Variant::Rv64Itype3, full),
        ("privilege-rv32", Variant::Rv32Ts, EncoderOptions::default()),
        ("timer-rv32", Variant::Rv32Ts, full),
        ("traps-rv32", Variant::Rv32Smi, full),
        ("timer-rv32", Variant::Rv32SmiTs, EncoderOptions::default()),
        ("fnptr_switch-rv32", Variant::Rv32SmiTs, full),
        (
            "fnptr_switch-rv32",
            Variant::Rv32Atb,
            EncoderOptions::default(),
        ),
        ("recursion-rv64", Variant::Rv64Atb16, full),
    ] {
        check_program(name, variant, options, NO_STALL);
        check_program(name, variant, options, BACK_PRESSURE);
    }
}

#[test]
fn random_ingress_stream_of_ten_million_cycles_matches_the_model() {
    let config_for = |variant: Variant, seed| {
        let mut c = CosimConfig::new(variant);
        c.stall = StallConfig {
            stall_probability: 0.35,
            idle_probability: 0.25,
            seed,
        };
        c.options.resync_max = 64;
        c
    };
    let stream = |variant: Variant, seed| {
        RandomStream::new(
            RandomStreamConfig::for_params(&variant.config().params()),
            seed,
        )
    };
    let config = config_for(Variant::Rv32, 21);
    let records = stream(Variant::Rv32, 21).take(8_000_000);
    let outcome = run(&config, records, &mut |_, _| {}).unwrap_or_else(|e| panic!("{e}"));
    let s = outcome.stats;
    assert!(s.cycles >= 10_000_000, "{} cycles", s.cycles);
    assert!(s.packets > 100_000 && s.dropped > 1000, "{s:?}");
    // A shorter run of the other builds' corners.
    for variant in [
        Variant::Rv64,
        Variant::Rv32Itype3,
        Variant::Rv64Itype3,
        Variant::Rv32Ts,
        Variant::Rv32Smi,
        Variant::Rv32SmiTs,
        Variant::Rv64Atb16,
    ] {
        let config = config_for(variant, 5);
        let records = stream(variant, 5).take(200_000);
        run(&config, records, &mut |_, _| {}).unwrap_or_else(|e| panic!("{variant}: {e}"));
    }
}

#[test]
fn injected_branch_map_fault_is_reported_with_bytes_packets_and_waveform() {
    let (records, _) = program("fnptr_switch-rv32", ItypeWidth::W4);
    let dir = std::env::temp_dir().join(format!("etrace-fault-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = CosimConfig::new(Variant::Rv32Fault);
    config.mismatch_wave_dir = dir.clone();
    let err = run(&config, records.iter().copied(), &mut |_, _| {}).unwrap_err();
    let CosimError::Mismatch(m) = err else {
        panic!("expected a mismatch, got {err}")
    };
    let text = m.to_string();
    assert!(m.byte.is_some(), "{text}");
    assert_ne!(m.bytes.0, m.bytes.1, "{text}");
    let (rtl, model) = (m.packets.0.clone().unwrap(), m.packets.1.clone().unwrap());
    assert_eq!(rtl.index, model.index, "{text}");
    assert!(model.decoded.starts_with("Branch("), "{text}");
    assert_ne!(rtl.payload, model.payload, "{text}");
    let (path, from, to) = m.wave.clone().unwrap();
    assert!(from <= m.cycle && m.cycle < to, "{text}");
    let vcd = std::fs::read_to_string(&path).unwrap();
    assert!(
        vcd.contains("$enddefinitions") && vcd.contains("out_data"),
        "{text}"
    );
    assert!(text.contains("first differing byte"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The batched run (model thread, a batch of cycles per call into the RTL) and the
/// per-cycle run in one thread agree: the same stream and figures on a matching run, and
/// the same first differing cycle on the faulty build.
#[test]
fn batched_and_per_cycle_runs_agree_on_outcome_and_first_mismatch() {
    let (records, _) = program("fnptr_switch-rv32", ItypeWidth::W4);
    let mut config = CosimConfig::new(Variant::Rv32);
    config.stall = BACK_PRESSURE;
    let batched = run(&config, records.iter().copied(), &mut |_, _| {}).unwrap();
    let per_cycle = run_per_cycle(&config, records.iter().copied()).unwrap();
    assert_eq!(batched.stream, per_cycle.stream);
    let (b, p) = (batched.stats, per_cycle.stats);
    assert_eq!(
        (b.cycles, b.blocks, b.packets, b.dropped, b.bytes),
        (p.cycles, p.blocks, p.packets, p.dropped, p.bytes)
    );
    assert!(b.bytes > 100, "{b:?}");

    let dir = std::env::temp_dir().join(format!("etrace-agree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = CosimConfig::new(Variant::Rv32Fault);
    config.mismatch_wave_dir = dir.clone();
    let first = |e: CosimError| match e {
        CosimError::Mismatch(m) => (m.cycle, m.rtl, m.model),
        e => panic!("expected a mismatch, got {e}"),
    };
    let batched = first(run(&config, records.iter().copied(), &mut |_, _| {}).unwrap_err());
    let per_cycle = first(run_per_cycle(&config, records.iter().copied()).unwrap_err());
    assert_eq!(batched, per_cycle);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A consumer that breaks (`etrace cosim -o` on a file that cannot be written) stops the
/// streamed run at once: it is not called again, and the run ends with
/// `ConsumerStopped` after the batch it broke on, long before the records end.
#[test]
fn a_consumer_that_breaks_stops_the_streamed_run() {
    let config = CosimConfig::new(Variant::Rv32);
    let stream = RandomStream::new(
        RandomStreamConfig::for_params(&Variant::Rv32.config().params()),
        9,
    );
    let records = || stream.clone().take(200_000);
    let mut calls = 0;
    let mut taken = |items: TakenItems<'_>| {
        calls += 1;
        assert!(items.byte_count() > 0);
        std::ops::ControlFlow::Break(())
    };
    let result = run_streaming(&config, records, &mut |_, _| {}, &mut taken);
    match result {
        Err(CosimError::ConsumerStopped(cycles)) => {
            assert!(
                cycles > 0 && cycles <= 4096,
                "stopped after {cycles} cycles"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(calls, 1);
}
