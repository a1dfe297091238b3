//! Unformatted Trace & Diagnostic Data Packet Encapsulation for RISC-V, v1.0
//! (`e-trace-encap/encapsulation.adoc`, `e-trace-specifics.adoc`).
//!
//! A normal packet is `header` (length:5, flow:2, extend:1), `srcID` (0-16 bits),
//! `timestamp` (T bytes when extend = 1), then the payload group: `type` (0-8 bits) and
//! `trace_payload`; all groups are one little-endian bit string, and `header.length` =
//! ceil((#bits(payload) + #bits(srcID) % 8) / 8) (`_section_packet_length`). The E-Trace
//! payload is carried in its shortest sign-extension-equivalent bit length, so a
//! deframed payload may be shorter than the one framed (its sign extension is the same),
//! and padding bits repeat the payload's last bit.
//!
//! A null byte has its 5 LSBs zero. A synchronisation sequence is N = 31 + T + S
//! `null.idle` packets and one `null.alignment` (`_section_null_encapsulation`); after at
//! least N + 1 null bytes the first non-null byte starts a normal packet, which is how
//! [`EncapStream`] finds packet boundaries in a stream entered at an arbitrary byte and
//! resynchronises after an error.
//!
//! [`EncapStream`] deframes pushed pieces of a stream, [`EncapDeframer`] a stream held in
//! memory, [`EncapWriter`] frames payloads into a stream.

use super::byte_stream::{BoundaryScan, ByteDeframer, Hunt, PacketFormat, WholeStream};
use super::event::{Deframed, Deframer, Framer, Outgoing, PositionUnit};
use super::registry::{check_source_fits, Framing, FramingSettings, SettingError};
use super::FrameError;
use crate::packet::{significant_bits, tail_bits, BitReader, BitWriter};

/// Maximum `header.length` (5-bit field).
const MAX_LENGTH: usize = 31;

/// Encapsulation parameters (`encapsulation.adoc`; `e-trace-specifics.adoc` for `type`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EncapConfig {
    /// Width of `srcID` in bits, 0-16 (`trTeSrcBits`).
    pub src_bits: u8,
    /// Timestamp length T in bytes, 0-8 (`trTsWidth` / 8); timestamps are possible only
    /// when T > 0.
    pub timestamp_bytes: u8,
    /// Width of the `type` field, 0-8 (0 when only instruction trace is supported).
    pub type_bits: u8,
    /// The `type` value of the packets this side frames (E-Trace with a 1-bit type:
    /// 0 = instruction trace).
    pub type_value: u8,
    /// The `flow` indicator of framed normal packets, 0-3.
    pub flow: u8,
}

/// A deframed normal packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncapPacket {
    /// Byte offset of its header in the stream.
    pub offset: usize,
    /// `header.flow`.
    pub flow: u8,
    /// `srcID` (0 when the width is 0).
    pub src_id: u16,
    /// `timestamp`, present when `header.extend` is 1.
    pub timestamp: Option<u64>,
    /// `type` (0 when the width is 0).
    pub packet_type: u8,
    /// `trace_payload`, byte aligned, last byte sign-extended.
    pub payload: Vec<u8>,
}

/// One item of an encapsulated stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncapItem {
    /// A normal packet.
    Packet(EncapPacket),
    /// A `null.idle` packet (header 0 with extend = 0).
    NullIdle {
        /// Byte offset.
        offset: usize,
        /// `header.flow`.
        flow: u8,
    },
    /// A `null.alignment` packet (length 0, extend = 1).
    NullAlignment {
        /// Byte offset.
        offset: usize,
        /// `header.flow`.
        flow: u8,
    },
    /// The deframer found a synchronisation sequence and resumes at `offset` after
    /// skipping `skipped` bytes (the null bytes of the sequence included).
    Synced {
        /// Offset of the first packet after the sequence.
        offset: usize,
        /// Bytes skipped while searching.
        skipped: usize,
    },
}

