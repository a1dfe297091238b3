//! The streaming interface of every framing of the registry, data driven: a stream pushed
//! in pieces of random sizes (1 byte and up) gives exactly the events of the whole stream
//! pushed at once, on valid streams, streams cut off anywhere and streams with corrupted
//! bytes; and the framers of the registry write the bytes of the framings' own framers.
//! Named after the sections whose synchronisation and layout they exercise
//! (`encapsulation.adoc` "Synchronization", `payload.adoc` "Two example transport
//! schemes", `fragmentCodeAndTransport.adoc` "ATB transport").

use super::atb::{AtbConfig, AtbStream};
use super::encap::{EncapConfig, EncapStream, EncapWriter};
use super::event::Outgoing;
use super::smi::SmiConfig;
use super::*;
use crate::ingress::random::Rng;

/// The settings of a case: `--src-bits`, `--timestamp`, `--sync-interval` (64 bytes, so
/// that damaged encap streams resynchronise soon).
fn settings(src_bits: u8, timestamp: bool) -> FramingSettings {
    FramingSettings {
        src_bits,
        src_id: None,
        timestamp,
        timestamp_bytes: 2,
        atb_bits: 32,
        sync_interval: 64,
    }
}

/// Every framing with and without timestamps and source fields.
fn configs() -> Vec<(FramingConfig, FramingSettings)> {
    let mut out = Vec::new();
    for &kind in FramingKind::ALL {
        for (src_bits, timestamp) in [(0, false), (4, true), (8, false)] {
            let s = settings(src_bits, timestamp);
            if let Ok(config) = kind.config(&s) {
                out.push((config, s));
            }
        }
    }
    out
}

/// A random payload of 1-20 bytes.
fn payload(rng: &mut Rng) -> Vec<u8> {
    let len = 1 + rng.below(20) as usize;
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// A stream of `n` random payloads framed by the registry's framer.
fn stream(config: &FramingConfig, s: &FramingSettings, n: usize, rng: &mut Rng) -> Vec<u8> {
    let mut framer = config.framer(s).unwrap();
    let source = config.source(s);
    let bits = framer.timestamp_bits().min(16);
    let mut out = Vec::new();
    for i in 0..n {
        let stamp = (bits > 0).then_some(i as u64 & ((1 << bits) - 1));
        framer
            .write_packet(
                &Outgoing {
                    payload: &payload(rng),
                    source,
                    timestamp: stamp,
                },
                &mut out,
            )
            .unwrap();
    }
    out
}

/// The events of `data` pushed in random pieces of 1 to `max` bytes.
fn in_pieces(d: &mut dyn Deframer, data: &[u8], rng: &mut Rng, max: u64) -> Vec<FrameEvent> {
    let mut events = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let n = (1 + rng.below(max) as usize).min(data.len() - at);
        d.push(&data[at..at + n], &mut events);
        at += n;
    }
    d.finish(&mut events);
    events
}

/// Asserts that `data` deframes to the same events whole and in pieces (1 byte at a time
/// and random pieces), synced and entered at an arbitrary byte; returns the whole
/// stream's events.
fn assert_pieces_equal_whole(
    config: &FramingConfig,
    data: &[u8],
    rng: &mut Rng,
) -> Vec<FrameEvent> {
    let mut first = Vec::new();
    for synced in [true, false] {
        let whole = deframe_all(config.deframer(synced).as_mut(), data);
        let ones = in_pieces(config.deframer(synced).as_mut(), data, rng, 1);
        assert_eq!(ones, whole, "{config:?} synced={synced}: 1-byte pieces");
        for max in [3, 17, 200] {
            let got = in_pieces(config.deframer(synced).as_mut(), data, rng, max);
            assert_eq!(got, whole, "{config:?} synced={synced}: pieces up to {max}");
        }
        if synced {
            assert_parts_equal_whole(config, data, &whole, rng);
            first = whole;
        }
    }
    first
}

/// For framings with a boundary scan: the scan finds the packets of the whole stream
/// (offset and first payload byte), and the stream cut at random ones of them into
/// parts, each deframed apart from its offset, gives the whole stream's events.
fn assert_parts_equal_whole(
    config: &FramingConfig,
    data: &[u8],
    whole: &[FrameEvent],
    rng: &mut Rng,
) {
    let Some(mut scan) = config.boundary_scan() else {
        assert!(config.deframer_at(0).is_none(), "{config:?}");
        return;
    };
    let mut packets = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let n = (1 + rng.below(50) as usize).min(data.len() - at);
        scan.push(&data[at..at + n], &mut packets);
        at += n;
    }
    scan.finish(&mut packets);
    let want: Vec<(Option<u64>, Option<u8>)> = whole
        .iter()
        .filter_map(|e| match e {
            FrameEvent::Packet(p) => Some((p.at.index(), p.payload.first().copied())),
            FrameEvent::Error { .. } => None,
        })
        .collect();
    let got: Vec<(Option<u64>, Option<u8>)> = packets
        .iter()
        .map(|p| (Some(p.offset as u64), p.head))
        .collect();
    assert_eq!(got, want, "{config:?}: scanned packets");
    let mut cuts: Vec<usize> = packets
        .iter()
        .filter(|p| p.resumable && rng.below(3) == 0)
        .map(|p| p.offset)
        .collect();
    cuts.insert(0, 0);
    cuts.push(data.len());
    cuts.dedup();
    let mut events = Vec::new();
    for (i, part) in cuts.windows(2).enumerate() {
        let mut deframer = config.deframer_at(part[0]).unwrap();
        deframer.push(&data[part[0]..part[1]], &mut events);
        if i + 2 == cuts.len() {
            deframer.finish(&mut events);
        }
    }
    assert_eq!(events, whole, "{config:?}: parts cut at {cuts:?}");
}

