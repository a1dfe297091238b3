//! Mutation fuzzing of `etrace decode` with its cost measured: real traces of test programs
//! (encap and smi framing) with seeded random damage (bit flips, bytes overwritten, runs
//! deleted, duplicated or filled with garbage) are decoded by the built binary, and for
//! each run the peak resident memory (`wait4`'s `ru_maxrss`) and the output size must stay
//! proportional to the input, the run must end within a time bound, and the exit code
//! must be 0 or 1 (never a crash). Seeded and few, so that it takes a few seconds.

use std::time::Duration;

mod common;
use common::{elf, etrace, measured, out_dir};
use etrace_spec::ingress::random::Rng;

/// Damaged streams per trace.
const CASES: usize = 24;
/// Peak memory allowed for any run (a clean decode of these programs takes about 10 MiB).
const MAX_RSS_KIB: i64 = 64 << 10;
/// Output allowed: this many bytes per input byte, plus [`OUTPUT_SLACK`].
const OUTPUT_PER_INPUT_BYTE: u64 = 1000;
const OUTPUT_SLACK: u64 = 1 << 20;
/// Most time one run may take (a debug build).
const MAX_TIME: Duration = Duration::from_secs(20);

/// One seeded damage of `data`.
fn mutate(rng: &mut Rng, data: &mut Vec<u8>) {
    let len = data.len() as u64;
    let at = rng.below(len) as usize;
    let run = (1 + rng.below(16) as usize).min(data.len() - at);
    match rng.below(5) {
        0 => data[at] ^= 1 << rng.below(8),
        1 => data[at] = rng.next_u64() as u8,
        2 => {
            data.drain(at..at + run);
        }
        3 => {
            let copy = data[at..at + run].to_vec();
            data.splice(at..at, copy);
        }
        _ => {
            for b in &mut data[at..at + run] {
                *b = rng.next_u64() as u8;
            }
        }
    }
}

#[test]
fn damaged_traces_cost_memory_and_output_in_proportion() {
    let mut rng = Rng::new(2026);
    for (program, framing) in [("traps-rv32", "smi"), ("recursion-rv32", "encap")] {
        let elf = elf(&format!("{program}.elf"));
        let clean = out_dir().join(format!("{program}.{framing}"));
        let clean = clean.display().to_string();
        let enc = etrace(&["encode", "--elf", &elf, "--framing", framing, "-o", &clean]);
        common::assert_code(&enc, 0, "encode");
        let original = std::fs::read(&clean).unwrap();
        let mut worst_rss = 0;
        for case in 0..CASES {
            let mut data = original.clone();
            for _ in 0..1 + rng.below(3) {
                mutate(&mut rng, &mut data);
            }
            let name = format!("{program}-{framing}-{case}");
            let path = out_dir().join(format!("{name}.bin"));
            std::fs::write(&path, &data).unwrap();
            let path = path.display().to_string();
            let args = ["decode", &path, "--elf", &elf, "--framing", framing];
            let cost = measured(&args, &out_dir().join(format!("{name}.out")), MAX_TIME);
            let what = format!("{name} ({} bytes, kept as {path})", data.len());
            assert!(
                matches!(cost.code, Some(0..=1)),
                "{what}: exit {:?}",
                cost.code
            );
            assert!(
                cost.max_rss_kib <= MAX_RSS_KIB,
                "{what}: peak memory {} KiB",
                cost.max_rss_kib
            );
            let allowed = OUTPUT_SLACK + OUTPUT_PER_INPUT_BYTE * data.len() as u64;
            assert!(
                cost.output_bytes <= allowed,
                "{what}: {} bytes of output",
                cost.output_bytes
            );
            assert!(cost.took < MAX_TIME, "{what}: took {:?}", cost.took);
            worst_rss = worst_rss.max(cost.max_rss_kib);
        }
        eprintln!(
            "{program} {framing}: worst peak memory {worst_rss} KiB over {CASES} damaged streams"
        );
    }
}
