//! The MSEO transport ("N-Trace Transmission Protocol"): every byte holds MSEO[1:0] in
//! bits 1:0 and six MDO bits in bits 7:2; fields are sent least significant bit first
//! ("Order of bits and bytes"), a variable-length field ends on a byte boundary marked
//! MSEO = 01, the last byte of a message has MSEO = 11, idle bytes are 0xFF ("MSEO
//! Sequences").
//!
//! * [`MseoWriter`]: fields of one message in, bytes out;
//! * [`FieldReader`]: the fields of one message's bytes;
//! * [`MessageSplitter`]: the streaming reader that cuts a byte stream into messages and
//!   resynchronises after corrupted or truncated input, behind the framing seam's
//!   [`Deframer`](etrace_spec::framing::Deframer) interface.

mod reader;
mod splitter;
mod writer;

#[cfg(test)]
mod tests;

pub use reader::{FieldError, FieldReader};
pub use splitter::{MessageSplitter, MAX_MESSAGE_BYTES};
pub use writer::MseoWriter;

/// Data bits per byte (MDO).
pub const MDO_BITS: u32 = 6;
/// MSEO of a byte inside a field, and of the first byte of a message.
pub const MSEO_NORMAL: u8 = 0b00;
/// MSEO of the last byte of a variable-length field that does not end the message.
pub const MSEO_END_FIELD: u8 = 0b01;
/// MSEO reserved for future extensions.
pub const MSEO_RESERVED: u8 = 0b10;
/// MSEO of the last byte of a message, and of idle bytes.
pub const MSEO_END_MESSAGE: u8 = 0b11;
/// An idle byte: MSEO = 11 and MDO all ones.
pub const IDLE: u8 = 0xFF;
