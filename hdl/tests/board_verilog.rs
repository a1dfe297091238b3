//! The generated Verilog of a board top (not rust-hdl's simulation of it) under Icarus
//! Verilog: the iCEBreaker top, built for a 3 Mbaud UART (4 cycles per bit), without and
//! with generation options, runs from power-up through two passes of its 512-record
//! replay; its serial line carries exactly the model's encap stream of those passes (one
//! `Encoder::encode_all` per pass; with timestamps, the hardware's, checked to rise), and
//! the trace-loss LED never lights. This
//! checks what the FPGA tools read: the tables' initial contents, the literal rewrite of
//! `etrace_hdl::verilog`, the power-up values.

mod common;

use etrace_encoder::{Encoder, EncoderOptions};
use etrace_hdl::board::{self, Board, BoardEncoder, BoardOptions};
use etrace_hdl::config::Config;
use etrace_programs::replay;
use etrace_spec::framing::byte_stream::ByteDeframer;
use etrace_spec::framing::encap::{EncapConfig, EncapFormat};
use etrace_spec::framing::{deframe_all, FrameEvent};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::TeInst;
use etrace_spec::params::Params;

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

/// Runs the iCEBreaker top of `config` built with `encoder` at 3 Mbaud under Icarus for
/// two passes of its replay of `records` and checks its serial line against the model's
/// stream of those passes (encoder options `options`, parameters `params`, framed with
/// `encap`). Returns the replayed records.
fn check_icebreaker(
    encoder: BoardEncoder,
    records: Vec<IngressRecord>,
    params: &Params,
    options: EncoderOptions,
    encap: EncapConfig,
    dir: &str,
) -> Vec<IngressRecord> {
    let board_options = BoardOptions {
        baud: 3_000_000,
        encoder,
        ..BoardOptions::default()
    };
    let config = Config::Rv32;
    let g = board::generate(Board::Icebreaker, config, &board_options, records).unwrap();
    assert_eq!(g.settings.cycles_per_bit, 4);
    let runs = vec![g.records.as_slice(); 3];
    let (want, ends) = common::encap_stream_framed(params, options, encap, &runs, &[]);
    let first = ends[0];
    let second = (want.len() - first) / 2;
    // Two passes: 41 cycles a byte, a record every 8 cycles or more, the enable gaps.
    let cycles = 41 * (first + second) + 2 * 8 * g.records.len() + 2000;

    let run = common::run_under_icarus(dir, &g.verilog, TESTBENCH, &[format!("CYCLES={cycles}")]);
    let line = run.line;
    assert_eq!(line.len(), cycles, "one sample per cycle");
    let got = common::decode_uart(&line, 4);
    assert!(
        got.len() >= first + second,
        "two whole passes: {} bytes, passes of {first} and {second}",
        got.len()
    );
    // With timestamps the packets carry the hardware's cycle counter: checked to rise from
    // packet to packet, then framed into the model's stream in the same places.
    let want = if encap.timestamp_bytes > 0 {
        let stamps = rising_timestamps(&got, encap);
        common::encap_stream_framed(params, options, encap, &runs, &stamps).0
    } else {
        want
    };
    let diff = got.iter().zip(&want).position(|(a, b)| a != b);
    assert_eq!(diff, None, "first difference at byte {diff:?}");
    let counts = run.counts;
    assert!(counts.starts_with("lost 0 active "), "{counts}");
    assert_ne!(counts, "lost 0 active 0", "the activity LED lights");
    g.records
}

/// The timestamps of the packets of `stream` (framed with `encap`, from its first byte),
/// each checked to be later than the one before (the 16-bit cycle counter wraps: later by
/// less than half its range).
fn rising_timestamps(stream: &[u8], encap: EncapConfig) -> Vec<u64> {
    let mut deframer = ByteDeframer::<EncapFormat>::new(encap);
    let stamps: Vec<u64> = deframe_all(&mut deframer, stream)
        .into_iter()
        .filter_map(|e| match e {
            FrameEvent::Packet(p) => Some(p.timestamp.expect("every packet has a timestamp")),
            FrameEvent::Error { .. } => None,
        })
        .collect();
    assert!(stamps.len() > 20, "{} packets", stamps.len());
    for (n, pair) in stamps.windows(2).enumerate() {
        let step = pair[1].wrapping_sub(pair[0]) & 0xffff;
        assert!(
            step > 0 && step < 0x8000,
            "packet {n}: timestamp {:#x} then {:#x}",
            pair[0],
            pair[1]
        );
    }
    stamps
}

