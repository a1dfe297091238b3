//! Framing tests: the transport examples of `fragmentCodeAndTransport.adoc`, the reference
//! flow's `te_inst_raw` layout, synchronisation, and mutated / random streams.

use proptest::prelude::*;

use super::atb::{deframe_atb, AtbBeat, AtbConfig};
use super::encap::{EncapConfig, EncapDeframer, EncapItem, EncapPacket, EncapWriter};
use super::smi::{SmiConfig, SmiDeframer, SmiItem, SmiPacket};
use super::*;

const ILLEGAL_OPCODE: [u8; 5] = [0x32, 0x04, 0x00, 0x00, 0x02];
const TIMER_LONG_LOOP: [u8; 7] = [0xbd, 0xaa, 0xaa, 0x68, 0x00, 0x00, 0x20];
const STARTUP_XRLE: [u8; 9] = [0x73, 0x00, 0x00, 0x00, 0x00, 0x91, 0x82, 0x00, 0x10];

/// The "Siemens transport" sections: 6-bit srcID, 2-bit type 0b10, no timestamp.
fn siemens_example_config() -> EncapConfig {
    EncapConfig {
        src_bits: 6,
        type_bits: 2,
        type_value: 0b10,
        ..EncapConfig::default()
    }
}

fn packets(data: &[u8], cfg: EncapConfig) -> Vec<EncapPacket> {
    EncapDeframer::new(data, cfg)
        .filter_map(|i| match i {
            Ok(EncapItem::Packet(p)) => Some(p),
            _ => None,
        })
        .collect()
}

#[test]
fn fragment_siemens_transport_examples() {
    let cfg = siemens_example_config();
    let cases: [(&[u8], u16, &[u8]); 3] = [
        (&ILLEGAL_OPCODE, 1, &[0x06, 0x81]),
        (&TIMER_LONG_LOOP, 0xa, &[0x08, 0x8a]),
        (&STARTUP_XRLE, 5, &[0x0a, 0x85]),
    ];
    for (payload, src, head) in cases {
        let framed = cfg.frame(payload, src, None).unwrap();
        assert_eq!(&framed[..2], head, "srcID {src}");
        assert_eq!(&framed[2..], payload);
        let got = packets(&framed, cfg);
        assert_eq!(
            got,
            vec![EncapPacket {
                offset: 0,
                flow: 0,
                src_id: src,
                timestamp: None,
                packet_type: 0b10,
                payload: payload.to_vec(),
            }]
        );
    }
}

fn beat(atid: u8, atbytes: u8, atdata: u128) -> AtbBeat {
    AtbBeat {
        atid,
        atbytes,
        atdata,
    }
}

#[test]
fn fragment_atb_transport_examples() {
    let cfg = AtbConfig::with_data_bits(32).unwrap();
    let cases: [(&[u8], u8, Vec<AtbBeat>); 3] = [
        (
            &ILLEGAL_OPCODE,
            1,
            vec![beat(1, 3, 0x0004_3205), beat(1, 1, 0x0000_0200)],
        ),
        (
            &TIMER_LONG_LOOP,
            0xa,
            vec![beat(0xa, 3, 0xaaaa_bd07), beat(0xa, 3, 0x2000_0068)],
        ),
        (
            &STARTUP_XRLE,
            5,
            vec![
                beat(5, 3, 0x0000_7309),
                beat(5, 3, 0x8291_0000),
                beat(5, 1, 0x0000_1000),
            ],
        ),
    ];
    for (payload, atid, beats) in cases {
        assert_eq!(cfg.frame(payload, atid, None).unwrap(), beats);
        let items = deframe_atb(&beats, &cfg);
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].atid, atid);
        match &items[0].item {
            Ok(EncapItem::Packet(p)) => assert_eq!(p.payload, payload),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(
        cfg.format_beat(&beat(5, 3, 0x0000_7309)),
        "ATID=0x05 ATBYTES=3 ATDATA=0x00007309"
    );
    assert_eq!(
        cfg.parse_beat("ATID=0x05 ATBYTES=3 ATDATA=0x00007309")
            .unwrap(),
        beat(5, 3, 0x7309)
    );
    // Each malformed line with what is said of it: a key twice, ATDATA past the bus
    // (32 bits here), a missing key.
    for (line, said) in [
        ("ATID=5 ATDATA=1", "missing ATBYTES"),
        ("ATID=5 ATBYTES=0 ATID=6 ATDATA=1", "a key given twice"),
        (
            "ATID=5 ATBYTES=3 ATDATA=0x100000000",
            "ATDATA wider than the bus (--atb-bits)",
        ),
        ("ATID=0x100 ATBYTES=0 ATDATA=1", "ATID too large"),
    ] {
        assert!(
            matches!(cfg.parse_beat(line), Err(FrameError::BadBeatText { what, .. }) if what == said),
            "{line}: {:?}",
            cfg.parse_beat(line)
        );
    }
    assert_eq!(
        cfg.parse_beat("ATID=5 ATBYTES=3 ATDATA=0xffffffff")
            .unwrap(),
        beat(5, 3, 0xffff_ffff)
    );
}

