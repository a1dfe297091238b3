//! Long runs from the command line (issue 27, "Done when"): `etrace run` and `etrace decode`
//! (the release binary beside `etrace-bench`, run as a child process through the runner of
//! [`crate::child_cost`]) on the scaling program with its round and step counts patched
//! into a copy of the ELF, from 10^5 to 10^9 instructions, with the time and the peak
//! resident memory of each, and verdicts on how both grow.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::child_cost::{measured, Cost};
use crate::programs::{Program, SCALING};
use crate::table::{duration, short, sig3, Table};

/// Instructions one round of the scaling program (`programs/src/scaling.c`) retires on
/// RV32, about (the rows give the count of each run).
const PER_ROUND: u64 = 1_566_600;
/// Instructions one step retires on RV32, about.
const PER_STEP: u64 = 23_300;
/// Instructions of a run with no rounds and no steps (start-up, exit) on RV32, about.
const BASE: u64 = 47_900;

/// Memory is "flat" when the largest peak is within this factor of the smallest.
const FLAT_FACTOR: f64 = 1.25;
/// Time is "linear" when every size's time lies within this fraction of the fitted line
/// (or within [`LINEAR_SLACK_S`] of it).
const LINEAR_TOLERANCE: f64 = 0.2;
/// Absolute slack of the linearity check, for the runs of a few milliseconds whose time is
/// mostly the process's start-up and its scheduling noise.
const LINEAR_SLACK_S: f64 = 0.005;

/// The scaling program's run-time counts for about `n` instructions: whole rounds from
/// three quarters of a round up, else steps (at least one).
fn rounds_and_steps(n: u64) -> (u32, u32) {
    let clamp = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    if 4 * n >= 3 * PER_ROUND {
        (clamp((n + PER_ROUND / 2) / PER_ROUND), 0)
    } else {
        (
            0,
            clamp((n.saturating_sub(BASE) + PER_STEP / 2) / PER_STEP).max(1),
        )
    }
}

/// "N rounds" or "N steps".
fn size_text((rounds, steps): (u32, u32)) -> String {
    match (rounds, steps) {
        (r, 0) => format!("{r} rounds"),
        (0, st) => format!("{st} steps"),
        (r, st) => format!("{r} rounds, {st} steps"),
    }
}

/// The measurements at one size: instructions retired, `run`, `decode`.
struct Point {
    instructions: u64,
    run: Cost,
    decode: Cost,
    trace_bytes: u64,
}

