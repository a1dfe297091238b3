//! `MseoBytes`: the MSEO bytes of one N-Trace message ("N-Trace Transmission Protocol",
//! "MSEO Sequences", "Order of bits and bytes"): byte `index` of the message and its
//! length, so a serialiser sends a message one byte per cycle from a counter. Every byte
//! holds six MDO bits (bits 7:2) and MSEO (bits 1:0): TCODE fills the first byte (MSEO
//! 00); a variable-length field sends its significant bits (at least one), least
//! significant first, zero-extended to the end of its last byte, which has MSEO 01, or 11
//! when it ends the message. The model: `etrace_ntrace::mseo::MseoWriter`.

use rust_hdl::prelude::*;

use super::message::{NtraceMessage, ADDR_BITS, HIST_BITS, LEAD_BITS};
use crate::packer::ZeroExtend;

/// Bytes of one message at most: TCODE, 7 of `lead`, 11 of the address, 6 of HIST.
pub const MAX_MESSAGE_BYTES: usize = 25;

/// The longest run (the address: 11 groups of 6 bits), and the 2 bits a byte's window
/// of 8 reads past its group.
const RUN_BITS: usize = 68;
/// Groups of 6 bits of the longest run.
const RUN_GROUPS: usize = 11;

/// Byte `index` of a message's MSEO bytes, and their number (combinational).
#[derive(LogicBlock, Default)]
pub struct MseoBytes {
    /// The message.
    pub message: NtraceMessage,
    /// Which byte (0: the TCODE byte); `length - 1` is the last.
    pub index: Signal<In, Bits<5>>,
    /// Byte `index`: MDO in bits 7:2, MSEO in bits 1:0 (`byte` is a SystemVerilog keyword).
    pub mseo_byte: Signal<Out, Bits<8>>,
    /// Number of bytes of the message (0 without a message).
    pub length: Signal<Out, Bits<5>>,
    // Bytes of each variable-length run: 6 MDO bits each.
    lead_bytes: Signal<Local, Bits<5>>,
    addr_bytes: Signal<Local, Bits<5>>,
    hist_bytes: Signal<Local, Bits<5>>,
    addr_start: Signal<Local, Bits<5>>,
    hist_start: Signal<Local, Bits<5>>,
    // `index - 1`: the byte after TCODE.
    field_index: Signal<Local, Bits<5>>,
    // The byte's group of 6 bits within its run, the run's byte count, the run's bits.
    group: Signal<Local, Bits<5>>,
    run_bytes: Signal<Local, Bits<5>>,
    run: Signal<Local, Bits<RUN_BITS>>,
    mdo: Signal<Local, Bits<8>>,
    mseo: Signal<Local, Bits<8>>,
    lead_wide: ZeroExtend<LEAD_BITS, RUN_BITS>,
    addr_wide: ZeroExtend<ADDR_BITS, RUN_BITS>,
    hist_wide: ZeroExtend<HIST_BITS, RUN_BITS>,
    tcode_wide: ZeroExtend<6, 8>,
}

