//! Writing one message's fields as MSEO bytes ("MSEO Sequences", "N-Trace Message
//! Example"): fixed-length fields are packed back to back, a variable-length field sends
//! its significant bits (at least one) and is zero-extended to the end of its byte, which
//! gets MSEO = 01; [`MseoWriter::end`] marks the last byte MSEO = 11.

use super::{MDO_BITS, MSEO_END_FIELD, MSEO_END_MESSAGE, MSEO_NORMAL};

/// Writer of the MSEO bytes of messages, appended to one output buffer.
#[derive(Debug, Clone, Default)]
pub struct MseoWriter {
    out: Vec<u8>,
    /// MDO bits of the byte being filled.
    mdo: u8,
    /// Number of those bits (0..6).
    filled: u32,
}

impl MseoWriter {
    /// A writer with an empty output.
    pub fn new() -> MseoWriter {
        MseoWriter::default()
    }

    /// Appends the `bits` low bits of `value` as a fixed-length field.
    pub fn fixed(&mut self, bits: u32, value: u64) {
        for i in 0..bits {
            self.bit((value >> i) & 1 != 0);
        }
    }

    /// Appends `value` as a variable-length field (most significant zero bits skipped).
    pub fn var(&mut self, value: u64) {
        let width = (64 - value.leading_zeros()).max(1);
        self.fixed(width, value);
        // At least one bit was added, so the byte being filled holds the field's end.
        self.flush(MSEO_END_FIELD);
    }

    /// Ends the message: its last byte gets MSEO = 11.
    pub fn end(&mut self) {
        if self.filled > 0 {
            self.flush(MSEO_END_MESSAGE);
        } else if let Some(last) = self.out.last_mut() {
            // The last field was variable-length: its end byte ends the message.
            *last |= MSEO_END_MESSAGE;
        }
    }

    /// Appends `count` idle bytes (0xFF) between messages.
    pub fn idle(&mut self, count: usize) {
        self.out.extend(std::iter::repeat_n(super::IDLE, count));
    }

    /// The bytes written so far (whole messages once [`MseoWriter::end`] was called).
    pub fn bytes(&self) -> &[u8] {
        &self.out
    }

    /// Number of bytes written.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// Takes the bytes written so far.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    fn bit(&mut self, one: bool) {
        if self.filled == MDO_BITS {
            self.flush(MSEO_NORMAL);
        }
        self.mdo |= u8::from(one) << self.filled;
        self.filled += 1;
    }

    fn flush(&mut self, mseo: u8) {
        self.out.push((self.mdo << 2) | mseo);
        self.mdo = 0;
        self.filled = 0;
    }
}
