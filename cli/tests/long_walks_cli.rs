//! Corrupted traces whose packets stand for billions of instructions (`payload.adoc`
//! "Format 0 packets": `branch_count` is 32 bits), decoded by the built binary with their
//! cost measured; and the bound of `--jobs` (`docs/cli.md`, `etrace decode`).
//!
//! Data: `tests/data/long_walks/recursion-rv32-count-byte165.smi` is a Siemens-framed
//! trace of `recursion-rv32.elf` (`--src-bits 8 --src-id 3 --timestamp
//! --branch-prediction --implicit-return`) with byte 165 set to 0x68, which turns packet 19
//! into a count of 3571373274 branches; `calltree` once wrote 43 GB for it, or with
//! `--limit` printed its listing and then ran on for good.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{check_usage_error, elf, etrace, measured, out_dir};

/// Most time a run may take (a debug build).
const MAX_TIME: Duration = Duration::from_secs(20);
/// Peak memory allowed (a clean decode of these programs takes about 10 MiB).
const MAX_RSS_KIB: i64 = 64 << 10;

/// An encap stream of `recursion-rv32.elf` traced with branch prediction and implicit
/// return (as `etrace dump` lists it): the synchronisation sequence (31 zero bytes and
/// 0x80); #0 support
/// (`ioptions` implicit_return, branch_prediction); #1 start at 0x80000000; #2 a format 0
/// packet of 0xffffffff + 31 correctly predicted branches then a failed prediction (the
/// corrupted packet); #3 start at 0x80000000.
fn bigcount_stream() -> Vec<u8> {
    let mut bytes = vec![0u8; 31];
    bytes.extend([0x80, 0x02, 0x1f, 0x11]);
    bytes.extend([0x05, 0x73, 0x00, 0x00, 0x00, 0xe0]);
    bytes.extend([0x05, 0xfc, 0xff, 0xff, 0xff, 0x03]);
    bytes.extend([0x05, 0x73, 0x00, 0x00, 0x00, 0xe0]);
    bytes
}

#[test]
fn a_corrupted_branch_count_gives_a_bounded_listing_and_its_error() {
    let trace = out_dir().join("bigcount.encap");
    std::fs::write(&trace, bigcount_stream()).unwrap();
    let trace = trace.display().to_string();
    let program = elf("recursion-rv32.elf");
    for jobs in ["1", "2"] {
        let out = out_dir().join(format!("bigcount-j{jobs}.pcs"));
        let args = [
            "decode",
            &trace,
            "--elf",
            &program,
            "--framing",
            "encap",
            "--format",
            "pcs",
            "-j",
            jobs,
        ];
        let cost = measured(&args, &out, MAX_TIME);
        let what = format!(
            "-j {jobs}: exit {:?}, {} bytes, {} KiB, {:?}",
            cost.code, cost.output_bytes, cost.max_rss_kib, cost.took
        );
        assert_eq!(cost.code, Some(1), "{what}");
        // The walk's first 4096 ranges (of 4 instructions) before the error: once the
        // walk's 67108864 instructions, 738 MB.
        assert!(cost.output_bytes < 1 << 20, "{what}");
        assert!(cost.max_rss_kib < MAX_RSS_KIB, "{what}");
        let stderr = std::fs::read_to_string(out.with_extension("err")).unwrap();
        let want = [
            "error: 1 decode errors (",
            "  decode-error packet #2 @0x29: address 0x80000000 not reached within 67108864 \
             instructions, or 65536 without a branch",
        ];
        let lines: Vec<&str> = stderr.lines().collect();
        assert!(lines.len() == 3, "{what}: {stderr}");
        assert!(lines[0].starts_with(want[0]), "{what}: {stderr}");
        assert_eq!(lines[1], want[1], "{what}");
        // The bound named with the option that raises it.
        assert!(
            lines[2].starts_with("  a walk not reached within 67108864 instructions may be")
                && lines[2].ends_with("(--max-walk raises the bound)"),
            "{what}: {stderr}"
        );
    }
}

/// Runs the built `etrace` with `args`, reading at most `most` bytes of its standard
/// output (the run is killed beyond, or after [`MAX_TIME`]): the exit code and the bytes
/// written.
fn capped(args: &[&str], most: usize) -> (Option<i32>, usize) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_etrace"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut total = 0;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = stdout.read(&mut buf).unwrap();
        total += n;
        if n == 0 {
            break;
        }
        if total > most || started.elapsed() > MAX_TIME {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?}: {total} bytes after {:?}", started.elapsed());
        }
    }
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > MAX_TIME {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?}: still running after {MAX_TIME:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (status.code(), total)
}

#[test]
fn calltree_of_a_corrupted_count_ends_with_a_bounded_listing() {
    let trace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/long_walks/recursion-rv32-count-byte165.smi")
        .display()
        .to_string();
    let program = elf("recursion-rv32.elf");
    let base = [
        "calltree",
        trace.as_str(),
        "--elf",
        program.as_str(),
        "--framing",
        "smi",
        "--src-bits",
        "8",
        "--timestamp",
    ];
    // (extra options, most bytes of standard output)
    let cases: [(&[&str], usize); 2] = [
        (&[], 4 << 20),
        (&["--limit", "50", "--max-depth", "5"], 16 << 10),
    ];
    for (extra, most) in cases {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let (code, written) = capped(&args, most);
        assert_eq!(code, Some(1), "{extra:?}: {written} bytes");
    }
}

