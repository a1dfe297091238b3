//! The payload as 64-bit words (`hdl/DESIGN.md`, "Packer -> queue"): the packer places
//! every field that can cross a word boundary with a [`Place`] block, the sign extension
//! with a [`Fill`] block, and joins the words into the `P`-bit payload with [`JoinWords`].
//! Every operator of the packer then has 64-bit operands: Verilator evaluates it with
//! native words instead of its wide-vector helpers (co-simulation speed, issue 27), and the
//! logic is the same AND-OR of (layout bit AND field bit) terms.
//!
//! The three blocks are tiny custom-Verilog blocks (as [`super::ZeroExtend`]): rust-hdl's
//! `#[hdl_gen]` has neither concatenation nor part-selects at run-time offsets, and the
//! offsets depend on the configuration.

use etrace_spec::bitfield::mask;
use rust_hdl::prelude::*;

/// Number of 64-bit words of a payload (the widest payload, 248 bits, takes four).
pub const WORDS: usize = 4;

/// Bits `lo..hi` of word `k` (`0..64`) of a payload of `total` bits, intersected with bits
/// `from..to` of the payload; `None` when they do not meet.
fn word_span(k: usize, from: usize, to: usize, total: usize) -> Option<(usize, usize)> {
    let lo = from.max(64 * k);
    let hi = to.min(64 * k + 64).min(total);
    (lo < hi).then_some((lo, hi))
}

/// Drives the four word outputs of a block with `words`, or marks them driven (`None`: the
/// block's `connect`).
fn set_words(
    outputs: [&mut Signal<Out, Bits<64>>; WORDS],
    words: impl Into<Option<[Bits<64>; WORDS]>>,
) {
    match words.into() {
        Some(words) => outputs.into_iter().zip(words).for_each(|(o, w)| o.next = w),
        None => outputs.into_iter().for_each(|o| o.connect()),
    }
}

/// Width of [`Place`]'s `tail` port (only its low `tail_bits` are placed).
pub const TAIL_BITS: usize = 16;

/// `value` (`N` bits, all of them) placed at bit `offset` of a `total`-bit payload, followed
/// by the low `tail_bits` bits of `tail` (0 unless built with [`Place::with_tail`]), as the
/// payload's four 64-bit words; bits at and above `total` are dropped.
#[derive(LogicBlock)]
pub struct Place<const N: usize> {
    /// The field value.
    pub value: Signal<In, Bits<N>>,
    /// The fields after it (formats 0 / 1 / 2: `updiscon`, `irreport`, `irdepth`), low bit
    /// first; bits from `tail_bits` up are not read.
    pub tail: Signal<In, Bits<TAIL_BITS>>,
    /// Payload bits 0-63.
    pub w0: Signal<Out, Bits<64>>,
    /// Payload bits 64-127.
    pub w1: Signal<Out, Bits<64>>,
    /// Payload bits 128-191.
    pub w2: Signal<Out, Bits<64>>,
    /// Payload bits 192-255.
    pub w3: Signal<Out, Bits<64>>,
    _offset: usize,
    _total: usize,
    _tail_bits: usize,
}

impl<const N: usize> Place<N> {
    /// The block that places `N` bits at bit `offset` of a `total`-bit payload (`tail` is
    /// not read).
    ///
    /// # Panics
    ///
    /// If `N` is 0 or above 64, or `total` above 256 (configuration errors).
    pub fn new(offset: usize, total: usize) -> Self {
        Self::with_tail(offset, total, 0)
    }

    /// As [`Place::new`], and the low `tail_bits` bits of `tail` at bit `offset + N`.
    ///
    /// # Panics
    ///
    /// As [`Place::new`], or if `tail_bits` is above [`TAIL_BITS`].
    pub fn with_tail(offset: usize, total: usize, tail_bits: usize) -> Self {
        assert!((1..=64).contains(&N) && total <= 64 * WORDS && tail_bits <= TAIL_BITS);
        Place {
            value: Signal::default(),
            tail: Signal::default(),
            w0: Signal::default(),
            w1: Signal::default(),
            w2: Signal::default(),
            w3: Signal::default(),
            _offset: offset,
            _total: total,
            _tail_bits: tail_bits,
        }
    }

