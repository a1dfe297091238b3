//! Tests of the output path's cycle contract (`hdl/DESIGN.md` items 4-8) against the
//! model's framers (`framing::encap`, `framing::smi`, `framing::atb`).

use super::*;
use etrace_spec::framing::atb::AtbConfig;
use etrace_spec::framing::encap::EncapWriter;
use etrace_spec::framing::smi::SmiConfig;
use etrace_spec::ingress::random::Rng;
use etrace_spec::packet::sign_compress;

/// A sign-compressed payload of at most `max` bytes, as `packet::pack` gives them.
fn payload(rng: &mut Rng, max: u64) -> Vec<u8> {
    let len = 1 + rng.below(max);
    let mut bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    if rng.below(3) == 0 {
        // Many payloads end in sign bytes: exercise the compression boundary.
        let fill = if rng.below(2) == 0 { 0x00 } else { 0xff };
        let keep = 1 + rng.below(len) as usize;
        for b in bytes.iter_mut().skip(keep) {
            *b = fill;
        }
    }
    sign_compress(&mut bytes);
    bytes
}

/// Runs random pushes (within `free`) and random `ready` until every packet is out;
/// returns the payloads with their push cycles, and the items taken in order.
fn run_random(
    config: OutputPathConfig,
    seed: u64,
    packets: usize,
) -> (Vec<(Vec<u8>, u16)>, Vec<OutputItem>) {
    let mut rng = Rng::new(seed);
    let mut path = OutputPath::new(config).unwrap();
    let mut sent = Vec::new();
    let mut taken = Vec::new();
    let mut guard = 0;
    while sent.len() < packets || !path.is_idle() {
        let want = if sent.len() < packets {
            rng.below(3) as usize
        } else {
            0
        };
        let n = want.min(path.free()).min(packets - sent.len());
        let pushes: Vec<Vec<u8>> = (0..n).map(|_| payload(&mut rng, 18)).collect();
        for p in &pushes {
            sent.push((p.clone(), path.timestamp()));
        }
        let refs: Vec<&[u8]> = pushes.iter().map(|p| p.as_slice()).collect();
        let ready = rng.below(4) != 0;
        if let Some(item) = path.cycle(&refs, ready).unwrap() {
            taken.push(item);
        }
        guard += 1;
        assert!(guard < 100 * packets + 1000, "output path does not drain");
    }
    (sent, taken)
}

fn bytes_of(items: &[OutputItem]) -> (Vec<u8>, Vec<bool>) {
    items
        .iter()
        .map(|item| match item {
            OutputItem::Byte { data, last } => (*data, *last),
            OutputItem::Beat(_) => panic!("beat on a byte stream"),
        })
        .unzip()
}

#[test]
fn item5_timestamp_is_zero_in_the_first_cycle_and_wraps() {
    let mut path = OutputPath::new(OutputPathConfig::default()).unwrap();
    assert_eq!(path.timestamp(), 0);
    for expected in 1..=70_000u64 {
        path.cycle(&[], true).unwrap();
        assert_eq!(u64::from(path.timestamp()), expected % 65_536);
    }
}

#[test]
fn item4_free_counts_occupancy_at_the_start_of_the_cycle() {
    let cfg = OutputPathConfig {
        sync_interval: 0,
        ..OutputPathConfig::default()
    };
    let mut path = OutputPath::new(cfg).unwrap();
    let p: &[u8] = &[0x11, 0x22];
    // (pushes, free at the start of the cycle)
    let table: [(usize, usize); 11] = [
        (2, 2),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 1),
        (0, 1),
        (0, 1),
        (0, 1),
        (1, 2),
        (0, 1),
        (0, 1),
    ];
    // The two packets are in the packet register in cycle 1, in the queue's input register
    // in cycle 2 and in the queue from cycle 3, which pops the first (free stays 0 in that
    // cycle); the second is popped after the 3 bytes of the first (cycles 4-6) in cycle 7;
    // the push of cycle 8 sees free 2 and is counted in cycles 9 and 10.
    for (cycle, &(pushes, free)) in table.iter().enumerate() {
        assert_eq!(path.free(), free, "cycle {cycle}");
        let refs = vec![p; pushes];
        path.cycle(&refs, true).unwrap();
    }
    assert_eq!(
        path.cycle(&[p, p], true),
        Err(CycleError::QueueOverflow {
            cycle: 11,
            pushes: 2,
            free: 1
        })
    );
}

