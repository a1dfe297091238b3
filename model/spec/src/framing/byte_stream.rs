//! The push deframer shared by the byte framings whose headers announce their packet's
//! size (encap, smi): it keeps the bytes of a packet not yet complete across pushes,
//! numbers bytes from the start of the stream, skips the failing byte after an error and
//! then searches for a packet boundary in the way of the framing ([`PacketFormat::hunt`]).
//! [`BoundaryScan`] finds the same packet boundaries without copying payloads, so that a
//! stream can be cut into parts that deframe apart (parallel decoding, issue 27).
//! [`WholeStream`] is the same deframer over a stream held in memory.

use super::event::{Deframed, Deframer, FrameEvent};
use super::FrameError;

/// Result of a search for a packet boundary over the bytes received so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hunt {
    /// A packet starts this many bytes into the window.
    Found(usize),
    /// None of the first this many bytes starts a packet; the rest needs more bytes.
    Pending(usize),
}

/// A byte framing as [`ByteDeframer`] reads it.
pub trait PacketFormat {
    /// Its configuration.
    type Config: Copy;
    /// What it yields: packets, null packets, resynchronisation points.
    type Item;

    /// The format of a configuration.
    fn new(config: Self::Config) -> Self;
    /// Checks the configuration.
    fn validate(&self) -> Result<(), FrameError>;
    /// The size of the packet whose first byte is `header` at `offset`, or why that
    /// byte cannot start one.
    fn size(&self, header: u8, offset: usize) -> Result<usize, FrameError>;
    /// Reads a whole packet (`size` bytes) at `offset`.
    fn parse(&self, packet: &[u8], offset: usize) -> Result<Self::Item, FrameError>;
    /// The item that says deframing resumes at `offset` after skipping `skipped` bytes.
    fn synced(offset: usize, skipped: usize) -> Self::Item;
    /// Starts a search for a packet boundary.
    fn start_hunt(&mut self);
    /// Searches `window`, the bytes from the first not yet ruled out; with `at_end` no
    /// more bytes come.
    fn hunt(&mut self, window: &[u8], at_end: bool) -> Hunt;
    /// The most bytes past a packet boundary it finds that a search reads to accept it
    /// (a part of the stream deframed apart must hold them: see [`BoundaryScan`]).
    fn hunt_lookahead(&self) -> usize;
    /// Whether a search that reached the end of the stream stopped inside a
    /// synchronisation point (and so is no error).
    fn hunt_ends_in_sync(&self) -> bool;
    /// The payload an item carries, if it is a packet.
    fn deframed(item: Self::Item) -> Option<Deframed>;

    /// What a boundary scan needs of a whole packet (`size` bytes) at `offset`: `None`
    /// for an item that carries no payload, else the payload's first byte (`None` when it
    /// is empty); the same errors as [`PacketFormat::parse`]. The default parses.
    fn peek(&self, packet: &[u8], offset: usize) -> Result<Option<Option<u8>>, FrameError> {
        self.parse(packet, offset)
            .map(|item| Self::deframed(item).map(|d| d.payload.first().copied()))
    }
}

/// What the deframer's loop finds: a packet read by the reader it was given, or a
/// resynchronisation point.
enum Found<T> {
    /// A whole packet at `offset`, `size` bytes, read.
    Read {
        value: T,
        offset: usize,
        size: usize,
    },
    /// Deframing resumes at `offset` after skipping `skipped` bytes.
    Synced { offset: usize, skipped: usize },
}

/// Push deframer of a [`PacketFormat`] (module documentation).
#[derive(Debug, Clone)]
pub struct ByteDeframer<F> {
    format: F,
    /// A bad configuration, reported with the first bytes.
    config_error: Option<FrameError>,
    /// Bytes received and not consumed; `held[0]` is at stream offset `base`.
    held: Vec<u8>,
    base: usize,
    /// The next byte starts a packet (else: searching for a boundary).
    synced: bool,
    /// A boundary was found (or the stream started at one).
    ever_synced: bool,
    /// Where the current search started.
    hunt_start: usize,
    /// A boundary scan: where the last search found a boundary, if one did.
    resumed_at: Option<usize>,
    /// The end of the stream was reported, or the configuration is bad.
    done: bool,
}

