//! The MSEO bytes of one N-Trace message ("N-Trace Transmission Protocol", "MSEO
//! Sequences", "Order of bits and bytes"): its layout (`MseoMeasure`: the bytes of each
//! run and the length) and byte `index` of it (`MseoByteAt`), so a serialiser measures a
//! message ahead and sends it one byte per cycle from a counter (`MseoBytes`: both at
//! once). Every byte
//! holds six MDO bits (bits 7:2) and MSEO (bits 1:0): TCODE fills the first byte (MSEO
//! 00); a variable-length field sends its significant bits (at least one), least
//! significant first, zero-extended to the end of its last byte, which has MSEO 01, or 11
//! when it ends the message. The model: `etrace_ntrace::mseo::MseoWriter`.

use rust_hdl::prelude::*;

use super::message::{NtraceMessage, ADDR_BITS, HIST_BITS, LEAD_BITS};
use crate::bundle::bundle;
use crate::packer::ZeroExtend;

/// Bits of `lead`, the address and HIST above their first group of 6 bits: the first
/// group is always sent, so a run's length depends on these only.
pub const LEAD_UPPER: usize = LEAD_BITS - 6;
/// See [`LEAD_UPPER`].
pub const ADDR_UPPER: usize = ADDR_BITS - 6;
/// See [`LEAD_UPPER`].
pub const HIST_UPPER: usize = HIST_BITS - 6;

/// Bytes of one message at most: TCODE, 7 of `lead`, 11 of the address, 6 of HIST.
pub const MAX_MESSAGE_BYTES: usize = 25;

/// The longest run (the address: 11 groups of 6 bits), and the 2 bits a byte's window
/// of 8 reads past its group.
const RUN_BITS: usize = 68;
/// Groups of 6 bits of the longest run.
const RUN_GROUPS: usize = 11;

bundle! {
    /// Where the bytes of one message are ("MSEO Sequences"): the bytes of its three
    /// variable-length runs (`lead` with the fixed fields, the address, HIST; 0 for a run
    /// the message lacks), the byte after TCODE where the address run and the HIST run
    /// begin (counted from the first byte of `lead`), and the message's length (0 without
    /// a message).
    pub struct MseoLayout {
        /// Bytes of the message, TCODE included.
        length: In<Bits<5>>,
        /// Bytes of the `lead` run (at least one).
        lead_bytes: In<Bits<5>>,
        /// Bytes of the address run.
        addr_bytes: In<Bits<5>>,
        /// Bytes of the HIST run.
        hist_bytes: In<Bits<5>>,
        /// First byte of the address run, after TCODE.
        addr_start: In<Bits<5>>,
        /// First byte of the HIST run, after TCODE.
        hist_start: In<Bits<5>>,
    }
    /// The side that measures a message.
    pub struct MseoLayoutSource;
}

/// The layout of one message's MSEO bytes (combinational): each run's significant
/// groups of 6 bits, at least one.
#[derive(LogicBlock, Default)]
pub struct MseoMeasure {
    /// The message: its layout depends on whether it and its address and HIST runs are
    /// present, the bits of `lead` always sent, and each run above its first group of 6
    /// bits (the first group is always sent).
    pub message: NtraceMessage,
    /// Its layout.
    pub layout: MseoLayoutSource,
    sums: MseoRunSums,
    lead_upper: Signal<Local, Bits<LEAD_UPPER>>,
    addr_upper: Signal<Local, Bits<ADDR_UPPER>>,
    hist_upper: Signal<Local, Bits<HIST_UPPER>>,
    // What the layout does not depend on: TCODE and each run's first group.
    unused_fields: Signal<Local, Bit>,
}

