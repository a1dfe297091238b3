//! The whole encoder's cycle model (`hdl/DESIGN.md`, "Cycle contract" items 0-8,
//! `etrace_encoder::cycle::encoder`): without stalls its bytes are the software encoder's
//! encap stream; under back-pressure it drops whole decisions, recovers with a trace-lost
//! support packet and a sync, and every byte it hands out belongs to a packet it pushed,
//! stamped with the cycle that produced it.

use etrace_encoder::cycle::encoder::{CycleInput, EncoderCycle};
use etrace_encoder::cycle::output_path::{OutputItem, OutputPathConfig};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_hart::HartConfig;
use etrace_spec::framing::encap::{EncapDeframer, EncapItem, EncapWriter};
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::{pack, unpack, QualStatus, TeInst};
use etrace_spec::params::Params;

fn records(name: &str, limit: usize) -> Vec<IngressRecord> {
    etrace_programs::records(name, HartConfig::default(), limit).unwrap()
}

fn params_for(name: &str) -> Params {
    let mut p = if name.ends_with("rv64") {
        Params::rv64()
    } else {
        Params::rv32()
    };
    p.sijump_p = 1;
    p
}

/// Runs `cycles` through the model; returns the bytes taken and the model.
fn run(
    params: &Params,
    options: EncoderOptions,
    output: OutputPathConfig,
    cycles: &[CycleInput],
) -> (Vec<u8>, EncoderCycle) {
    let mut model = EncoderCycle::new(params, options, output).unwrap();
    model.keep_log();
    let mut bytes = Vec::new();
    for c in cycles {
        if let Some(OutputItem::Byte { data, .. }) = model.cycle(c).unwrap() {
            bytes.push(data);
        }
    }
    (bytes, model)
}

/// Enabled throughout, `gap` idle cycles after each block, output always ready, then
/// disabled and drained.
fn spaced(records: &[IngressRecord], gap: usize) -> Vec<CycleInput> {
    let on = |block| CycleInput {
        block,
        trace_enable: true,
        ready: true,
        ..CycleInput::default()
    };
    let mut cycles = Vec::new();
    for r in records {
        cycles.push(on(Some(*r)));
        cycles.extend(std::iter::repeat_n(on(None), gap));
    }
    cycles.extend(std::iter::repeat_n(
        CycleInput {
            ready: true,
            ..CycleInput::default()
        },
        400,
    ));
    cycles
}

#[test]
fn hdl_design_items_1_to_8_no_stall_bytes_equal_the_software_encoder() {
    for name in [
        "fnptr_switch-rv32",
        "traps-rv64",
        "recursion-rv64",
        "privilege-rv32",
    ] {
        let params = params_for(name);
        let recs = records(name, 20_000);
        let options = EncoderOptions::default();
        let (got, model) = run(
            &params,
            options,
            OutputPathConfig::default(),
            &spaced(&recs, 40),
        );
        assert_eq!(model.dropped(), 0, "{name}: nothing dropped");
        assert!(model.is_idle(), "{name}: drained");
        let mut writer = EncapWriter::new(OutputPathConfig::default().encap(), 4096);
        for p in Encoder::encode_all(&params, options, &recs).unwrap() {
            writer
                .write(&pack(&p.packet, &params).unwrap().bytes, 0, None)
                .unwrap();
        }
        let want = writer.into_bytes();
        assert!(want.len() > 100, "{name}: a real stream");
        assert_eq!(got, want, "{name}");
    }
}

/// Blocks in most cycles, the output ready in a third of them: the queue overflows.
fn stalled(records: &[IngressRecord], rng: &mut Rng) -> Vec<CycleInput> {
    let mut cycles = Vec::new();
    for (i, r) in records.iter().enumerate() {
        while rng.below(3) == 0 {
            cycles.push(CycleInput {
                trace_enable: true,
                ready: rng.below(3) == 0,
                ..CycleInput::default()
            });
        }
        // A disable / enable in the middle, while the output is stalled.
        let enable = i != records.len() / 2;
        cycles.push(CycleInput {
            block: Some(*r),
            trace_enable: enable,
            ready: rng.below(3) == 0,
            ..CycleInput::default()
        });
    }
    cycles.extend(std::iter::repeat_n(
        CycleInput {
            ready: true,
            ..CycleInput::default()
        },
        2000,
    ));
    cycles
}