impl EncapConfig {
    /// Checks every setting's range.
    pub fn validate(&self) -> Result<(), FrameError> {
        let checks: [(&'static str, u8, u8); 5] = [
            ("src_bits", self.src_bits, 16),
            ("timestamp_bytes", self.timestamp_bytes, 8),
            ("type_bits", self.type_bits, 8),
            ("flow", self.flow, 3),
            (
                "type_value",
                self.type_value,
                if self.type_bits >= 8 {
                    u8::MAX
                } else {
                    (1u8 << self.type_bits) - 1
                },
            ),
        ];
        for (what, value, max) in checks {
            if value > max {
                return Err(FrameError::BadConfig {
                    what,
                    value: u64::from(value),
                });
            }
        }
        Ok(())
    }

    /// S: whole bytes of `srcID` (`_section_packet_length`).
    pub fn src_id_bytes(&self) -> usize {
        usize::from(self.src_bits / 8)
    }

    /// N = 31 + T + S: the longest run of null bytes inside a normal packet
    /// ("Synchronization").
    pub fn max_null_run(&self) -> usize {
        MAX_LENGTH + usize::from(self.timestamp_bytes) + self.src_id_bytes()
    }

    /// A synchronisation sequence for an unframed stream: N `null.idle` packets then one
    /// `null.alignment` (flow 0).
    pub fn sync_sequence(&self) -> Vec<u8> {
        let mut seq = vec![0u8; self.max_null_run()];
        seq.push(0x80);
        seq
    }

    /// Frames one E-Trace payload as a normal packet with this `srcID` and, if given, a
    /// timestamp (which sets `header.extend`).
    pub fn frame(
        &self,
        payload: &[u8],
        src_id: u16,
        timestamp: Option<u64>,
    ) -> Result<Vec<u8>, FrameError> {
        self.validate()?;
        if payload.is_empty() {
            return Err(FrameError::EmptyInput);
        }
        if !crate::bitfield::fits(u64::from(src_id), u32::from(self.src_bits)) {
            return Err(FrameError::ValueTooWide {
                field: "srcID",
                value: u64::from(src_id),
                bits: u32::from(self.src_bits),
            });
        }
        let ts_bits = 8 * u32::from(self.timestamp_bytes);
        if let Some(ts) = timestamp {
            if ts_bits == 0 || (ts_bits < 64 && ts >> ts_bits != 0) {
                return Err(FrameError::ValueTooWide {
                    field: "timestamp",
                    value: ts,
                    bits: ts_bits,
                });
            }
        }
        let payload_bits = significant_bits(payload);
        let partial = usize::from(self.src_bits % 8) + usize::from(self.type_bits);
        let length = (partial + payload_bits).div_ceil(8);
        if length > MAX_LENGTH {
            return Err(FrameError::PayloadTooLong {
                bits: partial + payload_bits,
                max: 8 * MAX_LENGTH,
            });
        }
        let mut body = BitWriter::new();
        body.push(u64::from(src_id), u32::from(self.src_bits));
        if let Some(ts) = timestamp {
            body.push(ts, ts_bits);
        }
        body.push(u64::from(self.type_value), u32::from(self.type_bits));
        for (i, &byte) in payload.iter().enumerate().take(payload_bits.div_ceil(8)) {
            body.push(u64::from(byte), (payload_bits - 8 * i).min(8) as u32);
        }
        let header = length as u8 | (self.flow & 3) << 5 | u8::from(timestamp.is_some()) << 7;
        let mut out = vec![header];
        out.extend(body.into_sign_extended_bytes());
        Ok(out)
    }
}

/// Frames packets into an unframed encap stream, inserting a synchronisation sequence
/// before the first packet and then whenever `sync_interval` bytes have been written
/// since the last one (0 = never).
#[derive(Debug, Clone)]
pub struct EncapWriter {
    config: EncapConfig,
    sync_interval: usize,
    since_sync: Option<usize>,
    out: Vec<u8>,
}

impl EncapWriter {
    /// A writer with the given configuration and synchronisation interval in bytes.
    pub fn new(config: EncapConfig, sync_interval: usize) -> EncapWriter {
        EncapWriter {
            config,
            sync_interval,
            since_sync: None,
            out: Vec::new(),
        }
    }

