//! The decoder's copy of the encoder's implicit-return stack (`sec:implicit-return`, 2.0
//! `irreport` / `irdepth`): calls of the jump class "call" (`ingressPort.adoc`
//! `JumpClasses`, as the encoder counts them) push their return address, implicitly
//! followed returns pop it; a full stack drops its oldest entry.

/// Return addresses of the calls followed, oldest first.
#[derive(Debug, Clone)]
pub(super) struct ReturnStack {
    entries: Vec<u64>,
    /// The encoder's depth: 2^`return_stack_size_p` (else 2^`call_counter_size_p`).
    capacity: usize,
}

impl ReturnStack {
    /// An empty stack of `capacity` entries.
    pub fn new(capacity: usize) -> ReturnStack {
        ReturnStack {
            entries: Vec::new(),
            capacity,
        }
    }

    /// A call: pushes its return address (a full stack drops its oldest entry).
    pub fn push(&mut self, address: u64) {
        if self.entries.len() == self.capacity {
            self.entries.remove(0);
        }
        self.entries.push(address);
    }

    /// An implicit return: pops the predicted return address.
    pub fn pop(&mut self) -> Option<u64> {
        self.entries.pop()
    }

    /// The predicted return address of the next return.
    pub fn top(&self) -> Option<u64> {
        self.entries.last().copied()
    }

    /// The return addresses, oldest first.
    pub fn entries(&self) -> &[u64] {
        &self.entries
    }

    /// The depth (compared with `irdepth`).
    pub fn depth(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Forgets every entry (the encoder's stack is reset by every synchronisation).
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}
