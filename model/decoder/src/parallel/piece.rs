//! Decoding one [`Piece`] on its own: its events (deframed here when the piece holds
//! framed bytes), a fresh decoder primed with the piece's first sync packet (see
//! [`TeDecoder::continues_into`]), then fed the rest; its elements go to a buffer given
//! back after an earlier piece's elements were consumed, when there is one. A piece with a
//! long walk whose elements outgrow [`PIECE_ELEMENTS`] is left to the joiner, which
//! decodes it in order and hands its elements out as they come.

use super::split::Piece;
use crate::element::TraceElement;
use crate::image::ProgramImage;
use crate::stream::{feed_payloads, feed_payloads_with, Framing};
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
    /// False when the piece's elements outgrew [`PIECE_ELEMENTS`]: `elements` and
    /// `decoder` are then those of nothing decoded, and the piece must be decoded in order.
    pub complete: bool,
}

/// Most elements a worker holds for one piece: a piece whose walks give more (a long loop
/// in one format 0 packet) is decoded in order by the joiner, which streams them (see
/// [`TeDecoder::process_with`]). About 2^18 elements, 8 MiB; a piece of 4 KiB decodes to
/// some 20000.
pub const PIECE_ELEMENTS: usize = 1 << 18;

/// Why a worker stopped decoding a piece.
struct TooManyElements;

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
    let fed = feed_payloads_with(&mut decoder, params, index, events, |elements| {
        if elements.len() > PIECE_ELEMENTS {
            Err(TooManyElements)
        } else {
            Ok(())
        }
    });
    if fed.is_err() {
        return Decoded {
            seq: piece.seq,
            primed,
            decoder: TeDecoder::new(image, params, config),
            elements: Vec::new(),
            complete: false,
        };
    }
    let elements = decoder.take_elements(piece.last);
    Decoded {
        seq: piece.seq,
        primed,
        decoder,
        elements,
        complete: true,
    }
}