    /// Appends one normal packet (preceded by a sync sequence when one is due).
    pub fn write(
        &mut self,
        payload: &[u8],
        src_id: u16,
        timestamp: Option<u64>,
    ) -> Result<(), FrameError> {
        let mut out = std::mem::take(&mut self.out);
        let packet = Outgoing {
            payload,
            source: src_id,
            timestamp,
        };
        let written = self.write_packet(&packet, &mut out);
        self.out = out;
        written.map(|_| ())
    }

    /// The stream written so far.
    pub fn bytes(&self) -> &[u8] {
        &self.out
    }

    /// The stream.
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }
}

impl Framer for EncapWriter {
    /// Appends one normal packet to `out` (preceded by a sync sequence when one is due;
    /// the stream kept by [`EncapWriter::write`] is left alone).
    fn write_packet(&mut self, packet: &Outgoing, out: &mut Vec<u8>) -> Result<u64, FrameError> {
        let framed = self
            .config
            .frame(packet.payload, packet.source, packet.timestamp)?;
        let start = out.len();
        if self.sync_interval > 0 && self.since_sync.is_none_or(|n| n >= self.sync_interval) {
            out.extend(self.config.sync_sequence());
            self.since_sync = Some(0);
        }
        self.since_sync = self.since_sync.map(|n| n + framed.len());
        out.extend(framed);
        Ok((out.len() - start) as u64)
    }

    fn timestamp_bits(&self) -> u32 {
        8 * u32::from(self.config.timestamp_bytes)
    }
}

/// An encap stream as [`ByteDeframer`] reads it: packet sizes from the header, and the
/// search for N + 1 null bytes ("Synchronization"), counted across pieces.
#[derive(Debug, Clone)]
pub struct EncapFormat {
    config: EncapConfig,
    /// While searching: null bytes seen in a row.
    null_run: usize,
}

impl PacketFormat for EncapFormat {
    type Config = EncapConfig;
    type Item = EncapItem;

    fn new(config: EncapConfig) -> Self {
        EncapFormat {
            config,
            null_run: 0,
        }
    }

    fn validate(&self) -> Result<(), FrameError> {
        self.config.validate()
    }

    /// One byte for a null packet, else 1 + S + T (with extend) + `header.length`.
    fn size(&self, header: u8, offset: usize) -> Result<usize, FrameError> {
        let length = usize::from(header & 0x1f);
        let extend = header & 0x80 != 0;
        if length == 0 {
            return Ok(1);
        }
        if extend && self.config.timestamp_bytes == 0 {
            return Err(FrameError::BadHeader {
                offset,
                header,
                reason: "extend is 1 but the timestamp width is 0",
            });
        }
        let ts_bytes = if extend {
            usize::from(self.config.timestamp_bytes)
        } else {
            0
        };
        Ok(1 + self.config.src_id_bytes() + ts_bytes + length)
    }

    fn parse(&self, packet: &[u8], offset: usize) -> Result<EncapItem, FrameError> {
        let header = packet[0];
        let flow = (header >> 5) & 3;
        let extend = header & 0x80 != 0;
        if header & 0x1f == 0 {
            return Ok(if extend {
                EncapItem::NullAlignment { offset, flow }
            } else {
                EncapItem::NullIdle { offset, flow }
            });
        }
        let cfg = self.config;
        let ts_bytes = if extend {
            usize::from(cfg.timestamp_bytes)
        } else {
            0
        };
        let body = &packet[1..];
        let lead = usize::from(cfg.src_bits) + 8 * ts_bytes + usize::from(cfg.type_bits);
        if lead >= 8 * body.len() {
            return Err(FrameError::EmptyPayload { offset });
        }
        let mut r = BitReader::new(body);
        let src_id = r.read(u32::from(cfg.src_bits)) as u16;
        let timestamp = extend.then(|| r.read(8 * ts_bytes as u32));
        let packet_type = r.read(u32::from(cfg.type_bits)) as u8;
        let mut payload = tail_bits(body, lead);
        if lead % 8 != 0 {
            crate::packet::sign_compress(&mut payload);
        }
        Ok(EncapItem::Packet(EncapPacket {
            offset,
            flow,
            src_id,
            timestamp,
            packet_type,
            payload,
        }))
    }

