//! The results of `etrace synth`: the JSON report (`report.json`) and the one-screen
//! summary.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use etrace_hdl::board::board_top::BoardSettings;
use etrace_hdl::board::{Board, Family};
use etrace_hdl::config::Config;
use etrace_hdl::rvfi::board_soc::SocCore;
use etrace_hdl::rvfi::soc::SocEncoderOptions;
use etrace_hdl::top::TopOptions;
use serde_json::json;

/// The family's basic cells as yosys counts them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cells {
    /// 4-input LUTs (`SB_LUT4` / `LUT4`).
    pub lut4: u64,
    /// Flip-flops (`SB_DFF*` / `TRELLIS_FF`).
    pub ff: u64,
    /// Carry cells (`SB_CARRY`, one bit each / `CCU2C`, two bits each).
    pub carry: u64,
    /// Block RAMs (`SB_RAM40_4K` / `DP16KD`).
    pub bram: u64,
    /// LUT RAMs (ECP5 `TRELLIS_DPR16X4`).
    pub lutram: u64,
}

impl Cells {
    /// Sums yosys's cell counts by type for `family`.
    pub fn from_yosys(family: Family, cells: &[(String, u64)]) -> Cells {
        let sum = |f: &dyn Fn(&str) -> bool| {
            cells
                .iter()
                .filter(|(name, _)| f(name))
                .map(|(_, n)| n)
                .sum()
        };
        match family {
            Family::Ice40 => Cells {
                lut4: sum(&|n| n == "SB_LUT4"),
                ff: sum(&|n| n.starts_with("SB_DFF")),
                carry: sum(&|n| n == "SB_CARRY"),
                bram: sum(&|n| n == "SB_RAM40_4K"),
                lutram: 0,
            },
            Family::Ecp5 => Cells {
                lut4: sum(&|n| n == "LUT4"),
                ff: sum(&|n| n == "TRELLIS_FF"),
                carry: sum(&|n| n == "CCU2C"),
                bram: sum(&|n| n == "DP16KD"),
                lutram: sum(&|n| n == "TRELLIS_DPR16X4"),
            },
        }
    }

    fn to_json(self) -> serde_json::Value {
        json!({
            "lut4": self.lut4,
            "ff": self.ff,
            "carry": self.carry,
            "bram": self.bram,
            "lutram": self.lutram,
        })
    }

    fn line(self) -> String {
        let mut s = format!(
            "LUT4 {}, FF {}, carry {}, BRAM {}",
            self.lut4, self.ff, self.carry, self.bram
        );
        if self.lutram > 0 {
            let _ = write!(s, ", LUT RAM {}", self.lutram);
        }
        s
    }
}

/// Fmax of one clock as nextpnr reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClockFmax {
    /// nextpnr's clock net name.
    pub clock: String,
    /// Achieved frequency.
    pub achieved_mhz: f64,
    /// The target.
    pub constraint_mhz: f64,
}

/// A critical path as nextpnr reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct CriticalPath {
    /// Launching clock.
    pub from_clock: String,
    /// Capturing clock.
    pub to_clock: String,
    /// First cell (the launching flip-flop or RAM).
    pub start: String,
    /// Last cell (the capturing flip-flop or RAM).
    pub end: String,
    /// Logic steps on the path (LUTs and carry cells).
    pub logic_levels: usize,
    /// Total delay.
    pub delay_ns: f64,
    /// The nets the path crosses, in order.
    pub nets: Vec<String>,
}

/// The encoder alone, synthesised for the board's family.
#[derive(Debug, Clone, PartialEq)]
pub struct EncoderReport {
    /// Its top module.
    pub top: String,
    /// Byte FIFO depth.
    pub fifo_depth: usize,
    /// Its hardware generation options as on the command line.
    pub options: String,
    /// Cell counts.
    pub cells: Cells,
    /// Cell counts by yosys cell type.
    pub yosys_cells: Vec<(String, u64)>,
    /// Logic cells after nextpnr's packing (iCE40 `ICESTORM_LC`, ECP5 `TRELLIS_COMB`).
    pub logic_cells: Option<u64>,
    /// Fmax of the encoder's timing harness on the board's part.
    pub fmax_mhz: Option<f64>,
    /// The Fmax target it was placed and routed for ([`encoder_fmax_target_mhz`]).
    pub target_mhz: f64,
    /// The bound on its iCE40 logic cells ([`ENCODER_MAX_ICE40_CELLS`] or
    /// [`ENCODER_WITH_OPTIONS_MAX_ICE40_CELLS`]).
    pub max_ice40_cells: u64,
    /// The harness's critical paths.
    pub critical_paths: Vec<CriticalPath>,
    /// Seconds the runs took.
    pub seconds: f64,
}

