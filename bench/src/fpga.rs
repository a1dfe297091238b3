//! FPGA cost: the cells and Fmax of each board's flow, read from the `report.json` files
//! that `etrace synth` writes (schema: `cli/src/commands/synth/report.rs`).

use std::fmt::Write;
use std::path::Path;

use etrace_hdl::board::Board;
use etrace_hdl::config::Config;
use serde_json::Value;

use crate::table::{short, Table};

/// A build with hardware generation options whose FPGA rows follow the configurations'
/// (issue 22: the all-options target), run by `scripts/bench` on some boards.
pub struct OptionBuild {
    /// Its flow directory under `<board>/` and the name its rows show (as
    /// `scripts/check-verilog.sh` names the build).
    pub name: &'static str,
    /// The `etrace synth` options that make it.
    pub options: &'static str,
    /// The boards it runs on.
    pub boards: &'static [Board],
}

/// The boards of the option builds: the issue 22 targets (UP5K, HX8K, ECP5-25F).
const TARGET_BOARDS: &[Board] = &[Board::Icebreaker, Board::Hx8kBreakout, Board::Ulx3s25f];

/// The option builds: implicit return alone, and every option (smi with an 8-bit index
/// and timestamps, `bpred_size_p` 6, `return_stack_size_p` 2).
pub const OPTION_BUILDS: &[OptionBuild] = &[
    OptionBuild {
        name: "rv32-ir",
        options: "--config rv32 --return-stack-size 2",
        boards: TARGET_BOARDS,
    },
    OptionBuild {
        name: "rv32-all",
        options:
            "--config rv32 --framing smi --src-bits 8 --timestamp --bpred-size 6 --return-stack-size 2",
        boards: TARGET_BOARDS,
    },
];

/// The SoC builds (issue 23): a core running the bundled `loops` program (its
/// `programs/elf/loops-<core>.elf`) from block RAM, traced, on every board, and with an
/// encoder that has the branch predictor and the return stack on the issue 22 boards
/// (PicoRV32's does not fit the UP5K: its row says so); the encoder alone is not built
/// again.
pub const SOC_BUILDS: &[OptionBuild] = &[
    OptionBuild {
        name: "soc-picorv32",
        options: "--core picorv32 --no-encoder",
        boards: &Board::ALL,
    },
    OptionBuild {
        name: "soc-serv",
        options: "--core serv --no-encoder",
        boards: &Board::ALL,
    },
    OptionBuild {
        name: "soc-picorv32-bp-ir",
        options: "--core picorv32 --bpred-size 6 --return-stack-size 2 --no-encoder",
        boards: TARGET_BOARDS,
    },
    OptionBuild {
        name: "soc-serv-bp-ir",
        options: "--core serv --bpred-size 6 --return-stack-size 2 --no-encoder",
        boards: TARGET_BOARDS,
    },
];

/// The N-Trace builds (issue 25): the replay into the N-Trace encoder on every board,
/// HTM, and HTM with every optimisation; the encoder alone against the E-Trace encoder's
/// rows of the same board (the issue's target: at most its cells, at least its Fmax).
pub const NTRACE_BUILDS: &[OptionBuild] = &[
    OptionBuild {
        name: "ntrace-rv32",
        options: "--config rv32 --protocol ntrace",
        boards: &Board::ALL,
    },
    OptionBuild {
        name: "ntrace-rv32-all",
        options: "--config rv32 --protocol ntrace --sijump --call-stack 4 --repeat-history",
        boards: TARGET_BOARDS,
    },
];

/// Every build beyond the configurations, in the order of their rows.
fn builds() -> impl Iterator<Item = &'static OptionBuild> {
    OPTION_BUILDS.iter().chain(NTRACE_BUILDS).chain(SOC_BUILDS)
}

/// Every FPGA flow `scripts/bench` runs, one line each: board, flow directory name, and
/// the `etrace synth` options (`etrace-bench --fpga-flows`).
pub fn flows() -> String {
    let mut s = String::new();
    for board in Board::ALL {
        for config in Config::ALL {
            let _ = writeln!(
                s,
                "{} {} --config {}",
                board.name(),
                config.name(),
                config.name()
            );
        }
    }
    for build in builds() {
        for board in build.boards {
            let _ = writeln!(s, "{} {} {}", board.name(), build.name, build.options);
        }
    }
    s
}

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