    /// Width of what is placed: the value and the tail.
    fn width(&self) -> usize {
        N + self._tail_bits
    }

    /// Word `k`'s piece: (payload bits `lo..hi`) or `None`.
    fn span(&self, k: usize) -> Option<(usize, usize)> {
        word_span(k, self._offset, self._offset + self.width(), self._total)
    }

    fn word(&self, k: usize, v: u128) -> Bits<64> {
        match self.span(k) {
            Some((lo, hi)) => {
                let piece = (v >> (lo - self._offset)) as u64 & mask((hi - lo) as u32);
                (piece << (lo - 64 * k)).into()
            }
            None => 0.into(),
        }
    }
}

impl<const N: usize> Logic for Place<N> {
    fn update(&mut self) {
        let tail = self.tail.val().to_u64() as u128 & ((1u128 << self._tail_bits) - 1);
        let v = self.value.val().to_u64() as u128 | (tail << N);
        let words = [0, 1, 2, 3].map(|k| self.word(k, v));
        set_words(
            [&mut self.w0, &mut self.w1, &mut self.w2, &mut self.w3],
            words,
        );
    }

    fn connect(&mut self) {
        set_words(
            [&mut self.w0, &mut self.w1, &mut self.w2, &mut self.w3],
            None,
        );
    }

    fn hdl(&self) -> Verilog {
        let width = self.width();
        let mut code = if self._tail_bits == 0 {
            format!("wire [{}:0] placed = value;\n", width - 1)
        } else {
            format!(
                "wire [{}:0] placed = {{tail[{}:0], value}};\n",
                width - 1,
                self._tail_bits - 1
            )
        };
        code.push_str("always @(*) begin\n");
        // Every placed bit is read by some word unless it lies above the payload.
        let mut read = 0;
        for k in 0..WORDS {
            let rhs = match self.span(k) {
                None => "64'd0".to_string(),
                Some((lo, hi)) => {
                    read += hi - lo;
                    let mut parts = Vec::new();
                    if 64 * k + 64 > hi {
                        parts.push(format!("{}'d0", 64 * k + 64 - hi));
                    }
                    parts.push(format!(
                        "placed[{}:{}]",
                        hi - 1 - self._offset,
                        lo - self._offset
                    ));
                    if lo > 64 * k {
                        parts.push(format!("{}'d0", lo - 64 * k));
                    }
                    format!("{{{}}}", parts.join(", "))
                }
            };
            code.push_str(&format!("    w{k} = {rhs};\n"));
        }
        code.push_str("end\n");
        let mut unused = Vec::new();
        if read < width {
            unused.push("placed".to_string());
        }
        if self._tail_bits < TAIL_BITS {
            unused.push(format!("tail[{}:{}]", TAIL_BITS - 1, self._tail_bits));
        }
        if !unused.is_empty() {
            code.push_str(&format!(
                "wire _unused_ok = &{{1'b0, {}, 1'b0}};\n",
                unused.join(", ")
            ));
        }
        Verilog::Custom(code)
    }
}

/// The sign extension of a payload as its four 64-bit words: with `sign` set, ones from
/// the bit after the selected layout's last field (its start from [`Fill::new`]) up to
/// bit `total - 1`; zeros otherwise, and for a layout without a start.
#[derive(LogicBlock)]
pub struct Fill<const L: usize> {
    /// The one-hot layout ([`super::layout::bit`]).
    pub layout: Signal<In, Bits<L>>,
    /// The selected layout's last field bit.
    pub sign: Signal<In, Bit>,
    /// Payload bits 0-63.
    pub w0: Signal<Out, Bits<64>>,
    /// Payload bits 64-127.
    pub w1: Signal<Out, Bits<64>>,
    /// Payload bits 128-191.
    pub w2: Signal<Out, Bits<64>>,
    /// Payload bits 192-255.
    pub w3: Signal<Out, Bits<64>>,
    _starts: [Option<usize>; L],
    _total: usize,
}

