//! Errors of framing and deframing (`e-trace-encap/encapsulation.adoc`,
//! `fragmentCodeAndTransport.adoc`).

/// What went wrong while framing a payload or deframing a byte stream. Offsets are byte
/// offsets in the stream (for ATB: in the stream of one ATID); `beat` is an index into
/// the list of ATB beats.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// The stream ends inside a packet.
    #[error("byte offset {offset}: truncated packet: {needed} bytes needed, {available} left")]
    Truncated {
        /// Offset of the packet's header.
        offset: usize,
        /// Bytes the header announces (header included).
        needed: usize,
        /// Bytes left in the stream.
        available: usize,
    },
    /// A header that cannot start a packet.
    #[error("byte offset {offset}: header {header:#04x}: {reason}")]
    BadHeader {
        /// Offset of the header.
        offset: usize,
        /// The header byte.
        header: u8,
        /// Why it is rejected.
        reason: &'static str,
    },
    /// An encapsulated packet whose payload is all srcID / type bits.
    #[error("byte offset {offset}: packet has no trace payload after its srcID and type bits")]
    EmptyPayload {
        /// Offset of the header.
        offset: usize,
    },
    /// A Siemens message index with bits set above the configured index width.
    #[error("byte offset {offset}: index {index:#x} is wider than {bits} bits")]
    IndexTooWide {
        /// Offset of the header.
        offset: usize,
        /// The index read.
        index: u16,
        /// The configured width.
        bits: u8,
    },
    /// Resynchronisation found no packet boundary before the end of the stream.
    #[error("byte offset {offset}: no synchronisation point in the {len} bytes from here")]
    NoSync {
        /// Where the search started.
        offset: usize,
        /// Bytes searched.
        len: usize,
    },
    /// The stream ends inside a message whose length no header announces (N-Trace MSEO:
    /// no byte with MSEO = 11 ends it).
    #[error("byte offset {offset}: message not terminated: {len} bytes without an end of message")]
    Unterminated {
        /// Offset of the message's first byte.
        offset: usize,
        /// Bytes received of it.
        len: usize,
    },
    /// A message longer than the reader accepts (N-Trace MSEO).
    #[error("byte offset {offset}: message longer than {max} bytes")]
    MessageTooLong {
        /// Offset of the message's first byte.
        offset: usize,
        /// The limit.
        max: usize,
    },
    /// A payload too long for one packet.
    #[error("payload of {bits} bits does not fit in one packet (at most {max} bits)")]
    PayloadTooLong {
        /// Bits the packet would need after its header.
        bits: usize,
        /// The maximum.
        max: usize,
    },
    /// Nothing to frame.
    #[error("empty payload: nothing to frame")]
    EmptyInput,
    /// A srcID, index or timestamp too wide for its field.
    #[error("{field} = {value:#x} does not fit in {bits} bits")]
    ValueTooWide {
        /// The field name.
        field: &'static str,
        /// The value given.
        value: u64,
        /// The field width.
        bits: u32,
    },
    /// A configuration value out of range.
    #[error("bad framing configuration: {what} = {value}")]
    BadConfig {
        /// The setting.
        what: &'static str,
        /// Its value.
        value: u64,
    },
    /// An ATB beat whose ATID is 0, reserved (0x70-0x7f) or wider than 7 bits.
    #[error("ATB beat {beat}: ATID {atid:#04x} is reserved or wider than 7 bits")]
    BadAtid {
        /// Index of the beat.
        beat: usize,
        /// The ATID.
        atid: u8,
    },
    /// An ATB beat whose ATBYTES is not below the bus width in bytes.
    #[error("ATB beat {beat}: ATBYTES {atbytes} does not fit a {data_bytes}-byte bus")]
    BadAtbytes {
        /// Index of the beat.
        beat: usize,
        /// The ATBYTES value.
        atbytes: u8,
        /// Bus width in bytes.
        data_bytes: u8,
    },
    /// A line of the ATB beat listing that does not parse.
    #[error("ATB beat line `{text}`: {what}")]
    BadBeatText {
        /// The line, as error messages show input text (non-printable bytes escaped, cut
        /// after 64 characters).
        text: String,
        /// What is wrong.
        what: &'static str,
    },
}

impl FrameError {
    /// The byte offset the error names (in the stream of one ATID for ATB), if any.
    pub fn offset(&self) -> Option<usize> {
        match self {
            FrameError::Truncated { offset, .. }
            | FrameError::BadHeader { offset, .. }
            | FrameError::EmptyPayload { offset }
            | FrameError::IndexTooWide { offset, .. }
            | FrameError::NoSync { offset, .. }
            | FrameError::Unterminated { offset, .. }
            | FrameError::MessageTooLong { offset, .. } => Some(*offset),
            _ => None,
        }
    }
}
