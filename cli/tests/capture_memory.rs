//! Memory of a long capture (issue 27, "streaming everywhere"): `etrace capture` reads a
//! stream as it arrives (here a file: the device end is the end of the file) and writes
//! the decoded trace as it goes. The encap trace of the scaling program at two lengths
//! (its round count patched into a copy of the ELF, `etrace_programs::scaling_elf`) is
//! captured by a child process whose peak resident memory comes from `wait4`: the capture
//! three times as long must not take more memory beyond a small margin, and both decode
//! every instruction of the run.

use std::time::Duration;

mod common;
use common::{assert_memory_bounded, SCALING_ROUNDS as ROUNDS};
use common::{etrace_ok, measured, out_dir, scaling_elf, stat};
/// Most time one capture may take: generous, a hang guard only (CI shares its cores).
const MAX_TIME: Duration = Duration::from_secs(600);

/// Peak memory (KiB) of `etrace capture` of the scaling program's trace at `rounds`
/// rounds, the instructions of its run and the addresses the capture wrote.
fn peak(rounds: u32) -> (i64, u64, u64) {
    let dir = out_dir();
    let elf = scaling_elf("capture-scaling", rounds).display().to_string();
    let trace = dir
        .join(format!("capture-scaling-{rounds}.encap"))
        .display()
        .to_string();
    let encoded = etrace_ok(&[
        "encode",
        "--elf",
        &elf,
        "--framing",
        "encap",
        "-o",
        &trace,
        "--stats",
    ]);
    let instructions = stat(&encoded, "instructions");
    let pcs = dir.join(format!("capture-{rounds}.pcs"));
    let out = dir.join(format!("capture-{rounds}.out"));
    let cost = measured(
        &[
            "capture",
            "--serial",
            &trace,
            "--synced",
            "--elf",
            &elf,
            "--format",
            "pcs",
            "-o",
            pcs.to_str().unwrap(),
        ],
        &out,
        MAX_TIME,
    );
    let stderr = std::fs::read_to_string(out.with_extension("err")).unwrap_or_default();
    assert_eq!(
        cost.code,
        Some(0),
        "etrace capture at {rounds} rounds:\n{stderr}"
    );
    let lines = std::fs::read_to_string(&pcs).unwrap().lines().count() as u64;
    eprintln!(
        "{rounds} rounds, {instructions} instructions: capture {} KiB in {:?}",
        cost.max_rss_kib, cost.took
    );
    (cost.max_rss_kib, instructions, lines)
}

#[test]
fn capture_memory_does_not_grow_with_the_stream() {
    let (short, long) = (peak(ROUNDS[0]), peak(ROUNDS[1]));
    for (_, instructions, lines) in [short, long] {
        assert_eq!(
            lines, instructions,
            "the capture wrote an address per retired instruction"
        );
    }
    assert_memory_bounded("etrace capture", (short.0, short.1), (long.0, long.1));
}
