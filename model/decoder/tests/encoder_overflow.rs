//! Output overflow (`hdl/DESIGN.md`, cycle contract item 4): when the packets of a decision
//! do not fit the output queue they are dropped whole; the encoder then sends a support
//! packet with `qual_status` = trace_lost and a sync, from which a decoder resumes and
//! reconstructs the hart's execution again.

mod common;

use common::{assert_no_decode_error, decode, params_for, program};
use etrace_decoder::pcs::{push_record_steps, steps, Step};
use etrace_decoder::{DecoderConfig, TraceElement};
use etrace_encoder::{EncodedPacket, Encoder, EncoderOptions, OUTPUT_QUEUE_ENTRIES};
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::{QualStatus, TeInst};
use etrace_spec::params::Params;

/// Encodes `records` with output stalls: now and then the queue reports 0 or 1 free
/// entries for a run of decisions.
fn encode_with_stalls(
    params: &Params,
    options: EncoderOptions,
    records: &[IngressRecord],
    seed: u64,
) -> (Vec<EncodedPacket>, u64) {
    let mut rng = Rng::new(seed);
    let mut enc = Encoder::new(params, options).unwrap();
    let mut stall = 0u64;
    let mut stalled_free = 0u8;
    // About a dozen stalls per stream, whatever its length.
    let period = (records.len() as u64 / 12).max(8);
    for rec in records {
        if stall == 0 && rng.below(period) == 0 {
            stall = 1 + rng.below(200);
            stalled_free = u8::from(rng.below(4) == 0);
        }
        if stall > 0 {
            stall -= 1;
            enc.set_queue_free(stalled_free);
        } else {
            enc.set_queue_free(OUTPUT_QUEUE_ENTRIES);
        }
        enc.push(rec);
    }
    enc.set_queue_free(OUTPUT_QUEUE_ENTRIES);
    enc.finish();
    let dropped = enc.dropped();
    (enc.take_packets(), dropped)
}

#[test]
fn full_queue_never_drops_and_changes_nothing() {
    let records = program("loops-rv32").records;
    let params = Params::rv32();
    let plain = Encoder::encode_all(&params, EncoderOptions::default(), &records).unwrap();
    let mut enc = Encoder::new(&params, EncoderOptions::default()).unwrap();
    for rec in &records {
        enc.set_queue_free(2);
        enc.push(rec);
    }
    enc.finish();
    assert_eq!(enc.dropped(), 0);
    assert_eq!(enc.take_packets(), plain);
}

#[test]
fn a_decision_that_does_not_fit_is_dropped_whole_and_recovered_with_trace_lost_and_sync() {
    let records = program("fnptr_switch-rv32").records;
    let params = Params::rv32();
    let mut enc = Encoder::new(&params, EncoderOptions::default()).unwrap();
    // Room for nothing while the first hundred records are decided.
    for (i, rec) in records.iter().enumerate() {
        enc.set_queue_free(if i < 100 { 0 } else { 2 });
        enc.push(rec);
    }
    enc.finish();
    assert!(enc.dropped() > 0);
    let packets = enc.take_packets();
    // The enable support packet, then the recovery pair, at the first decision with room.
    assert!(
        matches!(&packets[0].packet, TeInst::Support(s) if s.qual_status == QualStatus::NoChange)
    );
    match (&packets[1].packet, &packets[2].packet) {
        (TeInst::Support(s), TeInst::Start(_)) => {
            assert_eq!(s.qual_status, QualStatus::TraceLost);
            assert!(s.ienable);
            assert!(
                packets[1].record_index >= 99,
                "recovered at record {}",
                packets[1].record_index
            );
            assert_eq!(packets[1].record_index, packets[2].record_index);
        }
        other => panic!("expected trace_lost support then sync, got {other:?}"),
    }
    assert!(!packets[3..].iter().any(
        |p| matches!(&p.packet, TeInst::Support(s) if s.qual_status == QualStatus::TraceLost)
    ));
}

/// Every run of the trace between losses decodes to a contiguous part of the hart's
/// execution, starting at the instruction of the sync that follows the loss.
#[test]
fn decoding_resumes_at_every_recovery_sync() {
    for (name, seed) in [
        ("fnptr_switch-rv32", 1),
        ("traps-rv64", 2),
        ("privilege-rv32", 3),
        ("recursion-rv64", 4),
        ("timer-rv32", 5),
    ] {
        let program = program(name);
        let records = &program.records;
        let params = params_for(name);
        let (packets, dropped) =
            encode_with_stalls(&params, EncoderOptions::default(), records, seed);
        let losses = packets
            .iter()
            .filter(|p| matches!(&p.packet, TeInst::Support(s) if s.qual_status == QualStatus::TraceLost))
            .count();
        assert!(
            dropped > 0 && losses > 0,
            "{name}: the stalls must cause losses"
        );

        // Where each run of the trace starts, as a step index of the hart's execution.
        let mut first_step = Vec::with_capacity(records.len() + 1);
        let mut all = Vec::new();
        for rec in records {
            first_step.push(all.len());
            push_record_steps(&mut all, rec);
        }
        let mut starts = vec![0usize];
        for pair in packets.windows(2) {
            if let (TeInst::Support(s), TeInst::Start(_)) = (&pair[0].packet, &pair[1].packet) {
                if s.qual_status == QualStatus::TraceLost {
                    starts.push(first_step[pair[1].record_index as usize]);
                }
            }
        }
        assert_eq!(
            starts.len(),
            losses + 1,
            "{name}: each loss is followed by a sync"
        );

        let image = &program.image;
        let elements = decode(
            image,
            &params,
            DecoderConfig::default(),
            packets.iter().map(|p| &p.packet),
        );
        assert_no_decode_error(&elements, name);
        let runs: Vec<&[TraceElement]> = elements
            .split(|e| matches!(e, TraceElement::TraceLost))
            .collect();
        assert_eq!(runs.len(), starts.len(), "{name}: runs of the trace");
        let mut decoded = 0;
        for (k, (run, &start)) in runs.iter().zip(&starts).enumerate() {
            let got: Vec<Step> = steps(run, image).unwrap();
            let want = &all[start..(start + got.len()).min(all.len())];
            assert_eq!(
                got.as_slice(),
                want,
                "{name}: run {k} starting at step {start}"
            );
            decoded += got.len();
        }
        assert!(
            decoded * 2 > all.len(),
            "{name}: most of the execution is still traced"
        );
    }
}
