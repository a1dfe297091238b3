//! Arm AMBA Trace Bus transport (`fragmentCodeAndTransport.adoc`, "ATB transport"): the
//! encapsulated stream of `e-trace-encap` with a 0-bit `srcID` (the source is on ATID)
//! carried in ATDATA beats of 8-128 bits. Each packet starts a new beat; a beat carries
//! ATBYTES + 1 valid bytes, byte 0 in `ATDATA[7:0]`.
//!
//! As a file or byte stream, ATB is a listing of one beat per line
//! ([`AtbConfig::format_beat`]); [`AtbWriter`] writes it, [`AtbStream`] deframes it in
//! pieces (or beats given one by one), [`deframe_atb`] deframes beats held in memory.

use std::collections::{BTreeMap, VecDeque};

use super::encap::{EncapConfig, EncapItem, EncapStream};
use super::event::{Deframed, Deframer, FrameEvent, Framer, Outgoing, Position, PositionUnit};
use super::registry::{Framing, FramingSettings, SettingError};
use super::FrameError;
use crate::formats::{shown, MAX_LINE_BYTES};

/// One ATB transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtbBeat {
    /// ATID: the trace source, 7 bits (0x00 and 0x70-0x7f are reserved).
    pub atid: u8,
    /// ATBYTES: number of valid bytes minus one.
    pub atbytes: u8,
    /// ATDATA: valid bytes from bit 0 up; the rest zero.
    pub atdata: u128,
}

impl AtbBeat {
    /// The valid bytes, in stream order.
    pub fn bytes(&self) -> Vec<u8> {
        let n = usize::from(self.atbytes) + 1;
        self.atdata.to_le_bytes()[..n.min(16)].to_vec()
    }
}

/// ATB transport parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtbConfig {
    /// ATDATA width in bytes: 1, 2, 4, 8 or 16.
    pub data_bytes: u8,
    /// The inner encapsulation (its `src_bits` must be 0).
    pub encap: EncapConfig,
}

impl Default for AtbConfig {
    /// A 32-bit bus, no timestamps, no type field.
    fn default() -> Self {
        AtbConfig {
            data_bytes: 4,
            encap: EncapConfig::default(),
        }
    }
}

/// Whether an ATID may carry trace (ATB: 0x00 and 0x70-0x7f are reserved).
pub fn atid_is_valid(atid: u8) -> bool {
    (0x01..0x70).contains(&atid)
}

/// One item of an ATB trace: a deframed encap item of one ATID, the index of the beat
/// holding its first byte, and its offset within that ATID's byte stream (inside `item`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtbItem {
    /// The source.
    pub atid: u8,
    /// Index of the beat that holds the item's first byte (or the offending beat).
    pub beat: usize,
    /// The item; offsets in it are offsets in this ATID's byte stream.
    pub item: Result<EncapItem, FrameError>,
}

