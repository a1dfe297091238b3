//! Siemens (UltraSoC) messaging framing, as used by the reference flow's `te_inst_raw`
//! files (`payload.adoc`, "Two example transport schemes"; the earlier spec's figure
//! summarised in `seeds/002_*.txt`):
//!
//! | group | size |
//! |---|---|
//! | header | 1 byte: length:5 (payload bytes, 1-31), flow:2 (message type: 0b10 instruction trace, 0b11 data trace), timestamp:1 |
//! | index | `index_bits` (0-16) rounded up to whole bytes, little endian, source of the packet |
//! | timestamp | 2 bytes little endian, when the header's timestamp bit is 1 |
//! | payload | `length` bytes, carried as given |
//!
//! With `index_bits` 0 and no timestamps the stream is the reference flow's `te_inst_raw`
//! format (header `0x40 | length`, then the payload).
//!
//! The index precedes the timestamp, as in the spec's figure; the `riscv-etrace` crate
//! (0.10) reads the timestamp first, so the two agree only when one of them is absent.
//!
//! The format has no synchronisation sequence. [`SmiStream`] resynchronises by
//! heuristics: it tries each following byte as a header and accepts the first one that
//! starts a chain of three plausible messages (length 1-31, message type instruction or
//! data trace, index within its width, message inside the stream), or a shorter chain
//! that ends exactly at the end of the stream; pushed in pieces, it waits for the bytes
//! (or the end of the stream) that decide.
//!
//! [`SmiStream`] deframes pushed pieces of a stream, [`SmiDeframer`] a stream held in
//! memory, [`SmiWriter`] frames payloads into a stream.

use super::byte_stream::{BoundaryScan, ByteDeframer, Hunt, PacketFormat, WholeStream};
use super::event::{Deframed, Deframer, Framer, Outgoing, Position, PositionUnit};
use super::registry::{check_source_fits, Framing, FramingSettings, SettingError};
use super::FrameError;

/// Message type (`flow`) of instruction trace messages (reference flow `msg_type_t`).
pub const SMI_FLOW_INSTRUCTION: u8 = 0b10;
/// Message type (`flow`) of data trace messages.
pub const SMI_FLOW_DATA: u8 = 0b11;
/// Length of a message's timestamp in bytes: fixed (16 bits).
pub const SMI_TIMESTAMP_BYTES: u8 = 2;

/// Siemens messaging parameters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SmiConfig {
    /// Width of the index field in bits, 0-16; it occupies whole bytes.
    pub index_bits: u8,
}

/// A deframed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmiPacket {
    /// Byte offset of its header.
    pub offset: usize,
    /// Message type (`flow`): [`SMI_FLOW_INSTRUCTION`] or [`SMI_FLOW_DATA`].
    pub flow: u8,
    /// The index (source) field.
    pub index: u16,
    /// The 16-bit timestamp, when present.
    pub timestamp: Option<u16>,
    /// The payload bytes.
    pub payload: Vec<u8>,
}

/// One item of a Siemens message stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmiItem {
    /// A message.
    Packet(SmiPacket),
    /// The deframer resumes at `offset` after skipping `skipped` bytes.
    Synced {
        /// Offset of the header it resumes at.
        offset: usize,
        /// Bytes skipped.
        skipped: usize,
    },
}

impl SmiConfig {
    /// Bytes of the index field.
    pub fn index_bytes(&self) -> usize {
        usize::from(self.index_bits).div_ceil(8)
    }

    /// Checks the index width.
    pub fn validate(&self) -> Result<(), FrameError> {
        if self.index_bits > 16 {
            return Err(FrameError::BadConfig {
                what: "index_bits",
                value: u64::from(self.index_bits),
            });
        }
        Ok(())
    }

    /// Frames an instruction trace payload.
    pub fn frame(
        &self,
        payload: &[u8],
        index: u16,
        timestamp: Option<u16>,
    ) -> Result<Vec<u8>, FrameError> {
        self.frame_with_flow(SMI_FLOW_INSTRUCTION, payload, index, timestamp)
    }