impl Logic for MseoMeasure {
    #[hdl_gen]
    fn update(&mut self) {
        self.lead_upper.next = self.message.lead.val().get_bits::<LEAD_UPPER>(6);
        self.addr_upper.next = self.message.addr.val().get_bits::<ADDR_UPPER>(6);
        self.hist_upper.next = self.message.hist.val().get_bits::<HIST_UPPER>(6);
        self.unused_fields.next = self.message.tcode.val().any()
            || self.message.lead.val().get_bits::<6>(0).any()
            || self.message.addr.val().get_bits::<6>(0).any()
            || self.message.hist.val().get_bits::<6>(0).any();
        // Bytes of `lead`: at least those of its fixed fields and one bit, else up to
        // its most significant nonzero group of 6 bits.
        self.sums.lead_bytes.next = 1.into();
        if self.message.lead_min.val() > 6 {
            self.sums.lead_bytes.next = 2.into();
        }
        if self.lead_upper.val().get_bits::<6>(0).any() {
            self.sums.lead_bytes.next = 2.into();
        }
        if self.lead_upper.val().get_bits::<6>(6).any() {
            self.sums.lead_bytes.next = 3.into();
        }
        if self.lead_upper.val().get_bits::<6>(12).any() {
            self.sums.lead_bytes.next = 4.into();
        }
        if self.lead_upper.val().get_bits::<6>(18).any() {
            self.sums.lead_bytes.next = 5.into();
        }
        if self.lead_upper.val().get_bits::<6>(24).any() {
            self.sums.lead_bytes.next = 6.into();
        }
        if self.lead_upper.val().get_bits::<4>(30).any() {
            self.sums.lead_bytes.next = 7.into();
        }
        self.sums.addr_bytes.next = 1.into();
        if self.addr_upper.val().get_bits::<6>(0).any() {
            self.sums.addr_bytes.next = 2.into();
        }
        if self.addr_upper.val().get_bits::<6>(6).any() {
            self.sums.addr_bytes.next = 3.into();
        }
        if self.addr_upper.val().get_bits::<6>(12).any() {
            self.sums.addr_bytes.next = 4.into();
        }
        if self.addr_upper.val().get_bits::<6>(18).any() {
            self.sums.addr_bytes.next = 5.into();
        }
        if self.addr_upper.val().get_bits::<6>(24).any() {
            self.sums.addr_bytes.next = 6.into();
        }
        if self.addr_upper.val().get_bits::<6>(30).any() {
            self.sums.addr_bytes.next = 7.into();
        }
        if self.addr_upper.val().get_bits::<6>(36).any() {
            self.sums.addr_bytes.next = 8.into();
        }
        if self.addr_upper.val().get_bits::<6>(42).any() {
            self.sums.addr_bytes.next = 9.into();
        }
        if self.addr_upper.val().get_bits::<6>(48).any() {
            self.sums.addr_bytes.next = 10.into();
        }
        if self.addr_upper.val().get_bits::<4>(54).any() {
            self.sums.addr_bytes.next = 11.into();
        }
        if !self.message.addr_valid.val() {
            self.sums.addr_bytes.next = 0.into();
        }
        self.sums.hist_bytes.next = 1.into();
        if self.hist_upper.val().get_bits::<6>(0).any() {
            self.sums.hist_bytes.next = 2.into();
        }
        if self.hist_upper.val().get_bits::<6>(6).any() {
            self.sums.hist_bytes.next = 3.into();
        }
        if self.hist_upper.val().get_bits::<6>(12).any() {
            self.sums.hist_bytes.next = 4.into();
        }
        if self.hist_upper.val().get_bits::<6>(18).any() {
            self.sums.hist_bytes.next = 5.into();
        }
        if self.hist_upper.val().get_bits::<2>(24).any() {
            self.sums.hist_bytes.next = 6.into();
        }
        if !self.message.hist_valid.val() {
            self.sums.hist_bytes.next = 0.into();
        }
        self.sums.valid.next = self.message.valid.val();
        MseoLayoutSource::link(&mut self.layout, &mut self.sums.layout);
    }
}

