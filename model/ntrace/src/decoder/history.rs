//! Reading HIST fields ("HIST Field Generation": the bit after the stop bit is the first
//! branch, bit 0 the last), and the history a block collects from ResourceFull messages
//! (RCODE 1, and RCODE 2 repeated HREPEAT times, "Repeated History Optimization") before
//! the HIST of the message that ends it, read lazily so that repeats cost no memory.

use std::collections::VecDeque;

/// The branch outcomes of one HIST field, first branch first.
pub fn bits(hist: u64) -> impl Iterator<Item = bool> {
    let n = 63u32.saturating_sub(hist.leading_zeros());
    (0..n).rev().map(move |i| (hist >> i) & 1 != 0)
}

/// The history of a block: HIST values, each with a repeat count.
#[derive(Debug, Clone, Default)]
pub struct BlockHistory {
    chunks: VecDeque<(u64, u64)>,
    /// Bits of the front chunk still to read (its position below the stop bit).
    pos: u32,
}

impl BlockHistory {
    /// Adds `hist` repeated `times` times.
    pub fn add(&mut self, hist: u64, times: u64) {
        if hist > 1 && times > 0 {
            if self.chunks.is_empty() {
                self.pos = 63 - hist.leading_zeros();
            }
            self.chunks.push_back((hist, times));
        }
    }

    /// Whether no bit is left.
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// Empties it.
    pub fn clear(&mut self) {
        self.chunks.clear();
        self.pos = 0;
    }

    /// The next branch outcome.
    pub fn next_bit(&mut self) -> Option<bool> {
        let (hist, times) = self.chunks.front_mut()?;
        self.pos -= 1;
        let bit = (*hist >> self.pos) & 1 != 0;
        if self.pos == 0 {
            *times -= 1;
            if *times == 0 {
                self.chunks.pop_front();
            }
            if let Some((h, _)) = self.chunks.front() {
                self.pos = 63 - h.leading_zeros();
            }
        }
        Some(bit)
    }
}
