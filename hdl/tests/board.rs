//! The board build (`hdl/src/board`) in rust-hdl's simulator: the UART's 8N1 framing and
//! bit time, the ingress replay's order, loop, pacing and trace-enable gaps, and the whole
//! board top, whose serial line carries exactly the model's encap stream (one
//! `Encoder::encode_all` per replay pass); generation options beyond the generator's
//! limits are refused; and the Verilog of every board top passes yosys and Verilator's
//! lint.

mod common;

use etrace_encoder::EncoderOptions;
use etrace_hdl::board::board_top::{BoardEncoder, BoardSettings, BoardTop};
use etrace_hdl::board::replay::IngressReplay;
use etrace_hdl::board::uart_tx::UartTx;
use etrace_hdl::board::{self, Board, BoardError, BoardOptions, REPLAY_DEPTH};
use etrace_hdl::config::Config;
use etrace_hdl::encoder_core::CoreOptions;
use etrace_hdl::with_config;
use etrace_programs::replay;
use etrace_spec::ingress::{IngressRecord, Itype, Privilege};
use rust_hdl::prelude::*;
use std::sync::{Arc, Mutex};

/// The model's encap stream of `passes` replay passes over `records` (one encoder run per
/// pass), and the length of the first pass.
fn model_stream(records: &[IngressRecord], passes: usize) -> (Vec<u8>, usize) {
    let runs = vec![records; passes];
    let (stream, ends) =
        common::encap_stream(&Config::Rv32.params(), EncoderOptions::default(), &runs);
    (stream, ends[0])
}

/// UartTx outputs of one cycle: (ready, tx).
type UartCycle = (bool, bool);

/// Runs a UartTx of `c` cycles per bit after one reset cycle, offering `bytes` back to
/// back; returns (ready, tx) in each of `cycles` cycles.
fn uart_cycles(c: u32, bytes: &[u8], cycles: usize) -> Vec<UartCycle> {
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let queue = bytes.to_vec();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<UartTx>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<UartTx>| {
        let mut x = sim.init()?;
        x.reset.next = true;
        wait_clock_true!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        x.reset.next = false;
        let mut next = 0;
        for _ in 0..cycles {
            x.valid.next = next < queue.len();
            x.data.next = u64::from(*queue.get(next).unwrap_or(&0)).into();
            x = sim.wait(1, x)?;
            let (ready, tx) = (x.ready.val(), x.tx.val());
            if ready && next < queue.len() {
                next += 1;
            }
            out_tb.lock().unwrap().push((ready, tx));
            wait_clock_cycle!(sim, clock, x);
        }
        sim.done(x)
    });
    let mut uut = UartTx::new(c);
    uut.connect_all();
    sim.run(Box::new(uut), 10 * cycles as u64 + 100).unwrap();
    let v = out.lock().unwrap().clone();
    v
}

#[test]
fn uart_8n1_frames_bit_time_and_ready() {
    let bytes = [0x55, 0x00, 0xff, 0xa7, 0x3c, 0x80];
    for c in [4usize, 5, 13] {
        let frame = 10 * c + 1;
        let got = uart_cycles(c as u32, &bytes, bytes.len() * frame + 3 * c);
        // The expected line: byte i is taken in cycle i * (10c + 1); its start bit, eight
        // data bits (LSB first) and stop bit follow, c cycles each; idle (1) otherwise.
        let mut want_tx = vec![true; got.len()];
        let mut want_ready = vec![true; got.len()];
        for (i, &b) in bytes.iter().enumerate() {
            let taken = i * frame;
            for (k, bit) in std::iter::once(false)
                .chain((0..8).map(|j| b >> j & 1 == 1))
                .chain(std::iter::once(true))
                .enumerate()
            {
                for t in taken + 1 + k * c..taken + 1 + (k + 1) * c {
                    want_tx[t] = bit;
                    want_ready[t] = false;
                }
            }
        }
        let tx: Vec<bool> = got.iter().map(|&(_, tx)| tx).collect();
        let ready: Vec<bool> = got.iter().map(|&(r, _)| r).collect();
        assert_eq!(tx, want_tx, "{c} cycles per bit: the line");
        assert_eq!(ready, want_ready, "{c} cycles per bit: ready");
        assert_eq!(
            common::decode_uart(&tx, c),
            bytes,
            "{c} cycles per bit: decoded"
        );
    }
}

