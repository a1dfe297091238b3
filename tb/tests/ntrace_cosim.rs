//! Co-simulation of the verilated N-Trace encoders (`etrace_tb::ntrace`, issue 25) with the
//! model's cycle encoder `NtraceCycleEncoder` ("N-Trace Transmission Protocol", "Error
//! Message", "Synchronizing Messages"): the bytes of every record step equal the model's,
//! on every test program (RV32 on the rv32 builds, RV64 on the rv64 builds; BTM, HTM and
//! HTM with every optimisation), with steps offered every clock and with stalls, with a
//! FIFO that keeps up and with one that overflows (Error message, restart with SYNC 7),
//! and on a seeded random stream of at least 5 million clocks; the RTL's stream decodes to
//! the hart's steps; a fault in the HIST logic is caught.

use etrace_decoder::pcs::{record_steps, steps};
use etrace_decoder::{ProgramImage, TraceElement};
use etrace_hart::HartConfig;
use etrace_ntrace::decoder::{decode_bytes, reproducible_step};
use etrace_ntrace::{Body, NtraceDecoder, NtraceDecoderConfig, NtraceEncoder};
use etrace_spec::ingress::random::looping_records;
use etrace_spec::ingress::{IngressRecord, Itype};
use etrace_tb::ntrace::{cosim, NtraceCosimError, Offer};
use etrace_tb::NtraceVariant;

/// Records of each program at most (the longest programs are cut: their loops repeat).
const RECORDS_MAX: usize = 200_000;

/// Every program of the manifest for `xlen`: (stem, ELF bytes, records).
fn programs(xlen: &str) -> Vec<(String, Vec<u8>, Vec<IngressRecord>)> {
    let names = etrace_programs::manifest_names(&etrace_programs::dir()).unwrap();
    assert!(names.len() >= 9, "manifest lists {} programs", names.len());
    names
        .into_iter()
        .map(|name| {
            let stem = format!("{name}-{xlen}");
            let elf = etrace_programs::elf(&stem).unwrap();
            let records = etrace_programs::records(&stem, HartConfig::default(), RECORDS_MAX)
                .unwrap_or_else(|e| panic!("{stem}: {e}"));
            (stem, elf, records)
        })
        .collect()
}

/// The decoded steps of `stream` (a whole trace of `variant`) must be the hart's.
fn assert_decodes_to_the_harts_steps(
    what: &str,
    variant: NtraceVariant,
    elf: &[u8],
    records: &[IngressRecord],
    stream: &[u8],
) {
    let image = ProgramImage::from_elf(elf).unwrap();
    let options = variant.model_options();
    let config = NtraceDecoderConfig {
        fields: options.fields(),
        src: None,
        sijump: options.sijump,
    };
    let mut decoder = NtraceDecoder::new(&image, config);
    let elements = decode_bytes(&mut decoder, config.fields, stream);
    if let Some(e) = elements.iter().find_map(TraceElement::decode_error) {
        panic!("{what}: decode error: {e}");
    }
    let decoded = steps(&elements, &image)
        .unwrap_or_else(|a| panic!("{what}: decoded trace leaves the image at {a:#x}"));
    let expected: Vec<_> = record_steps(records)
        .into_iter()
        .map(reproducible_step)
        .collect();
    if let Some(n) =
        (0..expected.len().max(decoded.len())).find(|&i| expected.get(i) != decoded.get(i))
    {
        panic!(
            "{what}: step {n}: hart {:?}, decoded {:?}",
            expected.get(n),
            decoded.get(n)
        );
    }
}

/// RISC-V N-Trace 1.0, "Branch Trace Messaging" / "History Trace Messaging" /
/// "Optimization Extensions": every program, byte-exact, and decoded back to the hart's
/// steps.
#[test]
fn n_trace_modes_every_program_byte_exact_and_decoded() {
    for (xlen, variants) in [
        (
            "rv32",
            [
                NtraceVariant::Rv32Btm,
                NtraceVariant::Rv32Htm,
                NtraceVariant::Rv32HtmAll,
            ],
        ),
        (
            "rv64",
            [
                NtraceVariant::Rv64Btm,
                NtraceVariant::Rv64Htm,
                NtraceVariant::Rv64HtmAll,
            ],
        ),
    ] {
        for (stem, elf, records) in programs(xlen) {
            for variant in variants {
                let report = cosim(variant, &records, Offer::EveryClock)
                    .unwrap_or_else(|e| panic!("{stem}: {e}"));
                assert_eq!(
                    report.restarts,
                    [0],
                    "{stem} {variant}: the FIFO overflowed"
                );
                assert!(report.bytes > 0, "{stem} {variant}: no byte");
                assert_decodes_to_the_harts_steps(
                    &format!("{stem} {variant}"),
                    variant,
                    &elf,
                    &records,
                    &report.stream,
                );
                eprintln!(
                    "{stem} {variant}: {} records, {} bytes, {} clocks",
                    report.records, report.bytes, report.clocks
                );
            }
        }
    }
}