fn deframe(bytes: &[u8], output: &OutputPathConfig) -> Vec<(Option<u64>, Vec<u8>)> {
    EncapDeframer::new(bytes, output.encap())
        .filter_map(|item| match item.unwrap() {
            EncapItem::Packet(p) => Some((p.timestamp, p.payload)),
            _ => None,
        })
        .collect()
}

#[test]
fn hdl_design_item_4_stalls_drop_whole_decisions_and_every_byte_is_a_pushed_packet() {
    let output = OutputPathConfig {
        src_bits: 4,
        src_id: 9,
        timestamp: true,
        fifo_depth: 16,
        ..OutputPathConfig::default()
    };
    for (name, seed) in [("fnptr_switch-rv32", 7), ("fnptr_switch-rv64", 11)] {
        let params = params_for(name);
        let recs = records(name, 20_000);
        let cycles = stalled(&recs, &mut Rng::new(seed));
        let (bytes, mut model) = run(&params, EncoderOptions::default(), output, &cycles);
        assert!(model.is_idle(), "{name}: drained");
        assert!(
            model.dropped() > 50,
            "{name}: the stalls drop packets ({} dropped)",
            model.dropped()
        );
        let log = model.take_log();
        let framed = deframe(&bytes, &output);
        assert_eq!(
            framed.len(),
            log.len(),
            "{name}: one frame per pushed packet"
        );
        let mut recoveries = 0;
        for (i, ((timestamp, payload), pushed)) in framed.iter().zip(&log).enumerate() {
            assert_eq!(
                *timestamp,
                Some(pushed.cycle & 0xffff),
                "{name}: packet {i}: timestamp is the producing cycle"
            );
            assert_eq!(
                unpack(payload, &params).unwrap(),
                pushed.packet,
                "{name}: packet {i}"
            );
            if let TeInst::Support(s) = &pushed.packet {
                if s.qual_status == QualStatus::TraceLost {
                    recoveries += 1;
                    assert!(
                        matches!(log.get(i + 1).map(|p| &p.packet), Some(TeInst::Start(_))),
                        "{name}: packet {i}: a sync follows the trace-lost support packet"
                    );
                }
            }
        }
        assert!(recoveries > 5, "{name}: recoveries {recoveries}");
    }
}

#[test]
fn hdl_design_item_3_enable_with_a_full_queue_drops_the_support_packet() {
    let params = params_for("fnptr_switch-rv32");
    let recs = records("fnptr_switch-rv32", 200);
    let output = OutputPathConfig {
        fifo_depth: 16,
        ..OutputPathConfig::default()
    };
    let mut model = EncoderCycle::new(&params, EncoderOptions::default(), output).unwrap();
    model.keep_log();
    let stalled_on = |block| CycleInput {
        block,
        trace_enable: true,
        ..CycleInput::default()
    };
    // Output stalled: the FIFO, the serializer and the queue fill up.
    for r in &recs[..100] {
        model.cycle(&stalled_on(Some(*r))).unwrap();
    }
    assert!(model.trace_lost(), "the stall loses packets");
    // Disable, then enable again while the queue is still full.
    for _ in 0..4 {
        model.cycle(&CycleInput::default()).unwrap();
    }
    let before = model.take_log().len();
    model.cycle(&stalled_on(None)).unwrap();
    assert!(
        model.take_log().is_empty(),
        "the enable support packet is dropped"
    );
    assert!(model.trace_lost(), "and the encoder starts lost");
    // Output ready again: the next decision with room recovers.
    let mut after = Vec::new();
    for r in &recs[100..] {
        model
            .cycle(&CycleInput {
                ready: true,
                ..stalled_on(Some(*r))
            })
            .unwrap();
        after.extend(model.take_log());
    }
    assert!(before > 2);
    assert!(!model.trace_lost());
    match (&after[0].packet, &after[1].packet) {
        (TeInst::Support(s), TeInst::Start(_)) => {
            assert_eq!(s.qual_status, QualStatus::TraceLost);
            assert!(s.ienable);
        }
        other => panic!("expected trace-lost support and sync, got {other:?}"),
    }
}
