//! The moving state of `decoder.adoc`'s `follow_execution_path` (the globals `pc` and
//! `last_pc`) and what `report_pc` builds from it: the open range of sequentially executed
//! instructions, closed into a [`TraceElement::Range`] when execution leaves it.

use crate::element::{RangeEnd, TraceElement};
use crate::image::ProgramImage;

/// Where the decoder is on the execution path, and the range it is building. A plain value:
/// the walks of the decoder take a copy, move it, and store it back, so that it can live
/// in registers while they run.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Cursor {
    /// `pc`: the last instruction reported.
    pub pc: u64,
    /// `last_pc`: the instruction before it.
    pub last_pc: u64,
    /// The instruction at `last_pc` was a return followed implicitly
    /// (`sec:implicit-return`).
    pub last_was_implicit_return: bool,
    /// The range `report_pc` is building.
    pub range: Option<OpenRange>,
    /// Instructions reported so far.
    pub instructions: u64,
}

/// What `next_pc` found for one instruction.
#[derive(Debug, Clone, Copy)]
pub(super) struct Next {
    /// The next instruction's address (before masking to the address width).
    pub pc: u64,
    /// The class of the instruction left.
    pub end: RangeEnd,
    /// The instruction left is a return followed implicitly.
    pub implicit_return: bool,
    /// It is an uninferable discontinuity, followed to the reported address.
    pub stop: bool,
}

impl Next {
    /// A move to `pc` that is inferred from the program (not a stop, not a return).
    #[inline(always)]
    pub fn to(pc: u64, end: RangeEnd) -> Next {
        Next {
            pc,
            end,
            implicit_return: false,
            stop: false,
        }
    }
}

/// A range of instructions executed one after the other, still open.
#[derive(Debug, Clone, Copy)]
pub(super) struct OpenRange {
    first: u64,
    last: u64,
    /// Size of the instruction at `last`.
    last_size: u64,
    count: u64,
    /// How the last instruction left the range, once known.
    end: RangeEnd,
}

impl OpenRange {
    /// A range of the one instruction at `pc`.
    #[inline(always)]
    fn new(pc: u64, size: u64) -> OpenRange {
        OpenRange {
            first: pc,
            last: pc,
            last_size: size,
            count: 1,
            end: RangeEnd::Sequential,
        }
    }

    /// True when `other` ends as this range does (same last instruction, same class):
    /// the two grow alike with the instructions that follow.
    pub fn same_end(&self, other: &OpenRange) -> bool {
        self.last == other.last && self.last_size == other.last_size && self.end == other.end
    }

    /// The first instruction and the count.
    pub fn start(&self) -> (u64, u64) {
        (self.first, self.count)
    }

    /// Moves the start of the range to `first`, `extra` instructions earlier.
    pub fn rebase(&mut self, first: u64, extra: u64) {
        self.first = first;
        self.count += extra;
    }

    /// The range as an element.
    #[inline(always)]
    pub fn element(&self) -> TraceElement {
        TraceElement::Range {
            first: self.first,
            last: self.last,
            count: self.count,
            end: self.end,
        }
    }
}

impl Cursor {
    /// Moves past the instruction at `pc` as `next` says (the target masked to the
    /// address width by `mask`), noting how it left the open range.
    #[inline(always)]
    pub fn advance(&mut self, next: &Next, mask: u64) {
        let this_pc = self.pc;
        if let Some(r) = &mut self.range {
            if r.last == this_pc {
                r.end = next.end;
            }
        }
        self.pc = next.pc & mask;
        self.last_pc = this_pc;
        self.last_was_implicit_return = next.implicit_return;
    }

    /// `report_pc` for the instruction at `pc` of `size` bytes: appends it to the open
    /// range when it follows the range's last instruction sequentially, else opens a new
    /// range; returns the range this closed.
    #[inline(always)]
    pub fn report(&mut self, pc: u64, size: u64) -> Option<OpenRange> {
        self.instructions += 1;
        match &mut self.range {
            Some(r)
                if r.last.wrapping_add(r.last_size) == pc
                    && matches!(
                        r.end,
                        RangeEnd::Sequential | RangeEnd::NotTakenBranch | RangeEnd::EcallEbreak
                    ) =>
            {
                r.last = pc;
                r.last_size = size;
                r.count += 1;
                r.end = RangeEnd::Sequential;
                None
            }
            _ => self.range.replace(OpenRange::new(pc, size)),
        }
    }

    /// True when the open range ends with the instruction at `pc`.
    #[inline(always)]
    pub fn range_ends_at(&self, pc: u64) -> bool {
        self.range.is_some_and(|r| r.last == pc)
    }

    /// [`Self::advance`] and [`Self::report`] over a straight-line run of `n` sequential
    /// instructions at once: the run from `pc` on, the last of them at `last_pc`, is left
    /// for the instruction at `target` (`size` bytes), reported. The open range must end
    /// at `pc` ([`Self::range_ends_at`]); it grows as it would one instruction at a time.
    #[inline(always)]
    pub fn cross_run(&mut self, n: u64, last_pc: u64, target: u64, size: u64) {
        if let Some(r) = &mut self.range {
            r.last = target;
            r.last_size = size;
            r.count += n;
            r.end = RangeEnd::Sequential;
        }
        self.instructions += n;
        self.last_pc = last_pc;
        self.last_was_implicit_return = false;
        self.pc = target;
    }

    /// Takes the most recently reported instruction back out of the open range (ranges
    /// are sequential: the one before it is found by walking `image` from the first).
    pub fn unreport_last(&mut self, image: &ProgramImage) {
        let Some(r) = &mut self.range else {
            return;
        };
        self.instructions -= 1;
        if r.count == 1 {
            self.range = None;
            return;
        }
        let mut pc = r.first;
        for _ in 0..r.count - 2 {
            pc += image.insn(pc).map_or(2, |i| i.size());
        }
        r.last = pc;
        r.last_size = image.insn(pc).map_or(2, |i| i.size());
        r.count -= 1;
    }

    /// Closes the open range: its element, if there was one.
    pub fn close(&mut self) -> Option<TraceElement> {
        self.range.take().map(|r| r.element())
    }
}