#[test]
fn jobs_are_at_most_256() {
    let trace = out_dir().join("loops.encap").display().to_string();
    let program = elf("loops-rv32.elf");
    let out = etrace(&[
        "encode",
        "--elf",
        &program,
        "--framing",
        "encap",
        "-o",
        &trace,
    ]);
    common::assert_code(&out, 0, "encode");
    let decode = |jobs: &str| {
        etrace(&[
            "decode",
            &trace,
            "--elf",
            &program,
            "--framing",
            "encap",
            "-j",
            jobs,
        ])
    };
    let want = decode("1");
    common::assert_code(&want, 0, "-j 1");
    let got = decode("256");
    common::assert_code(&got, 0, "-j 256");
    assert!(got.stdout == want.stdout, "-j 256: output differs");
    check_usage_error(
        &[
            "decode",
            &trace,
            "--elf",
            &program,
            "--framing",
            "encap",
            "-j",
            "257",
        ],
        "257",
    );
}

/// A sound trace whose one packet stands for millions of instructions: the scaling
/// program with a spin loop of 1.2 million turns (6 million instructions, one branch
/// taken every turn), traced with branch prediction, is one format 0 packet for the whole
/// loop. `etrace run` holds the hart's steps while the decoder waits for that packet
/// (past the check's 4,194,304 steps one by one, as digests) and decodes the packet's
/// walk in pieces: it verifies every step, in bounded memory (a run once stopped with
/// "the hart ran more than 4194304 steps ahead").
#[test]
fn run_verifies_a_loop_that_is_one_format_0_packet() {
    let elf = spin_elf("scaling-spin.elf");
    let stdout = out_dir().join("scaling-spin.out");
    let run = measured(
        &["run", elf.to_str().unwrap(), "--branch-prediction"],
        &stdout,
        Duration::from_secs(120),
    );
    let text = std::fs::read_to_string(&stdout).unwrap();
    assert_eq!(run.code, Some(0), "{text}");
    let steps = common::stat(&text, "verified");
    assert!(steps > 7_500_000, "{text}");
    assert!(run.max_rss_kib < 200 << 10, "{} KiB", run.max_rss_kib);
}

/// The scaling program with a spin loop of 1.2 million turns (6 million instructions),
/// written to `name` in the test's folder.
fn spin_elf(name: &str) -> PathBuf {
    let base = std::fs::read(etrace_programs::elf_path("scaling-rv32")).unwrap();
    let elf = out_dir().join(name);
    std::fs::write(
        &elf,
        etrace_programs::scaling_elf_spin(&base, 1_200_000).unwrap(),
    )
    .unwrap();
    elf
}

/// `--max-walk N` is the decoder's bound of instructions for one packet (`docs/cli.md`,
/// `etrace decode`): the spin loop's format 0 packet (6 million instructions) decodes
/// under the default bound (2^26) and is a decode error under a bound of 10^6, naming it
/// and the option; 0 and N-Trace are refused.
#[test]
fn decode_follows_one_packet_up_to_max_walk() {
    let elf = spin_elf("scaling-spin-decode.elf");
    let elf = elf.to_str().unwrap();
    let trace = out_dir().join("scaling-spin.encap");
    let trace = trace.to_str().unwrap();
    let encode = etrace(&[
        "encode",
        "--elf",
        elf,
        "--branch-prediction",
        "--framing",
        "encap",
        "-o",
        trace,
    ]);
    assert_eq!(encode.status.code(), Some(0), "{encode:?}");
    // The arguments of a command line, `{trace}` and `{elf}` replaced.
    let words = |line: &str| -> Vec<String> {
        line.replace("{trace}", trace)
            .replace("{elf}", elf)
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let decode = |extra: &str| {
        let args = words(&format!(
            "decode {{trace}} --elf {{elf}} --framing encap --format pcs {extra}"
        ));
        etrace(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let whole = decode("");
    assert_eq!(whole.status.code(), Some(0), "{whole:?}");
    let pcs = whole.stdout.iter().filter(|&&b| b == b'\n').count();
    assert!(pcs > 7_500_000, "{pcs}");
    let cut = decode("--max-walk 1000000");
    assert_eq!(cut.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&cut.stderr);
    assert!(
        stderr.contains("not reached within 1000000 instructions"),
        "{stderr}"
    );
    assert!(stderr.contains("(--max-walk raises the bound)"), "{stderr}");
    for line in [
        "decode {trace} --elf {elf} --framing encap --max-walk 0",
        "decode {trace} --elf {elf} --protocol ntrace --max-walk 9",
    ] {
        let args = words(line);
        check_usage_error(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            "--max-walk",
        );
    }
}
