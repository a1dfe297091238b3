//! Time and peak resident memory of a command run as a child process (the long-run table,
//! issue 27). A child forked from a large process inherits that process's resident size
//! in its `ru_maxrss`: Linux keeps the larger of the old and the new image's peak across
//! `exec`. So `etrace-bench`, which holds hundreds of MiB by the time it reaches the long
//! runs, does not start the command itself: it starts a fresh copy of itself as a small
//! runner (`etrace-bench --run-child OUT BIN ARGS...`), which starts the command, reaps it
//! with `wait4` and prints what it cost. The figure is then the command's own peak (or the
//! runner's couple of MiB, if that were larger).

use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// The first argument that makes `etrace-bench` the runner.
pub const RUNNER_FLAG: &str = "--run-child";

/// What one run of a command cost.
pub struct Cost {
    /// Wall time from start to exit.
    pub seconds: f64,
    /// Peak resident memory, KiB.
    pub max_rss_kib: u64,
    /// What the command wrote to standard output.
    pub stdout: String,
}

/// Runs `bin args` through the runner, standard output captured: its cost, or why it
/// failed (the first line of its standard error when it exits with another code than 0).
pub fn measured(bin: &Path, args: &[&str]) -> Result<Cost, String> {
    let out = std::env::temp_dir().join(format!("etrace-bench-{}.out", std::process::id()));
    let me = std::env::current_exe().map_err(|e| format!("{e} (etrace-bench's own path)"))?;
    let ran = Command::new(me)
        .arg(RUNNER_FLAG)
        .arg(&out)
        .arg(bin)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{e} (etrace-bench {RUNNER_FLAG})"))?;
    let stdout = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    let report = String::from_utf8_lossy(&ran.stdout);
    let stderr = String::from_utf8_lossy(&ran.stderr);
    let fields: Vec<&str> = report.split_whitespace().collect();
    let [code, seconds, kib] = fields[..] else {
        return Err(format!(
            "the runner reported nothing for {} ({})",
            args.first().unwrap_or(&""),
            stderr.lines().next().unwrap_or("no message")
        ));
    };
    if code != "0" {
        return Err(format!(
            "etrace {} failed ({}): {}",
            args.first().unwrap_or(&""),
            code,
            stderr.lines().next().unwrap_or("no message")
        ));
    }
    let number = |s: &str| format!("the runner's report is not understood: {s}");
    Ok(Cost {
        seconds: seconds.parse().map_err(|_| number(seconds))?,
        max_rss_kib: kib.parse().map_err(|_| number(kib))?,
        stdout,
    })
}

/// The runner: `OUT BIN ARGS...` (the arguments after [`RUNNER_FLAG`]). Starts `BIN ARGS`
/// with standard output into the file OUT and standard error passed on, waits for it and
/// prints `CODE SECONDS MAX_RSS_KIB` (CODE is the exit code, or `signal-N`). Exit code 0
/// when it could do so, 2 for bad usage or a command that could not be started.
// The child is reaped by `wait4` (which also gives its resource usage), not `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn runner(args: &[String]) -> ExitCode {
    let [out, bin, rest @ ..] = args else {
        eprintln!("error: usage: {RUNNER_FLAG} OUT BIN ARGS... (etrace-bench)");
        return ExitCode::from(2);
    };
    let file = match std::fs::File::create(out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e} ({out})");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let child = match Command::new(bin).args(rest).stdout(file).spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e} ({bin})");
            return ExitCode::from(2);
        }
    };
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet reaped (it is reaped here, not by `Child::wait`:
    // wait4 also gives its resource usage); the pointers are valid.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let seconds = started.elapsed().as_secs_f64();
    if r != pid {
        eprintln!("error: wait4 failed ({bin})");
        return ExitCode::from(2);
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status).to_string()
    } else {
        format!("signal-{}", libc::WTERMSIG(status))
    };
    println!("{code} {seconds:.6} {}", usage.ru_maxrss.max(0));
    ExitCode::SUCCESS
}
