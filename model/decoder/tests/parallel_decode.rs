//! Parallel decoding (`etrace_decoder::parallel`) gives the sequential decoder's output,
//! element for element (ranges, traps, errors with their packet index and byte offset),
//! with the same packet and instruction counts: on every quick manifest program under
//! several encoder option sets (default, implicit return, branch prediction, a short
//! resync interval so that there are many pieces), cut into pieces of several sizes; and
//! on damaged streams (bit flips, garbage, deleted runs, truncation).

mod common;

use common::{params_for, program};
use etrace_decoder::parallel::{decode_parallel, ParallelConfig, Setup, Summary};
use etrace_decoder::stream::{feed_payloads, Framing, PayloadStream};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_spec::framing::encap::{EncapConfig, EncapWriter};
use etrace_spec::framing::smi::SmiConfig;
use etrace_spec::ingress::random::Rng;
use etrace_spec::packet::pack;
use etrace_spec::params::Params;
use std::convert::Infallible;

/// Bytes per push of the stream (as a file is read).
const CHUNK: usize = 1000;

/// The sequential decoder's elements, packets and instructions for `bytes`.
fn sequential(setup: Setup<'_>, bytes: &[u8]) -> (Vec<TraceElement>, u64, u64) {
    let mut decoder = TeDecoder::new(setup.image, setup.params, setup.config);
    let mut stream = PayloadStream::new(setup.framing, true);
    let mut packets = 0;
    for chunk in bytes.chunks(CHUNK) {
        packets = feed_payloads(&mut decoder, setup.params, packets, &stream.push(chunk));
    }
    packets = feed_payloads(&mut decoder, setup.params, packets, &stream.finish());
    let elements = decoder.take_elements(true);
    (elements, packets, decoder.instructions())
}

/// The parallel decoder's elements and summary for `bytes`.
fn parallel(
    setup: Setup<'_>,
    config: ParallelConfig,
    bytes: &[u8],
) -> (Vec<TraceElement>, Summary) {
    let mut elements = Vec::new();
    let mut lasts = 0;
    let summary = decode_parallel::<Infallible>(
        setup,
        config,
        |push| {
            for chunk in bytes.chunks(CHUNK) {
                push(chunk)?;
            }
            Ok(())
        },
        |piece, last| {
            elements.extend_from_slice(piece);
            lasts += usize::from(last);
            Ok(())
        },
    )
    .unwrap_or_else(|e| match e {});
    assert_eq!(lasts, 1, "the last piece is marked once");
    (elements, summary)
}

/// Decodes `bytes` both ways with pieces of each size; returns (pieces, redecoded).
fn compare(setup: Setup<'_>, bytes: &[u8], what: &str) -> (u64, u64) {
    let (want, packets, instructions) = sequential(setup, bytes);
    let mut totals = (0, 0);
    for (jobs, piece_bytes) in [(2, 0), (3, 64), (2, 1 << 16)] {
        let config = ParallelConfig {
            jobs,
            piece_bytes,
            window_per_job: 2,
        };
        let (got, summary) = parallel(setup, config, bytes);
        let what = format!("{what}, {jobs} jobs, pieces of {piece_bytes} bytes");
        if let Some(i) = (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i)) {
            panic!(
                "{what}: element {i} differs: sequential {:?}, parallel {:?}",
                want.get(i),
                got.get(i)
            );
        }
        assert_eq!(summary.packets, packets, "{what}: packets");
        assert_eq!(summary.instructions, instructions, "{what}: instructions");
        totals.0 += summary.pieces;
        totals.1 += summary.redecoded;
    }
    totals
}

/// `payloads` framed with encap (with its synchronisation sequences) or smi.
fn framed(payloads: &[Vec<u8>], encap: bool) -> (Framing, Vec<u8>) {
    if encap {
        let cfg = EncapConfig::default();
        let mut w = EncapWriter::new(cfg, 256);
        for p in payloads {
            w.write(p, 0, None).unwrap();
        }
        (Framing::Encap(cfg), w.into_bytes())
    } else {
        let cfg = SmiConfig::default();
        let bytes = payloads
            .iter()
            .flat_map(|p| cfg.frame(p, 0, None).unwrap())
            .collect();
        (Framing::Smi(cfg), bytes)
    }
}