/// The two rows of a board's report for the flow `name` (a configuration or an option
/// build): the encoder alone, and the whole board top.
fn report_rows(t: &mut Table, board: &str, name: &str, report: &Value) {
    let device = report["device"].as_str().unwrap_or("?");
    let config = name.to_string();
    let head = format!("{board} ({device})");
    let enc = &report["encoder"];
    if enc.is_object() {
        let target = num(enc, &["fmax_target_mhz"]);
        let fifo = count(enc, &["fifo_depth"]);
        t.row(vec![
            head.clone(),
            config.clone(),
            format!("encoder alone ({fifo}-byte FIFO, timing harness)"),
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
    let design = match report["core"]["core"].as_str() {
        Some(core) => format!(
            "SoC top ({core}, {} KiB RAM, RVFI front end, encoder, UART)",
            num(report, &["core", "ram_bytes"]).map_or(0.0, |b| b / 1024.0)
        ),
        None if report["protocol"] == "N-Trace" => {
            "board top (N-Trace encoder, program replay, UART buffer, UART)".to_string()
        }
        None => "board top (encoder, program replay, UART)".to_string(),
    };
    t.row(vec![
        head,
        config,
        design,
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
    let configs = Board::ALL
        .iter()
        .flat_map(|b| Config::ALL.iter().map(move |c| (b.name(), c.name())));
    let build_rows = builds().flat_map(|o| o.boards.iter().map(move |b| (b.name(), o.name)));
    for (board, config) in configs.chain(build_rows) {
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
                Ok(v) => report_rows(&mut t, board, config, &v),
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
         slowest clock against the board's oscillator. The option builds are the encoder \
         alone with hardware generation options and the replay board top built with them \
         (framed encap, the stream `capture` reads); the N-Trace builds are the replay into the N-Trace encoder \
         (board top and encoder alone, its target that of the E-Trace encoder on the same \
         board: at most its cells, at least its Fmax); the SoC builds are a core running `programs/elf/loops-<core>.elf` \
         from block RAM with the RVFI front end and the `rv32` encoder (PicoRV32 without \
         multiply / divide on the iCE40 boards):"
    );
    for build in builds() {
        let _ = writeln!(s, "- `{}`: `{}`", build.name, build.options);
    }
    s.push('\n');
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
                "encoder": {"logic_cells": 1900, "fifo_depth": 64, "fmax_mhz": 50.25, "fmax_target_mhz": 48.0,
                            "fmax_met": true,
                            "cells": {"lut4": 1700, "ff": 800, "carry": 100, "bram": 1}}}"#,
        )
        .unwrap();
        let mut t = Table::new(&["a"; 10]);
        report_rows(&mut t, "icebreaker", "rv32", &report);
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

    #[test]
    fn soc_builds_are_flows_on_their_boards_with_their_own_rows() {
        let flows = flows();
        for build in SOC_BUILDS {
            for board in build.boards {
                let line = format!("{} {} {}", board.name(), build.name, build.options);
                assert!(flows.lines().any(|l| l == line), "{flows}");
            }
        }
        // The default SoCs on every board.
        for build in &SOC_BUILDS[..2] {
            assert_eq!(build.boards, &Board::ALL[..], "{}", build.name);
        }
        let report: Value = serde_json::from_str(
            r#"{"device": "iCE40UP5K-SG48", "requested_mhz": 12.0, "timing_met": true,
                "core": {"core": "serv", "ram_bytes": 12288},
                "cells": {"lut4": 2350, "ff": 1814, "carry": 398, "bram": 26},
                "utilization": {"ICESTORM_LC": {"used": 3330, "available": 5280}},
                "fmax": [{"clock": "clk", "achieved_mhz": 22.6, "constraint_mhz": 12.0}],
                "encoder": null}"#,
        )
        .unwrap();
        let mut t = Table::new(&["a"; 10]);
        report_rows(&mut t, "icebreaker", "soc-serv", &report);
        let text = t.render();
        assert!(text.contains("SoC top (serv, 12 KiB RAM"), "{text}");
        assert!(text.contains("| 3330 "), "{text}");
        assert!(!text.contains("encoder alone"), "{text}");
    }

    /// The N-Trace builds are flows (on every board for `ntrace-rv32`) and their board
    /// rows say so.
    #[test]
    fn ntrace_builds_are_flows_with_their_own_rows() {
        let flows = flows();
        for board in Board::ALL {
            let line = format!(
                "{} ntrace-rv32 --config rv32 --protocol ntrace",
                board.name()
            );
            assert!(flows.lines().any(|l| l == line), "{flows}");
        }
        let report: Value = serde_json::from_str(
            r#"{"device": "iCE40HX8K-CT256", "protocol": "N-Trace", "requested_mhz": 12.0,
                "timing_met": true, "cells": {"lut4": 2500},
                "fmax": [{"clock": "clk", "achieved_mhz": 40.0, "constraint_mhz": 12.0}]}"#,
        )
        .unwrap();
        let mut t = Table::new(&["a"; 10]);
        report_rows(&mut t, "hx8k-breakout", "ntrace-rv32", &report);
        let text = t.render();
        assert!(text.contains("board top (N-Trace encoder"), "{text}");
    }

    /// Every option build is a flow on each of its boards, and its report gives rows under
    /// its own name (not the report's configuration).
    #[test]
    fn option_builds_are_flows_and_rows() {
        let flows = flows();
        for build in OPTION_BUILDS {
            for board in build.boards {
                let line = format!("{} {} {}", board.name(), build.name, build.options);
                assert_eq!(flows.lines().filter(|l| *l == line).count(), 1, "{flows}");
            }
        }
        let dir = std::env::temp_dir().join(format!("etrace-bench-fpga-{}", std::process::id()));
        let flow = dir.join("icebreaker").join("rv32-all");
        std::fs::create_dir_all(&flow).unwrap();
        std::fs::write(
            flow.join("report.json"),
            r#"{"device": "iCE40UP5K-SG48", "config": "rv32", "timing_met": true,
                "encoder": {"logic_cells": 2456, "fifo_depth": 64, "fmax_mhz": 49.0,
                            "fmax_target_mhz": 48.0, "fmax_met": true}}"#,
        )
        .unwrap();
        let text = section(Ok(dir.as_path()));
        std::fs::remove_dir_all(&dir).unwrap();
        let row = text
            .lines()
            .find(|l| l.contains("| rv32-all ") && l.contains("encoder alone"))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(row.contains("| 2456 ") && row.contains("49.0 MHz"), "{row}");
        assert!(row.contains("64-byte FIFO"), "{row}");
        // A flow without a report says so under the build's name.
        assert!(
            text.lines().any(|l| l.contains("hx8k-breakout")
                && l.contains("| rv32-ir ")
                && l.contains("not run")),
            "{text}"
        );
    }
}
