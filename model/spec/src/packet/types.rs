//! The te_inst packet types of `payload.adoc`, one per format / subformat, with the spec's
//! field names.
//!
//! Conventions:
//! * `address` fields hold the transmitted field value: the (full or differential)
//!   address shifted right by `iaddress_lsb_p`, `iaddress_width_p - iaddress_lsb_p` bits
//!   wide (a differential address is a two's complement value of that width).
//! * `notify`, `updiscon` and `irreport` hold their *meaning*: `true` when the transmitted
//!   bit differs from the bit before it (`payload.adoc` formats 0-2, `decoder.adoc`
//!   `te_inst.notify != get_preceding_bit(te_inst, "notify")`). Packing derives the
//!   transmitted bits, which then normally equal the preceding bit and compress away.
//! * `irdepth` is meaningful only when `irreport` is true; otherwise it is transmitted as
//!   copies of the `irreport` bit and unpacks as 0.
//! * `branch` (format 3) and `branch_map` bits are the transmitted values: 0 = taken,
//!   1 = not taken (or, for `branch`, not a branch).

/// A te_inst packet payload (`payload.adoc`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeInst {
    /// Format 0 subformat 0: correctly predicted branches (`sec:format0`).
    BranchCount(BranchCount),
    /// Format 0 subformat 1: jump target cache index (`sec:format0`).
    JumpTargetIndex(JumpTargetIndex),
    /// Format 1 (diff-delta): branch map, with or without an address (`sec:format1`).
    Branch(Branch),
    /// Format 2 (addr-only): an address, no branch information (`sec:format2`).
    AddrOnly(AddressInfo),
    /// Format 3 subformat 0 (start): synchronisation (`sec:format30`).
    Start(Start),
    /// Format 3 subformat 1 (trap): exception or interrupt (`sec:format31`).
    Trap(Trap),
    /// Format 3 subformat 2 (context): context change (`sec:format32`).
    Context(Context),
    /// Format 3 subformat 3 (support): supporting information (`sec:format33`).
    Support(Support),
}

impl TeInst {
    /// The 2-bit `format` field.
    pub fn format(&self) -> u8 {
        match self {
            TeInst::BranchCount(_) | TeInst::JumpTargetIndex(_) => 0,
            TeInst::Branch(_) => 1,
            TeInst::AddrOnly(_) => 2,
            TeInst::Start(_) | TeInst::Trap(_) | TeInst::Context(_) | TeInst::Support(_) => 3,
        }
    }

    /// The `subformat` field of formats 0 and 3; `None` for formats 1 and 2.
    pub fn subformat(&self) -> Option<u8> {
        match self {
            TeInst::BranchCount(_) | TeInst::Start(_) => Some(0),
            TeInst::JumpTargetIndex(_) | TeInst::Trap(_) => Some(1),
            TeInst::Context(_) => Some(2),
            TeInst::Support(_) => Some(3),
            TeInst::Branch(_) | TeInst::AddrOnly(_) => None,
        }
    }

    /// Whether this is a "synchronization packet" (format 3 subformat 0 or 1,
    /// `sec:format3`).
    pub fn is_sync(&self) -> bool {
        matches!(self, TeInst::Start(_) | TeInst::Trap(_))
    }

    /// The address group of formats 0, 1 and 2, if the packet has one.
    pub fn address_info(&self) -> Option<&AddressInfo> {
        match self {
            TeInst::BranchCount(b) => b.address.as_ref(),
            TeInst::Branch(b) => b.address.as_ref(),
            TeInst::AddrOnly(a) => Some(a),
            _ => None,
        }
    }

    /// The spec's name of the format / subformat (`opt-ext`, `diff-delta`, `addr-only`,
    /// `start`, `trap`, `context`, `support`, ...).
    pub fn kind_name(&self) -> &'static str {
        match self {
            TeInst::BranchCount(_) => "branch-count",
            TeInst::JumpTargetIndex(_) => "jump-target-cache",
            TeInst::Branch(_) => "diff-delta",
            TeInst::AddrOnly(_) => "addr-only",
            TeInst::Start(_) => "start",
            TeInst::Trap(_) => "trap",
            TeInst::Context(_) => "context",
            TeInst::Support(_) => "support",
        }
    }
}

/// The fields `address`, `notify`, `updiscon`, `irreport`, `irdepth` that end formats 0
/// (subformat 0, with address), 1 (with address) and 2 (`payload.adoc`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AddressInfo {
    /// `address`: differential (or full, in full-address mode) instruction address,
    /// shifted right by `iaddress_lsb_p`.
    pub address: u64,
    /// `notify`: the reported instruction is reported because of a notification
    /// (`trigger[2]`), not an uninferable discontinuity (`sec:notify`).
    pub notify: bool,
    /// `updiscon`: the reported instruction follows an uninferable discontinuity and
    /// precedes a format 3 packet (`sec:updiscon`).
    pub updiscon: bool,
    /// `irreport`: the packet reports an implicit-return misprediction or the stack depth
    /// (`sec:irxx`).
    pub irreport: bool,
    /// `irdepth`: return stack entries / nested call count when `irreport` is true.
    pub irdepth: u64,
}

