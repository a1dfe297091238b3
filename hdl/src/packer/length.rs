//! The length in bytes of a payload after sign-based compression (`payload.adoc`,
//! introduction of "Instruction Trace Encoder Output Packets"; the model's `packet::pack`),
//! from the payload sign-extended to `P` bits, in two halves that can sit on either side of
//! a register.
//!
//! Byte `b >= 1` is sent when some bit from `8b - 1` up differs from the bit above it
//! (otherwise it and every later byte equal the sign of byte `b - 1`), so the length is one
//! more than the highest `b` whose 9 bits `8b - 1 ..= 8b + 7` are not all equal.
//! [`SentBytes`] gives that flag per byte (at bit `8b - 1`), [`SentLength`] the length
//! from the flags. The
//! packet queue forms the flags from its input register, a cycle after the packer, stores
//! them with the entry, and the length from the head entry's flags (`hdl/DESIGN.md`
//! item 4), so none of the packer, the flags and the length is on one path with another.
//! [`PayloadLength`] is both halves in one block.

use rust_hdl::prelude::*;

/// Per byte `b >= 1` of a `P`-bit payload, bit `8b - 1` of `sent`: the 9 bits
/// `8b - 1 ..= 8b + 7` are not all equal, so a compressed payload of at least `b + 1` bytes
/// is needed (every other bit of `sent` is 0).
#[derive(LogicBlock)]
pub struct SentBytes<const P: usize> {
    /// The payload, sign-extended to `P` bits.
    pub payload: Signal<In, Bits<P>>,
    /// Bit `8b - 1`: byte `b` is needed.
    pub sent: Signal<Out, Bits<P>>,
    below_top: Constant<Bits<P>>,
    flag_places: Constant<Bits<P>>,
    diff: Signal<Local, Bits<P>>,
    any2: Signal<Local, Bits<P>>,
    any4: Signal<Local, Bits<P>>,
}

impl<const P: usize> Default for SentBytes<P> {
    /// The block for `P` bits.
    ///
    /// # Panics
    ///
    /// If `P` is not a multiple of 8 from 16 to 248 (the length is 5 bits): a
    /// configuration error, not a run-time input.
    fn default() -> Self {
        assert!(P % 8 == 0 && (16..=248).contains(&P), "payload width {P}");
        let mut places = Bits::<P>::default();
        for b in 1..P / 8 {
            places = places.replace_bit(8 * b - 1, true);
        }
        SentBytes {
            payload: Signal::default(),
            sent: Signal::default(),
            below_top: Constant::new(Bits::<P>::mask() >> 1),
            flag_places: Constant::new(places),
            diff: Signal::default(),
            any2: Signal::default(),
            any4: Signal::default(),
        }
    }
}

impl<const P: usize> Logic for SentBytes<P> {
    #[hdl_gen]
    fn update(&mut self) {
        // Bit i of `diff`: payload bit i differs from bit i + 1.
        self.diff.next = (self.payload.val() ^ (self.payload.val() >> 1)) & self.below_top.val();
        // Bit i of `any4`: some of diff bits i ..= i + 3; then of `sent`: i ..= i + 7.
        self.any2.next = self.diff.val() | (self.diff.val() >> 1);
        self.any4.next = self.any2.val() | (self.any2.val() >> 2);
        self.sent.next = (self.any4.val() | (self.any4.val() >> 4)) & self.flag_places.val();
    }
}

/// The compressed length (1 to `P / 8` bytes): one more than the highest byte flagged in
/// `sent` ([`SentBytes`]), 1 when none is.
#[derive(LogicBlock)]
pub struct SentLength<const P: usize> {
    /// Bit `8b - 1`: byte `b` is needed.
    pub sent: Signal<In, Bits<P>>,
    /// Payload bytes after sign compression.
    pub length: Signal<Out, Bits<5>>,
}

impl<const P: usize> Default for SentLength<P> {
    fn default() -> Self {
        SentLength {
            sent: Signal::default(),
            length: Signal::default(),
        }
    }
}

impl<const P: usize> Logic for SentLength<P> {
    #[hdl_gen]
    fn update(&mut self) {
        self.length.next = 1.into();
        // Byte `b - 1` of `sent` holds the flag of byte `b` (its top bit; the others are
        // 0): constant slices, one word each for a simulator. The top byte holds no flag
        // (read so that every bit of `sent` is used; its term is never true).
        for b in 1usize..(P / 8 + 1) {
            if self.sent.val().get_bits::<8>(8 * b - 8).any() {
                self.length.next = (b + 1).to_bits();
            }
        }
    }
}

/// Sign-compressed length (1 to `P / 8` bytes) of a `P`-bit payload: [`SentBytes`] then
/// [`SentLength`].
#[derive(LogicBlock)]
pub struct PayloadLength<const P: usize> {
    /// The payload, sign-extended to `P` bits.
    pub payload: Signal<In, Bits<P>>,
    /// Payload bytes after sign compression.
    pub length: Signal<Out, Bits<5>>,
    flags: SentBytes<P>,
    count: SentLength<P>,
}

impl<const P: usize> Default for PayloadLength<P> {
    /// The block for `P` bits (panics as [`SentBytes::default`]).
    fn default() -> Self {
        PayloadLength {
            payload: Signal::default(),
            length: Signal::default(),
            flags: SentBytes::default(),
            count: SentLength::default(),
        }
    }
}

impl<const P: usize> Logic for PayloadLength<P> {
    #[hdl_gen]
    fn update(&mut self) {
        self.flags.payload.next = self.payload.val();
        self.count.sent.next = self.flags.sent.val();
        self.length.next = self.count.length.val();
    }
}
