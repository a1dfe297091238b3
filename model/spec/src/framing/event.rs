//! The streaming interface every framing implements: a [`Deframer`] takes a stream in
//! pieces of any size and yields [`FrameEvent`]s (payloads with their place and header
//! fields, errors with their place and cause) as soon as they are complete; a [`Framer`]
//! turns payloads into the bytes of the stream.

use std::fmt;

use super::FrameError;

/// Where an event is in the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// Byte offset in the stream (encap, smi).
    Byte(u64),
    /// An ATB beat (`fragmentCodeAndTransport.adoc`, "ATB transport"): its index in the
    /// listing, its ATID and the byte offset in that ATID's stream.
    Beat {
        /// Index of the beat (0-based, every beat of the listing counted).
        beat: u64,
        /// The ATID of the beat.
        atid: u8,
        /// Byte offset in the ATID's byte stream.
        offset: u64,
    },
    /// A line of a text listing that does not parse.
    Line {
        /// Line number (1-based).
        line: u64,
        /// Index the next beat gets (where the line stands among the beats).
        beat: u64,
    },
    /// The error names no place (a configuration error).
    Unknown,
}

/// The unit of [`Position::index`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionUnit {
    /// Byte offsets.
    Byte,
    /// ATB beat indices.
    Beat,
}

impl Position {
    /// The place of an error that names a byte offset, else [`Position::Unknown`].
    pub fn of_error(error: &FrameError) -> Position {
        error
            .offset()
            .map_or(Position::Unknown, |o| Position::Byte(o as u64))
    }

    /// The place as one number: the byte offset, or the beat index for ATB.
    pub fn index(&self) -> Option<u64> {
        match *self {
            Position::Byte(offset) => Some(offset),
            Position::Beat { beat, .. } | Position::Line { beat, .. } => Some(beat),
            Position::Unknown => None,
        }
    }

    /// The place of a packet as listings print it: `17`, or for ATB
    /// `4 (ATID 0x05, beat 3)`.
    pub fn packet_place(&self) -> String {
        match *self {
            Position::Beat { beat, atid, offset } => {
                format!("{offset} (ATID {atid:#04x}, beat {beat})")
            }
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for Position {
    /// The place of an error as listings print it: `17`, `beat 3`, `line 2` or `?`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Position::Byte(offset) => write!(f, "{offset}"),
            Position::Beat { beat, .. } => write!(f, "beat {beat}"),
            Position::Line { line, .. } => write!(f, "line {line}"),
            Position::Unknown => f.write_str("?"),
        }
    }
}

/// A deframed payload with its header fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deframed {
    /// Where its packet starts.
    pub at: Position,
    /// The te_inst payload bytes.
    pub payload: Vec<u8>,
    /// The source: encap `srcID`, smi index, ATB ATID.
    pub source: u16,
    /// The packet's timestamp, when it has one.
    pub timestamp: Option<u64>,
}

/// One event of a deframed stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameEvent {
    /// A payload.
    Packet(Deframed),
    /// Bytes that could not be deframed; the deframer resynchronises after them.
    Error {
        /// Where the problem was found.
        at: Position,
        /// What was wrong.
        error: FrameError,
    },
}

impl FrameEvent {
    /// An error event placed where the error says.
    pub fn error(error: FrameError) -> FrameEvent {
        FrameEvent::Error {
            at: Position::of_error(&error),
            error,
        }
    }

    /// The text of an error event as the decoder reports it (`line 2: ...` for a line of
    /// a listing, else the error).
    pub fn reason(at: &Position, error: &FrameError) -> String {
        match at {
            Position::Line { line, .. } => format!("line {line}: {error}"),
            _ => error.to_string(),
        }
    }
}

/// A deframer fed in pieces: the events of a stream do not depend on how it was cut.
pub trait Deframer {
    /// Takes the next bytes of the stream; appends the events they complete.
    fn push(&mut self, bytes: &[u8], events: &mut Vec<FrameEvent>);

    /// End of the stream: appends the remaining events, among them a packet cut off
    /// ([`FrameError::Truncated`]) or a search for a packet boundary that found none
    /// ([`FrameError::NoSync`]). Later pushes are ignored.
    fn finish(&mut self, events: &mut Vec<FrameEvent>);

    /// The reader stopped before the end of the stream (a byte limit, a timeout): a
    /// packet not yet complete is left undecoded without error, and only a stream in
    /// which no packet boundary was ever found is reported ([`FrameError::NoSync`]).
    fn stop(&mut self, events: &mut Vec<FrameEvent>);

    /// Bytes received and not yet deframed (the start of an incomplete packet).
    fn pending(&self) -> usize;
}

/// The events of a whole stream: one push, then the end of the stream.
pub fn deframe_all(deframer: &mut dyn Deframer, bytes: &[u8]) -> Vec<FrameEvent> {
    let mut events = Vec::new();
    deframer.push(bytes, &mut events);
    deframer.finish(&mut events);
    events
}

/// A payload to frame with its header fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outgoing<'a> {
    /// The te_inst payload bytes.
    pub payload: &'a [u8],
    /// The source: encap `srcID`, smi index, ATB ATID.
    pub source: u16,
    /// A timestamp to carry, if any.
    pub timestamp: Option<u64>,
}

/// A framer: payloads in, the bytes of the stream out. `Send`, so that a simulation that
/// frames (the encoder's cycle model) can run in a thread of its own.
pub trait Framer: Send {
    /// Frames one payload, appending to `out` (with whatever the stream needs before it,
    /// such as encap synchronisation sequences); returns the bytes it adds to the
    /// transport (for ATB: beats times the bus width).
    fn write_packet(&mut self, packet: &Outgoing, out: &mut Vec<u8>) -> Result<u64, FrameError>;

    /// Width in bits of the timestamps this framer carries (0: none).
    fn timestamp_bits(&self) -> u32;
}
