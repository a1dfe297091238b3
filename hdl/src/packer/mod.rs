//! The payload packer (`hdl/DESIGN.md`, "Packer -> queue"): one packet field bundle in, the
//! te_inst payload bits out, sign-extended to `P` bits (their length after sign-based
//! compression: [`PayloadLength`]; `payload.adoc`, introduction of "Instruction Trace Encoder Output Packets", and the
//! format tables `sec:format1`, `sec:format2`, `sec:format3`).
//!
//! Field layout for the hardware parameters (`iaddress_lsb_p` 1, `privilege_width_p` 2, no
//! `time` / `context`, `irdepth` 0 bits), bit offsets from bit 0 of the payload, with
//! `AW` = `A - 1` (width of the `address` field) and `E` = `ecause_width_p`:
//!
//! | kind | fields (offset) | last field |
//! |---|---|---|
//! | 3.3 support | format 0, subformat 2, ienable 4, encoder_mode 5, qual_status 6, ioptions 8 | ioptions (14) |
//! | 3.0 sync | format 0, subformat 2, branch 4, privilege 5, address 7 | address |
//! | 3.1 trap | format, subformat, branch, privilege, ecause 7, interrupt 7+E, thaddr 8+E, [address 9+E], [tval] | tval / address / thaddr |
//! | 3.2 context | format, subformat, privilege 4 | privilege (6) |
//! | 2 | format 0, address 2, notify, updiscon, irreport | irreport |
//! | 1 with address | format 0, branches 2, branch_map 7 (L bits), address 7+L, notify, updiscon, irreport | irreport |
//! | 1 without address | format 0, branches (0) 2, branch_map 7 (31 bits) | branch_map (38) |
//!
//! Every packet is built as `body | (sign ? fill : 0)`: `body` holds the fields with zeros
//! above the last one, `fill` has ones from the bit after the last field up to `P - 1`, and
//! `sign` is the last field bit, so the payload is sign-extended to `P` bits. Field offsets
//! are constants per kind, except format 1 with address (5 `branch_map` lengths) and format
//! 3.1 (address and tval present or not). Narrow fields are widened by [`ZeroExtend`]
//! blocks and placed by constant shifts, so every operator of the Verilog has operands of
//! equal width.

use rust_hdl::prelude::*;

use crate::config::Config;
use crate::packet_kind::PacketKind;

mod extend;
mod length;

pub use extend::ZeroExtend;
pub use length::{PayloadLength, SentBytes, SentLength};

/// The payload packer of the RV32 configurations (`A` 32, `E` 5, `P` 80).
pub type PayloadPacker32 = PayloadPacker<32, 5, 80>;
/// The payload packer of the RV64 configurations (`A` 64, `E` 6, `P` 144).
pub type PayloadPacker64 = PayloadPacker<64, 6, 144>;

/// Width `P` in bits of the payload port for `iaddress_width_p` = `address_width` (32 or
/// 64; other widths use the RV64 `ecause_width_p`): the longest te_inst of the hardware
/// configurations, format 3 subformat 1 with `address` and `tval` (`sec:format31`),
/// rounded up to whole bytes. 80 for RV32, 144 for RV64.
pub fn payload_width(address_width: u32) -> usize {
    let config = if address_width == 32 {
        Config::Rv32
    } else {
        Config::Rv64
    };
    let ecause = config.params().ecause_width_p as usize;
    let a = address_width as usize;
    // format 2 + subformat 2 + branch 1 + privilege 2 + ecause + interrupt 1 + thaddr 1
    // + address (a - 1) + tval a.
    let bits = 8 + ecause + 2 * a;
    bits.div_ceil(8) * 8
}