/// The issue 7 targets of the RV32 encoder alone (framer and 64-byte FIFO): Fmax of 48 MHz
/// on the iCE40UP5K, 75 MHz on the iCE40HX8K, 125 MHz on the ECP5 (set for the 25F, used
/// for the 85F too).
pub fn encoder_fmax_target_mhz(board: Board) -> f64 {
    match board {
        Board::Icebreaker => 48.0,
        Board::Hx8kBreakout => 75.0,
        Board::Ulx3s25f | Board::Ulx3s85f => 125.0,
    }
}

/// The issue 7 bound on the encoder's iCE40 logic cells: the default E-Trace build, and
/// the N-Trace encoder (whose target is the E-Trace encoder's cells).
pub const ENCODER_MAX_ICE40_CELLS: u64 = 2000;

/// The issue 22 bound on the iCE40 logic cells of an E-Trace encoder built with
/// generation options (the all-options rv32 build: smi with an index and timestamps,
/// `bpred_size_p` 6, `return_stack_size_p` 2).
pub const ENCODER_WITH_OPTIONS_MAX_ICE40_CELLS: u64 = 2600;

/// The bound on the encoder's iCE40 logic cells: [`ENCODER_MAX_ICE40_CELLS`] for N-Trace
/// (`None`) and for the default E-Trace build (any FIFO depth),
/// [`ENCODER_WITH_OPTIONS_MAX_ICE40_CELLS`] for an E-Trace build with any generation option.
pub fn encoder_max_ice40_cells(etrace: Option<&TopOptions>) -> u64 {
    match etrace {
        Some(options)
            if *options
                != (TopOptions {
                    fifo_depth: options.fifo_depth,
                    ..TopOptions::default()
                }) =>
        {
            ENCODER_WITH_OPTIONS_MAX_ICE40_CELLS
        }
        _ => ENCODER_MAX_ICE40_CELLS,
    }
}

/// Path lines of the summary.
fn path_lines(s: &mut String, paths: &[CriticalPath]) {
    for p in paths {
        let _ = writeln!(
            s,
            "  path       {} -> {}: {:.2} ns, {} logic steps, {} -> {}",
            p.from_clock, p.to_clock, p.delay_ns, p.logic_levels, p.start, p.end
        );
    }
}

fn paths_json(paths: &[CriticalPath]) -> Vec<serde_json::Value> {
    paths
        .iter()
        .map(|p| {
            json!({
                "from_clock": p.from_clock,
                "to_clock": p.to_clock,
                "start": p.start,
                "end": p.end,
                "logic_levels": p.logic_levels,
                "delay_ns": p.delay_ns,
                "nets": p.nets,
            })
        })
        .collect()
}

impl EncoderReport {
    /// The Fmax target is met.
    pub fn fmax_met(&self) -> bool {
        self.fmax_mhz.is_some_and(|f| f >= self.target_mhz)
    }
}

/// What drives the encoder of a board top.
#[derive(Debug, Clone)]
pub enum Source {
    /// The ingress replay: the records replayed and the replay's constants.
    Replay {
        /// The program whose run the board replays (its ELF).
        program: PathBuf,
        /// The index of the first replayed record in the program's run.
        first_record: usize,
        /// The hart model's memory map for the run (`-m`; `None`: its default).
        memory: Option<String>,
        /// Replayed records.
        records: usize,
        /// The replay's build-time constants.
        settings: BoardSettings,
    },
    /// A core running a program (`--core`).
    Core {
        /// The core.
        core: SocCore,
        /// The program's ELF.
        program: PathBuf,
        /// The SoC's RAM in bytes.
        ram_bytes: u64,
        /// Its encoder's generation options.
        encoder: SocEncoderOptions,
    },
}

