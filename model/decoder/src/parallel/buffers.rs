//! The element buffers of parallel decoding, handed back after their elements were
//! consumed and reused by the workers for the next pieces: a piece decodes to about 150
//! times its size in elements, and buffers grown afresh for every piece cost the parallel
//! decoder page faults and copies that the sequential decoder, which reuses its memory,
//! does not pay (issue 27).

use crate::element::TraceElement;
use std::sync::Mutex;

/// Emptied element buffers, at most a given number of them.
pub struct ElementBuffers {
    free: Mutex<Vec<Vec<TraceElement>>>,
    limit: usize,
}

impl ElementBuffers {
    /// A pool keeping at most `limit` buffers (the pieces in flight at once).
    pub fn new(limit: usize) -> ElementBuffers {
        ElementBuffers {
            free: Mutex::new(Vec::new()),
            limit,
        }
    }

    /// A buffer handed back earlier, if there is one (its elements are stale: the decoder
    /// empties it).
    pub fn take(&self) -> Option<Vec<TraceElement>> {
        self.free.lock().ok()?.pop()
    }

    /// Hands `buffer` back for reuse (dropped when the pool is full).
    pub fn give(&self, mut buffer: Vec<TraceElement>) {
        buffer.clear();
        if let Ok(mut free) = self.free.lock() {
            if free.len() < self.limit {
                free.push(buffer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Buffers come back emptied, with their capacity, up to the limit.
    #[test]
    fn buffers_come_back_empty_up_to_the_limit() {
        let pool = ElementBuffers::new(1);
        assert!(pool.take().is_none());
        let mut a = Vec::with_capacity(100);
        a.push(TraceElement::TraceOff);
        pool.give(a);
        pool.give(vec![TraceElement::TraceLost]);
        let back = pool.take().expect("one buffer kept");
        assert!(back.is_empty());
        assert!(back.capacity() >= 100);
        assert!(pool.take().is_none());
    }
}
