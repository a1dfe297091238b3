//! `ReturnStack`: the return address stack of implicit return mode (`branchTrace.adoc`,
//! `sec:implicit-return`) with the 2.0 semantics and the errata decisions of the model
//! (`etrace_encoder::implicit_return::ReturnStack`, driven as `Encoder::track_calls`,
//! `Encoder::branches_reported` and `Encoder::implicit_return_report` drive it), and the
//! `irreport` / `irdepth` state of `payload.adoc`, `sec:irxx`.
//!
//! Calls (`itype` 8, 9) push the address after them; a return (`itype` 13) with a record
//! in `next` is inferred when the stack is not empty and its top equals `next`'s address
//! (then it is popped); a full stack drops its oldest entry. A format 3.0 / 3.1 (a sync, a
//! trap, the recovery sync) and trace enable empty it; the reported instruction's own call
//! then acts on the empty stack.

use crate::packer::ZeroExtend;
use rust_hdl::prelude::*;

/// Largest `return_stack_size_p` of the hardware (a stack of 8 entries).
pub const RETURN_STACK_MAX_BITS: usize = 3;

/// Entries of the largest stack.
const MAX_ENTRIES: usize = 1 << RETURN_STACK_MAX_BITS;

/// Bits of the stack vector: [`MAX_ENTRIES`] entries of up to 64 address bits.
const STACK_BITS: usize = MAX_ENTRIES * 64;

/// Width of the `irdepth` value port (`return_stack_size_p + 1` bits are sent).
pub const IRDEPTH_BITS: usize = 8;

/// The return stack's LUT boundaries (`hdl/DESIGN.md`, "LUT boundaries and `top_hit` alone",
/// [`crate::lut_boundary`]): the `A`-bit compares of the candidates for the next top, each
/// a tree of its own before `shift` and the push / pop select the outcome.
pub const LUT_BOUNDARIES: &[&str] = &[
    "link_matches_next",
    "link_matches_incoming",
    "second_matches_next",
    "second_matches_incoming",
    "top_matches_incoming",
];

