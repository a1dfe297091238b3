//! Memory of a long co-simulation (issue 27, "streaming everywhere"): `etrace cosim` of the
//! scaling program at two lengths (its round count patched into a copy of the ELF,
//! `etrace_programs::scaling_elf`), `-o` written, each as a child process with its peak
//! resident memory from `wait4`. The run three times as long must not take more memory
//! beyond a small margin: the records, the RTL's bytes and the hart's steps are streamed,
//! not kept.

use std::time::Duration;

mod common;
use common::{measured, out_dir, scaling_elf, stat};
// The FIFO overflows a few times at one record per cycle in both runs, so runs after trace
// losses are placed too.
use common::{assert_memory_bounded, SCALING_ROUNDS as ROUNDS};
/// Most time one run may take: generous, a hang guard only (about 40 s for the longer run
/// on an idle machine with the test profile; CI shares its cores).
const MAX_TIME: Duration = Duration::from_secs(900);

/// Peak memory (KiB), instructions checked and trace bytes of `etrace cosim` at `rounds`
/// rounds.
fn peak(rounds: u32) -> (i64, u64, u64) {
    let dir = out_dir();
    let elf = scaling_elf("cosim-scaling", rounds);
    let trace = dir.join(format!("cosim-scaling-{rounds}.encap"));
    let out = dir.join(format!("cosim-{rounds}.out"));
    let args = [
        "cosim",
        elf.to_str().unwrap(),
        "-o",
        trace.to_str().unwrap(),
    ];
    let cost = measured(&args, &out, MAX_TIME);
    let stdout = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        cost.code,
        Some(0),
        "etrace cosim at {rounds} rounds:\n{stdout}"
    );
    let bytes = std::fs::metadata(&trace).map_or(0, |m| m.len());
    assert_eq!(bytes, stat(&stdout, "bytes matched"), "-o holds every byte");
    eprintln!(
        "{rounds} rounds: cosim {} KiB in {:?}",
        cost.max_rss_kib, cost.took
    );
    (
        cost.max_rss_kib,
        stat(&stdout, "instructions checked"),
        bytes,
    )
}

#[test]
fn cosim_memory_does_not_grow_with_the_run() {
    let (short, long) = (peak(ROUNDS[0]), peak(ROUNDS[1]));
    assert!(
        long.2 > short.2,
        "the longer run has no more bytes: {long:?} vs {short:?}"
    );
    assert_memory_bounded("etrace cosim", (short.0, short.1), (long.0, long.1));
}
