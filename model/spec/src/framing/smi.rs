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
//! The format has no synchronisation sequence. [`SmiDeframer`] resynchronises by
//! heuristics: it tries each following byte as a header and accepts the first one that
//! starts a chain of three plausible messages (length 1-31, message type instruction or
//! data trace, index within its width, message inside the stream), or a shorter chain
//! that ends exactly at the end of the stream.

use super::FrameError;

/// Message type (`flow`) of instruction trace messages (reference flow `msg_type_t`).
pub const SMI_FLOW_INSTRUCTION: u8 = 0b10;
/// Message type (`flow`) of data trace messages.
pub const SMI_FLOW_DATA: u8 = 0b11;

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

    /// Parses the message at `offset`: its total size, or why it cannot be one.
    fn parse_at(&self, data: &[u8], offset: usize) -> Result<(SmiPacket, usize), FrameError> {
        let header = data[offset];
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
        let ib = self.index_bytes();
        let size = 1 + ib + if has_ts { 2 } else { 0 } + length;
        let available = data.len() - offset;
        if size > available {
            return Err(FrameError::Truncated {
                offset,
                needed: size,
                available,
            });
        }
        let mut at = offset + 1;
        let mut index_le = [0u8; 2];
        index_le[..ib].copy_from_slice(&data[at..at + ib]);
        let index = u16::from_le_bytes(index_le);
        at += ib;
        if u32::from(index) >> self.index_bits != 0 {
            return Err(FrameError::IndexTooWide {
                offset,
                index,
                bits: self.index_bits,
            });
        }
        let timestamp = if has_ts {
            let ts = u16::from_le_bytes([data[at], data[at + 1]]);
            at += 2;
            Some(ts)
        } else {
            None
        };
        let packet = SmiPacket {
            offset,
            flow,
            index,
            timestamp,
            payload: data[at..at + length].to_vec(),
        };
        Ok((packet, size))
    }

    /// Whether a chain of up to `depth` messages parses from `offset` (ending exactly at
    /// the end of the stream if it is shorter).
    fn plausible(&self, data: &[u8], offset: usize, depth: usize) -> bool {
        let mut at = offset;
        for _ in 0..depth {
            match self.parse_at(data, at) {
                Ok((_, size)) => at += size,
                Err(_) => return false,
            }
            if at == data.len() {
                return true;
            }
        }
        true
    }
}

/// Streaming deframer over a Siemens message stream. After an error it resynchronises
/// by the heuristics described in the module documentation; a message cut off by the end
/// of the stream ends the iteration with [`FrameError::Truncated`], leaving
/// [`SmiDeframer::position`] at its header.
#[derive(Debug, Clone)]
pub struct SmiDeframer<'a> {
    data: &'a [u8],
    config: SmiConfig,
    pos: usize,
    synced: bool,
    done: bool,
}

/// Messages that must parse in a row to accept a resynchronisation point.
const RESYNC_CHAIN: usize = 3;

impl<'a> SmiDeframer<'a> {
    /// A deframer for a stream whose first byte is a header.
    pub fn new(data: &'a [u8], config: SmiConfig) -> SmiDeframer<'a> {
        SmiDeframer {
            data,
            config,
            pos: 0,
            synced: true,
            done: false,
        }
    }

    /// A deframer for a stream entered at an arbitrary byte.
    pub fn new_unsynced(data: &'a [u8], config: SmiConfig) -> SmiDeframer<'a> {
        SmiDeframer {
            synced: false,
            ..SmiDeframer::new(data, config)
        }
    }

    /// Offset of the first byte not yet consumed.
    pub fn position(&self) -> usize {
        self.pos
    }

    fn hunt(&mut self) -> Option<Result<SmiItem, FrameError>> {
        let start = self.pos;
        for p in start..self.data.len() {
            if self.config.plausible(self.data, p, RESYNC_CHAIN) {
                self.pos = p;
                self.synced = true;
                return Some(Ok(SmiItem::Synced {
                    offset: p,
                    skipped: p - start,
                }));
            }
        }
        self.pos = self.data.len();
        self.done = true;
        Some(Err(FrameError::NoSync {
            offset: start,
            len: self.data.len() - start,
        }))
    }
}

impl Iterator for SmiDeframer<'_> {
    type Item = Result<SmiItem, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.pos >= self.data.len() {
            return None;
        }
        if let Err(e) = self.config.validate() {
            self.done = true;
            return Some(Err(e));
        }
        if !self.synced {
            return self.hunt();
        }
        match self.config.parse_at(self.data, self.pos) {
            Ok((packet, size)) => {
                self.pos += size;
                Some(Ok(SmiItem::Packet(packet)))
            }
            Err(e @ FrameError::Truncated { .. }) => {
                self.done = true;
                Some(Err(e))
            }
            Err(e) => {
                self.pos += 1;
                self.synced = false;
                Some(Err(e))
            }
        }
    }
}