/// The stack, its depth and the two flags of `sec:irxx` (a return was inferred since the
/// last call; a branch retired since the last inferred return), updated for the current
/// instruction in a deciding cycle.
///
/// The stack is one vector, the top in the low `A` bits: a push shifts it up by `A` bits
/// (the oldest entry falls off above 2^`return_stack_size_p` entries), a pop down, so the
/// top is read from flip-flops. The count alone says which entries hold addresses: a
/// restart clears the count, not the vector. Whether the stack is not empty and its top
/// equals `next`'s address is a flip-flop too (`hdl/DESIGN.md`, "Timing of the
/// all-options build"), formed a cycle early from the candidates for the next top and
/// `next`'s next address. Built with `return_stack_size_p` 0 ([`Default`]) its state is
/// constant 0 (synthesis removes it; a simulator has nothing to evaluate).
///
/// The outputs the decision reads (`hit`, `depth`, `must_report` and the flags of
/// `prev`) do not depend on `restart`, which the decision forms: the next state alone
/// does (so there is no loop through the decision, for Verilator either).
#[derive(LogicBlock)]
pub struct ReturnStack<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Run-time option `implicit_return`: without it (or without a stack) nothing is
    /// pushed. Stable while trace is enabled (`hdl/DESIGN.md` item 2): trace enable's
    /// restart empties the stack, so without the option the stack is empty in every
    /// decision and `top_hit` (which implies an entry) is low.
    pub option: Signal<In, Bit>,
    /// A deciding cycle (the flags of `prev` are replaced).
    pub decide: Signal<In, Bit>,
    /// `curr` is traced and retires an instruction (a deciding cycle).
    pub update: Signal<In, Bit>,
    /// `curr` retires a call.
    pub call: Signal<In, Bit>,
    /// `curr` retires a return.
    pub ret: Signal<In, Bit>,
    /// `curr` retires a branch.
    pub branch: Signal<In, Bit>,
    /// The address after `curr` (`iaddr` plus its size, from flip-flops): the link a call
    /// pushes.
    pub link: Signal<In, Bits<A>>,
    /// `next` holds a record.
    pub next_valid: Signal<In, Bit>,
    /// The window shifts at this cycle's edge: `next` then takes `incoming_iaddr`.
    pub shift: Signal<In, Bit>,
    /// `next` `iaddr` (flip-flops).
    pub next_iaddr: Signal<In, Bits<A>>,
    /// The `iaddr` that enters `next` at a shift (flip-flops). The top's candidates are
    /// compared with both addresses a cycle early, and `shift` selects the outcome (not
    /// the address before the compares).
    pub incoming_iaddr: Signal<In, Bits<A>>,
    /// A format 3.0 / 3.1 is sent for `curr`, or trace is enabled: the stack empties
    /// (before `curr`'s own call is pushed).
    pub restart: Signal<In, Bit>,
    /// Implicit return is on: the option, in hardware with a stack (`ioptions`).
    pub enabled: Signal<Out, Bit>,
    /// The stack is not empty and its top equals `next`'s `iaddr` (a flip-flop): a
    /// return in `curr` with `next` valid is inferred if it is traced and retires in a
    /// deciding cycle. The decision reads it with keys that fold in whether `curr` is
    /// such a return ([`super::chart_key::ChartKeys`]`::next_ppccd_ir`), so that its
    /// selection is one LUT from flip-flops; only for `plain` keys (the chart's
    /// `rest`), which imply `update`.
    pub hit: Signal<Out, Bit>,
    /// The depth after `curr` (`irdepth`), without a restart.
    pub depth: Signal<Out, Bits<IRDEPTH_BITS>>,
    /// An address packet for `curr` before a format 3 carries the depth (`sec:irxx`,
    /// the model's `must_report_depth`).
    pub must_report: Signal<Out, Bit>,
    /// `prev` is an inferred return.
    pub prev_inferred: Signal<Out, Bit>,
    /// `prev` is a return that failed the prediction with a non-empty stack.
    pub prev_mispredicted: Signal<Out, Bit>,
    stack: DFF<Bits<STACK_BITS>>,
    count: DFF<Bits<4>>,
    return_since_call: DFF<Bit>,
    branch_since_return: DFF<Bit>,
    inferred_q: DFF<Bit>,
    mispredicted_q: DFF<Bit>,
    /// The stack is not empty (so the option is on) and its top equals `next`'s `iaddr`
    /// (one flip-flop, the decision's `hit`).
    top_hit: DFF<Bit>,
    active: Signal<Local, Bit>,
    do_call: Signal<Local, Bit>,
    do_return: Signal<Local, Bit>,
    nonempty: Signal<Local, Bit>,
    /// `curr` is an inferred return (with `update`).
    popped: Signal<Local, Bit>,
    count_after: Signal<Local, Bits<4>>,
    rsc_after: Signal<Local, Bit>,
    bsr_after: Signal<Local, Bit>,
    // The same terms again for the next state (see the type's documentation).
    n_call: Signal<Local, Bit>,
    n_pop: Signal<Local, Bit>,
    pushed: PushedLink<A>,
    // The next top's candidates compared with `next`'s `iaddr` and with the one a shift
    // brings, and the comparison after the edge that `shift` selects.
    link_matches_next: Signal<Local, Bit>,
    link_matches_incoming: Signal<Local, Bit>,
    second_matches_next: Signal<Local, Bit>,
    second_matches_incoming: Signal<Local, Bit>,
    top_matches_incoming: Signal<Local, Bit>,
    link_matches: Signal<Local, Bit>,
    second_matches: Signal<Local, Bit>,
    top_stays_matching: Signal<Local, Bit>,
    /// At least two entries (a pop leaves one).
    deep: Signal<Local, Bit>,
    x_depth: ZeroExtend<4, IRDEPTH_BITS>,
    available: Constant<Bit>,
    capacity: Constant<Bits<4>>,
    /// Where the second entry starts in the stack vector: entries are `A` bits each, the
    /// top at bit 0, so the entry below the top starts at bit `A`. Nine bits wide because a
    /// part-select index into the stack vector (up to 512 bits) must be as wide as the
    /// vector's bit index for Verilator.
    second_at: Constant<Bits<9>>,
    keep: Constant<Bits<STACK_BITS>>,
    entry_bits: Constant<Bits<16>>,
}