impl<F: PacketFormat> ByteDeframer<F> {
    /// A deframer for a stream whose first byte starts a packet.
    pub fn new(config: F::Config) -> Self {
        Self::with_start(config, true)
    }

    /// A deframer for a stream entered at an arbitrary byte: it first searches for a
    /// packet boundary.
    pub fn new_unsynced(config: F::Config) -> Self {
        Self::with_start(config, false)
    }

    /// A deframer for the part of a stream that starts at byte `offset` with a packet, as
    /// the deframer of the whole stream would be there (events name offsets in the whole
    /// stream): a piece cut at a packet boundary by a [`BoundaryScan`].
    pub fn at_offset(config: F::Config, offset: usize) -> Self {
        let mut deframer = Self::with_start(config, true);
        deframer.base = offset;
        deframer.hunt_start = offset;
        deframer
    }

    /// [`ByteDeframer::new`] when `synced`, else [`ByteDeframer::new_unsynced`].
    pub fn with_start(config: F::Config, synced: bool) -> Self {
        let mut format = F::new(config);
        format.start_hunt();
        ByteDeframer {
            config_error: format.validate().err(),
            format,
            held: Vec::new(),
            base: 0,
            synced,
            ever_synced: synced,
            hunt_start: 0,
            resumed_at: None,
            done: false,
        }
    }

    /// Takes the next bytes; passes the items and errors they complete to `emit`.
    pub fn push_items(&mut self, bytes: &[u8], emit: &mut impl FnMut(Result<F::Item, FrameError>)) {
        self.push_with(bytes, &F::parse, &mut |found| emit(found.map(item::<F>)));
    }

    /// End of the stream (see [`Deframer::finish`]).
    pub fn finish_items(&mut self, emit: &mut impl FnMut(Result<F::Item, FrameError>)) {
        self.finish_with(&F::parse, &mut |found| emit(found.map(item::<F>)));
    }

    /// [`ByteDeframer::push_items`] with packets read by `read`.
    fn push_with<T>(
        &mut self,
        bytes: &[u8],
        read: &impl Fn(&F, &[u8], usize) -> Result<T, FrameError>,
        emit: &mut impl FnMut(Result<Found<T>, FrameError>),
    ) {
        if self.done || bytes.is_empty() {
            return;
        }
        if let Some(e) = self.config_error.take() {
            self.done = true;
            return emit(Err(e));
        }
        if self.held.is_empty() {
            let used = self.run(bytes, self.base, false, read, emit);
            self.held.extend_from_slice(&bytes[used..]);
            self.base += used;
        } else {
            self.held.extend_from_slice(bytes);
            self.run_held(false, read, emit);
        }
    }

    /// [`ByteDeframer::finish_items`] with packets read by `read`.
    fn finish_with<T>(
        &mut self,
        read: &impl Fn(&F, &[u8], usize) -> Result<T, FrameError>,
        emit: &mut impl FnMut(Result<Found<T>, FrameError>),
    ) {
        if self.done {
            return;
        }
        self.run_held(true, read, emit);
        if !self.done {
            self.report_no_sync(emit);
        }
        self.done = true;
    }

    /// The reader stopped early (see [`Deframer::stop`]).
    pub fn stop_items(&mut self, emit: &mut impl FnMut(Result<F::Item, FrameError>)) {
        if !self.done && !self.ever_synced {
            self.report_no_sync(emit);
        }
        self.base += self.held.len();
        self.held.clear();
        self.done = true;
    }

    /// Bytes received and not yet deframed.
    pub fn pending(&self) -> usize {
        self.held.len()
    }

    /// The stream offset of the first byte that may still be part of an item or error
    /// (the start of an incomplete packet or of a search), if there is one.
    pub fn pending_offset(&self) -> Option<usize> {
        let end = self.base + self.held.len();
        if self.done {
            None
        } else if !self.synced && end > self.hunt_start {
            Some(self.hunt_start)
        } else if !self.held.is_empty() {
            Some(self.base)
        } else {
            None
        }
    }

