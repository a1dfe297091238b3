//! The framer / serializer (`hdl/DESIGN.md` item 6): pops a queue entry when idle and
//! writes its framed bytes one per cycle into the byte FIFO, in one of two formats
//! ([`FrameFormat`]):
//!
//! - `e-trace-encap` (`encapsulation.adoc`), exactly as the model's `EncapWriter`
//!   (`model/spec/src/framing/encap.rs`): an optional synchronisation sequence
//!   (N = 31 + T + S `null.idle` bytes and one `null.alignment`) before the first packet and then
//!   before the first packet after `sync_interval` bytes, the header (length 5, flow 2 = 0,
//!   extend 1), `srcID` bytes, then the little-endian bit string of the rest of `srcID`,
//!   the 2-byte timestamp and the payload. `header.length` = ceil((srcID bits % 8 +
//!   payload bits) / 8) (`_section_packet_length`) where the payload bits are its shortest
//!   sign-extension-equivalent length: the queue's `length` bytes, plus one when the top
//!   `srcID % 8 + 1` bits of the last byte differ.
//! - UltraSoC (Siemens) messages (`payload.adoc`, "Two example transport schemes"), exactly
//!   as the model's `SmiWriter` (`model/spec/src/framing/smi.rs`): the header (length 5 =
//!   the queue's payload bytes, flow 2 = 0b10 instruction trace, timestamp 1), the index
//!   (`src_bits` rounded up to whole bytes), the 2-byte timestamp, the payload bytes; no
//!   synchronisation sequence. With no index and no timestamp this is the reference flow's
//!   `te_inst_raw` format.

use rust_hdl::prelude::*;

use crate::packer::ZeroExtend;
use crate::param::LocalParam;

/// The header and field layout of the framed packets (module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FrameFormat {
    /// `e-trace-encap` (`encapsulation.adoc`).
    #[default]
    Encap,
    /// UltraSoC (Siemens) messages (`payload.adoc`, "Two example transport schemes").
    Smi,
}

/// Message type (`flow`) of UltraSoC instruction trace messages, in the header's bits 6:5
/// (the model's `SMI_FLOW_INSTRUCTION`).
const SMI_FLOW_BITS: u64 = 0b10 << 5;

/// Compile-time framing settings (`encapsulation.adoc`; `payload.adoc`, "Two example
/// transport schemes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FramerConfig {
    /// The header and field layout.
    pub format: FrameFormat,
    /// Width of `srcID` (encap, `trTeSrcBits`) or of the index (smi) in bits, 0-16.
    pub src_bits: u8,
    /// Every packet carries the 2-byte timestamp (encap `header.extend` = 1, smi header
    /// bit 7 = 1).
    pub timestamp: bool,
    /// Bytes between synchronisation sequences as the model's `EncapWriter` counts them
    /// (0 = no sequences; `etrace encode --framing encap` uses 4096; 0 for smi).
    pub sync_interval: u16,
}

impl Default for FramerConfig {
    /// `etrace encode --framing encap`: no srcID, no timestamp, sync every 4096 bytes.
    fn default() -> Self {
        FramerConfig {
            format: FrameFormat::Encap,
            src_bits: 0,
            timestamp: false,
            sync_interval: 4096,
        }
    }
}

impl FramerConfig {
    /// The largest supported sync interval (the byte counter must not wrap).
    pub const MAX_SYNC_INTERVAL: u16 = 65_000;

    /// T: timestamp bytes.
    pub fn timestamp_bytes(&self) -> u8 {
        if self.timestamp {
            2
        } else {
            0
        }
    }

    /// The UltraSoC framing of `etrace encode --framing smi --src-bits B [--timestamp]`.
    pub fn smi(src_bits: u8, timestamp: bool) -> Self {
        FramerConfig {
            format: FrameFormat::Smi,
            src_bits,
            timestamp,
            sync_interval: 0,
        }
    }

