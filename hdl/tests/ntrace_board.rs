//! The N-Trace board top (`etrace_hdl::board::ntrace_top`) as generated Verilog under
//! Icarus Verilog, from power-up through two passes of its replay: its serial line
//! carries exactly the model's MSEO stream of those passes (one `NtraceCycleEncoder` per
//! pass, pushed every replayed record and finished), whatever the UART's pace. Three
//! builds: the iCEBreaker with rv32 in HTM; the ULX3S with rv64 in BTM with every
//! optimisation; and a FIFO too small for its send rate, whose overflows (Error
//! messages, SYNC 7 restarts) the model makes the same and the loss LED shows.

mod common;
mod ntrace_common;

use etrace_hdl::board::{self, Board, BoardOptions};
use etrace_hdl::config::Config;
use etrace_hdl::ntrace::{NtraceFifoConfig, NtraceHwOptions, NtraceTopOptions};
use etrace_ntrace::encoder::cycle::{FifoConfig, NtraceCycleEncoder};
use etrace_programs::replay;

/// UART bit time of the runs (3 Mbaud from 12 MHz, and 6.25 Mbaud from 25 MHz).
const CYCLES_PER_BIT: usize = 4;

/// Testbench: `TOP`, `CYCLES` and, for the ULX3S, `WIFI` defined on the command line.
/// Prints the serial line (one sample per cycle), then the cycles with each LED lit.
const TESTBENCH: &str = "
`timescale 1ns/1ns
module tb;
  reg clock = 0;
  wire uart_tx, led_activity, led_lost;
  integer i, lost = 0, active = 0;
`ifdef WIFI
  wire wifi_gpio0;
  `TOP dut(.clock(clock), .uart_tx(uart_tx), .led_activity(led_activity),
    .led_lost(led_lost), .wifi_gpio0(wifi_gpio0));
`else
  `TOP dut(.clock(clock), .uart_tx(uart_tx), .led_activity(led_activity),
    .led_lost(led_lost));
`endif
  initial begin
    for (i = 0; i < `CYCLES; i = i + 1) begin
      #5 clock = 1;
      #5 clock = 0;
      $write(\"%b\", uart_tx);
      if (led_lost == `LIT) lost = lost + 1;
      if (led_activity == `LIT) active = active + 1;
    end
    $write(\"\\nlost %0d active %0d\\n\", lost, active);
    $finish;
  end
endmodule
";

/// One board build and what the run must show.
struct Case {
    board: Board,
    config: Config,
    ntrace: NtraceTopOptions,
    /// The model loses messages in a pass.
    overflows: bool,
}

/// The model's bytes of one pass over `records`.
fn model_pass(case: &Case, records: &[etrace_spec::ingress::IngressRecord]) -> Vec<u8> {
    let mut options = ntrace_common::model_options(case.ntrace.generator);
    options.itype_width = case.config.itype();
    let f = case.ntrace.fifo;
    let fifo = FifoConfig {
        bytes: f.bytes as usize,
        send_bytes: f.send_bytes,
        every_cycles: f.every_cycles,
    };
    let mut model = NtraceCycleEncoder::new(options, fifo).unwrap();
    for r in records {
        model.push(r);
    }
    model.finish();
    assert_eq!(
        model.restarts().len() > 1,
        case.overflows,
        "{}: restarts {:?}",
        case.config.name(),
        model.restarts()
    );
    model.take_bytes()
}

fn run(case: &Case) {
    let options = BoardOptions {
        baud: case.board.clock_hz() / CYCLES_PER_BIT as u32,
        ..BoardOptions::default()
    };
    let config = case.config;
    let records = replay::replayed_records(config.xlen(), config.itype()).unwrap();
    let g = board::generate_ntrace(case.board, config, &options, &case.ntrace, records).unwrap();
    assert_eq!(g.settings.cycles_per_bit as usize, CYCLES_PER_BIT);
    let pass = model_pass(case, &g.records);
    let want = pass.repeat(2);
    // Per pass: each record step waits for its bytes to leave (10 bits a byte), plus the
    // replay's period of 8 cycles and the step itself (at most 2 + 9 slots + the bytes
    // written); the gap and the drain at the end.
    let per_pass = 11 * CYCLES_PER_BIT * pass.len() + 48 * g.records.len() + 1000;
    let cycles = 2 * per_pass + 2000;

    let name = g.top.clone();
    let mut defines = vec![
        format!("CYCLES={cycles}"),
        format!("TOP={name}"),
        format!("LIT=1'b{}", u8::from(!case.board.led_active_low())),
    ];
    if case.board == Board::Ulx3s25f {
        defines.push("WIFI".to_string());
    }
    let run = common::run_under_icarus(
        &format!("ntrace-board-{name}"),
        &g.verilog,
        TESTBENCH,
        &defines,
    );
    let line = run.line;
    assert_eq!(line.len(), cycles, "{name}: one sample per cycle");
    let got = common::decode_uart(&line, CYCLES_PER_BIT);
    assert!(
        got.len() >= want.len(),
        "{name}: two whole passes: {} bytes, passes of {}",
        got.len(),
        pass.len()
    );
    let diff = got.iter().zip(&want).position(|(a, b)| a != b);
    assert_eq!(diff, None, "{name}: first difference at byte {diff:?}");
    let counts = run.counts;
    let lost_led = !counts.starts_with("lost 0 ");
    assert_eq!(lost_led, case.overflows, "{name}: {counts}");
    assert!(
        !counts.ends_with("active 0"),
        "{name}: the activity LED lights: {counts}"
    );
}

#[test]
fn ntrace_board_top_sends_the_models_mseo_stream_htm_rv32_icebreaker() {
    run(&Case {
        board: Board::Icebreaker,
        config: Config::Rv32,
        ntrace: NtraceTopOptions::default(),
        overflows: false,
    });
}

#[test]
fn ntrace_board_top_sends_the_models_mseo_stream_btm_all_options_rv64_ulx3s() {
    run(&Case {
        board: Board::Ulx3s25f,
        config: Config::Rv64,
        ntrace: NtraceTopOptions {
            generator: NtraceHwOptions {
                htm: false,
                sijump: true,
                call_stack: 4,
                repeat_history: true,
                sync_max: 32,
                ..NtraceHwOptions::default()
            },
            ..NtraceTopOptions::default()
        },
        overflows: false,
    });
}

#[test]
fn ntrace_board_top_overflow_matches_the_model_and_lights_the_loss_led() {
    run(&Case {
        board: Board::Hx8kBreakout,
        config: Config::Rv32,
        ntrace: NtraceTopOptions {
            generator: NtraceHwOptions {
                htm: false,
                sync_max: 1,
                ..NtraceHwOptions::default()
            },
            fifo: NtraceFifoConfig {
                bytes: 54,
                send_bytes: 1,
                every_cycles: 4,
                error_fault: false,
            },
        },
        overflows: true,
    });
}
