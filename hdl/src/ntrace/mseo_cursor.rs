//! `MseoCursor`: the MSEO bytes of a held message one after another from registers
//! ("MSEO Sequences", "Order of bits and bytes"), for a serialiser that writes one byte
//! per cycle. It gives the same bytes as [`super::MseoByteAt`] at index 0, 1, 2, ... but
//! keeps the run being sent in a shift register instead of selecting byte `index` from
//! the whole message: the byte is two flip-flop values and the MSEO bits, a few LUT levels
//! instead of a subtraction, a compare and an eleven-way group multiplexer.

use rust_hdl::prelude::*;

use super::message::{ADDR_BITS, HIST_BITS, LEAD_BITS};
use crate::packer::ZeroExtend;

/// Width of the run register: the widest run (the address).
const RUN_BITS: usize = ADDR_BITS;

/// Byte after byte of one message whose fields and layout are held while it is sent.
///
/// `first` marks the TCODE byte (the message's first); `step` says the byte given now is
/// taken, so the cursor moves to the next one. After the TCODE byte the cursor loads the
/// `lead` run; after each run byte it shifts the run by one group of 6 bits, or loads the
/// next run (the address when the message has one, else HIST) after the run's last byte.
#[derive(LogicBlock, Default)]
pub struct MseoCursor {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The message's TCODE.
    pub tcode: Signal<In, Bits<6>>,
    /// Its `lead` run ([`super::NtraceMessage`]).
    pub lead: Signal<In, Bits<LEAD_BITS>>,
    /// Its address run.
    pub addr: Signal<In, Bits<ADDR_BITS>>,
    /// Its HIST run.
    pub hist: Signal<In, Bits<HIST_BITS>>,
    /// Bytes of its `lead` run ([`super::MseoLayout`]; at most 11, as every run).
    pub lead_bytes: Signal<In, Bits<4>>,
    /// Bytes of its address run (0 without one).
    pub addr_bytes: Signal<In, Bits<4>>,
    /// Bytes of its HIST run.
    pub hist_bytes: Signal<In, Bits<4>>,
    /// The byte given now is the TCODE byte (the message's first).
    pub first: Signal<In, Bit>,
    /// The byte given now ends the message (MSEO 11).
    pub last: Signal<In, Bit>,
    /// The byte given now is taken: the next cycle gives the byte after it.
    pub step: Signal<In, Bit>,
    /// The byte: MDO in bits 7:2, MSEO in bits 1:0.
    pub mseo_byte: Signal<Out, Bits<8>>,
    // The run being sent, its current group of 6 bits lowest; its bytes left, the current
    // one included; the run is `lead` (the address, if present, comes next).
    run: DFF<Bits<RUN_BITS>>,
    left: DFF<Bits<4>>,
    in_lead: DFF<Bit>,
    run_ends: Signal<Local, Bit>,
    lead_wide: ZeroExtend<LEAD_BITS, RUN_BITS>,
    hist_wide: ZeroExtend<HIST_BITS, RUN_BITS>,
    tcode_wide: ZeroExtend<6, 8>,
    group_wide: ZeroExtend<6, 8>,
    mseo: Signal<Local, Bits<8>>,
}

impl Logic for MseoCursor {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, run, left, in_lead);
        self.lead_wide.narrow.next = self.lead.val();
        self.hist_wide.narrow.next = self.hist.val();
        self.run_ends.next = self.left.q.val() == 1;

        // The byte: TCODE first (MSEO 00), then the run's current group, MSEO 01 at a
        // run's last byte, 11 at the message's.
        self.mseo.next = 0.into();
        if self.run_ends.val() {
            self.mseo.next = 1.into();
        }
        if self.last.val() {
            self.mseo.next = 3.into();
        }
        self.group_wide.narrow.next = self.run.q.val().get_bits::<6>(0);
        self.tcode_wide.narrow.next = self.tcode.val();
        self.mseo_byte.next = (self.group_wide.wide.val() << 2) | self.mseo.val();
        if self.first.val() {
            self.mseo_byte.next = self.tcode_wide.wide.val() << 2;
        }

        // The next byte.
        if self.step.val() {
            self.run.d.next = self.run.q.val() >> 6;
            self.left.d.next = self.left.q.val() - 1;
            if self.first.val() {
                self.run.d.next = self.lead_wide.wide.val();
                self.left.d.next = self.lead_bytes.val();
                self.in_lead.d.next = true;
            } else if self.run_ends.val() {
                self.in_lead.d.next = false;
                self.run.d.next = self.hist_wide.wide.val();
                self.left.d.next = self.hist_bytes.val();
                if self.in_lead.q.val() && self.addr_bytes.val().any() {
                    self.run.d.next = self.addr.val();
                    self.left.d.next = self.addr_bytes.val();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn mseo_cursor_verilog() {
        let mut uut = MseoCursor::default();
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("mseo_cursor", &v).unwrap();
        lint("mseo_cursor", &v).unwrap();
    }
}
