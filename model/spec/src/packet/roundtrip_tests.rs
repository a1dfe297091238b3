//! Round trips pack -> unpack over generated packets for RV32 / RV64 parameter sets, with
//! and without context / time / implicit return / optional formats, plus error cases.

use proptest::prelude::*;

use super::*;
use crate::bitfield::mask;
use crate::params::Params;

/// Parameter sets the round trips run over.
pub(crate) fn param_sets() -> Vec<Params> {
    vec![
        Params::rv32(),
        Params::rv64(),
        Params {
            nocontext_p: 0,
            context_width_p: 32,
            notime_p: 0,
            time_width_p: 16,
            ..Params::rv32()
        },
        Params {
            nocontext_p: 0,
            context_width_p: 64,
            notime_p: 0,
            time_width_p: 64,
            iaddress_lsb_p: 0,
            privilege_width_p: 3,
            ..Params::rv64()
        },
        Params {
            return_stack_size_p: 3,
            cache_size_p: 4,
            bpred_size_p: 5,
            f0s_width_p: 1,
            ..Params::rv64()
        },
        Params {
            call_counter_size_p: 7,
            cache_size_p: 10,
            f0s_width_p: 0,
            iaddress_width_p: 40,
            iaddress_lsb_p: 2,
            ..Params::rv32()
        },
    ]
}

/// A packet of kind `kind % 8` with field values taken from `r`, each masked to its
/// width (so every packet is valid for `p`).
pub(crate) fn build(kind: u8, r: &[u64; 10], p: &Params) -> TeInst {
    let w = FieldWidths::from_params(p).unwrap();
    let addr = |v: u64| AddressInfo {
        address: v & mask(w.address),
        notify: r[5] & 1 == 1,
        updiscon: r[5] & 2 == 2,
        irreport: r[5] & 4 == 4,
        irdepth: if r[5] & 4 == 4 {
            r[6] & mask(w.irdepth)
        } else {
            0
        },
    };
    let branches = (r[2] % 32) as u8;
    match kind % 8 {
        0 => {
            let fmt =
                [BranchFmt::NoAddr, BranchFmt::Addr, BranchFmt::AddrFail][(r[3] % 3) as usize];
            TeInst::BranchCount(BranchCount {
                branch_count: r[1] as u32,
                branch_fmt: fmt,
                address: (fmt != BranchFmt::NoAddr).then(|| addr(r[0])),
            })
        }
        1 => TeInst::JumpTargetIndex(JumpTargetIndex {
            index: r[0] & mask(w.index),
            branches,
            branch_map: (r[1] & mask(jtc_branch_map_len(branches))) as u32,
            irreport: r[5] & 4 == 4,
            irdepth: if r[5] & 4 == 4 {
                r[6] & mask(w.irdepth)
            } else {
                0
            },
        }),
        2 => TeInst::Branch(Branch {
            branches,
            branch_map: (r[1] & mask(branch_map_len(branches))) as u32,
            address: (branches != 0).then(|| addr(r[0])),
        }),
        3 => TeInst::AddrOnly(addr(r[0])),
        4 => TeInst::Start(Start {
            branch: r[3] & 1 == 1,
            privilege: (r[4] & mask(w.privilege)) as u8,
            time: r[7] & mask(w.time),
            context: r[8] & mask(w.context),
            address: r[0] & mask(w.address),
        }),
        5 => {
            let interrupt = r[3] & 2 == 2;
            TeInst::Trap(Trap {
                branch: r[3] & 1 == 1,
                privilege: (r[4] & mask(w.privilege)) as u8,
                time: r[7] & mask(w.time),
                context: r[8] & mask(w.context),
                ecause: r[9] & mask(w.ecause),
                interrupt,
                thaddr: r[3] & 4 == 4,
                address: Some(r[0] & mask(w.address)),
                tval: if interrupt { 0 } else { r[1] & mask(w.tval) },
            })
        }
        6 => TeInst::Context(Context {
            privilege: (r[4] & mask(w.privilege)) as u8,
            time: r[7] & mask(w.time),
            context: r[8] & mask(w.context),
        }),
        _ => TeInst::Support(Support {
            ienable: r[3] & 1 == 1,
            encoder_mode: (r[3] >> 1 & 1) as u8,
            qual_status: QualStatus::from_code(r[3] >> 2),
            ioptions: IOptions::from_bits(r[4] & 0x3f),
        }),
    }
}

/// The run-time options under which `inst` unpacks as packed: format 0 with
/// `f0s_width_p` 0 needs the options that select its subformat.
fn options_for(inst: &TeInst) -> IOptions {
    match inst {
        TeInst::JumpTargetIndex(_) => IOptions {
            jump_target_cache: true,
            ..IOptions::default()
        },
        TeInst::BranchCount(_) => IOptions {
            branch_prediction: true,
            ..IOptions::default()
        },
        _ => IOptions::default(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn payload_pack_unpack_round_trip(kind in 0u8..8, r in any::<[u64; 10]>(), set in 0usize..6) {
        let p = &param_sets()[set];
        let inst = build(kind, &r, p);
        let opts = options_for(&inst);
        let packed = pack(&inst, p).unwrap();
        prop_assert!(!packed.bytes.is_empty());
        prop_assert!(packed.bytes.len() <= packed.bits.div_ceil(8));
        prop_assert_eq!(unpack_with(&packed.bytes, p, &opts).unwrap(), inst.clone());
        // Uncompressed payloads decode the same.
        let full = pack_uncompressed(&inst, p).unwrap();
        prop_assert_eq!(full.bytes.len(), full.bits.div_ceil(8));
        prop_assert_eq!(unpack_with(&full.bytes, p, &opts).unwrap(), inst.clone());
        // Compression is minimal: dropping the last byte changes the packet.
        let n = packed.bytes.len();
        if n > 1 {
            let shorter = unpack_with(&packed.bytes[..n - 1], p, &opts);
            prop_assert!(shorter != Ok(inst.clone()));
        }
    }

    #[test]
    fn payload_unpack_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..40), set in 0usize..6) {
        let p = &param_sets()[set];
        if let Ok(inst) = unpack(&bytes, p) {
            // Whatever decodes re-packs to an equivalent payload.
            let again = pack(&inst, p).unwrap();
            prop_assert_eq!(unpack(&again.bytes, p).unwrap(), inst);
        }
    }
}

