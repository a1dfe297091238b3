//! Behaviour of the encoder algorithm (`exampleAlgorithm.adoc`, figure `fig:algo`) on small
//! hand-made ingress streams: which packets are sent, in which order, with which fields.

use etrace_encoder::{Encoder, EncoderOptions, Reason};
use etrace_spec::ingress::{IngressRecord, Itype, Privilege};
use etrace_spec::packet::{
    AddressInfo, Branch, BranchCount, BranchFmt, QualStatus, Support, TeInst, Trap,
};
use etrace_spec::params::Params;

fn insn(iaddr: u64, itype: Itype) -> IngressRecord {
    IngressRecord {
        iretire: 1,
        itype,
        iaddr,
        ilastsize: 1,
        privilege: Privilege::Machine,
        ..IngressRecord::default()
    }
}

fn straight(from: u64, count: u64) -> Vec<IngressRecord> {
    (0..count)
        .map(|i| insn(from + 4 * i, Itype::None))
        .collect()
}

fn run(params: &Params, options: EncoderOptions, records: &[IngressRecord]) -> Vec<TeInst> {
    Encoder::encode_all(params, options, records)
        .unwrap()
        .into_iter()
        .map(|p| p.packet)
        .collect()
}

fn support_status(p: &TeInst) -> Option<(bool, QualStatus)> {
    match p {
        TeInst::Support(Support {
            ienable,
            qual_status,
            ..
        }) => Some((*ienable, *qual_status)),
        _ => None,
    }
}

#[test]
fn sec_format33_trace_starts_with_support_then_sync_and_ends_with_final_address_and_support() {
    let p = Params::rv32();
    let packets = run(&p, EncoderOptions::default(), &straight(0x8000_0000, 10));
    assert_eq!(packets.len(), 4, "{packets:?}");
    assert_eq!(
        support_status(&packets[0]),
        Some((true, QualStatus::NoChange))
    );
    assert!(matches!(&packets[1], TeInst::Start(s) if s.address == 0x8000_0000 >> 1));
    // The last instruction, 0x80000024, relative to the sync address.
    assert_eq!(
        packets[2],
        TeInst::AddrOnly(AddressInfo::new(0x24 >> 1)),
        "final packet reports the last traced instruction"
    );
    assert_eq!(
        support_status(&packets[3]),
        Some((false, QualStatus::EndedRep))
    );
}

#[test]
fn sec_qual_status_ended_ntr_when_the_final_packet_reported_an_updiscon_target() {
    let p = Params::rv32();
    let mut recs = straight(0x8000_0000, 3);
    recs.push(insn(0x8000_000c, Itype::UninferableJump));
    recs.push(insn(0x8000_0100, Itype::None)); // target, and the last record
    let packets = run(&p, EncoderOptions::default(), &recs);
    let last = packets.last().unwrap();
    assert_eq!(support_status(last), Some((false, QualStatus::EndedNtr)));
}

#[test]
fn sec_format33_qualification_end_and_restart() {
    let p = Params::rv32();
    let mut enc = Encoder::new(&p, EncoderOptions::default()).unwrap();
    let recs = straight(0x8000_0000, 12);
    for (i, r) in recs.iter().enumerate() {
        // Instructions 4..8 are outside the filter.
        enc.push_with(r, !(4..8).contains(&i), false);
    }
    enc.finish();
    let kinds: Vec<_> = enc
        .packets()
        .iter()
        .map(|p| (p.packet.kind_name(), p.record_index))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("support", 0),
            ("start", 0),
            ("addr-only", 3),
            ("support", 4),
            ("start", 8),
            ("addr-only", 11),
            ("support", 11),
        ]
    );
    assert_eq!(
        support_status(&enc.packets()[3].packet),
        Some((true, QualStatus::EndedRep)),
        "qualification ended, encoder still enabled"
    );
}