/// `etrace run` on the program with `rounds` rounds and `steps` steps, then `etrace encode`
/// of it and `etrace decode` of that trace (elements to /dev/null).
fn point(
    bin: &Path,
    program: &Program,
    (rounds, steps): (u32, u32),
    dir: &Path,
) -> Result<Point, String> {
    let elf = dir.join(format!("{}-{rounds}-{steps}.elf", program.name));
    let trace = dir.join(format!("{}-{rounds}-{steps}.encap", program.name));
    let patched = etrace_programs::scaling_elf_sized(&program.elf, rounds, steps)
        .map_err(|e| e.to_string())?;
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

/// "flat in memory" when the peaks (instructions, KiB, in increasing size) lie within
/// [`FLAT_FACTOR`] of each other; "flat from N instructions on" when that holds for the
/// larger sizes (two at least) and only the smaller ones, where start-up and the first
/// allocations dominate, lie below; else how the peak grows.
fn memory_verdict(peaks: &[(u64, u64)]) -> String {
    if peaks.len() < 2 {
        return "not measured".to_string();
    }
    let mib = |k: u64| format!("{:.1} MiB", k as f64 / 1024.0);
    let within = |part: &[(u64, u64)]| {
        let min = part.iter().map(|p| p.1).min().unwrap_or(0).max(1);
        let max = part.iter().map(|p| p.1).max().unwrap_or(0);
        (max as f64 <= min as f64 * FLAT_FACTOR).then(|| {
            format!(
                "peak resident memory {} to {} (within {:.0} %)",
                mib(min),
                mib(max),
                100.0 * (max as f64 / min as f64 - 1.0)
            )
        })
    };
    let below_all = |from: usize| {
        let least = peaks[from..].iter().map(|p| p.1).min().unwrap_or(0);
        peaks[..from].iter().all(|p| p.1 <= least)
    };
    match (0..peaks.len() - 1).find_map(|i| within(&peaks[i..]).map(|w| (i, w))) {
        Some((0, w)) => format!("flat in memory: {w}"),
        Some((i, w)) if below_all(i) => format!(
            "flat in memory from {} instructions on: {w}; {} at {} instructions",
            peaks[i].0,
            mib(peaks[0].1),
            peaks[0].0
        ),
        _ => format!(
            "not flat in memory: peak resident memory {} at {} instructions, {} at {}",
            mib(peaks[0].1),
            peaks[0].0,
            mib(peaks[peaks.len() - 1].1),
            peaks[peaks.len() - 1].0
        ),
    }
}

/// The section: `etrace run` and `etrace decode` at about `sizes` instructions (the
/// scaling program of `target` with enough rounds, or steps below a round).
pub fn section(programs: &Path, target: &str, sizes: &[u64], dir: &Path) -> String {
    let name = format!("{SCALING}-{target}");
    let bin: PathBuf = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("etrace")))
        .unwrap_or_else(|| PathBuf::from("etrace"));
    let _ = std::fs::create_dir_all(dir);
    let mut t = Table::new(&[
        "command",
        "size",
        "instructions",
        "time",
        "per instruction",
        "peak memory",
    ]);
    let mut points = Vec::new();
    let mut sizes_done = Vec::new();
    for &n in sizes {
        let size = rounds_and_steps(n);
        if sizes_done.contains(&size) {
            continue;
        }
        sizes_done.push(size);
        eprintln!("bench: long runs: {name}, {}", size_text(size));
        match Program::load(programs, &name).and_then(|p| point(&bin, &p, size, dir)) {
            Ok(p) => points.push((size, p)),
            Err(e) => t.row(vec![
                "run / decode".into(),
                size_text(size),
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
        for (size, p) in &points {
            let c = cost(p);
            t.row(vec![
                format!("`{what}`"),
                size_text(*size),
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
        let peaks: Vec<(u64, u64)> = points
            .iter()
            .map(|(_, p)| (p.instructions, cost(p).max_rss_kib))
            .collect();
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
         `scaling_rounds` (about 1.6 million instructions each) or `scaling_steps` (about \
         23 thousand each) patched in a copy of the file; one run each; peak memory is the \
         command's peak resident set (`wait4`, from a small runner process so that \
         `etrace-bench`'s own memory is not counted). Trace sizes: {}.\n",
        points
            .iter()
            .map(|(size, p)| format!("{} bytes at {}", p.trace_bytes, size_text(*size)))
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

/// The line `seconds = fixed + per_instruction * n` fitted to `points` (instructions,
/// seconds) by least squares on the relative errors (each size counts alike, however
/// long it ran): `(fixed, per_instruction)`, or `None` for fewer than two sizes.
fn fit_line(points: &[(u64, f64)]) -> Option<(f64, f64)> {
    if points.len() < 2 || points.iter().any(|&(_, t)| t <= 0.0) {
        return None;
    }
    // Weighted least squares with weights 1 / t^2.
    let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(n, t) in points {
        let (x, w) = (n as f64, 1.0 / (t * t));
        sw += w;
        sx += w * x;
        sy += w * t;
        sxx += w * x * x;
        sxy += w * x * t;
    }
    let det = sw * sxx - sx * sx;
    if det <= 0.0 {
        return None;
    }
    let per = (sw * sxy - sx * sy) / det;
    Some(((sy - per * sx) / sw, per))
}

/// "linear in time" when every size's time lies on the fitted line `fixed + per * n`
/// ([`fit_line`]) within [`LINEAR_TOLERANCE`] (or [`LINEAR_SLACK_S`]), with the line; else
/// the size that lies furthest off it.
fn time_verdict(points: &[(u64, f64)]) -> String {
    let Some((fixed, per)) = fit_line(points) else {
        return "time not measured".to_string();
    };
    let off = |&(n, t): &(u64, f64)| {
        let line = fixed + per * n as f64;
        ((t - line) / t, (t - line).abs())
    };
    let worst = points
        .iter()
        .map(|p| (p, off(p)))
        .max_by(|a, b| a.1 .0.abs().total_cmp(&b.1 .0.abs()))
        .expect("two points or more");
    let within = points
        .iter()
        .all(|p| off(p).0.abs() <= LINEAR_TOLERANCE || off(p).1 <= LINEAR_SLACK_S);
    let line = format!(
        "{} ns per instruction plus {} of start-up",
        sig3(per * 1e9),
        duration(fixed.max(0.0))
    );
    // A negative start-up would hide growth faster than linear behind the line.
    if within && per > 0.0 && fixed > -LINEAR_SLACK_S {
        format!(
            "linear in time: {line} (every size within {:.0} % of that line, or within {})",
            100.0 * LINEAR_TOLERANCE,
            duration(LINEAR_SLACK_S)
        )
    } else {
        let ((n, t), (rel, _)) = worst;
        format!(
            "not linear in time: the best line is {line}, and the run of {n} instructions \
             took {} ({:+.0} % off it)",
            duration(*t),
            100.0 * rel
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{fit_line, memory_verdict, rounds_and_steps, time_verdict};

    #[test]
    fn memory_verdicts() {
        let at = |kib: [u64; 4]| -> Vec<(u64, u64)> {
            [100_000, 1_000_000, 10_000_000, 100_000_000]
                .into_iter()
                .zip(kib)
                .collect()
        };
        assert!(memory_verdict(&at([10_000, 11_000, 12_000, 11_500]))
            .starts_with("flat in memory: peak resident memory 9.8 MiB to 11.7 MiB"));
        // Smaller at the small sizes, then flat: flat from there on.
        let v = memory_verdict(&at([8_000, 12_000, 14_000, 14_100]));
        assert!(
            v.starts_with("flat in memory from 1000000 instructions on"),
            "{v}"
        );
        // Growing at every size, or flat only at the last one: not flat.
        assert!(
            memory_verdict(&at([10_000, 20_000, 40_000, 80_000])).starts_with("not flat in memory")
        );
        assert!(
            memory_verdict(&at([10_000, 10_000, 10_000, 40_000])).starts_with("not flat in memory")
        );
        // Larger at a small size than later: a spike, not start-up.
        assert!(
            memory_verdict(&at([40_000, 10_000, 10_000, 10_000])).starts_with("not flat in memory")
        );
        assert_eq!(memory_verdict(&at([10_000, 0, 0, 0])[..1]), "not measured");
        assert_eq!(memory_verdict(&[]), "not measured");
    }

    #[test]
    fn sizes_become_rounds_or_steps() {
        assert_eq!(rounds_and_steps(100_000), (0, 2));
        assert_eq!(rounds_and_steps(1_000_000), (0, 41));
        assert_eq!(rounds_and_steps(10_000_000), (6, 0));
        assert_eq!(rounds_and_steps(1_000_000_000), (638, 0));
        assert_eq!(rounds_and_steps(0), (0, 1));
    }

    #[test]
    fn time_verdicts() {
        // 20 ms of start-up and 50 ns per instruction, exactly: the line is found.
        let exact: Vec<(u64, f64)> = [100_000u64, 1_000_000, 10_000_000, 1_000_000_000]
            .iter()
            .map(|&n| (n, 0.02 + 50e-9 * n as f64))
            .collect();
        let (fixed, per) = fit_line(&exact).unwrap();
        assert!((fixed - 0.02).abs() < 1e-6 && (per - 50e-9).abs() < 1e-12);
        let v = time_verdict(&exact);
        assert!(
            v.starts_with("linear in time: 50.0 ns per instruction"),
            "{v}"
        );
        // n log n growth is not a line.
        let nlogn: Vec<(u64, f64)> = [100_000u64, 1_000_000, 10_000_000, 1_000_000_000]
            .iter()
            .map(|&n| (n, 1e-9 * n as f64 * (n as f64).ln()))
            .collect();
        assert!(time_verdict(&nlogn).starts_with("not linear in time"));
        assert_eq!(time_verdict(&exact[..1]), "time not measured");
    }
}
