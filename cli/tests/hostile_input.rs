//! Hostile input (`docs/cli.md`, "Exit codes" and "Parameter files"): inputs that never end,
//! that are empty, that are garbage, or that once made a command misbehave. Each case is a
//! command line, the exit code it must give, what its error must say and how much output
//! it may write; the corpus `tests/data/hostile/` holds the inputs that once misbehaved,
//! each replayed here (a test checks that every file of the corpus has a case).
//!
//! Corpus: `loop-traps-rv32-*.smi` are Siemens-framed traces of `traps-rv32.elf` with a few
//! corrupted bytes whose decode once walked 2^26 instructions per packet into the `j .` of
//! `exit` (seconds and gigabytes); `garbage-4k.bin` is seeded random bytes.

use std::path::PathBuf;
use std::time::{Duration, Instant};

mod common;
use common::{elf, etrace, out_dir};

/// A file of the corpus.
fn hostile(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile")
        .join(name)
        .display()
        .to_string()
}

/// A scratch file with `contents`.
fn scratch(name: &str, contents: &[u8]) -> String {
    let path = out_dir().join(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

struct Case {
    /// The command line.
    args: Vec<String>,
    /// The exit code.
    code: i32,
    /// Texts the first stderr line (`error: ...`) must hold.
    error: &'static [&'static str],
    /// Most bytes of standard output.
    max_stdout: usize,
    /// The corpus file the case replays, if any.
    corpus: Option<&'static str>,
}

fn case(args: &[&str], code: i32, error: &'static [&'static str], max_stdout: usize) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        code,
        error,
        max_stdout,
        corpus: None,
    }
}

/// Most time a case may take (a debug build; the misbehaving inputs took seconds to
/// minutes in a release build).
const MAX_TIME: Duration = Duration::from_secs(20);

fn cases() -> Vec<Case> {
    let traps = elf("traps-rv32.elf");
    let empty = scratch("empty.bin", b"");
    let zeros = scratch("zeros.bin", &[0u8; 1 << 16]);
    let csv = scratch(
        "one.csv",
        b"VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n",
    );
    let ei = out_dir().join("x.ei").display().to_string();
    let garbage = hostile("garbage-4k.bin");
    let mut cases = Vec::new();
    for name in [
        "loop-traps-rv32-a.smi",
        "loop-traps-rv32-b.smi",
        "loop-traps-rv32-c.smi",
        "loop-traps-rv32-d.smi",
    ] {
        let file = hostile(name);
        let mut c = case(
            &["decode", &file, "--elf", &traps, "--framing", "smi"],
            1,
            &["decode errors"],
            64 << 10,
        );
        c.corpus = Some(name);
        cases.push(c);
    }
    for framing in ["smi", "encap"] {
        let mut c = case(
            &["decode", &garbage, "--elf", &traps, "--framing", framing],
            1,
            &["decode errors"],
            16 << 10,
        );
        c.corpus = Some("garbage-4k.bin");
        cases.push(c);
        let mut c = case(
            &["dump", &garbage, "--rv32", "--framing", framing],
            1,
            &["framing or packet errors"],
            64 << 10,
        );
        c.corpus = Some("garbage-4k.bin");
        cases.push(c);
    }
    cases.extend([
        // An empty trace, a trace of idle bytes only.
        case(
            &["decode", &empty, "--elf", &traps, "--framing", "encap"],
            2,
            &["empty trace"],
            0,
        ),
        case(
            &["dump", &empty, "--rv32", "--framing", "encap"],
            2,
            &["empty trace"],
            0,
        ),
        case(
            &["calltree", &empty, "--elf", &traps, "--framing", "encap"],
            2,
            &["empty trace"],
            0,
        ),
        case(
            &["decode", &zeros, "--elf", &traps, "--framing", "encap"],
            2,
            &["no te_inst packets"],
            0,
        ),
        case(
            &["dump", &zeros, "--rv32", "--framing", "encap"],
            2,
            &["no te_inst packets"],
            0,
        ),
        // Files read whole that never end.
        case(
            &["decode", &zeros, "--elf", "/dev/zero", "--framing", "encap"],
            2,
            &["larger than 268435456 bytes", "/dev/zero"],
            0,
        ),
        case(
            &["iss", "/dev/zero"],
            2,
            &["larger than 268435456 bytes"],
            0,
        ),
        case(
            &[
                "decode",
                &zeros,
                "--elf",
                &traps,
                "--params",
                "/dev/zero",
                "--framing",
                "encap",
            ],
            2,
            &["larger than 1048576 bytes", "/dev/zero"],
            0,
        ),
        case(
            &[
                "encode",
                "--spike-csv",
                &csv,
                "--params",
                "/dev/zero",
                "--framing",
                "encap",
                "-o",
                &ei,
            ],
            2,
            &["larger than 1048576 bytes"],
            0,
        ),
        // A CSV that never ends a line.
        case(
            &[
                "convert",
                "--spike-csv",
                "/dev/zero",
                "--encoder-input",
                &ei,
            ],
            2,
            &["longer than 65536 bytes", "line 1"],
            0,
        ),
        // dump refuses to guess the field widths.
        case(
            &["dump", &garbage, "--framing", "smi"],
            2,
            &["field widths", "--rv32"],
            0,
        ),
    ]);
    cases
}

