//! The causes of decode errors (`decoder.adoc` "Decoder pseudo code": its `ERROR`s and
//! those of this project's extensions), told apart by [`DecodeCause`]: the golden
//! encoder's packets of a test program, damaged one way per case, are decoded; the first
//! decode error must be at the damaged packet, with the cause the damage implies (its
//! addresses taken from the hart's run).

mod common;

use common::{first_error, params_for, program, Program};
use etrace_decoder::stream::{decode_payloads, PayloadEvent};
use etrace_decoder::{DecodeCause, DecoderConfig, TeDecoder, TrapVectors};
use etrace_encoder::{EncodedPacket, Encoder, EncoderOptions, Reason};
use etrace_spec::packet::{pack, unpack_with, IOptions, JumpTargetIndex, TeInst};
use etrace_spec::params::Params;

/// One way of damaging a stream.
struct Case {
    /// What the damage is.
    name: &'static str,
    /// The program (file stem).
    stem: &'static str,
    /// Encoder options.
    options: EncoderOptions,
    /// The decoder's limits and trap vectors.
    config: DecoderConfig,
    /// Damages the packets of `program`: the index of the packet that must fail, and why.
    damage: fn(&Program, &mut Vec<EncodedPacket>) -> (usize, DecodeCause),
}

impl Case {
    /// A case with the default encoder options and decoder configuration.
    fn new(
        name: &'static str,
        stem: &'static str,
        damage: fn(&Program, &mut Vec<EncodedPacket>) -> (usize, DecodeCause),
    ) -> Case {
        Case {
            name,
            stem,
            options: EncoderOptions::default(),
            config: DecoderConfig::default(),
            damage,
        }
    }
}

/// A packet that makes the decoder follow the path (format 0, 1 or 2).
fn is_path(p: &TeInst) -> bool {
    matches!(
        p,
        TeInst::Branch(_) | TeInst::AddrOnly(_) | TeInst::BranchCount(_)
    )
}

/// The address the decoder follows to at packet `index`: that of the instruction (the
/// hart's record) of the last packet up to `index` that carries an address.
fn reported_address(program: &Program, packets: &[EncodedPacket], index: usize) -> u64 {
    let with_address = packets[..=index]
        .iter()
        .rev()
        .find(|p| match &p.packet {
            TeInst::Branch(b) => b.address.is_some(),
            TeInst::BranchCount(c) => c.address.is_some(),
            TeInst::AddrOnly(_) | TeInst::Start(_) => true,
            TeInst::Trap(t) => t.thaddr,
            _ => false,
        })
        .expect("a packet with an address");
    program.records[with_address.record_index as usize].iaddr
}

/// The index of the first packet that `f` accepts.
fn first(packets: &[EncodedPacket], f: impl Fn(&EncodedPacket) -> bool) -> usize {
    packets.iter().position(f).expect("a packet to damage")
}

/// The address of the last conditional branch the hart retired up to record `index`.
fn last_branch(program: &Program, index: u64) -> u64 {
    program.records[..=index as usize]
        .iter()
        .rev()
        .find(|r| r.itype.is_branch())
        .expect("a branch")
        .iaddr
}

/// A format 1 packet with an address after an uninferable discontinuity (the path it
/// reports ends with that jump): its index and branch count.
fn branch_after_updiscon(packets: &[EncodedPacket]) -> (usize, u8) {
    let i = first(packets, |p| {
        p.reasons.contains(&Reason::PrevUpdiscon)
            && matches!(&p.packet, TeInst::Branch(b) if b.address.is_some() && (1..29).contains(&b.branches))
    });
    match &packets[i].packet {
        TeInst::Branch(b) => (i, b.branches),
        _ => unreachable!(),
    }
}

/// The first trap packet without a handler address (implicit exception mode).
fn implicit_trap(packets: &[EncodedPacket]) -> usize {
    first(
        packets,
        |p| matches!(&p.packet, TeInst::Trap(t) if t.thaddr && t.address.is_none()),
    )
}

