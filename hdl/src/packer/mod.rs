//! The payload packer (`hdl/DESIGN.md`, "Packer -> queue"): one packet field bundle in, the
//! te_inst payload bits out, sign-extended to `P` bits (their length after sign-based
//! compression: [`PayloadLength`]; `payload.adoc`, introduction of "Instruction Trace Encoder Output Packets", and the
//! format tables `sec:format1`, `sec:format2`, `sec:format3`).
//!
//! Field layout for the hardware parameters (`iaddress_lsb_p` 1, `privilege_width_p` 2, no
//! `time` / `context`, `irdepth` `W` bits: `return_stack_size_p + 1`, or 0 without a return
//! stack), bit offsets from bit 0 of the payload, with
//! `AW` = `A - 1` (width of the `address` field) and `E` = `ecause_width_p`:
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
//! between the packet register and the queue. Narrow fields are widened by [`ZeroExtend`]
//! blocks and placed by constant shifts, so every operator of the Verilog has operands of
//! equal width.

use rust_hdl::prelude::*;

use crate::config::payload_width;
use crate::logic::return_stack::IRDEPTH_BITS;

mod extend;
mod fields;
pub mod layout;
mod length;

pub use extend::ZeroExtend;
pub use fields::{PacketFields, PacketFieldsSource};
pub use layout::{MapLength, LAYOUTS, MAP_LENGTHS};
pub use length::{PayloadLength, SentBytes, SentLength};

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
    x_address: ZeroExtend<A, P>,
    x_address_f12: ZeroExtend<A, P>,
    x_tval: ZeroExtend<A, P>,
    x_privilege: ZeroExtend<2, P>,
    x_ecause: ZeroExtend<E, P>,
    x_qual_status: ZeroExtend<2, P>,
    x_ioptions: ZeroExtend<6, P>,
    x_branches: ZeroExtend<5, P>,
    x_branch_map: ZeroExtend<32, P>,
    x_branch_count: ZeroExtend<32, P>,
    x_branch_fail: ZeroExtend<1, P>,
    x_branch: ZeroExtend<1, P>,
    x_interrupt: ZeroExtend<1, P>,
    x_thaddr: ZeroExtend<1, P>,
    x_ienable: ZeroExtend<1, P>,
    x_irdepth: ZeroExtend<IRDEPTH_BITS, P>,
    // One mask per layout: all ones when the layout is selected.
    m_support: Signal<Local, Bits<P>>,
    m_sync: Signal<Local, Bits<P>>,
    m_trap: Signal<Local, Bits<P>>,
    m_trap_address: Signal<Local, Bits<P>>,
    m_trap_address_tval: Signal<Local, Bits<P>>,
    m_trap_tval: Signal<Local, Bits<P>>,
    m_context: Signal<Local, Bits<P>>,
    m_address: Signal<Local, Bits<P>>,
    m_branch31: Signal<Local, Bits<P>>,
    m_branch15: Signal<Local, Bits<P>>,
    m_branch7: Signal<Local, Bits<P>>,
    m_branch3: Signal<Local, Bits<P>>,
    m_branch1: Signal<Local, Bits<P>>,
    m_branch_map: Signal<Local, Bits<P>>,
    m_count: Signal<Local, Bits<P>>,
    m_count_only: Signal<Local, Bits<P>>,
    f0_head: Signal<Local, Bits<P>>,
    // The last field bit of each layout as a mask (all ones when the bit is 1).
    s_ioptions: Signal<Local, Bits<P>>,
    s_address: Signal<Local, Bits<P>>,
    s_thaddr: Signal<Local, Bits<P>>,
    s_tval: Signal<Local, Bits<P>>,
    s_privilege: Signal<Local, Bits<P>>,
    s_irreport: Signal<Local, Bits<P>>,
    s_irdepth: Signal<Local, Bits<P>>,
    ir_tail: Signal<Local, Bits<P>>,
    s_branch_map: Signal<Local, Bits<P>>,
    addr_f: Signal<Local, Bits<P>>,
    addr_f12: Signal<Local, Bits<P>>,
    f1_head: Signal<Local, Bits<P>>,
    addr_info: Signal<Local, Bits<P>>,
    notify_at: Signal<Local, Bits<P>>,
    updiscon_at: Signal<Local, Bits<P>>,
    trap_head: Signal<Local, Bits<P>>,
    addr_msb: Signal<Local, Bit>,
    tval_msb: Signal<Local, Bit>,
    // Test only (`TopOptions::inject_fault`): XORed into the branch map.
    branch_map_fault: Constant<Bits<32>>,
    ones: Constant<Bits<P>>,
    // Format 0 `branch_fmt` bit 1 (addr / addr-fail).
    count_fmt: Constant<Bits<P>>,
    addr_mask: Constant<Bits<P>>,
    notify_place: Constant<Bits<P>>,
    updiscon_place: Constant<Bits<P>>,
    map31: Constant<Bits<P>>,
    map15: Constant<Bits<P>>,
    map7: Constant<Bits<P>>,
    map3: Constant<Bits<P>>,
    map1: Constant<Bits<P>>,
    addr_top: Constant<Bits<A>>,
    tval_top: Constant<Bits<A>>,
    at_aw: Constant<Bits<8>>,
    at_a1: Constant<Bits<8>>,
    // `irdepth` (bit A + 2 of the address information) and the sign after it.
    at_irdepth: Constant<Bits<8>>,
    at_ir_sign: Constant<Bits<8>>,
    irdepth_top: Constant<Bits<IRDEPTH_BITS>>,
    trap_int: Constant<Bits<8>>,
    trap_th: Constant<Bits<8>>,
    trap_addr: Constant<Bits<8>>,
    trap_tval: Constant<Bits<8>>,
    trap_a_end: Constant<Bits<8>>,
    trap_at_end: Constant<Bits<8>>,
}