#[test]
fn reference_flow_te_inst_raw_is_smi_without_index_or_timestamp() {
    let cfg = SmiConfig::default();
    let mut raw = Vec::new();
    for p in [&ILLEGAL_OPCODE[..], &TIMER_LONG_LOOP, &STARTUP_XRLE] {
        raw.extend(cfg.frame(p, 0, None).unwrap());
    }
    assert_eq!(&raw[..6], &[0x45, 0x32, 0x04, 0x00, 0x00, 0x02]);
    assert_eq!(raw[6], 0x47);
    assert_eq!(raw[14], 0x49);
    let got: Vec<_> = SmiDeframer::new(&raw, cfg).collect();
    assert_eq!(got.len(), 3);
    assert_eq!(
        got[2],
        Ok(SmiItem::Packet(SmiPacket {
            offset: 14,
            flow: 0b10,
            index: 0,
            timestamp: None,
            payload: STARTUP_XRLE.to_vec(),
        }))
    );
}

#[test]
fn smi_index_and_timestamp_fields() {
    let cfg = SmiConfig { index_bits: 10 };
    let framed = cfg.frame(&[0x1f, 0x04], 0x2a5, Some(0xbeef)).unwrap();
    assert_eq!(framed, [0xc2, 0xa5, 0x02, 0xef, 0xbe, 0x1f, 0x04]);
    assert_eq!(
        SmiDeframer::new(&framed, cfg).next(),
        Some(Ok(SmiItem::Packet(SmiPacket {
            offset: 0,
            flow: 0b10,
            index: 0x2a5,
            timestamp: Some(0xbeef),
            payload: vec![0x1f, 0x04],
        })))
    );
    assert_eq!(
        cfg.frame(&[1], 0x400, None),
        Err(FrameError::ValueTooWide {
            field: "index",
            value: 0x400,
            bits: 10
        })
    );
    assert!(matches!(
        cfg.frame(&[0; 32], 0, None),
        Err(FrameError::PayloadTooLong { .. })
    ));
    // Index bits above the width are an error, reported at the header.
    let bad = [0x41, 0x00, 0x04, 0x01];
    assert_eq!(
        SmiDeframer::new(&bad, cfg).next(),
        Some(Err(FrameError::IndexTooWide {
            offset: 0,
            index: 0x400,
            bits: 10
        }))
    );
}

