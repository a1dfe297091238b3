//! The resynchronisation counter of `exampleAlgorithm.adoc`, section `sec:resync`, counting
//! te_inst packets.
//!
//! The count is cleared by every synchronisation packet (format 3 subformats 0 and 1) and
//! incremented by every other packet. When it reaches the maximum while branches are waiting
//! (`resync_br`), the current instruction is reported with its branches (state 2 of the
//! spec's FSM); once it exceeds the maximum (`>max_resync`), the next traced instruction is
//! sent as a format 3 subformat 0 packet (state 3).

/// Packet counter driving periodic synchronisation.
#[derive(Debug, Clone, Copy, Default)]
pub struct ResyncCounter {
    max: u32,
    count: u32,
}

impl ResyncCounter {
    /// A counter forcing a resync after `max` packets; 0 disables resynchronisation.
    pub fn new(max: u32) -> ResyncCounter {
        ResyncCounter { max, count: 0 }
    }

    /// Counts a packet; synchronisation packets clear the count.
    pub fn packet_sent(&mut self, is_sync: bool) {
        if is_sync {
            self.count = 0;
        } else {
            self.count = self.count.saturating_add(1);
        }
    }

    /// `resync count == max_resync`: branches must be flushed now if there are any.
    pub fn at_max(&self) -> bool {
        self.max != 0 && self.count == self.max
    }

    /// `>max_resync`: a synchronisation packet is due.
    pub fn exceeded(&self) -> bool {
        self.max != 0 && self.count > self.max
    }

    /// Whether a synchronisation will be due after one more (non-sync) packet.
    pub fn exceeded_after_one_more(&self) -> bool {
        self.max != 0 && self.count.saturating_add(1) > self.max
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sec_resync_fsm_counts_packets() {
        let mut r = ResyncCounter::new(2);
        r.packet_sent(true);
        assert!(!r.at_max() && !r.exceeded());
        r.packet_sent(false);
        r.packet_sent(false);
        assert!(r.at_max() && !r.exceeded());
        assert!(r.exceeded_after_one_more());
        r.packet_sent(false);
        assert!(r.exceeded());
        r.packet_sent(true);
        assert!(!r.exceeded() && !r.at_max());
    }

    #[test]
    fn zero_disables_resync() {
        let mut r = ResyncCounter::new(0);
        for _ in 0..1000 {
            r.packet_sent(false);
        }
        assert!(!r.at_max() && !r.exceeded() && !r.exceeded_after_one_more());
    }
}