    /// Bytes pushed so far.
    pub fn len(&self) -> usize {
        self.base + self.held.len()
    }

    /// Whether no byte was pushed yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn report_no_sync<T>(&mut self, emit: &mut impl FnMut(Result<T, FrameError>)) {
        let end = self.len();
        if !self.synced && end > self.hunt_start && !self.format.hunt_ends_in_sync() {
            emit(Err(FrameError::NoSync {
                offset: self.hunt_start,
                len: end - self.hunt_start,
            }));
        }
    }

    fn run_held<T>(
        &mut self,
        at_end: bool,
        read: &impl Fn(&F, &[u8], usize) -> Result<T, FrameError>,
        emit: &mut impl FnMut(Result<Found<T>, FrameError>),
    ) {
        let held = std::mem::take(&mut self.held);
        let used = self.run(&held, self.base, at_end, read, emit);
        self.held = held;
        self.held.drain(..used);
        self.base += used;
    }

    /// Deframes `buf` (stream offset `base`), reading each whole packet with `read`;
    /// returns the bytes consumed.
    fn run<T>(
        &mut self,
        buf: &[u8],
        base: usize,
        at_end: bool,
        read: &impl Fn(&F, &[u8], usize) -> Result<T, FrameError>,
        emit: &mut impl FnMut(Result<Found<T>, FrameError>),
    ) -> usize {
        let mut pos = 0;
        while pos < buf.len() {
            if !self.synced {
                match self.format.hunt(&buf[pos..], at_end) {
                    Hunt::Found(i) => {
                        pos += i;
                        emit(Ok(Found::Synced {
                            offset: base + pos,
                            skipped: base + pos - self.hunt_start,
                        }));
                        self.synced = true;
                        self.ever_synced = true;
                    }
                    Hunt::Pending(n) => return pos + n,
                }
                continue;
            }
            let offset = base + pos;
            let result = self.format.size(buf[pos], offset).and_then(|size| {
                let available = buf.len() - pos;
                if size <= available {
                    return read(&self.format, &buf[pos..pos + size], offset).map(|v| (v, size));
                }
                Err(FrameError::Truncated {
                    offset,
                    needed: size,
                    available,
                })
            });
            match result {
                Ok((value, size)) => {
                    emit(Ok(Found::Read {
                        value,
                        offset,
                        size,
                    }));
                    pos += size;
                }
                Err(FrameError::Truncated { .. }) if !at_end => break,
                Err(e @ FrameError::Truncated { .. }) => {
                    emit(Err(e));
                    self.done = true;
                    return buf.len();
                }
                Err(e) => {
                    emit(Err(e));
                    pos += 1;
                    self.synced = false;
                    self.hunt_start = base + pos;
                    self.format.start_hunt();
                }
            }
        }
        pos
    }
}

impl<F: PacketFormat> Deframer for ByteDeframer<F> {
    fn push(&mut self, bytes: &[u8], events: &mut Vec<FrameEvent>) {
        self.push_items(bytes, &mut |item| events.extend(event::<F>(item)));
    }

    fn finish(&mut self, events: &mut Vec<FrameEvent>) {
        self.finish_items(&mut |item| events.extend(event::<F>(item)));
    }

    fn stop(&mut self, events: &mut Vec<FrameEvent>) {
        self.stop_items(&mut |item| events.extend(event::<F>(item)));
    }

    fn pending(&self) -> usize {
        ByteDeframer::pending(self)
    }
}

/// The event of an item, if it is a packet or an error.
fn event<F: PacketFormat>(item: Result<F::Item, FrameError>) -> Option<FrameEvent> {
    match item {
        Ok(item) => F::deframed(item).map(FrameEvent::Packet),
        Err(e) => Some(FrameEvent::error(e)),
    }
}

/// The items of a stream held in memory, in stream order (a [`ByteDeframer`] given the
/// whole stream, then its end).
pub struct WholeStream<F: PacketFormat> {
    items: std::vec::IntoIter<Result<F::Item, FrameError>>,
}

