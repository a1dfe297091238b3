//! The kinds of te_inst packet (`payload.adoc`: formats 3.0-3.3, 2, and 1 and 0 with and
//! without address): the payload layouts of the packet register (`packer::layout::kind`) group
//! into them.

use rust_hdl::prelude::*;

/// Which te_inst packet a field bundle describes (`payload.adoc`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum PacketKind {
    /// Format 3 subformat 3, support (`sec:format33`).
    Support,
    /// Format 3 subformat 0, synchronisation (`sec:format30`).
    Sync,
    /// Format 3 subformat 1, exception / interrupt (`sec:format31`).
    Trap,
    /// Format 3 subformat 2, context (`sec:format32`).
    Context,
    /// Format 2, address only (`sec:format2`).
    Address,
    /// Format 1 with address (`sec:format1`).
    BranchAddress,
    /// Format 1 without address: a full branch map (`sec:format1`).
    BranchMap,
    /// Format 0 subformat 0 with address: a count of correctly predicted branches
    /// (`sec:format0`).
    BranchCount,
    /// Format 0 subformat 0 without address: the count before a failed prediction
    /// (`sec:format0`).
    BranchCountOnly,
}