/// (name, options, params) of the option sets compared.
fn option_sets(stem: &str) -> Vec<(&'static str, EncoderOptions, Params)> {
    let d = EncoderOptions::default();
    let base = params_for(stem);
    let mut ir = base.clone();
    ir.return_stack_size_p = 4;
    let mut sijump = base.clone();
    sijump.sijump_p = 1;
    let mut bpred = base.clone();
    bpred.bpred_size_p = 5;
    vec![
        ("default", d, base.clone()),
        (
            "implicit-return",
            EncoderOptions {
                implicit_return: true,
                ..d
            },
            ir,
        ),
        (
            "bpred",
            EncoderOptions {
                branch_prediction: true,
                ..d
            },
            bpred,
        ),
        ("resync8", EncoderOptions { resync_max: 8, ..d }, base),
        (
            "sijump-resync8",
            EncoderOptions {
                sijump: true,
                resync_max: 8,
                ..d
            },
            sijump,
        ),
    ]
}

/// The quick programs of the manifest, for both XLENs.
fn stems() -> Vec<String> {
    let names = etrace_programs::manifest_names_up_to(&etrace_programs::dir(), 2_000_000).unwrap();
    assert!(!names.is_empty());
    names
        .iter()
        .flat_map(|n| [format!("{n}-rv32"), format!("{n}-rv64")])
        .collect()
}

/// The packed payloads of the golden encoder with `params` / `options` for `records`.
fn payloads_of(
    params: &Params,
    options: EncoderOptions,
    records: &[etrace_spec::ingress::IngressRecord],
) -> Vec<Vec<u8>> {
    Encoder::encode_all(params, options, records)
        .unwrap()
        .iter()
        .map(|p| pack(&p.packet, params).unwrap().bytes)
        .collect()
}

/// The decoding set-up (default decoder configuration).
fn setup<'s>(image: &'s ProgramImage, params: &'s Params, framing: &'s Framing) -> Setup<'s> {
    Setup {
        image,
        params,
        config: DecoderConfig::default(),
        framing,
    }
}

#[test]
fn parallel_equals_sequential_on_every_program() {
    let (mut pieces, mut redecoded) = (0, 0);
    for stem in stems() {
        let program = program(&stem);
        for (set, options, params) in option_sets(&stem) {
            let payloads = payloads_of(&params, options, &program.records);
            let (framing, bytes) = framed(&payloads, set != "bpred");
            let s = setup(&program.image, &params, &framing);
            let (p, r) = compare(s, &bytes, &format!("{stem} {set}"));
            pieces += p;
            redecoded += r;
        }
    }
    // The pieces resume where the previous ones end far more often than not: the output
    // above is that of the joined pieces, not of a sequential re-decoding.
    assert!(
        redecoded * 4 < pieces,
        "{redecoded} of {pieces} pieces decoded again"
    );
}

#[test]
fn parallel_equals_sequential_on_damaged_streams() {
    let mut rng = Rng::new(27);
    for stem in [
        "recursion-rv32",
        "traps-rv64",
        "fnptr_switch-rv32",
        "loops-rv64",
    ] {
        let program = program(stem);
        let params = params_for(stem);
        let options = EncoderOptions {
            resync_max: 16,
            ..EncoderOptions::default()
        };
        let payloads = payloads_of(&params, options, &program.records);
        for encap in [true, false] {
            let (framing, clean) = framed(&payloads, encap);
            for case in 0..12 {
                let mut bytes = clean.clone();
                let what = damage(&mut bytes, &mut rng, case);
                let s = setup(&program.image, &params, &framing);
                compare(s, &bytes, &format!("{stem} encap={encap} {what}"));
            }
        }
    }
}