impl<F: PacketFormat> WholeStream<F> {
    /// The items of `data`, whose first byte starts a packet.
    pub fn new(data: &[u8], config: F::Config) -> Self {
        Self::deframe(ByteDeframer::new(config), data)
    }

    /// The items of `data` entered at an arbitrary byte (a search first).
    pub fn new_unsynced(data: &[u8], config: F::Config) -> Self {
        Self::deframe(ByteDeframer::new_unsynced(config), data)
    }

    fn deframe(mut deframer: ByteDeframer<F>, data: &[u8]) -> Self {
        let mut items = Vec::new();
        let mut emit = |item| items.push(item);
        deframer.push_items(data, &mut emit);
        deframer.finish_items(&mut emit);
        WholeStream {
            items: items.into_iter(),
        }
    }
}

impl<F: PacketFormat> Iterator for WholeStream<F> {
    type Item = Result<F::Item, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.items.next()
    }
}

/// The item of what the loop found.
fn item<F: PacketFormat>(found: Found<F::Item>) -> F::Item {
    match found {
        Found::Read { value, .. } => value,
        Found::Synced { offset, skipped } => F::synced(offset, skipped),
    }
}

/// A packet found by a [`BoundaryScan`]: where it starts and ends in the stream and the
/// first byte of its payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScannedPacket {
    /// Offset of its first byte.
    pub offset: usize,
    /// Offset of the byte after it.
    pub end: usize,
    /// The first byte of its payload (`None`: an empty payload).
    pub head: Option<u8>,
    /// Whether the stream may be cut before it: the part before, deframed apart, gives
    /// the whole stream's events (no search for a boundary needs bytes past it).
    pub resumable: bool,
}

/// The packet boundaries of a stream pushed in pieces, found as the deframer of the whole
/// stream finds them (same sizes, same errors, same resynchronisation) without copying
/// payloads out: where a stream may be cut into parts that deframe apart
/// ([`ByteDeframer::at_offset`]) and give the whole stream's events, when cut before
/// packets that are [`ScannedPacket::resumable`].
pub trait BoundaryScan: Send {
    /// Takes the next bytes; appends the packets (items carrying a payload) they
    /// complete.
    fn push(&mut self, bytes: &[u8], packets: &mut Vec<ScannedPacket>);
    /// End of the stream: appends the remaining packets.
    fn finish(&mut self, packets: &mut Vec<ScannedPacket>);
}

impl<F: PacketFormat + Send> BoundaryScan for ByteDeframer<F> {
    fn push(&mut self, bytes: &[u8], packets: &mut Vec<ScannedPacket>) {
        let (lookahead, mut resumed) = (self.format.hunt_lookahead(), self.resumed_at);
        self.push_with(bytes, &F::peek, &mut |found| {
            scanned(found, lookahead, &mut resumed, packets)
        });
        self.resumed_at = resumed;
    }

    fn finish(&mut self, packets: &mut Vec<ScannedPacket>) {
        let (lookahead, mut resumed) = (self.format.hunt_lookahead(), self.resumed_at);
        self.finish_with(&F::peek, &mut |found| {
            scanned(found, lookahead, &mut resumed, packets)
        });
        self.resumed_at = resumed;
    }
}

/// Appends the packet of what the loop found, if it is one; notes where a search found a
/// boundary (`resumed`): a packet less than `lookahead` bytes after it is not resumable.
fn scanned(
    found: Result<Found<Option<Option<u8>>>, FrameError>,
    lookahead: usize,
    resumed: &mut Option<usize>,
    packets: &mut Vec<ScannedPacket>,
) {
    match found {
        Ok(Found::Read {
            value: Some(head),
            offset,
            size,
        }) => packets.push(ScannedPacket {
            offset,
            end: offset + size,
            head,
            resumable: resumed.is_none_or(|at| offset >= at + lookahead),
        }),
        Ok(Found::Synced { offset, .. }) => *resumed = Some(offset),
        _ => {}
    }
}
