//! The payload packer (`hdl/DESIGN.md`, "Packer -> queue"): one packet field bundle in, the
//! te_inst payload bits out, sign-extended to `P` bits (their length after sign-based
//! compression: [`PayloadLength`]; `payload.adoc`, introduction of "Instruction Trace Encoder Output Packets", and the
//! format tables `sec:format1`, `sec:format2`, `sec:format3`).
//!
//! Field layout for the hardware parameters (`iaddress_lsb_p` 1, `privilege_width_p` 2, no
//! `time` / `context`, `irdepth` `W` bits: `return_stack_size_p + 1`, or 0 without a return
//! stack), bit offsets from bit 0 of the payload, with `AW` = `A - 1` (width of the
//! `address` field) and `E` = `ecause_width_p`:
//!
//! | kind | fields (offset) | last field |
//! |---|---|---|
//! | 3.3 support | format 0, subformat 2, ienable 4, encoder_mode 5, qual_status 6, ioptions 8 | ioptions (14) |
//! | 3.0 sync | format 0, subformat 2, branch 4, privilege 5, address 7 | address |
//! | 3.1 trap | format, subformat, branch, privilege, ecause 7, interrupt 7+E, thaddr 8+E, \[address 9+E\], \[tval\] | tval / address / thaddr |
//! | 3.2 context | format, subformat, privilege 4 | privilege (6) |
//! | 2 | format 0, address 2, notify, updiscon, irreport, irdepth (W) | irdepth, or irreport if W = 0 |
//! | 1 with address | format 0, branches 2, branch_map 7 (L bits), address 7+L, notify, updiscon, irreport, irdepth (W) | irdepth, or irreport if W = 0 |
//! | 1 without address | format 0, branches (0) 2, branch_map 7 (31 bits) | branch_map (38) |
//! | 0 with address | format 0, branch_count 2, branch_fmt 34 (1x), address 36, notify, updiscon, irreport, irdepth (W) | irdepth, or irreport if W = 0 |
//! | 0 without address | format 0, branch_count 2, branch_fmt 34 (00) | branch_fmt (35, 0) |
//!
//! Every packet is its fields from bit 0, then ones from the bit after the last field up
//! to `P - 1` if the last field bit is 1 (sign extension to `P` bits). Field offsets are
//! constants per layout ([`layout`]: the kind, with format 1 with address split by
//! `branch_map` length and format 3.1 by whether address and tval are sent). The layout
//! comes one-hot from the packet register and every field bit as it is sent (the
//! relative bits of formats 1 / 2 are formed before the register), so every payload bit is
//! an OR of (layout bit AND register bit) terms, where the field bit of a layout that
//! sign-extends over that bit is its last field bit: no decoding and no priority chain
//! between the packet register and the queue.
//!
//! The payload is formed as 64-bit words ([`words`]): the fields that always end below
//! bit 64 are ORed into word 0 directly, each address / tval field (which can cross a word
//! boundary) is muxed by its layouts and placed by a [`Place`] block, the sign extension
//! comes from one [`Fill`] block, and [`JoinWords`] gives the `P`-bit payload. A field
//! whose last bit is also the sign (the 3.0 / 3.1 `address`) is placed with its unused top
//! bit set to the sign. Without a return stack (`W` = 0) the `updiscon` bit of formats
//! 0 / 1 / 2 starts their sign extension (`irreport` and the sign are the sent `updiscon`
//! again), so every placed field is `A` bits wide and every bit of every operand is read.
//! With one, `updiscon`, `irreport` and `irdepth` are the address field's placed tail
//! (`sec:irxx`: without a report all three are copies of the sent `updiscon`; with one,
//! `irreport` is its inverse and `irdepth` the depth) and the sign extension starts after
//! them.

use rust_hdl::prelude::*;

use crate::config::payload_width;
use crate::logic::return_stack::IRDEPTH_BITS;
use layout::bit;

mod extend;
mod fields;
pub mod layout;
mod length;
pub mod words;

pub use extend::ZeroExtend;
pub use fields::{PacketFields, PacketFieldsSource};
pub use layout::{MapLength, LAYOUTS, MAP_LENGTHS};
pub use length::{PayloadLength, SentBytes, SentLength};
pub use words::{Fill, JoinWords, Place, TAIL_BITS};