impl AtbConfig {
    /// A configuration for an ATDATA width in bits (8, 16, 32, 64 or 128).
    pub fn with_data_bits(data_bits: u32) -> Result<AtbConfig, FrameError> {
        let cfg = AtbConfig {
            data_bytes: (data_bits / 8) as u8,
            ..AtbConfig::default()
        };
        if data_bits % 8 != 0 {
            return Err(FrameError::BadConfig {
                what: "ATB data width in bits",
                value: u64::from(data_bits),
            });
        }
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks the bus width and the inner encapsulation.
    pub fn validate(&self) -> Result<(), FrameError> {
        if ![1, 2, 4, 8, 16].contains(&self.data_bytes) {
            return Err(FrameError::BadConfig {
                what: "ATB data width in bytes",
                value: u64::from(self.data_bytes),
            });
        }
        if self.encap.src_bits != 0 {
            return Err(FrameError::BadConfig {
                what: "srcID bits over ATB (the source is on ATID)",
                value: u64::from(self.encap.src_bits),
            });
        }
        self.encap.validate()
    }

    /// Splits a byte stream of one source into beats (the last may be partial).
    pub fn beats(&self, bytes: &[u8], atid: u8) -> Result<Vec<AtbBeat>, FrameError> {
        self.validate()?;
        if !atid_is_valid(atid) {
            return Err(FrameError::BadAtid { beat: 0, atid });
        }
        Ok(bytes
            .chunks(usize::from(self.data_bytes))
            .map(|chunk| {
                let mut le = [0u8; 16];
                le[..chunk.len()].copy_from_slice(chunk);
                AtbBeat {
                    atid,
                    atbytes: (chunk.len() - 1) as u8,
                    atdata: u128::from_le_bytes(le),
                }
            })
            .collect())
    }

    /// Frames one payload: an encap packet (no srcID) in beats on `atid`.
    pub fn frame(
        &self,
        payload: &[u8],
        atid: u8,
        timestamp: Option<u64>,
    ) -> Result<Vec<AtbBeat>, FrameError> {
        self.validate()?;
        let packet = self.encap.frame(payload, 0, timestamp)?;
        self.beats(&packet, atid)
    }

    /// One beat as a line: `ATID=0x05 ATBYTES=3 ATDATA=0x00007309` (ATDATA with the bus
    /// width's number of hex digits).
    pub fn format_beat(&self, beat: &AtbBeat) -> String {
        format!(
            "ATID={:#04x} ATBYTES={} ATDATA=0x{:0width$x}",
            beat.atid,
            beat.atbytes,
            beat.atdata,
            width = 2 * usize::from(self.data_bytes)
        )
    }

    /// Parses a line written by [`AtbConfig::format_beat`].
    pub fn parse_beat(&self, line: &str) -> Result<AtbBeat, FrameError> {
        let bad = |what| FrameError::BadBeatText {
            text: shown(line.as_bytes()),
            what,
        };
        let mut atid = None;
        let mut atbytes = None;
        let mut atdata = None;
        for word in line.split_whitespace() {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| bad("expected KEY=VALUE"))?;
            let number = match value
                .strip_prefix("0x")
                .or_else(|| value.strip_prefix("0X"))
            {
                Some(hex) => u128::from_str_radix(hex, 16),
                None => value.parse::<u128>(),
            }
            .map_err(|_| bad("value is not a number"))?;
            let slot = match key {
                "ATID" => {
                    u8::try_from(number).map_err(|_| bad("ATID too large"))?;
                    &mut atid
                }
                "ATBYTES" => {
                    u8::try_from(number).map_err(|_| bad("ATBYTES too large"))?;
                    &mut atbytes
                }
                "ATDATA" => {
                    if self.data_bytes < 16 && number >> (8 * u32::from(self.data_bytes)) != 0 {
                        return Err(bad("ATDATA wider than the bus (--atb-bits)"));
                    }
                    &mut atdata
                }
                _ => return Err(bad("unknown key (expected ATID, ATBYTES, ATDATA)")),
            };
            if slot.replace(number).is_some() {
                return Err(bad("a key given twice"));
            }
        }
        // Each fits its field (checked above).
        let (atid, atbytes) = (atid.map(|v| v as u8), atbytes.map(|v| v as u8));
        Ok(AtbBeat {
            atid: atid.ok_or_else(|| bad("missing ATID"))?,
            atbytes: atbytes.ok_or_else(|| bad("missing ATBYTES"))?,
            atdata: atdata.ok_or_else(|| bad("missing ATDATA"))?,
        })
    }
}

/// The inverse of framing: collects the valid bytes of each ATID into its own stream and
/// deframes each stream as encap (assuming it starts at a packet boundary). Beats with a
/// reserved ATID or an ATBYTES too large for the bus are reported and skipped. Items are
/// ordered by the beat holding their first byte ([`AtbStream`] given every beat).
pub fn deframe_atb(beats: &[AtbBeat], config: &AtbConfig) -> Vec<AtbItem> {
    let mut stream = AtbStream::new(*config, true);
    for beat in beats {
        stream.take_beat(*beat);
    }
    stream.end();
    let mut items = Vec::new();
    stream.release(true, &mut |entry| {
        if let Entry::Item(item) = entry {
            items.push(item);
        }
    });
    items
}

/// What [`AtbStream`] holds back until it knows its place.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    /// An item of a beat.
    Item(AtbItem),
    /// A line of the listing that is no beat.
    Line {
        /// Line number (1-based).
        line: u64,
        /// Index the next beat gets.
        beat: usize,
        /// Why it does not parse.
        error: FrameError,
    },
}