#[test]
fn item6_item7_one_packet_cycle_by_cycle() {
    let cfg = OutputPathConfig {
        sync_interval: 0,
        timestamp: true,
        ..OutputPathConfig::default()
    };
    let mut path = OutputPath::new(cfg).unwrap();
    path.cycle(&[], true).unwrap();
    path.cycle(&[], true).unwrap();
    // Pushed in cycle 2 (timestamp 2): header 0x81 (length 1, extend), ts 02 00, payload.
    assert_eq!(path.cycle(&[&[0x35]], true).unwrap(), None);
    let byte = |data, last| Some(OutputItem::Byte { data, last });
    // cycles 3 and 4 move it through the packet register and the queue's input register,
    // cycle 5 pops, cycle 6 writes the header, cycle 7 presents it, ...
    let expected = [
        None,
        None,
        None,
        None,
        byte(0x81, false),
        byte(0x02, false),
        byte(0x00, false),
        byte(0x35, true),
        None,
    ];
    for (i, want) in expected.iter().enumerate() {
        assert_eq!(path.presented(), *want, "cycle {}", 3 + i);
        assert_eq!(path.cycle(&[], true).unwrap(), *want, "cycle {}", 3 + i);
    }
    assert!(path.is_idle());
}

#[test]
fn item7_full_fifo_holds_the_serializer() {
    let cfg = OutputPathConfig {
        sync_interval: 0,
        fifo_depth: 4,
        ..OutputPathConfig::default()
    };
    let mut path = OutputPath::new(cfg).unwrap();
    let p: &[u8] = &[1, 2, 3, 4, 5, 6, 7];
    path.cycle(&[p], false).unwrap();
    for _ in 0..20 {
        assert_eq!(path.cycle(&[], false).unwrap(), None);
    }
    assert_eq!(path.fifo_occupancy(), 4);
    assert_eq!(
        path.presented(),
        Some(OutputItem::Byte {
            data: 0x07,
            last: false
        })
    );
    // Draining with ready high: the header then the 7 payload bytes, in order.
    let mut out = Vec::new();
    for _ in 0..20 {
        if let Some(OutputItem::Byte { data, .. }) = path.cycle(&[], true).unwrap() {
            out.push(data);
        }
    }
    assert_eq!(out, vec![0x07, 1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn item6_framed_bytes_equal_the_encap_writer() {
    // (src_bits, src_id, timestamp, sync_interval)
    let cases: [(u8, u16, bool, usize); 8] = [
        (0, 0, false, 4096),
        (0, 0, true, 4096),
        (8, 0xa5, false, 64),
        (8, 0x5a, true, 0),
        (12, 0xabc, false, 100),
        (12, 0x123, true, 4096),
        (3, 5, true, 50),
        (16, 0xbeef, false, 30),
    ];
    for (i, &(src_bits, src_id, timestamp, sync_interval)) in cases.iter().enumerate() {
        let cfg = OutputPathConfig {
            framing: FramingKind::Encap,
            src_bits,
            src_id,
            timestamp,
            sync_interval,
            fifo_depth: 8,
            port: OutputPort::ByteStream,
        };
        let (sent, taken) = run_random(cfg, 0x9e37_79b9 + i as u64, 300);
        let mut w = EncapWriter::new(cfg.encap(), sync_interval);
        let mut lasts = Vec::new();
        for (p, ts) in &sent {
            w.write(p, src_id, timestamp.then_some(u64::from(*ts)))
                .unwrap();
            lasts.resize(w.bytes().len(), false);
            *lasts.last_mut().unwrap() = true;
        }
        let (bytes, last) = bytes_of(&taken);
        assert_eq!(bytes, w.bytes(), "case {i}");
        assert_eq!(last, lasts, "case {i}");
    }
}

#[test]
fn item6_framed_bytes_equal_the_smi_messages() {
    // (index bits, index, timestamp)
    let cases: [(u8, u16, bool); 6] = [
        (0, 0, false),
        (0, 0, true),
        (8, 0xa5, false),
        (8, 0x5a, true),
        (12, 0xabc, true),
        (16, 0xbeef, false),
    ];
    for (i, &(src_bits, src_id, timestamp)) in cases.iter().enumerate() {
        let cfg = OutputPathConfig {
            framing: FramingKind::Smi,
            src_bits,
            src_id,
            timestamp,
            sync_interval: 0,
            fifo_depth: 8,
            port: OutputPort::ByteStream,
        };
        let (sent, taken) = run_random(cfg, 0x5111 + i as u64, 300);
        let smi = SmiConfig {
            index_bits: src_bits,
        };
        let (mut want, mut lasts) = (Vec::new(), Vec::new());
        for (p, ts) in &sent {
            let message = smi.frame(p, src_id, timestamp.then_some(*ts)).unwrap();
            want.extend_from_slice(&message);
            lasts.resize(want.len(), false);
            *lasts.last_mut().unwrap() = true;
        }
        let (bytes, last) = bytes_of(&taken);
        assert_eq!(bytes, want, "case {i}");
        assert_eq!(last, lasts, "case {i}");
    }
}

#[test]
fn item8_atb_beats_equal_the_atb_framer() {
    for data_bytes in [1u8, 2, 4, 8, 16] {
        for timestamp in [false, true] {
            let cfg = OutputPathConfig {
                framing: FramingKind::Encap,
                src_bits: 0,
                src_id: 0,
                timestamp,
                sync_interval: 0,
                fifo_depth: 16,
                port: OutputPort::Atb {
                    data_bytes,
                    atid: 0x15,
                },
            };
            let (sent, taken) = run_random(cfg, 77 + u64::from(data_bytes), 200);
            let atb = AtbConfig {
                data_bytes,
                encap: cfg.encap(),
            };
            let mut expected = Vec::new();
            for (p, ts) in &sent {
                let beats = atb
                    .frame(p, 0x15, timestamp.then_some(u64::from(*ts)))
                    .unwrap();
                expected.extend(beats.into_iter().map(OutputItem::Beat));
            }
            assert_eq!(
                taken, expected,
                "ATDATA {data_bytes} bytes, timestamp {timestamp}"
            );
        }
    }
}

#[test]
fn bad_settings_and_payloads_are_errors() {
    let atb_sync = OutputPathConfig {
        port: OutputPort::Atb {
            data_bytes: 4,
            atid: 1,
        },
        ..OutputPathConfig::default()
    };
    assert!(matches!(
        OutputPath::new(atb_sync),
        Err(CycleError::BadConfig { .. })
    ));
    let depth = OutputPathConfig {
        fifo_depth: 48,
        ..OutputPathConfig::default()
    };
    assert!(matches!(
        OutputPath::new(depth),
        Err(CycleError::BadConfig { .. })
    ));
    let smi = OutputPathConfig {
        framing: FramingKind::Smi,
        sync_interval: 0,
        ..OutputPathConfig::default()
    };
    let smi_cases = [
        (
            "smi with a sync interval",
            OutputPathConfig {
                sync_interval: 4096,
                ..smi
            },
        ),
        (
            "smi over ATB",
            OutputPathConfig {
                port: OutputPort::Atb {
                    data_bytes: 4,
                    atid: 1,
                },
                ..smi
            },
        ),
        (
            "atb bytes",
            OutputPathConfig {
                framing: FramingKind::Atb,
                ..smi
            },
        ),
    ];
    for (what, cfg) in smi_cases {
        assert!(OutputPath::new(cfg).is_err(), "{what}");
    }
    OutputPath::new(smi).unwrap();
    let mut path = OutputPath::new(OutputPathConfig::default()).unwrap();
    path.cycle(&[&[]], true).unwrap();
    path.cycle(&[], true).unwrap();
    path.cycle(&[], true).unwrap();
    assert_eq!(
        path.cycle(&[], true),
        Err(CycleError::Payload {
            cycle: 3,
            pushed: 0,
            source: FrameError::EmptyInput
        })
    );
}
