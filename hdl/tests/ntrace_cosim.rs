//! Co-simulation of the N-Trace message generator (`etrace_hdl::ntrace`, rust-hdl
//! simulator) with the model's `NtraceEncoder` on the same ingress records: every message
//! the hardware forms, serialised to MSEO bytes by `MseoBytes`, equals the model's message
//! bytes, message by message, in BTM and HTM, with small counters (I-CNT and HIST
//! overflow) and frequent periodic syncs, and with each optimisation option (sequential
//! jumps, implicit return, repeated history) alone and all together; a fault in the HIST
//! logic, another call stack depth and another repeat counter width are caught.

use etrace_hart::HartConfig;
use etrace_hdl::ntrace::{MseoBytes, NtraceGenerator, NtraceHwOptions};
use etrace_ntrace::message::layout::{parse, to_bytes};
use etrace_ntrace::message::{Body, FieldConfig, Rcode};
use etrace_ntrace::{NtraceEncoder, NtraceOptions};
use etrace_spec::ingress::IngressRecord;
use rust_hdl::prelude::*;
use std::sync::{Arc, Mutex};

mod ntrace_common;
use ntrace_common::{
    drive_message, drive_record, model_options, random_records, read_message, MessageFields,
};

/// The generator's messages for `records` (one per cycle, trace enabled, then disabled).
fn run_generator(records: &[IngressRecord], options: NtraceHwOptions) -> Vec<MessageFields> {
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let recs = records.to_vec();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<NtraceGenerator<32, 5, 4>>| {
        x.clock.next = !x.clock.val()
    });
    sim.add_testbench(move |mut sim: Sim<NtraceGenerator<32, 5, 4>>| {
        let mut x = sim.init()?;
        x.reset.next = true;
        wait_clock_true!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        x.reset.next = false;
        let n = recs.len();
        for t in 0..3 * (n + 3) {
            // Records enter a cycle after they are driven; trace is disabled after them.
            // Two cycles of three hold no record (the generator's contract: the messages
            // counted for periodic synchronisation are added two cycles after a record).
            // Between records the inputs keep the last record and trace enable is
            // inverted: the generator must not read them without `record`.
            x.record.next = t % 3 == 0;
            if t % 3 == 0 {
                drive_record(&mut x.ingress, &mut x.trace_enable, recs.get(t / 3));
            } else {
                x.trace_enable.next = !x.trace_enable.val();
            }
            x = sim.wait(1, x)?;
            let mut v = out_tb.lock().unwrap();
            for m in x.slots.in_order() {
                v.extend(read_message(m));
            }
            drop(v);
            wait_clock_cycle!(sim, clock, x);
        }
        sim.done(x)
    });
    let mut uut = NtraceGenerator::<32, 5, 4>::new(options);
    uut.connect_all();
    sim.run(Box::new(uut), 30 * records.len() as u64 + 600)
        .unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// The MSEO bytes `MseoBytes` gives each message.
