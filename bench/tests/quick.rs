//! Keeps `scripts/bench` from rotting: `etrace-bench --quick` (tiny programs and sizes, one
//! run, no FPGA flows) prints every section with plausible numbers; bad usage exits 2.

use std::process::{Command, Output};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_etrace-bench"))
        .args(args)
        .output()
        .expect("etrace-bench runs")
}

/// The cells of the table row whose first cell is `first`, after the section `heading`.
fn row<'a>(text: &'a str, heading: &str, first: &str) -> Vec<&'a str> {
    let start = text.find(heading).unwrap_or_else(|| panic!("no {heading}"));
    text[start..]
        .lines()
        .find(|l| l.trim_start_matches('|').trim_start().starts_with(first))
        .unwrap_or_else(|| panic!("no row {first} after {heading}"))
        .trim()
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect()
}

/// The leading number of a cell ("12.3 M insn/s" -> 12.3e6, "0.940 / 1.323" -> 0.940).
fn number(cell: &str) -> f64 {
    let mut words = cell.split_whitespace();
    let n: f64 = words
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no number in '{cell}'"));
    match words.next() {
        Some("k") => n * 1e3,
        Some("M") => n * 1e6,
        Some("G") => n * 1e9,
        _ => n,
    }
}

#[test]
fn quick_run_prints_every_section_with_plausible_numbers() {
    let out = bench(&["--quick"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for heading in [
        "### Compression",
        "### Speed",
        "### Soft cores in lock step",
        "### FPGA cost",
        "### How cost grows",
    ] {
        assert!(text.contains(heading), "{heading} missing:\n{text}");
    }
    for key in [
        "| date",
        "| machine",
        "| rustc",
        "| Verilator",
        "| yosys",
        "| nextpnr",
    ] {
        assert!(text.contains(key), "{key} missing from the header:\n{text}");
    }
    assert!(!text.contains("fails:"), "a measurement failed:\n{text}");

    // Compression: ours, then riscv-etrace's beside it.
    let ours = row(&text, "### Compression", "**all**");
    let (payload, framed) = ours[2].split_once(" / ").expect("payload / framed");
    let (payload, framed) = (number(payload), number(framed));
    assert!(
        payload > 0.2 && payload < 10.0,
        "payload bits/insn {payload}"
    );
    assert!(framed > payload, "framed {framed} <= payload {payload}");
    let theirs_start = text
        .find("riscv-etrace 0.10's generator")
        .expect("their table");
    let theirs = row(&text[theirs_start..], "| program", "**all**");
    let ratio: f64 = theirs[2]
        .split(['(', ')'])
        .nth(1)
        .and_then(|r| r.parse().ok())
        .expect("a ratio in brackets");
    assert!(ratio > 0.5 && ratio < 2.0, "ours / theirs {ratio}");
    assert!(theirs.contains(&"n/a (not supported by riscv-etrace)"));

    // Speed: every rate positive, riscv-etrace's encoder and tracer measured.
    for what in [
        "hart model",
        "encoder",
        "decoder, elements",
        "co-simulation",
    ] {
        let r = row(&text, "### Speed", what);
        assert!(number(r[2]) > 1e3, "{what}: {r:?}");
    }
    for what in ["encoder", "decoder, per PC"] {
        let r = row(&text, "### Speed", what);
        assert!(number(r[3]) > 1e3 && number(r[4]) > 0.0, "{what}: {r:?}");
    }

    // Soft cores: both in lock step, SERV tens of cycles per instruction.
    for core in ["picorv32", "serv"] {
        let r = row(&text, "### Soft cores in lock step", core);
        assert!(number(r[6]) > 1e3, "{core}: {r:?}");
        assert!(number(r[8]) > 0.1, "{core}: {r:?}");
    }
    let serv = row(&text, "### Soft cores in lock step", "serv");
    assert!(number(serv[4]) > 20.0, "{serv:?}");
    // Through a 115,200 baud UART both cores' trace overflows the FIFO: losses, steps lost.
    for core in ["picorv32", "serv"] {
        let r = row(&text, "Through the board tops' 8N1 UART", core);
        assert_eq!(r[2], "115200", "{core}: {r:?}");
        assert!(number(r[4]) > 0.0 && number(r[7]) > 0.0, "{core}: {r:?}");
    }

    // FPGA: not run in quick mode, and saying so.
    assert!(row(&text, "### FPGA cost", "icebreaker")[2].starts_with("not run: --quick"));

    // Scaling: three sizes and a verdict each.
    let long = text.find("### Long runs").expect("the long-runs section");
    let scaling = &text[text.find("### How cost grows").unwrap()..long];
    for n in ["1000", "10000", "100000"] {
        assert!(scaling.contains(&format!("| {n} ")), "size {n}:\n{scaling}");
    }
    let verdicts = scaling.lines().filter(|l| l.starts_with("- ")).count();
    assert_eq!(verdicts, 2, "{scaling}");
    assert!(scaling.contains("linear"), "{scaling}");

    // Long runs: `etrace run` and `etrace decode` at two sizes, with time and peak memory,
    // and a verdict on memory and time for each.
    let long = &text[long..];
    for what in ["`etrace run`", "`etrace decode`"] {
        let rows: Vec<&str> = long
            .lines()
            .filter(|l| l.starts_with(&format!("| {what}")))
            .collect();
        assert_eq!(rows.len(), 2, "{what}:\n{long}");
        for r in rows {
            assert!(r.contains(" MiB"), "{r}");
        }
        let verdict = long
            .lines()
            .find(|l| l.starts_with(&format!("- {what}")))
            .unwrap_or_else(|| panic!("no verdict for {what}:\n{long}"));
        assert!(verdict.contains("in memory"), "{verdict}");
    }
}

#[test]
fn bad_usage_exits_2_with_one_error_line() {
    let out = bench(&["--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: unknown option '--bogus' (etrace-bench)\n"
    );
    let out = bench(&["--runs", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: 'x' is not a count (--runs)\n"
    );
}
