//! The packet field bundle (`hdl/DESIGN.md`, "Packet field bundle"): one te_inst as the
//! packet logic's packet register holds it and a payload packer packs it.

use rust_hdl::prelude::*;

use super::layout::LAYOUTS;
use crate::bundle::bundle;
use crate::logic::return_stack::IRDEPTH_BITS;

bundle! {
    /// One te_inst (`payload.adoc`): its payload layout one-hot ([`super::layout::bit`])
    /// and its fields as they are sent. `A` = `iaddress_width_p`, `E` = `ecause_width_p`.
    pub struct PacketFields<const A: usize, const E: usize> {
        /// One bit per layout ([`super::layout::bit`]); exactly one is set.
        layout: In<Bits<LAYOUTS>>,
        /// Formats 3.0 / 3.1 `branch`.
        branch: In<Bit>,
        /// Formats 3.0 / 3.1 / 3.2 `privilege`.
        privilege: In<Bits<2>>,
        /// Format 3.1 `ecause`.
        ecause: In<Bits<E>>,
        /// Format 3.1 `interrupt` (1: `tval` is not sent). Not named `interrupt`, which
        /// Verilator's lint reserves.
        is_interrupt: In<Bit>,
        /// Format 3.1 `thaddr`.
        thaddr: In<Bit>,
        /// Formats 3.0 / 3.1 `address` field value (`iaddr` >> `iaddress_lsb_p`, full); its
        /// low `A - 1` bits are sent, bit `A - 1` is ignored.
        address: In<Bits<A>>,
        /// Formats 1 / 2 `address` field value, as `address`: differential unless
        /// `full_address`.
        address_f12: In<Bits<A>>,
        /// Format 3.1 `tval` (any value for an interrupt: not sent).
        tval: In<Bits<A>>,
        /// Formats 1 / 2 `notify` as sent (the meaning XOR the address field's top bit,
        /// `sec:format2`).
        notify_bit: In<Bit>,
        /// Formats 1 / 2 `updiscon` as sent (the meaning XOR the sent `notify`).
        updiscon_bit: In<Bit>,
        /// Formats 0 / 1 / 2 `irreport` in meaning (`sec:irxx`; sent relative to
        /// `updiscon`): `irdepth` follows, else copies of the sent `irreport`.
        irreport: In<Bit>,
        /// Formats 0 / 1 / 2 `irdepth` (`return_stack_size_p + 1` bits are sent).
        irdepth: In<Bits<IRDEPTH_BITS>>,
        /// Format 1 `branches` (1-31) of the format 1 with address layouts.
        branches: In<Bits<5>>,
        /// Format 1 `branch_map`; bits at and above the layout's map length are ignored.
        branch_map: In<Bits<32>>,
        /// Format 0 `branch_count` (`sec:format0`).
        branch_count: In<Bits<32>>,
        /// Format 0 with address: `branch_fmt` addr-fail (the reported branch failed its
        /// prediction), else addr.
        branch_fail: In<Bit>,
        /// Format 3.3 `ienable`.
        ienable: In<Bit>,
        /// Format 3.3 `qual_status`.
        qual_status: In<Bits<2>>,
        /// Format 3.3 `ioptions` (`IOptions::bits`).
        ioptions: In<Bits<6>>,
    }
    /// The side that drives a [`PacketFields`] bundle: the packet logic's packet register.
    pub struct PacketFieldsSource;
}