/// Offsets of the `address` / `tval` placements ([`Place`]) of the formats 0 / 1 / 2
/// layouts, in [`PayloadPacker`]'s order: format 2, format 1 with a `branch_map` of 31,
/// 15, 7, 3 and 1 bits, format 0 with address.
const ADDRESS_INFO_AT: [usize; 7] = [2, 7 + 31, 7 + 15, 7 + 7, 7 + 3, 7 + 1, 36];

/// The packer's LUT boundary (`hdl/DESIGN.md`, "LUT boundaries and `top_hit` alone",
/// [`crate::lut_boundary`]): the sign of the sign extension, its own tree of the layouts'
/// last field bits, so that no payload bit is built from another payload bit.
pub const LUT_BOUNDARIES: &[&str] = &["fill$sign"];

/// Packs one te_inst field bundle (`hdl/DESIGN.md`, "Packet field bundle") into payload
/// bits (`payload.adoc`), with the layout given one-hot ([`layout`]). Purely
/// combinational.
///
/// `A` = `iaddress_width_p`, `E` = `ecause_width_p`, `P` = [`payload_width`]`(A, E)`.
#[derive(LogicBlock)]
pub struct PayloadPacker<const A: usize, const E: usize, const P: usize> {
    /// The packet's fields.
    pub fields: PacketFields<A, E>,
    /// The packed fields from bit 0, sign-extended from the last field bit to bit `P - 1`.
    pub payload: Signal<Out, Bits<P>>,
    x_privilege: ZeroExtend<2, 64>,
    x_ecause: ZeroExtend<E, 64>,
    x_qual_status: ZeroExtend<2, 64>,
    x_ioptions: ZeroExtend<6, 64>,
    x_branches: ZeroExtend<5, 64>,
    x_branch_map: ZeroExtend<32, 64>,
    x_branch_count: ZeroExtend<32, 64>,
    x_branch_fail: ZeroExtend<1, 64>,
    x_branch: ZeroExtend<1, 64>,
    x_interrupt: ZeroExtend<1, 64>,
    x_thaddr: ZeroExtend<1, 64>,
    x_ienable: ZeroExtend<1, 64>,
    x_irdepth: ZeroExtend<IRDEPTH_BITS, TAIL_BITS>,
    // The 3.0 `address` at 7; the 3.1 `address` or `tval` after `thaddr`; the 3.1 `tval`
    // after `address`; the formats 0 / 1 / 2 address field with `notify` (`ADDRESS_INFO_AT`).
    p_sync: Place<A>,
    p_trap: Place<A>,
    p_tval: Place<A>,
    p_info0: Place<A>,
    p_info1: Place<A>,
    p_info2: Place<A>,
    p_info3: Place<A>,
    p_info4: Place<A>,
    p_info5: Place<A>,
    p_info6: Place<A>,
    fill: Fill<LAYOUTS>,
    joined: JoinWords<P>,
    // One 64-bit mask per group of layouts: all ones when one of them is selected.
    m_support: Signal<Local, Bits<64>>,
    m_sync: Signal<Local, Bits<64>>,
    m_trap: Signal<Local, Bits<64>>,
    m_context: Signal<Local, Bits<64>>,
    m_address: Signal<Local, Bits<64>>,
    m_branch: Signal<Local, Bits<64>>,
    m_branch_map: Signal<Local, Bits<64>>,
    m_count: Signal<Local, Bits<64>>,
    m_count_only: Signal<Local, Bits<64>>,
    // The `branch_map` bits the layout sends (format 1).
    map_keep: Signal<Local, Bits<32>>,
    // The address field (low A - 1 bits) with bit A - 1 clear, or set to the field's sign;
    // the formats 0 / 1 / 2 address field with `notify` as bit A - 1.
    addr_low: Signal<Local, Bits<A>>,
    addr_signed: Signal<Local, Bits<A>>,
    addr_info: Signal<Local, Bits<A>>,
    addr_msb: Signal<Local, Bit>,
    tval_msb: Signal<Local, Bit>,
    // Formats 0 / 1 / 2 with a return stack: `irreport` (in meaning), the placed tail
    // (`updiscon`, `irreport`, `irdepth` as sent) and the sign after it.
    ir_report: Signal<Local, Bit>,
    ir_tail: Signal<Local, Bits<TAIL_BITS>>,
    ir_sign: Signal<Local, Bit>,
    head: Signal<Local, Bits<64>>,
    // Test only (`TopOptions::inject_fault`): XORed into the branch map.
    branch_map_fault: Constant<Bits<32>>,
    ones: Constant<Bits<64>>,
    // Format 0 `branch_fmt` bit 1 (addr / addr-fail).
    count_fmt: Constant<Bits<64>>,
    addr_mask: Constant<Bits<A>>,
    addr_top: Constant<Bits<A>>,
    addr_sign: Constant<Bits<A>>,
    tval_top: Constant<Bits<A>>,
    map31: Constant<Bits<32>>,
    map15: Constant<Bits<32>>,
    map7: Constant<Bits<32>>,
    map3: Constant<Bits<32>>,
    map1: Constant<Bits<32>>,
    trap_int: Constant<Bits<8>>,
    trap_th: Constant<Bits<8>>,
    // A return stack is built (`W` > 0); the tail's `W + 2` bits; the top bit of `irdepth`.
    ir_on: Constant<Bit>,
    tail_mask: Constant<Bits<TAIL_BITS>>,
    irdepth_top: Constant<Bits<IRDEPTH_BITS>>,
}