/// Valid, cut-off and corrupted streams of every framing: pieces give the whole result.
fn check_framing(kind: FramingKind, seed: u64) {
    let mut rng = Rng::new(seed);
    for (config, s) in configs().into_iter().filter(|(c, _)| c.kind() == kind) {
        for _ in 0..4 {
            let data = stream(&config, &s, 40, &mut rng);
            let events = assert_pieces_equal_whole(&config, &data, &mut rng);
            assert_eq!(
                events
                    .iter()
                    .filter(|e| matches!(e, FrameEvent::Packet(_)))
                    .count(),
                40,
                "{config:?}: every payload of a valid stream"
            );
            let cut = rng.below(data.len() as u64) as usize;
            let events = assert_pieces_equal_whole(&config, &data[..cut], &mut rng);
            assert!(events.len() <= 41, "{config:?}: cut at {cut}");
            let mut damaged = data.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(damaged.len() as u64) as usize;
                damaged[at] ^= 1 << rng.below(8);
            }
            assert_pieces_equal_whole(&config, &damaged, &mut rng);
        }
    }
}

#[test]
fn encapsulation_synchronization_pieces_give_the_whole_stream_events() {
    check_framing(FramingKind::Encap, 1);
}

#[test]
fn two_example_transport_schemes_siemens_pieces_give_the_whole_stream_events() {
    check_framing(FramingKind::Smi, 2);
}

#[test]
fn atb_transport_pieces_give_the_whole_stream_events() {
    check_framing(FramingKind::Atb, 3);
}

/// Random bytes (mostly nulls, to make synchronisation sequences) on every framing.
#[test]
fn synchronization_random_bytes_pieces_give_the_whole_stream_events() {
    let mut rng = Rng::new(4);
    for (config, _) in configs() {
        for _ in 0..20 {
            let len = rng.below(400) as usize;
            let data: Vec<u8> = (0..len)
                .map(|_| match rng.below(4) {
                    0 | 1 => 0,
                    2 => rng.next_u64() as u8,
                    _ => b"ATID=0x05 ATBYTES=3 ATDATA=0x7\n"[rng.below(31) as usize],
                })
                .collect();
            assert_pieces_equal_whole(&config, &data, &mut rng);
        }
    }
}

/// Two ATIDs interleaved beat by beat, with bad lines and beats: events in the order of
/// the beats holding their first byte, pieces or whole.
#[test]
fn atb_transport_interleaved_sources_pieces_give_the_whole_stream_events() {
    let mut rng = Rng::new(5);
    let config = AtbConfig::with_data_bits(16).unwrap();
    for _ in 0..20 {
        let mut lines: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for (k, atid) in [0x10u8, 0x22].into_iter().enumerate() {
            for _ in 0..10 {
                for beat in config.frame(&payload(&mut rng), atid, None).unwrap() {
                    lines[k].push(config.format_beat(&beat));
                }
            }
        }
        let mut text = String::new();
        let (mut a, mut b) = (lines[0].iter(), lines[1].iter());
        loop {
            let next = if rng.chance(0.5) { a.next() } else { b.next() };
            match next.or_else(|| a.next()).or_else(|| b.next()) {
                Some(line) => text.push_str(line),
                None => break,
            }
            match rng.below(30) {
                0 => text.push_str("\nnot a beat"),
                1 => text.push_str("\nATID=0x70 ATBYTES=0 ATDATA=0x00"),
                2 => text.push_str("\r\n"),
                _ => {}
            }
            text.push('\n');
        }
        let framing = FramingConfig::Atb(config);
        let events = assert_pieces_equal_whole(&framing, text.as_bytes(), &mut rng);
        let beats: Vec<u64> = events.iter().filter_map(event_beat).collect();
        assert!(beats.windows(2).all(|w| w[0] <= w[1]), "{beats:?}");
        let packets = events
            .iter()
            .filter(|e| matches!(e, FrameEvent::Packet(_)))
            .count();
        assert_eq!(packets, 20);
    }
}

/// The beat of an event.
fn event_beat(e: &FrameEvent) -> Option<u64> {
    match e {
        FrameEvent::Packet(p) => p.at.index(),
        FrameEvent::Error { at, .. } => at.index(),
    }
}

