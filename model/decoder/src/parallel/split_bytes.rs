//! Cutting a framed byte stream into pieces at format 3 subformat 0 synchronisation
//! packets (`payload.adoc` "Format 3 subformat 0") without deframing it: the framing's
//! [`BoundaryScan`] gives each packet's place and first payload byte (its format bits),
//! and the pieces are byte ranges that the workers deframe themselves
//! ([`Content::Bytes`]); the reading thread copies no payload. Cuts are made only where
//! the part before deframes apart as in the whole stream ([`ScannedPacket::resumable`]);
//! support packets (`sec:format33`) are deframed here for their `ioptions`.

use super::split::{format3, Content, Piece, SUPPORT, SYNC};
use crate::stream::{Framing, PayloadEvent, PayloadStream};
use etrace_spec::framing::byte_stream::{BoundaryScan, ScannedPacket};
use etrace_spec::packet::{unpack_with, IOptions, TeInst};
use etrace_spec::params::Params;
use std::sync::Arc;

/// Cuts framed bytes into [`Piece`]s of at least a given size.
pub struct ByteSplitter {
    framing: Framing,
    scan: Box<dyn BoundaryScan>,
    params: Params,
    piece_bytes: usize,
    options: IOptions,
    next_seq: u64,
    next_index: u64,
    /// Bytes from the start of the current piece on; `held[0]` is at `held_at`.
    held: Vec<u8>,
    held_at: usize,
    current_first: u64,
    current_options: IOptions,
    scanned: Vec<ScannedPacket>,
}

impl ByteSplitter {
    /// A splitter of a stream in `framing` (whose first byte starts a packet), for an
    /// encoder with `params`, into pieces of at least `piece_bytes` bytes; `None` when the
    /// framing has no boundary scan.
    pub fn new(framing: &Framing, params: &Params, piece_bytes: usize) -> Option<ByteSplitter> {
        Some(ByteSplitter {
            framing: *framing,
            scan: framing.boundary_scan()?,
            params: params.clone(),
            piece_bytes,
            options: IOptions::default(),
            next_seq: 0,
            next_index: 0,
            held: Vec::new(),
            held_at: 0,
            current_first: 0,
            current_options: IOptions::default(),
            scanned: Vec::new(),
        })
    }

    /// Takes the next bytes; returns the pieces they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Piece> {
        self.held.extend_from_slice(bytes);
        self.scan.push(bytes, &mut self.scanned);
        self.cut_scanned()
    }

    /// The end of the stream: the pieces it completes, the last one last.
    pub fn finish(&mut self) -> Vec<Piece> {
        self.scan.finish(&mut self.scanned);
        let mut pieces = self.cut_scanned();
        let rest = std::mem::take(&mut self.held);
        pieces.push(self.piece(rest, true));
        pieces
    }

    /// Packets taken so far.
    pub fn packets(&self) -> u64 {
        self.next_index
    }

    /// The pieces the packets scanned so far complete.
    fn cut_scanned(&mut self) -> Vec<Piece> {
        let mut pieces = Vec::new();
        for p in std::mem::take(&mut self.scanned) {
            match p.head.and_then(format3) {
                Some(SYNC)
                    if p.resumable
                        && p.offset > self.held_at
                        && p.offset - self.held_at >= self.piece_bytes =>
                {
                    let bytes = self.held[..p.end - self.held_at].to_vec();
                    pieces.push(self.piece(bytes, false));
                    self.held.drain(..p.offset - self.held_at);
                    self.held_at = p.offset;
                    self.current_first = self.next_index;
                    self.current_options = self.options;
                }
                Some(SUPPORT) => self.support(&p),
                _ => {}
            }
            self.next_index += 1;
        }
        pieces
    }

    /// A support packet: its `ioptions` unpack the packets after it.
    fn support(&mut self, p: &ScannedPacket) {
        let Some(deframer) = self.framing.deframer_at(p.offset) else {
            return;
        };
        let bytes = &self.held[p.offset - self.held_at..p.end - self.held_at];
        let events = PayloadStream::from_deframer(deframer).push(bytes);
        if let Some(PayloadEvent::Payload { bytes, .. }) = events.first() {
            if let Ok(TeInst::Support(s)) = unpack_with(bytes, &self.params, &self.options) {
                self.options = s.ioptions;
            }
        }
    }

    /// The current piece, holding `bytes`.
    fn piece(&mut self, bytes: Vec<u8>, last: bool) -> Piece {
        let piece = Piece {
            seq: self.next_seq,
            first_index: self.current_first,
            primed: self.next_seq > 0,
            options: self.current_options,
            content: Content::Bytes {
                offset: self.held_at,
                bytes: Arc::new(bytes),
            },
            last,
        };
        self.next_seq += 1;
        piece
    }
}
