//! `etrace decode --jobs N` (the parallel decoder) writes what `--jobs 1` (the sequential
//! decoder) writes, byte for byte, with the same exit code and messages: on every program
//! of the manifest (with its memory map) in several option sets (default, implicit return
//! with branch prediction, a short resync interval so that the trace has many sync
//! packets), and on the hostile corpus and damaged streams. `calltree` likewise.

mod common;
use common::{elf, etrace, manifest_programs, out_dir, scratch};
use etrace_spec::ingress::random::Rng;
use std::path::PathBuf;
use std::process::Output;

/// Runs `etrace <args> -j 1` and `-j <jobs>` for jobs 2 and 3; both must give the same
/// standard output, standard error and exit code.
fn same_with_jobs(args: &[&str], what: &str) -> Output {
    let run = |jobs: &str| {
        let mut a = args.to_vec();
        a.extend(["-j", jobs]);
        etrace(&a)
    };
    let want = run("1");
    for jobs in ["2", "3"] {
        let got = run(jobs);
        assert_eq!(
            got.status.code(),
            want.status.code(),
            "{what}, -j {jobs}: exit code"
        );
        assert!(
            got.stdout == want.stdout,
            "{what}, -j {jobs}: standard output differs"
        );
        assert_eq!(
            String::from_utf8_lossy(&got.stderr),
            String::from_utf8_lossy(&want.stderr),
            "{what}, -j {jobs}: standard error"
        );
    }
    want
}

#[test]
fn parallel_decode_equals_sequential_on_every_program() {
    let params = out_dir().join("ir-bpred.toml");
    std::fs::write(&params, "return_stack_size_p = 3\nbpred_size_p = 6\n").unwrap();
    let params = params.display().to_string();
    let ir_bpred = [
        "--implicit-return",
        "--branch-prediction",
        "--params",
        &params,
    ];
    let sets: [&[&str]; 3] = [&[], &ir_bpred, &["--resync-max", "4"]];
    for (name, memory, exit_code) in manifest_programs() {
        for xlen in ["rv32", "rv64"] {
            let program = elf(&format!("{name}-{xlen}.elf"));
            for (i, set) in sets.iter().enumerate() {
                if name == "workload" && i > 0 {
                    continue;
                }
                let trace = scratch(&format!("{name}-{xlen}-{i}.encap"));
                let mut args = vec!["encode", "--elf", program.as_str(), "--framing", "encap"];
                if let Some(map) = &memory {
                    args.extend(["-m", map]);
                }
                args.extend(set.iter().copied());
                args.extend(["-o", &trace]);
                let out = etrace(&args);
                // A program that exits non-zero fails `encode`, after the trace is written.
                let code = if exit_code == 0 { 0 } else { 1 };
                common::assert_code(&out, code, &format!("encode {args:?}"));
                let what = format!("{name}-{xlen} {set:?}");
                let decode = ["decode", &trace, "--elf", &program, "--framing", "encap"];
                let format = if i == 1 { "json" } else { "elements" };
                let mut args = decode.to_vec();
                if i == 1 {
                    args.extend(["--params", &params]);
                }
                args.extend(["--format", format]);
                let out = same_with_jobs(&args, &what);
                common::assert_code(&out, 0, &what);
                if i == 2 && name != "workload" {
                    let mut args = decode.to_vec();
                    args[0] = "calltree";
                    same_with_jobs(&args, &format!("calltree {what}"));
                }
            }
        }
    }
}

/// The hostile corpus (`tests/data/hostile`), decoded as smi and encap.
#[test]
fn parallel_decode_equals_sequential_on_the_hostile_corpus() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile");
    let traps = elf("traps-rv32.elf");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let path = file.display().to_string();
        for framing in ["smi", "encap"] {
            let args = ["decode", &path, "--elf", &traps, "--framing", framing];
            same_with_jobs(&args, &format!("{path} {framing}"));
        }
    }
}

/// Real traces with seeded damage: bit flips, garbage, deleted runs, truncation.
#[test]
fn parallel_decode_equals_sequential_on_damaged_streams() {
    let mut rng = Rng::new(27);
    for (program, framing) in [("traps-rv32", "smi"), ("recursion-rv64", "encap")] {
        let elf = elf(&format!("{program}.elf"));
        let clean = scratch(&format!("{program}-damaged.{framing}"));
        let args = [
            "encode",
            "--elf",
            &elf,
            "--framing",
            framing,
            "--resync-max",
            "8",
        ];
        let out = etrace(&[&args[..], &["-o", &clean]].concat());
        common::assert_code(&out, 0, "encode");
        let original = std::fs::read(&clean).unwrap();
        for case in 0..8u64 {
            let mut data = original.clone();
            let len = data.len() as u64;
            let at = rng.below(len) as usize;
            match case % 4 {
                0 => data[at] ^= 1 << rng.below(8),
                1 => data
                    .splice(at..at, (0..1 + rng.below(48)).map(|_| rng.next_u64() as u8))
                    .for_each(drop),
                2 => data
                    .drain(at..(at + 1 + rng.below(64) as usize).min(data.len()))
                    .for_each(drop),
                _ => data.truncate(at.max(1)),
            }
            let path = out_dir().join(format!("{program}-{framing}-damaged-{case}.bin"));
            std::fs::write(&path, &data).unwrap();
            let path = path.display().to_string();
            let args = ["decode", &path, "--elf", &elf, "--framing", framing];
            same_with_jobs(&args, &format!("{path} (case {case})"));
        }
    }
}