/// A board top to build: its Verilog and what the report says of it.
pub struct Design {
    /// The board.
    pub board: Board,
    /// The trace protocol of its encoder: `E-Trace` or `N-Trace`.
    pub protocol: &'static str,
    /// The encoder configuration.
    pub config: Config,
    /// Top module.
    pub top: String,
    /// One line saying what it is (the report's `description`; heads the board's
    /// parameter files).
    pub description: String,
    /// Its Verilog.
    pub verilog: String,
    /// The core's Verilog files (none for the replay top).
    pub core_sources: Vec<PathBuf>,
    /// The UART's baud rate achieved.
    pub actual_baud: f64,
    /// The UART's bit time in cycles.
    pub cycles_per_bit: u32,
    /// What drives the encoder.
    pub source: Source,
}

/// Everything `etrace synth` measured.
#[derive(Debug, Clone)]
pub struct Report {
    /// The board.
    pub board: Board,
    /// The trace protocol of its encoder: `E-Trace` or `N-Trace`.
    pub protocol: &'static str,
    /// The encoder configuration.
    pub config: Config,
    /// Top module.
    pub top: String,
    /// One line saying what it is, the encoder's options included ([`Design`]).
    pub description: String,
    /// The design's clock (the board oscillator).
    pub clock_mhz: f64,
    /// Timing target given to nextpnr.
    pub requested_mhz: f64,
    /// UART baud rate achieved.
    pub baud: f64,
    /// UART bit time in cycles.
    pub cycles_per_bit: u32,
    /// What drives the encoder.
    pub source: Source,
    /// The bitstream file.
    pub bitstream: PathBuf,
    /// Basic cells.
    pub cells: Cells,
    /// Cell counts by yosys cell type.
    pub yosys_cells: Vec<(String, u64)>,
    /// nextpnr's utilization: (resource, used, available).
    pub utilization: Vec<(String, u64, u64)>,
    /// Fmax of every clock.
    pub fmax: Vec<ClockFmax>,
    /// Critical paths.
    pub critical_paths: Vec<CriticalPath>,
    /// The encoder alone.
    pub encoder: Option<EncoderReport>,
    /// Seconds of synthesis.
    pub seconds_synth: f64,
    /// Seconds of place and route.
    pub seconds_pnr: f64,
    /// Seconds of bitstream packing.
    pub seconds_pack: f64,
    /// Seconds of the whole command.
    pub seconds_total: f64,
}