    /// (bits of `srcID` in the bit string after the whole bytes, whole bytes of `srcID` or
    /// of the index, the header's bits other than `length`).
    fn layout(&self) -> (u64, u64, u64) {
        let timestamp = if self.timestamp { 0x80 } else { 0 };
        match self.format {
            FrameFormat::Encap => (
                u64::from(self.src_bits % 8),
                u64::from(self.src_bits / 8),
                timestamp,
            ),
            FrameFormat::Smi => (
                0,
                u64::from(self.src_bits.div_ceil(8)),
                SMI_FLOW_BITS | timestamp,
            ),
        }
    }
}

/// Serializer phases: the values of the `phase` register, which the kernel reads and
/// writes as the framer's `phase_*` constants (`localparam`s of its Verilog).
mod phase {
    /// No packet: pops the queue head if there is one.
    pub const IDLE: u64 = 0;
    /// Writing the synchronisation sequence.
    pub const SYNC: u64 = 1;
    /// Writing the header.
    pub const HEADER: u64 = 2;
    /// Writing the whole bytes of `srcID`.
    pub const SOURCE: u64 = 3;
    /// Writing the shifted bit string (rest of srcID, timestamp, payload).
    pub const BODY: u64 = 4;
}

/// The framer / serializer for payloads of P bits (`DESIGN.md` item 6).
#[derive(LogicBlock)]
pub struct Framer<const P: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle, next packet preceded by a sync sequence.
    pub reset: Signal<In, Bit>,
    /// The `srcID` value (low `src_bits` bits used).
    pub src_id: Signal<In, Bits<16>>,
    /// The queue holds an entry.
    pub head_valid: Signal<In, Bit>,
    /// Head payload, sign-extended to P bits.
    pub head_payload: Signal<In, Bits<P>>,
    /// Head payload bytes.
    pub head_length: Signal<In, Bits<5>>,
    /// Head timestamp.
    pub head_timestamp: Signal<In, Bits<16>>,
    /// Pops the queue head in this cycle.
    pub pop: Signal<Out, Bit>,
    /// FIFO occupancy < D at the start of the cycle.
    pub can_write: Signal<In, Bit>,
    /// Writes a byte into the FIFO in this cycle.
    pub wr_en: Signal<Out, Bit>,
    /// The byte.
    pub wr_data: Signal<Out, Bits<8>>,
    /// The byte is the last of its packet.
    pub wr_last: Signal<Out, Bit>,
    src_low: Constant<Bits<4>>,
    src_mask: Constant<Bits<16>>,
    src_bytes: Constant<Bits<6>>,
    src_rest_shift: Constant<Bits<5>>,
    src_rest_mask: Constant<Bits<16>>,
    carry_shift: Constant<Bits<4>>,
    window_shift: Constant<Bits<4>>,
    window_ones: Constant<Bits<8>>,
    header_flags: Constant<Bits<8>>,
    ts_count: Constant<Bits<2>>,
    ts_bytes: Constant<Bits<6>>,
    sync_on: Constant<Bit>,
    sync_threshold: Constant<Bits<16>>,
    sync_nulls: Constant<Bits<6>>,
    overhead: Constant<Bits<16>>,
    msb: Constant<Bits<P>>,
    fill: Constant<Bits<P>>,
    // The serializer phases ([`phase`]). Not a rust-hdl `LogicState` enum: its
    // `localparam`s would be declared in the register's module too, where Verilator's
    // lint reports them unused (UNUSEDPARAM is not waived).
    phase_idle: LocalParam<3, { phase::IDLE }>,
    phase_sync: LocalParam<3, { phase::SYNC }>,
    phase_header: LocalParam<3, { phase::HEADER }>,
    phase_source: LocalParam<3, { phase::SOURCE }>,
    phase_body: LocalParam<3, { phase::BODY }>,
    phase: DFF<Bits<3>>,
    count: DFF<Bits<6>>,
    header: DFF<Bits<8>>,
    ts_left: DFF<Bits<2>>,
    ts_reg: DFF<Bits<16>>,
    pay: DFF<Bits<P>>,
    carry: DFF<Bits<8>>,
    synced: DFF<Bit>,
    since: DFF<Bits<16>>,
    // `since` is above the threshold: compared a cycle after `since` changes (at a pop and
    // at the header; the next pop is at least two cycles after the header), so no compare
    // precedes the adder.
    since_over: DFF<Bit>,
    cur: Signal<Local, Bits<8>>,
    last_byte: Signal<Local, Bits<8>>,
    window: Signal<Local, Bits<8>>,
    length: Signal<Local, Bits<5>>,
    sync_due: Signal<Local, Bit>,
    since_overhead: Signal<Local, Bits<16>>,
    since_header: Signal<Local, Bits<16>>,
    body_count: Signal<Local, Bits<6>>,
    src_rest: Signal<Local, Bits<16>>,
    src_whole: Signal<Local, Bits<16>>,
    length_8: ZeroExtend<5, 8>,
    header_length_16: ZeroExtend<5, 16>,
    header_length_6: ZeroExtend<5, 6>,
}

