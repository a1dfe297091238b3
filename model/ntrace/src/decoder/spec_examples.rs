//! The decoder on the code of "Example of I-CNT Handling in BTM mode" (also used by
//! "Example of I-CNT Handling in HTM mode"): the messages of the three runs give the
//! instructions the examples describe, and the I-CNT values the example calls incorrect
//! (4, 6, 9: half of a 32-bit instruction) are reported.

use super::test_support::{decode as decode_over, image};
use crate::message::spec_examples::correlation;
use crate::message::{Body, SyncReason};
use etrace_decoder::pcs::{steps, Step};
use etrace_decoder::{DecodeCause, ProgramImage, TraceElement};
use etrace_spec::ingress::Privilege;

/// The example code: (address, encoding, size in bytes). `c.add`, `beq` to 0x200 and to
/// 0x300, `add`, `c.ebreak`.
const CODE: [(u64, u32, usize); 11] = [
    (0x100, 0x9426, 2),
    (0x102, 0x0E62_8F63, 4),
    (0x106, 0x0062_82B3, 4),
    (0x10A, 0x1E62_8B63, 4),
    (0x10E, 0x9426, 2),
    (0x110, 0x0062_82B3, 4),
    (0x114, 0x9002, 2),
    (0x200, 0x9426, 2),
    (0x202, 0x9002, 2),
    (0x300, 0x0062_82B3, 4),
    (0x304, 0x9002, 2),
];

/// Decodes the trace start (ProgTraceSync, F-ADDR 0x80) and `bodies`.
fn decode(bodies: &[Body]) -> (Vec<TraceElement>, ProgramImage) {
    let image = image(&CODE);
    let start = Body::ProgTraceSync {
        sync: SyncReason::EXIT_DEBUG,
        icnt: 0,
        faddr: 0x80,
    };
    let mut all = vec![start];
    all.extend_from_slice(bodies);
    (decode_over(&image, &all), image)
}

fn pcs(elements: &[TraceElement], image: &ProgramImage) -> Vec<u64> {
    steps(elements, image)
        .unwrap()
        .into_iter()
        .map(|s| match s {
            Step::Instruction { pc, privilege } => {
                assert_eq!(privilege, Privilege::Machine);
                pc
            }
            trap => panic!("unexpected {trap:?}"),
        })
        .collect()
}

#[test]
fn example_of_i_cnt_handling_in_btm_and_htm_mode() {
    let runs: [(&[Body], &[Body], &[u64]); 3] = [
        (
            &[Body::DirectBranch { icnt: 3 }, correlation(1, None)],
            &[correlation(4, Some(0x3))],
            &[0x100, 0x102, 0x200],
        ),
        (
            &[Body::DirectBranch { icnt: 7 }, correlation(2, None)],
            &[correlation(9, Some(0x5))],
            &[0x100, 0x102, 0x106, 0x10A, 0x300],
        ),
        (
            &[correlation(10, None)],
            &[correlation(10, Some(0x4))],
            &[0x100, 0x102, 0x106, 0x10A, 0x10E, 0x110],
        ),
    ];
    for (btm, htm, expected) in runs {
        for bodies in [btm, htm] {
            let (elements, image) = decode(bodies);
            assert!(
                elements.iter().all(|e| e.decode_error().is_none()),
                "{elements:?}"
            );
            assert_eq!(pcs(&elements, &image), expected, "{bodies:?}");
        }
    }
}

#[test]
fn example_of_i_cnt_handling_incorrect_counts_are_reported() {
    for (icnt, address) in [(4, 0x106), (6, 0x10A), (9, 0x110)] {
        let (elements, _) = decode(&[Body::DirectBranch { icnt }]);
        let error = elements
            .iter()
            .find_map(TraceElement::decode_error)
            .unwrap_or_else(|| panic!("I-CNT={icnt} is not reported"));
        assert_eq!(
            error.cause,
            DecodeCause::CountEndsInside { address },
            "I-CNT={icnt}"
        );
        assert_eq!(error.packet_index, 1);
    }
}
