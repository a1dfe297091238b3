//! What a branch message says about the last instruction of its block ("DirectBranch
//! Message", "IndirectBranch Message", "IndirectBranchHist Message", Explanations and
//! Notes), checked against the program image: a stream whose counts end a block
//! elsewhere is reported, not decoded into a different program flow.

use super::test_support::{decode, image};
use crate::message::{BType, Body, Rcode, SyncReason};
use etrace_decoder::{DecodeCause, TraceElement};

/// `c.add` at 0x100, `beq` to 0x200 at 0x102, `ret` at 0x106.
const CODE: [(u64, u32, usize); 3] = [
    (0x100, 0x9426, 2),
    (0x102, 0x0E62_8F63, 4),
    (0x106, 0x0000_8067, 4),
];

/// The first decode error of a trace that starts at 0x100 and goes on with `body`.
fn first_error(body: Body) -> Option<DecodeCause> {
    let start = Body::ProgTraceSync {
        sync: SyncReason::TRACE_ENABLE,
        icnt: 0,
        faddr: 0x80,
    };
    decode(&image(&CODE), &[start, body])
        .iter()
        .find_map(TraceElement::decode_error)
        .map(|e| e.cause.clone())
}

/// Each body after the trace start at 0x100, with its first decode error.
fn check(cases: impl IntoIterator<Item = (Body, Option<DecodeCause>)>) {
    for (body, expected) in cases {
        assert_eq!(first_error(body), expected, "{body:?}");
    }
}

fn indirect(btype: BType, icnt: u64) -> Body {
    Body::IndirectBranch {
        btype,
        icnt,
        uaddr: 0,
    }
}

fn wrong_end(message: &'static str, address: u64, found: &'static str) -> Option<DecodeCause> {
    let expected = if message.starts_with("Direct") {
        "a conditional branch"
    } else if found.contains("no message resolved") {
        "an instruction a trap may follow"
    } else {
        "an indirect jump, call or return, or a trap return"
    };
    Some(DecodeCause::WrongBlockEnd {
        message,
        address,
        found,
        expected,
    })
}

const NOT_A_JUMP: &str = "an instruction that does not jump";
const BRANCH: &str = "a conditional branch";
const UNRESOLVED: &str = "an indirect jump or trap return that no message resolved";

#[test]
fn direct_branch_message_ends_at_a_conditional_branch() {
    let cases = [
        (Body::DirectBranch { icnt: 3 }, None),
        (
            Body::DirectBranch { icnt: 1 },
            wrong_end("DirectBranch", 0x100, NOT_A_JUMP),
        ),
        (
            Body::DirectBranch { icnt: 0 },
            wrong_end("DirectBranch", 0x100, "no instruction (an empty block)"),
        ),
        (
            Body::DirectBranchSync {
                sync: SyncReason::PERIODIC,
                icnt: 1,
                faddr: 0x81,
            },
            wrong_end("DirectBranchSync", 0x100, NOT_A_JUMP),
        ),
    ];
    check(cases);
}

#[test]
fn indirect_branch_message_ends_at_an_indirect_jump_or_follows_a_trap() {
    let cases = [
        // B-TYPE 0: the `ret`, after the branch not taken.
        (indirect(BType::Indirect, 5), None),
        (
            indirect(BType::Indirect, 3),
            wrong_end("IndirectBranch", 0x102, BRANCH),
        ),
        (
            indirect(BType::Indirect, 1),
            wrong_end("IndirectBranch", 0x100, NOT_A_JUMP),
        ),
        (
            Body::IndirectBranchHist {
                btype: BType::Indirect,
                icnt: 3,
                uaddr: 0,
                hist: 0b10,
            },
            wrong_end("IndirectBranchHist", 0x102, BRANCH),
        ),
        // A trap may follow any instruction, or none ("Back to back exceptions")...
        (indirect(BType::Exception, 3), None),
        (indirect(BType::Interrupt, 0), None),
        // ... but not a jump whose target no message gave: its own message comes first.
        (
            indirect(BType::Exception, 5),
            wrong_end("IndirectBranch", 0x106, UNRESOLVED),
        ),
        // A synchronising message with B-TYPE 0 may end linear code.
        (
            Body::IndirectBranchSync {
                sync: SyncReason::PERIODIC,
                btype: BType::Indirect,
                icnt: 1,
                faddr: 0x81,
            },
            None,
        ),
    ];
    check(cases);
}

#[test]
fn resource_full_message_reserved_rcode_is_reported() {
    for (code, reported) in [(2, false), (3, true), (7, true), (8, false), (15, false)] {
        let error = first_error(Body::ResourceFull {
            rcode: Rcode(code),
            rdata: 0b10,
            hrepeat: (code == 2).then_some(1),
        });
        let text = error.map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            text.contains("is reserved"),
            reported,
            "RCODE {code}: {text}"
        );
    }
}

#[test]
fn synchronizing_messages_f_addr_agrees_with_the_program() {
    let disagrees = |message, address, next| {
        Some(DecodeCause::SyncAddressDisagrees {
            message,
            address,
            next,
        })
    };
    let direct_sync = |faddr| Body::DirectBranchSync {
        sync: SyncReason::PERIODIC,
        icnt: 3,
        faddr,
    };
    let linear_sync = |btype, faddr| Body::IndirectBranchSync {
        sync: SyncReason::TRACE_EVENT,
        btype,
        icnt: 1,
        faddr,
    };
    let cases = [
        // The `beq` at 0x102 goes to 0x200.
        (direct_sync(0x100), None),
        (
            direct_sync(0x101),
            disagrees("DirectBranchSync", 0x202, 0x200),
        ),
        // After the `c.add` at 0x100, the program goes on at 0x102.
        (linear_sync(BType::Indirect, 0x81), None),
        (
            linear_sync(BType::Indirect, 0x82),
            disagrees("IndirectBranchSync", 0x104, 0x102),
        ),
        // A trap's F-ADDR is its handler.
        (linear_sync(BType::Exception, 0x82), None),
        // After the `ret`, only the message knows.
        (
            Body::IndirectBranchSync {
                sync: SyncReason::PERIODIC,
                btype: BType::Indirect,
                icnt: 5,
                faddr: 0x1234,
            },
            None,
        ),
    ];
    check(cases);
}