impl<const A: usize, const E: usize, const P: usize> PayloadPacker<A, E, P> {
    /// A packer with its layout constants.
    ///
    /// # Panics
    ///
    /// If `P` is not [`payload_width`]`(A, E)`, `P` is above 248 ([`SentLength`]'s port
    /// is 5 bits) or `A` is not 2 to 64 (a configuration error, not a run-time input).
    pub fn new() -> Self {
        Self::with_fault(false)
    }

    /// As [`Self::new`]; with `fault`, bit 0 of every packed branch map is flipped (the
    /// deliberate fault that shows the co-simulation checker bites; test only).
    pub fn with_fault(fault: bool) -> Self {
        assert!((2..=64).contains(&A) && P == payload_width(A as u32, E as u32) as usize);
        assert!(P <= 248);
        let aw = A - 1;
        let trap = 9 + E;
        let info = |i: usize| Place::new(ADDRESS_INFO_AT[i], P);
        let mask = |n: usize| Constant::new(bits::<32>((1u64 << n) - 1));
        PayloadPacker {
            fields: Default::default(),
            payload: Signal::default(),
            x_privilege: ZeroExtend::default(),
            x_ecause: ZeroExtend::default(),
            x_qual_status: ZeroExtend::default(),
            x_ioptions: ZeroExtend::default(),
            x_branches: ZeroExtend::default(),
            x_branch_map: ZeroExtend::default(),
            x_branch_count: ZeroExtend::default(),
            x_branch_fail: ZeroExtend::default(),
            x_branch: ZeroExtend::default(),
            x_interrupt: ZeroExtend::default(),
            x_thaddr: ZeroExtend::default(),
            x_ienable: ZeroExtend::default(),
            x_irdepth: ZeroExtend::default(),
            p_sync: Place::new(7, P),
            p_trap: Place::new(trap, P),
            p_tval: Place::new(trap + aw, P),
            p_info0: info(0),
            p_info1: info(1),
            p_info2: info(2),
            p_info3: info(3),
            p_info4: info(4),
            p_info5: info(5),
            p_info6: info(6),
            fill: Fill::new(Self::fill_starts(0), P),
            joined: JoinWords::default(),
            m_support: Signal::default(),
            m_sync: Signal::default(),
            m_trap: Signal::default(),
            m_context: Signal::default(),
            m_address: Signal::default(),
            m_branch: Signal::default(),
            m_branch_map: Signal::default(),
            m_count: Signal::default(),
            m_count_only: Signal::default(),
            map_keep: Signal::default(),
            addr_low: Signal::default(),
            addr_signed: Signal::default(),
            addr_info: Signal::default(),
            addr_msb: Signal::default(),
            tval_msb: Signal::default(),
            ir_report: Signal::default(),
            ir_tail: Signal::default(),
            ir_sign: Signal::default(),
            head: Signal::default(),
            branch_map_fault: Constant::new(u64::from(fault).into()),
            ones: Constant::new(Bits::<64>::mask()),
            count_fmt: Constant::new(bits::<64>(1 << 35)),
            addr_mask: Constant::new(Bits::<A>::mask() >> 1u64),
            addr_top: Constant::new(bits::<A>(1) << (aw as u64 - 1)),
            addr_sign: Constant::new(bits::<A>(1) << aw as u64),
            tval_top: Constant::new(bits::<A>(1) << aw as u64),
            map31: mask(31),
            map15: mask(15),
            map7: mask(7),
            map3: mask(3),
            map1: mask(1),
            trap_int: Constant::new(bits::<8>(7 + E as u64)),
            trap_th: Constant::new(bits::<8>(8 + E as u64)),
            ir_on: Constant::new(false),
            tail_mask: Constant::new(0.into()),
            irdepth_top: Constant::new(0.into()),
        }
    }

