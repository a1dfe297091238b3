//! The ATB adapter (`hdl/DESIGN.md` item 8; `fragmentCodeAndTransport.adoc`, "ATB
//! transport"): collects FIFO bytes into a beat of W = DW / 8 bytes; the beat is valid
//! when it holds W bytes or its last byte ends a packet, so each packet starts a new beat
//! as in the model's `framing::atb`. While valid it drives ATVALID, ATDATA (byte 0 in
//! bits 7:0, unused bytes zero), ATBYTES = bytes - 1 and ATID, and it empties when ATREADY
//! is high; it takes no byte in a cycle in which the beat is valid.

use rust_hdl::prelude::*;

use super::byte_fifo::ByteStream;
use crate::bundle::bundle;
use crate::packer::ZeroExtend;

bundle! {
    /// The ATB port of a trace source (`fragmentCodeAndTransport.adoc`, "ATB transport";
    /// `hdl/DESIGN.md` item 8): ATDATA of `DW` bits (byte 0 in bits 7:0), ATBYTES of `BW`
    /// bits. The names are those of the ATB encoder's pins.
    pub struct AtbPort<const DW: usize, const BW: usize> {
        /// ATDATA.
        atdata: Out<Bits<DW>>,
        /// ATBYTES: valid bytes of the beat minus one.
        atbytes: Out<Bits<BW>>,
        /// ATID.
        atid: Out<Bits<7>>,
        /// ATVALID.
        atvalid: Out<Bit>,
        /// ATREADY.
        atready: In<Bit>,
    }
}

/// ATB adapter with ATDATA of DW bits (8, 16, 32, 64, 128) and ATBYTES of BW bits
/// (log2(DW / 8), at least 1) (`DESIGN.md` item 8).
#[derive(LogicBlock)]
pub struct AtbAdapter<const DW: usize, const BW: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the beat is empty in the next cycle.
    pub reset: Signal<In, Bit>,
    /// The byte FIFO's stream: a byte is taken when the beat is not valid.
    pub fifo: ByteStream,
    /// The ATID driven with every beat.
    pub source_atid: Signal<In, Bits<7>>,
    /// The ATB port.
    pub atb: AtbPort<DW, BW>,
    beat_bytes: Constant<Bits<8>>,
    data: DFF<Bits<DW>>,
    count: DFF<Bits<8>>,
    valid: DFF<Bit>,
    byte_wide: ZeroExtend<8, DW>,
    count_low: Signal<Local, Bits<BW>>,
}

impl<const DW: usize, const BW: usize> AtbAdapter<DW, BW> {
    /// An adapter; panics when DW is not 8, 16, 32, 64 or 128 or BW does not match it.
    pub fn new() -> Self {
        let bytes = DW / 8;
        assert!(
            [1, 2, 4, 8, 16].contains(&bytes) && DW % 8 == 0,
            "ATDATA width {DW}"
        );
        let want_bw = (bytes.trailing_zeros() as usize).max(1);
        assert_eq!(BW, want_bw, "ATBYTES width for ATDATA of {DW} bits");
        AtbAdapter {
            clock: Default::default(),
            reset: Default::default(),
            fifo: Default::default(),
            source_atid: Default::default(),
            atb: Default::default(),
            beat_bytes: Constant::new((bytes as u64).into()),
            data: Default::default(),
            count: Default::default(),
            valid: Default::default(),
            byte_wide: Default::default(),
            count_low: Default::default(),
        }
    }
}

impl<const DW: usize, const BW: usize> Default for AtbAdapter<DW, BW> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const DW: usize, const BW: usize> Logic for AtbAdapter<DW, BW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, data, count, valid);
        self.atb.atdata.next = self.data.q.val();
        // ATBYTES = count - 1 modulo 2^BW (count is 1..=W).
        self.count_low.next = self.count.q.val().get_bits::<BW>(0);
        self.atb.atbytes.next = self.count_low.val() - 1;
        self.byte_wide.narrow.next = self.fifo.out_data.val();
        self.atb.atid.next = self.source_atid.val();
        self.atb.atvalid.next = self.valid.q.val();
        self.fifo.out_ready.next = !self.valid.q.val();
        if self.valid.q.val() {
            if self.atb.atready.val() {
                self.valid.d.next = false;
                self.count.d.next = 0.into();
                self.data.d.next = 0.into();
            }
        } else if self.fifo.out_valid.val() {
            self.data.d.next =
                self.data.q.val() | (self.byte_wide.wide.val() << (self.count.q.val() << 3));
            self.count.d.next = self.count.q.val() + 1;
            self.valid.d.next =
                self.fifo.out_last.val() | ((self.count.q.val() + 1) == self.beat_bytes.val());
        }
        if self.reset.val() {
            self.valid.d.next = false;
            self.count.d.next = 0.into();
            self.data.d.next = 0.into();
        }
    }
}
