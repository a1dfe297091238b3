//! Trace switched off and on ("Rules of Generating Messages", "Corner Cases and
//! Sequences"): a random execution traced in stretches; each stretch ends with a
//! ProgTraceCorrelation message (EVCODE 4) and the next starts with SYNC 5; the decoder's
//! trace-on / trace-off stretches are exactly the traced parts of the execution.

mod common;

use common::random_program::RandomProgram;
use common::{decode, expected_steps};
use etrace_decoder::pcs::steps;
use etrace_decoder::TraceElement;
use etrace_ntrace::{NtraceEncoder, NtraceOptions};
use etrace_spec::ingress::IngressRecord;

#[test]
fn traced_stretches_decode_exactly() {
    let program = RandomProgram::new(8, 3_000);
    let image = program.image();
    let records: Vec<IngressRecord> = program.run(21).take(60_000).collect();
    let options = NtraceOptions {
        call_stack: 4,
        repeat_history: true,
        ..NtraceOptions::default()
    };
    let mut encoder = NtraceEncoder::new(options).unwrap();
    // Traced stretches: every 10 000 records, 6 000 traced, ending after a record that
    // is not a trap (a trap's handler address comes with the next record).
    let mut stretches = Vec::new();
    let mut i = 0;
    while i < records.len() {
        let mut end = (i + 6_000).min(records.len());
        while end < records.len() && records[end - 1].itype.is_trap() {
            end += 1;
        }
        encoder.trace_on();
        for r in &records[i..end] {
            encoder.push(r);
        }
        encoder.trace_off();
        for r in records
            .iter()
            .take((i + 10_000).min(records.len()))
            .skip(end)
        {
            encoder.push(r);
        }
        stretches.push((i, end));
        i += 10_000;
    }
    let elements = decode(&image, &options, &encoder.take_bytes());
    assert!(elements.iter().all(|e| e.decode_error().is_none()));
    let ons: Vec<usize> = elements
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, TraceElement::TraceOn { .. }))
        .map(|(k, _)| k)
        .collect();
    let offs = elements
        .iter()
        .filter(|e| matches!(e, TraceElement::TraceOff))
        .count();
    assert_eq!((ons.len(), offs), (stretches.len(), stretches.len()));
    for (k, &(from, to)) in stretches.iter().enumerate() {
        let end = ons.get(k + 1).copied().unwrap_or(elements.len());
        let decoded = steps(&elements[ons[k]..end], &image).unwrap();
        assert_eq!(decoded, expected_steps(&records[from..to]), "stretch {k}");
    }
}
