//! Memory of a long co-simulation (issue 27, "streaming everywhere"): `etrace cosim` of the
//! scaling program at two lengths (its round count patched into a copy of the ELF,
//! `etrace_programs::scaling_elf`), `-o` written, each as a child process with its peak
//! resident memory from `wait4`. The run three times as long must not take more memory
//! beyond a small margin: the records, the RTL's bytes and the hart's steps are streamed,
//! not kept.

use std::time::Duration;

mod common;
use common::{measured, out_dir, stat};

/// Round counts of the two runs (about 1.6 and 4.7 million instructions; the FIFO
/// overflows a few times at one record per cycle, so runs after trace losses are placed
/// too).
const ROUNDS: [u32; 2] = [1, 3];
/// Peak memory allowed for any run.
const MAX_RSS_KIB: i64 = 100 << 10;
/// Growth allowed from the shorter run to the longer one.
const GROWTH_KIB: i64 = 8 << 10;
/// Most time one run may take (a debug build).
const MAX_TIME: Duration = Duration::from_secs(120);

/// Peak memory (KiB), instructions checked and trace bytes of `etrace cosim` at `rounds`
/// rounds.
fn peak(rounds: u32) -> (i64, u64, u64) {
    let dir = out_dir();
    let base = std::fs::read(etrace_programs::elf_path("scaling-rv32")).expect("scaling ELF");
    let elf = dir.join(format!("cosim-scaling-{rounds}.elf"));
    std::fs::write(&elf, etrace_programs::scaling_elf(&base, rounds).unwrap()).unwrap();
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
        2 * long.1 >= 5 * short.1 && long.2 > short.2,
        "the longer run is not longer: {long:?} vs {short:?}"
    );
    assert!(
        short.0 <= MAX_RSS_KIB && long.0 <= MAX_RSS_KIB,
        "etrace cosim: peak {} / {} KiB, bound {MAX_RSS_KIB} KiB",
        short.0,
        long.0
    );
    assert!(
        long.0 <= short.0 + GROWTH_KIB,
        "etrace cosim: peak memory grows from {} KiB ({} instructions) to {} KiB ({} \
         instructions)",
        short.0,
        short.1,
        long.0,
        long.1
    );
}