#[test]
fn sec_format1_full_branch_map_is_sent_without_address() {
    let p = Params::rv32();
    let mut recs = straight(0x8000_0000, 1);
    for i in 0..31u64 {
        let t = if i % 3 == 0 {
            Itype::NontakenBranch
        } else {
            Itype::TakenBranch
        };
        recs.push(insn(0x8000_0004 + 4 * i, t));
    }
    recs.extend(straight(0x8000_1000, 2));
    let packets = run(&p, EncoderOptions::default(), &recs);
    let expected_map = (0..31u32).filter(|i| i % 3 == 0).fold(0, |m, i| m | 1 << i);
    assert_eq!(
        packets[2],
        TeInst::Branch(Branch {
            branches: 0,
            branch_map: expected_map,
            address: None
        })
    );
}

#[test]
fn sec_resync_sends_a_sync_after_max_packets() {
    let p = Params::rv32();
    let options = EncoderOptions {
        resync_max: 4,
        ..EncoderOptions::default()
    };
    // A loop of an indirect jump back to its start: one format 2 packet per iteration.
    let mut recs = Vec::new();
    for _ in 0..20 {
        recs.push(insn(0x8000_0000, Itype::None));
        recs.push(insn(0x8000_0004, Itype::UninferableJump));
    }
    let encoded = Encoder::encode_all(&p, options, &recs).unwrap();
    let syncs: Vec<u64> = encoded
        .iter()
        .filter(|e| matches!(e.packet, TeInst::Start(_)))
        .map(|e| e.record_index)
        .collect();
    assert!(syncs.len() >= 4, "periodic syncs: {syncs:?}");
    assert_eq!(syncs[0], 0);
    for e in &encoded {
        if matches!(e.packet, TeInst::Start(_)) && e.record_index != 0 {
            assert_eq!(e.reasons, vec![Reason::ResyncExceeded]);
        }
    }
    // Between two syncs: exactly resync_max + 1 other packets.
    let between = encoded
        .iter()
        .skip_while(|e| !(matches!(e.packet, TeInst::Start(_)) && e.record_index > 0))
        .skip(1)
        .take_while(|e| !matches!(e.packet, TeInst::Start(_)))
        .count();
    assert_eq!(between, 5);
}

#[test]
fn sec_updiscon_is_flagged_when_the_target_precedes_a_format3() {
    let p = Params::rv32();
    let recs = vec![
        insn(0x8000_0000, Itype::None),
        insn(0x8000_0004, Itype::UninferableJump),
        insn(0x8000_0040, Itype::None), // target; next is an exception
        IngressRecord {
            iretire: 0,
            itype: Itype::Exception,
            cause: 2,
            ..insn(0x8000_0044, Itype::None)
        },
        insn(0x8000_0100, Itype::None),
        insn(0x8000_0104, Itype::None),
    ];
    let packets = run(&p, EncoderOptions::default(), &recs);
    match &packets[2] {
        TeInst::AddrOnly(a) => assert!(a.updiscon, "{a:?}"),
        other => panic!("{other:?}"),
    }
    // The exception at 0x80000044 is reported at the handler with thaddr = 1.
    assert!(
        matches!(&packets[3], TeInst::Trap(Trap { thaddr: true, ecause: 2, address: Some(a), .. }) if *a == 0x8000_0100 >> 1)
    );
}

#[test]
fn sec_implicit_exception_omits_the_handler_address() {
    let p = Params::rv32();
    let options = EncoderOptions {
        implicit_exception: true,
        ..EncoderOptions::default()
    };
    let recs = vec![
        insn(0x8000_0000, Itype::None),
        IngressRecord {
            itype: Itype::Exception,
            cause: 11,
            ..insn(0x8000_0004, Itype::None)
        }, // ecall: retires with the exception
        insn(0x8000_0200, Itype::None),
        insn(0x8000_0204, Itype::None),
    ];
    let packets = run(&p, options, &recs);
    assert!(
        matches!(&packets[2], TeInst::AddrOnly(_)),
        "er_n reports the ecall"
    );
    assert!(matches!(
        &packets[3],
        TeInst::Trap(Trap {
            thaddr: true,
            address: None,
            ecause: 11,
            ..
        })
    ));
}