impl<const A: usize> ReturnStack<A> {
    /// A stack of 2^`size` entries (`return_stack_size_p`, 0 to
    /// [`RETURN_STACK_MAX_BITS`]; 0: none); with `fault` (test only), every pushed address
    /// has its bit 1 inverted, so no return is inferred.
    ///
    /// # Panics
    ///
    /// If `size` is above [`RETURN_STACK_MAX_BITS`] or `A` above 64 (configuration
    /// errors the generator refuses first).
    pub fn new(size: u8, fault: bool) -> Self {
        assert!(usize::from(size) <= RETURN_STACK_MAX_BITS && A <= 64);
        let entries = if size == 0 { 0 } else { 1usize << size };
        let keep = if entries == 0 {
            Bits::<STACK_BITS>::default()
        } else {
            Bits::<STACK_BITS>::mask() >> (STACK_BITS - entries * A) as u64
        };
        ReturnStack {
            clock: Default::default(),
            option: Default::default(),
            decide: Default::default(),
            update: Default::default(),
            call: Default::default(),
            ret: Default::default(),
            branch: Default::default(),
            link: Default::default(),
            next_valid: Default::default(),
            shift: Default::default(),
            next_iaddr: Default::default(),
            incoming_iaddr: Default::default(),
            restart: Default::default(),
            enabled: Default::default(),
            hit: Default::default(),
            depth: Default::default(),
            must_report: Default::default(),
            prev_inferred: Default::default(),
            prev_mispredicted: Default::default(),
            stack: Default::default(),
            count: Default::default(),
            return_since_call: Default::default(),
            branch_since_return: Default::default(),
            inferred_q: Default::default(),
            mispredicted_q: Default::default(),
            top_hit: Default::default(),
            active: Default::default(),
            do_call: Default::default(),
            do_return: Default::default(),
            nonempty: Default::default(),
            popped: Default::default(),
            count_after: Default::default(),
            rsc_after: Default::default(),
            bsr_after: Default::default(),
            n_call: Default::default(),
            n_pop: Default::default(),
            pushed: PushedLink::new(fault),
            link_matches: Default::default(),
            second_matches: Default::default(),
            link_matches_next: Default::default(),
            link_matches_incoming: Default::default(),
            second_matches_next: Default::default(),
            second_matches_incoming: Default::default(),
            top_matches_incoming: Default::default(),
            top_stays_matching: Default::default(),
            deep: Default::default(),
            x_depth: Default::default(),
            available: Constant::new(size > 0),
            capacity: Constant::new((entries as u64).into()),
            second_at: Constant::new((A as u64).into()),
            keep: Constant::new(keep),
            entry_bits: Constant::new((A as u64).into()),
        }
    }
}

impl<const A: usize> Default for ReturnStack<A> {
    /// No stack (`return_stack_size_p` 0).
    fn default() -> Self {
        ReturnStack::new(0, false)
    }
}