/// Replay outputs of one cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ReplayCycle {
    present: bool,
    trace_enable: bool,
    record: IngressRecord,
}

/// Runs an IngressReplay (16 entries) over `records` after one reset cycle, with `hold`
/// in each cycle; returns its outputs in every cycle.
fn replay_cycles(
    records: &[IngressRecord],
    period: u32,
    gap: u32,
    hold: &[bool],
) -> Vec<ReplayCycle> {
    with_config!(Config::Rv32, [A, E, IT, P] => replay_widths::<A, E, IT>(records, period, gap, hold))
}

fn replay_widths<const A: usize, const E: usize, const IT: usize>(
    records: &[IngressRecord],
    period: u32,
    gap: u32,
    hold: &[bool],
) -> Vec<ReplayCycle> {
    type Replay<const A: usize, const E: usize, const IT: usize> = IngressReplay<A, E, IT, 4>;
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let cycles = hold.len() as u64;
    let hold = hold.to_vec();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Replay<A, E, IT>>| {
        x.clock.next = !x.clock.val()
    });
    sim.add_testbench(move |mut sim: Sim<Replay<A, E, IT>>| {
        let mut x = sim.init()?;
        x.reset.next = true;
        wait_clock_true!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        x.reset.next = false;
        for &h in &hold {
            x.hold.next = h;
            x = sim.wait(1, x)?;
            let b = &x.block;
            let itype = b.itype.val().to_u64();
            let record = IngressRecord {
                iretire: u8::from(b.iretire.val()),
                itype: Itype::from_code(itype).unwrap_or_default(),
                iaddr: b.iaddr.val().to_u64(),
                ilastsize: u8::from(b.ilastsize.val()),
                privilege: Privilege::from_code(b.privilege.val().to_u64()).unwrap_or_default(),
                cause: b.cause.val().to_u64(),
                tval: b.tval.val().to_u64(),
                interrupt: itype == 2,
                context: b.hart_context.val().to_u64(),
                ctype: b.ctype.val().to_u64() as u8,
                sijump: b.sijump.val(),
            };
            // Every test record has `iretire` or a nonzero `itype`: `present` says so.
            assert_eq!(
                x.present.val(),
                record.iretire != 0 || record.itype != Itype::None,
                "present"
            );
            out_tb.lock().unwrap().push(ReplayCycle {
                present: x.present.val(),
                trace_enable: x.trace_enable.val(),
                record,
            });
            wait_clock_cycle!(sim, clock, x);
        }
        sim.done(x)
    });
    let mut uut = Replay::<A, E, IT>::new(records, period, gap).unwrap();
    uut.connect_all();
    sim.run(Box::new(uut), 10 * cycles + 100).unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// Five records that use every field of the table.
fn distinct_records() -> Vec<IngressRecord> {
    let r = |iretire, itype, iaddr: u64, privilege, cause, tval, context, ctype, sijump| {
        IngressRecord {
            iretire,
            itype,
            iaddr,
            // 16-bit instructions at odd half-words (the flags table's `ilastsize` bit).
            ilastsize: u8::from(iaddr & 2 == 0),
            privilege,
            cause,
            tval,
            interrupt: itype == Itype::Interrupt,
            context,
            ctype,
            sijump,
        }
    };
    vec![
        r(
            1,
            Itype::None,
            0x8000_0000,
            Privilege::Machine,
            0,
            0,
            0,
            0,
            false,
        ),
        r(
            1,
            Itype::TakenBranch,
            0x8000_0104,
            Privilege::Supervisor,
            0,
            0,
            1,
            0,
            false,
        ),
        r(
            0,
            Itype::Exception,
            0xffff_fffe,
            Privilege::User,
            0x1f,
            0xdead_beef,
            0,
            1,
            false,
        ),
        r(
            1,
            Itype::InferableJump,
            0x1234_5678,
            Privilege::Machine,
            0,
            0,
            1,
            1,
            true,
        ),
        r(
            0,
            Itype::Interrupt,
            0x8000_0200,
            Privilege::Machine,
            7,
            0,
            0,
            0,
            false,
        ),
    ]
}