/// The rest of a message's layout from the bytes of its runs (combinational): where the
/// address and HIST runs begin, and the length (TCODE, the runs; 0 without a message).
#[derive(LogicBlock, Default)]
pub struct MseoRunSums {
    /// A message is present.
    pub valid: Signal<In, Bit>,
    /// Bytes of the `lead` run.
    pub lead_bytes: Signal<In, Bits<5>>,
    /// Bytes of the address run.
    pub addr_bytes: Signal<In, Bits<5>>,
    /// Bytes of the HIST run.
    pub hist_bytes: Signal<In, Bits<5>>,
    /// The layout.
    pub layout: MseoLayoutSource,
}

impl Logic for MseoRunSums {
    #[hdl_gen]
    fn update(&mut self) {
        self.layout.lead_bytes.next = self.lead_bytes.val();
        self.layout.addr_bytes.next = self.addr_bytes.val();
        self.layout.hist_bytes.next = self.hist_bytes.val();
        self.layout.addr_start.next = self.lead_bytes.val();
        self.layout.hist_start.next = self.lead_bytes.val() + self.addr_bytes.val();
        self.layout.length.next =
            self.lead_bytes.val() + self.addr_bytes.val() + self.hist_bytes.val() + 1;
        if !self.valid.val() {
            self.layout.length.next = 0.into();
        }
    }
}

/// A message's layout measured as it is offered and held from the next cycle until the
/// next `load`: a serialiser measures the message that becomes its head a cycle ahead, so
/// its decisions on the head's length start from flip-flops. The bytes of each run are
/// held; the run starts and the length are summed from them after the flip-flops (short
/// adders), so the measurement's path ends at the hold.
#[derive(LogicBlock, Default)]
pub struct MseoLayoutHold {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Holds the offered message's layout from the next cycle.
    pub load: Signal<In, Bit>,
    /// The offered message.
    pub message: NtraceMessage,
    /// With `load`: holds `preset` instead of the offered message's layout (a message
    /// whose layout is known without measuring it, such as a constant one), selected
    /// after the measurement so the select is off its path.
    pub use_preset: Signal<In, Bit>,
    /// The layout held with `use_preset`.
    pub preset: MseoLayout,
    /// The layout held.
    pub layout: MseoLayoutSource,
    /// The held layout's length registered: from the second cycle after a load on, the
    /// length from a flip-flop (for decisions that are never taken in the first cycle).
    pub length_late: Signal<Out, Bits<5>>,
    length_q: DFF<Bits<5>>,
    measure: MseoMeasure,
    valid: DFF<Bit>,
    lead_bytes: DFF<Bits<5>>,
    addr_bytes: DFF<Bits<5>>,
    hist_bytes: DFF<Bits<5>>,
    sums: MseoRunSums,
    // The measurement's starts and length, summed again from the held bytes.
    unused_sums: Signal<Local, Bit>,
}

impl Logic for MseoLayoutHold {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid, lead_bytes, addr_bytes, hist_bytes, length_q);
        NtraceMessage::link(&mut self.message, &mut self.measure.message);
        if self.load.val() {
            self.valid.d.next = self.message.valid.val();
            self.lead_bytes.d.next = self.measure.layout.lead_bytes.val();
            self.addr_bytes.d.next = self.measure.layout.addr_bytes.val();
            self.hist_bytes.d.next = self.measure.layout.hist_bytes.val();
            if self.use_preset.val() {
                self.valid.d.next = self.preset.length.val().any();
                self.lead_bytes.d.next = self.preset.lead_bytes.val();
                self.addr_bytes.d.next = self.preset.addr_bytes.val();
                self.hist_bytes.d.next = self.preset.hist_bytes.val();
            }
        }
        self.unused_sums.next = self.measure.layout.length.val().any()
            || self.measure.layout.addr_start.val().any()
            || self.measure.layout.hist_start.val().any()
            || self.preset.addr_start.val().any()
            || self.preset.hist_start.val().any();
        self.sums.valid.next = self.valid.q.val();
        self.sums.lead_bytes.next = self.lead_bytes.q.val();
        self.sums.addr_bytes.next = self.addr_bytes.q.val();
        self.sums.hist_bytes.next = self.hist_bytes.q.val();
        MseoLayoutSource::link(&mut self.layout, &mut self.sums.layout);
        self.length_q.d.next = self.layout.length.val();
        self.length_late.next = self.length_q.q.val();
    }
}