    /// Frames a payload with the given message type (0-3).
    pub fn frame_with_flow(
        &self,
        flow: u8,
        payload: &[u8],
        index: u16,
        timestamp: Option<u16>,
    ) -> Result<Vec<u8>, FrameError> {
        self.validate()?;
        if flow > 3 {
            return Err(FrameError::BadConfig {
                what: "flow",
                value: u64::from(flow),
            });
        }
        if payload.is_empty() {
            return Err(FrameError::EmptyInput);
        }
        if payload.len() > 31 {
            return Err(FrameError::PayloadTooLong {
                bits: 8 * payload.len(),
                max: 8 * 31,
            });
        }
        if u32::from(index) >> self.index_bits != 0 {
            return Err(FrameError::ValueTooWide {
                field: "index",
                value: u64::from(index),
                bits: u32::from(self.index_bits),
            });
        }
        let header = payload.len() as u8 | flow << 5 | u8::from(timestamp.is_some()) << 7;
        let mut out = vec![header];
        out.extend_from_slice(&index.to_le_bytes()[..self.index_bytes()]);
        if let Some(ts) = timestamp {
            out.extend_from_slice(&ts.to_le_bytes());
        }
        out.extend_from_slice(payload);
        Ok(out)
    }

    /// The size of the message whose header is `header` at `offset`, or why the header
    /// cannot start one.
    fn size(&self, header: u8, offset: usize) -> Result<usize, FrameError> {
        let length = usize::from(header & 0x1f);
        let flow = (header >> 5) & 3;
        let has_ts = header & 0x80 != 0;
        if length == 0 {
            return Err(FrameError::BadHeader {
                offset,
                header,
                reason: "payload length 0",
            });
        }
        if flow != SMI_FLOW_INSTRUCTION && flow != SMI_FLOW_DATA {
            return Err(FrameError::BadHeader {
                offset,
                header,
                reason: "message type is neither instruction (0b10) nor data (0b11) trace",
            });
        }
        Ok(1 + self.index_bytes() + if has_ts { 2 } else { 0 } + length)
    }

    /// Reads a whole message (its [`SmiConfig::size`] bytes) at `offset`.
    fn parse(&self, message: &[u8], offset: usize) -> Result<SmiPacket, FrameError> {
        let header = message[0];
        let ib = self.index_bytes();
        let mut index_le = [0u8; 2];
        index_le[..ib].copy_from_slice(&message[1..1 + ib]);
        let index = u16::from_le_bytes(index_le);
        if u32::from(index) >> self.index_bits != 0 {
            return Err(FrameError::IndexTooWide {
                offset,
                index,
                bits: self.index_bits,
            });
        }
        let mut at = 1 + ib;
        let timestamp = (header & 0x80 != 0).then(|| {
            at += 2;
            u16::from_le_bytes([message[at - 2], message[at - 1]])
        });
        Ok(SmiPacket {
            offset,
            flow: (header >> 5) & 3,
            index,
            timestamp,
            payload: message[at..].to_vec(),
        })
    }

    /// Whether a chain of up to `depth` messages parses from the start of `window`
    /// (ending exactly at the end of the stream if it is shorter); `None` while that
    /// depends on bytes not yet received.
    fn plausible(&self, window: &[u8], depth: usize, at_end: bool) -> Option<bool> {
        let mut at = 0;
        for _ in 0..depth {
            if at == window.len() {
                return at_end.then_some(true);
            }
            let Ok(size) = self.size(window[at], at) else {
                return Some(false);
            };
            if at + size > window.len() {
                return at_end.then_some(false);
            }
            if self.parse(&window[at..at + size], at).is_err() {
                return Some(false);
            }
            at += size;
        }
        Some(true)
    }
}

/// Messages that must parse in a row to accept a resynchronisation point.
const RESYNC_CHAIN: usize = 3;

/// A Siemens message stream as [`ByteDeframer`] reads it.
#[derive(Debug, Clone)]
pub struct SmiFormat(SmiConfig);

impl PacketFormat for SmiFormat {
    type Config = SmiConfig;
    type Item = SmiItem;

    fn new(config: SmiConfig) -> Self {
        SmiFormat(config)
    }

    fn validate(&self) -> Result<(), FrameError> {
        self.0.validate()
    }

    fn size(&self, header: u8, offset: usize) -> Result<usize, FrameError> {
        self.0.size(header, offset)
    }