impl<const P: usize> Framer<P> {
    /// A framer with the given settings. Panics on settings out of range (a design-time
    /// error): `src_bits` > 16, `sync_interval` > 65000 (or not 0 for smi), P not a
    /// multiple of 8 in 16..=240.
    pub fn new(config: FramerConfig) -> Self {
        assert!(config.src_bits <= 16, "srcID width {}", config.src_bits);
        assert!(config.sync_interval <= FramerConfig::MAX_SYNC_INTERVAL);
        assert!(
            config.format == FrameFormat::Encap || config.sync_interval == 0,
            "smi has no synchronisation sequence"
        );
        assert!(P % 8 == 0 && (16..=240).contains(&P), "payload width {P}");
        let (s, whole, flags) = config.layout();
        let t = u64::from(config.timestamp_bytes());
        let mut msb = Bits::<P>::default();
        let mut fill = Bits::<P>::default();
        for i in P - 8..P {
            fill = fill.replace_bit(i, true);
        }
        msb = msb.replace_bit(P - 1, true);
        Framer {
            clock: Default::default(),
            reset: Default::default(),
            src_id: Default::default(),
            head_valid: Default::default(),
            head_payload: Default::default(),
            head_length: Default::default(),
            head_timestamp: Default::default(),
            pop: Default::default(),
            can_write: Default::default(),
            wr_en: Default::default(),
            wr_data: Default::default(),
            wr_last: Default::default(),
            src_low: Constant::new(s.into()),
            src_mask: Constant::new(((1u64 << config.src_bits) - 1).into()),
            src_bytes: Constant::new(whole.into()),
            src_rest_shift: Constant::new((8 * whole).into()),
            src_rest_mask: Constant::new(((1u64 << s) - 1).into()),
            carry_shift: Constant::new((8 - s).into()),
            window_shift: Constant::new((7 - s).into()),
            window_ones: Constant::new(((1u64 << (s + 1)) - 1).into()),
            header_flags: Constant::new(flags.into()),
            ts_count: Constant::new(t.into()),
            ts_bytes: Constant::new(t.into()),
            sync_on: Constant::new(config.sync_interval != 0),
            // since >= interval as since > interval - 1 (0 when off: a non-constant compare).
            sync_threshold: Constant::new(u64::from(config.sync_interval.saturating_sub(1)).into()),
            sync_nulls: Constant::new((31 + t + whole).into()),
            overhead: Constant::new((1 + whole + t).into()),
            msb: Constant::new(msb),
            fill: Constant::new(fill),
            phase_idle: Default::default(),
            phase_sync: Default::default(),
            phase_header: Default::default(),
            phase_source: Default::default(),
            phase_body: Default::default(),
            phase: Default::default(),
            count: Default::default(),
            header: Default::default(),
            ts_left: Default::default(),
            ts_reg: Default::default(),
            pay: Default::default(),
            carry: Default::default(),
            synced: Default::default(),
            since: Default::default(),
            since_over: Default::default(),
            cur: Default::default(),
            last_byte: Default::default(),
            window: Default::default(),
            length: Default::default(),
            sync_due: Default::default(),
            since_overhead: Default::default(),
            since_header: Default::default(),
            body_count: Default::default(),
            src_rest: Default::default(),
            src_whole: Default::default(),
            length_8: Default::default(),
            header_length_16: Default::default(),
            header_length_6: Default::default(),
        }
    }
}

