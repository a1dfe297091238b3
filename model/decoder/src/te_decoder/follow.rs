//! `follow_execution_path` of `decoder.adoc` ("Decoder pseudo code"): from the current
//! `pc` to the address a packet reports, one instruction at a time ([`TeDecoder::next_pc`]
//! then [`TeDecoder::report_pc`]), until one of the pseudo code's stop conditions holds;
//! and the follow-on to the end of a trace after an inferred address (`process_support`).

use super::cursor::Cursor;
use super::long_walk::WalkTarget;
use super::walk_bound::{Cut, WalkBound};
use super::{Fail, TeDecoder};
use crate::error::DecodeCause;
use crate::image::{Hot, HotKind};
use etrace_spec::packet::AddressInfo;

impl<'a> TeDecoder<'a> {
    /// `follow_execution_path`: from the current pc to `self.address`, for packet `te`;
    /// `format3` is the privilege of a format 3 packet being followed to. A long walk may
    /// pause on the way (see `long_walk`): `self.paused` then says how it goes on.
    pub(super) fn follow_execution_path(
        &mut self,
        te: &AddressInfo,
        format3: Option<u8>,
    ) -> Result<(), Fail> {
        let bound = self.walk_bound();
        self.start_walk();
        let mut cur = self.cursor;
        let target = WalkTarget {
            te: *te,
            format3,
            previous_address: cur.pc,
        };
        let result = self.follow(&mut cur, &target, bound);
        self.cursor = cur;
        result
    }

    /// [`Self::follow_execution_path`] on `cur` to `target` (`bound`: the walk's bound so
    /// far): after an inferred address, up to the uninferable discontinuity that ends
    /// there; then to the reported address.
    #[inline(always)]
    pub(super) fn follow(
        &mut self,
        cur: &mut Cursor,
        target: &WalkTarget,
        mut bound: WalkBound,
    ) -> Result<(), Fail> {
        // The instruction at `pc`, once known (saves looking it up twice per step).
        let mut current: Option<&'a Hot> = None;
        while self.inferred_address {
            let here = self.lookup.seek(cur.pc)?;
            let stop_here = self.next_pc(cur, here, target.previous_address, Some(&target.te))?;
            current = Some(self.report_pc(cur)?);
            if stop_here {
                self.inferred_address = false;
            } else {
                self.bound_step(&mut bound, 1, cur)?;
                if self.after_step(cur, &mut bound, target)? {
                    return Ok(());
                }
            }
        }
        // The rest stops under other conditions: a state seen so far may recur.
        bound.forget_states();
        self.forget_cycle();
        self.follow_to_address(cur, target, bound, current)
    }

    /// What a walk checks after each step besides its bound: its element buffer (a walk
    /// that outgrows it is verified, then pauses: true), and in a probe the periods of
    /// its path (see `long_walk`; a probe's `buffer_end` is 0). One comparison on the hot
    /// path, the rest out of line.
    #[inline(always)]
    fn after_step(
        &mut self,
        cur: &Cursor,
        bound: &mut WalkBound,
        target: &WalkTarget,
    ) -> Result<bool, Fail> {
        if self.elements.len() < self.buffer_end {
            return Ok(false);
        }
        self.past_buffer_end(cur, bound, target)
    }

    /// The bound of a walk starting now (see [`WalkBound`]).
    fn walk_bound(&self) -> WalkBound {
        WalkBound::new(
            self.outcomes.len(),
            self.config.max_steps_per_packet,
            self.config.max_steps_between_branches,
        )
    }

    /// Counts `n` instructions walked to `cur` against `bound`: the error that ends the
    /// walk when it cannot reach the reported address.
    #[inline(always)]
    pub(super) fn bound_step(
        &self,
        bound: &mut WalkBound,
        n: u64,
        cur: &Cursor,
    ) -> Result<(), Fail> {
        bound
            .step(n, cur, self.outcomes.len(), &self.return_stack)
            .map_err(|cut| self.not_reached(cut))
    }