    /// The first payload byte without reading the packet's fields: the bits after
    /// `srcID`, timestamp and `type` (errors as [`PacketFormat::parse`]: a null packet
    /// carries no payload, a packet whose fields leave no payload bit is an error).
    fn peek(&self, packet: &[u8], offset: usize) -> Result<Option<Option<u8>>, FrameError> {
        let header = packet[0];
        if header & 0x1f == 0 {
            return Ok(None);
        }
        let body = &packet[1..];
        let ts_bytes = if header & 0x80 != 0 {
            usize::from(self.config.timestamp_bytes)
        } else {
            0
        };
        let cfg = self.config;
        let lead = usize::from(cfg.src_bits) + 8 * ts_bytes + usize::from(cfg.type_bits);
        if lead >= 8 * body.len() {
            return Err(FrameError::EmptyPayload { offset });
        }
        let from = lead / 8;
        let two = &body[from..(from + 2).min(body.len())];
        Ok(Some(tail_bits(two, lead % 8).first().copied()))
    }

    fn synced(offset: usize, skipped: usize) -> EncapItem {
        EncapItem::Synced { offset, skipped }
    }

    fn start_hunt(&mut self) {
        self.null_run = 0;
    }

    /// N + 1 null bytes followed by a non-null byte, which starts a packet.
    fn hunt(&mut self, window: &[u8], _at_end: bool) -> Hunt {
        let need = self.config.max_null_run() + 1;
        for (i, &b) in window.iter().enumerate() {
            if b & 0x1f == 0 {
                self.null_run += 1;
            } else if self.null_run >= need {
                self.null_run = 0;
                return Hunt::Found(i);
            } else {
                self.null_run = 0;
            }
        }
        Hunt::Pending(window.len())
    }

    /// None: the boundary is the first non-null byte after the null run.
    fn hunt_lookahead(&self) -> usize {
        0
    }

    fn hunt_ends_in_sync(&self) -> bool {
        self.null_run > self.config.max_null_run()
    }

    fn deframed(item: EncapItem) -> Option<Deframed> {
        match item {
            EncapItem::Packet(p) => Some(Deframed {
                at: super::event::Position::Byte(p.offset as u64),
                source: p.src_id,
                timestamp: p.timestamp,
                payload: p.payload,
            }),
            _ => None,
        }
    }
}

/// Push deframer of an encap stream: yields items in stream order, whatever the pieces.
/// After an error it searches for the next synchronisation sequence (N + 1 null bytes)
/// and resumes after it; a packet cut off by the end of the stream is reported as
/// [`FrameError::Truncated`] at its header.
pub type EncapStream = ByteDeframer<EncapFormat>;

/// The items of an encap stream held in memory ([`EncapStream`] given the whole stream).
pub type EncapDeframer = WholeStream<EncapFormat>;

/// The settings of `--framing encap` (`docs/cli.md`).
impl Framing for EncapConfig {
    fn from_settings(s: &FramingSettings) -> Result<Self, SettingError> {
        if s.timestamp && s.timestamp_bytes == 0 {
            return Err(SettingError::new(
                "--timestamp-bytes",
                "--timestamp needs --timestamp-bytes of 1-8",
            ));
        }
        let cfg = EncapConfig {
            src_bits: s.src_bits,
            timestamp_bytes: if s.timestamp { s.timestamp_bytes } else { 0 },
            ..EncapConfig::default()
        };
        cfg.validate()
            .map_err(|e| SettingError::new("framing options", e))?;
        Ok(cfg)
    }

    fn deframer(&self, synced: bool) -> Box<dyn Deframer> {
        Box::new(EncapStream::with_start(*self, synced))
    }

    fn boundary_scan(&self) -> Option<Box<dyn BoundaryScan>> {
        Some(Box::new(EncapStream::new(*self)))
    }

    fn deframer_at(&self, offset: usize) -> Option<Box<dyn Deframer>> {
        Some(Box::new(EncapStream::at_offset(*self, offset)))
    }

    /// Checks that `--src-id` fits `srcID`.
    fn framer(&self, s: &FramingSettings) -> Result<Box<dyn Framer>, SettingError> {
        check_source_fits(s, self.src_bits, "srcID")?;
        Ok(Box::new(EncapWriter::new(*self, s.sync_interval)))
    }

    fn position_unit(&self) -> PositionUnit {
        PositionUnit::Byte
    }
}
