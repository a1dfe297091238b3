//! Reading the fields of one message's MSEO bytes (the reverse of
//! [`super::MseoWriter`], "MSEO Sequences"): fixed-length fields take bits as they come, a
//! variable-length field takes the bits up to the end of the byte whose MSEO is 01 or 11.

use super::{MDO_BITS, MSEO_NORMAL};

/// Why a field could not be read; `byte` is the index in the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    /// The message ends before the field.
    #[error("field {field} missing (the message ends after {len} bytes)")]
    Missing {
        /// The field.
        field: &'static str,
        /// Bytes in the message.
        len: usize,
    },
    /// A fixed-length field runs past a byte that ends a field.
    #[error("fixed-length field {field} crosses the end of a field at byte {byte}")]
    FixedAcrossEnd {
        /// The field.
        field: &'static str,
        /// Index of the byte that ends a field.
        byte: usize,
    },
    /// A variable-length field with significant bits beyond 64.
    #[error("field {field} is wider than 64 bits (byte {byte})")]
    TooWide {
        /// The field.
        field: &'static str,
        /// Index of the byte where it overflows.
        byte: usize,
    },
    /// Bytes left after the last field of the message.
    #[error("{left} bytes after the last field")]
    Extra {
        /// Bytes left.
        left: usize,
    },
}

/// Field reader over one message (first byte MSEO = 00, last MSEO = 11).
#[derive(Debug, Clone)]
pub struct FieldReader<'a> {
    bytes: &'a [u8],
    /// Index of the current byte.
    byte: usize,
    /// MDO bits of the current byte already read.
    used: u32,
}

impl<'a> FieldReader<'a> {
    /// A reader at the start of a message.
    pub fn new(bytes: &'a [u8]) -> FieldReader<'a> {
        FieldReader {
            bytes,
            byte: 0,
            used: 0,
        }
    }

    /// Reads a fixed-length field of `bits` bits.
    pub fn fixed(&mut self, field: &'static str, bits: u32) -> Result<u64, FieldError> {
        let mut value = 0u64;
        for i in 0..bits {
            if self.used == MDO_BITS {
                if self.bytes[self.byte] & 3 != MSEO_NORMAL {
                    return Err(FieldError::FixedAcrossEnd {
                        field,
                        byte: self.byte,
                    });
                }
                self.byte += 1;
                self.used = 0;
            }
            let Some(&b) = self.bytes.get(self.byte) else {
                return Err(FieldError::Missing {
                    field,
                    len: self.bytes.len(),
                });
            };
            value |= u64::from((b >> (2 + self.used)) & 1) << i;
            self.used += 1;
        }
        Ok(value)
    }

    /// Reads a variable-length field.
    pub fn var(&mut self, field: &'static str) -> Result<u64, FieldError> {
        if self.used == MDO_BITS {
            // A fixed-length field filled its byte.
            self.byte += 1;
            self.used = 0;
        }
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let Some(&b) = self.bytes.get(self.byte) else {
                return Err(FieldError::Missing {
                    field,
                    len: self.bytes.len(),
                });
            };
            let bits = u64::from(b >> (2 + self.used));
            let n = MDO_BITS - self.used;
            if bits != 0 {
                if shift >= 64 || (shift > 0 && bits.leading_zeros() < shift) {
                    return Err(FieldError::TooWide {
                        field,
                        byte: self.byte,
                    });
                }
                value |= bits << shift;
            }
            shift += n;
            self.byte += 1;
            self.used = 0;
            if b & 3 != MSEO_NORMAL {
                return Ok(value);
            }
        }
    }

    /// Whether another field follows (the last field read did not end the message).
    pub fn more(&self) -> bool {
        self.byte < self.bytes.len()
    }

    /// Checks that every byte was read.
    pub fn finish(&self) -> Result<(), FieldError> {
        let consumed = if self.used > 0 {
            self.byte + 1
        } else {
            self.byte
        };
        if consumed < self.bytes.len() {
            return Err(FieldError::Extra {
                left: self.bytes.len() - consumed,
            });
        }
        Ok(())
    }
}