#[test]
fn smi_resynchronises_after_a_bad_header() {
    let cfg = SmiConfig::default();
    let payloads: Vec<Vec<u8>> = (1..=6u8)
        .map(|n| (0..n).map(|i| 0x10 + i).collect())
        .collect();
    let mut raw = Vec::new();
    for p in &payloads {
        raw.extend(cfg.frame(p, 0, None).unwrap());
    }
    // Corrupt the second header (offset 2) into a zero-length message.
    raw[2] = 0x40;
    let items: Vec<_> = SmiDeframer::new(&raw, cfg).collect();
    assert_eq!(
        items[1],
        Err(FrameError::BadHeader {
            offset: 2,
            header: 0x40,
            reason: "payload length 0"
        })
    );
    let recovered: Vec<Vec<u8>> = items
        .iter()
        .filter_map(|i| match i {
            Ok(SmiItem::Packet(p)) => Some(p.payload.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(recovered.first(), Some(&payloads[0]));
    assert!(recovered.ends_with(&payloads[2..]), "{recovered:02x?}");
    // A message cut off by the end of the stream.
    let cut = &raw[..raw.len() - 1];
    let last = SmiDeframer::new(cut, cfg).last();
    assert!(matches!(last, Some(Err(FrameError::Truncated { .. }))));
}

#[test]
fn encap_timestamp_and_odd_srcid_bits() {
    let cfg = EncapConfig {
        src_bits: 4,
        timestamp_bytes: 2,
        flow: 1,
        ..EncapConfig::default()
    };
    let framed = cfg.frame(&ILLEGAL_OPCODE, 0x9, Some(0x1234)).unwrap();
    // 4 + 35 payload bits -> length 5; S = 0, T = 2: 1 + 2 + 5 bytes.
    assert_eq!(framed.len(), 8);
    assert_eq!(framed[0], 0x80 | 1 << 5 | 5);
    assert_eq!(
        packets(&framed, cfg),
        vec![EncapPacket {
            offset: 0,
            flow: 1,
            src_id: 9,
            timestamp: Some(0x1234),
            packet_type: 0,
            payload: ILLEGAL_OPCODE.to_vec(),
        }]
    );
    assert_eq!(
        cfg.frame(&[1], 0x10, None),
        Err(FrameError::ValueTooWide {
            field: "srcID",
            value: 0x10,
            bits: 4
        })
    );
    let no_ts = EncapConfig::default();
    assert!(matches!(
        no_ts.frame(&[1], 0, Some(1)),
        Err(FrameError::ValueTooWide {
            field: "timestamp",
            ..
        })
    ));
    assert_eq!(
        EncapDeframer::new(&[0x81, 0x00], no_ts).next(),
        Some(Err(FrameError::BadHeader {
            offset: 0,
            header: 0x81,
            reason: "extend is 1 but the timestamp width is 0"
        }))
    );
}

#[test]
fn encap_null_packets_and_sync_sequence() {
    let cfg = EncapConfig {
        src_bits: 8,
        timestamp_bytes: 4,
        ..EncapConfig::default()
    };
    // N = 31 + T + S = 36, then one null.alignment.
    let seq = cfg.sync_sequence();
    assert_eq!(seq.len(), 37);
    assert_eq!(seq[36], 0x80);
    let items: Vec<_> = EncapDeframer::new(&[0x00, 0x80, 0x20], cfg).collect();
    assert_eq!(
        items,
        vec![
            Ok(EncapItem::NullIdle { offset: 0, flow: 0 }),
            Ok(EncapItem::NullAlignment { offset: 1, flow: 0 }),
            Ok(EncapItem::NullIdle { offset: 2, flow: 1 }),
        ]
    );
}

/// A stream of `n` packets with varied payloads and periodic synchronisation.
fn synced_stream(cfg: EncapConfig, n: usize, interval: usize) -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut w = EncapWriter::new(cfg, interval);
    let mut payloads = Vec::new();
    for i in 0..n {
        let len = 1 + (i * 7) % 12;
        let p: Vec<u8> = (0..len).map(|j| (i * 31 + j * 17) as u8 | 1).collect();
        let src = ((i % 4) as u32 & ((1u32 << cfg.src_bits) - 1)) as u16;
        w.write(&p, src, None).unwrap();
        // Deframed payloads come back in their shortest sign-equivalent form.
        let mut canon = p;
        crate::packet::sign_compress(&mut canon);
        payloads.push(canon);
    }
    (w.into_bytes(), payloads)
}

/// Offsets just after each synchronisation sequence of `data`.
fn sync_ends(data: &[u8], cfg: EncapConfig) -> Vec<usize> {
    let seq = cfg.sync_sequence();
    (0..data.len())
        .filter(|&i| data[i..].starts_with(&seq))
        .map(|i| i + seq.len())
        .collect()
}

#[test]
fn encap_stream_entered_at_any_byte_finds_the_next_sync() {
    let cfg = EncapConfig {
        src_bits: 2,
        ..EncapConfig::default()
    };
    let (data, payloads) = synced_stream(cfg, 60, 64);
    let all = packets(&data, cfg);
    assert_eq!(all.len(), payloads.len());
    let ends = sync_ends(&data, cfg);
    assert!(ends.len() > 5);
    for entry in 0..data.len() {
        let mut items = EncapDeframer::new_unsynced(&data[entry..], cfg);
        let first = items.next();
        let seq_len = cfg.sync_sequence().len();
        let Some(&expected_start) = ends.iter().find(|&&e| e >= entry + seq_len) else {
            continue;
        };
        match first {
            Some(Ok(EncapItem::Synced { offset, .. })) => {
                assert_eq!(entry + offset, expected_start, "entry {entry}")
            }
            other => panic!("entry {entry}: {other:?}"),
        }
        let got: Vec<Vec<u8>> = items
            .filter_map(|i| match i {
                Ok(EncapItem::Packet(p)) => Some(p.payload),
                Ok(_) => None,
                Err(e) => panic!("entry {entry}: {e}"),
            })
            .collect();
        let from = all.iter().position(|p| p.offset >= expected_start).unwrap();
        assert_eq!(got, payloads[from..], "entry {entry}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn encap_mutated_stream_recovers_after_next_sync(
        muts in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        src_bits in 0u8..17,
        ts in 0u8..3,
    ) {
        let cfg = EncapConfig { src_bits, timestamp_bytes: ts, ..EncapConfig::default() };
        let (clean, _) = synced_stream(cfg, 40, 80);
        let mut data = clean.clone();
        let mut last = 0;
        for (at, x) in &muts {
            let at = at % data.len();
            data[at] ^= x | 1;
            last = last.max(at);
        }
        let items: Vec<_> = EncapDeframer::new(&data, cfg).collect();
        prop_assert!(items.len() <= data.len() + 1);
        let got: Vec<EncapPacket> = items.into_iter().filter_map(|i| match i {
            Ok(EncapItem::Packet(p)) => Some(p),
            _ => None,
        }).collect();
        // Every packet after the first sync sequence following the last mutation is
        // recovered exactly.
        let ends = sync_ends(&clean, cfg);
        if let Some(&start) = ends.iter().find(|&&e| e > last + cfg.max_null_run() + 1) {
            let clean_packets = packets(&clean, cfg);
            let tail: Vec<&EncapPacket> = clean_packets.iter().filter(|p| p.offset >= start).collect();
            prop_assert!(got.len() >= tail.len());
            let got_tail = &got[got.len() - tail.len()..];
            for (g, t) in got_tail.iter().zip(tail) {
                prop_assert_eq!(g, t);
            }
        }
    }

    #[test]
    fn deframers_never_panic_or_loop(bytes in proptest::collection::vec(any::<u8>(), 0..300), bits in 0u8..17, ts in 0u8..9) {
        let cfg = EncapConfig { src_bits: bits, timestamp_bytes: ts, type_bits: bits % 3, ..EncapConfig::default() };
        prop_assert!(EncapDeframer::new(&bytes, cfg).count() <= bytes.len() + 1);
        prop_assert!(EncapDeframer::new_unsynced(&bytes, cfg).count() <= bytes.len() + 1);
        let smi = SmiConfig { index_bits: bits };
        prop_assert!(SmiDeframer::new(&bytes, smi).count() <= 2 * bytes.len() + 1);
        prop_assert!(SmiDeframer::new_unsynced(&bytes, smi).count() <= 2 * bytes.len() + 1);
        let atb = AtbConfig { data_bytes: 1 << (ts % 5), encap: EncapConfig { timestamp_bytes: ts, ..EncapConfig::default() } };
        let beats: Vec<AtbBeat> = bytes.chunks(3).map(|c| AtbBeat {
            atid: c[0] & 0x7f,
            atbytes: c.get(1).copied().unwrap_or(0) % 17,
            atdata: u128::from(c.get(2).copied().unwrap_or(0)) * 0x0101_0101,
        }).collect();
        prop_assert!(deframe_atb(&beats, &atb).len() <= 17 * beats.len() + 1);
    }

    #[test]
    fn framings_round_trip(
        payloads in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 1..24), 1..20),
        src_bits in 0u8..17,
        type_bits in 0u8..3,
        ts in 0u8..9,
        width in 0u32..5,
    ) {
        // encap
        let cfg = EncapConfig { src_bits, type_bits, type_value: type_bits.min(1), timestamp_bytes: ts, flow: 2 };
        let mut stream = Vec::new();
        let mut expected = Vec::new();
        for (i, p) in payloads.iter().enumerate() {
            let src = (i as u16) & ((1u32 << src_bits) - 1) as u16;
            let stamp = (ts > 0).then_some(i as u64 * 3);
            let offset = stream.len();
            match cfg.frame(p, src, stamp) {
                Ok(f) => {
                    stream.extend(f);
                    expected.push((offset, src, stamp, p.clone()));
                }
                Err(FrameError::PayloadTooLong { .. }) => {}
                Err(e) => return Err(TestCaseError::fail(e.to_string())),
            }
        }
        let got = packets(&stream, cfg);
        prop_assert_eq!(got.len(), expected.len());
        for (g, (offset, src, stamp, p)) in got.iter().zip(&expected) {
            prop_assert_eq!(g.offset, *offset);
            prop_assert_eq!(g.src_id, *src);
            prop_assert_eq!(g.timestamp, *stamp);
            prop_assert_eq!(g.flow, 2);
            // The payload comes back in its shortest sign-equivalent form.
            let mut canon = p.clone();
            crate::packet::sign_compress(&mut canon);
            let mut back = g.payload.clone();
            crate::packet::sign_compress(&mut back);
            prop_assert_eq!(back, canon);
        }
        // smi
        let smi = SmiConfig { index_bits: src_bits };
        let mut raw = Vec::new();
        for (i, p) in payloads.iter().enumerate().filter(|(_, p)| p.len() <= 31) {
            let idx = (i as u32 & ((1u32 << src_bits) - 1)) as u16;
            raw.extend(smi.frame(p, idx, (ts > 0).then_some(i as u16)).unwrap());
        }
        let back: Vec<Vec<u8>> = SmiDeframer::new(&raw, smi).map(|i| match i {
            Ok(SmiItem::Packet(p)) => p.payload,
            other => panic!("{other:?}"),
        }).collect();
        prop_assert_eq!(back, payloads.iter().filter(|p| p.len() <= 31).cloned().collect::<Vec<_>>());
        // atb: two sources interleaved beat by beat.
        let atb = AtbConfig { data_bytes: 1 << width, encap: EncapConfig { timestamp_bytes: ts, ..EncapConfig::default() } };
        let mut a = Vec::new();
        let mut b = Vec::new();
        for (i, p) in payloads.iter().enumerate() {
            let beats = match atb.frame(p, if i % 2 == 0 { 0x10 } else { 0x22 }, None) {
                Ok(beats) => beats,
                Err(_) => continue,
            };
            if i % 2 == 0 { a.extend(beats) } else { b.extend(beats) }
        }
        let mut beats = Vec::new();
        for i in 0..a.len().max(b.len()) {
            beats.extend(a.get(i));
            beats.extend(b.get(i));
        }
        let items = deframe_atb(&beats, &atb);
        prop_assert!(items.iter().all(|i| i.item.is_ok()));
        let count = |id| items.iter().filter(|i| i.atid == id).count();
        prop_assert_eq!(count(0x10) + count(0x22), payloads.iter().enumerate()
            .filter(|(i, p)| atb.frame(p, if i % 2 == 0 { 0x10 } else { 0x22 }, None).is_ok()).count());
    }
}

#[test]
fn atb_bad_beats_are_reported_and_skipped() {
    let cfg = AtbConfig::with_data_bits(16).unwrap();
    let mut beats = cfg.frame(&[0x32, 0x04], 3, None).unwrap();
    beats.insert(0, beat(0x70, 0, 0));
    beats.insert(1, beat(3, 2, 0));
    let items = deframe_atb(&beats, &cfg);
    assert_eq!(
        items[0].item,
        Err(FrameError::BadAtid {
            beat: 0,
            atid: 0x70
        })
    );
    assert_eq!(
        items[1].item,
        Err(FrameError::BadAtbytes {
            beat: 1,
            atbytes: 2,
            data_bytes: 2
        })
    );
    assert!(matches!(&items[2].item, Ok(EncapItem::Packet(p)) if p.payload == [0x32, 0x04]));
    assert_eq!(items[2].beat, 2);
    assert!(AtbConfig::with_data_bits(24).is_err());
    assert_eq!(
        cfg.frame(&[1], 0, None),
        Err(FrameError::BadAtid { beat: 0, atid: 0 })
    );
}

#[test]
fn framing_names_parse() {
    for k in [FramingKind::Encap, FramingKind::Smi, FramingKind::Atb] {
        assert_eq!(k.name().parse::<FramingKind>(), Ok(k));
    }
    assert!("pib".parse::<FramingKind>().is_err());
}