impl AddressInfo {
    /// An address with no notify / updiscon / irreport indication.
    pub fn new(address: u64) -> AddressInfo {
        AddressInfo {
            address,
            ..AddressInfo::default()
        }
    }
}

/// Format 0 `branch_fmt` (`payload.adoc`, format 0 subformat 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BranchFmt {
    /// 00 (no-addr): no address; the branch after the last correct prediction failed.
    NoAddr,
    /// 10 (addr): the packet contains an address; a branch there was predicted correctly.
    Addr,
    /// 11 (addr-fail): the packet contains the address of a branch that failed prediction.
    AddrFail,
}

impl BranchFmt {
    /// The 2-bit field value.
    pub fn code(self) -> u8 {
        match self {
            BranchFmt::NoAddr => 0b00,
            BranchFmt::Addr => 0b10,
            BranchFmt::AddrFail => 0b11,
        }
    }

    /// The spec's name of the value.
    pub fn name(self) -> &'static str {
        match self {
            BranchFmt::NoAddr => "no-addr",
            BranchFmt::Addr => "addr",
            BranchFmt::AddrFail => "addr-fail",
        }
    }
}

/// Format 0 subformat 0: count of correctly predicted branches (`sec:format0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BranchCount {
    /// `branch_count`: correctly predicted branches minus 31 (32 bits).
    pub branch_count: u32,
    /// `branch_fmt`: whether an address follows.
    pub branch_fmt: BranchFmt,
    /// The address group; present exactly when `branch_fmt` is not `NoAddr`.
    pub address: Option<AddressInfo>,
}

/// Format 0 subformat 1: jump target cache index (`sec:format0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JumpTargetIndex {
    /// `index`: jump target cache entry holding the target (`cache_size_p` bits).
    pub index: u64,
    /// `branches`: number of valid bits of `branch_map`; 0 = no branch map.
    pub branches: u8,
    /// `branch_map`: bit 0 is the oldest branch; 0 = taken, 1 = not taken.
    pub branch_map: u32,
    /// `irreport`: as in [`AddressInfo::irreport`], relative to the bit before it.
    pub irreport: bool,
    /// `irdepth`: meaningful when `irreport` is true.
    pub irdepth: u64,
}

/// Format 1 (diff-delta): branch map and optional address (`sec:format1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Branch {
    /// `branches`: number of valid bits of `branch_map`; 0 means a full 31-bit map and no
    /// address (31 with an address is also allowed, issue #225).
    pub branches: u8,
    /// `branch_map`: bit 0 is the oldest branch; 0 = taken, 1 = not taken. Its length
    /// follows from `branches` ([`super::branch_map_len`]).
    pub branch_map: u32,
    /// The address group; present exactly when `branches` is not 0.
    pub address: Option<AddressInfo>,
}

/// Format 3 subformat 0 (start): synchronisation (`sec:format30`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Start {
    /// `branch`: 0 if `address` is a taken branch, 1 otherwise.
    pub branch: bool,
    /// `privilege`: privilege level of the reported instruction.
    pub privilege: u8,
    /// `time`: present when `notime_p` is 0.
    pub time: u64,
    /// `context`: present when `nocontext_p` is 0.
    pub context: u64,
    /// `address`: full address shifted right by `iaddress_lsb_p`.
    pub address: u64,
}

/// Format 3 subformat 1 (trap): exception or interrupt (`sec:format31`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Trap {
    /// `branch`: 0 if `address` is a taken branch, 1 otherwise.
    pub branch: bool,
    /// `privilege`: privilege level of the reported instruction.
    pub privilege: u8,
    /// `time`: present when `notime_p` is 0.
    pub time: u64,
    /// `context`: present when `nocontext_p` is 0.
    pub context: u64,
    /// `ecause`: exception or interrupt cause.
    pub ecause: u64,
    /// `interrupt`: the trap is an interrupt.
    pub interrupt: bool,
    /// `thaddr`: 1 = `address` is the trap handler, 0 = the EPC or undefined
    /// (`sec:thaddr`).
    pub thaddr: bool,
    /// `address`: full address shifted right by `iaddress_lsb_p`; `None` when omitted in
    /// implicit-exception mode (only allowed with `thaddr` = 1, `sec:format31`).
    pub address: Option<u64>,
    /// `tval`: trap value (`iaddress_width_p` bits); not transmitted for interrupts
    /// (unpacks as 0 then).
    pub tval: u64,
}

/// Format 3 subformat 2 (context): context change (`sec:format32`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Context {
    /// `privilege`: privilege level of the new context.
    pub privilege: u8,
    /// `time`: present when `notime_p` is 0.
    pub time: u64,
    /// `context`: present when `nocontext_p` is 0.
    pub context: u64,
}