/// Damages `bytes` in the manner of case `case`: what was done.
fn damage(bytes: &mut Vec<u8>, rng: &mut Rng, case: u32) -> String {
    let len = bytes.len() as u64;
    match case % 4 {
        0 => {
            for _ in 0..1 + case {
                let at = rng.below(len) as usize;
                bytes[at] ^= 1 << rng.below(8);
            }
            format!("{} bit flips", 1 + case)
        }
        1 => {
            let at = rng.below(len) as usize;
            let garbage: Vec<u8> = (0..1 + rng.below(64))
                .map(|_| rng.next_u64() as u8)
                .collect();
            let n = garbage.len();
            bytes.splice(at..at, garbage);
            format!("{n} garbage bytes at {at}")
        }
        2 => {
            let at = rng.below(len) as usize;
            let end = (at + 1 + rng.below(100) as usize).min(bytes.len());
            bytes.drain(at..end);
            format!("bytes {at}..{end} deleted")
        }
        _ => {
            let at = rng.below(len) as usize;
            bytes.truncate(at);
            format!("truncated at {at}")
        }
    }
}

/// Where the crafted loop starts: `c.nop; bne x0, x0, +8; c.j -6` (the branch never
/// taken, as the predictor predicts it), `c.nop`, and at `LOOP_BASE + 10` (where a failed
/// prediction of the branch goes) `c.j -10`.
const LOOP_BASE: u64 = 0x1000;
const LOOP_CODE: &[u8] = &[
    0x01, 0x00, 0x63, 0x14, 0x00, 0x00, 0xed, 0xbf, 0x01, 0x00, 0xdd, 0xbf,
];

/// The crafted loop's image, and the encap-framed payloads of a stream that turns round
/// it `turns` + 31 times (one format 0 packet, `payload.adoc` "Format 0 packets") between
/// each two of `syncs` synchronisation packets.
fn loop_stream(turns: u32, syncs: usize) -> (ProgramImage, Framing, Vec<u8>) {
    use etrace_spec::packet::{BranchCount, BranchFmt, Start, TeInst};
    let mut image = ProgramImage::new();
    image
        .add_code(LOOP_BASE, LOOP_CODE, etrace_spec::isa::Xlen::X32)
        .unwrap();
    let sync = |address: u64| {
        TeInst::Start(Start {
            branch: false,
            privilege: 3,
            address: address >> 1,
            ..Start::default()
        })
    };
    let count = TeInst::BranchCount(BranchCount {
        branch_count: turns,
        branch_fmt: BranchFmt::NoAddr,
        address: None,
    });
    let params = Params::rv32();
    let mut packets = vec![sync(LOOP_BASE)];
    for _ in 1..syncs {
        packets.extend([count.clone(), sync(LOOP_BASE + 10)]);
    }
    let payloads: Vec<Vec<u8>> = packets
        .iter()
        .map(|p| pack(p, &params).unwrap().bytes)
        .collect();
    let (framing, bytes) = framed(&payloads, true);
    (image, framing, bytes)
}

#[test]
fn a_piece_whose_walk_outgrows_a_worker_is_decoded_in_order() {
    // More elements in one piece than a worker holds (2^18): the pieces are decoded
    // again in order, their elements handed out as they come.
    let turns = (etrace_decoder::parallel::piece::PIECE_ELEMENTS + 5000) as u32;
    let (image, framing, bytes) = loop_stream(turns, 3);
    let params = Params::rv32();
    let s = setup(&image, &params, &framing);
    let (want, _, _) = sequential(s, &bytes);
    assert!(want.len() > 2 * turns as usize, "{} elements", want.len());
    assert!(want.iter().all(|e| e.decode_error().is_none()));
    let (pieces, redecoded) = compare(s, &bytes, "a loop of 2^18 + 5000 turns");
    assert!(
        redecoded >= 3 && pieces >= 3,
        "{redecoded} of {pieces} decoded again"
    );
}

#[test]
fn threads_are_started_per_piece_up_to_the_jobs() {
    let params = Params::rv32();
    // Fewer pieces than jobs; more pieces than jobs.
    for (syncs, jobs) in [(5, 64), (200, 2)] {
        let (image, framing, bytes) = loop_stream(10, syncs);
        let config = ParallelConfig {
            jobs,
            piece_bytes: 0,
            window_per_job: 2,
        };
        let (_, summary) = parallel(setup(&image, &params, &framing), config, &bytes);
        let what = format!("{syncs} syncs, {jobs} jobs: {summary:?}");
        assert!(summary.pieces >= syncs as u64 - 1, "{what}");
        let most = (summary.pieces as usize).min(jobs);
        assert!(summary.threads >= 1 && summary.threads <= most, "{what}");
    }
}
