//! Long walks of the decoder (`decoder.adoc` `follow_execution_path`; the decoder's
//! `long_walk`): a format 0 packet (`payload.adoc` "Format 0 packets") counts up to
//! 2^32 - 1 + 31 correctly predicted branches. A corrupted count must end in its decode
//! error quickly with a bounded listing before it; a sound one must decode whole, handed
//! out in pieces of the walk buffer; and the elements must not depend on the buffer's
//! size, on crafted streams and on the test programs' traces.
//!
//! The crafted streams run round a loop at [`BASE`]: `c.nop; bne x0, x0, +8; c.j -6`, the
//! branch never taken (the predictor, reset to 01, predicts it so), with `c.j -10` at
//! `BASE + 10`, where the branch goes when a packet says its prediction failed.

mod common;

use common::{params_for, program};
use etrace_decoder::{DecodeCause, DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_spec::isa::Xlen;
use etrace_spec::packet::{AddressInfo, BranchCount, BranchFmt, Start, TeInst};
use etrace_spec::params::Params;
use std::time::{Duration, Instant};

/// Where the loop starts.
const BASE: u64 = 0x1000;
/// `c.nop`, `bne x0, x0, +8`, `c.j -6`, `c.nop`, `c.j -10`.
const LOOP: &[u8] = &[
    0x01, 0x00, 0x63, 0x14, 0x00, 0x00, 0xed, 0xbf, 0x01, 0x00, 0xdd, 0xbf,
];
/// The loop's branch, and where it goes when taken.
const BRANCH: u64 = BASE + 2;
const EXIT: u64 = BASE + 10;

/// Most time a case may take (the corrupted counts once walked 2^26 instructions each).
const MAX_TIME: Duration = Duration::from_secs(1);

fn image() -> ProgramImage {
    let mut image = ProgramImage::new();
    image.add_code(BASE, LOOP, Xlen::X32).unwrap();
    image
}

/// A format 3 subformat 0 packet at `address` in machine mode with `context`.
fn sync(address: u64, context: u64) -> TeInst {
    TeInst::Start(Start {
        branch: false,
        privilege: 3,
        context,
        address: address >> 1,
        ..Start::default()
    })
}

/// A format 0 packet of `count` + 31 correctly predicted branches: with the address
/// `BASE + delta` (differential) or, without, followed by a failed prediction.
fn count(count: u32, delta: Option<u64>) -> TeInst {
    TeInst::BranchCount(BranchCount {
        branch_count: count,
        branch_fmt: if delta.is_some() {
            BranchFmt::Addr
        } else {
            BranchFmt::NoAddr
        },
        address: delta.map(|d| AddressInfo::new(d >> 1)),
    })
}

/// Decodes `packets` with `config`: the elements, the most elements any hand-out gave (0
/// with `streamed` false: everything is kept), the instructions.
fn decode(
    image: &ProgramImage,
    params: &Params,
    config: DecoderConfig,
    packets: &[TeInst],
    streamed: bool,
) -> (Vec<TraceElement>, usize, u64) {
    let mut decoder = TeDecoder::new(image, params, config);
    let mut all = Vec::new();
    let mut most = 0;
    for (i, p) in packets.iter().enumerate() {
        if streamed {
            decoder
                .process_with(p, i as u64, None, |elements| {
                    most = most.max(elements.len());
                    all.append(elements);
                    Ok::<(), ()>(())
                })
                .unwrap();
        } else {
            decoder.process(p, i as u64, None);
        }
    }
    all.extend(decoder.take_elements(true));
    (all, most, decoder.instructions())
}

/// A corrupted count: the packet after the sync at `BASE`, the decoder's bound of
/// instructions per packet, and the error.
struct Corrupted {
    name: &'static str,
    packet: TeInst,
    max_steps: u64,
    want: DecodeCause,
}

fn corrupted() -> Vec<Corrupted> {
    let not_reached = |address, within| DecodeCause::NotReached {
        address,
        within,
        between_branches: 1 << 16,
    };
    let bound = DecoderConfig::default().max_steps_per_packet;
    vec![
        Corrupted {
            name: "2^32 - 1 branches to the loop's branch: more turns than the bound",
            packet: count(u32::MAX, Some(2)),
            max_steps: bound,
            want: not_reached(BRANCH, bound),
        },
        Corrupted {
            name: "2^32 - 1 branches to an address the loop never reaches",
            packet: count(u32::MAX, Some(0x100)),
            max_steps: bound,
            want: not_reached(BASE + 0x100, bound),
        },
        Corrupted {
            name: "2^32 - 1 branches then a failed prediction",
            packet: count(u32::MAX, None),
            max_steps: bound,
            want: not_reached(BASE, bound),
        },
        Corrupted {
            // Checked a whole number of turns at a time: walked one by one, 2^31
            // instructions would take a minute.
            name: "2^32 - 1 branches, a bound of 2^31 instructions",
            packet: count(u32::MAX, Some(2)),
            max_steps: 1 << 31,
            want: not_reached(BRANCH, 1 << 31),
        },
        Corrupted {
            name: "a million branches, used up before the address",
            packet: count(1_000_000, Some(0x100)),
            max_steps: bound,
            want: DecodeCause::BranchesExhausted { address: BRANCH },
        },
    ]
}

#[test]
fn corrupted_branch_counts_end_quickly_with_a_bounded_listing() {
    let image = image();
    let params = Params::rv32();
    for buffer in [64, DecoderConfig::default().walk_buffer] {
        for case in corrupted() {
            let config = DecoderConfig {
                walk_buffer: buffer,
                max_steps_per_packet: case.max_steps,
                ..DecoderConfig::default()
            };
            let what = format!("{}, buffer {buffer}", case.name);
            let started = Instant::now();
            let packets = [sync(BASE, 0), case.packet];
            let (elements, most, _) = decode(&image, &params, config, &packets, true);
            assert!(
                started.elapsed() < MAX_TIME,
                "{what}: {:?}",
                started.elapsed()
            );
            let error = elements
                .iter()
                .find_map(TraceElement::decode_error)
                .unwrap_or_else(|| panic!("{what}: no decode error"));
            assert_eq!(error.cause, case.want, "{what}");
            assert_eq!(error.packet_index, 1, "{what}");
            // The trace-on, the buffer's ranges, the range open at the cut, the error.
            assert!(elements.len() <= buffer + 3, "{what}: {}", elements.len());
            assert_eq!(most, 0, "{what}: a failing walk handed elements out");
        }
    }
}

#[test]
fn a_sound_long_count_is_handed_out_in_pieces_of_the_buffer() {
    let image = image();
    let params = Params::rv32();
    for (branches, buffer) in [(100_000u32, 4096), (5000, 7), (40, 1)] {
        let what = format!("{branches} + 31 branches, buffer {buffer}");
        let config = DecoderConfig {
            walk_buffer: buffer,
            ..DecoderConfig::default()
        };
        // The loop turns once per branch; the walk stops at the last branch, whose
        // outcome the packet leaves to the next one.
        let packets = [sync(BASE, 0), count(branches, Some(2))];
        let (kept, _, instructions) = decode(&image, &params, config, &packets, false);
        let (streamed, most, _) = decode(&image, &params, config, &packets, true);
        assert!(kept.iter().all(|e| e.decode_error().is_none()), "{what}");
        let turns = u64::from(branches) + 31;
        assert_eq!(instructions, 3 * turns - 1, "{what}: instructions");
        assert!(streamed == kept, "{what}: the pieces differ from the whole");
        assert!(
            most > 0 && most <= buffer + 1,
            "{what}: {most} elements at once"
        );
    }
}

/// The crafted streams the buffer sizes must agree on: counts between syncs at `EXIT`,
/// with context changes there.
fn crafted_streams() -> Vec<(&'static str, Vec<TeInst>)> {
    vec![
        (
            "counts ended by failed predictions",
            vec![
                sync(BASE, 0),
                count(3000, None),
                sync(EXIT, 0),
                count(20, None),
                sync(EXIT, 7),
                count(0, None),
                sync(EXIT, 0),
            ],
        ),
        (
            "a count to the loop's branch",
            vec![
                sync(BASE, 0),
                count(700, None),
                sync(EXIT, 7),
                // Differential, from `EXIT` (32 bits).
                count(9, Some(BRANCH.wrapping_sub(EXIT) & 0xffff_ffff)),
            ],
        ),
    ]
}

#[test]
fn elements_do_not_depend_on_the_walk_buffer() {
    let image = image();
    let params = Params::rv32();
    let mut cases: Vec<(String, &ProgramImage, Params, Vec<TeInst>)> = crafted_streams()
        .into_iter()
        .map(|(name, packets)| (name.to_string(), &image, params.clone(), packets))
        .collect();
    let programs: Vec<_> = ["recursion-rv32", "traps-rv64", "tailcall-rv32"]
        .into_iter()
        .map(program)
        .collect();
    for p in &programs {
        let mut params = params_for(&p.stem);
        params.return_stack_size_p = 3;
        params.bpred_size_p = 6;
        let options = EncoderOptions {
            branch_prediction: true,
            implicit_return: true,
            ..EncoderOptions::default()
        };
        let packets = Encoder::encode_all(&params, options, &p.records)
            .unwrap()
            .into_iter()
            .map(|p| p.packet)
            .collect();
        cases.push((p.stem.clone(), &p.image, params, packets));
    }
    for (name, image, params, packets) in &cases {
        let config = DecoderConfig::default();
        let (want, _, instructions) = decode(image, params, config, packets, false);
        assert!(
            want.iter().all(|e| e.decode_error().is_none()),
            "{name}: decode error {:?}",
            want.iter().find_map(TraceElement::decode_error)
        );
        for buffer in [1, 2, 5] {
            let config = DecoderConfig {
                walk_buffer: buffer,
                ..config
            };
            for streamed in [false, true] {
                let what = format!("{name}, buffer {buffer}, streamed {streamed}");
                let (got, _, n) = decode(image, params, config, packets, streamed);
                if let Some(i) = (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i))
                {
                    panic!(
                        "{what}: element {i}: {:?}, want {:?}",
                        got.get(i),
                        want.get(i)
                    );
                }
                assert_eq!(n, instructions, "{what}: instructions");
            }
        }
    }
}