/// Byte `index` of a message whose layout is given (combinational): the serialiser
/// measures a message ahead ([`MseoMeasure`]) and holds its layout while it sends it.
#[derive(LogicBlock, Default)]
pub struct MseoByteAt {
    /// The message's TCODE.
    pub tcode: Signal<In, Bits<6>>,
    /// Its `lead` run ([`NtraceMessage`]).
    pub lead: Signal<In, Bits<LEAD_BITS>>,
    /// Its address run.
    pub addr: Signal<In, Bits<ADDR_BITS>>,
    /// Its HIST run.
    pub hist: Signal<In, Bits<HIST_BITS>>,
    /// Its layout.
    pub layout: MseoLayout,
    /// Which byte (0: the TCODE byte); `length - 1` is the last.
    pub index: Signal<In, Bits<5>>,
    /// Byte `index`: MDO in bits 7:2, MSEO in bits 1:0 (`byte` is a SystemVerilog keyword).
    pub mseo_byte: Signal<Out, Bits<8>>,
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

impl Logic for MseoByteAt {
    #[hdl_gen]
    fn update(&mut self) {
        // The run byte `index` falls in, and its group of 6 bits there.
        self.lead_wide.narrow.next = self.lead.val();
        self.addr_wide.narrow.next = self.addr.val();
        self.hist_wide.narrow.next = self.hist.val();
        self.field_index.next = self.index.val() - 1;
        self.group.next = self.field_index.val();
        self.run_bytes.next = self.layout.lead_bytes.val();
        self.run.next = self.lead_wide.wide.val();
        if self.field_index.val() >= self.layout.addr_start.val() {
            self.group.next = self.field_index.val() - self.layout.addr_start.val();
            self.run_bytes.next = self.layout.addr_bytes.val();
            self.run.next = self.addr_wide.wide.val();
        }
        if self.field_index.val() >= self.layout.hist_start.val() {
            self.group.next = self.field_index.val() - self.layout.hist_start.val();
            self.run_bytes.next = self.layout.hist_bytes.val();
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
        if self.index.val() + 1 == self.layout.length.val() {
            self.mseo.next = 3.into();
        }
        self.tcode_wide.narrow.next = self.tcode.val();
        self.mseo_byte.next = self.mdo.val() | self.mseo.val();
        if self.index.val() == 0 {
            self.mseo_byte.next = self.tcode_wide.wide.val() << 2;
        }
    }
}

/// Byte `index` of a message's MSEO bytes, and their number (combinational): a
/// [`MseoMeasure`] and a [`MseoByteAt`] on the same message.
#[derive(LogicBlock, Default)]
pub struct MseoBytes {
    /// The message.
    pub message: NtraceMessage,
    /// Which byte (0: the TCODE byte); `length - 1` is the last.
    pub index: Signal<In, Bits<5>>,
    /// Byte `index`: MDO in bits 7:2, MSEO in bits 1:0.
    pub mseo_byte: Signal<Out, Bits<8>>,
    /// Number of bytes of the message (0 without a message).
    pub length: Signal<Out, Bits<5>>,
    measure: MseoMeasure,
    byte_at: MseoByteAt,
}

impl Logic for MseoBytes {
    #[hdl_gen]
    fn update(&mut self) {
        NtraceMessage::link(&mut self.message, &mut self.measure.message);
        self.byte_at.tcode.next = self.message.tcode.val();
        self.byte_at.lead.next = self.message.lead.val();
        self.byte_at.addr.next = self.message.addr.val();
        self.byte_at.hist.next = self.message.hist.val();
        MseoLayout::join(&mut self.byte_at.layout, &mut self.measure.layout);
        self.byte_at.index.next = self.index.val();
        self.mseo_byte.next = self.byte_at.mseo_byte.val();
        self.length.next = self.measure.layout.length.val();
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
