//! `NtraceCallStack`: the return address stack of N-Trace's implicit return optimisation
//! ("Implicit Return Optimization", stack with full addresses,
//! `trTeInstImplicitReturnMode` 3), as the model's `etrace_ntrace::call_stack::CallStack`
//! keeps it: a call pushes the address after it, a return pops, a co-routine swap pops
//! and pushes, a full stack drops its oldest entry, every synchronising message empties
//! it.

use rust_hdl::prelude::*;

/// Deepest stack of the hardware (the specification allows up to 32 levels; the model up
/// to `MAX_DEPTH` 32).
pub const CALL_STACK_MAX: usize = 8;

/// The stack: up to [`CALL_STACK_MAX`] entries of `A` bits, one register each, `e0` the
/// top; a push shifts them down (towards `e7`), a pop up. Only the first `depth` entries
/// are written (the others stay 0, so synthesis removes them). The outputs are
/// registers only: `clear` and the operation act on the next state.
#[derive(LogicBlock)]
pub struct NtraceCallStack<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Empty the stack (a synchronising message, reset) before this cycle's operation.
    pub clear: Signal<In, Bit>,
    /// A call (itype 8, 9): push `link`.
    pub push: Signal<In, Bit>,
    /// A return (itype 13): pop.
    pub pop: Signal<In, Bit>,
    /// A co-routine swap (itype 12): pop, then push `link`.
    pub swap: Signal<In, Bit>,
    /// The address after the call or swap.
    pub link: Signal<In, Bits<A>>,
    /// The top entry (the predicted return address), valid when `nonempty`.
    pub top: Signal<Out, Bits<A>>,
    /// The stack holds an entry (before this cycle's `clear`).
    pub nonempty: Signal<Out, Bit>,
    e0: DFF<Bits<A>>,
    e1: DFF<Bits<A>>,
    e2: DFF<Bits<A>>,
    e3: DFF<Bits<A>>,
    e4: DFF<Bits<A>>,
    e5: DFF<Bits<A>>,
    e6: DFF<Bits<A>>,
    e7: DFF<Bits<A>>,
    count: DFF<Bits<4>>,
    // The stack holds entries before the operation (none after `clear`).
    held_any: Signal<Local, Bit>,
    // Entries written: bit i for entry i (the first `depth`).
    live: Constant<Bits<8>>,
    depth: Constant<Bits<4>>,
}

impl<const A: usize> NtraceCallStack<A> {
    /// A stack of `depth` entries (0: the optimisation is off, nothing is kept).
    ///
    /// # Panics
    ///
    /// If `depth` is above [`CALL_STACK_MAX`] (a configuration error).
    pub fn new(depth: usize) -> Self {
        assert!(
            depth <= CALL_STACK_MAX,
            "call stack depth {depth} is above {CALL_STACK_MAX}"
        );
        NtraceCallStack {
            clock: Default::default(),
            clear: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            swap: Default::default(),
            link: Default::default(),
            top: Default::default(),
            nonempty: Default::default(),
            e0: Default::default(),
            e1: Default::default(),
            e2: Default::default(),
            e3: Default::default(),
            e4: Default::default(),
            e5: Default::default(),
            e6: Default::default(),
            e7: Default::default(),
            count: Default::default(),
            held_any: Default::default(),
            live: Constant::new(bits::<8>((1u64 << depth) - 1)),
            depth: Constant::new(bits::<4>(depth as u64)),
        }
    }
}

impl<const A: usize> Default for NtraceCallStack<A> {
    fn default() -> Self {
        Self::new(0)
    }
}

impl<const A: usize> Logic for NtraceCallStack<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, e0, e1, e2, e3, e4, e5, e6, e7, count);
        self.top.next = self.e0.q.val();
        self.nonempty.next = self.count.q.val().any();
        // The count's steps are formed from its flip-flops and `clear` only selects after
        // them (it comes late, from the generator's synchronising decision): a cleared
        // stack holds the one entry a push or a swap gives it, or none.
        self.held_any.next = self.count.q.val().any() && !self.clear.val();
        self.count.d.next = self.count.q.val();
        if self.push.val() && self.live.val().any() {
            // The oldest entry of a full stack falls off.
            if self.count.q.val() != self.depth.val() {
                self.count.d.next = self.count.q.val() + 1;
            }
            if self.live.val().get_bit(0) {
                self.e0.d.next = self.link.val();
            }
            if self.live.val().get_bit(1) {
                self.e1.d.next = self.e0.q.val();
            }
            if self.live.val().get_bit(2) {
                self.e2.d.next = self.e1.q.val();
            }
            if self.live.val().get_bit(3) {
                self.e3.d.next = self.e2.q.val();
            }
            if self.live.val().get_bit(4) {
                self.e4.d.next = self.e3.q.val();
            }
            if self.live.val().get_bit(5) {
                self.e5.d.next = self.e4.q.val();
            }
            if self.live.val().get_bit(6) {
                self.e6.d.next = self.e5.q.val();
            }
            if self.live.val().get_bit(7) {
                self.e7.d.next = self.e6.q.val();
            }
        }
        if self.pop.val() && self.held_any.val() {
            self.count.d.next = self.count.q.val() - 1;
            if self.live.val().get_bit(0) {
                self.e0.d.next = self.e1.q.val();
            }
            if self.live.val().get_bit(1) {
                self.e1.d.next = self.e2.q.val();
            }
            if self.live.val().get_bit(2) {
                self.e2.d.next = self.e3.q.val();
            }
            if self.live.val().get_bit(3) {
                self.e3.d.next = self.e4.q.val();
            }
            if self.live.val().get_bit(4) {
                self.e4.d.next = self.e5.q.val();
            }
            if self.live.val().get_bit(5) {
                self.e5.d.next = self.e6.q.val();
            }
            if self.live.val().get_bit(6) {
                self.e6.d.next = self.e7.q.val();
            }
        }
        if self.swap.val() && self.live.val().any() {
            // Pop and push: the top is replaced (an empty stack gets its one entry).
            self.e0.d.next = self.link.val();
            if !self.count.q.val().any() {
                self.count.d.next = 1.into();
            }
        }
        if self.clear.val() {
            self.count.d.next = 0.into();
            if self.push.val() || self.swap.val() {
                self.count.d.next = 1.into();
            }
        }
        // Without entries the count is constant 0 (synthesis drops the stack's logic and
        // everything that reads `nonempty`).
        if !self.live.val().any() {
            self.count.d.next = 0.into();
        }
    }
}
