//! The HIST register ("HIST Field Generation", "HIST Field Full"): a left-shift register
//! whose most significant one is the stop bit; each direct conditional branch shifts in 1
//! (taken) or 0 (not taken); it is full when the stop bit reaches its top bit.

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;

/// The encoder's branch history register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct History {
    value: u64,
    /// Width in bits, stop bit included (2..=32, `NTRACE_MAX_HIST`).
    bits: u32,
}

impl History {
    /// An empty register of `bits` bits (clamped to 2..=32).
    pub fn new(bits: u32) -> History {
        History {
            value: 1,
            bits: bits.clamp(2, 32),
        }
    }

    /// Adds the outcome of a direct conditional branch as the least significant bit.
    pub fn push(&mut self, taken: bool) {
        self.value = (self.value << 1) | u64::from(taken);
    }

    /// The HIST field value (stop bit included).
    pub fn value(&self) -> u64 {
        self.value
    }

    /// No branch recorded.
    pub fn is_empty(&self) -> bool {
        self.value == 1
    }

    /// The stop bit reached the register's top bit ("HIST Field Full").
    pub fn is_full(&self) -> bool {
        self.value >> (self.bits - 1) != 0
    }

    /// Back to empty.
    pub fn reset(&mut self) {
        self.value = 1;
    }

    /// Takes the whole register as a HIST value and empties it.
    pub fn take(&mut self) -> u64 {
        std::mem::replace(&mut self.value, 1)
    }

    /// Takes a full register for a ResourceFull message with repeated history: when its
    /// branch bits repeat with a period of at most half their number, only the whole
    /// periods go out and the rest stays as the start of the next HIST, so that the next
    /// full register holds the same pattern in the same phase and counts as a repeat
    /// ("ResourceFull Message": any number of history bits from 2 may be sent; "Repeated
    /// History Optimization": any sequence whose concatenated bits are the same).
    pub fn take_periodic(&mut self) -> u64 {
        let n = 63 - self.value.leading_zeros();
        let bits = self.value & ((1u64 << n) - 1);
        let period = (1..=n / 2).find(|&p| bits >> p == bits & ((1u64 << (n - p)) - 1));
        let Some(p) = period else {
            return self.take();
        };
        let sent = n / p * p;
        let kept = n - sent;
        self.value = (1u64 << kept) | (bits & ((1u64 << kept) - 1));
        (1u64 << sent) | (bits >> kept)
    }
}
