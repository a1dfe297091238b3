//! Joining decoded pieces in stream order (see [`TeDecoder::continues_into`]): each piece's
//! output is taken when the decoder state it was primed with agrees with the state the
//! previous pieces left; else the piece is decoded again from that state, here.

use super::piece::Decoded;
use super::split::Piece;
use crate::element::TraceElement;
use crate::stream::{feed_payloads_with, Framing};
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

    /// Joins the next piece, `decoded` apart: hands its elements, as the sequential
    /// decoder gives them, to `out` (with `piece.last`; a piece decoded here in order
    /// hands out the elements of a long walk as they come, with `false`). The first error
    /// of `out` ends the joining.
    pub fn join<E>(
        &mut self,
        piece: &Piece,
        decoded: Decoded<'a>,
        out: &mut impl FnMut(Vec<TraceElement>, bool) -> Result<(), E>,
    ) -> Result<(), E> {
        self.pieces += 1;
        let Decoded {
            primed,
            mut decoder,
            mut elements,
            complete,
            ..
        } = decoded;
        let mut actual = match self.actual.take() {
            // The first piece: its decoder is the sequential decoder (a fresh one when
            // the worker left the piece).
            None if complete => {
                self.actual = Some(decoder);
                return out(elements, piece.last);
            }
            None => decoder,
            Some(actual) => {
                if let (true, Some(primed)) = (complete, &primed) {
                    if actual.continues_into(primed, &mut decoder, &mut elements) {
                        self.actual = Some(decoder);
                        return out(elements, piece.last);
                    }
                }
                actual
            }
        };
        self.redecoded += 1;
        let skip = usize::from(primed.is_some());
        let index = piece.first_index + skip as u64;
        let events = piece.events(&self.framing);
        feed_payloads_with(&mut actual, &self.params, index, &events[skip..], |e| {
            out(std::mem::take(e), false)
        })?;
        let elements = actual.take_elements(piece.last);
        self.actual = Some(actual);
        out(elements, piece.last)
    }

    /// Instructions reconstructed by the pieces joined.
    pub fn instructions(&self) -> u64 {
        self.actual.as_ref().map_or(0, |d| d.instructions())
    }
}
