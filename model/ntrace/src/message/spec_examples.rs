//! The examples of the specification's message and field chapters, each test named after
//! its section (`RISC-V-N-Trace.adoc`).

use super::fields::{BType, Process};
use super::layout::{parse, to_bytes, FieldConfig};
use super::types::{Body, Message};
use etrace_spec::ingress::Privilege;

/// A ProgTraceCorrelation message ending the examples of "I-CNT Details" (EVCODE 0, entry
/// into debug mode), with HIST in HTM.
pub(crate) fn correlation(icnt: u64, hist: Option<u64>) -> Body {
    Body::ProgTraceCorrelation {
        evcode: super::Evcode::DEBUG,
        cdf: u8::from(hist.is_some()),
        icnt,
        hist,
    }
}

/// "N-Trace Message Example", table "MDO and MSEO Encoding Example": the bytes of one
/// IndirectBranchHist message (idle bytes around it left out).
const MESSAGE_EXAMPLE: [u8; 6] = [0x70, 0xD0, 0x1D, 0x1D, 0xF8, 0xFF];

#[test]
fn n_trace_message_example() {
    let message = Message {
        src: 0,
        body: Body::IndirectBranchHist {
            btype: BType::Indirect,
            icnt: 0x7D,
            uaddr: 0x7,
            hist: 0xFFE,
        },
        tstamp: None,
    };
    let config = FieldConfig::default();
    assert_eq!(to_bytes(&message, &config), MESSAGE_EXAMPLE);
    assert_eq!(parse(&MESSAGE_EXAMPLE, &config), Ok(message));
}

/// "Ownership Message", the two PROCESS examples: (value, FORMAT, V, PRV, CONTEXT, mode).
const OWNERSHIP_EXAMPLES: [(u64, u8, bool, u8, u64, Privilege); 2] = [
    (0x3B2, 2, true, 0, 0x1D, Privilege::VirtualUser),
    (0xC, 0, false, 3, 0, Privilege::Machine),
];

#[test]
fn ownership_message() {
    for (value, format, v, prv, context, privilege) in OWNERSHIP_EXAMPLES {
        let p = Process::from_value(value);
        assert_eq!(
            (p.format, p.v, p.prv, p.context),
            (format, v, prv, context),
            "PROCESS={value:#x}"
        );
        assert_eq!(p.privilege(), Some(privilege), "PROCESS={value:#x}");
        assert_eq!(p.value(), value, "PROCESS={value:#x} re-encoded");
        assert_eq!(Process::for_privilege(privilege), (v, prv));
    }
}

/// "Address Compression", "Address XOR Calculation Examples": (address, field sent: F-ADDR
/// for the first, U-ADDR against the previous address for the others).
const ADDRESS_EXAMPLES: [(u64, u64); 3] = [(0x3FC04, 0x1FE02), (0x3F368, 0x7B6), (0x3E100, 0x934)];

#[test]
fn address_compression() {
    let mut reference = None;
    for (address, field) in ADDRESS_EXAMPLES {
        let sent = match reference {
            None => crate::encoder::address::faddr(address),
            Some(r) => crate::encoder::address::uaddr(r, address),
        };
        assert_eq!(sent, field, "address {address:#x}");
        let decoded = match reference {
            None => crate::decoder::address::from_faddr(field),
            Some(r) => crate::decoder::address::from_uaddr(r, field),
        };
        assert_eq!(decoded, address);
        reference = Some(address);
    }
}

/// "HIST Field Generation", the examples: (branch outcomes, first first; HIST).
const HIST_EXAMPLES: [(&[bool], u64); 4] = [
    (&[false, true], 0x5),
    (&[true, true, true], 0xF),
    (&[false, false, false, false], 0x10),
    (&[], 0x1),
];

#[test]
fn hist_field_generation() {
    for (outcomes, hist) in HIST_EXAMPLES {
        let mut h = crate::encoder::history::History::new(32);
        for &taken in outcomes {
            h.push(taken);
        }
        assert_eq!(h.value(), hist, "{outcomes:?}");
        let bits: Vec<bool> = crate::decoder::history::bits(hist).collect();
        assert_eq!(bits, outcomes, "HIST={hist:#x} read back");
    }
}

#[test]
fn n_trace_message_example_listing() {
    let message = parse(&MESSAGE_EXAMPLE, &FieldConfig::default()).unwrap();
    assert_eq!(
        message.to_string(),
        "IndirectBranchHist SRC=0 B-TYPE=0 I-CNT=125 U-ADDR=0x7 HIST=0xffe"
    );
}

/// One message of every TCODE (table "Fields in Messages"), optional fields both present
/// and absent.
fn every_message() -> Vec<Body> {
    use super::fields::{Evcode, Rcode, SyncReason};
    let sync = SyncReason::PERIODIC;
    vec![
        Body::Ownership { process: 0x3B2 },
        Body::DirectBranch { icnt: 3 },
        Body::IndirectBranch {
            btype: BType::Exception,
            icnt: 0,
            uaddr: 0x7B6,
        },
        Body::Error { etype: 0, ecode: 4 },
        Body::ProgTraceSync {
            sync,
            icnt: 9,
            faddr: 0x1FE02,
        },
        Body::DirectBranchSync {
            sync,
            icnt: 1,
            faddr: u64::MAX >> 1,
        },
        Body::IndirectBranchSync {
            sync,
            btype: BType::Interrupt,
            icnt: 1 << 21,
            faddr: 0x80,
        },
        Body::ResourceFull {
            rcode: Rcode::HIST,
            rdata: 0x5555_5555,
            hrepeat: None,
        },
        Body::ResourceFull {
            rcode: Rcode::HIST_REPEAT,
            rdata: 0x5,
            hrepeat: Some(150),
        },
        Body::IndirectBranchHist {
            btype: BType::Trap,
            icnt: 0x7D,
            uaddr: 0,
            hist: 1,
        },
        Body::IndirectBranchHistSync {
            sync,
            btype: BType::Indirect,
            icnt: 10,
            faddr: 0x934,
            hist: 0x10,
        },
        Body::RepeatBranch {
            bcnt: (1 << 18) - 1,
        },
        Body::ProgTraceCorrelation {
            evcode: Evcode::DEBUG,
            cdf: 1,
            icnt: 5,
            hist: Some(0x2),
        },
        Body::ProgTraceCorrelation {
            evcode: Evcode::TRACE_DISABLED,
            cdf: 0,
            icnt: 2,
            hist: None,
        },
    ]
}

#[test]
fn fields_in_messages_round_trip() {
    let bodies = every_message();
    let tcodes: std::collections::BTreeSet<u8> = bodies.iter().map(|b| b.tcode().code()).collect();
    assert_eq!(tcodes.len(), super::Tcode::ALL.len(), "every TCODE");
    for config in [
        FieldConfig::default(),
        FieldConfig {
            src_bits: 12,
            timestamp: true,
        },
    ] {
        for body in &bodies {
            for tstamp in [None, Some(0), Some(u64::MAX)] {
                let message = Message {
                    src: if config.src_bits > 0 { 0xABC } else { 0 },
                    body: *body,
                    tstamp: if config.timestamp { tstamp } else { None },
                };
                let bytes = to_bytes(&message, &config);
                assert_eq!(parse(&bytes, &config), Ok(message), "{message}");
            }
        }
    }
}
