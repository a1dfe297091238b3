//! The thread that reads the stream: cuts it into pieces (scanning packet boundaries, or
//! deframing in order where the framing has no boundary scan), hands them to the workers
//! (at most `window` in flight; a worker is started for each of the first pieces) and
//! joins their results in order; pieces no worker took are decoded here.

use super::join::Joiner;
use super::piece::{decode_piece, Decoded};
use super::split::{Piece, Splitter};
use super::split_bytes::ByteSplitter;
use super::Setup;
use super::Summary;
use super::Workers;
use crate::element::TraceElement;
use crate::stream::PayloadStream;
use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc::Receiver;

/// The reading, cutting, dispatching and joining thread's state.
pub(super) struct Driver<'a, 'w> {
    setup: Setup<'a>,
    cutter: Cutter,
    workers: Workers<'w>,
    results: Receiver<Decoded<'a>>,
    /// Pieces in flight at most.
    window: usize,
    /// Pieces dispatched and not joined, in stream order, each with whether a worker
    /// took it.
    waiting: VecDeque<(Piece, bool)>,
    /// Decoded pieces that wait for the ones before them.
    arrived: BTreeMap<u64, Decoded<'a>>,
    joiner: Joiner<'a>,
}

impl<'a, 'w> Driver<'a, 'w> {
    /// A driver that sends pieces of `piece_bytes` to `workers` and takes the results
    /// from `results`.
    pub fn new(
        setup: Setup<'a>,
        piece_bytes: usize,
        window: usize,
        workers: Workers<'w>,
        results: Receiver<Decoded<'a>>,
    ) -> Driver<'a, 'w> {
        Driver {
            setup,
            cutter: Cutter::new(setup, piece_bytes),
            workers,
            results,
            window: window.max(1),
            waiting: VecDeque::new(),
            arrived: BTreeMap::new(),
            joiner: Joiner::new(setup.params, setup.framing),
        }
    }

    /// Takes the next bytes of the stream; the elements joined meanwhile go to `out`.
    pub fn push<E>(
        &mut self,
        bytes: &[u8],
        out: &mut impl FnMut(Vec<TraceElement>, bool) -> Result<(), E>,
    ) -> Result<(), E> {
        for piece in self.cutter.push(bytes) {
            self.dispatch(piece, out)?;
        }
        Ok(())
    }

    /// The end of the stream: the remaining pieces, joined; what was done.
    pub fn finish<E>(
        mut self,
        out: &mut impl FnMut(Vec<TraceElement>, bool) -> Result<(), E>,
    ) -> Result<Summary, E> {
        for piece in self.cutter.finish() {
            self.dispatch(piece, out)?;
        }
        let packets = self.cutter.packets();
        self.workers.close();
        while !self.waiting.is_empty() {
            self.join_oldest(out)?;
        }
        Ok(Summary {
            packets,
            instructions: self.joiner.instructions(),
            pieces: self.joiner.pieces,
            redecoded: self.joiner.redecoded,
            threads: self.workers.started(),
        })
    }

    /// Hands `piece` to a worker, once fewer than `window` pieces are in flight.
    fn dispatch<E>(
        &mut self,
        piece: Piece,
        out: &mut impl FnMut(Vec<TraceElement>, bool) -> Result<(), E>,
    ) -> Result<(), E> {
        while self.waiting.len() >= self.window {
            self.join_oldest(out)?;
        }
        // Without a worker the piece is decoded here when its turn comes.
        let sent = self.workers.send(&piece, self.waiting.len() + 1);
        self.waiting.push_back((piece, sent));
        Ok(())
    }

    /// Joins the oldest piece in flight, waiting for its result.
    fn join_oldest<E>(
        &mut self,
        out: &mut impl FnMut(Vec<TraceElement>, bool) -> Result<(), E>,
    ) -> Result<(), E> {
        let Some((piece, sent)) = self.waiting.pop_front() else {
            return Ok(());
        };
        let decoded = loop {
            if let Some(d) = self.arrived.remove(&piece.seq) {
                break d;
            }
            let received = if sent { self.results.recv().ok() } else { None };
            match received {
                Some(d) => {
                    self.arrived.insert(d.seq, d);
                }
                // No worker took it, or none is left: decode it here.
                None => {
                    let s = self.setup;
                    break decode_piece(s.image, s.params, s.config, s.framing, &piece, None);
                }
            }
        };
        self.joiner.join(&piece, decoded, out)
    }
}

/// How the stream is cut: framed bytes at scanned boundaries, or payload events.
enum Cutter {
    Bytes(ByteSplitter),
    Events {
        stream: PayloadStream,
        splitter: Splitter,
    },
}

impl Cutter {
    /// The byte splitter where the framing has a boundary scan, else the event splitter.
    fn new(setup: Setup<'_>, piece_bytes: usize) -> Cutter {
        match ByteSplitter::new(setup.framing, setup.params, piece_bytes) {
            Some(splitter) => Cutter::Bytes(splitter),
            None => Cutter::Events {
                stream: PayloadStream::new(setup.framing, true),
                splitter: Splitter::new(setup.params, piece_bytes),
            },
        }
    }

    /// The pieces the next bytes complete.
    fn push(&mut self, bytes: &[u8]) -> Vec<Piece> {
        match self {
            Cutter::Bytes(splitter) => splitter.push(bytes),
            Cutter::Events { stream, splitter } => splitter.push(stream.push(bytes)),
        }
    }

    /// The end of the stream: the remaining pieces, the last one last.
    fn finish(&mut self) -> Vec<Piece> {
        match self {
            Cutter::Bytes(splitter) => splitter.finish(),
            Cutter::Events { stream, splitter } => {
                let mut pieces = splitter.push(stream.finish());
                pieces.push(splitter.finish());
                pieces
            }
        }
    }

    /// Packets (payload events) taken so far.
    fn packets(&self) -> u64 {
        match self {
            Cutter::Bytes(splitter) => splitter.packets(),
            Cutter::Events { splitter, .. } => splitter.packets(),
        }
    }
}
