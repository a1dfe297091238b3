//! Post-synthesis check of the N-Trace encoder (issue 25, "Verilator lint, no latch, no
//! loop, post-synthesis netlist simulation equal to the model"): the rv32 N-Trace encoder
//! (`etrace_hdl::ntrace::generate_ntrace`) synthesised for iCE40 and for ECP5, written back
//! as a gate-level netlist and simulated under Icarus Verilog with the family's cell
//! models (ECP5 without block RAM, which its models cannot simulate), sends exactly the
//! bytes of the model's cycle encoder (`NtraceCycleEncoder`
//! with the same options and FIFO) for the whole ingress trace of the `traps` test
//! program (exceptions, `xRET`s, calls and returns) and the end of the trace. The iCE40
//! build is HTM with every optimisation; the ECP5 build is BTM with a FIFO too small for
//! its send rate, so that its netlist loses messages and restarts (Error messages, SYNC 7)
//! as the model does.
//!
//! Stimulus: reset for two cycles, then each record offered with `in_valid` until the
//! netlist takes it (`in_ready`), then the end of the trace (trace enable low), then
//! [`TAIL`] cycles of drain.

use std::path::PathBuf;

mod common;
mod netlist_common;
mod ntrace_common;

use etrace_hart::HartConfig;
use etrace_hdl::config::Config;
use etrace_hdl::ntrace::{generate_ntrace, NtraceFifoConfig, NtraceHwOptions, NtraceTopOptions};
use etrace_ntrace::encoder::cycle::{FifoConfig, NtraceCycleEncoder};
use etrace_spec::ingress::IngressRecord;
use netlist_common::Flow;

/// Cycles run after the end of the trace is taken: the last message and the drain.
const TAIL: usize = 600;
/// Cycles a step may wait to be taken before the run is declared hung.
const STALL: usize = 4096;

/// Testbench around the netlist: `TOP`, `SLOTS`, `TAIL`, `STALL` defined on the command
/// line; `records.hex` holds one step per line, packed by [`step_word`]. Prints each byte
/// sent (`out_valid` before the rising edge) as two hex digits, then `end lost N hung H`
/// (cycles with `lost` high; steps never taken).
const TESTBENCH: &str = r#"
`timescale 1ns/1ps
module tb;
  reg clock = 0, reset = 1;
  reg iretire = 0, hart_context = 0, sijump = 0, ilastsize = 0, trace_enable = 0;
  reg in_valid = 0;
  reg [3:0] itype = 0;
  reg [31:0] iaddr = 0;
  reg [1:0] privilege = 0;
  wire [7:0] out_data;
  wire out_valid, out_last, lost, in_ready, busy;
  reg [63:0] steps [0:`SLOTS-1];
  reg [63:0] r;
  integer slot, wait_cycles, cycle, lost_cycles = 0, hung = 0;
  `TOP dut(.clock(clock), .reset(reset), .iretire(iretire), .itype(itype), .iaddr(iaddr),
    .privilege(privilege), .hart_context(hart_context), .sijump(sijump),
    .ilastsize(ilastsize), .trace_enable(trace_enable), .in_valid(in_valid),
    .in_ready(in_ready), .out_valid(out_valid), .out_data(out_data), .out_last(out_last),
    .lost(lost), .busy(busy));
  reg taken;
  // One clock: outputs sampled 4 ns after the falling edge, then the rising edge.
  task tick;
    begin
      #4;
      if (out_valid) $display("%h", out_data);
      if (lost) lost_cycles = lost_cycles + 1;
      taken = in_valid && in_ready;
      #1 clock = 1;
      #5 clock = 0;
    end
  endtask
  initial begin
    $readmemh("records.hex", steps);
    #5 clock = 1; #5 clock = 0; #5 clock = 1; #5 clock = 0;
    reset = 0;
    for (slot = 0; slot < `SLOTS; slot = slot + 1) begin
      r = steps[slot];
      iaddr = r[31:0]; itype = r[35:32]; privilege = r[37:36]; iretire = r[38];
      hart_context = r[39]; sijump = r[40]; ilastsize = r[41]; trace_enable = !r[42];
      in_valid = 1;
      taken = 0;
      wait_cycles = 0;
      while (!taken && wait_cycles < `STALL) begin
        tick;
        wait_cycles = wait_cycles + 1;
      end
      if (!taken) hung = hung + 1;
      in_valid = 0;
    end
    for (cycle = 0; cycle < `TAIL; cycle = cycle + 1) tick;
    $display("end lost %0d hung %0d", lost_cycles, hung);
    $finish;
  end