/// The damages, one per cause the decoder reports for a packet it can read.
fn cases() -> Vec<Case> {
    let implicit_exception = EncoderOptions {
        implicit_exception: true,
        ..EncoderOptions::default()
    };
    vec![
        Case::new(
            "the first synchronisation removed",
            "loops-rv32",
            |_, packets| {
                let start = first(packets, |p| matches!(p.packet, TeInst::Start(_)));
                packets.remove(start);
                let victim = start + first(&packets[start..], |p| is_path(&p.packet));
                (victim, DecodeCause::NotSynchronised)
            },
        ),
        Case::new("a jump target cache index", "loops-rv64", |_, packets| {
            let at = 1 + first(packets, |p| matches!(p.packet, TeInst::Start(_)));
            let mut packet = packets[at].clone();
            packet.packet = TeInst::JumpTargetIndex(JumpTargetIndex {
                index: 0,
                branches: 0,
                branch_map: 0,
                irreport: false,
                irdepth: 0,
            });
            packets.insert(at, packet);
            (at, DecodeCause::JumpTargetCache)
        }),
        Case {
            options: implicit_exception,
            ..Case::new(
                "implicit exception mode without trap vectors",
                "traps-rv32",
                |_, packets| (implicit_trap(packets), DecodeCause::NoTrapVectors),
            )
        },
        Case {
            options: implicit_exception,
            config: DecoderConfig {
                trap_vectors: Some(TrapVectors {
                    mtvec: 0x8000_0000,
                    stvec: 0x8000_0000,
                }),
                ..DecoderConfig::default()
            },
            ..Case::new(
                "implicit exception into U-mode",
                "traps-rv64",
                |_, packets| {
                    let trap = implicit_trap(packets);
                    if let TeInst::Trap(t) = &mut packets[trap].packet {
                        t.privilege = 0;
                    }
                    (trap, DecodeCause::NoTrapVector { privilege: 0 })
                },
            )
        },
        Case::new(
            "a synchronisation outside the program",
            "minimal-rv32",
            |_, packets| {
                let start = first(packets, |p| matches!(p.packet, TeInst::Start(_)));
                if let TeInst::Start(s) = &mut packets[start].packet {
                    s.address = 0x100 >> Params::rv32().iaddress_lsb_p;
                }
                (start, DecodeCause::NoInstruction { address: 0x100 })
            },
        ),
        Case::new(
            "a branch map one branch short",
            "recursion-rv32",
            |program, packets| {
                let i = first(
                    packets,
                    |p| matches!(&p.packet, TeInst::Branch(b) if b.address.is_some() && b.branches >= 2),
                );
                if let TeInst::Branch(b) = &mut packets[i].packet {
                    b.branches -= 1;
                }
                let address = last_branch(program, packets[i].record_index);
                (i, DecodeCause::BranchesExhausted { address })
            },
        ),
        Case::new(
            "a full branch map across an uninferable jump",
            "fnptr_switch-rv64",
            |_, packets| {
                let (i, _) = branch_after_updiscon(packets);
                if let TeInst::Branch(b) = &mut packets[i].packet {
                    b.branches = 0;
                    b.address = None;
                }
                (i, DecodeCause::UnexpectedDiscontinuity)
            },
        ),
        Case::new(
            "branches beyond an uninferable jump",
            "fnptr_switch-rv32",
            |_, packets| {
                let (i, n) = branch_after_updiscon(packets);
                if let TeInst::Branch(b) = &mut packets[i].packet {
                    b.branches = n + 2;
                }
                (i, DecodeCause::UnprocessedBranches)
            },
        ),
        Case {
            config: DecoderConfig {
                max_steps_per_packet: 4,
                ..DecoderConfig::default()
            },
            ..Case::new(
                "an address beyond the step bound",
                "workload-rv32",
                |program, packets| {
                    // The first packet whose path is longer than the bound.
                    let i = (1..packets.len())
                        .find(|&i| {
                            is_path(&packets[i].packet)
                                && packets[i].record_index - packets[i - 1].record_index > 8
                        })
                        .expect("a long path");
                    let address = reported_address(program, packets, i);
                    (
                        i,
                        DecodeCause::NotReached {
                            address,
                            within: 4,
                            between_branches: 1 << 16,
                        },
                    )
                },
            )
        },
    ]
}

/// Every case: the first decode error is at the damaged packet (index and byte offset)
/// with the expected cause.
#[test]
fn decoder_adoc_decode_errors_name_packet_and_cause() {
    for case in cases() {
        let program = program(case.stem);
        let params = params_for(case.stem);
        let mut packets = Encoder::encode_all(&params, case.options, &program.records).unwrap();
        let (victim, cause) = (case.damage)(&program, &mut packets);
        let mut decoder = TeDecoder::new(&program.image, &params, case.config);
        for (i, p) in packets.iter().enumerate() {
            decoder.process(&p.packet, i as u64, Some(10 * i as u64));
        }
        let elements = decoder.take_elements(true);
        let error = first_error(&elements)
            .unwrap_or_else(|| panic!("{}: no decode error", case.name))
            .clone();
        assert_eq!(
            (error.packet_index, error.byte_offset, error.cause),
            (victim as u64, Some(10 * victim as u64), cause),
            "{} ({})",
            case.name,
            case.stem
        );
    }
}

/// A payload the packet layer cannot read is reported with that layer's message, at its
/// place in the stream; decoding resumes at the next synchronisation.
#[test]
fn decoder_adoc_unreadable_payloads_keep_the_packet_layer_message() {
    let program = program("loops-rv32");
    let params = params_for("loops-rv32");
    let packets =
        Encoder::encode_all(&params, EncoderOptions::default(), &program.records).unwrap();
    let mut offset = 0u64;
    let mut events: Vec<PayloadEvent> = packets
        .iter()
        .map(|p| {
            let bytes = pack(&p.packet, &params).unwrap().bytes;
            let event = PayloadEvent::Payload { offset, bytes };
            offset += 100;
            event
        })
        .collect();
    let victim = packets.len() / 2;
    let bad = vec![0xffu8; 40];
    let why = unpack_with(&bad, &params, &IOptions::default()).unwrap_err();
    if let PayloadEvent::Payload { bytes, .. } = &mut events[victim] {
        *bytes = bad;
    }
    let mut decoder = TeDecoder::new(&program.image, &params, DecoderConfig::default());
    let elements = decode_payloads(&mut decoder, &params, &events);
    let errors: Vec<_> = elements.iter().filter_map(|e| e.decode_error()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].packet_index, victim as u64);
    assert_eq!(errors[0].byte_offset, Some(100 * victim as u64));
    assert_eq!(
        errors[0].cause,
        DecodeCause::Unreadable {
            reason: why.to_string()
        }
    );
}