    /// This packer with an `irdepth` field of `width` bits (`return_stack_size_p + 1`,
    /// `sec:irxx`; 0 without a return stack, the packer of [`Self::new`]).
    ///
    /// # Panics
    ///
    /// If `width` is above [`IRDEPTH_BITS`] or the longest format 1 does not fit `P`
    /// (a configuration error the generator refuses first).
    pub fn with_irdepth(mut self, width: usize) -> Self {
        // Format 1 with a 31-bit map: format, branches, branch_map, address, notify,
        // updiscon, irreport, irdepth.
        assert!(width <= IRDEPTH_BITS && 2 + 5 + 31 + A + 2 + width <= P);
        if width == 0 {
            return self;
        }
        let tail = width + 2;
        let info = |i: usize| Place::with_tail(ADDRESS_INFO_AT[i], P, tail);
        self.p_info0 = info(0);
        self.p_info1 = info(1);
        self.p_info2 = info(2);
        self.p_info3 = info(3);
        self.p_info4 = info(4);
        self.p_info5 = info(5);
        self.p_info6 = info(6);
        self.fill = Fill::new(Self::fill_starts(tail), P);
        self.ir_on = Constant::new(true);
        self.tail_mask = Constant::new(bits::<TAIL_BITS>((1 << tail) - 1));
        self.irdepth_top = Constant::new(bits::<IRDEPTH_BITS>(1) << (width as u64 - 1));
        self
    }

    /// The bit after each layout's last field ([`Fill`]), with `tail` bits placed after the
    /// address field of formats 0 / 1 / 2 (0: their sign extension starts at `updiscon`).
    fn fill_starts(tail: usize) -> [Option<usize>; LAYOUTS] {
        let aw = A - 1;
        let trap = 9 + E;
        let mut starts = [None; LAYOUTS];
        starts[bit::SUPPORT] = Some(14);
        starts[bit::SYNC] = Some(7 + A);
        starts[bit::TRAP] = Some(trap);
        starts[bit::TRAP_ADDRESS] = Some(trap + A);
        starts[bit::TRAP_ADDRESS_TVAL] = Some(trap + aw + A);
        starts[bit::TRAP_TVAL] = Some(trap + A);
        starts[bit::CONTEXT] = Some(6);
        starts[bit::ADDRESS] = Some(ADDRESS_INFO_AT[0] + A + tail);
        for (i, b) in (bit::BRANCH31..=bit::BRANCH1).enumerate() {
            starts[b] = Some(ADDRESS_INFO_AT[1 + i] + A + tail);
        }
        starts[bit::BRANCH_MAP] = Some(38);
        starts[bit::BRANCH_COUNT] = Some(ADDRESS_INFO_AT[6] + A + tail);
        starts
    }
}

