//! The HIST register ("HIST Field Generation", "HIST Field Full"): a left-shift register
//! whose most significant one is the stop bit; each direct conditional branch shifts in 1
//! (taken) or 0 (not taken); it is full when the stop bit reaches its top bit.

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
}