/// Beats given one by one give the events of their listing.
#[test]
fn atb_transport_beats_pushed_equal_their_listing() {
    let config = AtbConfig::with_data_bits(32).unwrap();
    let mut rng = Rng::new(6);
    let mut text = String::new();
    let mut beats = Vec::new();
    for atid in [3u8, 9, 3, 3, 9] {
        for beat in config.frame(&payload(&mut rng), atid, None).unwrap() {
            text.push_str(&config.format_beat(&beat));
            text.push('\n');
            beats.push(beat);
        }
    }
    let framing = FramingConfig::Atb(config);
    let want = deframe_all(framing.deframer(true).as_mut(), text.as_bytes());
    let mut stream = AtbStream::new(config, true);
    let mut got = Vec::new();
    for beat in beats {
        stream.push_beat(beat, &mut got);
    }
    stream.finish(&mut got);
    assert_eq!(got, want);
}

/// `encapsulation.adoc` "Synchronization": a reader that stops inside a packet leaves it
/// undecoded without error; one that never found a synchronisation point reports it.
#[test]
fn encapsulation_synchronization_stop_before_the_end() {
    let config = EncapConfig::default();
    let mut w = EncapWriter::new(config, 64);
    for i in 0..50u8 {
        w.write(&[i | 1, 2, 3], 0, None).unwrap();
    }
    let data = w.into_bytes();
    let whole = deframe_all(&mut EncapStream::new(config), &data);
    let mut d = EncapStream::new_unsynced(config);
    let mut got = Vec::new();
    d.push(&data[..data.len() - 2], &mut got);
    assert_eq!(Deframer::pending(&d), 2);
    d.stop(&mut got);
    assert_eq!(got, whole[..whole.len() - 1]);
    // Never synchronised: one error from the start of the search.
    let mut d = EncapStream::new_unsynced(config);
    let mut got = Vec::new();
    d.push(&[0x21, 0x05, 0x22], &mut got);
    d.stop(&mut got);
    assert_eq!(
        got,
        [FrameEvent::error(FrameError::NoSync { offset: 0, len: 3 })]
    );
}

/// The registry's framers write what the framings' own framers write.
#[test]
fn registry_framers_write_the_framings_bytes() {
    let mut rng = Rng::new(7);
    for (config, s) in configs() {
        let mut framer = config.framer(&s).unwrap();
        let source = config.source(&s);
        let mut got = Vec::new();
        let mut want = Vec::new();
        let mut want_transport = 0u64;
        let mut got_transport = 0u64;
        let mut encap = EncapWriter::new(
            match config {
                FramingConfig::Encap(c) => c,
                _ => EncapConfig::default(),
            },
            s.sync_interval,
        );
        for i in 0..30u64 {
            let p = payload(&mut rng);
            let stamp = s.timestamp.then_some(i);
            let packet = Outgoing {
                payload: &p,
                source,
                timestamp: stamp,
            };
            got_transport += framer.write_packet(&packet, &mut got).unwrap();
            match config {
                FramingConfig::Encap(_) => encap.write(&p, source, stamp).unwrap(),
                FramingConfig::Smi(c) => {
                    let m = c.frame(&p, source, stamp.map(|t| t as u16)).unwrap();
                    want_transport += m.len() as u64;
                    want.extend(m);
                }
                FramingConfig::Atb(c) => {
                    for beat in c.frame(&p, source as u8, stamp).unwrap() {
                        want.extend(c.format_beat(&beat).bytes());
                        want.push(b'\n');
                        want_transport += u64::from(c.data_bytes);
                    }
                }
            }
        }
        if let FramingConfig::Encap(_) = config {
            want = encap.into_bytes();
            want_transport = want.len() as u64;
        }
        assert_eq!(got, want, "{config:?}");
        assert_eq!(got_transport, want_transport, "{config:?}");
    }
}

/// The command line's settings reach each framing's configuration, and bad ones name
/// their option.
#[test]
fn registry_settings_make_each_configuration() {
    let s = settings(4, true);
    assert_eq!(
        FramingKind::Encap.config(&s),
        Ok(FramingConfig::Encap(EncapConfig {
            src_bits: 4,
            timestamp_bytes: 2,
            ..EncapConfig::default()
        }))
    );
    assert_eq!(
        FramingKind::Smi.config(&s),
        Ok(FramingConfig::Smi(SmiConfig { index_bits: 4 }))
    );
    let atb = FramingKind::Atb.config(&s).unwrap_err();
    assert_eq!(atb.option, "--src-bits");
    let atb = FramingKind::Atb.config(&settings(0, true)).unwrap();
    assert_eq!(atb.source(&s), 1);
    assert_eq!(atb.position_unit(), PositionUnit::Beat);
    let big = FramingSettings {
        src_id: Some(300),
        ..settings(0, false)
    };
    assert_eq!(atb.framer(&big).err().map(|e| e.option), Some("--src-id"));
    let no_bytes = FramingSettings {
        timestamp_bytes: 0,
        ..settings(0, true)
    };
    assert_eq!(
        FramingKind::Encap.config(&no_bytes).unwrap_err().option,
        "--timestamp-bytes"
    );
    assert!(FramingKind::Smi.config(&no_bytes).is_ok());
    assert_eq!(
        "hdlc".parse::<FramingKind>().unwrap_err().to_string(),
        "unknown framing `hdlc` (expected encap, smi or atb)"
    );
}
