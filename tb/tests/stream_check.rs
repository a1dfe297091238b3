//! The streamed decode check (`cosim::stream_check`) against the whole-trace one
//! (`cosim::verify::check_decoded`), data driven: real programs' traces from the model
//! encoder, pushed in pieces of random sizes, intact and damaged (payload bits flipped,
//! payloads removed), against the hart's steps intact and changed (a step altered, the
//! steps cut short or a part removed); both give the same summary or the same first
//! problem. The co-simulation tests compare the two on every co-simulated trace too
//! (`common::cosim_program`, with trace losses under back-pressure).

mod common;

use common::{model_stream, program};
use etrace_decoder::pcs::Step;
use etrace_decoder::stream::{payloads, PayloadEvent};
use etrace_encoder::cycle::output_path::OutputPathConfig;
use etrace_encoder::EncoderOptions;
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::ItypeWidth;
use etrace_tb::cosim::stream_check::{StreamCheck, StreamCheckError};
use etrace_tb::cosim::verify::{check_decoded, ExpectedExecution};
use etrace_tb::Variant;

/// Both checks of `events` against `steps`: they must agree.
fn assert_same(what: &str, expected: &ExpectedExecution, events: &[PayloadEvent], rng: &mut Rng) {
    let params = Variant::Rv32.params();
    let whole = check_decoded(&params, events, expected);
    let mut check = StreamCheck::new(
        &params,
        &expected.image,
        expected.decoder,
        expected.steps.iter().copied(),
    );
    let mut at = 0;
    while at < events.len() {
        let n = (1 + rng.below(40) as usize).min(events.len() - at);
        check.push(&events[at..at + n]);
        at += n;
    }
    let streamed = check.finish().map_err(|e| match e {
        StreamCheckError::Mismatch(m) => m,
        other => panic!("{what}: {other}"),
    });
    assert_eq!(streamed, whole, "{what}");
}

#[test]
fn streamed_check_equals_the_whole_trace_check() {
    let mut rng = Rng::new(27);
    for name in ["traps-rv32", "loops-rv32", "tailcall-rv32"] {
        let (records, expected) = program(name, ItypeWidth::W4);
        let output = OutputPathConfig::default();
        let (bytes, _) = model_stream(
            &Variant::Rv32.params(),
            EncoderOptions::default(),
            &records,
            &output,
        );
        let events = payloads(&output.framing_config().unwrap(), &bytes);
        let steps = expected.steps.clone();
        let with_steps = |steps: Vec<Step>| ExpectedExecution {
            image: expected.image.clone(),
            steps,
            decoder: expected.decoder,
        };
        assert_same(&format!("{name}: intact"), &expected, &events, &mut rng);
        for _ in 0..3 {
            let at = rng.below(steps.len() as u64) as usize;
            let mut changed = steps.clone();
            changed[at] = Step::Trap {
                ecause: 63,
                interrupt: true,
            };
            assert_same(
                &format!("{name}: step {at} changed"),
                &with_steps(changed),
                &events,
                &mut rng,
            );
            let cut = steps[..at].to_vec();
            assert_same(
                &format!("{name}: steps cut at {at}"),
                &with_steps(cut),
                &events,
                &mut rng,
            );
            let mut removed = steps.clone();
            removed.drain(at..(at + 5).min(steps.len()));
            assert_same(
                &format!("{name}: steps {at}.. removed"),
                &with_steps(removed),
                &events,
                &mut rng,
            );
        }
        for _ in 0..4 {
            let mut damaged = events.clone();
            let i = rng.below(damaged.len() as u64) as usize;
            if let PayloadEvent::Payload { bytes, .. } = &mut damaged[i] {
                let bit = rng.below(8 * bytes.len() as u64);
                bytes[(bit / 8) as usize] ^= 1 << (bit % 8);
            }
            assert_same(
                &format!("{name}: payload {i} damaged"),
                &expected,
                &damaged,
                &mut rng,
            );
            let mut removed = events.clone();
            removed.drain(i..(i + 3).min(events.len()));
            assert_same(
                &format!("{name}: payloads {i}.. removed"),
                &expected,
                &removed,
                &mut rng,
            );
        }
    }
}