#[test]
fn replay_presents_the_records_in_order_in_a_loop_with_enable_gaps() {
    let records = distinct_records();
    let (period, gap) = (3usize, 4usize);
    // Without hold: record k of a pass in cycle period * (k + 1) - 1 after the pass
    // starts; trace enable drops `period` cycles after the last record, for `gap` cycles.
    let pass = period * (records.len() + 1) + gap;
    let got = replay_cycles(&records, period as u32, gap as u32, &vec![false; 3 * pass]);
    for (t, c) in got.iter().enumerate() {
        let in_pass = t % pass;
        let k = (in_pass + 1) / period;
        let present = (in_pass + 1) % period == 0 && k >= 1 && k <= records.len();
        assert_eq!(c.present, present, "cycle {t}: present");
        assert_eq!(
            c.trace_enable,
            in_pass < pass - gap,
            "cycle {t}: trace_enable"
        );
        if present {
            assert_eq!(c.record, records[k - 1], "cycle {t}: record {}", k - 1);
        } else {
            assert_eq!(
                (c.record.iretire, c.record.itype),
                (0, Itype::None),
                "cycle {t}: no block"
            );
        }
    }
}

#[test]
fn replay_waits_while_hold_is_high() {
    let records = distinct_records();
    // Hold in a fixed irregular pattern.
    let hold: Vec<bool> = (0..400).map(|t| (t * 7 + t / 5) % 11 < 5).collect();
    let got = replay_cycles(&records, 3, 4, &hold);
    let presented: Vec<IngressRecord> =
        got.iter().filter(|c| c.present).map(|c| c.record).collect();
    assert!(presented.len() > 2 * records.len(), "more than two passes");
    for (i, r) in presented.iter().enumerate() {
        assert_eq!(*r, records[i % records.len()], "presentation {i}");
    }
    let mut last = None;
    let mut disabled = 0;
    for (t, c) in got.iter().enumerate() {
        if c.present {
            assert!(!hold[t], "cycle {t}: a record presented under hold");
            assert!(
                c.trace_enable,
                "cycle {t}: a record presented while disabled"
            );
            if let Some(l) = last {
                assert!(t - l >= 3, "cycle {t}: records closer than the period");
            }
            last = Some(t);
        }
        if c.trace_enable {
            assert!(
                disabled == 0 || disabled >= 4,
                "cycle {t}: gap of {disabled}"
            );
            disabled = 0;
        } else {
            disabled += 1;
        }
    }
}

/// Board-top outputs of one cycle: (uart_tx, led_activity, led_lost).
type BoardCycle = (bool, bool, bool);

/// Runs the RV32 board top over `records` for `cycles` cycles from power-up.
fn board_cycles(
    records: &[IngressRecord],
    settings: BoardSettings,
    cycles: usize,
) -> Vec<BoardCycle> {
    with_config!(Config::Rv32, [A, E, IT, P] => board_widths::<A, E, IT, P>(records, settings, cycles))
}