impl<const A: usize> Logic for ReturnStack<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            stack,
            count,
            return_since_call,
            branch_since_return,
            inferred_q,
            mispredicted_q,
            top_hit
        );
        self.enabled.next = self.available.val() && self.option.val();
        self.active.next = self.enabled.val() && self.update.val();
        self.do_call.next = self.active.val() && self.call.val();
        self.do_return.next = self.active.val() && self.ret.val() && self.next_valid.val();
        self.nonempty.next = self.count.q.val().any();
        self.hit.next = self.top_hit.q.val();
        self.popped.next = self.do_return.val() && self.top_hit.q.val();

        // The state after `curr` without a restart: what an address packet reports.
        self.count_after.next = self.count.q.val();
        self.rsc_after.next = self.return_since_call.q.val();
        self.bsr_after.next = self.branch_since_return.q.val();
        if self.do_call.val() {
            self.rsc_after.next = false;
            if self.count.q.val() != self.capacity.val() {
                self.count_after.next = self.count.q.val() + 1;
            }
        }
        if self.popped.val() {
            self.count_after.next = self.count.q.val() - 1;
            self.rsc_after.next = true;
            self.bsr_after.next = false;
        }
        if self.active.val() && self.branch.val() {
            self.bsr_after.next = true;
        }
        self.x_depth.narrow.next = self.count_after.val();
        self.depth.next = self.x_depth.wide.val();
        self.must_report.next = self.count_after.val().any()
            && (self.inferred_q.q.val() || (self.rsc_after.val() && !self.bsr_after.val()));
        self.prev_inferred.next = self.inferred_q.q.val();
        self.prev_mispredicted.next = self.mispredicted_q.q.val();

        // The next state: the terms above formed again, then the restart.
        self.n_call.next =
            self.available.val() && self.option.val() && self.update.val() && self.call.val();
        self.n_pop.next =
            self.update.val() && self.ret.val() && self.next_valid.val() && self.top_hit.q.val();
        self.pushed.link.next = self.link.val();
        self.stack.d.next = self.stack.q.val();
        self.count.d.next = self.count.q.val();
        self.return_since_call.d.next = self.return_since_call.q.val();
        self.branch_since_return.d.next = self.branch_since_return.q.val();
        if self.n_call.val() {
            self.stack.d.next = ((self.stack.q.val() << self.entry_bits.val())
                | self.pushed.wide.val())
                & self.keep.val();
            self.return_since_call.d.next = false;
            if self.count.q.val() != self.capacity.val() {
                self.count.d.next = self.count.q.val() + 1;
            }
        }
        if self.n_pop.val() {
            self.stack.d.next = self.stack.q.val() >> self.entry_bits.val();
            self.count.d.next = self.count.q.val() - 1;
            self.return_since_call.d.next = true;
            self.branch_since_return.d.next = false;
        }
        if self.available.val() && self.option.val() && self.update.val() && self.branch.val() {
            self.branch_since_return.d.next = true;
        }
        self.inferred_q.d.next = self.inferred_q.q.val();
        self.mispredicted_q.d.next = self.mispredicted_q.q.val();
        if self.decide.val() {
            self.inferred_q.d.next = self.n_pop.val();
            self.mispredicted_q.d.next = self.available.val()
                && self.option.val()
                && self.update.val()
                && self.ret.val()
                && self.next_valid.val()
                && self.nonempty.val()
                && !self.top_hit.q.val();
        }
        // Whether the stack after the edge is not empty and its top equals `next`'s `iaddr`
        // after the edge, from the candidates for the top: the link of a push, the second
        // entry after a pop (if there is one), else the top (if there is one). A restart
        // leaves the link of `curr`'s call, or an empty stack.
        // Without a shift `next` keeps its `iaddr`, and `top_hit` already says whether the
        // top (if any) matches it.
        self.link_matches_next.next = self.pushed.address.val() == self.next_iaddr.val();
        self.link_matches_incoming.next = self.pushed.address.val() == self.incoming_iaddr.val();
        self.second_matches_next.next = self
            .stack
            .q
            .val()
            .get_bits::<A>(self.second_at.val().index())
            == self.next_iaddr.val();
        self.second_matches_incoming.next = self
            .stack
            .q
            .val()
            .get_bits::<A>(self.second_at.val().index())
            == self.incoming_iaddr.val();
        self.top_matches_incoming.next =
            self.stack.q.val().get_bits::<A>(0) == self.incoming_iaddr.val();
        self.link_matches.next = self.link_matches_next.val();
        self.second_matches.next = self.second_matches_next.val();
        self.top_stays_matching.next = self.top_hit.q.val();
        if self.shift.val() {
            self.link_matches.next = self.link_matches_incoming.val();
            self.second_matches.next = self.second_matches_incoming.val();
            self.top_stays_matching.next = self.nonempty.val() && self.top_matches_incoming.val();
        }
        self.deep.next = self.count.q.val().get_bit(1)
            || self.count.q.val().get_bit(2)
            || self.count.q.val().get_bit(3);
        self.top_hit.d.next = self.top_stays_matching.val();
        if self.n_pop.val() {
            self.top_hit.d.next = self.deep.val() && self.second_matches.val();
        }
        if self.n_call.val() {
            self.top_hit.d.next = self.link_matches.val();
        }
        if self.restart.val() {
            // Emptied; `curr`'s own call is pushed, its branch counts, its return finds
            // the stack empty.
            // The stack vector is left as the push / pop made it: only the count empties
            // the stack (entries above the count are never read), which keeps the
            // decision's `restart` off the vector's wide enable.
            self.count.d.next = 0.into();
            self.top_hit.d.next = false;
            if self.n_call.val() {
                self.count.d.next = 1.into();
                self.top_hit.d.next = self.link_matches.val();
            }
            self.return_since_call.d.next = false;
            self.branch_since_return.d.next =
                self.available.val() && self.option.val() && self.update.val() && self.branch.val();
            self.inferred_q.d.next = false;
            self.mispredicted_q.d.next = false;
        }
        if !self.available.val() {
            // No stack: the state constant (nothing for a simulator to evaluate).
            self.stack.d.next = 0.into();
            self.count.d.next = 0.into();
            self.return_since_call.d.next = false;
            self.branch_since_return.d.next = false;
            self.inferred_q.d.next = false;
            self.mispredicted_q.d.next = false;
            self.top_hit.d.next = false;
        }
    }
}