/// Packs one te_inst field bundle (`hdl/DESIGN.md`, "Packet field bundle") into payload
/// bits (`payload.adoc`). Purely combinational.
///
/// `A` = `iaddress_width_p`, `E` = `ecause_width_p`, `P` = [`payload_width`]`(A)`.
#[derive(LogicBlock)]
pub struct PayloadPacker<const A: usize, const E: usize, const P: usize> {
    /// Which te_inst to pack.
    pub kind: Signal<In, PacketKind>,
    /// Formats 3.0 / 3.1 `branch`.
    pub branch: Signal<In, Bit>,
    /// Formats 3.0 / 3.1 / 3.2 `privilege`.
    pub privilege: Signal<In, Bits<2>>,
    /// Format 3.1 `ecause`.
    pub ecause: Signal<In, Bits<E>>,
    /// Format 3.1 `interrupt` (1: `tval` is not sent). Not named `interrupt`, which
    /// Verilator's lint reserves.
    pub is_interrupt: Signal<In, Bit>,
    /// Format 3.1 `thaddr`.
    pub thaddr: Signal<In, Bit>,
    /// Format 3.1: the `address` field is sent (0 only with `thaddr` 1 in
    /// implicit-exception mode, `sec:format31`).
    pub with_address: Signal<In, Bit>,
    /// `address` field value (already shifted by `iaddress_lsb_p`); its low `A - 1` bits
    /// are sent, bit `A - 1` is ignored.
    pub address: Signal<In, Bits<A>>,
    /// Format 3.1 `tval`.
    pub tval: Signal<In, Bits<A>>,
    /// Formats 1 / 2 `notify` (meaning; the packer sends it relative to the bit before).
    pub notify: Signal<In, Bit>,
    /// Formats 1 / 2 `updiscon` (meaning; sent relative to the `notify` bit).
    pub updiscon: Signal<In, Bit>,
    /// Formats 1 / 2 `irreport` (meaning; sent relative to the `updiscon` bit).
    pub irreport: Signal<In, Bit>,
    /// Format 1 with address: `branches` (1-31; 0 is read as 31). Not used by format 1
    /// without address, which always sends 0.
    pub branches: Signal<In, Bits<5>>,
    /// Format 1 `branch_map`; bits at and above the map's length are ignored.
    pub branch_map: Signal<In, Bits<32>>,
    /// Format 3.3 `ienable`.
    pub ienable: Signal<In, Bit>,
    /// Format 3.3 `qual_status`.
    pub qual_status: Signal<In, Bits<2>>,
    /// Format 3.3 `ioptions`.
    pub ioptions: Signal<In, Bits<6>>,
    /// The packed fields from bit 0, sign-extended from the last field bit to bit `P - 1`.
    pub payload: Signal<Out, Bits<P>>,
    x_address: ZeroExtend<A, P>,
    x_tval: ZeroExtend<A, P>,
    x_privilege: ZeroExtend<2, P>,
    x_ecause: ZeroExtend<E, P>,
    x_qual_status: ZeroExtend<2, P>,
    x_ioptions: ZeroExtend<6, P>,
    x_branches: ZeroExtend<5, P>,
    x_branch_map: ZeroExtend<32, P>,
    x_branch: ZeroExtend<1, P>,
    x_interrupt: ZeroExtend<1, P>,
    x_thaddr: ZeroExtend<1, P>,
    x_ienable: ZeroExtend<1, P>,
    x_notify: ZeroExtend<1, P>,
    x_updiscon: ZeroExtend<1, P>,
    body: Signal<Local, Bits<P>>,
    fill: Signal<Local, Bits<P>>,
    sign: Signal<Local, Bit>,
    addr_f: Signal<Local, Bits<P>>,
    f1_head: Signal<Local, Bits<P>>,
    addr_info: Signal<Local, Bits<P>>,
    trap_head: Signal<Local, Bits<P>>,
    addr_msb: Signal<Local, Bit>,
    tval_msb: Signal<Local, Bit>,
    notify_at: Signal<Local, Bits<P>>,
    updiscon_at: Signal<Local, Bits<P>>,
    irreport_bit: Signal<Local, Bit>,
    ones: Constant<Bits<P>>,
    addr_mask: Constant<Bits<P>>,
    notify_place: Constant<Bits<P>>,
    map31: Constant<Bits<P>>,
    map15: Constant<Bits<P>>,
    map7: Constant<Bits<P>>,
    map3: Constant<Bits<P>>,
    map1: Constant<Bits<P>>,
    addr_top: Constant<Bits<A>>,
    tval_top: Constant<Bits<A>>,
    at_aw: Constant<Bits<8>>,
    at_a: Constant<Bits<8>>,
    at_a1: Constant<Bits<8>>,
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
    /// If `P` is not [`payload_width`]`(A)`, `P` is above 248 ([`SentLength`]'s port
    /// is 5 bits) or `A` is below 2 (a configuration error, not a run-time input).
    pub fn new() -> Self {
        assert!(A >= 2 && P == payload_width(A as u32) && P <= 248);
        let shift = |n: usize| Constant::new(bits::<8>(n as u64));
        let low = |n: usize| Bits::<P>::mask() >> (P - n) as u64;
        let aw = A - 1;
        let trap_addr = 9 + E;
        PayloadPacker {
            kind: Signal::default(),
            branch: Signal::default(),
            privilege: Signal::default(),
            ecause: Signal::default(),
            is_interrupt: Signal::default(),
            thaddr: Signal::default(),
            with_address: Signal::default(),
            address: Signal::default(),
            tval: Signal::default(),
            notify: Signal::default(),
            updiscon: Signal::default(),
            irreport: Signal::default(),
            branches: Signal::default(),
            branch_map: Signal::default(),
            ienable: Signal::default(),
            qual_status: Signal::default(),
            ioptions: Signal::default(),
            payload: Signal::default(),
            x_address: ZeroExtend::default(),
            x_tval: ZeroExtend::default(),
            x_privilege: ZeroExtend::default(),
            x_ecause: ZeroExtend::default(),
            x_qual_status: ZeroExtend::default(),
            x_ioptions: ZeroExtend::default(),
            x_branches: ZeroExtend::default(),
            x_branch_map: ZeroExtend::default(),
            x_branch: ZeroExtend::default(),
            x_interrupt: ZeroExtend::default(),
            x_thaddr: ZeroExtend::default(),
            x_ienable: ZeroExtend::default(),
            x_notify: ZeroExtend::default(),
            x_updiscon: ZeroExtend::default(),
            body: Signal::default(),
            fill: Signal::default(),
            sign: Signal::default(),
            addr_f: Signal::default(),
            f1_head: Signal::default(),
            addr_info: Signal::default(),
            trap_head: Signal::default(),
            addr_msb: Signal::default(),
            tval_msb: Signal::default(),
            notify_at: Signal::default(),
            updiscon_at: Signal::default(),
            irreport_bit: Signal::default(),
            ones: Constant::new(Bits::<P>::mask()),
            addr_mask: Constant::new(low(aw)),
            notify_place: Constant::new(bits::<P>(1) << aw as u64),
            map31: Constant::new(low(31)),
            map15: Constant::new(low(15)),
            map7: Constant::new(low(7)),
            map3: Constant::new(low(3)),
            map1: Constant::new(low(1)),
            addr_top: Constant::new(bits::<A>(1) << (aw as u64 - 1)),
            tval_top: Constant::new(bits::<A>(1) << (aw as u64)),
            at_aw: shift(aw),
            at_a: shift(A),
            at_a1: shift(A + 1),
            trap_int: shift(7 + E),
            trap_th: shift(8 + E),
            trap_addr: shift(trap_addr),
            trap_tval: shift(trap_addr + aw),
            trap_a_end: shift(trap_addr + A),
            trap_at_end: shift(trap_addr + aw + A),
        }
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
        self.x_address.narrow.next = self.address.val();
        self.x_tval.narrow.next = self.tval.val();
        self.x_privilege.narrow.next = self.privilege.val();
        self.x_ecause.narrow.next = self.ecause.val();
        self.x_qual_status.narrow.next = self.qual_status.val();
        self.x_ioptions.narrow.next = self.ioptions.val();
        self.x_branches.narrow.next = self.branches.val();
        self.x_branch_map.narrow.next = self.branch_map.val();
        self.x_branch.narrow.next = self.branch.val().into();
        self.x_interrupt.narrow.next = self.is_interrupt.val().into();
        self.x_thaddr.narrow.next = self.thaddr.val().into();
        self.x_ienable.narrow.next = self.ienable.val().into();
        self.x_notify.narrow.next = self.notify.val().into();
        self.x_updiscon.narrow.next = self.updiscon.val().into();

        // The address field is the low A - 1 bits.
        self.addr_f.next = self.x_address.wide.val() & self.addr_mask.val();
        self.addr_msb.next = (self.address.val() & self.addr_top.val()).any();
        self.tval_msb.next = (self.tval.val() & self.tval_top.val()).any();
        // notify, updiscon and irreport are sent inverted with respect to the bit before:
        // in formats 1 / 2 the address msb, bit A - 2 of the field (irreport is the sign,
        // irdepth has 0 bits). notify_at / updiscon_at hold the sent bit at its place after
        // the address (bit A - 1 / A), computed in P bits.
        self.notify_at.next = (self.x_notify.wide.val() << self.at_aw.val())
            ^ ((self.addr_f.val() << 1) & self.notify_place.val());
        self.updiscon_at.next =
            (self.x_updiscon.wide.val() << self.at_a.val()) ^ (self.notify_at.val() << 1);
        self.irreport_bit.next =
            self.irreport.val() ^ self.updiscon.val() ^ self.notify.val() ^ self.addr_msb.val();
        self.addr_info.next = self.addr_f.val() | self.notify_at.val() | self.updiscon_at.val();
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

        self.body.next = bits::<P>(0);
        self.fill.next = bits::<P>(0);
        self.sign.next = false;
        match self.kind.val() {
            PacketKind::Support => {
                // Format 3, subformat 3, ienable, encoder_mode 0, qual_status, ioptions.
                self.body.next = bits::<P>(15)
                    | (self.x_ienable.wide.val() << 4)
                    | (self.x_qual_status.wide.val() << 6)
                    | (self.x_ioptions.wide.val() << 8);
                self.fill.next = self.ones.val() << 14;
                self.sign.next = self.ioptions.val().get_bit(5);
            }
            PacketKind::Sync => {
                // Format 3, subformat 0, branch, privilege, address.
                self.body.next = bits::<P>(3)
                    | (self.x_branch.wide.val() << 4)
                    | (self.x_privilege.wide.val() << 5)
                    | (self.addr_f.val() << 7);
                self.fill.next = (self.ones.val() << self.at_aw.val()) << 7;
                self.sign.next = self.addr_msb.val();
            }
            PacketKind::Trap => {
                // Then address unless omitted, tval unless an interrupt.
                self.body.next = self.trap_head.val();
                self.fill.next = self.ones.val() << self.trap_addr.val();
                self.sign.next = self.thaddr.val();
                if self.with_address.val() {
                    if self.is_interrupt.val() {
                        self.body.next =
                            self.trap_head.val() | (self.addr_f.val() << self.trap_addr.val());
                        self.fill.next = self.ones.val() << self.trap_tval.val();
                        self.sign.next = self.addr_msb.val();
                    } else {
                        self.body.next = self.trap_head.val()
                            | (self.addr_f.val() << self.trap_addr.val())
                            | (self.x_tval.wide.val() << self.trap_tval.val());
                        self.fill.next = self.ones.val() << self.trap_at_end.val();
                        self.sign.next = self.tval_msb.val();
                    }
                } else if !self.is_interrupt.val() {
                    self.body.next =
                        self.trap_head.val() | (self.x_tval.wide.val() << self.trap_addr.val());
                    self.fill.next = self.ones.val() << self.trap_a_end.val();
                    self.sign.next = self.tval_msb.val();
                }
            }
            PacketKind::Context => {
                // Format 3, subformat 2, privilege.
                self.body.next = bits::<P>(11) | (self.x_privilege.wide.val() << 4);
                self.fill.next = self.ones.val() << 6;
                self.sign.next = self.privilege.val().get_bit(1);
            }
            PacketKind::Address => {
                // Format 2.
                self.body.next = bits::<P>(2) | (self.addr_info.val() << 2);
                self.fill.next = (self.ones.val() << self.at_a1.val()) << 2;
                self.sign.next = self.irreport_bit.val();
            }
            PacketKind::BranchAddress => {
                // Format 1: branch_map length 31, 15, 7, 3 or 1 from branches.
                self.sign.next = self.irreport_bit.val();
                if self.branches.val().get_bit(4) | !self.branches.val().any() {
                    self.body.next = self.f1_head.val()
                        | ((self.x_branch_map.wide.val() & self.map31.val()) << 7)
                        | (self.addr_info.val() << 38);
                    self.fill.next = (self.ones.val() << self.at_a1.val()) << 38;
                } else if self.branches.val().get_bit(3) {
                    self.body.next = self.f1_head.val()
                        | ((self.x_branch_map.wide.val() & self.map15.val()) << 7)
                        | (self.addr_info.val() << 22);
                    self.fill.next = (self.ones.val() << self.at_a1.val()) << 22;
                } else if self.branches.val().get_bit(2) {
                    self.body.next = self.f1_head.val()
                        | ((self.x_branch_map.wide.val() & self.map7.val()) << 7)
                        | (self.addr_info.val() << 14);
                    self.fill.next = (self.ones.val() << self.at_a1.val()) << 14;
                } else if self.branches.val().get_bit(1) {
                    self.body.next = self.f1_head.val()
                        | ((self.x_branch_map.wide.val() & self.map3.val()) << 7)
                        | (self.addr_info.val() << 10);
                    self.fill.next = (self.ones.val() << self.at_a1.val()) << 10;
                } else {
                    self.body.next = self.f1_head.val()
                        | ((self.x_branch_map.wide.val() & self.map1.val()) << 7)
                        | (self.addr_info.val() << 8);
                    self.fill.next = (self.ones.val() << self.at_a1.val()) << 8;
                }
            }
            PacketKind::BranchMap => {
                // Format 1 with branches 0 and a 31-bit branch_map.
                self.body.next =
                    bits::<P>(1) | ((self.x_branch_map.wide.val() & self.map31.val()) << 7);
                self.fill.next = self.ones.val() << 38;
                self.sign.next = self.branch_map.val().get_bit(30);
            }
        }
        self.payload.next = self.body.val();
        if self.sign.val() {
            self.payload.next = self.body.val() | self.fill.val();
        }
    }
}
