//! Joining pieces of a trace decoded apart (parallel decoding, issue 27): a piece starts at
//! a format 3 subformat 0 synchronisation packet and is decoded by a fresh decoder primed
//! with that packet alone; the decoder of the previous piece processed the same packet
//! too, with the walk up to its address (`decoder.adoc` `follow_execution_path` for a
//! format 3). A sync clears the implicit-return stack (`irstack_depth = 0`), resets the
//! branch predictor (`payload.adoc` `sec:branch-prediction`) and sets `pc`, `address`,
//! `privilege` and `context`; what it leaves (the options of the latest support packet,
//! the branch outcomes queued, the instruction before `pc`, the open instruction range,
//! an error being resynchronised) is compared here. When the two decoders agree in all
//! that decides what follows, the piece's output is what the one decoder would have
//! produced, once its first instruction range is made to start where the previous
//! piece's open range started; else the previous piece's decoder must decode the piece.

use super::cursor::OpenRange;
use super::TeDecoder;
use crate::element::TraceElement;
use crate::image::HotKind;
use etrace_spec::packet::IOptions;

/// Where the instruction range open at a sync really starts: `extra` instructions before
/// the start of the primed decoder's range, at `first`.
#[derive(Debug, Clone, Copy)]
struct RangeFix {
    first: u64,
    extra: u64,
}

impl<'a> TeDecoder<'a> {
    /// Prepares a fresh decoder for a piece that starts at a synchronisation packet: the
    /// `ioptions` of the latest support packet before that packet (`sec:format33`).
    pub fn resume_with(&mut self, options: IOptions) {
        self.options = options;
    }

    /// `self`: the decoder that processed the previous piece up to and including a sync
    /// packet; `primed`: a fresh decoder given only that packet (after
    /// [`Self::resume_with`]); `next`: `primed` after the rest of the piece, which produced
    /// `elements`. True when, fixed here (first instruction range, instruction count),
    /// `next` and `elements` are what `self` gives for the rest of the piece; false when
    /// the states differ in what decides the output: `self` must decode the piece.
    pub fn continues_into(
        &self,
        primed: &TeDecoder<'a>,
        next: &mut TeDecoder<'a>,
        elements: &mut [TraceElement],
    ) -> bool {
        let Some(fix) = self.agrees_with(primed) else {
            return false;
        };
        if let Some(fix) = fix {
            let first_range = elements
                .iter_mut()
                .find(|e| matches!(e, TraceElement::Range { .. }));
            match (first_range, next.cursor.range.as_mut()) {
                (Some(TraceElement::Range { first, count, .. }), _) => {
                    *first = fix.first;
                    *count += fix.extra;
                }
                (_, Some(open)) => open.rebase(fix.first, fix.extra),
                // The primed range was taken back (a privilege change at the next sync).
                _ => return false,
            }
        }
        next.cursor.instructions =
            self.cursor.instructions + next.cursor.instructions - primed.cursor.instructions;
        true
    }

    /// The range fix (none when the open ranges are the same) when the states after the
    /// sync agree in all that decides the output; `None` when they do not.
    fn agrees_with(&self, primed: &TeDecoder<'a>) -> Option<Option<RangeFix>> {
        let same = self.resyncing == primed.resyncing
            && self.start_of_trace == primed.start_of_trace
            && self.stop_at_last_branch == primed.stop_at_last_branch
            && self.inferred_address == primed.inferred_address
            && self.address == primed.address
            && self.privilege == primed.privilege
            && self.context == primed.context
            && self.options == primed.options
            && self.cursor.pc == primed.cursor.pc
            && self.return_stack.entries() == primed.return_stack.entries()
            && self.predictor == primed.predictor
            && self.outcomes.same_outcomes(&primed.outcomes)
            && self.last_pc_agrees(primed);
        if !same {
            return None;
        }
        match (&self.cursor.range, &primed.cursor.range) {
            (None, None) => Some(None),
            (Some(r), Some(p)) => range_fix(r, p).map(Some),
            _ => None,
        }
    }

    /// `last_pc` decides only the step from an uninferable jump at `pc`
    /// (`is_sequential_jump`); later steps set it anew.
    fn last_pc_agrees(&self, primed: &TeDecoder<'a>) -> bool {
        self.cursor.last_pc == primed.cursor.last_pc
            || self
                .lookup
                .hot_at(self.cursor.pc)
                .is_ok_and(|h| h.kind != HotKind::UninferableJump)
    }
}

/// The fix that makes the primed range `primed` the actual range `actual`, when they end
/// alike and `actual` holds at least as many instructions.
fn range_fix(actual: &OpenRange, primed: &OpenRange) -> Option<RangeFix> {
    let (first, count) = actual.start();
    let (_, primed_count) = primed.start();
    (actual.same_end(primed) && count >= primed_count).then_some(RangeFix {
        first,
        extra: count - primed_count,
    })
}
