//! Bit-level writing and reading of te_inst payloads: fields are transmitted in table
//! order, each least significant bit first (`payload.adoc`, introduction of
//! "Instruction Trace Encoder Output Packets"), and a received payload is sign-extended
//! from its most significant received bit.

use crate::bitfield::{low_bits, mask};

/// Appends fields to a little-endian bit string.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct BitWriter {
    bytes: Vec<u8>,
    len: usize,
}

impl BitWriter {
    /// An empty bit string.
    pub(crate) fn new() -> Self {
        BitWriter::default()
    }

    /// Number of bits written so far.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Appends one bit.
    pub(crate) fn push_bit(&mut self, bit: bool) {
        if self.len % 8 == 0 {
            self.bytes.push(0);
        }
        if bit {
            let last = self.bytes.len() - 1;
            self.bytes[last] |= 1 << (self.len % 8);
        }
        self.len += 1;
    }

    /// Appends the `width` least significant bits of `value`, LSB first (`width` <= 64),
    /// as many at a time as the last byte has room for.
    pub(crate) fn push(&mut self, value: u64, width: u32) {
        let width = width.min(64) as usize;
        let mut done = 0;
        while done < width {
            let offset = self.len % 8;
            if offset == 0 {
                self.bytes.push(0);
            }
            let take = (8 - offset).min(width - done);
            let chunk = low_bits(value >> done, take as u32) as u8;
            let last = self.bytes.len() - 1;
            self.bytes[last] |= chunk << offset;
            self.len += take;
            done += take;
        }
    }

    /// The most recently written bit (`false` for an empty string).
    pub(crate) fn last_bit(&self) -> bool {
        match self.len {
            0 => false,
            n => bit_at(&self.bytes, n - 1),
        }
    }

    /// The bit string padded to a whole number of bytes with copies of its last bit
    /// (`payload.adoc`: "the payload must be sign-extended to the nearest byte boundary").
    pub(crate) fn into_sign_extended_bytes(mut self) -> Vec<u8> {
        let sign = self.last_bit();
        while self.len % 8 != 0 {
            self.push_bit(sign);
        }
        self.bytes
    }
}

/// Bit `index` of a little-endian byte string.
pub(crate) fn bit_at(bytes: &[u8], index: usize) -> bool {
    (bytes[index / 8] >> (index % 8)) & 1 == 1
}

/// The bits of `bytes` from bit `from` on, as bytes (bit `from` becomes bit 0), the last
/// byte padded with copies of the last bit: what reading them one by one into a
/// [`BitWriter`] and taking [`BitWriter::into_sign_extended_bytes`] gives, a byte at a
/// time (an encap payload after its `srcID`, timestamp and `type`,
/// `encapsulation.adoc` "Packet length").
pub(crate) fn tail_bits(bytes: &[u8], from: usize) -> Vec<u8> {
    let (skip, shift) = (from / 8, from % 8);
    let Some(body) = bytes.get(skip..).filter(|b| !b.is_empty()) else {
        return Vec::new();
    };
    if shift == 0 {
        return body.to_vec();
    }
    // The byte past the end is the sign extension of the last bit.
    let pad = if body[body.len() - 1] & 0x80 != 0 {
        0xff
    } else {
        0x00
    };
    let bits = 8 * body.len() - shift;
    (0..bits.div_ceil(8))
        .map(|i| {
            let next = body.get(i + 1).copied().unwrap_or(pad);
            (body[i] >> shift) | (next << (8 - shift))
        })
        .collect()
}

/// Sign-based compression (`payload.adoc`): drops trailing bytes whose bits all equal the
/// most significant bit of the byte before them. The result is never empty if the input
/// was not, and sign-extending it restores the input.
pub fn sign_compress(bytes: &mut Vec<u8>) {
    while bytes.len() > 1 {
        let last = bytes[bytes.len() - 1];
        let sign = bytes[bytes.len() - 2] >> 7;
        if (sign == 0 && last == 0x00) || (sign == 1 && last == 0xff) {
            bytes.pop();
        } else {
            break;
        }
    }
}

/// The number of bits of `bytes` that carry information: the smallest `m >= 1` such that
/// sign-extending the first `m` bits gives back all of `bytes`.
pub(crate) fn significant_bits(bytes: &[u8]) -> usize {
    let Some(&top) = bytes.last() else {
        return 0;
    };
    // The highest bit that differs from the sign, found a byte at a time.
    let fill = if top & 0x80 != 0 { 0xff } else { 0x00 };
    bytes.iter().rposition(|&b| b != fill).map_or(1, |k| {
        8 * k + 8 - (bytes[k] ^ fill).leading_zeros() as usize + 1
    })
}

/// Reads fields from a received payload, sign-extending past its end.
#[derive(Debug, Clone)]
pub(crate) struct BitReader<'a> {
    data: &'a [u8],
    pos: usize,
    last: bool,
}

impl<'a> BitReader<'a> {
    /// A reader at bit 0 of `data`; `data` must not be empty for reads to be meaningful
    /// (an empty input reads as zeros).
    pub(crate) fn new(data: &'a [u8]) -> Self {
        BitReader {
            data,
            pos: 0,
            last: false,
        }
    }

    /// The number of bits read so far.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The value of the bit read most recently (`false` before the first read).
    pub(crate) fn last_bit(&self) -> bool {
        self.last
    }

    /// Reads one bit; past the end of the data this is the most significant received bit.
    pub(crate) fn bit(&mut self) -> bool {
        let total = self.data.len() * 8;
        let bit = if total == 0 {
            false
        } else if self.pos < total {
            bit_at(self.data, self.pos)
        } else {
            bit_at(self.data, total - 1)
        };
        self.pos += 1;
        self.last = bit;
        bit
    }