/// The entry a call pushes (for [`ReturnStack`]): the link, as an `A`-bit address and
/// widened to the stack vector. A block of its own, so that the stack's block reads the
/// widened value without forming it (Verilator would see a loop through the widening).
#[derive(LogicBlock)]
pub struct PushedLink<const A: usize> {
    /// The link (the address after the call).
    pub link: Signal<In, Bits<A>>,
    /// The entry pushed.
    pub address: Signal<Out, Bits<A>>,
    /// The same, widened to the stack vector.
    pub wide: Signal<Out, Bits<STACK_BITS>>,
    x_address: ZeroExtend<A, STACK_BITS>,
    fault_mask: Constant<Bits<A>>,
}

impl<const A: usize> PushedLink<A> {
    /// With `fault` (test only) the entry has its bit 1 inverted, so it never equals the
    /// link.
    pub fn new(fault: bool) -> Self {
        PushedLink {
            link: Default::default(),
            address: Default::default(),
            wide: Default::default(),
            x_address: Default::default(),
            fault_mask: Constant::new((if fault { 2 } else { 0 }).into()),
        }
    }
}

impl<const A: usize> Logic for PushedLink<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.address.next = self.link.val() ^ self.fault_mask.val();
        self.x_address.narrow.next = self.address.val();
        self.wide.next = self.x_address.wide.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{generate, lint, yosys_check};

    #[test]
    fn return_stack_verilog() {
        let mut uut = ReturnStack::<32>::new(2, false);
        uut.connect_all();
        let v = generate(&uut);
        yosys_check("return_stack", &v).unwrap();
        lint("return_stack", &v).unwrap();
    }
}