impl Entry {
    /// The event of an entry, if it is a packet or an error.
    fn event(self) -> Option<FrameEvent> {
        match self {
            Entry::Item(AtbItem { atid, beat, item }) => {
                let at = |offset: usize| Position::Beat {
                    beat: beat as u64,
                    atid,
                    offset: offset as u64,
                };
                match item {
                    Ok(EncapItem::Packet(p)) => Some(FrameEvent::Packet(Deframed {
                        at: at(p.offset),
                        source: u16::from(atid),
                        timestamp: p.timestamp,
                        payload: p.payload,
                    })),
                    Ok(_) => None,
                    Err(error) => Some(FrameEvent::Error {
                        at: at(error.offset().unwrap_or(0)),
                        error,
                    }),
                }
            }
            Entry::Line { line, beat, error } => Some(FrameEvent::Error {
                at: Position::Line {
                    line,
                    beat: beat as u64,
                },
                error,
            }),
        }
    }
}

/// The encap stream of one ATID and the beats its bytes came from.
#[derive(Debug, Clone)]
struct AtidStream {
    deframer: EncapStream,
    /// (stream offset of a beat's first byte, beat index), for the bytes that may still
    /// be named by an item.
    origin: VecDeque<(usize, usize)>,
}

impl AtidStream {
    /// The beat holding the byte at `offset` (the last beat past the end).
    fn beat_of(&self, offset: usize) -> usize {
        let after = self.origin.partition_point(|&(start, _)| start <= offset);
        self.origin[after.saturating_sub(1)].1
    }

    /// The beat of the first byte that may still be named by an item, if any.
    fn pending_beat(&self) -> Option<usize> {
        self.deframer.pending_offset().map(|o| self.beat_of(o))
    }

    /// Forgets the beats before the first byte that may still be named.
    fn prune(&mut self) {
        let keep = self
            .deframer
            .pending_offset()
            .unwrap_or(self.deframer.len());
        while self.origin.len() > 1 && self.origin[1].0 <= keep {
            self.origin.pop_front();
        }
    }
}

/// Push deframer of ATB: a listing of beats in pieces of any size ([`Deframer`]) or beats
/// one by one ([`AtbStream::push_beat`]). The bytes of each ATID are deframed as an encap
/// stream as they arrive; events come out in the order of the beat holding their first
/// byte (in stream order within a beat), each as soon as no event of an earlier beat can
/// still come: an incomplete packet, or a search for a synchronisation sequence, of one
/// ATID holds back the events of the beats after its start. A line of the listing that
/// is no beat is an error in its place among the beats.
#[derive(Debug, Clone)]
pub struct AtbStream {
    config: AtbConfig,
    /// A bad configuration, reported once (as the only event).
    config_error: Option<FrameError>,
    /// Each ATID's stream starts at a packet header (else with a search).
    synced: bool,
    streams: BTreeMap<u8, AtidStream>,
    /// Beats taken so far.
    beats: usize,
    /// Lines of the listing taken so far, and the bytes of the line not yet complete.
    lines: u64,
    line: Vec<u8>,
    /// Entries held back, by (beat, arrival).
    held: BTreeMap<(usize, u64), Entry>,
    arrivals: u64,
    done: bool,
}

impl AtbStream {
    /// A deframer whose ATID streams each start at a packet header (`synced`) or with a
    /// search for a synchronisation sequence.
    pub fn new(config: AtbConfig, synced: bool) -> AtbStream {
        AtbStream {
            config_error: config.validate().err(),
            config,
            synced,
            streams: BTreeMap::new(),
            beats: 0,
            lines: 0,
            line: Vec::new(),
            held: BTreeMap::new(),
            arrivals: 0,
            done: false,
        }
    }

    /// Takes the next beat; appends the events it releases.
    pub fn push_beat(&mut self, beat: AtbBeat, events: &mut Vec<FrameEvent>) {
        self.take_beat(beat);
        self.release_events(false, events);
    }

    fn hold(&mut self, beat: usize, entry: Entry) {
        self.held.insert((beat, self.arrivals), entry);
        self.arrivals += 1;
    }

    /// Reports a bad configuration once; whether deframing goes on.
    fn usable(&mut self) -> bool {
        if let Some(error) = self.config_error.take() {
            self.done = true;
            let item = AtbItem {
                atid: 0,
                beat: 0,
                item: Err(error),
            };
            self.hold(0, Entry::Item(item));
        }
        !self.done
    }

