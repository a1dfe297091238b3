//! FPGA cost: the cells and Fmax of each board's flow, read from the `report.json` files
//! that `etrace synth` writes (schema: `cli/src/commands/synth/report.rs`).

use std::fmt::Write;
use std::path::Path;

use etrace_hdl::board::Board;
use etrace_hdl::config::Config;
use serde_json::Value;

use crate::table::{short, Table};

/// The file in a flow's directory that says why there is no report (written by
/// `scripts/bench`: "not run: ..." or "fails: ...").
pub const STATUS_FILE: &str = "status.txt";

fn num(v: &Value, path: &[&str]) -> Option<f64> {
    path.iter().try_fold(v, |v, k| v.get(k))?.as_f64()
}

fn count(v: &Value, path: &[&str]) -> String {
    num(v, path).map_or("—".to_string(), |n| format!("{n:.0}"))
}

fn mhz(v: Option<f64>) -> String {
    v.map_or("—".to_string(), |f| format!("{f:.1} MHz"))
}

/// A report's "met" flag as the table shows it.
fn met(flag: &Value) -> &'static str {
    match flag.as_bool() {
        Some(true) => "met",
        Some(false) => "MISSED",
        None => "?",
    }
}

/// The used count of a nextpnr resource in the board top's utilisation.
fn used(report: &Value, resources: &[&str]) -> Option<f64> {
    resources
        .iter()
        .find_map(|r| num(report, &["utilization", r, "used"]))
}

/// The two rows of a board's report: the encoder alone, and the whole board top.
fn report_rows(t: &mut Table, board: &str, report: &Value) {
    let device = report["device"].as_str().unwrap_or("?");
    let config = report["config"].as_str().unwrap_or("?").to_string();
    let head = format!("{board} ({device})");
    let enc = &report["encoder"];
    if enc.is_object() {
        let target = num(enc, &["fmax_target_mhz"]);
        t.row(vec![
            head.clone(),
            config.clone(),
            "encoder alone (64-byte FIFO, timing harness)".to_string(),
            count(enc, &["logic_cells"]),
            count(enc, &["cells", "lut4"]),
            count(enc, &["cells", "ff"]),
            count(enc, &["cells", "carry"]),
            count(enc, &["cells", "bram"]),
            mhz(num(enc, &["fmax_mhz"])),
            format!("{} ({})", mhz(target), met(&enc["fmax_met"])),
        ]);
    }
    let fmax = report["fmax"].as_array().and_then(|clocks| {
        clocks
            .iter()
            .filter_map(|c| num(c, &["achieved_mhz"]))
            .min_by(f64::total_cmp)
    });
    t.row(vec![
        head,
        config,
        "board top (encoder, program replay, UART)".to_string(),
        used(report, &["ICESTORM_LC", "TRELLIS_COMB"]).map_or("—".into(), |n| format!("{n:.0}")),
        count(report, &["cells", "lut4"]),
        count(report, &["cells", "ff"]),
        count(report, &["cells", "carry"]),
        count(report, &["cells", "bram"]),
        mhz(fmax),
        format!(
            "{} ({})",
            mhz(num(report, &["requested_mhz"])),
            met(&report["timing_met"])
        ),
    ]);
}

/// The FPGA section from `dir/<board>/<config>/report.json` (or `status.txt` there); an
/// error for `dir` gives the reason the flows did not run.
pub fn section(dir: Result<&Path, &str>) -> String {
    let mut t = Table::new(&[
        "board",
        "config",
        "design",
        "logic cells",
        "LUT4",
        "FF",
        "carry",
        "BRAM",
        "Fmax",
        "target",
    ]);
    for (board, config) in Board::ALL
        .iter()
        .flat_map(|b| Config::ALL.iter().map(move |c| (b.name(), c.name())))
    {
        // A row with only the reason in the design column (the others stay empty).
        let cell = |text: String| vec![board.to_string(), config.to_string(), text];
        let dir = match dir {
            Ok(d) => d.join(board).join(config),
            Err(reason) => {
                t.row(cell(format!("not run: {reason}")));
                continue;
            }
        };
        let status = std::fs::read_to_string(dir.join(STATUS_FILE));
        let report = std::fs::read_to_string(dir.join("report.json"));
        match (status, report) {
            (Ok(status), _) => t.row(cell(short(status.trim()))),
            (Err(_), Ok(text)) => match serde_json::from_str::<Value>(&text) {
                Ok(v) => report_rows(&mut t, board, &v),
                Err(e) => t.row(cell(format!("fails: report.json: {e}"))),
            },
            (Err(_), Err(e)) => t.row(cell(format!(
                "not run: {} ({e})",
                dir.join("report.json").display()
            ))),
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "### FPGA cost\n");
    let _ = writeln!(
        s,
        "`etrace synth --board B --config C` (yosys, nextpnr; iCE40: Debian's tools, ECP5: \
         YoWASP's), from its `report.json`. Logic cells: iCE40 `ICESTORM_LC`, ECP5 \
         `TRELLIS_COMB` after packing; LUT4, FF, carry (iCE40 `SB_CARRY`, ECP5 `CCU2C`) and \
         BRAM from synthesis. Fmax: the encoder alone in a timing harness (flip-flops on \
         every input and output) against the issue 7 target (set for rv32); the board top's \
         slowest clock against the board's oscillator.\n"
    );
    s.push_str(&t.render());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_from_a_report() {
        let report: Value = serde_json::from_str(
            r#"{"device": "iCE40UP5K-SG48", "config": "rv32", "requested_mhz": 12.0,
                "timing_met": true,
                "cells": {"lut4": 3000, "ff": 1500, "carry": 200, "bram": 4},
                "utilization": {"ICESTORM_LC": {"used": 3100, "available": 5280}},
                "fmax": [{"clock": "clk", "achieved_mhz": 30.5, "constraint_mhz": 12.0}],
                "encoder": {"logic_cells": 1900, "fmax_mhz": 50.25, "fmax_target_mhz": 48.0,
                            "fmax_met": true,
                            "cells": {"lut4": 1700, "ff": 800, "carry": 100, "bram": 1}}}"#,
        )
        .unwrap();
        let mut t = Table::new(&["a"; 10]);
        report_rows(&mut t, "icebreaker", &report);
        let text = t.render();
        assert!(text.contains("| 1900 "), "{text}");
        assert!(
            text.contains("50.2 MHz") || text.contains("50.3 MHz"),
            "{text}"
        );
        assert!(text.contains("48.0 MHz (met)"), "{text}");
        assert!(text.contains("| 3100 "), "{text}");
        assert!(text.contains("30.5 MHz"), "{text}");
    }
}
