//! Payload layouts: which fields a te_inst carries and where (`payload.adoc`, format
//! tables `sec:format1`, `sec:format2`, `sec:format3`), one-hot, so the packer's field
//! placement is one AND-OR level per source and needs no decoding of the kind
//! (`hdl/DESIGN.md`, "Packer -> queue"). The variants of a kind come one-hot too, from
//! the packet register ([`crate::logic::PacketLogic`] decodes them before it with
//! [`MapLength`] and [`TrapVariant`]), so [`super::PayloadPacker`] forms each layout bit
//! from the kind and one variant bit: one LUT level.

use rust_hdl::prelude::*;

/// Number of layouts (width of the one-hot layout vector).
pub const LAYOUTS: usize = 14;

/// Bit of the one-hot layout vector per payload layout.
pub mod bit {
    /// Format 3.3 support.
    pub const SUPPORT: usize = 0;
    /// Format 3.0 sync.
    pub const SYNC: usize = 1;
    /// Format 3.1 up to `thaddr` (no address, an interrupt: no tval).
    pub const TRAP: usize = 2;
    /// Format 3.1 with `address`, an interrupt (no tval).
    pub const TRAP_ADDRESS: usize = 3;
    /// Format 3.1 with `address` and `tval`.
    pub const TRAP_ADDRESS_TVAL: usize = 4;
    /// Format 3.1 without `address`, with `tval`.
    pub const TRAP_TVAL: usize = 5;
    /// Format 3.2 context.
    pub const CONTEXT: usize = 6;
    /// Format 2.
    pub const ADDRESS: usize = 7;
    /// Format 1 with address, `branch_map` of 31 bits (`branches` 0 or 16-31).
    pub const BRANCH31: usize = 8;
    /// Format 1 with address, `branch_map` of 15 bits (`branches` 8-15).
    pub const BRANCH15: usize = 9;
    /// Format 1 with address, `branch_map` of 7 bits (`branches` 4-7).
    pub const BRANCH7: usize = 10;
    /// Format 1 with address, `branch_map` of 3 bits (`branches` 2-3).
    pub const BRANCH3: usize = 11;
    /// Format 1 with address, `branch_map` of 1 bit (`branches` 1).
    pub const BRANCH1: usize = 12;
    /// Format 1 without address (31-bit `branch_map`).
    pub const BRANCH_MAP: usize = 13;
}

/// Width of the one-hot format 1 `branch_map` length ([`MapLength`]).
pub const MAP_LENGTHS: usize = 5;
/// Width of the one-hot format 3.1 variant ([`TrapVariant`]).
pub const TRAP_VARIANTS: usize = 4;

/// Bit of [`MapLength`]'s vector for `branches` (`sec:format1`: `branch_map` of 31, 15, 7,
/// 3 or 1 bits; `branches` 0 is read as 31): the layout bit less [`bit::BRANCH31`].
pub fn map_length_bit(branches: u64) -> usize {
    match branches {
        0 | 16.. => 0,
        8..=15 => 1,
        4..=7 => 2,
        2..=3 => 3,
        _ => 4,
    }
}

/// Bit of [`TrapVariant`]'s vector (`sec:format31`): the layout bit less [`bit::TRAP`].
pub fn trap_variant_bit(with_address: bool, interrupt: bool) -> usize {
    match (with_address, interrupt) {
        (false, true) => 0,
        (true, true) => 1,
        (true, false) => 2,
        (false, false) => 3,
    }
}

/// The format 1 `branch_map` length as a one-hot vector ([`map_length_bit`]) from
/// `branches` (`sec:format1`). Purely combinational.
#[derive(LogicBlock, Default)]
pub struct MapLength {
    /// Format 1 `branches` (0-31; 0 is read as 31).
    pub branches: Signal<In, Bits<5>>,
    /// Bit 0: 31 bits, 1: 15, 2: 7, 3: 3, 4: 1.
    pub length: Signal<Out, Bits<MAP_LENGTHS>>,
}

impl Logic for MapLength {
    #[hdl_gen]
    fn update(&mut self) {
        if self.branches.val().get_bit(4) | !self.branches.val().any() {
            self.length.next = 1.into();
        } else if self.branches.val().get_bit(3) {
            self.length.next = 2.into();
        } else if self.branches.val().get_bit(2) {
            self.length.next = 4.into();
        } else if self.branches.val().get_bit(1) {
            self.length.next = 8.into();
        } else {
            self.length.next = 16.into();
        }
    }
}

/// The format 3.1 variant as a one-hot vector ([`trap_variant_bit`]): whether `address`
/// and `tval` are sent (`sec:format31`). Purely combinational.
#[derive(LogicBlock, Default)]
pub struct TrapVariant {
    /// The `address` field is sent.
    pub with_address: Signal<In, Bit>,
    /// `interrupt` (no `tval`).
    pub is_interrupt: Signal<In, Bit>,
    /// Bit 0: neither, 1: address, 2: address and tval, 3: tval.
    pub variant: Signal<Out, Bits<TRAP_VARIANTS>>,
}

impl Logic for TrapVariant {
    #[hdl_gen]
    fn update(&mut self) {
        if self.with_address.val() {
            if self.is_interrupt.val() {
                self.variant.next = 2.into();
            } else {
                self.variant.next = 4.into();
            }
        } else if self.is_interrupt.val() {
            self.variant.next = 1.into();
        } else {
            self.variant.next = 8.into();
        }
    }
}
