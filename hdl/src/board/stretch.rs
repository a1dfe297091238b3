//! LED drive of the board top: a one-cycle event (a byte sent, trace lost) lights the LED
//! for a fixed number of cycles, long enough to be seen.

use etrace_spec::bitfield::mask;
use rust_hdl::prelude::*;

/// `active` is high for `hold` cycles after the last cycle with `pulse` high (counter of
/// `S` bits).
#[derive(LogicBlock)]
pub struct PulseStretch<const S: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// The event.
    pub pulse: Signal<In, Bit>,
    /// The event happened less than `hold` cycles ago.
    pub active: Signal<Out, Bit>,
    hold: Constant<Bits<S>>,
    count: DFF<Bits<S>>,
}

impl<const S: usize> PulseStretch<S> {
    /// Holds `active` for `hold` cycles (clamped to the counter's range).
    pub fn new(hold: u64) -> Self {
        let max = mask(S as u32);
        PulseStretch {
            clock: Default::default(),
            pulse: Default::default(),
            active: Default::default(),
            hold: Constant::new(hold.clamp(1, max).into()),
            count: Default::default(),
        }
    }
}

impl<const S: usize> Logic for PulseStretch<S> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count);
        self.active.next = self.count.q.val().any();
        if self.pulse.val() {
            self.count.d.next = self.hold.val();
        } else if self.count.q.val().any() {
            self.count.d.next = self.count.q.val() - 1;
        }
    }
}
