//! Helpers of the command-line tests: running the built `etrace`, the test programs, a
//! scratch folder per test binary, and the checks of the error contract (`docs/cli.md`,
//! "Exit codes and errors").

#![allow(dead_code)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Runs the built `etrace` with `args`.
pub fn etrace(args: &[&str]) -> Output {
    etrace_env(args, &[])
}

/// Runs the built `etrace` with `args` and extra environment variables.
pub fn etrace_env(args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_etrace"));
    command.args(args);
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("etrace runs")
}

/// The path of a built test program, `programs/elf/<file>` (e.g. `traps-rv32.elf`).
pub fn elf(file: &str) -> String {
    etrace_programs::elf_dir().join(file).display().to_string()
}

/// A scratch folder of this test binary (created).
pub fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(env!("CARGO_CRATE_NAME"));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Round counts of the memory tests' two runs of the scaling program (about 1.6 and 4.7
/// million instructions).
pub const SCALING_ROUNDS: [u32; 2] = [1, 3];
/// Peak memory allowed for any run of a memory test.
pub const MAX_RSS_KIB: i64 = 100 << 10;
/// Growth allowed from a memory test's shorter run to its longer one.
pub const GROWTH_KIB: i64 = 8 << 10;

/// The memory tests' bounds for `command`: the peak memory (KiB) of its shorter and its
/// longer run (each with its instruction count) at most [`MAX_RSS_KIB`], the longer run
/// (at least 2.5 times as many instructions) at most [`GROWTH_KIB`] above the shorter.
pub fn assert_memory_bounded(command: &str, short: (i64, u64), long: (i64, u64)) {
    assert!(
        2 * long.1 >= 5 * short.1,
        "{command}: the longer run is not longer: {} vs {} instructions",
        long.1,
        short.1
    );
    assert!(
        short.0 <= MAX_RSS_KIB && long.0 <= MAX_RSS_KIB,
        "{command}: peak {} / {} KiB, bound {MAX_RSS_KIB} KiB",
        short.0,
        long.0
    );
    assert!(
        long.0 <= short.0 + GROWTH_KIB,
        "{command}: peak memory grows from {} KiB ({} instructions) to {} KiB ({} \
         instructions)",
        short.0,
        short.1,
        long.0,
        long.1
    );
}

/// A copy of the scaling program's RV32 ELF with `rounds` rounds
/// (`etrace_programs::scaling_elf`), written in the scratch folder as
/// `<stem>-<rounds>.elf`.
pub fn scaling_elf(stem: &str, rounds: u32) -> PathBuf {
    let base = std::fs::read(etrace_programs::elf_path("scaling-rv32")).expect("scaling ELF");
    let elf = out_dir().join(format!("{stem}-{rounds}.elf"));
    std::fs::write(&elf, etrace_programs::scaling_elf(&base, rounds).unwrap()).unwrap();
    elf
}

/// The number of the statistics line `key: N ...` of a command's output.
pub fn stat(stdout: &str, key: &str) -> u64 {
    let rest = stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no `{key}:` line in\n{stdout}"));
    rest.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("`{key}:` is not a number in\n{stdout}"))
}

/// The exit code is `code` (`what` is said, with both outputs, if not).
pub fn assert_code(out: &Output, code: i32, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Exit code 2, a first stderr line `error: ...`, every `needle` in stderr, no panic.
pub fn assert_input_error(out: &Output, needles: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    let first = stderr.lines().next().unwrap_or("");
    assert!(first.starts_with("error: "), "first line: {first}");
    for n in needles {
        assert!(stderr.contains(n), "`{n}` not in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `etrace ARGS` fails with exit code 2, its first line of error naming `needle`.
pub fn check_usage_error(args: &[&str], needle: &str) {
    let out = etrace(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    let first = stderr.lines().next().unwrap();
    assert!(
        first.starts_with("error: ") && first.contains(needle),
        "{args:?}: {first}"
    );
}

/// Runs the built `etrace` with `args`, checks that it succeeds (exit code 0, both outputs
/// said if not) and returns its standard output.
pub fn etrace_ok(args: &[&str]) -> String {
    let out = etrace(args);
    assert_code(&out, 0, &format!("etrace {}", args.join(" ")));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The path of `name` in this test binary's scratch folder ([`out_dir`]), as a string.
pub fn scratch(name: &str) -> String {
    out_dir().join(name).display().to_string()
}

/// The programs of `programs/manifest.toml`: name, `memory` map (`-m`), `exit_code`.
pub fn manifest_programs() -> Vec<(String, Option<String>, i64)> {
    let dir = etrace_programs::dir();
    let tables = etrace_programs::manifest_tables(&dir).expect("manifest");
    assert!(
        tables.len() >= 9,
        "programs in the manifest: {}",
        tables.len()
    );
    tables
        .iter()
        .map(|t| {
            let name = t["name"].as_str().expect("name").to_string();
            let memory = etrace_programs::manifest_memory(&dir, &name).expect("memory");
            (
                name,
                memory,
                t["exit_code"].as_integer().expect("exit_code"),
            )
        })
        .collect()
}

/// What one run of the built binary cost ([`measured`]).
pub struct Cost {
    /// Exit code (none when killed by a signal).
    pub code: Option<i32>,
    /// Peak resident memory, KiB (`wait4`'s `ru_maxrss`).
    pub max_rss_kib: i64,
    /// Bytes written to standard output.
    pub output_bytes: u64,
    /// Wall time.
    pub took: Duration,
}

/// Runs the built `etrace` with `args`, standard output into the file `stdout` (standard
/// error into the same name with `.err` appended); its peak memory from `wait4`. A run
/// longer than `max_time` is killed and fails the test.
// The child is reaped by `wait4` (which also gives its resource usage), not `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn measured(args: &[&str], stdout: &Path, max_time: Duration) -> Cost {
    let started = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_etrace"))
        .args(args)
        // Two malloc arenas, however many threads: the peak no longer varies by a few
        // MiB with the threads' arenas from one run to the next.
        .env("MALLOC_ARENA_MAX", "2")
        .stdout(File::create(stdout).unwrap())
        .stderr(File::create(stdout.with_extension("err")).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is our child, not yet reaped; the pointers are valid.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(r >= 0, "wait4 failed");
        if r == pid {
            break;
        }
        if started.elapsed() > max_time {
            // SAFETY: signals our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("etrace {args:?} still running after {max_time:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Cost {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        max_rss_kib: usage.ru_maxrss,
        output_bytes: std::fs::metadata(stdout).unwrap().len(),
        took: started.elapsed(),
    }
}

/// Checks that the FuseSoC core text `core` declares each `(name, datatype, default)` as a
/// CAPI2 parameter (`etrace gen-verilog`'s `.core` file).
pub fn assert_core_parameters(core: &str, expected: &[(&str, &str, &str)]) {
    for (name, datatype, value) in expected {
        assert!(
            core.contains(&format!(
                "  {name}:\n    datatype: {datatype}\n    default: {value}\n"
            )),
            "{name} = {value} missing:\n{core}"
        );
    }
}