fn serialise(slots: &[MessageFields]) -> Vec<Vec<u8>> {
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let todo = slots.to_vec();
    let mut sim = Simulation::new();
    sim.add_testbench(move |mut sim: Sim<MseoBytes>| {
        let mut x = sim.init()?;
        for s in &todo {
            drive_message(&mut x.message, s);
            x.index.next = 0.into();
            x = sim.wait(10, x)?;
            let length = x.length.val().to_u64();
            let mut bytes = Vec::new();
            for i in 0..length {
                x.index.next = i.into();
                x = sim.wait(10, x)?;
                bytes.push(x.mseo_byte.val().to_u64() as u8);
            }
            out_tb.lock().unwrap().push(bytes);
        }
        sim.done(x)
    });
    let mut uut = MseoBytes::default();
    uut.connect_all();
    sim.run(Box::new(uut), 1_000 * slots.len() as u64 + 100)
        .unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// The model's messages as MSEO bytes, one vector per message.
fn run_model(records: &[IngressRecord], options: NtraceOptions) -> Vec<Vec<u8>> {
    let mut e = NtraceEncoder::new(options).unwrap();
    e.keep_messages();
    for r in records {
        e.push(r);
    }
    e.finish();
    e.take_messages()
        .iter()
        .map(|m| to_bytes(m, &options.fields()))
        .collect()
}

/// The option sets: (name, generator options).
fn option_sets() -> Vec<(&'static str, NtraceHwOptions)> {
    let htm = NtraceHwOptions::default();
    let small = NtraceHwOptions {
        icnt_bits: 4,
        hist_bits: 3,
        sync_max: 5,
        ..htm
    };
    let btm = NtraceHwOptions { htm: false, ..htm };
    // Repeated history with a small counter (its limit is reached).
    let repeat = NtraceHwOptions {
        repeat_history: true,
        repeat_bits: 3,
        ..htm
    };
    let all = NtraceHwOptions {
        sijump: true,
        call_stack: 8,
        icnt_bits: 4,
        hist_bits: 12,
        sync_max: 40,
        ..repeat
    };
    let sijump = NtraceHwOptions {
        sijump: true,
        ..htm
    };
    vec![
        ("htm", htm),
        ("btm", btm),
        ("htm-small", small),
        (
            "btm-small",
            NtraceHwOptions {
                htm: false,
                ..small
            },
        ),
        ("htm-sijump", sijump),
        (
            "btm-sijump",
            NtraceHwOptions {
                htm: false,
                ..sijump
            },
        ),
        (
            "htm-stack8",
            NtraceHwOptions {
                call_stack: 8,
                ..htm
            },
        ),
        (
            "btm-stack2",
            NtraceHwOptions {
                call_stack: 2,
                ..btm
            },
        ),
        ("htm-repeat", repeat),
        (
            "htm-small-repeat",
            NtraceHwOptions {
                hist_bits: 9,
                repeat_bits: 2,
                ..repeat
            },
        ),
        (
            "btm-repeat",
            NtraceHwOptions {
                htm: false,
                ..repeat
            },
        ),
        ("htm-all", all),
        (
            "btm-all",
            NtraceHwOptions {
                htm: false,
                call_stack: 3,
                ..all
            },
        ),
    ]
}

/// `options` without its optimisation options.
fn unoptimised(options: NtraceHwOptions) -> NtraceHwOptions {
    NtraceHwOptions {
        sijump: false,
        call_stack: 0,
        repeat_history: false,
        ..options
    }
}

/// Compares the hardware's messages with the model's: their MSEO bytes, or the first
/// difference.
fn compare(records: &[IngressRecord], options: NtraceHwOptions) -> Result<Vec<Vec<u8>>, String> {
    compare_with(records, options, model_options(options))
}

/// [`compare`] with the model run with `model`.
fn compare_with(
    records: &[IngressRecord],
    options: NtraceHwOptions,
    model: NtraceOptions,
) -> Result<Vec<Vec<u8>>, String> {
    let expected = run_model(records, model);
    let got = serialise(&run_generator(records, options));
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        if g != e {
            return Err(format!("message {i}: hardware {g:02x?}, model {e:02x?}"));
        }
    }
    if got.len() != expected.len() {
        return Err(format!(
            "{} messages from the hardware, {} from the model",
            got.len(),
            expected.len()
        ));
    }
    Ok(got)
}

/// The TCODE of each message.
fn tcodes(messages: &[Vec<u8>]) -> Vec<u8> {
    messages.iter().map(|m| m[0] >> 2).collect()
}

/// The HIST ResourceFull messages: (RCODE 2 messages, RCODE 1 messages whose RDATA is
/// shorter than the `hist_bits` register: a full register cut at a period).
fn hist_fulls(messages: &[Vec<u8>], hist_bits: usize) -> (usize, usize) {
    let (mut repeats, mut cut) = (0, 0);
    for m in messages {
        if let Ok(message) = parse(m, &FieldConfig::default()) {
            if let Body::ResourceFull { rcode, rdata, .. } = message.body {
                repeats += usize::from(rcode == Rcode::HIST_REPEAT);
                cut += usize::from(rcode == Rcode::HIST && rdata >> (hist_bits - 1) == 0);
            }
        }
    }
    (repeats, cut)
}

#[test]
fn rv32_programs_match_the_model_message_by_message() {
    let names = etrace_programs::manifest_names(&etrace_programs::dir()).unwrap();
    let sets = option_sets();
    // Messages of each set over the programs, and the same without its optimisations.
    let mut totals = vec![(0, 0); sets.len()];
    // The first three programs, and the loops (repeated history) and function pointer
    // (calls and returns) ones.
    let programs = names.iter().take(3).chain(
        names
            .iter()
            .filter(|n| *n == "loops" || *n == "fnptr_switch"),
    );
    for name in programs {
        let stem = format!("{name}-rv32");
        let records = etrace_programs::records(&stem, HartConfig::default(), 3_000).unwrap();
        for ((set, options), total) in sets.iter().zip(&mut totals) {
            let messages =
                compare(&records, *options).unwrap_or_else(|e| panic!("{stem} {set}: {e}"));
            let tcodes = tcodes(&messages);
            assert!(tcodes.len() > 2, "{stem} {set}: {tcodes:?}");
            total.0 += tcodes.len();
            total.1 += run_model(&records, model_options(unoptimised(*options))).len();
        }
    }
    // The programs exercise the implicit return and repeated history options: they
    // change the messages. (The hart marks no jump of these programs sequentially
    // inferable: the random records exercise `sijump`.)
    for ((set, options), (with, without)) in sets.iter().zip(totals) {
        eprintln!("rv32 programs {set}: {with} messages, {without} without the options");
        let without_sijump = NtraceHwOptions {
            sijump: false,
            ..*options
        };
        if without_sijump != unoptimised(*options) {
            assert!(
                with < without,
                "rv32 programs {set}: {with} messages, {without} without"
            );
        }
    }
}

