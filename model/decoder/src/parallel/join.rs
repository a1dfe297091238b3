//! Joining decoded pieces in stream order (see [`TeDecoder::continues_into`]): each piece's
//! output is taken when the decoder state it was primed with agrees with the state the
//! previous pieces left; else the piece is decoded again from that state, here.

use super::piece::Decoded;
use super::split::Piece;
use crate::element::TraceElement;
use crate::stream::{feed_payloads, Framing};
use crate::te_decoder::TeDecoder;
use etrace_spec::params::Params;

/// The decoder state the pieces joined so far left, and counts.
pub struct Joiner<'a> {
    params: Params,
    framing: Framing,
    /// The decoder as the one sequential decoder would be after the pieces joined.
    actual: Option<TeDecoder<'a>>,
    /// Pieces joined.
    pub pieces: u64,
    /// Pieces decoded again because their primed state did not agree.
    pub redecoded: u64,
}

impl<'a> Joiner<'a> {
    /// A joiner for packets of an encoder with `params`, framed in `framing`.
    pub fn new(params: &Params, framing: &Framing) -> Joiner<'a> {
        Joiner {
            params: params.clone(),
            framing: *framing,
            actual: None,
            pieces: 0,
            redecoded: 0,
        }
    }

    /// Joins the next piece, `decoded` apart: its elements, as the sequential decoder
    /// gives them.
    pub fn join(&mut self, piece: &Piece, decoded: Decoded<'a>) -> Vec<TraceElement> {
        self.pieces += 1;
        let Decoded {
            primed,
            mut decoder,
            mut elements,
            ..
        } = decoded;
        let Some(mut actual) = self.actual.take() else {
            self.actual = Some(decoder);
            return elements;
        };
        if let Some(primed) = &primed {
            if actual.continues_into(primed, &mut decoder, &mut elements) {
                self.actual = Some(decoder);
                return elements;
            }
        }
        self.redecoded += 1;
        let skip = usize::from(primed.is_some());
        let index = piece.first_index + skip as u64;
        let events = piece.events(&self.framing);
        feed_payloads(&mut actual, &self.params, index, &events[skip..]);
        let elements = actual.take_elements(piece.last);
        self.actual = Some(actual);
        elements
    }

    /// Instructions reconstructed by the pieces joined.
    pub fn instructions(&self) -> u64 {
        self.actual.as_ref().map_or(0, |d| d.instructions())
    }
}