// The tests of `ts_left` nest in the test of the constant `ts_count` (a constant test folds
// away in synthesis, a joined one makes a cell): clippy would join them.
#[allow(clippy::collapsible_if)]
impl<const P: usize> Logic for Framer<P> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, phase, count, header, ts_left, ts_reg, pay, carry, synced, since,
            since_over
        );
        self.pop.next = false;
        self.wr_en.next = false;
        self.wr_data.next = 0.into();
        self.wr_last.next = false;
        // header.length of the head entry: one more byte when srcID's partial bits push
        // payload bits out of its last byte.
        self.last_byte.next = 0.into();
        for i in 0..(P / 8) {
            if self.head_length.val().index() == i + 1 {
                self.last_byte.next = self.head_payload.val().get_bits::<8>(8 * i);
            }
        }
        self.window.next = self.last_byte.val() >> self.window_shift.val();
        self.length.next = self.head_length.val();
        if self.src_low.val().any()
            & (self.window.val() != 0)
            & (self.window.val() != self.window_ones.val())
        {
            self.length.next = self.head_length.val() + 1;
        }
        self.since_over.d.next = self.since.q.val() > self.sync_threshold.val();
        self.sync_due.next = self.sync_on.val() & (!self.synced.q.val() | self.since_over.q.val());
        // `since` plus the packet's overhead (restarting from 0 after a sync sequence: the
        // choice follows the adder) and plus the header's length.
        self.since_overhead.next = self.since.q.val() + self.overhead.val();
        self.since_header.next = self.since.q.val() + self.header_length_16.wide.val();
        self.length_8.narrow.next = self.length.val();
        self.header_length_16.narrow.next = self.header.q.val().get_bits::<5>(0);
        self.header_length_6.narrow.next = self.header.q.val().get_bits::<5>(0);
        self.body_count.next = self.header_length_6.wide.val() + self.ts_bytes.val() - 1;
        self.src_rest.next =
            (self.src_id.val() >> self.src_rest_shift.val()) & self.src_rest_mask.val();
        // The whole bytes: srcID's low bytes, or the index (only its `src_bits` bits).
        self.src_whole.next = self.src_id.val() & self.src_mask.val();
        // The next byte of the shifted bit string: timestamp bytes, then payload bytes.
        // Every test of `ts_left` sits inside a test of the constant `ts_count`: without
        // timestamps synthesis then drops `ts_left`, `ts_reg` and, unread, the queue's
        // timestamps and the timestamp counter (`ts_left` stays 0, but only an induction
        // shows it). Yosys folds a test of a constant while it reads the Verilog, so with
        // timestamps the logic is the one without the outer test (`hdl/DESIGN.md`,
        // "Timestamp logic only with timestamps").
        self.cur.next = self.pay.q.val().get_bits::<8>(0);
        if self.ts_count.val().any() {
            if self.ts_left.q.val().any() {
                self.cur.next = self.ts_reg.q.val().get_bits::<8>(0);
            }
        }
        if self.phase.q.val() == self.phase_idle.val() {
            if self.head_valid.val() {
                self.pop.next = true;
                self.header.d.next = self.length_8.wide.val() | self.header_flags.val();
                self.ts_left.d.next = self.ts_count.val();
                self.ts_reg.d.next = self.head_timestamp.val();
                self.pay.d.next = self.head_payload.val();
                // (src_rest < 2^7: the high byte is 0.)
                self.carry.d.next =
                    self.src_rest.val().get_bits::<8>(0) | self.src_rest.val().get_bits::<8>(8);
                // The packet's length is added when the header is written (the next pop is
                // later), so the length is not on one path with the adder.
                self.since.d.next = self.since_overhead.val();
                if self.sync_due.val() {
                    self.since.d.next = self.overhead.val();
                }
                if self.sync_due.val() {
                    self.synced.d.next = true;
                    self.count.d.next = self.sync_nulls.val();
                    self.phase.d.next = self.phase_sync.val();
                } else {
                    self.phase.d.next = self.phase_header.val();
                }
            }
        } else if self.phase.q.val() == self.phase_sync.val() {
            if self.can_write.val() {
                self.wr_en.next = true;
                if self.count.q.val() == 0 {
                    self.wr_data.next = 0x80.into();
                    self.phase.d.next = self.phase_header.val();
                } else {
                    self.count.d.next = self.count.q.val() - 1;
                }
            }
        } else if self.phase.q.val() == self.phase_header.val() {
            if self.can_write.val() {
                self.wr_en.next = true;
                self.wr_data.next = self.header.q.val();
                self.since.d.next = self.since_header.val();
                if self.src_bytes.val().any() {
                    self.count.d.next = self.src_bytes.val() - 1;
                    self.phase.d.next = self.phase_source.val();
                } else {
                    self.count.d.next = self.body_count.val();
                    self.phase.d.next = self.phase_body.val();
                }
            }
        } else if self.phase.q.val() == self.phase_source.val() {
            if self.can_write.val() {
                self.wr_en.next = true;
                self.wr_data.next = self.src_whole.val().get_bits::<8>(0);
                if self.count.q.val() == 0 {
                    if self.src_bytes.val() == 2 {
                        self.wr_data.next = self.src_whole.val().get_bits::<8>(8);
                    }
                    self.count.d.next = self.body_count.val();
                    self.phase.d.next = self.phase_body.val();
                } else {
                    self.count.d.next = self.count.q.val() - 1;
                }
            }
        } else if (self.phase.q.val() == self.phase_body.val()) & self.can_write.val() {
            self.wr_en.next = true;
            self.wr_data.next = (self.cur.val() << self.src_low.val()) | self.carry.q.val();
            self.carry.d.next = self.cur.val() >> self.carry_shift.val();
            // The payload shift is in both branches of the constant test, so each branch
            // is the code without it.
            if self.ts_count.val().any() {
                if self.ts_left.q.val().any() {
                    self.ts_left.d.next = self.ts_left.q.val() - 1;
                    self.ts_reg.d.next = self.ts_reg.q.val() >> 8;
                } else {
                    self.pay.d.next = self.pay.q.val() >> 8;
                    if (self.pay.q.val() & self.msb.val()).any() {
                        self.pay.d.next = (self.pay.q.val() >> 8) | self.fill.val();
                    }
                }
            } else {
                self.pay.d.next = self.pay.q.val() >> 8;
                if (self.pay.q.val() & self.msb.val()).any() {
                    self.pay.d.next = (self.pay.q.val() >> 8) | self.fill.val();
                }
            }
            if self.count.q.val() == 0 {
                self.wr_last.next = true;
                self.phase.d.next = self.phase_idle.val();
            } else {
                self.count.d.next = self.count.q.val() - 1;
            }
        }
        if self.reset.val() {
            self.phase.d.next = self.phase_idle.val();
            self.synced.d.next = false;
            self.since.d.next = 0.into();
            self.since_over.d.next = false;
            self.ts_left.d.next = 0.into();
        }
    }
}