#[test]
fn random_records_match_the_model_message_by_message() {
    for (k, (set, options)) in option_sets().into_iter().enumerate() {
        let records = random_records(0x25a + k as u64, 3_000);
        let messages = compare(&records, options).unwrap_or_else(|e| panic!("random {set}: {e}"));
        let tcodes = tcodes(&messages);
        assert!(
            tcodes.len() > 100,
            "random {set}: {} messages",
            tcodes.len()
        );
        // Every message kind of the set is exercised: Ownership, the branch messages and
        // their sync forms, ResourceFull (I-CNT / HIST overflow with small counters),
        // ProgTraceSync, ProgTraceCorrelation.
        let want: &[u8] = match (options.htm, options.icnt_bits < 16) {
            (true, true) => &[2, 4, 9, 12, 27, 28, 29, 33],
            (true, false) => &[2, 4, 9, 28, 29, 33],
            (false, true) => &[2, 3, 4, 9, 11, 12, 27, 33],
            (false, false) => &[2, 3, 4, 9, 12, 33],
        };
        for t in want {
            assert!(tcodes.contains(t), "random {set}: no TCODE {t}");
        }
        // Repeated history sends RepeatBranch, and, in HTM, ResourceFull RCODE 2.
        // Its HIST ResourceFull messages are cut at a period.
        let repeats = tcodes.iter().filter(|t| **t == 30).count();
        let (hist_repeats, cut) = hist_fulls(&messages, options.hist_bits);
        eprintln!(
            "random {set}: {} messages, {repeats} RepeatBranch, {hist_repeats} RCODE 2, \
             {cut} cut HIST",
            tcodes.len(),
        );
        if options.repeat_history {
            assert!(repeats > 0, "random {set}: no RepeatBranch");
            assert!(
                !options.htm || (hist_repeats > 0 && cut > 0),
                "random {set}: {hist_repeats} ResourceFull RCODE 2, {cut} cut HIST"
            );
        }
        // An optimisation option changes the messages (the model's, which the hardware's
        // equal): sequential jumps and predicted returns leave messages out.
        if options != unoptimised(options) {
            let plain = run_model(&records, model_options(unoptimised(options)));
            assert!(
                tcodes.len() < plain.len(),
                "random {set}: {} messages, {} without the options",
                tcodes.len(),
                plain.len()
            );
        }
    }
}

#[test]
fn a_fault_in_the_hist_logic_is_caught() {
    let records = random_records(0x25f, 2_000);
    let options = NtraceHwOptions {
        hist_fault: true,
        ..NtraceHwOptions::default()
    };
    assert!(compare(&records, options).is_err());
}

#[test]
fn a_call_stack_of_another_depth_is_caught() {
    // The hardware's stack drops its oldest entry at depth 2, the model's at 3.
    let records = random_records(0x260, 2_000);
    let options = NtraceHwOptions {
        call_stack: 2,
        ..NtraceHwOptions::default()
    };
    let model = NtraceOptions {
        call_stack: 3,
        ..model_options(options)
    };
    assert!(compare(&records, options).is_ok());
    assert!(compare_with(&records, options, model).is_err());
}

#[test]
fn a_repeat_counter_of_another_width_is_caught() {
    // The hardware's HREPEAT and B-CNT counters stop at 3 repeats, the model's at 7.
    let records = random_records(0x261, 3_000);
    let options = NtraceHwOptions {
        repeat_history: true,
        repeat_bits: 2,
        hist_bits: 9,
        ..NtraceHwOptions::default()
    };
    let model = NtraceOptions {
        repeat_bits: 3,
        ..model_options(options)
    };
    assert!(compare(&records, options).is_ok());
    assert!(compare_with(&records, options, model).is_err());
}
