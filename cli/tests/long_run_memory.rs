//! Memory of long runs (issue 27, "streaming everywhere"): `etrace run` and `etrace decode`
//! of the scaling program at two lengths (its round count patched into a copy of the ELF,
//! `etrace_programs::scaling_elf`), each as a child process with its peak resident memory
//! from `wait4`. Both must stay under a bound, and the longer run must not take more
//! memory than the shorter one beyond a small margin: memory does not grow with the run.
//! `decode` is measured with the sequential decoder (`-j 1`) for that check, and with the
//! parallel decoder (`-j 2`) against the bound: its window of pieces in flight fills with
//! the first pieces, so its peak rises over the first rounds before it levels off (about
//! 56 MB measured at 40 and at 60 rounds).

use std::time::Duration;

mod common;
use common::{
    assert_memory_bounded, etrace_ok, measured, out_dir, stat, MAX_RSS_KIB,
    SCALING_ROUNDS as ROUNDS,
};

/// Most time one run may take (a debug build).
const MAX_TIME: Duration = Duration::from_secs(60);

/// Peak memory (KiB) of `etrace run`, of `etrace decode -j 1` and of `etrace decode -j 2`
/// of its trace, and the instructions of the run, at `rounds` rounds.
fn peaks(rounds: u32) -> (u64, i64, i64, i64) {
    let dir = out_dir();
    let base = std::fs::read(etrace_programs::elf_path("scaling-rv32")).expect("scaling ELF");
    let elf = dir.join(format!("scaling-{rounds}.elf"));
    std::fs::write(&elf, etrace_programs::scaling_elf(&base, rounds).unwrap()).unwrap();
    let elf = elf.display().to_string();
    let run_out = dir.join(format!("run-{rounds}.out"));
    let run = measured(&["run", &elf], &run_out, MAX_TIME);
    let stdout = std::fs::read_to_string(&run_out).unwrap();
    assert_eq!(
        run.code,
        Some(0),
        "etrace run at {rounds} rounds:\n{stdout}"
    );
    let instructions = stat(&stdout, "instructions");
    let trace = dir
        .join(format!("scaling-{rounds}.encap"))
        .display()
        .to_string();
    etrace_ok(&["encode", "--elf", &elf, "--framing", "encap", "-o", &trace]);
    let decode = |jobs: &str| {
        let decode_out = dir.join(format!("decode-{rounds}-j{jobs}.out"));
        let decode = measured(
            &[
                "decode",
                &trace,
                "--framing",
                "encap",
                "--elf",
                &elf,
                "--format",
                "pcs",
                "-o",
                "/dev/null",
                "-j",
                jobs,
            ],
            &decode_out,
            MAX_TIME,
        );
        assert_eq!(
            decode.code,
            Some(0),
            "etrace decode -j {jobs} at {rounds} rounds: {trace}"
        );
        eprintln!(
            "{rounds} rounds, {instructions} instructions: decode -j {jobs} {} KiB in {:?}",
            decode.max_rss_kib, decode.took
        );
        decode.max_rss_kib
    };
    eprintln!(
        "{rounds} rounds, {instructions} instructions: run {} KiB in {:?}",
        run.max_rss_kib, run.took
    );
    (instructions, run.max_rss_kib, decode("1"), decode("2"))
}

#[test]
fn run_and_decode_memory_does_not_grow_with_the_run() {
    let (short, long) = (peaks(ROUNDS[0]), peaks(ROUNDS[1]));
    assert_memory_bounded("etrace run", (short.1, short.0), (long.1, long.0));
    assert_memory_bounded("etrace decode -j 1", (short.2, short.0), (long.2, long.0));
    assert!(
        short.3 <= MAX_RSS_KIB && long.3 <= MAX_RSS_KIB,
        "etrace decode -j 2: peak {} / {} KiB, bound {MAX_RSS_KIB} KiB",
        short.3,
        long.3
    );
}