impl<const A: usize, const E: usize, const P: usize> PayloadPacker<A, E, P> {
    /// A packer with its layout constants.
    ///
    /// # Panics
    ///
    /// If `P` is not [`payload_width`]`(A, E)`, `P` is above 248 ([`SentLength`]'s port
    /// is 5 bits) or `A` is below 2 (a configuration error, not a run-time input).
    pub fn new() -> Self {
        Self::with_fault(false)
    }

    /// As [`Self::new`]; with `fault`, bit 0 of every packed branch map is flipped (the
    /// deliberate fault that shows the co-simulation checker bites; test only).
    pub fn with_fault(fault: bool) -> Self {
        assert!(A >= 2 && P == payload_width(A as u32, E as u32) as usize && P <= 248);
        let shift = |n: usize| Constant::new(bits::<8>(n as u64));
        let low = |n: usize| Bits::<P>::mask() >> (P - n) as u64;
        let aw = A - 1;
        let trap_addr = 9 + E;
        PayloadPacker {
            fields: Default::default(),
            payload: Signal::default(),
            x_address: ZeroExtend::default(),
            x_address_f12: ZeroExtend::default(),
            x_tval: ZeroExtend::default(),
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
            m_support: Signal::default(),
            m_sync: Signal::default(),
            m_trap: Signal::default(),
            m_trap_address: Signal::default(),
            m_trap_address_tval: Signal::default(),
            m_trap_tval: Signal::default(),
            m_context: Signal::default(),
            m_address: Signal::default(),
            m_branch31: Signal::default(),
            m_branch15: Signal::default(),
            m_branch7: Signal::default(),
            m_branch3: Signal::default(),
            m_branch1: Signal::default(),
            m_branch_map: Signal::default(),
            m_count: Signal::default(),
            m_count_only: Signal::default(),
            f0_head: Signal::default(),
            s_ioptions: Signal::default(),
            s_address: Signal::default(),
            s_thaddr: Signal::default(),
            s_tval: Signal::default(),
            s_privilege: Signal::default(),
            s_irreport: Signal::default(),
            s_irdepth: Signal::default(),
            ir_tail: Signal::default(),
            s_branch_map: Signal::default(),
            addr_f: Signal::default(),
            addr_f12: Signal::default(),
            f1_head: Signal::default(),
            addr_info: Signal::default(),
            notify_at: Signal::default(),
            updiscon_at: Signal::default(),
            trap_head: Signal::default(),
            addr_msb: Signal::default(),
            tval_msb: Signal::default(),
            branch_map_fault: Constant::new(u64::from(fault).into()),
            ones: Constant::new(Bits::<P>::mask()),
            count_fmt: Constant::new(bits::<P>(1) << 35u64),
            addr_mask: Constant::new(low(aw)),
            notify_place: Constant::new(bits::<P>(1) << aw as u64),
            updiscon_place: Constant::new(bits::<P>(1) << A as u64),
            map31: Constant::new(low(31)),
            map15: Constant::new(low(15)),
            map7: Constant::new(low(7)),
            map3: Constant::new(low(3)),
            map1: Constant::new(low(1)),
            addr_top: Constant::new(bits::<A>(1) << (aw as u64 - 1)),
            tval_top: Constant::new(bits::<A>(1) << (aw as u64)),
            at_aw: shift(aw),
            at_a1: shift(A + 1),
            at_irdepth: shift(A + 2),
            at_ir_sign: shift(A + 2),
            irdepth_top: Constant::new(0.into()),
            trap_int: shift(7 + E),
            trap_th: shift(8 + E),
            trap_addr: shift(trap_addr),
            trap_tval: shift(trap_addr + aw),
            trap_a_end: shift(trap_addr + A),
            trap_at_end: shift(trap_addr + aw + A),
        }
    }
}