/// The records the boards replay by default: a window of the `traps` program's run.
fn traps_window() -> Vec<IngressRecord> {
    let config = Config::Rv32;
    replay::replayed_records(config.xlen(), config.itype()).unwrap()
}

#[test]
fn icebreaker_verilog_sends_the_models_stream_under_icarus() {
    let _ = check_icebreaker(
        BoardEncoder::default(),
        traps_window(),
        &Config::Rv32.params(),
        EncoderOptions::default(),
        EncapConfig::default(),
        "board-iverilog",
    );
}

/// A board built with every generation option (`etrace synth --bpred-size 6
/// --return-stack-size 2 --src-bits 8 --timestamp`) runs its predictor and return stack:
/// its stream is the model's with branch prediction and implicit return on
/// (`sec:branch-prediction`, `sec:implicit-return`), framed with an 8-bit `srcID` and a
/// rising 2-byte timestamp on every packet (`encapsulation.adoc`).
#[test]
fn icebreaker_verilog_with_options_sends_the_models_stream_under_icarus() {
    let encoder = common::all_options_board();
    let params = Params {
        bpred_size_p: 6,
        return_stack_size_p: 2,
        ..Config::Rv32.params()
    };
    let options = EncoderOptions {
        branch_prediction: true,
        implicit_return: true,
        ..EncoderOptions::default()
    };
    let encap = EncapConfig {
        src_bits: 8,
        timestamp_bytes: 2,
        ..EncapConfig::default()
    };
    let records = check_icebreaker(
        encoder,
        traps_window(),
        &params,
        options,
        encap,
        "board-iverilog-options",
    );
    // Each option changes the packets of this replay (at least the `ioptions` of its
    // syncs, `sec:format3`; the replay has no run of 31 correct predictions, so no format
    // 0): the check above would fail if the board ignored either.
    let packets = |o| -> Vec<TeInst> {
        let encoded = Encoder::encode_all(&params, o, &records).unwrap();
        encoded.into_iter().map(|p| p.packet).collect()
    };
    let with = packets(options);
    for without in [
        EncoderOptions {
            branch_prediction: false,
            ..options
        },
        EncoderOptions {
            implicit_return: false,
            ..options
        },
    ] {
        assert_ne!(with, packets(without), "{without:?} changes nothing");
    }
}

/// A board replaying another program (`etrace synth ... PROG`: a window of the `loops`
/// program's run) with the branch predictor: its long loops give runs of 31 correct
/// predictions, so its stream has format 0 packets (`sec:format0`), exactly the model's.
#[test]
fn icebreaker_verilog_replaying_loops_sends_format_0_under_icarus() {
    let bytes = etrace_programs::elf("loops-rv32").unwrap();
    let window = replay::replay_window("loops-rv32", &bytes, Default::default()).unwrap();
    assert_eq!(window.records.len(), replay::COUNT);
    let encoder = BoardEncoder {
        core: etrace_hdl::encoder_core::CoreOptions {
            bpred_size: 6,
            ..Default::default()
        },
        ..BoardEncoder::default()
    };
    let params = Params {
        bpred_size_p: 6,
        ..Config::Rv32.params()
    };
    let options = EncoderOptions {
        branch_prediction: true,
        ..EncoderOptions::default()
    };
    let records = check_icebreaker(
        encoder,
        window.records,
        &params,
        options,
        EncapConfig::default(),
        "board-iverilog-loops",
    );
    let encoded = Encoder::encode_all(&params, options, &records).unwrap();
    let format_0 = encoded
        .iter()
        .filter(|p| matches!(p.packet, TeInst::BranchCount(_)))
        .count();
    assert!(format_0 > 0, "no format 0 packet in the replay");
}