impl<const A: usize, const E: usize, const P: usize> Default for PayloadPacker<A, E, P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const A: usize, const E: usize, const P: usize> Logic for PayloadPacker<A, E, P> {
    #[hdl_gen]
    fn update(&mut self) {
        // The format 1 `branch_map` bits sent (the layouts exclude each other).
        self.map_keep.next = 0.into();
        if self.fields.layout.val().get_bit(8) || self.fields.layout.val().get_bit(13) {
            self.map_keep.next = self.map31.val();
        }
        if self.fields.layout.val().get_bit(9) {
            self.map_keep.next = self.map15.val();
        }
        if self.fields.layout.val().get_bit(10) {
            self.map_keep.next = self.map7.val();
        }
        if self.fields.layout.val().get_bit(11) {
            self.map_keep.next = self.map3.val();
        }
        if self.fields.layout.val().get_bit(12) {
            self.map_keep.next = self.map1.val();
        }

        // The fields that end below bit 64, zero-extended to 64 bits, placed below by
        // constant shifts.
        self.x_privilege.narrow.next = self.fields.privilege.val();
        self.x_ecause.narrow.next = self.fields.ecause.val();
        self.x_qual_status.narrow.next = self.fields.qual_status.val();
        self.x_ioptions.narrow.next = self.fields.ioptions.val();
        self.x_branches.narrow.next = self.fields.branches.val();
        self.x_branch_map.narrow.next =
            (self.fields.branch_map.val() ^ self.branch_map_fault.val()) & self.map_keep.val();
        self.x_branch_count.narrow.next = self.fields.branch_count.val();
        self.x_branch_fail.narrow.next = self.fields.branch_fail.val().into();
        self.x_branch.narrow.next = self.fields.branch.val().into();
        self.x_interrupt.narrow.next = self.fields.is_interrupt.val().into();
        self.x_thaddr.narrow.next = self.fields.thaddr.val().into();
        self.x_ienable.narrow.next = self.fields.ienable.val().into();
        self.x_irdepth.narrow.next = self.fields.irdepth.val();

        // The masks of the layout groups (`layout::bit` order).
        self.m_support.next = 0.into();
        if self.fields.layout.val().get_bit(0) {
            self.m_support.next = self.ones.val();
        }
        self.m_sync.next = 0.into();
        if self.fields.layout.val().get_bit(1) {
            self.m_sync.next = self.ones.val();
        }
        self.m_trap.next = 0.into();
        if self.fields.layout.val().get_bit(2)
            || self.fields.layout.val().get_bit(3)
            || self.fields.layout.val().get_bit(4)
            || self.fields.layout.val().get_bit(5)
        {
            self.m_trap.next = self.ones.val();
        }
        self.m_context.next = 0.into();
        if self.fields.layout.val().get_bit(6) {
            self.m_context.next = self.ones.val();
        }
        self.m_address.next = 0.into();
        if self.fields.layout.val().get_bit(7) {
            self.m_address.next = self.ones.val();
        }
        self.m_branch.next = 0.into();
        if self.fields.layout.val().get_bit(8)
            || self.fields.layout.val().get_bit(9)
            || self.fields.layout.val().get_bit(10)
            || self.fields.layout.val().get_bit(11)
            || self.fields.layout.val().get_bit(12)
        {
            self.m_branch.next = self.ones.val();
        }
        self.m_branch_map.next = 0.into();
        if self.fields.layout.val().get_bit(13) {
            self.m_branch_map.next = self.ones.val();
        }
        self.m_count.next = 0.into();
        if self.fields.layout.val().get_bit(14) {
            self.m_count.next = self.ones.val();
        }
        self.m_count_only.next = 0.into();
        if self.fields.layout.val().get_bit(15) {
            self.m_count_only.next = self.ones.val();
        }
        // Word 0 up to the fields that can cross it.
        self.head.next = (self.m_support.val()
            & (bits::<64>(15)
                | (self.x_ienable.wide.val() << 4)
                | (self.x_qual_status.wide.val() << 6)
                | (self.x_ioptions.wide.val() << 8)))
            | (self.m_sync.val()
                & (bits::<64>(3)
                    | (self.x_branch.wide.val() << 4)
                    | (self.x_privilege.wide.val() << 5)))
            | (self.m_trap.val()
                & (bits::<64>(7)
                    | (self.x_branch.wide.val() << 4)
                    | (self.x_privilege.wide.val() << 5)
                    | (self.x_ecause.wide.val() << 7)
                    | (self.x_interrupt.wide.val() << self.trap_int.val())
                    | (self.x_thaddr.wide.val() << self.trap_th.val())))
            | (self.m_context.val() & (bits::<64>(11) | (self.x_privilege.wide.val() << 4)))
            | (self.m_address.val() & bits::<64>(2))
            | (self.m_branch.val() & (self.x_branches.wide.val() << 2))
            | ((self.m_branch.val() | self.m_branch_map.val())
                & (bits::<64>(1) | (self.x_branch_map.wide.val() << 7)))
            | (self.m_count.val() & ((self.x_branch_fail.wide.val() << 34) | self.count_fmt.val()))
            | ((self.m_count.val() | self.m_count_only.val())
                & (self.x_branch_count.wide.val() << 2));

        // The address / tval fields, muxed by layout into their placements.
        self.addr_msb.next = (self.fields.address.val() & self.addr_top.val()).any();
        self.tval_msb.next = (self.fields.tval.val() & self.tval_top.val()).any();
        self.addr_low.next = self.fields.address.val() & self.addr_mask.val();
        self.addr_signed.next = self.addr_low.val();
        if self.addr_msb.val() {
            self.addr_signed.next = self.addr_low.val() | self.addr_sign.val();
        }
        self.addr_info.next = self.fields.address_f12.val() & self.addr_mask.val();
        if self.fields.notify_bit.val() {
            self.addr_info.next =
                (self.fields.address_f12.val() & self.addr_mask.val()) | self.addr_sign.val();
        }
        // With a return stack, the formats 0 / 1 / 2 tail after the address field
        // (`sec:irxx`): `updiscon` as sent, then `irreport` as sent (`updiscon` again, or its
        // inverse when reporting) and `irdepth` (copies of `updiscon`, or the depth).
        self.ir_report.next = self.fields.irreport.val() & self.ir_on.val();
        self.ir_tail.next = 0.into();
        if self.fields.updiscon_bit.val() {
            self.ir_tail.next = self.tail_mask.val();
        }
        self.ir_sign.next = self.fields.updiscon_bit.val();
        if self.ir_report.val() {
            self.ir_tail.next =
                ((self.x_irdepth.wide.val() << 2) & self.tail_mask.val()) | bits::<TAIL_BITS>(2);
            if self.fields.updiscon_bit.val() {
                self.ir_tail.next = ((self.x_irdepth.wide.val() << 2) & self.tail_mask.val())
                    | bits::<TAIL_BITS>(1);
            }
            self.ir_sign.next = (self.fields.irdepth.val() & self.irdepth_top.val()).any();
        }
        self.p_sync.tail.next = 0.into();
        self.p_trap.tail.next = 0.into();
        self.p_tval.tail.next = 0.into();
        self.p_sync.value.next = 0.into();
        if self.fields.layout.val().get_bit(1) {
            self.p_sync.value.next = self.addr_signed.val();
        }
        self.p_trap.value.next = 0.into();
        if self.fields.layout.val().get_bit(3) {
            self.p_trap.value.next = self.addr_signed.val();
        }
        if self.fields.layout.val().get_bit(4) {
            self.p_trap.value.next = self.addr_low.val();
        }
        if self.fields.layout.val().get_bit(5) {
            self.p_trap.value.next = self.fields.tval.val();
        }
        self.p_tval.value.next = 0.into();
        if self.fields.layout.val().get_bit(4) {
            self.p_tval.value.next = self.fields.tval.val();
        }
        self.p_info0.value.next = 0.into();
        self.p_info0.tail.next = 0.into();
        if self.fields.layout.val().get_bit(7) {
            self.p_info0.value.next = self.addr_info.val();
            self.p_info0.tail.next = self.ir_tail.val();
        }
        self.p_info1.value.next = 0.into();
        self.p_info1.tail.next = 0.into();
        if self.fields.layout.val().get_bit(8) {
            self.p_info1.value.next = self.addr_info.val();
            self.p_info1.tail.next = self.ir_tail.val();
        }
        self.p_info2.value.next = 0.into();
        self.p_info2.tail.next = 0.into();
        if self.fields.layout.val().get_bit(9) {
            self.p_info2.value.next = self.addr_info.val();
            self.p_info2.tail.next = self.ir_tail.val();
        }
        self.p_info3.value.next = 0.into();
        self.p_info3.tail.next = 0.into();
        if self.fields.layout.val().get_bit(10) {
            self.p_info3.value.next = self.addr_info.val();
            self.p_info3.tail.next = self.ir_tail.val();
        }
        self.p_info4.value.next = 0.into();
        self.p_info4.tail.next = 0.into();
        if self.fields.layout.val().get_bit(11) {
            self.p_info4.value.next = self.addr_info.val();
            self.p_info4.tail.next = self.ir_tail.val();
        }
        self.p_info5.value.next = 0.into();
        self.p_info5.tail.next = 0.into();
        if self.fields.layout.val().get_bit(12) {
            self.p_info5.value.next = self.addr_info.val();
            self.p_info5.tail.next = self.ir_tail.val();
        }
        self.p_info6.value.next = 0.into();
        self.p_info6.tail.next = 0.into();
        if self.fields.layout.val().get_bit(14) {
            self.p_info6.value.next = self.addr_info.val();
            self.p_info6.tail.next = self.ir_tail.val();
        }

        // The sign extension: the selected layout's last field bit.
        self.fill.layout.next = self.fields.layout.val();
        self.fill.sign.next = (self.fields.layout.val().get_bit(0)
            && self.fields.ioptions.val().get_bit(5))
            || ((self.fields.layout.val().get_bit(1) || self.fields.layout.val().get_bit(3))
                && self.addr_msb.val())
            || (self.fields.layout.val().get_bit(2) && self.fields.thaddr.val())
            || ((self.fields.layout.val().get_bit(4) || self.fields.layout.val().get_bit(5))
                && self.tval_msb.val())
            || (self.fields.layout.val().get_bit(6) && self.fields.privilege.val().get_bit(1))
            || (self.fields.layout.val().get_bit(13) && self.fields.branch_map.val().get_bit(30))
            || ((self.fields.layout.val().get_bit(7)
                || self.fields.layout.val().get_bit(8)
                || self.fields.layout.val().get_bit(9)
                || self.fields.layout.val().get_bit(10)
                || self.fields.layout.val().get_bit(11)
                || self.fields.layout.val().get_bit(12)
                || self.fields.layout.val().get_bit(14))
                && self.ir_sign.val());

        self.joined.w0.next = self.head.val()
            | self.p_sync.w0.val()
            | self.p_trap.w0.val()
            | self.p_tval.w0.val()
            | self.p_info0.w0.val()
            | self.p_info1.w0.val()
            | self.p_info2.w0.val()
            | self.p_info3.w0.val()
            | self.p_info4.w0.val()
            | self.p_info5.w0.val()
            | self.p_info6.w0.val()
            | self.fill.w0.val();
        self.joined.w1.next = self.p_sync.w1.val()
            | self.p_trap.w1.val()
            | self.p_tval.w1.val()
            | self.p_info0.w1.val()
            | self.p_info1.w1.val()
            | self.p_info2.w1.val()
            | self.p_info3.w1.val()
            | self.p_info4.w1.val()
            | self.p_info5.w1.val()
            | self.p_info6.w1.val()
            | self.fill.w1.val();
        self.joined.w2.next = self.p_sync.w2.val()
            | self.p_trap.w2.val()
            | self.p_tval.w2.val()
            | self.p_info0.w2.val()
            | self.p_info1.w2.val()
            | self.p_info2.w2.val()
            | self.p_info3.w2.val()
            | self.p_info4.w2.val()
            | self.p_info5.w2.val()
            | self.p_info6.w2.val()
            | self.fill.w2.val();
        self.joined.w3.next = self.p_sync.w3.val()
            | self.p_trap.w3.val()
            | self.p_tval.w3.val()
            | self.p_info0.w3.val()
            | self.p_info1.w3.val()
            | self.p_info2.w3.val()
            | self.p_info3.w3.val()
            | self.p_info4.w3.val()
            | self.p_info5.w3.val()
            | self.p_info6.w3.val()
            | self.fill.w3.val();
        self.payload.next = self.joined.payload.val();
    }
}
