//! The streaming MSEO reader: cuts a byte stream pushed in pieces into messages (first
//! byte MSEO = 00, last byte MSEO = 11), skips idle bytes (0xFF), and resynchronises after
//! a byte that cannot be where it is ("MSEO Sequences", table "Transitions of MSEO Bits":
//! a reserved MSEO = 10, a message start other than 00) by skipping to the next byte with
//! MSEO = 11 (an end of message or idle); a message that is never terminated or runs past
//! [`MAX_MESSAGE_BYTES`] is reported and skipped the same way. It implements the framing
//! seam's [`Deframer`]: each message is one [`Deframed`] payload (its MSEO bytes, SRC as
//! the source).

use super::reader::FieldReader;
use super::{IDLE, MSEO_END_MESSAGE, MSEO_NORMAL, MSEO_RESERVED};
use etrace_spec::framing::{Deframed, Deframer, FrameError, FrameEvent, Position};

/// Longest message accepted: the largest standard message is 38 bytes ("N-Trace
/// Transmission Protocol", table "N-Trace subset"); custom messages may be longer, so the
/// limit leaves room for them while bounding what a corrupted stream (for example all
/// zero bytes) can make the reader hold.
pub const MAX_MESSAGE_BYTES: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between messages: idle bytes or the first byte of a message.
    Between,
    /// Inside a message.
    Message,
    /// Searching for a byte with MSEO = 11 after an error (or at an arbitrary entry).
    Hunting,
}

/// Push reader of MSEO messages (module documentation).
#[derive(Debug, Clone)]
pub struct MessageSplitter {
    src_bits: u32,
    state: State,
    /// The message being received.
    held: Vec<u8>,
    /// Stream offset of `held[0]`.
    start: usize,
    /// Stream offset of the next byte.
    offset: usize,
    /// Where the current search started.
    hunt_start: usize,
    /// A message boundary was found (or the stream started at one).
    ever_synced: bool,
    done: bool,
}

impl MessageSplitter {
    /// A reader of messages whose SRC field is `src_bits` wide, for a stream whose first
    /// byte starts a message or is idle (`synced`), or one entered at an arbitrary byte.
    pub fn new(src_bits: u8, synced: bool) -> MessageSplitter {
        MessageSplitter {
            src_bits: u32::from(src_bits),
            state: if synced {
                State::Between
            } else {
                State::Hunting
            },
            held: Vec::new(),
            start: 0,
            offset: 0,
            hunt_start: 0,
            ever_synced: synced,
            done: false,
        }
    }

    fn hunt(&mut self, from: usize) {
        self.state = State::Hunting;
        self.hunt_start = from;
        self.held.clear();
    }

    fn byte(&mut self, b: u8, events: &mut Vec<FrameEvent>) {
        let at = self.offset;
        self.offset += 1;
        let mseo = b & 3;
        match self.state {
            State::Hunting => {
                if mseo == MSEO_END_MESSAGE {
                    self.state = State::Between;
                    self.ever_synced = true;
                }
            }
            State::Between => {
                if b == IDLE {
                } else if mseo == MSEO_NORMAL {
                    self.state = State::Message;
                    self.start = at;
                    self.held.clear();
                    self.held.push(b);
                } else {
                    events.push(FrameEvent::error(FrameError::BadHeader {
                        offset: at,
                        header: b,
                        reason:
                            "a message starts with MSEO = 00 (table \"Transitions of MSEO Bits\")",
                    }));
                    if mseo != MSEO_END_MESSAGE {
                        self.hunt(at + 1);
                    }
                }
            }
            State::Message => {
                if mseo == MSEO_RESERVED {
                    events.push(FrameEvent::error(FrameError::BadHeader {
                        offset: at,
                        header: b,
                        reason: "MSEO = 10 is reserved",
                    }));
                    self.hunt(at + 1);
                    return;
                }
                self.held.push(b);
                if mseo == MSEO_END_MESSAGE {
                    let payload = std::mem::take(&mut self.held);
                    let source = self.source(&payload);
                    events.push(FrameEvent::Packet(Deframed {
                        at: Position::Byte(self.start as u64),
                        payload,
                        source,
                        timestamp: None,
                    }));
                    self.state = State::Between;
                } else if self.held.len() >= MAX_MESSAGE_BYTES {
                    events.push(FrameEvent::error(FrameError::MessageTooLong {
                        offset: self.start,
                        max: MAX_MESSAGE_BYTES,
                    }));
                    self.hunt(at + 1);
                }
            }
        }
    }

    /// SRC of a message (0 when the field is not configured or the message is too short).
    fn source(&self, payload: &[u8]) -> u16 {
        let mut reader = FieldReader::new(payload);
        match reader.fixed("TCODE", 6) {
            Ok(_) => reader.fixed("SRC", self.src_bits).unwrap_or(0) as u16,
            Err(_) => 0,
        }
    }
}

impl Deframer for MessageSplitter {
    fn push(&mut self, bytes: &[u8], events: &mut Vec<FrameEvent>) {
        if self.done {
            return;
        }
        for &b in bytes {
            self.byte(b, events);
        }
    }

    fn finish(&mut self, events: &mut Vec<FrameEvent>) {
        if self.done {
            return;
        }
        match self.state {
            State::Message => events.push(FrameEvent::error(FrameError::Unterminated {
                offset: self.start,
                len: self.held.len(),
            })),
            State::Hunting if self.offset > self.hunt_start => {
                events.push(FrameEvent::error(FrameError::NoSync {
                    offset: self.hunt_start,
                    len: self.offset - self.hunt_start,
                }))
            }
            _ => {}
        }
        self.done = true;
    }

    fn stop(&mut self, events: &mut Vec<FrameEvent>) {
        if self.done {
            return;
        }
        if !self.ever_synced && self.offset > 0 {
            events.push(FrameEvent::error(FrameError::NoSync {
                offset: self.hunt_start,
                len: self.offset - self.hunt_start,
            }));
        }
        self.done = true;
    }

    fn pending(&self) -> usize {
        self.held.len()
    }
}