/// "Error Message", "Synchronizing Messages" (SYNC 7): a trace port slower than the trace
/// and a hart that stalls (steps offered with gaps) on every program: messages are lost,
/// the trace restarts, every byte equal to the model's.
#[test]
fn n_trace_error_message_overflow_and_stalls_every_program() {
    let mut restarts = 0;
    for (xlen, variant) in [
        ("rv32", NtraceVariant::Rv32HtmAllSlow),
        ("rv64", NtraceVariant::Rv64BtmSlow),
    ] {
        for (k, (stem, _, records)) in programs(xlen).into_iter().enumerate() {
            for offer in [
                Offer::EveryClock,
                Offer::WithGaps {
                    seed: 0x5eed + k as u64,
                    probability: 0.3,
                },
            ] {
                let report = cosim(variant, &records, offer)
                    .unwrap_or_else(|e| panic!("{stem} {offer:?}: {e}"));
                restarts += report.restarts.len() - 1;
            }
        }
    }
    assert!(restarts > 50, "only {restarts} restarts");
}

/// A seeded random stream (`looping_records`: every itype, traps, privilege and context
/// changes, calls and returns, loops) of at least 5 million clocks on HTM with every
/// optimisation, and a shorter one on each other build.
#[test]
fn n_trace_random_stream_of_five_million_clocks() {
    let records = looping_records(0x5a11, 700_000);
    let report = cosim(NtraceVariant::Rv32HtmAll, &records, Offer::EveryClock).unwrap();
    eprintln!(
        "random: {} records, {} bytes, {} clocks",
        report.records, report.bytes, report.clocks
    );
    assert!(report.clocks >= 5_000_000, "{} clocks", report.clocks);
    for (k, variant) in NtraceVariant::ALL.into_iter().enumerate() {
        if variant == NtraceVariant::Rv32HistFault {
            continue;
        }
        let records = looping_records(0x5b00 + k as u64, 30_000);
        cosim(
            variant,
            &records,
            Offer::WithGaps {
                seed: k as u64,
                probability: 0.25,
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The co-simulation bites: every branch outcome entering HIST inverted
/// (`NtraceHwOptions::hist_fault`) is caught on a program and on random records.
#[test]
fn n_trace_hist_fault_is_caught() {
    let (stem, _, records) = programs("rv32").swap_remove(0);
    cosim(NtraceVariant::Rv32Htm, &records, Offer::EveryClock).unwrap();
    let caught = cosim(NtraceVariant::Rv32HistFault, &records, Offer::EveryClock);
    assert!(
        matches!(caught, Err(NtraceCosimError::Mismatch { .. })),
        "{stem}: {caught:?}"
    );
    let records = looping_records(0x5c00, 5_000);
    let caught = cosim(NtraceVariant::Rv32HistFault, &records, Offer::EveryClock);
    assert!(matches!(caught, Err(NtraceCosimError::Mismatch { .. })));
}

/// "Synchronizing Messages" (periodic synchronisation after `sync_max` messages): more than
/// 65,536 messages without a synchronising one, the width of the hardware's message count.
/// A self-loop of taken branches in HTM (a HIST ResourceFull every 31 branches, an I-CNT
/// ResourceFull every 16,384) runs until the model has sent 65,536 + 128 messages after
/// the first sync, past the count's width by less than `sync_max` (256), where a count
/// that wrapped would read "not due"; the indirect jump after them must be the
/// synchronising message the model sends.
#[test]
fn n_trace_sync_due_after_more_messages_than_the_count_holds() {
    let at = |iaddr: u64, itype: Itype| IngressRecord {
        iretire: 1,
        itype,
        iaddr,
        ilastsize: 1,
        ..IngressRecord::default()
    };
    let variant = NtraceVariant::Rv32Htm;
    let mut model = NtraceEncoder::new(variant.model_options()).unwrap();
    let mut records = vec![at(0x8000_00fc, Itype::None)];
    model.push(&records[0]);
    let first = model.messages();
    let branch = at(0x8000_0100, Itype::TakenBranch);
    while model.messages() - first < 65_536 + 128 {
        model.push(&branch);
        records.push(branch);
    }
    let messages = model.messages();
    records.push(at(0x8000_0100, Itype::UninferableJump));
    records.push(at(0x8000_0200, Itype::None));
    model.keep_messages();
    model.push(&records[records.len() - 2]);
    model.push(&records[records.len() - 1]);
    // The model sends the jump in its synchronising form (and its Ownership).
    let sent = model.take_messages();
    assert!(
        sent.iter().any(|m| matches!(
            m.body,
            Body::IndirectBranchSync { .. } | Body::IndirectBranchHistSync { .. }
        )),
        "after {messages} messages: {sent:?}"
    );
    let report = cosim(variant, &records, Offer::EveryClock).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.records, records.len() as u64);
}
