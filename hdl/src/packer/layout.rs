//! Payload layouts: which fields a te_inst carries and where (`payload.adoc`, format
//! tables `sec:format0`, `sec:format1`, `sec:format2`, `sec:format3`), one-hot, so the packer's field
//! placement is one AND-OR level per source and needs no decoding (`hdl/DESIGN.md`,
//! "Packer -> queue"). The packet logic's decision forms the layout
//! ([`crate::logic::decision::Decision`], with [`MapLength`] for the format 1 variants)
//! and its packet register holds it.

use rust_hdl::prelude::*;

use crate::packet_kind::PacketKind;

/// Number of layouts (width of the one-hot layout vector).
pub const LAYOUTS: usize = 16;

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
    /// Format 0 subformat 0 with address (`branch_fmt` addr or addr-fail).
    pub const BRANCH_COUNT: usize = 14;
    /// Format 0 subformat 0 without address (`branch_fmt` no-addr).
    pub const BRANCH_COUNT_ONLY: usize = 15;
}

/// The one-hot layout vector of layout bit `bit` ([`bit`]) as a number (for a
/// [`crate::param::LocalParam`] of [`LAYOUTS`] bits).
pub const fn one_hot(bit: usize) -> u64 {
    1 << bit
}

/// The te_inst kind of layout bit `bit` ([`bit`]); `None` past [`LAYOUTS`].
pub fn kind(bit: usize) -> Option<PacketKind> {
    Some(match bit {
        bit::SUPPORT => PacketKind::Support,
        bit::SYNC => PacketKind::Sync,
        bit::TRAP..=bit::TRAP_TVAL => PacketKind::Trap,
        bit::CONTEXT => PacketKind::Context,
        bit::ADDRESS => PacketKind::Address,
        bit::BRANCH31..=bit::BRANCH1 => PacketKind::BranchAddress,
        bit::BRANCH_MAP => PacketKind::BranchMap,
        bit::BRANCH_COUNT => PacketKind::BranchCount,
        bit::BRANCH_COUNT_ONLY => PacketKind::BranchCountOnly,
        _ => return None,
    })
}

/// Width of the one-hot format 1 `branch_map` length ([`MapLength`]).
pub const MAP_LENGTHS: usize = 5;

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

/// Format 3.1 layout (`sec:format31`) of a trap with or without its `address` and an
/// interrupt or not (no `tval`): the layout bit less [`bit::TRAP`].
pub fn trap_variant_bit(with_address: bool, interrupt: bool) -> usize {
    match (with_address, interrupt) {
        (false, true) => 0,
        (true, true) => 1,
        (true, false) => 2,
        (false, false) => 3,
    }
}

/// The format 1 `branch_map` length ([`map_length_bit`], `sec:format1`) of `held + push`
/// branches as a one-hot vector, without an adder (the count and the push are this cycle's
/// registers and chart key). Purely combinational.
#[derive(LogicBlock, Default)]
pub struct MapLength {
    /// Branches held in the map (0-31).
    pub held: Signal<In, Bits<5>>,
    /// One more branch enters the map.
    pub push: Signal<In, Bit>,
    /// Bit 0: 31 bits (`branches` 0 or 16-31), 1: 15, 2: 7, 3: 3, 4: 1.
    pub length: Signal<Out, Bits<MAP_LENGTHS>>,
    // `held` is 0, 1, 3, 7 or 15: a push moves it to the next length.
    is_0: Signal<Local, Bit>,
    is_1: Signal<Local, Bit>,
    step_1: Signal<Local, Bit>,
    step_3: Signal<Local, Bit>,
    step_7: Signal<Local, Bit>,
    step_15: Signal<Local, Bit>,
    below_8: Signal<Local, Bit>,
    below_4: Signal<Local, Bit>,
    l31: Signal<Local, Bits<MAP_LENGTHS>>,
    l15: Signal<Local, Bits<MAP_LENGTHS>>,
    l7: Signal<Local, Bits<MAP_LENGTHS>>,
    l3: Signal<Local, Bits<MAP_LENGTHS>>,
    l1: Signal<Local, Bits<MAP_LENGTHS>>,
}

impl Logic for MapLength {
    #[hdl_gen]
    fn update(&mut self) {
        self.is_0.next = self.held.val() == 0;
        self.is_1.next = self.held.val() == 1;
        self.step_1.next = self.is_1.val() && self.push.val();
        self.step_3.next = (self.held.val() == 3) && self.push.val();
        self.step_7.next = (self.held.val() == 7) && self.push.val();
        self.step_15.next = (self.held.val() == 15) && self.push.val();
        self.below_8.next = !(self.held.val().get_bit(4) || self.held.val().get_bit(3));
        self.below_4.next = self.below_8.val() && !self.held.val().get_bit(2);
        // One vector per length (the cases exclude each other: no priority between them).
        self.l31.next = 0.into();
        if self.held.val().get_bit(4) || self.step_15.val() || (self.is_0.val() && !self.push.val())
        {
            self.l31.next = 1.into();
        }
        self.l15.next = 0.into();
        if (!self.held.val().get_bit(4) && self.held.val().get_bit(3) && !self.step_15.val())
            || self.step_7.val()
        {
            self.l15.next = 2.into();
        }
        self.l7.next = 0.into();
        if (self.below_8.val() && self.held.val().get_bit(2) && !self.step_7.val())
            || self.step_3.val()
        {
            self.l7.next = 4.into();
        }
        self.l3.next = 0.into();
        if (self.below_4.val() && self.held.val().get_bit(1) && !self.step_3.val())
            || self.step_1.val()
        {
            self.l3.next = 8.into();
        }
        self.l1.next = 0.into();
        if (self.is_1.val() && !self.push.val()) || (self.is_0.val() && self.push.val()) {
            self.l1.next = 16.into();
        }
        self.length.next =
            self.l31.val() | self.l15.val() | self.l7.val() | self.l3.val() | self.l1.val();
    }
}
