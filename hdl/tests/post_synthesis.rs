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

use std::path::PathBuf;

mod common;
mod netlist_common;

use etrace_encoder::EncoderOptions;
use etrace_hart::HartConfig;
use etrace_hdl::config::Config;
use etrace_hdl::top::{generate, TopOptions};
use etrace_spec::ingress::IngressRecord;
use netlist_common::Flow;

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

/// Synthesises the RV32 encoder with `flow`, simulates the netlist on the replayed
/// `traps` records and compares its bytes with the model's.
fn netlist_sends_the_models_stream(flow: Flow) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("post-synth-{}", flow.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let design = generate(Config::Rv32, &TopOptions::default()).unwrap();
    flow.netlist(&design.verilog, &design.top, &dir);
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
    let run = flow.simulate(
        &dir,
        TESTBENCH,
        &[
            format!("TOP={}", design.top),
            format!("RECORDS={}", slots.len()),
            format!("STRIDE={STRIDE}"),
            format!("TAIL={TAIL}"),
            format!("RESYNC=16'd{RESYNC_MAX}"),
        ],
    );
    let got = run.bytes;
    let lost = (run.end.as_deref())
        .and_then(|e| e.strip_prefix("lost "))
        .and_then(|n| n.trim().parse::<u64>().ok());
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
    netlist_sends_the_models_stream(Flow::ice40());
}

#[test]
fn ecp5_netlist_sends_the_models_encap_stream() {
    netlist_sends_the_models_stream(Flow::ecp5());
}