impl<const L: usize> Fill<L> {
    /// The block for a `total`-bit payload whose layout bit `l` sign-extends from bit
    /// `starts[l]` (`None`: that layout never does).
    ///
    /// # Panics
    ///
    /// If `total` is above 256 (a configuration error).
    pub fn new(starts: [Option<usize>; L], total: usize) -> Self {
        assert!(total <= 64 * WORDS);
        Fill {
            layout: Signal::default(),
            sign: Signal::default(),
            w0: Signal::default(),
            w1: Signal::default(),
            w2: Signal::default(),
            w3: Signal::default(),
            _starts: starts,
            _total: total,
        }
    }

    /// Word `k` of the ones of layout `l`.
    fn layout_ones(&self, l: usize, k: usize) -> u64 {
        self._starts[l]
            .and_then(|from| word_span(k, from, self._total, self._total))
            .map_or(0, |(lo, hi)| mask((hi - lo) as u32) << (lo - 64 * k))
    }

    fn word(&self, k: usize) -> Bits<64> {
        let layout = self.layout.val();
        let mut w = 0;
        if self.sign.val() {
            for l in 0..L {
                if layout.get_bit(l) {
                    w |= self.layout_ones(l, k);
                }
            }
        }
        w.into()
    }
}

impl<const L: usize> Logic for Fill<L> {
    fn update(&mut self) {
        let words = [0, 1, 2, 3].map(|k| self.word(k));
        set_words(
            [&mut self.w0, &mut self.w1, &mut self.w2, &mut self.w3],
            words,
        );
    }

    fn connect(&mut self) {
        set_words(
            [&mut self.w0, &mut self.w1, &mut self.w2, &mut self.w3],
            None,
        );
    }

    fn hdl(&self) -> Verilog {
        let mut code = String::from("always @(*) begin\n");
        for k in 0..WORDS {
            let terms: Vec<String> = (0..L)
                .map(|l| {
                    format!(
                        "({{64{{layout[{l}]}}}} & 64'h{:016x})",
                        self.layout_ones(l, k)
                    )
                })
                .collect();
            code.push_str(&format!(
                "    w{k} = {{64{{sign}}}} & ({});\n",
                terms.join(" | ")
            ));
        }
        code.push_str("end\n");
        Verilog::Custom(code)
    }
}

/// The low `P` bits of four 64-bit words, word 0 least significant.
#[derive(LogicBlock, Default)]
pub struct JoinWords<const P: usize> {
    /// Payload bits 0-63.
    pub w0: Signal<In, Bits<64>>,
    /// Payload bits 64-127.
    pub w1: Signal<In, Bits<64>>,
    /// Payload bits 128-191.
    pub w2: Signal<In, Bits<64>>,
    /// Payload bits 192-255.
    pub w3: Signal<In, Bits<64>>,
    /// The payload.
    pub payload: Signal<Out, Bits<P>>,
}

impl<const P: usize> Logic for JoinWords<P> {
    fn update(&mut self) {
        let words = [self.w0.val(), self.w1.val(), self.w2.val(), self.w3.val()];
        let mut payload = Bits::<P>::default();
        for (k, w) in words.into_iter().enumerate() {
            if 64 * k < P {
                payload = payload | (bit_cast::<P, 64>(w) << (64 * k) as u64);
            }
        }
        self.payload.next = payload;
    }

    fn connect(&mut self) {
        self.payload.connect();
    }

    fn hdl(&self) -> Verilog {
        assert!((1..=64 * WORDS).contains(&P), "payload width {P}");
        let names = ["w0", "w1", "w2", "w3"];
        let mut parts = Vec::new();
        let mut unused = Vec::new();
        for (k, name) in names.iter().enumerate() {
            match word_span(k, 0, P, P) {
                Some((lo, hi)) if hi - lo == 64 => parts.push(name.to_string()),
                Some((lo, hi)) => {
                    parts.push(format!("{name}[{}:0]", hi - lo - 1));
                    unused.push(format!("{name}[63:{}]", hi - lo));
                }
                None => unused.push(name.to_string()),
            }
        }
        parts.reverse();
        let mut code = format!("always @(*) payload = {{{}}};\n", parts.join(", "));
        if !unused.is_empty() {
            code.push_str(&format!(
                "wire _unused_ok = &{{1'b0, {}, 1'b0}};\n",
                unused.join(", ")
            ));
        }
        Verilog::Custom(code)
    }
}
