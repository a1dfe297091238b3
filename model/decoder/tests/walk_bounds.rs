//! The bound of the decoder's walks (`decoder.adoc` `follow_execution_path`; the decoder's
//! `walk_bound`): a packet whose address cannot be reached ends its walk early and cheaply
//! with a decode error naming why, whatever the program does on the way. Data driven:
//! each case is a piece of code, the packets that walk it, and the expected first error
//! and most elements the decoder may produce.

use etrace_decoder::{DecodeCause, DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_spec::isa::Xlen;
use etrace_spec::packet::{AddressInfo, Branch, Start, TeInst};
use etrace_spec::params::Params;

/// Where the code of every case starts.
const BASE: u64 = 0x1000;
/// `c.nop`, `c.j .` and `beq x0, x0, .` (always taken, branch to itself).
const C_NOP: &[u8] = &[0x01, 0x00];
const C_J_SELF: &[u8] = &[0x01, 0xa0];
const BEQ_SELF: &[u8] = &[0x63, 0x00, 0x00, 0x00];

struct Case {
    name: &'static str,
    /// The code at [`BASE`].
    code: Vec<u8>,
    /// The packet after the start packet at [`BASE`].
    packet: TeInst,
    config: DecoderConfig,
    want: DecodeCause,
    /// Most elements the decode may give (the walk must be cut early).
    max_elements: usize,
}

/// A differential address packet to `BASE + delta` (`iaddress_lsb_p` = 1).
fn to(delta: u64) -> AddressInfo {
    AddressInfo::new(delta >> 1)
}

fn cases() -> Vec<Case> {
    let config = DecoderConfig::default();
    vec![
        Case {
            name: "a jump to itself, address never reached",
            code: [C_NOP, C_J_SELF].concat(),
            packet: TeInst::AddrOnly(to(0x100)),
            config,
            want: DecodeCause::Loops {
                address: BASE + 0x100,
                at: BASE + 2,
            },
            // The loop check starts after 64 branch-free instructions.
            max_elements: 100,
        },
        Case {
            name: "a branch-free stretch longer than the bound",
            code: C_NOP.repeat(300),
            packet: TeInst::AddrOnly(to(0x1000)),
            config: DecoderConfig {
                max_steps_between_branches: 100,
                ..config
            },
            want: DecodeCause::NotReached {
                address: BASE + 0x1000,
                within: config.max_steps_per_packet,
                between_branches: 100,
            },
            max_elements: 4,
        },
        Case {
            name: "a branch loop uses up the branch map",
            code: BEQ_SELF.to_vec(),
            packet: TeInst::Branch(Branch {
                branches: 5,
                branch_map: 0,
                address: Some(to(0x100)),
            }),
            config,
            want: DecodeCause::BranchesExhausted { address: BASE },
            max_elements: 16,
        },
    ]
}

#[test]
fn walks_that_cannot_reach_their_address_end_early() {
    let params = Params::rv32();
    for case in cases() {
        let mut image = ProgramImage::new();
        image.add_code(BASE, &case.code, Xlen::X32).unwrap();
        let mut decoder = TeDecoder::new(&image, &params, case.config);
        // `branch` 0: when the first instruction is a branch, it is taken.
        let start = TeInst::Start(Start {
            branch: false,
            privilege: 3,
            address: BASE >> 1,
            ..Start::default()
        });
        decoder.process(&start, 0, None);
        decoder.process(&case.packet, 1, None);
        let elements = decoder.take_elements(true);
        let error = elements
            .iter()
            .find_map(TraceElement::decode_error)
            .unwrap_or_else(|| panic!("{}: no decode error in {elements:?}", case.name));
        assert_eq!(error.cause, case.want, "{}", case.name);
        assert_eq!(error.packet_index, 1, "{}", case.name);
        assert!(
            elements.len() <= case.max_elements,
            "{}: {} elements",
            case.name,
            elements.len()
        );
    }
}