fn counts_json(cells: &[(String, u64)]) -> serde_json::Value {
    cells
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

impl Report {
    /// The lowest achieved Fmax over the clocks.
    pub fn worst_fmax(&self) -> Option<f64> {
        self.fmax
            .iter()
            .map(|f| f.achieved_mhz)
            .min_by(|a, b| a.total_cmp(b))
    }

    /// Every clock reaches the requested frequency.
    pub fn timing_met(&self) -> bool {
        !self.fmax.is_empty()
            && self
                .fmax
                .iter()
                .all(|f| f.achieved_mhz >= self.requested_mhz)
    }

    fn used(&self, resource: &str) -> Option<(u64, u64)> {
        self.utilization
            .iter()
            .find(|(name, _, _)| name == resource)
            .map(|&(_, used, available)| (used, available))
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        let value = json!({
            "board": self.board.name(),
            "device": self.board.device(),
            "protocol": self.protocol,
            "config": self.config.name(),
            "top": self.top,
            "description": self.description,
            "clock_mhz": self.clock_mhz,
            "requested_mhz": self.requested_mhz,
            "timing_met": self.timing_met(),
            "uart": { "baud": self.baud, "cycles_per_bit": self.cycles_per_bit },
            "replay": match &self.source {
                Source::Replay { program, first_record, memory, records, settings } => json!({
                    "program": program.display().to_string(),
                    "first_record": first_record,
                    "memory": memory,
                    "records": records,
                    "period_cycles": settings.period,
                    "gap_cycles": settings.gap,
                    "paced": settings.paced,
                }),
                Source::Core { .. } => serde_json::Value::Null,
            },
            "core": match &self.source {
                Source::Core { core, program, ram_bytes, .. } => json!({
                    "core": core.name(),
                    "parameters": core.parameters(self.board),
                    "program": program.display().to_string(),
                    "ram_bytes": ram_bytes,
                }),
                Source::Replay { .. } => serde_json::Value::Null,
            },
            "bitstream": self.bitstream.display().to_string(),
            "cells": self.cells.to_json(),
            "yosys_cells": counts_json(&self.yosys_cells),
            "utilization": self.utilization.iter().map(|(k, used, available)| {
                (k.clone(), json!({ "used": used, "available": available }))
            }).collect::<serde_json::Map<_, _>>(),
            "fmax": self.fmax.iter().map(|f| json!({
                "clock": f.clock,
                "achieved_mhz": f.achieved_mhz,
                "constraint_mhz": f.constraint_mhz,
            })).collect::<Vec<_>>(),
            "critical_paths": paths_json(&self.critical_paths),
            "encoder": self.encoder.as_ref().map(|e| json!({
                "top": e.top,
                "fifo_depth": e.fifo_depth,
                "options": e.options,
                "cells": e.cells.to_json(),
                "yosys_cells": counts_json(&e.yosys_cells),
                "logic_cells": e.logic_cells,
                "logic_cells_max": (self.board.family() == Family::Ice40)
                    .then_some(e.max_ice40_cells),
                "fmax_mhz": e.fmax_mhz,
                "fmax_target_mhz": e.target_mhz,
                "fmax_met": e.fmax_met(),
                "fmax_measured_on": "timing harness: every input from a flip-flop, every output into one, pins placed by nextpnr",
                "critical_paths": paths_json(&e.critical_paths),
                "seconds": e.seconds,
            })),
            "seconds": {
                "synth": self.seconds_synth,
                "pnr": self.seconds_pnr,
                "pack": self.seconds_pack,
                "total": self.seconds_total,
            },
        });
        let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The one-screen summary.
    pub fn summary(&self, report_path: &Path) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} ({}), {} encoder {}, clock {} MHz, UART {:.0} baud ({} cycles per bit)",
            self.board.name(),
            self.board.device(),
            self.protocol,
            self.config.name(),
            self.clock_mhz,
            self.baud,
            self.cycles_per_bit
        );
        let _ = writeln!(s, "  design     {}", self.description);
        if let Source::Core {
            core,
            program,
            ram_bytes,
            ..
        } = &self.source
        {
            let _ = writeln!(
                s,
                "  core       {} running {} from {} KiB of block RAM",
                core.name(),
                program.display(),
                ram_bytes / 1024
            );
        }
        let _ = writeln!(s, "  bitstream  {}", self.bitstream.display());
        let _ = writeln!(s, "  cells      {}", self.cells.line());
        for resource in [
            "ICESTORM_LC",
            "TRELLIS_COMB",
            "TRELLIS_FF",
            "ICESTORM_RAM",
            "DP16KD",
        ] {
            if let Some((used, available)) = self.used(resource) {
                let _ = writeln!(
                    s,
                    "  {:<10} {used} / {available} ({:.0} %)",
                    resource,
                    100.0 * used as f64 / available.max(1) as f64
                );
            }
        }
        for f in &self.fmax {
            let verdict = if f.achieved_mhz >= self.requested_mhz {
                "met"
            } else {
                "FAILED"
            };
            let _ = writeln!(
                s,
                "  Fmax       {:.2} MHz on {} (target {} MHz: {verdict})",
                f.achieved_mhz, f.clock, self.requested_mhz
            );
        }
        path_lines(&mut s, &self.critical_paths);
        if let Some(e) = &self.encoder {
            let lc = match (e.logic_cells, self.board.family()) {
                (Some(n), Family::Ice40) => format!(
                    ", {n} logic cells (at most {}: {})",
                    e.max_ice40_cells,
                    if n <= e.max_ice40_cells {
                        "met"
                    } else {
                        "MISSED"
                    }
                ),
                (Some(n), Family::Ecp5) => format!(", {n} TRELLIS_COMB"),
                (None, _) => String::new(),
            };
            let _ = writeln!(
                s,
                "  encoder    {} alone ({}, {}-byte FIFO, all inputs free): {}{lc}",
                e.top,
                e.options,
                e.fifo_depth,
                e.cells.line()
            );
            let _ = writeln!(
                s,
                "             Fmax {} on {} in a timing harness (target {} MHz: {})",
                e.fmax_mhz
                    .map_or("unknown".to_string(), |f| format!("{f:.2} MHz")),
                self.board.device(),
                e.target_mhz,
                if e.fmax_met() { "met" } else { "MISSED" }
            );
            path_lines(&mut s, &e.critical_paths);
        }
        let _ = writeln!(
            s,
            "  time       synth {:.0} s, place and route {:.0} s, pack {:.0} s, total {:.0} s",
            self.seconds_synth, self.seconds_pnr, self.seconds_pack, self.seconds_total
        );
        let _ = writeln!(s, "  report     {}", report_path.display());
        s
    }
}
