//! Long runs from the command line (issue 27, "Done when"): `etrace run` and `etrace decode`
//! (the release binary beside `etrace-bench`, run as a child process) on the scaling
//! program with its round count patched into a copy of the ELF, with the time and the peak
//! resident memory (`wait4`'s `ru_maxrss`) of each, and verdicts on how both grow.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::programs::{Program, SCALING};
use crate::speed::verdict;
use crate::table::{duration, short, sig3, Table};

/// Instructions one round of the scaling program retires (about; the rows give the count
/// of each run).
const PER_ROUND: u64 = 1_566_000;

/// Memory is "flat" when the largest peak is within this factor of the smallest.
const FLAT_FACTOR: f64 = 1.25;

/// What one child process cost.
struct Cost {
    seconds: f64,
    max_rss_kib: u64,
    stdout: String,
}

/// Runs `bin args`, its standard output captured; its time and peak resident memory (from
/// `wait4`), or why it failed.
// The child is reaped by `wait4` (which also gives its resource usage), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn measured(bin: &Path, args: &[&str]) -> Result<Cost, String> {
    let out = std::env::temp_dir().join(format!("etrace-bench-{}.out", std::process::id()));
    let file = std::fs::File::create(&out).map_err(|e| format!("{e} ({})", out.display()))?;
    let started = Instant::now();
    let child = Command::new(bin)
        .args(args)
        .stdout(file)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{e} ({})", bin.display()))?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet reaped; the pointers are valid.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let seconds = started.elapsed().as_secs_f64();
    let stdout = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    if r != pid {
        return Err(format!("wait4 failed for etrace {}", args.join(" ")));
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        let mut stderr = String::new();
        if let Some(mut e) = child.stderr {
            use std::io::Read;
            let _ = e.read_to_string(&mut stderr);
        }
        return Err(format!(
            "etrace {} failed: {}",
            args.first().unwrap_or(&""),
            stderr.lines().next().unwrap_or("no message")
        ));
    }
    Ok(Cost {
        seconds,
        max_rss_kib: usage.ru_maxrss.max(0) as u64,
        stdout,
    })
}

/// The measurements at one size: instructions retired, `run`, `decode`.
struct Point {
    instructions: u64,
    run: Cost,
    decode: Cost,
    trace_bytes: u64,
}

/// `etrace run` on the program with `rounds` rounds, then `etrace encode` of it and
/// `etrace decode` of that trace (elements to /dev/null).
fn point(bin: &Path, program: &Program, rounds: u32, dir: &Path) -> Result<Point, String> {
    let elf = dir.join(format!("{}-{rounds}.elf", program.name));
    let trace = dir.join(format!("{}-{rounds}.encap", program.name));
    let patched = etrace_programs::scaling_elf(&program.elf, rounds).map_err(|e| e.to_string())?;
    std::fs::write(&elf, patched).map_err(|e| format!("{e} ({})", elf.display()))?;
    let (elf_s, trace_s) = (path_str(&elf)?, path_str(&trace)?);
    let limit = "--max-instructions=1000000000000";
    let run = measured(bin, &["run", elf_s, limit])?;
    let instructions = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("instructions: "))
        .and_then(|n| n.trim().parse().ok())
        .ok_or("etrace run printed no instruction count")?;
    measured(
        bin,
        &[
            "encode",
            "--elf",
            elf_s,
            limit,
            "--framing",
            "encap",
            "-o",
            trace_s,
        ],
    )?;
    let trace_bytes = std::fs::metadata(&trace).map_or(0, |m| m.len());
    let decode = measured(
        bin,
        &[
            "decode",
            trace_s,
            "--framing",
            "encap",
            "--elf",
            elf_s,
            "-o",
            "/dev/null",
        ],
    )?;
    let _ = std::fs::remove_file(&trace);
    let _ = std::fs::remove_file(&elf);
    Ok(Point {
        instructions,
        run,
        decode,
        trace_bytes,
    })
}

fn path_str(p: &Path) -> Result<&str, String> {
    p.to_str()
        .ok_or_else(|| format!("not a UTF-8 path: {}", p.display()))
}