fn board_widths<const A: usize, const E: usize, const IT: usize, const P: usize>(
    records: &[IngressRecord],
    settings: BoardSettings,
    cycles: usize,
) -> Vec<BoardCycle> {
    type Top<const A: usize, const E: usize, const IT: usize, const P: usize> =
        BoardTop<A, E, IT, P, { board::REPLAY_ADDRESS_BITS }>;
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Top<A, E, IT, P>>| {
        x.clock.next = !x.clock.val()
    });
    sim.add_testbench(move |mut sim: Sim<Top<A, E, IT, P>>| {
        let mut x = sim.init()?;
        for _ in 0..cycles {
            wait_clock_cycle!(sim, clock, x);
            out_tb
                .lock()
                .unwrap()
                .push((x.uart_tx.val(), x.led_activity.val(), x.led_lost.val()));
        }
        sim.done(x)
    });
    let mut uut = Top::<A, E, IT, P>::new(records, &settings, &BoardEncoder::default()).unwrap();
    uut.connect_all();
    sim.run(Box::new(uut), 10 * cycles as u64 + 100).unwrap();
    let v = out.lock().unwrap().clone();
    v
}

#[test]
fn board_top_sends_the_models_encap_stream_on_the_uart() {
    // The first 40 replayed records: branches, calls, returns and an ecall.
    let records =
        replay::replayed_records(Config::Rv32.xlen(), Config::Rv32.itype()).unwrap()[..40].to_vec();
    assert!(records.iter().any(|r| r.itype == Itype::Exception));
    let settings = BoardSettings {
        cycles_per_bit: 4,
        period: 8,
        gap: 8,
        led_hold: 16,
        led_active_low: false,
        paced: true,
    };
    let (want, first_pass) = model_stream(&records, 3);
    // A byte takes 41 cycles on the line; records without packets come every 8 cycles.
    let pass_cycles = 41 * first_pass + 8 * records.len() + 64;
    let got_cycles = board_cycles(&records, settings, pass_cycles * 3 / 2);
    let line: Vec<bool> = got_cycles.iter().map(|c| c.0).collect();
    let got = common::decode_uart(&line, 4);
    // The first pass starts with the sync sequence; the others are alike.
    let pass = (want.len() - first_pass) / 2;
    assert!(pass > 20, "a real stream: {pass} bytes per pass");
    assert!(
        got.len() > first_pass + pass,
        "two whole passes and a third begun: {} bytes, passes of {first_pass} and {pass}",
        got.len()
    );
    let first = got.iter().zip(&want).position(|(a, b)| a != b);
    assert_eq!(first, None, "first difference at byte {first:?}");
    assert!(got_cycles.iter().any(|c| c.1), "the activity LED lights");
    assert!(!got_cycles.iter().any(|c| c.2), "paced: no trace loss");
}

#[test]
fn board_top_unpaced_loses_trace_and_lights_the_loss_led() {
    let records =
        replay::replayed_records(Config::Rv32.xlen(), Config::Rv32.itype()).unwrap()[..60].to_vec();
    let settings = BoardSettings {
        cycles_per_bit: 4,
        period: 2,
        gap: 8,
        led_hold: 16,
        led_active_low: true,
        paced: false,
    };
    let got = board_cycles(&records, settings, 1500);
    // Active low: the LED is lit when the pin is 0.
    assert!(got.iter().any(|c| !c.2), "the loss LED lights");
    assert!(got[20..].iter().any(|c| !c.1), "the activity LED lights");
    assert!(got[..16].iter().all(|c| c.1 && c.2), "LEDs dark in reset");
}

#[test]
fn baud_rates_of_the_board_clocks() {
    assert_eq!(board::cycles_per_bit(12_000_000, 115_200), Ok(104));
    assert_eq!(board::cycles_per_bit(25_000_000, 115_200), Ok(217));
    assert_eq!(board::cycles_per_bit(12_000_000, 3_000_000), Ok(4));
    assert!(matches!(
        board::cycles_per_bit(12_000_000, 5_000_000),
        Err(BoardError::Baud { .. })
    ));
    assert!(board::cycles_per_bit(12_000_000, 0).is_err());
    assert!(board::cycles_per_bit(100_000_000, 300).is_err());
}