/// Format 3 subformat 3 `qual_status` (`sec:qual-status`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum QualStatus {
    /// 00 (no_change): no change to filter qualification.
    #[default]
    NoChange,
    /// 01 (ended_rep): qualification ended, preceding te_inst sent explicitly.
    EndedRep,
    /// 10 (trace_lost): one or more instruction trace packets lost.
    TraceLost,
    /// 11 (ended_ntr): qualification ended, preceding te_inst would have been sent anyway.
    EndedNtr,
}

impl QualStatus {
    /// The 2-bit field value.
    pub fn code(self) -> u8 {
        match self {
            QualStatus::NoChange => 0,
            QualStatus::EndedRep => 1,
            QualStatus::TraceLost => 2,
            QualStatus::EndedNtr => 3,
        }
    }

    /// The value for a 2-bit field (only the two low bits are used).
    pub fn from_code(code: u64) -> QualStatus {
        match code & 3 {
            0 => QualStatus::NoChange,
            1 => QualStatus::EndedRep,
            2 => QualStatus::TraceLost,
            _ => QualStatus::EndedNtr,
        }
    }

    /// The spec's name of the value.
    pub fn name(self) -> &'static str {
        match self {
            QualStatus::NoChange => "no_change",
            QualStatus::EndedRep => "ended_rep",
            QualStatus::TraceLost => "trace_lost",
            QualStatus::EndedNtr => "ended_ntr",
        }
    }
}

/// This encoder's `ioptions` bits (`sec:format33`: "implementation specific set of
/// individual bits - one for each of the optional modes").
///
/// Bit assignment (bit 0 is transmitted first); bits 0-4 are those of the reference flow,
/// so its support packets decode the same:
///
/// | bit | option |
/// |---|---|
/// | 0 | `implicit_return` (`sec:implicit-return`) |
/// | 1 | `implicit_exception` (`sec:implicit-exception`) |
/// | 2 | `full_address` (`sec:full-address`) |
/// | 3 | `jump_target_cache` |
/// | 4 | `branch_prediction` |
/// | 5 | `sijump`: sequentially inferable jumps are not reported (`sec:si-jump`) |
///
/// No data trace is supported, so `denable`, `dloss` and `doptions` are not transmitted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IOptions {
    /// Bit 0: function returns are not reported.
    pub implicit_return: bool,
    /// Bit 1: trap handler address omitted from format 3.1 when known from `ecause`.
    pub implicit_exception: bool,
    /// Bit 2: every address is a full address.
    pub full_address: bool,
    /// Bit 3: jump target cache enabled.
    pub jump_target_cache: bool,
    /// Bit 4: branch predictor enabled.
    pub branch_prediction: bool,
    /// Bit 5: targets of sequentially inferable jumps are not reported.
    pub sijump: bool,
}

impl IOptions {
    /// The option names in bit order.
    pub const NAMES: [&'static str; 6] = [
        "implicit_return",
        "implicit_exception",
        "full_address",
        "jump_target_cache",
        "branch_prediction",
        "sijump",
    ];

    /// The `ioptions` field value.
    pub fn bits(&self) -> u64 {
        [
            self.implicit_return,
            self.implicit_exception,
            self.full_address,
            self.jump_target_cache,
            self.branch_prediction,
            self.sijump,
        ]
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &b)| acc | (u64::from(b) << i))
    }

    /// The options of an `ioptions` field value (bits above bit 5 are ignored).
    pub fn from_bits(bits: u64) -> IOptions {
        let b = |i: u32| (bits >> i) & 1 == 1;
        IOptions {
            implicit_return: b(0),
            implicit_exception: b(1),
            full_address: b(2),
            jump_target_cache: b(3),
            branch_prediction: b(4),
            sijump: b(5),
        }
    }
}

/// Format 3 subformat 3 (support): supporting information (`sec:format33`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Support {
    /// `ienable`: the instruction trace encoder is enabled.
    pub ienable: bool,
    /// `encoder_mode`: 0 = branch trace, the only defined mode (1 bit).
    pub encoder_mode: u8,
    /// `qual_status`: filter qualification status.
    pub qual_status: QualStatus,
    /// `ioptions`: run-time options.
    pub ioptions: IOptions,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sec_format33_ioptions_bits_round_trip() {
        for bits in 0..64 {
            assert_eq!(IOptions::from_bits(bits).bits(), bits);
        }
        // The reference flow's `options=4` is full-address mode.
        assert_eq!(
            IOptions::from_bits(4),
            IOptions {
                full_address: true,
                ..IOptions::default()
            }
        );
    }

    #[test]
    fn format_and_subformat_numbers() {
        let cases: [(TeInst, u8, Option<u8>); 4] = [
            (TeInst::AddrOnly(AddressInfo::new(1)), 2, None),
            (TeInst::Context(Context::default()), 3, Some(2)),
            (TeInst::Support(Support::default()), 3, Some(3)),
            (
                TeInst::JumpTargetIndex(JumpTargetIndex {
                    index: 0,
                    branches: 0,
                    branch_map: 0,
                    irreport: false,
                    irdepth: 0,
                }),
                0,
                Some(1),
            ),
        ];
        for (inst, f, s) in cases {
            assert_eq!((inst.format(), inst.subformat()), (f, s), "{inst:?}");
        }
    }
}