    /// Reads a `width`-bit field (`width` <= 64), LSB first: from the data as many bits
    /// at a time as the current byte holds, past its end copies of its last bit.
    pub(crate) fn read(&mut self, width: u32) -> u64 {
        let width = width.min(64) as usize;
        let total = self.data.len() * 8;
        let mut value = 0u64;
        let mut done = 0;
        while done < width && self.pos < total {
            let offset = self.pos % 8;
            let take = (8 - offset).min(width - done);
            let chunk = low_bits(u64::from(self.data[self.pos / 8] >> offset), take as u32) as u8;
            value |= u64::from(chunk) << done;
            self.last = chunk >> (take - 1) & 1 == 1;
            self.pos += take;
            done += take;
        }
        if done < width {
            // Past the end: the most significant received bit (0 for no data).
            let sign = total != 0 && bit_at(self.data, total - 1);
            if sign {
                value |= mask(width as u32) & !mask(done as u32);
            }
            self.last = sign;
            self.pos += width - done;
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writer_is_lsb_first_and_sign_extends() {
        let mut w = BitWriter::new();
        w.push(0b11, 2);
        w.push(0b01, 2);
        w.push(1, 1);
        assert_eq!(w.len(), 5);
        assert!(w.last_bit());
        assert_eq!(w.into_sign_extended_bytes(), vec![0b1111_0111]);
    }

    #[test]
    fn compression_keeps_one_sign_bit() {
        let mut v = vec![0x05, 0x04, 0x01, 0x00, 0x80, 0x00, 0x00];
        sign_compress(&mut v);
        assert_eq!(v, vec![0x05, 0x04, 0x01, 0x00, 0x80, 0x00]);
        let mut v = vec![0xff, 0xff];
        sign_compress(&mut v);
        assert_eq!(v, vec![0xff]);
    }

    /// The byte-wise tail equals the bit-by-bit copy for every start bit of random
    /// strings.
    #[test]
    fn tail_bits_equals_the_bit_by_bit_copy() {
        let mut rng = crate::ingress::random::Rng::new(5);
        for len in 0..12usize {
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            for from in 0..=8 * len + 9 {
                let mut r = BitReader::new(&bytes);
                let mut w = BitWriter::new();
                for _ in 0..from {
                    r.bit();
                }
                for _ in from..8 * len {
                    w.push_bit(r.bit());
                }
                let want = w.into_sign_extended_bytes();
                assert_eq!(tail_bits(&bytes, from), want, "{bytes:x?} from {from}");
            }
        }
    }

    /// `significant_bits` is the bit-by-bit definition: one more than the highest bit
    /// that differs from the last bit (1 when none does).
    #[test]
    fn significant_bits_is_its_definition() {
        let mut rng = crate::ingress::random::Rng::new(3);
        for len in 0..10usize {
            for _ in 0..200 {
                let mut bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
                // Sign runs of random length at the top.
                let run = (rng.next_u64() as usize) % (len + 1);
                let fill = if rng.next_u64() & 1 == 1 { 0xff } else { 0 };
                bytes[len - run..].fill(fill);
                let total = 8 * len;
                let want = if total == 0 {
                    0
                } else {
                    let sign = bit_at(&bytes, total - 1);
                    (0..total)
                        .rev()
                        .find(|&i| bit_at(&bytes, i) != sign)
                        .map_or(1, |i| i + 2)
                };
                assert_eq!(significant_bits(&bytes), want, "{bytes:x?}");
            }
        }
    }

    #[test]
    fn significant_bits_counts_one_sign_bit() {
        assert_eq!(significant_bits(&[0x32, 0x04, 0x00, 0x00, 0x02]), 35);
        assert_eq!(significant_bits(&[0x00]), 1);
        assert_eq!(significant_bits(&[0xff, 0xff]), 1);
        assert_eq!(significant_bits(&[0x7f]), 8);
    }

    /// `push` and `read` of whole fields equal pushing and reading them bit by bit, for
    /// every width 0 to 64 at every bit offset, and reads past the end of the data.
    #[test]
    fn fields_equal_their_bits_one_by_one() {
        let mut rng = crate::ingress::random::Rng::new(11);
        for _ in 0..400 {
            let fields: Vec<(u64, u32)> = (0..rng.next_u64() % 12)
                .map(|_| (rng.next_u64(), (rng.next_u64() % 65) as u32))
                .collect();
            let (mut whole, mut bits) = (BitWriter::new(), BitWriter::new());
            for &(value, width) in &fields {
                whole.push(value, width);
                for i in 0..width {
                    bits.push_bit((value >> i) & 1 == 1);
                }
            }
            assert_eq!(whole, bits, "{fields:x?}");
            let data = whole.into_sign_extended_bytes();
            let (mut whole, mut bits) = (BitReader::new(&data), BitReader::new(&data));
            // Read the fields back, then as much again past the end.
            for &(_, width) in fields.iter().chain(&fields) {
                let value = whole.read(width);
                let one_by_one = (0..width).fold(0u64, |v, i| v | u64::from(bits.bit()) << i);
                assert_eq!(value, one_by_one, "{data:x?} width {width}");
                assert_eq!(
                    (whole.pos(), whole.last_bit()),
                    (bits.pos(), bits.last_bit())
                );
            }
        }
    }

    #[test]
    fn reader_sign_extends_from_last_byte() {
        let mut r = BitReader::new(&[0x80]);
        assert_eq!(r.read(7), 0);
        assert_eq!(r.read(16), 0xffff);
        assert_eq!(r.pos(), 23);
        let mut empty = BitReader::new(&[]);
        assert_eq!(
            (empty.read(9), empty.pos(), empty.last_bit()),
            (0, 9, false)
        );
    }
}
