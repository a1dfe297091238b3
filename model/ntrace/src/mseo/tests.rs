//! The MSEO transport: the variable-length field examples of "Virtual Addresses
//! Optimization" (the encodings without extension, which this reader implements), round
//! trips of fields of every width, and the streaming reader's resynchronisation.

use super::*;
use etrace_spec::framing::{deframe_all, Deframer, FrameError, FrameEvent};

/// "Virtual Addresses Optimization", "Example Encodings" without extension: the bytes of
/// an F-ADDR field and its value.
const ADDRESS_FIELDS: [(&[u8], u64); 3] = [
    (&[0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x7D], 0x7_FFFF_FFFF),
    (&[0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x01], 0xF_FFFF_FFFF),
    (
        &[
            0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0xFC, 0x15,
        ],
        0x5FFF_FFFF_FFFF_FFFF,
    ),
];

#[test]
fn virtual_addresses_optimization_non_extended_fields() {
    for (bytes, value) in ADDRESS_FIELDS {
        assert_eq!(FieldReader::new(bytes).var("F-ADDR"), Ok(value));
    }
    // The writer's shortest form of the first two values.
    let mut w = MseoWriter::new();
    w.var(0x7_FFFF_FFFF);
    assert_eq!(w.bytes(), ADDRESS_FIELDS[0].0);
}

#[test]
fn fields_of_every_width_round_trip() {
    for fixed in 0..=12u32 {
        for shift in 0..64 {
            let value = (1u64 << shift) | (shift as u64 * 0x9E37_79B9);
            let f = if fixed == 0 {
                0
            } else {
                value & ((1 << fixed) - 1)
            };
            let mut w = MseoWriter::new();
            w.fixed(6, 0x2A);
            w.fixed(fixed, f);
            w.var(value);
            w.var(0);
            w.end();
            let bytes = w.take();
            assert_eq!(bytes.last().unwrap() & 3, MSEO_END_MESSAGE);
            let mut r = FieldReader::new(&bytes);
            assert_eq!(r.fixed("TCODE", 6), Ok(0x2A));
            assert_eq!(r.fixed("F", fixed), Ok(f));
            assert_eq!(r.var("V"), Ok(value), "fixed {fixed} value {value:#x}");
            assert_eq!(r.var("Z"), Ok(0));
            assert!(!r.more());
            assert_eq!(r.finish(), Ok(()));
        }
    }
}

#[test]
fn field_wider_than_64_bits_is_an_error() {
    let bytes = [0xFC; 11].iter().copied().chain([0xFF]).collect::<Vec<_>>();
    assert!(matches!(
        FieldReader::new(&bytes).var("F-ADDR"),
        Err(FieldError::TooWide { .. })
    ));
}

fn packets(events: &[FrameEvent]) -> Vec<(u64, Vec<u8>)> {
    events
        .iter()
        .filter_map(|e| match e {
            FrameEvent::Packet(p) => Some((p.at.index().unwrap(), p.payload.clone())),
            FrameEvent::Error { .. } => None,
        })
        .collect()
}

fn errors(events: &[FrameEvent]) -> Vec<FrameError> {
    events
        .iter()
        .filter_map(|e| match e {
            FrameEvent::Error { error, .. } => Some(error.clone()),
            FrameEvent::Packet(_) => None,
        })
        .collect()
}

/// Two messages with idle bytes around and between them.
const STREAM: [u8; 10] = [0xFF, 0x70, 0xD0, 0x1D, 0x1D, 0xF8, 0xFF, 0xFF, 0x0C, 0x07];

#[test]
fn splitter_cuts_messages_in_any_pieces() {
    let whole = deframe_all(&mut MessageSplitter::new(0, true), &STREAM);
    assert_eq!(
        packets(&whole),
        vec![(1, STREAM[1..7].to_vec()), (8, STREAM[8..10].to_vec())]
    );
    assert!(errors(&whole).is_empty());
    for cut in 1..STREAM.len() {
        let mut s = MessageSplitter::new(0, true);
        let mut events = Vec::new();
        s.push(&STREAM[..cut], &mut events);
        s.push(&STREAM[cut..], &mut events);
        s.finish(&mut events);
        assert_eq!(events, whole, "cut at {cut}");
    }
}

#[test]
fn splitter_resynchronises_after_reserved_mseo() {
    // A reserved MSEO = 10 inside the first message: it is dropped, the second one read.
    let mut bytes = STREAM;
    bytes[3] = 0x1E;
    let events = deframe_all(&mut MessageSplitter::new(0, true), &bytes);
    assert_eq!(packets(&events), vec![(8, STREAM[8..10].to_vec())]);
    assert!(matches!(
        errors(&events)[..],
        [FrameError::BadHeader { offset: 3, .. }]
    ));
}

#[test]
fn splitter_reports_truncation_with_offset() {
    let events = deframe_all(&mut MessageSplitter::new(0, true), &STREAM[..4]);
    assert!(packets(&events).is_empty());
    assert_eq!(
        errors(&events),
        vec![FrameError::Unterminated { offset: 1, len: 3 }]
    );
}

#[test]
fn splitter_bounds_all_zero_input() {
    let events = deframe_all(&mut MessageSplitter::new(0, true), &[0u8; 1000]);
    assert!(packets(&events).is_empty());
    let errs = errors(&events);
    assert_eq!(
        errs[0],
        FrameError::MessageTooLong {
            offset: 0,
            max: MAX_MESSAGE_BYTES
        }
    );
    assert!(matches!(errs.last(), Some(FrameError::NoSync { .. })));
}

#[test]
fn splitter_entered_mid_stream_waits_for_an_end_of_message() {
    let events = deframe_all(&mut MessageSplitter::new(0, false), &STREAM[3..]);
    assert_eq!(packets(&events), vec![(5, STREAM[8..10].to_vec())]);
    assert!(errors(&events).is_empty());
}

#[test]
fn splitter_reads_the_src_field() {
    let mut w = MseoWriter::new();
    w.fixed(6, 3);
    w.fixed(5, 0x15);
    w.var(9);
    w.end();
    let events = deframe_all(&mut MessageSplitter::new(5, true), w.bytes());
    match &events[..] {
        [FrameEvent::Packet(p)] => assert_eq!(p.source, 0x15),
        other => panic!("expected one message, got {other:?}"),
    }
}