#[test]
fn sec_si_jump_sequentially_inferable_jumps_are_not_reported() {
    let mut p = Params::rv32();
    p.sijump_p = 1;
    let mut jump = insn(0x8000_0004, Itype::UninferableJump);
    jump.sijump = true;
    let recs = vec![
        insn(0x8000_0000, Itype::None),
        jump,
        insn(0x8000_0800, Itype::None),
        insn(0x8000_0804, Itype::None),
    ];
    let with = run(
        &p,
        EncoderOptions {
            sijump: true,
            ..EncoderOptions::default()
        },
        &recs,
    );
    let without = run(&p, EncoderOptions::default(), &recs);
    assert_eq!(with.len() + 1, without.len());
}

#[test]
fn sec_format0_correctly_predicted_branches_are_counted() {
    let mut p = Params::rv32();
    p.bpred_size_p = 4;
    let options = EncoderOptions {
        branch_prediction: true,
        ..EncoderOptions::default()
    };
    // A loop branch at one address: not taken is predicted from the reset state (01), so
    // 40 not-taken outcomes are all correct, then a taken one fails.
    let mut recs = straight(0x8000_0000, 1);
    for _ in 0..40 {
        recs.push(insn(0x8000_0004, Itype::NontakenBranch));
    }
    recs.push(insn(0x8000_0004, Itype::TakenBranch));
    recs.extend(straight(0x8000_0010, 3));
    let packets = run(&p, options, &recs);
    assert_eq!(
        packets[2],
        TeInst::BranchCount(BranchCount {
            branch_count: 40 - 31,
            branch_fmt: BranchFmt::NoAddr,
            address: None
        })
    );
    // The final report carries no branches.
    assert!(matches!(packets[3], TeInst::AddrOnly(_)));
}

#[test]
fn options_that_need_parameters_are_refused() {
    let p = Params::rv32();
    for options in [
        EncoderOptions {
            sijump: true,
            ..EncoderOptions::default()
        },
        EncoderOptions {
            branch_prediction: true,
            ..EncoderOptions::default()
        },
        EncoderOptions {
            implicit_return: true,
            ..EncoderOptions::default()
        },
    ] {
        assert!(Encoder::new(&p, options).is_err());
    }
}

#[test]
fn sec_implicit_return_inferred_returns_are_not_reported() {
    let mut p = Params::rv32();
    p.return_stack_size_p = 2;
    let options = EncoderOptions {
        implicit_return: true,
        ..EncoderOptions::default()
    };
    // call (jal ra) -> callee -> ret back to the call's next instruction, twice.
    let mut recs = straight(0x8000_0000, 1);
    for _ in 0..2 {
        recs.push(insn(0x8000_0004, Itype::InferableCall));
        recs.push(insn(0x8000_0100, Itype::None));
        recs.push(insn(0x8000_0104, Itype::Return));
        recs.push(insn(0x8000_0008, Itype::TakenBranch));
    }
    recs.extend(straight(0x8000_0000, 2));
    let with = run(&p, options, &recs);
    let without = run(&p, EncoderOptions::default(), &recs);
    let addresses = |ps: &[TeInst]| ps.iter().filter(|p| p.address_info().is_some()).count();
    assert_eq!(addresses(&without), 3, "two returns and the final report");
    assert_eq!(addresses(&with), 1, "only the final report");
    // A return whose target differs from the prediction is reported, with irreport.
    let mut bad = straight(0x8000_0000, 1);
    bad.push(insn(0x8000_0004, Itype::InferableCall));
    bad.push(insn(0x8000_0100, Itype::Return));
    bad.push(insn(0x8000_0300, Itype::None));
    bad.extend(straight(0x8000_0304, 2));
    let packets = run(&p, options, &bad);
    let reported = packets
        .iter()
        .find_map(|p| p.address_info().copied().filter(|a| a.irreport))
        .expect("a packet with irreport");
    assert_eq!(reported.irdepth, 1);
}
