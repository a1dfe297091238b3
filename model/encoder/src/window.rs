//! The previous / current / next instruction window of `exampleAlgorithm.adoc` ("A 3-stage
//! pipeline within the encoder is assumed").

use etrace_spec::ingress::IngressRecord;

/// One stage of the window: an ingress record with the encoder's side-band inputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Slot {
    /// The stage holds a record (false before the first records and after the last).
    pub valid: bool,
    /// The record meets the filtering criteria (`filtering.adoc`) and trace is enabled.
    pub qualified: bool,
    /// Trace-notify trigger (`ingressPort.adoc`, `trigger[2]`) on this record.
    pub notify: bool,
    /// The ingress record.
    pub rec: IngressRecord,
    /// Implicit return mode: this return was inferred from the return stack.
    pub implicit_return: bool,
    /// Implicit return mode: this return failed the return-address prediction.
    pub return_mispredicted: bool,
}

impl Slot {
    /// A valid stage.
    pub fn new(rec: IngressRecord, qualified: bool, notify: bool) -> Slot {
        Slot {
            valid: true,
            qualified,
            notify,
            rec,
            implicit_return: false,
            return_mispredicted: false,
        }
    }

    /// Valid and qualified: an instruction the encoder traces.
    pub fn traced(&self) -> bool {
        self.valid && self.qualified
    }

    /// A trap (`itype` 1 or 2) is signalled with this record.
    pub fn is_trap(&self) -> bool {
        self.valid && self.rec.itype.is_trap()
    }

    /// `exc_only`: a trap without retirement.
    pub fn is_exc_only(&self) -> bool {
        self.is_trap() && self.rec.iretire == 0
    }

    /// The record retires a branch.
    pub fn is_branch(&self) -> bool {
        self.valid && self.rec.iretire != 0 && self.rec.itype.is_branch()
    }
}

/// The three stages.
#[derive(Debug, Clone, Copy, Default)]
pub struct Window {
    /// The instruction before the current one.
    pub prev: Slot,
    /// The instruction packets are generated for.
    pub curr: Slot,
    /// The instruction after the current one.
    pub next: Slot,
}

impl Window {
    /// Clocks the window: `next` enters, `prev` leaves.
    pub fn shift(&mut self, next: Slot) {
        self.prev = self.curr;
        self.curr = self.next;
        self.next = next;
    }
}
