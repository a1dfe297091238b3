//! Implicit return mode (`branchTrace.adoc`, `sec:implicit-return`; fields `irreport` and
//! `irdepth` of `payload.adoc`, `sec:irxx`), with the 2.0 semantics. Off by default: the
//! 2.0 text does not decode correctly in every case (errata in `spec/README.md`).
//!
//! Calls (itype 8, 9) push their return address; a return (itype 13) is inferable when the
//! stack is not empty and, with a return address stack (`return_stack_size_p > 0`), its
//! target equals the predicted address; with a call counter (`call_counter_size_p > 0`)
//! only the depth is checked. A full stack drops its oldest entry (as `decoder.adoc`'s
//! `push_return_stack`). Co-routine swaps (itype 12) leave the stack alone. Every
//! synchronisation packet empties the stack.

use etrace_spec::params::Params;

/// Nested-call tracking of the encoder.
#[derive(Debug, Clone)]
pub struct ReturnStack {
    entries: Vec<u64>,
    capacity: usize,
    compare_addresses: bool,
    /// A return was inferred since the most recent call.
    return_since_call: bool,
    /// A branch retired since the most recent inferred return.
    branch_since_return: bool,
}

impl ReturnStack {
    /// A stack sized by `return_stack_size_p` (addresses compared) or, if that is 0,
    /// `call_counter_size_p` (depth only).
    pub fn new(params: &Params) -> ReturnStack {
        let (size, compare) = if params.return_stack_size_p > 0 {
            (params.return_stack_size_p, true)
        } else {
            (params.call_counter_size_p, false)
        };
        ReturnStack {
            entries: Vec::new(),
            capacity: 1usize << size.min(16),
            compare_addresses: compare,
            return_since_call: false,
            branch_since_return: false,
        }
    }

    /// Number of entries (the nested call count).
    pub fn depth(&self) -> u64 {
        self.entries.len() as u64
    }

    /// A call retired; `link` is the address after it.
    pub fn call(&mut self, link: u64) {
        if self.entries.len() == self.capacity {
            self.entries.remove(0);
        }
        self.entries.push(link);
        self.return_since_call = false;
    }

    /// A return to `target` retired: true if it is inferable (then it is popped).
    pub fn try_return(&mut self, target: u64) -> bool {
        let Some(&top) = self.entries.last() else {
            return false;
        };
        if self.compare_addresses && top != target {
            return false;
        }
        self.entries.pop();
        self.return_since_call = true;
        self.branch_since_return = false;
        true
    }

    /// A branch retired.
    pub fn branch(&mut self) {
        self.branch_since_return = true;
    }

    /// Whether a packet reporting the last instruction before a format 3 must carry the
    /// depth (`sec:irxx`): for the target of an inferred return whenever the depth is
    /// non-zero, otherwise unless no return was inferred since the last call or a branch
    /// retired since the last inferred return.
    pub fn must_report_depth(&self, after_inferred_return: bool) -> bool {
        if self.entries.is_empty() {
            return false;
        }
        after_inferred_return || (self.return_since_call && !self.branch_since_return)
    }

    /// Empties the stack (a synchronisation packet was sent).
    pub fn reset(&mut self) {
        self.entries.clear();
        self.return_since_call = false;
        self.branch_since_return = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sec_implicit_return_stack_predicts_matching_returns() {
        let p = Params {
            return_stack_size_p: 1,
            ..Params::rv32()
        };
        let mut s = ReturnStack::new(&p);
        s.call(0x104);
        s.call(0x204);
        assert!(!s.try_return(0x999), "mispredicted return is not inferable");
        assert!(s.try_return(0x204));
        assert!(s.try_return(0x104));
        assert!(!s.try_return(0x104), "empty stack");
    }

    #[test]
    fn sec_implicit_return_counter_checks_depth_only_and_drops_oldest() {
        let p = Params {
            call_counter_size_p: 1,
            ..Params::rv32()
        };
        let mut s = ReturnStack::new(&p);
        for a in [1, 2, 3] {
            s.call(a);
        }
        assert_eq!(s.depth(), 2);
        assert!(s.try_return(0x999));
        assert!(s.try_return(0x999));
        assert!(!s.try_return(0x999));
    }
}