#[test]
fn payload_unpack_errors_name_the_problem() {
    let p = Params::rv32();
    assert_eq!(unpack(&[], &p), Err(PacketError::Empty));
    // Format 2, address 1, then a byte beyond the longest format 2 packet (31 + 3 bits).
    let mut long = pack(&TeInst::AddrOnly(AddressInfo::new(1)), &p)
        .unwrap()
        .bytes;
    long.resize(6, 0);
    assert_eq!(
        unpack(&long, &p),
        Err(PacketError::TooLong {
            format: 2,
            len: 6,
            max: 5
        })
    );
    // Support packet (14 bits) with padding bits that are not the sign extension.
    assert_eq!(
        unpack(&[0x1f, 0x44], &p),
        Err(PacketError::BadPadding { offset: 1, bit: 14 })
    );
    // Format 0 with a 2-bit subformat of 2.
    let f0s = Params {
        f0s_width_p: 2,
        ..Params::rv32()
    };
    assert!(matches!(
        unpack(&[0b0000_1000], &f0s),
        Err(PacketError::BadSubformat {
            format: 0,
            subformat: 2,
            bit_offset: 2,
            ..
        })
    ));
    // Format 0 subformat 0 with branch_fmt 01 (bits 34-35).
    let mut bytes = vec![0u8; 5];
    bytes[4] = 0b0000_0100;
    assert_eq!(
        unpack(&bytes, &p),
        Err(PacketError::BadBranchFmt { bit_offset: 34 })
    );
    // irreport not set but irdepth bits differ.
    let rs = Params {
        return_stack_size_p: 1,
        ..Params::rv32()
    };
    let a = TeInst::AddrOnly(AddressInfo::new(0));
    let mut bytes = pack_uncompressed(&a, &rs).unwrap().bytes;
    bytes[4] |= 0x10; // first irdepth bit: 2 + 31 + 3 = bit 36
    assert_eq!(
        unpack(&bytes, &rs),
        Err(PacketError::ImplicitIrdepth { bit_offset: 36 })
    );
}

#[test]
fn payload_pack_rejects_inconsistent_packets() {
    let p = Params::rv32();
    let too_wide = TeInst::Context(Context {
        privilege: 4,
        time: 0,
        context: 0,
    });
    assert_eq!(
        pack(&too_wide, &p),
        Err(PacketError::FieldTooWide {
            field: "privilege",
            value: 4,
            width: 2
        })
    );
    // Context absent from the packet (nocontext_p = 1) but a value given.
    let ctx = TeInst::Context(Context {
        privilege: 0,
        time: 0,
        context: 5,
    });
    assert!(matches!(
        pack(&ctx, &p),
        Err(PacketError::FieldTooWide {
            field: "context",
            width: 0,
            ..
        })
    ));
    let f1 = TeInst::Branch(Branch {
        branches: 0,
        branch_map: 0,
        address: Some(AddressInfo::new(0)),
    });
    assert!(matches!(
        pack(&f1, &p),
        Err(PacketError::Inconsistent { .. })
    ));
    let trap = TeInst::Trap(Trap {
        thaddr: false,
        address: None,
        ..Trap::default()
    });
    assert!(matches!(
        pack(&trap, &p),
        Err(PacketError::Inconsistent { .. })
    ));
}

#[test]
fn sec_format31_implicit_exception_omits_handler_address() {
    let p = Params::rv32();
    let t = TeInst::Trap(Trap {
        branch: true,
        privilege: 3,
        ecause: 11,
        thaddr: true,
        address: None,
        tval: 0x1234,
        ..Trap::default()
    });
    let packed = pack(&t, &p).unwrap();
    // 2 + 2 + 1 + 2 + 5 + 1 + 1 + 32 (tval) bits.
    assert_eq!(packed.bits, 46);
    let opts = IOptions {
        implicit_exception: true,
        ..IOptions::default()
    };
    assert_eq!(unpack_with(&packed.bytes, &p, &opts).unwrap(), t);
}

#[test]
fn sec_irxx_irreport_and_irdepth_compress_away() {
    let p = Params {
        return_stack_size_p: 2,
        ..Params::rv32()
    };
    let plain = TeInst::AddrOnly(AddressInfo::new(0x10));
    let reported = TeInst::AddrOnly(AddressInfo {
        irreport: true,
        irdepth: 3,
        ..AddressInfo::new(0x10)
    });
    assert_eq!(pack(&plain, &p).unwrap().bytes, [0x42]);
    let bytes = pack(&reported, &p).unwrap().bytes;
    assert!(bytes.len() > 1);
    assert_eq!(unpack(&bytes, &p).unwrap(), reported);
}
