//! What the decoder's unit tests share: a program image of a few instructions, and the
//! trace elements of a message sequence.

use super::{NtraceDecoder, NtraceDecoderConfig};
use crate::message::{Body, Message};
use etrace_decoder::{ProgramImage, TraceElement};
use etrace_spec::isa::Xlen;

/// An RV32 image of `code`: (address, encoding, size in bytes), the first at the lowest
/// address, zeros between.
pub fn image(code: &[(u64, u32, usize)]) -> ProgramImage {
    let base = code[0].0;
    let end = code
        .iter()
        .map(|&(a, _, size)| a + size as u64)
        .max()
        .unwrap();
    let mut bytes = vec![0u8; (end - base) as usize];
    for &(address, word, size) in code {
        let at = (address - base) as usize;
        bytes[at..at + size].copy_from_slice(&word.to_le_bytes()[..size]);
    }
    let mut image = ProgramImage::new();
    image.add_code(base, &bytes, Xlen::X32).unwrap();
    image
}

/// The trace elements of `bodies` (no SRC, no timestamps), decoded over `image`.
pub fn decode(image: &ProgramImage, bodies: &[Body]) -> Vec<TraceElement> {
    let mut decoder = NtraceDecoder::new(image, NtraceDecoderConfig::default());
    for (i, body) in bodies.iter().enumerate() {
        let message = Message {
            src: 0,
            body: *body,
            tstamp: None,
        };
        decoder.process(&message, i as u64, None);
    }
    decoder.take_elements()
}