impl Logic for MseoBytes {
    #[hdl_gen]
    fn update(&mut self) {
        // Bytes of `lead`: at least those of its fixed fields and one bit, else up to
        // its most significant nonzero group of 6 bits.
        self.lead_bytes.next = 1.into();
        if self.message.lead_min.val() > 6 {
            self.lead_bytes.next = 2.into();
        }
        if self.message.lead.val().get_bits::<6>(6).any() {
            self.lead_bytes.next = 2.into();
        }
        if self.message.lead.val().get_bits::<6>(12).any() {
            self.lead_bytes.next = 3.into();
        }
        if self.message.lead.val().get_bits::<6>(18).any() {
            self.lead_bytes.next = 4.into();
        }
        if self.message.lead.val().get_bits::<6>(24).any() {
            self.lead_bytes.next = 5.into();
        }
        if self.message.lead.val().get_bits::<6>(30).any() {
            self.lead_bytes.next = 6.into();
        }
        if self.message.lead.val().get_bits::<4>(36).any() {
            self.lead_bytes.next = 7.into();
        }
        self.addr_bytes.next = 1.into();
        if self.message.addr.val().get_bits::<6>(6).any() {
            self.addr_bytes.next = 2.into();
        }
        if self.message.addr.val().get_bits::<6>(12).any() {
            self.addr_bytes.next = 3.into();
        }
        if self.message.addr.val().get_bits::<6>(18).any() {
            self.addr_bytes.next = 4.into();
        }
        if self.message.addr.val().get_bits::<6>(24).any() {
            self.addr_bytes.next = 5.into();
        }
        if self.message.addr.val().get_bits::<6>(30).any() {
            self.addr_bytes.next = 6.into();
        }
        if self.message.addr.val().get_bits::<6>(36).any() {
            self.addr_bytes.next = 7.into();
        }
        if self.message.addr.val().get_bits::<6>(42).any() {
            self.addr_bytes.next = 8.into();
        }
        if self.message.addr.val().get_bits::<6>(48).any() {
            self.addr_bytes.next = 9.into();
        }
        if self.message.addr.val().get_bits::<6>(54).any() {
            self.addr_bytes.next = 10.into();
        }
        if self.message.addr.val().get_bits::<4>(60).any() {
            self.addr_bytes.next = 11.into();
        }
        if !self.message.addr_valid.val() {
            self.addr_bytes.next = 0.into();
        }
        self.hist_bytes.next = 1.into();
        if self.message.hist.val().get_bits::<6>(6).any() {
            self.hist_bytes.next = 2.into();
        }
        if self.message.hist.val().get_bits::<6>(12).any() {
            self.hist_bytes.next = 3.into();
        }
        if self.message.hist.val().get_bits::<6>(18).any() {
            self.hist_bytes.next = 4.into();
        }
        if self.message.hist.val().get_bits::<6>(24).any() {
            self.hist_bytes.next = 5.into();
        }
        if self.message.hist.val().get_bits::<2>(30).any() {
            self.hist_bytes.next = 6.into();
        }
        if !self.message.hist_valid.val() {
            self.hist_bytes.next = 0.into();
        }
        self.addr_start.next = self.lead_bytes.val();
        self.hist_start.next = self.lead_bytes.val() + self.addr_bytes.val();
        self.length.next = self.hist_start.val() + self.hist_bytes.val() + 1;
        if !self.message.valid.val() {
            self.length.next = 0.into();
        }

        // The run byte `index` falls in, and its group of 6 bits there.
        self.lead_wide.narrow.next = self.message.lead.val();
        self.addr_wide.narrow.next = self.message.addr.val();
        self.hist_wide.narrow.next = self.message.hist.val();
        self.field_index.next = self.index.val() - 1;
        self.group.next = self.field_index.val();
        self.run_bytes.next = self.lead_bytes.val();
        self.run.next = self.lead_wide.wide.val();
        if self.field_index.val() >= self.addr_start.val() {
            self.group.next = self.field_index.val() - self.addr_start.val();
            self.run_bytes.next = self.addr_bytes.val();
            self.run.next = self.addr_wide.wide.val();
        }
        if self.field_index.val() >= self.hist_start.val() {
            self.group.next = self.field_index.val() - self.hist_start.val();
            self.run_bytes.next = self.hist_bytes.val();
            self.run.next = self.hist_wide.wide.val();
        }
        // The group's 6 bits as MDO (bits 7:2): the 8 bits from the group, shifted.
        self.mdo.next = 0.into();
        for g in 0..RUN_GROUPS {
            if self.group.val().index() == g {
                self.mdo.next = self.run.val().get_bits::<8>(6 * g) << 2;
            }
        }
        self.mseo.next = 0.into();
        if self.group.val() + 1 == self.run_bytes.val() {
            self.mseo.next = 1.into();
        }
        if self.index.val() + 1 == self.length.val() {
            self.mseo.next = 3.into();
        }
        self.tcode_wide.narrow.next = self.message.tcode.val();
        self.mseo_byte.next = self.mdo.val() | self.mseo.val();
        if self.index.val() == 0 {
            self.mseo_byte.next = self.tcode_wide.wide.val() << 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn mseo_bytes_verilog() {
        let mut uut = MseoBytes::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("mseo_bytes", &v).unwrap();
        lint("mseo_bytes", &v).unwrap();
    }
}