#[test]
fn board_names_round_trip() {
    for b in Board::ALL {
        assert_eq!(Board::from_name(b.name()), Ok(b));
        assert!(b.constraints().contains("uart_tx"));
    }
    assert!(Board::from_name("arty").is_err());
}

/// Generation options the encoder cannot be built with are refused, naming the option's
/// limit (the generator's own errors).
#[test]
fn board_encoder_options_beyond_the_generators_limits_are_refused() {
    let records = replay::replayed_records(Config::Rv32.xlen(), Config::Rv32.itype()).unwrap();
    let refused = |encoder: BoardEncoder| {
        let options = BoardOptions {
            encoder,
            ..BoardOptions::default()
        };
        match board::generate(Board::Icebreaker, Config::Rv32, &options, records.clone()) {
            Err(BoardError::Encoder(e)) => e.to_string(),
            other => panic!("{encoder:?} accepted: {:?}", other.map(|g| g.top)),
        }
    };
    let core = |bpred_size, return_stack_size| CoreOptions {
        bpred_size,
        return_stack_size,
        fault: None,
    };
    let src = refused(BoardEncoder {
        src_bits: 17,
        ..BoardEncoder::default()
    });
    assert!(src.contains("srcID width 17"), "{src}");
    let bpred = refused(BoardEncoder {
        core: core(9, 0),
        ..BoardEncoder::default()
    });
    assert!(bpred.contains("bpred_size_p 9"), "{bpred}");
    let stack = refused(BoardEncoder {
        core: core(0, 4),
        ..BoardEncoder::default()
    });
    assert!(stack.contains("return_stack_size_p 4"), "{stack}");
}

#[test]
fn board_tops_pass_yosys_and_verilator_lint() {
    for (board, config) in [
        (Board::Icebreaker, Config::Rv32),
        (Board::Hx8kBreakout, Config::Rv32Itype3),
        (Board::Ulx3s25f, Config::Rv64),
    ] {
        let records = replay::replayed_records(config.xlen(), config.itype()).unwrap();
        let g = board::generate(board, config, &BoardOptions::default(), records).unwrap();
        assert_eq!(g.top, board.top_name());
        assert_eq!(g.records.len(), REPLAY_DEPTH);
        // Every waived signal exists (a stale waiver list would hide nothing).
        assert_eq!(g.verilog.matches("_unused_ok_").count(), 1);
        etrace_hdl::verilog::yosys_check_top(&g.top, &g.verilog).unwrap();
        if let Err(report) = etrace_hdl::verilog::lint_top(&g.top, &g.verilog) {
            panic!("{} {}: {report}", board.name(), config.name());
        }
        // The N-Trace board top of the same board and configuration.
        let records = replay::replayed_records(config.xlen(), config.itype()).unwrap();
        let ntrace = etrace_hdl::ntrace::NtraceTopOptions::default();
        let g = board::generate_ntrace(board, config, &BoardOptions::default(), &ntrace, records)
            .unwrap();
        assert_eq!(g.verilog.matches("_unused_ok_").count(), 4);
        etrace_hdl::verilog::yosys_check_top(&g.top, &g.verilog).unwrap();
        if let Err(report) = etrace_hdl::verilog::lint_top(&g.top, &g.verilog) {
            panic!("N-Trace {} {}: {report}", board.name(), config.name());
        }
    }
    // A board top with every generation option (`etrace synth`'s `rv32-all` board).
    let options = BoardOptions {
        encoder: common::all_options_board(),
        ..BoardOptions::default()
    };
    let records = replay::replayed_records(Config::Rv32.xlen(), Config::Rv32.itype()).unwrap();
    let g = board::generate(Board::Ulx3s25f, Config::Rv32, &options, records).unwrap();
    etrace_hdl::verilog::yosys_check_top(&g.top, &g.verilog).unwrap();
    if let Err(report) = etrace_hdl::verilog::lint_top(&g.top, &g.verilog) {
        panic!("the board top with options: {report}");
    }
}
