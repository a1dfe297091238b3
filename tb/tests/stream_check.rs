//! The streamed decode check (`cosim::stream_check`) against the whole-trace one
//! (`cosim::verify::check_decoded`), data driven: real programs' traces from the model
//! encoder, pushed in pieces of random sizes, intact and damaged (payload bits flipped,
//! payloads removed), against the hart's steps intact and changed (a step altered, the
//! steps cut short or a part removed); both give the same summary or the same first
//! problem. Traces with trace losses come from the cycle model with a small FIFO under
//! random back-pressure (programs with loops, where a run's first step occurs many times):
//! both checks agree with the default window, and a small window gives either the same
//! result or `TooFar`. The co-simulation tests compare the two on every co-simulated trace
//! too (`common::cosim_program`). A run inside a long tight loop is placed in time linear
//! in its length (`cosim::candidates`' unit tests).

mod common;

use common::{model_stream, program};
use etrace_decoder::pcs::Step;
use etrace_decoder::stream::{payloads, PayloadEvent};
use etrace_decoder::TraceElement;
use etrace_encoder::cycle::encoder::{CycleInput, EncoderCycle};
use etrace_encoder::cycle::output_path::OutputPathConfig;
use etrace_encoder::EncoderOptions;
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::{IngressRecord, ItypeWidth};
use etrace_tb::cosim::stream_check::{StreamCheck, StreamCheckError, SEARCH_WINDOW};
use etrace_tb::cosim::verify::{check_decoded, DecodeSummary, ExpectedExecution};
use etrace_tb::cosim::PortState;
use etrace_tb::Variant;

/// Both checks of `events` against `steps`: they must agree.
fn assert_same(what: &str, expected: &ExpectedExecution, events: &[PayloadEvent], rng: &mut Rng) {
    let whole = check_decoded(&Variant::Rv32.params(), events, expected);
    let streamed = streamed(expected, events, SEARCH_WINDOW, rng).map_err(|e| match e {
        StreamCheckError::Mismatch(m) => m,
        other => panic!("{what}: {other}"),
    });
    assert_eq!(streamed, whole, "{what}");
}

/// The streamed check of `events` with a window of `window` steps, pushed in pieces of
/// random sizes.
fn streamed(
    expected: &ExpectedExecution,
    events: &[PayloadEvent],
    window: usize,
    rng: &mut Rng,
) -> Result<DecodeSummary, StreamCheckError> {
    let params = Variant::Rv32.params();
    let mut check = StreamCheck::new(
        &params,
        &expected.image,
        expected.decoder,
        expected.steps.iter().copied(),
    )
    .with_window(window);
    let mut at = 0;
    while at < events.len() {
        let n = (1 + rng.below(40) as usize).min(events.len() - at);
        check.push(&events[at..at + n]);
        at += n;
    }
    check.finish()
}

/// The cycle model's bytes for `records` (one block per cycle, then trace disabled until
/// the output drains) through `output`, the consumer not ready with probability
/// `stall`: the packets that do not fit the FIFO are lost.
fn lossy_stream(
    records: &[IngressRecord],
    output: &OutputPathConfig,
    stall: f64,
    rng: &mut Rng,
) -> Vec<u8> {
    let params = Variant::Rv32.params();
    let mut model = EncoderCycle::new(&params, EncoderOptions::default(), *output).unwrap();
    let mut blocks = records.iter().copied();
    let mut ended = false;
    let mut bytes = Vec::new();
    for _ in 0..100 * records.len() + 100_000 {
        let ready = !rng.chance(stall);
        let block = if ended { None } else { blocks.next() };
        ended |= block.is_none();
        if ready {
            let port = PortState::of_model(model.presented(), model.trace_lost());
            bytes.extend(port.byte.map(|(data, _)| data));
        }
        model
            .cycle(&CycleInput {
                block,
                trace_enable: !ended,
                ready,
                ..CycleInput::default()
            })
            .unwrap();
        if ended && model.is_idle() {
            return bytes;
        }
    }
    panic!("the cycle model's output did not drain");
}

/// The runs of the trace `events` (1 + its trace losses).
fn runs(expected: &ExpectedExecution, events: &[PayloadEvent]) -> usize {
    let params = Variant::Rv32.params();
    let mut decoder = etrace_decoder::TeDecoder::new(&expected.image, &params, expected.decoder);
    let elements = etrace_decoder::stream::decode_payloads(&mut decoder, &params, events);
    1 + elements
        .iter()
        .filter(|e| matches!(e, TraceElement::TraceLost))
        .count()
}

#[test]
fn streamed_check_of_traces_with_losses_equals_the_whole_trace_check() {
    let mut rng = Rng::new(2727);
    let output = OutputPathConfig {
        fifo_depth: 16,
        ..OutputPathConfig::default()
    };
    let mut too_far = 0;
    let mut losses = 0;
    for name in ["loops-rv32", "fnptr_switch-rv32", "recursion-rv32"] {
        let (records, expected) = program(name, ItypeWidth::W4);
        for stall in [0.6, 0.9] {
            let bytes = lossy_stream(&records, &output, stall, &mut rng);
            let events = payloads(&output.framing_config().unwrap(), &bytes);
            let what = format!("{name}, stall probability {stall}");
            losses += runs(&expected, &events) - 1;
            assert_same(&what, &expected, &events, &mut rng);
            let steps = &expected.steps;
            let mut changed = ExpectedExecution {
                image: expected.image.clone(),
                steps: steps.clone(),
                decoder: expected.decoder,
            };
            let at = steps.len() / 2 + rng.below(steps.len() as u64 / 2) as usize;
            changed.steps.drain(at..(at + 3).min(steps.len()));
            assert_same(
                &format!("{what}, steps {at}.. removed"),
                &changed,
                &events,
                &mut rng,
            );
            // A small window: the same result, or a run not looked for far enough.
            let whole = check_decoded(&Variant::Rv32.params(), &events, &expected);
            for window in [1, 8, 64, 512] {
                match streamed(&expected, &events, window, &mut rng) {
                    Err(StreamCheckError::TooFar { window: w, .. }) => {
                        assert_eq!(w, window, "{what}");
                        too_far += 1;
                    }
                    Err(StreamCheckError::Mismatch(m)) => {
                        assert_eq!(Err(m), whole, "{what}, window {window}")
                    }
                    Ok(summary) => assert_eq!(Ok(summary), whole, "{what}, window {window}"),
                }
            }
            assert!(whole.is_ok(), "{what}: {whole:?}");
        }
    }
    assert!(losses >= 20, "{losses} trace losses");
    assert!(too_far > 0, "no run beyond a small window");
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