/// Every case: exit code, first error line, bounded output and time, no panic.
#[test]
fn hostile_inputs_end_with_the_contracted_error() {
    for c in cases() {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let started = Instant::now();
        let out = etrace(&args);
        let took = started.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let what = format!("etrace {}", c.args.join(" "));
        assert_eq!(out.status.code(), Some(c.code), "{what}\n{stderr}");
        let first = stderr.lines().next().unwrap_or("");
        assert!(first.starts_with("error: "), "{what}: first line {first}");
        for needle in c.error {
            assert!(first.contains(needle), "{what}: `{needle}` not in {first}");
        }
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(
            out.stderr
                .iter()
                .all(|&b| b == b'\n' || (b' '..=b'~').contains(&b)),
            "{what}: stderr is not printable ASCII: {stderr}"
        );
        assert!(
            out.stdout.len() <= c.max_stdout,
            "{what}: {} bytes of output",
            out.stdout.len()
        );
        assert!(took < MAX_TIME, "{what}: took {took:?}");
    }
}

/// The corrupted traces that once walked 2^26 instructions per packet now end each such
/// walk at the loop, with the decode error naming it.
#[test]
fn looping_walks_are_reported_as_loops() {
    let traps = elf("traps-rv32.elf");
    for c in cases()
        .iter()
        .filter(|c| c.corpus.is_some_and(|f| f.starts_with("loop-")))
    {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let out = etrace(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("never reached: the path loops at 0x80000052 without a branch"),
            "{args:?} with {traps}:\n{stdout}"
        );
    }
}

/// A run of garbage is reported once with its extent, not once per unreadable packet.
#[test]
fn garbage_runs_are_reported_once() {
    let traps = elf("traps-rv32.elf");
    let garbage = hostile("garbage-4k.bin");
    let out = etrace(&["decode", &garbage, "--elf", &traps, "--framing", "smi"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let errors: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("decode-error"))
        .collect();
    let merged = errors
        .iter()
        .filter(|l| l.contains("more errors through packet #"))
        .count();
    assert!(merged > 0, "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let count: usize = stderr
        .strip_prefix("error: ")
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(count, errors.len(), "one error per run: {stderr}");
}

/// Every file of the corpus is replayed by a case.
#[test]
fn every_corpus_file_is_replayed() {
    let replayed: Vec<&str> = cases().iter().filter_map(|c| c.corpus).collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        assert!(replayed.contains(&name.as_str()), "{name} is not replayed");
    }
}

/// An output that is one of the inputs is refused, and the input is left as it was.
#[test]
fn an_output_over_an_input_is_refused() {
    let traps = elf("traps-rv32.elf");
    let trace = scratch(
        "over.smi",
        &std::fs::read(hostile("loop-traps-rv32-a.smi")).unwrap(),
    );
    let before = std::fs::read(&trace).unwrap();
    let out = etrace(&[
        "decode",
        &trace,
        "--elf",
        &traps,
        "--framing",
        "smi",
        "-o",
        &trace,
    ]);
    common::assert_input_error(&out, &["refusing to overwrite", "--output"]);
    assert_eq!(std::fs::read(&trace).unwrap(), before);
    let out = etrace(&[
        "decode",
        &trace,
        "--elf",
        &traps,
        "--framing",
        "smi",
        "-o",
        &traps,
    ]);
    common::assert_input_error(&out, &["refusing to overwrite"]);
}

/// `gen-verilog --help` says the FIFO depths the generator accepts; yosys missing is a
/// usage error (exit 2), not a failed check.
#[test]
fn gen_verilog_says_what_it_accepts() {
    let help = String::from_utf8(etrace(&["gen-verilog", "--help"]).stdout).unwrap();
    assert!(
        help.contains("16, 32, 64, 128 or 256 bytes (64 with atb)"),
        "{help}"
    );
    assert!(!help.contains("4096"), "{help}");
    let hw = out_dir().join("hw-no-yosys").display().to_string();
    let nowhere = out_dir().join("empty-path");
    std::fs::create_dir_all(&nowhere).unwrap();
    let out = common::etrace_env(
        &["gen-verilog", "--config", "rv32", "-o", &hw],
        &[("PATH", nowhere.as_path())],
    );
    common::assert_input_error(&out, &["cannot run yosys", "--no-check"]);
}

/// A closed standard output ends a command quietly (no panic, no error line): the reader
/// goes away after the first line of an output far larger than a pipe's buffer, so the
/// command certainly writes into the closed pipe.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let loops = elf("loops-rv32.elf");
    let trace = out_dir().join("loops.encap").display().to_string();
    let enc = etrace(&[
        "encode",
        "--elf",
        &loops,
        "--framing",
        "encap",
        "-o",
        &trace,
    ]);
    common::assert_code(&enc, 0, "encode");
    let args = [
        "decode",
        &trace,
        "--elf",
        &loops,
        "--framing",
        "encap",
        "--format",
        "pcs",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_etrace"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The pipe's reading end is closed here; the output is about 500 KiB.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(first.starts_with("0x"), "{first}");
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
}

/// `capture` on a FIFO that no writer ever opens ends after `--timeout` / `--duration`
/// (it used to block in open()).
#[test]
fn capture_honours_its_time_limits_from_the_start() {
    let traps = elf("traps-rv32.elf");
    let fifo = out_dir().join("no-writer.fifo");
    let _ = std::fs::remove_file(&fifo);
    let path = std::ffi::CString::new(fifo.display().to_string()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    let fifo = fifo.display().to_string();
    for (limit, said) in [("--timeout", "--timeout"), ("--duration", "--duration")] {
        let started = Instant::now();
        let out = etrace(&["capture", "--serial", &fifo, "--elf", &traps, limit, "1"]);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(10), "{limit}: took {took:?}");
        common::assert_code(&out, 1, limit);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("no bytes received") && stderr.contains(said),
            "{stderr}"
        );
    }
}
