//! The return address stack of the implicit return optimisation ("Implicit Return
//! Optimization", stack with full addresses, `trTeInstImplicitReturnMode` = 3), kept the
//! same way by the encoder and the decoder: calls push the address after the call, a
//! return or co-routine swap pops, a full stack drops its oldest entry, every
//! synchronising message empties it.

/// Deepest call stack the specification allows ("Implicit Return Optimization": never
/// deeper than 32 levels).
pub const MAX_DEPTH: usize = 32;

/// A bounded stack of return addresses.
#[derive(Debug, Clone, Default)]
pub struct CallStack {
    entries: Vec<u64>,
    depth: usize,
}

impl CallStack {
    /// A stack of `depth` entries (0: the optimisation is off, nothing is kept).
    pub fn new(depth: usize) -> CallStack {
        CallStack {
            entries: Vec::with_capacity(depth),
            depth,
        }
    }

    /// Whether the optimisation is on.
    pub fn enabled(&self) -> bool {
        self.depth > 0
    }

    /// A call: `link` is the address after it.
    pub fn push(&mut self, link: u64) {
        if self.depth == 0 {
            return;
        }
        if self.entries.len() == self.depth {
            self.entries.remove(0);
        }
        self.entries.push(link);
    }

    /// A return: the predicted return address, if the stack holds one.
    pub fn pop(&mut self) -> Option<u64> {
        self.entries.pop()
    }

    /// Empties the stack (at a synchronising message).
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}
