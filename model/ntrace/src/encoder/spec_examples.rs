//! The encoder examples of "I-CNT Details" as data: the code of "Example of I-CNT
//! Handling in BTM mode" run three ways, in BTM and in HTM ("Example of I-CNT Handling in
//! HTM mode"), and "Examples of I-CNT Field Full Generation" with a 4-bit counter; each
//! ends where the example's `c.ebreak` enters debug mode (EVCODE 0). Ownership messages
//! (sent after every synchronising message) are left out of the comparison.

use super::{NtraceEncoder, NtraceMode, NtraceOptions};
use crate::message::spec_examples::correlation;
use crate::message::{Body, Evcode, Rcode, SyncReason};
use etrace_spec::ingress::{IngressRecord, Itype};

/// (address, size in bytes, itype) of a retired instruction.
type Insn = (u64, u64, Itype);

const N: Itype = Itype::None;
const T: Itype = Itype::TakenBranch;
const NT: Itype = Itype::NontakenBranch;

/// The three runs of the example code (first branch taken; second taken; none taken).
const RUNS: [&[Insn]; 3] = [
    &[(0x100, 2, N), (0x102, 4, T), (0x200, 2, N)],
    &[
        (0x100, 2, N),
        (0x102, 4, NT),
        (0x106, 4, N),
        (0x10A, 4, T),
        (0x300, 4, N),
    ],
    &[
        (0x100, 2, N),
        (0x102, 4, NT),
        (0x106, 4, N),
        (0x10A, 4, NT),
        (0x10E, 2, N),
        (0x110, 4, N),
    ],
];

fn record(&(iaddr, size, itype): &Insn) -> IngressRecord {
    IngressRecord {
        iretire: 1,
        itype,
        iaddr,
        ilastsize: u8::from(size == 4),
        ..IngressRecord::default()
    }
}

fn messages(options: NtraceOptions, run: &[Insn]) -> Vec<Body> {
    let mut encoder = NtraceEncoder::new(NtraceOptions {
        start_sync: SyncReason::EXIT_DEBUG,
        ..options
    })
    .unwrap();
    encoder.keep_messages();
    for insn in run {
        encoder.push(&record(insn));
    }
    encoder.finish_with(Evcode::DEBUG);
    encoder
        .take_messages()
        .into_iter()
        .map(|m| m.body)
        .filter(|b| !matches!(b, Body::Ownership { .. }))
        .collect()
}

const START: Body = Body::ProgTraceSync {
    sync: SyncReason::EXIT_DEBUG,
    icnt: 0,
    faddr: 0x80,
};

#[test]
fn example_of_i_cnt_handling_in_btm_mode() {
    let expected = [
        vec![START, Body::DirectBranch { icnt: 3 }, correlation(1, None)],
        vec![START, Body::DirectBranch { icnt: 7 }, correlation(2, None)],
        vec![START, correlation(10, None)],
    ];
    let options = NtraceOptions {
        mode: NtraceMode::Btm,
        ..NtraceOptions::default()
    };
    for (run, expected) in RUNS.iter().zip(expected) {
        assert_eq!(messages(options, run), expected);
    }
}

#[test]
fn example_of_i_cnt_handling_in_htm_mode() {
    let expected = [(4, 0x3), (9, 0x5), (10, 0x4)];
    for (run, (icnt, hist)) in RUNS.iter().zip(expected) {
        assert_eq!(
            messages(NtraceOptions::default(), run),
            vec![START, correlation(icnt, Some(hist))]
        );
    }
}

#[test]
fn examples_of_i_cnt_field_full_generation() {
    let run: &[Insn] = &[
        (0x100, 2, N),
        (0x102, 4, NT),
        (0x106, 4, N),
        (0x10A, 4, N),
        (0x10E, 4, N),
        (0x112, 4, N),
        (0x116, 4, N),
        (0x11A, 2, N),
    ];
    // Ranges <0x100..0x112) = 9 and <0x112..0x11C) = 5 half-words.
    let options = NtraceOptions {
        icnt_bits: 4,
        ..NtraceOptions::default()
    };
    assert_eq!(
        messages(options, run),
        vec![
            START,
            Body::ResourceFull {
                rcode: Rcode::ICNT,
                rdata: 9,
                hrepeat: None,
            },
            correlation(5, Some(0x2)),
        ]
    );
}