/// "flat in memory" when the peaks lie within [`FLAT_FACTOR`] of each other, else how
/// they grow.
pub fn memory_verdict(peaks_kib: &[u64]) -> String {
    let (Some(&min), Some(&max)) = (peaks_kib.iter().min(), peaks_kib.iter().max()) else {
        return "not measured".to_string();
    };
    let mib = |k: u64| format!("{:.1} MiB", k as f64 / 1024.0);
    let first = peaks_kib[0];
    let last = peaks_kib[peaks_kib.len() - 1];
    if peaks_kib.len() >= 2 && max as f64 <= min.max(1) as f64 * FLAT_FACTOR {
        format!(
            "flat in memory: peak resident memory {} to {} (within {:.0} %)",
            mib(min),
            mib(max),
            100.0 * (max as f64 / min.max(1) as f64 - 1.0)
        )
    } else if peaks_kib.len() < 2 {
        "not measured".to_string()
    } else {
        format!(
            "not flat in memory: peak resident memory {} at the smallest size, {} at the \
             largest",
            mib(first),
            mib(last)
        )
    }
}

/// The section: `etrace run` and `etrace decode` at about `sizes` instructions (the
/// scaling program of `target` with enough rounds; the smallest run is one round).
pub fn section(programs: &Path, target: &str, sizes: &[u64], dir: &Path) -> String {
    let name = format!("{SCALING}-{target}");
    let bin: PathBuf = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("etrace")))
        .unwrap_or_else(|| PathBuf::from("etrace"));
    let _ = std::fs::create_dir_all(dir);
    let mut t = Table::new(&[
        "command",
        "rounds",
        "instructions",
        "time",
        "per instruction",
        "peak memory",
    ]);
    let mut points = Vec::new();
    let mut rounds_done = Vec::new();
    for &n in sizes {
        let rounds = u32::try_from(((n + PER_ROUND / 2) / PER_ROUND).max(1)).unwrap_or(u32::MAX);
        if rounds_done.contains(&rounds) {
            continue;
        }
        rounds_done.push(rounds);
        eprintln!("bench: long runs: {name}, {rounds} rounds");
        match Program::load(programs, &name).and_then(|p| point(&bin, &p, rounds, dir)) {
            Ok(p) => points.push((rounds, p)),
            Err(e) => t.row(vec![
                "run / decode".into(),
                rounds.to_string(),
                String::new(),
                format!("fails: {}", short(&e)),
                String::new(),
                String::new(),
            ]),
        }
    }
    let mut verdicts = Vec::new();
    for (what, cost) in [
        ("etrace run", (|p: &Point| &p.run) as fn(&Point) -> &Cost),
        ("etrace decode", |p: &Point| &p.decode),
    ] {
        for (rounds, p) in &points {
            let c = cost(p);
            t.row(vec![
                format!("`{what}`"),
                rounds.to_string(),
                p.instructions.to_string(),
                duration(c.seconds),
                format!(
                    "{} ns",
                    sig3(c.seconds * 1e9 / p.instructions.max(1) as f64)
                ),
                format!("{:.1} MiB", c.max_rss_kib as f64 / 1024.0),
            ]);
        }
        let times: Vec<(u64, f64)> = points
            .iter()
            .map(|(_, p)| (p.instructions, cost(p).seconds))
            .collect();
        let peaks: Vec<u64> = points.iter().map(|(_, p)| cost(p).max_rss_kib).collect();
        verdicts.push(format!(
            "- `{what}`: {}; {}",
            memory_verdict(&peaks),
            time_verdict(&times)
        ));
    }
    let mut s = String::new();
    let _ = writeln!(s, "### Long runs: time and peak memory\n");
    let _ = writeln!(
        s,
        "`etrace run` (hart, encoder, encap framing, decoder and the step check, streamed) \
         and `etrace decode` (of the trace `etrace encode` writes for the same run, \
         elements to /dev/null) as child processes on `programs/elf/{name}.elf` with \
         `scaling_rounds` patched in a copy of the file; one run each; peak memory is the \
         child's peak resident set (`wait4`). Trace sizes: {}.\n",
        points
            .iter()
            .map(|(r, p)| format!("{} bytes at {r} rounds", p.trace_bytes))
            .collect::<Vec<_>>()
            .join(", ")
    );
    s.push_str(&t.render());
    s.push('\n');
    for v in verdicts {
        let _ = writeln!(s, "{v}");
    }
    s
}

/// "linear in time" with the verdict of [`verdict`] when it finds the growth linear.
fn time_verdict(points: &[(u64, f64)]) -> String {
    let v = verdict(points);
    if v.starts_with("linear") {
        format!("linear in time: {v}")
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::memory_verdict;

    #[test]
    fn memory_verdicts() {
        assert!(memory_verdict(&[10_000, 11_000, 12_000]).starts_with("flat in memory"));
        assert!(memory_verdict(&[10_000, 20_000, 40_000]).starts_with("not flat in memory"));
        assert_eq!(memory_verdict(&[10_000]), "not measured");
        assert_eq!(memory_verdict(&[]), "not measured");
    }
}