    /// The rest of `follow_execution_path` (`steps` taken so far, `current` the
    /// instruction at `pc` if known): one instruction per iteration, `next_pc` then
    /// `report_pc`, except that a straight-line run is crossed in one go when the reported
    /// address is not inside it (no stop condition can hold on the way).
    #[inline(always)]
    fn follow_to_address(
        &mut self,
        cur: &mut Cursor,
        target: &WalkTarget,
        mut bound: WalkBound,
        current: Option<&'a Hot>,
    ) -> Result<(), Fail> {
        let (te, format3) = (&target.te, target.format3);
        let address = self.address;
        // The instruction at `pc`.
        let mut here: &'a Hot = match current {
            Some(h) => h,
            None => self.lookup.seek(cur.pc)?,
        };
        loop {
            let mut stop_here = false;
            let mut n = 1;
            let insn = match self.cross_run(cur, here, address) {
                Some((end, run)) => {
                    n = run;
                    end
                }
                None => {
                    stop_here = self.next_pc(cur, here, address, Some(te))?;
                    self.report_pc(cur)?
                }
            };
            let pc = cur.pc;
            let is_branch = insn.kind == HotKind::Branch;
            if self.stop_at_last_branch && is_branch && self.outcomes.len() == 1 {
                // Reached the final branch: its outcome comes with the next packet.
                self.stop_at_last_branch = false;
                return Ok(());
            }
            // `unprocessed_branches` at `pc`.
            let unprocessed = self.outcomes.len() != u64::from(is_branch);
            if stop_here {
                if unprocessed {
                    return Err(DecodeCause::UnprocessedBranches.into());
                }
                return Ok(());
            }
            if let Some(privilege) = format3 {
                if pc == address
                    && !unprocessed
                    && (privilege == self.privilege
                        || self.lookup.hot_at(cur.last_pc)?.kind == HotKind::TrapReturn)
                {
                    return Ok(());
                }
            } else if pc == address && !self.stop_at_last_branch {
                if te.notify && !unprocessed {
                    return Ok(());
                }
                // An implicit return is followed like an inferable jump: its target can
                // be the reported instruction (`sec:irxx`, first case).
                let last_discon = self.lookup.hot_at(cur.last_pc)?.is_uninferable_discon()
                    && !cur.last_was_implicit_return;
                let depth_ok = !te.irreport || te.irdepth == self.return_stack.depth();
                if !last_discon && !te.updiscon && !unprocessed && depth_ok {
                    // Reached the reported address, not as an uninferable jump target:
                    // stop for now; the next packet says whether it was the last one.
                    self.inferred_address = true;
                    return Ok(());
                }
            }
            self.bound_step(&mut bound, n, cur)?;
            if self.after_step(cur, &mut bound, target)? {
                return Ok(());
            }
            here = insn;
        }
    }

    /// Crosses the straight-line run that starts with `here` at `cur.pc` in one go, when
    /// `address` is not inside it and the open range ends at `pc`: the instruction after
    /// the run, and the number of instructions crossed.
    #[inline(always)]
    fn cross_run(&mut self, cur: &mut Cursor, here: &Hot, address: u64) -> Option<(&'a Hot, u64)> {
        if here.run_len == 0 {
            return None;
        }
        let pc = cur.pc;
        let mask = self.addr_mask;
        let target = pc.wrapping_add(here.run_bytes()) & mask;
        if (pc < address && address < target) || !cur.range_ends_at(pc) {
            return None;
        }
        let end = self.lookup.seek(target).ok()?;
        let n = u64::from(here.run_len);
        let last_pc = pc.wrapping_add(here.run_last()) & mask;
        cur.cross_run(n, last_pc, target, end.size());
        Some((end, n))
    }

    /// The end of a trace after an inferred address (`process_support`, `qual_status` =
    /// ended_ntr): the final instruction is the second occurrence of the reported address,
    /// so execution is followed on to the target of the uninferable discontinuity there.
    pub(super) fn follow_to_discontinuity(&mut self) -> Result<(), Fail> {
        let mut cur = self.cursor;
        let start = cur.pc;
        let mut bound = self.walk_bound();
        let result = loop {
            let stop = match self.lookup.seek(cur.pc) {
                Ok(here) => self.next_pc(&mut cur, here, start, None),
                Err(e) => Err(e),
            };
            match stop.and_then(|stop| self.report_pc(&mut cur).map(|_| stop)) {
                Ok(true) => break Ok(()),
                Ok(false) => {}
                Err(e) => break Err(e),
            }
            if let Err(e) = self.bound_step(&mut bound, 1, &cur) {
                break Err(e);
            }
        };
        self.cursor = cur;
        result
    }

    /// The error of an address not reached: the walk loops, or is longer than its bound.
    #[cold]
    pub(super) fn not_reached(&self, cut: Cut) -> Fail {
        let address = self.address;
        match cut {
            Cut::Loop { pc } => DecodeCause::Loops { address, at: pc },
            Cut::TooLong => DecodeCause::NotReached {
                address,
                within: self.config.max_steps_per_packet,
                between_branches: self.config.max_steps_between_branches,
            },
        }
        .into()
    }
}
