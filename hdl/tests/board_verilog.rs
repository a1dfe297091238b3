//! The generated Verilog of a board top (not rust-hdl's simulation of it) under Icarus
//! Verilog: the iCEBreaker top, built for a 3 Mbaud UART (4 cycles per bit), runs from
//! power-up through two passes of its 512-record replay; its serial line carries exactly
//! the model's encap stream of those passes (one `Encoder::encode_all` per pass), and the trace-loss LED never lights. This
//! checks what the FPGA tools read: the tables' initial contents, the literal rewrite of
//! `etrace_hdl::verilog`, the power-up values.

mod common;

use etrace_encoder::EncoderOptions;
use etrace_hdl::board::{self, Board, BoardOptions};
use etrace_hdl::config::Config;
use etrace_programs::replay;

const TESTBENCH: &str = "
`timescale 1ns/1ns
module tb;
  reg clock = 0;
  wire uart_tx, led_activity, led_lost;
  integer i, lost = 0, active = 0;
  etrace_board_icebreaker dut(.clock(clock), .uart_tx(uart_tx),
    .led_activity(led_activity), .led_lost(led_lost));
  initial begin
    for (i = 0; i < `CYCLES; i = i + 1) begin
      #5 clock = 1;
      #5 clock = 0;
      $write(\"%b\", uart_tx);
      if (!led_lost) lost = lost + 1;
      if (!led_activity) active = active + 1;
    end
    $write(\"\\nlost %0d active %0d\\n\", lost, active);
    $finish;
  end
endmodule
";

#[test]
fn icebreaker_verilog_sends_the_models_stream_under_icarus() {
    let options = BoardOptions {
        baud: 3_000_000,
        ..BoardOptions::default()
    };
    let config = Config::Rv32;
    let records = replay::replayed_records(config.xlen(), config.itype()).unwrap();
    let g = board::generate(Board::Icebreaker, config, &options, records).unwrap();
    assert_eq!(g.settings.cycles_per_bit, 4);
    let runs = vec![g.records.as_slice(); 3];
    let (want, ends) = common::encap_stream(&config.params(), EncoderOptions::default(), &runs);
    let first = ends[0];
    let second = (want.len() - first) / 2;
    // Two passes: 41 cycles a byte, a record every 8 cycles or more, the enable gaps.
    let cycles = 41 * (first + second) + 2 * 8 * g.records.len() + 2000;

    let run = common::run_under_icarus(
        "board-iverilog",
        &g.verilog,
        TESTBENCH,
        &[format!("CYCLES={cycles}")],
    );
    let line = run.line;
    assert_eq!(line.len(), cycles, "one sample per cycle");
    let got = common::decode_uart(&line, 4);
    assert!(
        got.len() >= first + second,
        "two whole passes: {} bytes, passes of {first} and {second}",
        got.len()
    );
    let diff = got.iter().zip(&want).position(|(a, b)| a != b);
    assert_eq!(diff, None, "first difference at byte {diff:?}");
    let counts = run.counts;
    assert!(counts.starts_with("lost 0 active "), "{counts}");
    assert_ne!(counts, "lost 0 active 0", "the activity LED lights");
}