endmodule
"#;

/// The end-of-trace flag of a step word.
const END: u64 = 1 << 42;

/// One record step as a line of `records.hex` (RV32 widths): `iaddr` bits 31:0, `itype`
/// 35:32, `priv` 37:36, `iretire` 38, `context` 39, `sijump` 40, `ilastsize` 41; bit 42
/// is the end of the trace.
fn step_word(r: &IngressRecord) -> u64 {
    (r.iaddr & 0xffff_ffff)
        | u64::from(r.itype.code() & 0xf) << 32
        | u64::from(r.privilege.code() & 3) << 36
        | u64::from(r.iretire & 1) << 38
        | (r.context & 1) << 39
        | u64::from(r.sijump) << 40
        | u64::from(r.ilastsize) << 41
}

/// Synthesises the rv32 N-Trace encoder built with `options` with `flow`, simulates the
/// netlist on the `traps` records and compares its bytes with the model's; whether the
/// model restarted after an overflow must be `overflows`.
fn netlist_sends_the_models_stream(flow: Flow, options: NtraceTopOptions, overflows: bool) {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("ntrace-post-synth-{}", flow.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let design = generate_ntrace(Config::Rv32, &options).unwrap();
    flow.netlist(&design.verilog, &design.top, &dir);

    let records =
        etrace_programs::records("traps-rv32", HartConfig::default(), usize::MAX).unwrap();
    let f = options.fifo;
    let mut model = NtraceCycleEncoder::new(
        ntrace_common::model_options(options.generator),
        FifoConfig {
            bytes: f.bytes as usize,
            send_bytes: f.send_bytes,
            every_cycles: f.every_cycles,
        },
    )
    .unwrap();
    for r in &records {
        model.push(r);
    }
    model.finish();
    assert_eq!(
        model.restarts().len() > 1,
        overflows,
        "{}: restarts {:?}",
        flow.name,
        model.restarts()
    );
    let want = model.take_bytes();
    let mut hex: String = records
        .iter()
        .map(|r| format!("{:016x}\n", step_word(r)))
        .collect();
    hex.push_str(&format!("{END:016x}\n"));
    std::fs::write(dir.join("records.hex"), hex).unwrap();
    let run = flow.simulate(
        &dir,
        TESTBENCH,
        &[
            format!("TOP={}", design.top),
            format!("SLOTS={}", records.len() + 1),
            format!("TAIL={TAIL}"),
            format!("STALL={STALL}"),
        ],
    );
    let got = run.bytes;
    let end = run
        .end
        .unwrap_or_else(|| panic!("{}: the testbench did not finish", flow.name));
    assert!(
        end.ends_with("hung 0"),
        "{}: every step taken: {end}",
        flow.name
    );
    assert_eq!(
        !end.starts_with("lost 0 "),
        overflows,
        "{}: `lost` rises exactly when the model overflows: {end}",
        flow.name
    );
    let first = got.iter().zip(&want).position(|(a, b)| a != b);
    assert!(
        first.is_none() && got.len() == want.len(),
        "{}: first difference at byte {first:?} (netlist {} bytes, model {} bytes)",
        flow.name,
        got.len(),
        want.len()
    );
    assert!(want.len() > 150, "a real stream: {} bytes", want.len());
    assert!(
        records.iter().any(|r| r.itype.is_trap()),
        "traps in the trace"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ice40_netlist_of_the_ntrace_encoder_sends_the_models_mseo_stream() {
    let options = NtraceTopOptions {
        generator: NtraceHwOptions {
            sijump: true,
            call_stack: 4,
            repeat_history: true,
            sync_max: 8,
            ..NtraceHwOptions::default()
        },
        ..NtraceTopOptions::default()
    };
    netlist_sends_the_models_stream(Flow::ice40(), options, false);
}

#[test]
fn ecp5_netlist_of_the_ntrace_encoder_loses_and_restarts_as_the_model() {
    let options = NtraceTopOptions {
        generator: NtraceHwOptions {
            htm: false,
            sync_max: 1,
            ..NtraceHwOptions::default()
        },
        fifo: NtraceFifoConfig {
            bytes: 64,
            send_bytes: 1,
            every_cycles: 3,
            error_fault: false,
        },
    };
    // yosys's ECP5 cell models have no behaviour for the block RAM (DP16KD), which the
    // 256-entry byte FIFO maps to: this netlist keeps it in LUT RAM.
    let flow = Flow {
        synth: "synth_ecp5 -nobram",
        ..Flow::ecp5()
    };
    netlist_sends_the_models_stream(flow, options, true);
}