    fn parse(&self, packet: &[u8], offset: usize) -> Result<SmiItem, FrameError> {
        self.0.parse(packet, offset).map(SmiItem::Packet)
    }

    fn synced(offset: usize, skipped: usize) -> SmiItem {
        SmiItem::Synced { offset, skipped }
    }

    fn start_hunt(&mut self) {}

    /// The first byte that starts a plausible chain of messages (module documentation).
    fn hunt(&mut self, window: &[u8], at_end: bool) -> Hunt {
        for p in 0..window.len() {
            match self.0.plausible(&window[p..], RESYNC_CHAIN, at_end) {
                Some(true) => return Hunt::Found(p),
                Some(false) => {}
                None => return Hunt::Pending(p),
            }
        }
        Hunt::Pending(window.len())
    }

    /// The chain of [`RESYNC_CHAIN`] messages after the boundary, each at most 36 bytes
    /// (header, 2 index bytes, 2 timestamp bytes, 31 payload bytes).
    fn hunt_lookahead(&self) -> usize {
        RESYNC_CHAIN * 36
    }

    fn hunt_ends_in_sync(&self) -> bool {
        false
    }

    fn deframed(item: SmiItem) -> Option<Deframed> {
        match item {
            SmiItem::Packet(p) => Some(Deframed {
                at: Position::Byte(p.offset as u64),
                source: p.index,
                timestamp: p.timestamp.map(u64::from),
                payload: p.payload,
            }),
            SmiItem::Synced { .. } => None,
        }
    }
}

/// Push deframer of a Siemens message stream. After an error it resynchronises by the
/// heuristics of the module documentation; a message cut off by the end of the stream
/// is reported as [`FrameError::Truncated`] at its header.
pub type SmiStream = ByteDeframer<SmiFormat>;

/// The items of a Siemens message stream held in memory ([`SmiStream`] given the whole
/// stream).
pub type SmiDeframer = WholeStream<SmiFormat>;

/// Frames instruction trace payloads as Siemens messages, with 16-bit timestamps when
/// `timestamps` is set.
#[derive(Debug, Clone, Copy)]
pub struct SmiWriter {
    /// The message layout.
    pub config: SmiConfig,
    /// Whether the messages carry timestamps (for [`Framer::timestamp_bits`]).
    pub timestamps: bool,
}

impl Framer for SmiWriter {
    fn write_packet(&mut self, packet: &Outgoing, out: &mut Vec<u8>) -> Result<u64, FrameError> {
        let timestamp = packet
            .timestamp
            .map(|t| {
                u16::try_from(t).map_err(|_| FrameError::ValueTooWide {
                    field: "timestamp",
                    value: t,
                    bits: 16,
                })
            })
            .transpose()?;
        let message = self
            .config
            .frame(packet.payload, packet.source, timestamp)?;
        out.extend_from_slice(&message);
        Ok(message.len() as u64)
    }

    fn timestamp_bits(&self) -> u32 {
        if self.timestamps {
            16
        } else {
            0
        }
    }
}

/// The settings of `--framing smi` (`docs/cli.md`).
impl Framing for SmiConfig {
    fn from_settings(s: &FramingSettings) -> Result<Self, SettingError> {
        let cfg = SmiConfig {
            index_bits: s.src_bits,
        };
        cfg.validate()
            .map_err(|e| SettingError::new("--src-bits", e))?;
        Ok(cfg)
    }

    fn deframer(&self, synced: bool) -> Box<dyn Deframer> {
        Box::new(SmiStream::with_start(*self, synced))
    }

    fn boundary_scan(&self) -> Option<Box<dyn BoundaryScan>> {
        Some(Box::new(SmiStream::new(*self)))
    }

    fn deframer_at(&self, offset: usize) -> Option<Box<dyn Deframer>> {
        Some(Box::new(SmiStream::at_offset(*self, offset)))
    }

    /// Checks that `--src-id` fits the index.
    fn framer(&self, s: &FramingSettings) -> Result<Box<dyn Framer>, SettingError> {
        check_source_fits(s, self.index_bits, "index")?;
        Ok(Box::new(SmiWriter {
            config: *self,
            timestamps: s.timestamp,
        }))
    }

    fn position_unit(&self) -> PositionUnit {
        PositionUnit::Byte
    }
}