    fn take_beat(&mut self, beat: AtbBeat) {
        if !self.usable() {
            return;
        }
        let index = self.beats;
        self.beats += 1;
        let error = if !atid_is_valid(beat.atid) {
            Some(FrameError::BadAtid {
                beat: index,
                atid: beat.atid,
            })
        } else if beat.atbytes >= self.config.data_bytes {
            Some(FrameError::BadAtbytes {
                beat: index,
                atbytes: beat.atbytes,
                data_bytes: self.config.data_bytes,
            })
        } else {
            None
        };
        if let Some(error) = error {
            let item = AtbItem {
                atid: beat.atid,
                beat: index,
                item: Err(error),
            };
            return self.hold(index, Entry::Item(item));
        }
        let (encap, synced) = (self.config.encap, self.synced);
        let stream = self.streams.entry(beat.atid).or_insert_with(|| AtidStream {
            deframer: EncapStream::with_start(encap, synced),
            origin: VecDeque::new(),
        });
        stream.origin.push_back((stream.deframer.len(), index));
        let mut items = Vec::new();
        stream
            .deframer
            .push_items(&beat.bytes(), &mut |item| items.push(item));
        self.place(beat.atid, items);
    }

    /// Holds the items of one ATID's stream under the beats of their first bytes.
    fn place(&mut self, atid: u8, items: Vec<Result<EncapItem, FrameError>>) {
        let Some(stream) = self.streams.get_mut(&atid) else {
            return;
        };
        let placed: Vec<(usize, AtbItem)> = items
            .into_iter()
            .map(|item| {
                let offset = match &item {
                    Ok(EncapItem::Packet(p)) => p.offset,
                    Ok(EncapItem::NullIdle { offset, .. })
                    | Ok(EncapItem::NullAlignment { offset, .. })
                    | Ok(EncapItem::Synced { offset, .. }) => *offset,
                    Err(e) => e.offset().unwrap_or(0),
                };
                let beat = stream.beat_of(offset);
                (beat, AtbItem { atid, beat, item })
            })
            .collect();
        stream.prune();
        for (beat, item) in placed {
            self.hold(beat, Entry::Item(item));
        }
    }

    /// Takes one complete line of the listing (with its line ending, if any; cut after
    /// one byte more than [`MAX_LINE_BYTES`]).
    fn take_line(&mut self, bytes: &[u8]) {
        self.lines += 1;
        let line = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.trim_ascii().is_empty() || !self.usable() {
            return;
        }
        let bad = |what| {
            Err(FrameError::BadBeatText {
                text: shown(line),
                what,
            })
        };
        let parsed = if line.len() > MAX_LINE_BYTES {
            bad("line longer than 64 KiB (not a beat listing?)")
        } else {
            match std::str::from_utf8(line) {
                Ok(text) => self.config.parse_beat(text),
                Err(_) => bad("not text (not a beat listing?)"),
            }
        };
        match parsed {
            Ok(beat) => self.take_beat(beat),
            Err(error) => {
                let entry = Entry::Line {
                    line: self.lines,
                    beat: self.beats,
                    error,
                };
                self.hold(self.beats, entry);
            }
        }
    }

    /// The end of the listing: the last line, then the end of every ATID's stream.
    fn end(&mut self) {
        if self.done {
            return;
        }
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.take_line(&line);
        }
        self.usable();
        self.end_streams(true);
    }

    /// The end of every ATID's stream (`at_end`), or the reader stopped early.
    fn end_streams(&mut self, at_end: bool) {
        let atids: Vec<u8> = self.streams.keys().copied().collect();
        for atid in atids {
            let mut items = Vec::new();
            if let Some(s) = self.streams.get_mut(&atid) {
                let mut emit = |item| items.push(item);
                if at_end {
                    s.deframer.finish_items(&mut emit);
                } else {
                    s.deframer.stop_items(&mut emit);
                }
            }
            self.place(atid, items);
        }
        self.done = true;
    }

    /// Passes on, in order, the entries no later item can come before (all of them at
    /// the end).
    fn release(&mut self, all: bool, emit: &mut impl FnMut(Entry)) {
        let limit = if all {
            None
        } else {
            self.streams
                .values()
                .filter_map(AtidStream::pending_beat)
                .min()
        };
        while let Some(entry) = self.held.first_entry() {
            if limit.is_some_and(|beat| entry.key().0 > beat) {
                break;
            }
            emit(entry.remove());
        }
    }

    fn release_events(&mut self, all: bool, events: &mut Vec<FrameEvent>) {
        self.release(all, &mut |entry| events.extend(entry.event()));
    }
}

