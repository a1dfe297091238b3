//! Cutting a stream of payload events into pieces at format 3 subformat 0 synchronisation
//! packets (`payload.adoc` "Format 3 subformat 0"), each at least a given size, and
//! keeping the `ioptions` of the latest support packet (`sec:format33`) that unpack the
//! packets after it, as the decoder does. [`super::split_bytes`] cuts the framed bytes
//! instead, for framings whose packet boundaries can be scanned.

use crate::stream::{Framing, PayloadEvent, PayloadStream};
use etrace_spec::packet::{unpack_with, IOptions, TeInst};
use etrace_spec::params::Params;
use std::borrow::Cow;
use std::sync::Arc;

/// One piece of the stream: its payload events, from a sync packet (or the start of the
/// stream) up to and including the next sync packet (or the end of the stream).
#[derive(Debug, Clone)]
pub struct Piece {
    /// Its place in the stream: 0, 1, ...
    pub seq: u64,
    /// Index of the packet of its first payload event.
    pub first_index: u64,
    /// Set when the first event is the sync packet the piece resumes at (every piece but
    /// the first).
    pub primed: bool,
    /// The support packet options in force at its first event.
    pub options: IOptions,
    /// Its payload events, or the framed bytes they come from.
    pub content: Content,
    /// The last piece of the stream (its open instruction range is flushed).
    pub last: bool,
}

/// What a piece holds.
#[derive(Debug, Clone)]
pub enum Content {
    /// Payload events, deframed in order.
    Events(Arc<Vec<PayloadEvent>>),
    /// Framed bytes from a packet boundary (`offset` in the stream) on, deframed by the
    /// worker ([`etrace_spec::framing::Framing::deframer_at`]).
    Bytes {
        /// Stream offset of the first byte.
        offset: usize,
        /// The bytes.
        bytes: Arc<Vec<u8>>,
    },
}

impl Piece {
    /// Its payload events (framed bytes deframed with `framing`; the last piece's
    /// deframer is told the end of the stream).
    pub fn events(&self, framing: &Framing) -> Cow<'_, [PayloadEvent]> {
        match &self.content {
            Content::Events(events) => Cow::Borrowed(&events[..]),
            Content::Bytes { offset, bytes } => {
                let Some(deframer) = framing.deframer_at(*offset) else {
                    // Only framings with a boundary scan are cut into bytes.
                    return Cow::Owned(vec![PayloadEvent::Error {
                        offset: Some(*offset as u64),
                        reason: format!("the {} framing cannot be cut", framing.kind()),
                    }]);
                };
                let mut stream = PayloadStream::from_deframer(deframer);
                let mut events = stream.push(bytes);
                if self.last {
                    events.extend(stream.finish());
                }
                Cow::Owned(events)
            }
        }
    }
}

/// Cuts payload events into [`Piece`]s.
pub struct Splitter {
    params: Params,
    /// Payload bytes after which a piece ends at the next sync packet.
    piece_bytes: usize,
    options: IOptions,
    next_seq: u64,
    next_index: u64,
    current: Vec<PayloadEvent>,
    current_bytes: usize,
    current_first: u64,
    current_options: IOptions,
}

impl Splitter {
    /// A splitter for packets of an encoder with `params`, into pieces of at least
    /// `piece_bytes` payload bytes.
    pub fn new(params: &Params, piece_bytes: usize) -> Splitter {
        Splitter {
            params: params.clone(),
            piece_bytes,
            options: IOptions::default(),
            next_seq: 0,
            next_index: 0,
            current: Vec::new(),
            current_bytes: 0,
            current_first: 0,
            current_options: IOptions::default(),
        }
    }

    /// Takes the next events; returns the pieces they complete.
    pub fn push(&mut self, events: Vec<PayloadEvent>) -> Vec<Piece> {
        let mut pieces = Vec::new();
        for event in events {
            let PayloadEvent::Payload { bytes, .. } = &event else {
                self.current.push(event);
                continue;
            };
            let size = bytes.len();
            match header(bytes) {
                Some(SYNC)
                    if self.current_bytes >= self.piece_bytes && !self.current.is_empty() =>
                {
                    self.current.push(event.clone());
                    pieces.push(self.cut(false));
                    self.current_first = self.next_index;
                    self.current_options = self.options;
                }
                Some(SUPPORT) => {
                    if let Ok(TeInst::Support(s)) = unpack_with(bytes, &self.params, &self.options)
                    {
                        self.options = s.ioptions;
                    }
                }
                _ => {}
            }
            self.current.push(event);
            self.current_bytes += size;
            self.next_index += 1;
        }
        pieces
    }

    /// Packets (payload events) taken so far.
    pub fn packets(&self) -> u64 {
        self.next_index
    }

    /// The end of the stream: the last piece.
    pub fn finish(&mut self) -> Piece {
        self.cut(true)
    }

    /// Ends the current piece.
    fn cut(&mut self, last: bool) -> Piece {
        let piece = Piece {
            seq: self.next_seq,
            first_index: self.current_first,
            primed: self.next_seq > 0,
            options: self.current_options,
            content: Content::Events(Arc::new(std::mem::take(&mut self.current))),
            last,
        };
        self.next_seq += 1;
        self.current_bytes = 0;
        piece
    }
}

/// Format 3 subformat 0 (start / sync) in the low bits of the first byte: `format` (2
/// bits, first), then `subformat` (2 bits).
pub(super) const SYNC: u8 = 0b0011;
/// Format 3 subformat 3 (support).
pub(super) const SUPPORT: u8 = 0b1111;

/// The format and subformat bits of a format 3 packet, else `None`.
fn header(bytes: &[u8]) -> Option<u8> {
    format3(*bytes.first()?)
}

/// The format and subformat bits of a format 3 packet whose first payload byte is
/// `first`, else `None`.
pub(super) fn format3(first: u8) -> Option<u8> {
    (first & 0b11 == 0b11).then_some(first & 0b1111)
}