impl<const A: usize, const E: usize, const P: usize> PayloadPacker<A, E, P> {
    /// This packer with an `irdepth` field of `width` bits (`return_stack_size_p + 1`,
    /// `sec:irxx`; 0 without a return stack).
    ///
    /// # Panics
    ///
    /// If `width` is above [`IRDEPTH_BITS`] or the longest format 1 does not fit `P`
    /// (a configuration error the generator refuses first).
    pub fn with_irdepth(mut self, width: usize) -> Self {
        // Format 1 with a 31-bit map: format, branches, branch_map, address, notify, updiscon,
        // irreport, irdepth.
        assert!(width <= IRDEPTH_BITS && 2 + 5 + 31 + (A - 1) + 3 + width <= P);
        self.at_ir_sign = Constant::new(bits::<8>((A + 2 + width) as u64));
        self.irdepth_top = Constant::new(if width == 0 {
            0.into()
        } else {
            bits::<IRDEPTH_BITS>(1) << (width as u64 - 1)
        });
        self
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
        // Every field zero-extended to P bits, placed below by constant shifts.
        self.x_address.narrow.next = self.fields.address.val();
        self.x_address_f12.narrow.next = self.fields.address_f12.val();
        self.x_tval.narrow.next = self.fields.tval.val();
        self.x_privilege.narrow.next = self.fields.privilege.val();
        self.x_ecause.narrow.next = self.fields.ecause.val();
        self.x_qual_status.narrow.next = self.fields.qual_status.val();
        self.x_ioptions.narrow.next = self.fields.ioptions.val();
        self.x_branches.narrow.next = self.fields.branches.val();
        self.x_branch_map.narrow.next = self.fields.branch_map.val() ^ self.branch_map_fault.val();
        self.x_branch_count.narrow.next = self.fields.branch_count.val();
        self.x_branch_fail.narrow.next = self.fields.branch_fail.val().into();
        self.x_branch.narrow.next = self.fields.branch.val().into();
        self.x_interrupt.narrow.next = self.fields.is_interrupt.val().into();
        self.x_thaddr.narrow.next = self.fields.thaddr.val().into();
        self.x_ienable.narrow.next = self.fields.ienable.val().into();
        self.x_irdepth.narrow.next = self.fields.irdepth.val();

        // The address field is the low A - 1 bits.
        self.addr_f.next = self.x_address.wide.val() & self.addr_mask.val();
        self.addr_f12.next = self.x_address_f12.wide.val() & self.addr_mask.val();
        self.addr_msb.next = (self.fields.address.val() & self.addr_top.val()).any();
        self.tval_msb.next = (self.fields.tval.val() & self.tval_top.val()).any();
        // Formats 1 / 2: the address field, then `notify` (bit A - 1) and `updiscon` (bit
        // A) as sent; `irreport` (bit A + 1), `irdepth` and the sign are the sent
        // `updiscon` again, or, with `irreport`, its inverse, the depth and its top bit.
        self.notify_at.next = 0.into();
        if self.fields.notify_bit.val() {
            self.notify_at.next = self.notify_place.val();
        }
        self.updiscon_at.next = 0.into();
        if self.fields.updiscon_bit.val() {
            self.updiscon_at.next = self.updiscon_place.val();
        }
        // Format 3.1 up to thaddr: format 3, subformat 1, branch, privilege, ecause,
        // interrupt, thaddr.
        self.trap_head.next = bits::<P>(7)
            | (self.x_branch.wide.val() << 4)
            | (self.x_privilege.wide.val() << 5)
            | (self.x_ecause.wide.val() << 7)
            | (self.x_interrupt.wide.val() << self.trap_int.val())
            | (self.x_thaddr.wide.val() << self.trap_th.val());
        // Format 1 with address up to branches.
        self.f1_head.next = bits::<P>(1) | (self.x_branches.wide.val() << 2);
        // Format 0 up to branch_count (format 0, no subformat: `f0s_width_p` 0).
        self.f0_head.next = self.x_branch_count.wide.val() << 2;

        // The masks of the layouts (`layout::bit` order).
        self.m_support.next = 0.into();
        if self.fields.layout.val().get_bit(0) {
            self.m_support.next = self.ones.val();
        }
        self.m_sync.next = 0.into();
        if self.fields.layout.val().get_bit(1) {
            self.m_sync.next = self.ones.val();
        }
        self.m_trap.next = 0.into();
        if self.fields.layout.val().get_bit(2) {
            self.m_trap.next = self.ones.val();
        }
        self.m_trap_address.next = 0.into();
        if self.fields.layout.val().get_bit(3) {
            self.m_trap_address.next = self.ones.val();
        }
        self.m_trap_address_tval.next = 0.into();
        if self.fields.layout.val().get_bit(4) {
            self.m_trap_address_tval.next = self.ones.val();
        }
        self.m_trap_tval.next = 0.into();
        if self.fields.layout.val().get_bit(5) {
            self.m_trap_tval.next = self.ones.val();
        }
        self.m_context.next = 0.into();
        if self.fields.layout.val().get_bit(6) {
            self.m_context.next = self.ones.val();
        }
        self.m_address.next = 0.into();
        if self.fields.layout.val().get_bit(7) {
            self.m_address.next = self.ones.val();
        }
        self.m_branch31.next = 0.into();
        if self.fields.layout.val().get_bit(8) {
            self.m_branch31.next = self.ones.val();
        }
        self.m_branch15.next = 0.into();
        if self.fields.layout.val().get_bit(9) {
            self.m_branch15.next = self.ones.val();
        }
        self.m_branch7.next = 0.into();
        if self.fields.layout.val().get_bit(10) {
            self.m_branch7.next = self.ones.val();
        }
        self.m_branch3.next = 0.into();
        if self.fields.layout.val().get_bit(11) {
            self.m_branch3.next = self.ones.val();
        }
        self.m_branch1.next = 0.into();
        if self.fields.layout.val().get_bit(12) {
            self.m_branch1.next = self.ones.val();
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

        // The last field bit of each layout, as a mask: the sign extension.
        self.s_ioptions.next = 0.into();
        if self.fields.ioptions.val().get_bit(5) {
            self.s_ioptions.next = self.ones.val();
        }
        self.s_address.next = 0.into();
        if self.addr_msb.val() {
            self.s_address.next = self.ones.val();
        }
        self.s_thaddr.next = 0.into();
        if self.fields.thaddr.val() {
            self.s_thaddr.next = self.ones.val();
        }
        self.s_tval.next = 0.into();
        if self.tval_msb.val() {
            self.s_tval.next = self.ones.val();
        }
        self.s_privilege.next = 0.into();
        if self.fields.privilege.val().get_bit(1) {
            self.s_privilege.next = self.ones.val();
        }
        self.s_irreport.next = 0.into();
        if self.fields.updiscon_bit.val() {
            self.s_irreport.next = self.ones.val();
        }
        // The address information of formats 0 / 1 / 2 with `irreport` / `irdepth`.
        self.s_irdepth.next = 0.into();
        if (self.fields.irdepth.val() & self.irdepth_top.val()).any() {
            self.s_irdepth.next = self.ones.val();
        }
        self.ir_tail.next = (self.ones.val() << self.at_a1.val()) & self.s_irreport.val();
        if self.fields.irreport.val() {
            self.ir_tail.next = ((self.ones.val() << self.at_a1.val())
                & !self.s_irreport.val()
                & !(self.ones.val() << self.at_irdepth.val()))
                | (self.x_irdepth.wide.val() << self.at_irdepth.val())
                | ((self.ones.val() << self.at_ir_sign.val()) & self.s_irdepth.val());
        }
        self.addr_info.next = self.addr_f12.val()
            | self.notify_at.val()
            | self.updiscon_at.val()
            | self.ir_tail.val();
        self.s_branch_map.next = 0.into();
        if self.fields.branch_map.val().get_bit(30) {
            self.s_branch_map.next = self.ones.val();
        }
        // Per layout, its fields up to the last one, then ones from the bit after it up to
        // P - 1 where the last bit is 1; the payload is the selected layout's. Each payload
        // bit is then an OR of (layout bit AND one field bit) terms.
        self.payload.next = (self.m_support.val()
            & (bits::<P>(15)
                | (self.x_ienable.wide.val() << 4)
                | (self.x_qual_status.wide.val() << 6)
                | (self.x_ioptions.wide.val() << 8)
                | ((self.ones.val() << 14) & self.s_ioptions.val())))
            | (self.m_sync.val()
                & (bits::<P>(3)
                    | (self.x_branch.wide.val() << 4)
                    | (self.x_privilege.wide.val() << 5)
                    | (self.addr_f.val() << 7)
                    | (((self.ones.val() << self.at_aw.val()) << 7) & self.s_address.val())))
            | (self.m_trap.val()
                & (self.trap_head.val()
                    | ((self.ones.val() << self.trap_addr.val()) & self.s_thaddr.val())))
            | (self.m_trap_address.val()
                & (self.trap_head.val()
                    | (self.addr_f.val() << self.trap_addr.val())
                    | ((self.ones.val() << self.trap_tval.val()) & self.s_address.val())))
            | (self.m_trap_address_tval.val()
                & (self.trap_head.val()
                    | (self.addr_f.val() << self.trap_addr.val())
                    | (self.x_tval.wide.val() << self.trap_tval.val())
                    | ((self.ones.val() << self.trap_at_end.val()) & self.s_tval.val())))
            | (self.m_trap_tval.val()
                & (self.trap_head.val()
                    | (self.x_tval.wide.val() << self.trap_addr.val())
                    | ((self.ones.val() << self.trap_a_end.val()) & self.s_tval.val())))
            | (self.m_context.val()
                & (bits::<P>(11)
                    | (self.x_privilege.wide.val() << 4)
                    | ((self.ones.val() << 6) & self.s_privilege.val())))
            | (self.m_address.val() & (bits::<P>(2) | (self.addr_info.val() << 2)))
            | (self.m_branch31.val()
                & (self.f1_head.val()
                    | ((self.x_branch_map.wide.val() & self.map31.val()) << 7)
                    | (self.addr_info.val() << 38)))
            | (self.m_branch15.val()
                & (self.f1_head.val()
                    | ((self.x_branch_map.wide.val() & self.map15.val()) << 7)
                    | (self.addr_info.val() << 22)))
            | (self.m_branch7.val()
                & (self.f1_head.val()
                    | ((self.x_branch_map.wide.val() & self.map7.val()) << 7)
                    | (self.addr_info.val() << 14)))
            | (self.m_branch3.val()
                & (self.f1_head.val()
                    | ((self.x_branch_map.wide.val() & self.map3.val()) << 7)
                    | (self.addr_info.val() << 10)))
            | (self.m_branch1.val()
                & (self.f1_head.val()
                    | ((self.x_branch_map.wide.val() & self.map1.val()) << 7)
                    | (self.addr_info.val() << 8)))
            | (self.m_branch_map.val()
                & (bits::<P>(1)
                    | ((self.x_branch_map.wide.val() & self.map31.val()) << 7)
                    | ((self.ones.val() << 38) & self.s_branch_map.val())))
            | (self.m_count.val()
                & (self.f0_head.val()
                    | (self.x_branch_fail.wide.val() << 34)
                    | self.count_fmt.val()
                    | (self.addr_info.val() << 36)))
            | (self.m_count_only.val() & self.f0_head.val());
    }
}
