//! `PayloadLength`: the length in bytes of a payload after sign-based compression
//! (`payload.adoc`, introduction of "Instruction Trace Encoder Output Packets"; the model's
//! `packet::pack`), from the payload sign-extended to `P` bits.
//!
//! Byte `b >= 1` is sent when some bit from `8b - 1` up differs from the bit above it
//! (otherwise it and every later byte equal the sign of byte `b - 1`), so the length is one
//! more than the highest `b` whose 9 bits `8b - 1 ..= 8b + 7` are not all equal. The packet
//! queue forms it from its input register, a cycle after the packer (`hdl/DESIGN.md` item
//! 4), so neither is on one long path with the other.

use rust_hdl::prelude::*;

/// Sign-compressed length (1 to `P / 8` bytes) of a `P`-bit payload.
#[derive(LogicBlock)]
pub struct PayloadLength<const P: usize> {
    /// The payload, sign-extended to `P` bits.
    pub payload: Signal<In, Bits<P>>,
    /// Payload bytes after sign compression.
    pub length: Signal<Out, Bits<5>>,
    below_top: Constant<Bits<P>>,
    byte_diffs: Constant<Bits<P>>,
    diff: Signal<Local, Bits<P>>,
}

impl<const P: usize> Default for PayloadLength<P> {
    /// The block for `P` bits.
    ///
    /// # Panics
    ///
    /// If `P` is not a multiple of 8 from 16 to 248 (the `length` port is 5 bits): a
    /// configuration error, not a run-time input.
    fn default() -> Self {
        assert!(P % 8 == 0 && (16..=248).contains(&P), "payload width {P}");
        PayloadLength {
            payload: Signal::default(),
            length: Signal::default(),
            below_top: Constant::new(Bits::<P>::mask() >> 1),
            // The 8 comparisons of the 9 bits of a byte boundary group.
            byte_diffs: Constant::new(Bits::<P>::mask() >> (P - 8) as u64),
            diff: Signal::default(),
        }
    }
}

impl<const P: usize> Logic for PayloadLength<P> {
    #[hdl_gen]
    fn update(&mut self) {
        // Bit i of `diff`: payload bit i differs from bit i + 1.
        self.diff.next = (self.payload.val() ^ (self.payload.val() >> 1)) & self.below_top.val();
        self.length.next = 1.into();
        for j in 2u64..(P as u64 / 8 + 1) {
            if ((self.diff.val() >> (8 * j - 9)) & self.byte_diffs.val()).any() {
                self.length.next = j.into();
            }
        }
    }
}
