//! Filling in the te_inst fields of `payload.adoc` for the packets the chart decided on.

use super::branch_map::BranchMap;
use super::options::EncoderOptions;
use super::window::Slot;
use etrace_spec::bitfield::low_bits;
use etrace_spec::ingress::{IngressRecord, Itype};
use etrace_spec::packet::{
    AddressInfo, Branch, BranchCount, BranchFmt, Context, IOptions, QualStatus, Start, Support,
    TeInst, Trap,
};
use etrace_spec::params::Params;

/// The full `address` field of format 3: the address shifted right by `iaddress_lsb_p`
/// (`sec:format30`).
fn full_address(params: &Params, iaddr: u64) -> u64 {
    low_bits(iaddr >> params.iaddress_lsb_p, params.address_field_width())
}

/// The `address` field of formats 0-2: differential (`sec:delta-address`) or full
/// (`sec:full-address`).
fn reported_address(params: &Params, options: &EncoderOptions, iaddr: u64, last: u64) -> u64 {
    if options.full_address {
        full_address(params, iaddr)
    } else {
        let lsb = params.iaddress_lsb_p;
        let diff = (iaddr >> lsb).wrapping_sub(last >> lsb);
        low_bits(diff, params.address_field_width())
    }
}

/// The format 3 `branch` field: 0 if the instruction is a taken branch (`sec:format30`).
fn branch_bit(slot: &Slot) -> bool {
    !(slot.is_branch() && slot.rec.itype == Itype::TakenBranch)
}

/// The `ioptions` bits of this encoder's run-time options.
pub fn ioptions(options: &EncoderOptions) -> IOptions {
    IOptions {
        implicit_return: options.implicit_return,
        implicit_exception: options.implicit_exception,
        full_address: options.full_address,
        jump_target_cache: false,
        branch_prediction: options.branch_prediction,
        sijump: options.sijump,
    }
}

/// Format 3 subformat 3 (`sec:format33`).
pub fn support(
    _params: &Params,
    options: &EncoderOptions,
    ienable: bool,
    qual_status: QualStatus,
) -> TeInst {
    TeInst::Support(Support {
        ienable,
        encoder_mode: 0,
        qual_status,
        ioptions: ioptions(options),
    })
}

/// Format 3 subformat 0 for the current instruction (`sec:format30`).
pub fn sync(params: &Params, curr: &Slot) -> TeInst {
    TeInst::Start(Start {
        branch: branch_bit(curr),
        privilege: curr.rec.privilege.code(),
        time: 0,
        context: curr.rec.context,
        address: full_address(params, curr.rec.iaddr),
    })
}

/// Format 3 subformat 1 (`sec:format31`, `sec:thaddr`): the trap of `trap`, reported at the
/// current instruction (handler, `thaddr = 1`) or at the EPC (`thaddr = 0`).
pub fn trap(
    params: &Params,
    options: &EncoderOptions,
    curr: &Slot,
    trap: &IngressRecord,
    thaddr: bool,
) -> TeInst {
    let interrupt = trap.itype == Itype::Interrupt;
    let address = if thaddr && options.implicit_exception {
        None
    } else {
        Some(full_address(params, curr.rec.iaddr))
    };
    TeInst::Trap(Trap {
        branch: branch_bit(curr),
        privilege: curr.rec.privilege.code(),
        time: 0,
        context: curr.rec.context,
        ecause: low_bits(trap.cause, params.ecause_width_p as u32),
        interrupt,
        thaddr,
        address,
        tval: if interrupt {
            0
        } else {
            low_bits(trap.tval, params.iaddress_width_p as u32)
        },
    })
}

/// Branches reported as a count of correct predictions (`sec:format0`, subformat 0).
#[derive(Debug, Clone, Copy)]
pub struct PredictedCount {
    /// Correctly predicted branches minus 31.
    pub branch_count: u32,
    /// The reported instruction is a branch that failed its prediction (`addr-fail`).
    pub failed_here: bool,
}

/// Format 0 subformat 0 with address (when counting predicted branches), else format 1
/// (with branches) or 2 (without) reporting `iaddr` (`sec:format0`, `sec:format1`,
/// `sec:format2`).
pub fn address(
    params: &Params,
    options: &EncoderOptions,
    iaddr: u64,
    last_address: u64,
    map: BranchMap,
    count: Option<PredictedCount>,
    flags: AddressInfo,
) -> TeInst {
    let info = AddressInfo {
        address: reported_address(params, options, iaddr, last_address),
        ..flags
    };
    if let Some(count) = count {
        TeInst::BranchCount(BranchCount {
            branch_count: count.branch_count,
            branch_fmt: if count.failed_here {
                BranchFmt::AddrFail
            } else {
                BranchFmt::Addr
            },
            address: Some(info),
        })
    } else if map.is_empty() {
        TeInst::AddrOnly(info)
    } else {
        TeInst::Branch(Branch {
            branches: map.branches as u8,
            branch_map: map.map,
            address: Some(info),
        })
    }
}

/// Format 1 without address: a full branch map (`sec:format1`, `branches = 0`).
pub fn branch_map_only(map: BranchMap) -> TeInst {
    TeInst::Branch(Branch {
        branches: 0,
        branch_map: map.map,
        address: None,
    })
}

/// Format 0 subformat 0 without address: the branch after `branch_count + 31` correct
/// predictions failed (`sec:format0`, `branch_fmt = no-addr`).
pub fn branch_count_only(branch_count: u32) -> TeInst {
    TeInst::BranchCount(BranchCount {
        branch_count,
        branch_fmt: BranchFmt::NoAddr,
        address: None,
    })
}

/// Format 3 subformat 2 (`sec:format32`).
pub fn context(_params: &Params, curr: &Slot) -> TeInst {
    TeInst::Context(Context {
        privilege: curr.rec.privilege.code(),
        time: 0,
        context: curr.rec.context,
    })
}