impl Deframer for AtbStream {
    fn push(&mut self, bytes: &[u8], events: &mut Vec<FrameEvent>) {
        for piece in bytes.split_inclusive(|&b| b == b'\n') {
            // One byte more than the longest line is enough to refuse a longer one, and
            // memory stays bounded on a stream that never ends a line.
            let room = (MAX_LINE_BYTES + 1).saturating_sub(self.line.len());
            self.line.extend_from_slice(&piece[..piece.len().min(room)]);
            if piece.ends_with(b"\n") {
                let line = std::mem::take(&mut self.line);
                self.take_line(&line);
            }
        }
        self.release_events(false, events);
    }

    fn finish(&mut self, events: &mut Vec<FrameEvent>) {
        self.end();
        self.release_events(true, events);
    }

    /// Passes on what is complete; an incomplete line or packet is left undecoded.
    fn stop(&mut self, events: &mut Vec<FrameEvent>) {
        self.end_streams(false);
        self.line.clear();
        self.release_events(true, events);
    }

    fn pending(&self) -> usize {
        self.line.len()
            + self
                .streams
                .values()
                .map(|s| s.deframer.pending())
                .sum::<usize>()
    }
}

/// Frames payloads into a beat listing, one [`AtbConfig::format_beat`] line per beat.
#[derive(Debug, Clone, Copy)]
pub struct AtbWriter {
    /// The bus and the inner encapsulation.
    pub config: AtbConfig,
}

impl Framer for AtbWriter {
    /// Appends the beat lines of one packet on ATID `source`; returns the bytes the beats
    /// occupy on the bus (beats times the bus width).
    fn write_packet(&mut self, packet: &Outgoing, out: &mut Vec<u8>) -> Result<u64, FrameError> {
        let atid = u8::try_from(packet.source).map_err(|_| FrameError::ValueTooWide {
            field: "ATID",
            value: u64::from(packet.source),
            bits: 7,
        })?;
        let beats = self.config.frame(packet.payload, atid, packet.timestamp)?;
        for beat in &beats {
            out.extend_from_slice(self.config.format_beat(beat).as_bytes());
            out.push(b'\n');
        }
        Ok(beats.len() as u64 * u64::from(self.config.data_bytes))
    }

    fn timestamp_bits(&self) -> u32 {
        8 * u32::from(self.config.encap.timestamp_bytes)
    }
}

/// The settings of `--framing atb` (`docs/cli.md`).
impl Framing for AtbConfig {
    fn from_settings(s: &FramingSettings) -> Result<Self, SettingError> {
        if s.src_bits != 0 {
            return Err(SettingError::new(
                "--src-bits",
                "atb carries the source on ATID: --src-bits must be 0",
            ));
        }
        let mut cfg = AtbConfig::with_data_bits(s.atb_bits)
            .map_err(|e| SettingError::new("--atb-bits", e))?;
        cfg.encap = EncapConfig::from_settings(s)?;
        Ok(cfg)
    }

    fn deframer(&self, synced: bool) -> Box<dyn Deframer> {
        Box::new(AtbStream::new(*self, synced))
    }

    /// Checks that `--src-id` is an ATID that may carry trace.
    fn framer(&self, s: &FramingSettings) -> Result<Box<dyn Framer>, SettingError> {
        if let Some(id) = s.src_id {
            match u8::try_from(id) {
                Err(_) => {
                    return Err(SettingError::new(
                        "--src-id",
                        format!("ATID {id} is too large"),
                    ))
                }
                Ok(atid) if !atid_is_valid(atid) => {
                    return Err(SettingError::new(
                        "--src-id",
                        format!("ATID {atid:#04x} is reserved (trace ATIDs are 0x01-0x6f)"),
                    ))
                }
                Ok(_) => {}
            }
        }
        Ok(Box::new(AtbWriter { config: *self }))
    }

    /// ATID 1.
    fn default_source(&self) -> u16 {
        1
    }

    fn position_unit(&self) -> PositionUnit {
        PositionUnit::Beat
    }
}
