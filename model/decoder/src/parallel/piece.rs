//! Decoding one [`Piece`] on its own: its events (deframed here when the piece holds
//! framed bytes), a fresh decoder primed with the piece's first sync packet (see
//! [`TeDecoder::continues_into`]), then fed the rest; its elements go to a buffer given
//! back after an earlier piece's elements were consumed, when there is one.

use super::split::Piece;
use crate::element::TraceElement;
use crate::image::ProgramImage;
use crate::stream::{feed_payloads, Framing};
use crate::te_decoder::{DecoderConfig, TeDecoder};
use etrace_spec::params::Params;

/// What decoding a piece apart gave.
pub struct Decoded<'a> {
    /// The piece's place in the stream.
    pub seq: u64,
    /// The decoder state after the piece's first packet, when the piece is primed.
    pub primed: Option<TeDecoder<'a>>,
    /// The decoder after the whole piece.
    pub decoder: TeDecoder<'a>,
    /// The elements of the piece (after the primed packet).
    pub elements: Vec<TraceElement>,
}

/// Decodes `piece` (in `framing`) over `image`, its elements written to `buffer` (emptied
/// first) when one is given.
pub fn decode_piece<'a>(
    image: &'a ProgramImage,
    params: &Params,
    config: DecoderConfig,
    framing: &Framing,
    piece: &Piece,
    buffer: Option<Vec<TraceElement>>,
) -> Decoded<'a> {
    let mut decoder = TeDecoder::new(image, params, config);
    let all = piece.events(framing);
    let mut events = &all[..];
    let mut index = piece.first_index;
    let mut primed = None;
    if piece.primed && !events.is_empty() {
        decoder.resume_with(piece.options);
        index = feed_payloads(&mut decoder, params, index, &events[..1]);
        decoder.take_elements(false);
        primed = Some(decoder.clone());
        events = &events[1..];
    }
    if let Some(buffer) = buffer {
        decoder.reuse_element_buffer(buffer);
    }
    feed_payloads(&mut decoder, params, index, events);
    let elements = decoder.take_elements(piece.last);
    Decoded {
        seq: piece.seq,
        primed,
        decoder,
        elements,
    }
}
