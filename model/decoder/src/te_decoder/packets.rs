//! `process_te_inst` of `decoder.adoc` ("Decoder pseudo code"): what each te_inst packet
//! does to the decoder state, with `process_support` and `exception_address`, and the
//! element output of synchronisation, traps, privilege and context changes.

use super::{Fail, TeDecoder};
use crate::element::TraceElement;
use crate::error::DecodeCause;
use crate::image::HotKind;
use etrace_spec::ingress::Privilege;
use etrace_spec::packet::{AddressInfo, BranchFmt, IOptions, QualStatus, TeInst, Trap};

impl<'a> TeDecoder<'a> {
    /// `process_te_inst` for one packet.
    pub(super) fn process_te_inst(&mut self, packet: &TeInst) -> Result<(), Fail> {
        match packet {
            TeInst::Support(s) => {
                self.process_support(s.ienable, s.qual_status, s.ioptions);
                Ok(())
            }
            TeInst::Context(c) => {
                self.note_context(c.privilege, c.context);
                Ok(())
            }
            TeInst::Start(s) => self.sync(s.address, s.branch, s.privilege, s.context, false),
            TeInst::Trap(t) => self.trap(t),
            TeInst::Branch(b) => {
                self.expect_synced()?;
                self.take_address(b.address.as_ref());
                let n = if b.branches == 0 {
                    31
                } else {
                    u32::from(b.branches)
                };
                self.outcomes.push_map(b.branch_map, n);
                let info = b.address.unwrap_or_default();
                self.follow_execution_path(&info, None)
            }
            TeInst::AddrOnly(info) => {
                self.expect_synced()?;
                self.take_address(Some(info));
                self.follow_execution_path(info, None)
            }
            TeInst::BranchCount(c) => {
                self.expect_synced()?;
                self.outcomes.push_predicted(u64::from(c.branch_count) + 31);
                if c.branch_fmt != BranchFmt::Addr {
                    self.outcomes.push_mispredicted();
                }
                self.take_address(c.address.as_ref());
                let info = c.address.unwrap_or_default();
                self.follow_execution_path(&info, None)
            }
            TeInst::JumpTargetIndex(_) => Err(DecodeCause::JumpTargetCache.into()),
        }
    }

    /// Format 3 subformat 1: the trap element, then the handler as a synchronisation.
    fn trap(&mut self, t: &Trap) -> Result<(), Fail> {
        let epc = if self.start_of_trace {
            (!t.thaddr).then(|| self.full(t.address.unwrap_or(0)))
        } else {
            Some(self.exception_address(t.thaddr, t.address)?)
        };
        self.close_range();
        self.elements.push(TraceElement::Trap {
            ecause: t.ecause,
            interrupt: t.interrupt,
            tval: t.tval,
            epc,
        });
        if !t.thaddr {
            // Nothing retired: the handler is reported by a following packet. As every
            // synchronisation packet, it resets the encoder's branch, predictor and call
            // state.
            self.outcomes.clear();
            self.return_stack.clear();
            self.predictor.reset();
            return Ok(());
        }
        let address = match (t.address, self.config.trap_vectors) {
            (Some(a), _) => a,
            (None, Some(v)) => v
                .handler(t.privilege, t.ecause, t.interrupt)
                .map(|a| (a & self.addr_mask) >> self.lsb)
                .ok_or(DecodeCause::NoTrapVector {
                    privilege: t.privilege,
                })?,
            (None, None) => return Err(DecodeCause::NoTrapVectors.into()),
        };
        self.sync(address, t.branch, t.privilege, t.context, true)
    }

    /// A packet that follows the path needs a synchronisation before it.
    fn expect_synced(&self) -> Result<(), Fail> {
        if self.start_of_trace {
            Err(DecodeCause::NotSynchronised.into())
        } else {
            Ok(())
        }
    }

    /// The address of an address field (`iaddress_lsb_p` restored, masked to the address
    /// width).
    fn full(&self, field: u64) -> u64 {
        (field << self.lsb) & self.addr_mask
    }

    /// Takes the address of a format 0 / 1 / 2 packet, if it has one: else the packet's
    /// branch map ends with a branch (`stop_at_last_branch`).
    fn take_address(&mut self, info: Option<&AddressInfo>) {
        let Some(info) = info else {
            self.stop_at_last_branch = true;
            return;
        };
        self.stop_at_last_branch = false;
        if self.options.full_address {
            self.address = self.full(info.address);
        } else {
            self.address = self.address.wrapping_add(info.address << self.lsb) & self.addr_mask;
        }
    }

    /// The common part of format 3 subformats 0 and 1 (with `thaddr`).
    fn sync(
        &mut self,
        field: u64,
        branch: bool,
        privilege: u8,
        context: u64,
        trap: bool,
    ) -> Result<(), Fail> {
        self.inferred_address = false;
        self.address = self.full(field);
        let was_start = self.start_of_trace;
        if trap || was_start {
            self.outcomes.clear();
        }
        if self.lookup.hot_at(self.address)?.kind == HotKind::Branch {
            self.outcomes.push_map(u32::from(branch), 1);
        }
        if !trap && !was_start {
            let info = AddressInfo::default();
            self.follow_execution_path(&info, Some(privilege))?;
            match &mut self.paused {
                // The rest when the walk ends (`resume_walk`).
                Some(paused) => paused.context = context,
                None => self.end_sync_walk(privilege, context)?,
            }
            return Ok(());
        }
        self.close_range();
        if was_start {
            self.elements.push(TraceElement::TraceOn {
                address: self.address,
                privilege: privilege_of(privilege),
            });
        }
        self.note_context(privilege, context);
        self.cursor.pc = self.address;
        self.report_at_pc()?;
        self.cursor.last_pc = self.cursor.pc;
        self.synced();
        Ok(())
    }

    /// The rest of a format 3 packet (`privilege`, `context`) after the walk to its
    /// address.
    pub(super) fn end_sync_walk(&mut self, privilege: u8, context: u64) -> Result<(), Fail> {
        // A format 3 ends with the reported instruction's own branch (if any) still
        // unprocessed, as after any packet. The reported instruction runs at the packet's
        // privilege: move it behind the privilege element.
        if privilege != self.privilege || context != self.context {
            self.cursor.unreport_last(self.lookup.image());
            self.note_context(privilege, context);
            self.report_at_pc()?;
        }
        self.synced();
        Ok(())
    }

    /// The end of every synchronisation: the trace is synchronised, and the encoder's
    /// return stack and branch predictor are reset.
    fn synced(&mut self) {
        self.start_of_trace = false;
        self.resyncing = false;
        self.return_stack.clear();
        self.predictor.reset();
    }

    /// `report_pc` of the instruction at the current `pc`.
    fn report_at_pc(&mut self) -> Result<(), Fail> {
        let mut cur = self.cursor;
        let result = self.report_pc(&mut cur).map(|_| ());
        self.cursor = cur;
        result
    }

    /// A privilege or context change reported by a packet: its elements.
    fn note_context(&mut self, privilege: u8, context: u64) {
        if privilege != self.privilege {
            self.privilege = privilege;
            self.close_range();
            self.elements.push(TraceElement::Privilege {
                privilege: privilege_of(privilege),
            });
        }
        if context != self.context {
            self.context = context;
            self.close_range();
            self.elements.push(TraceElement::Context { context });
        }
    }

    /// `process_support`: new options; the end of tracing (or a loss) closes the trace.
    fn process_support(&mut self, ienable: bool, qual_status: QualStatus, ioptions: IOptions) {
        self.options = ioptions;
        if qual_status == QualStatus::NoChange && ienable {
            return;
        }
        if qual_status == QualStatus::EndedNtr && self.inferred_address && !self.start_of_trace {
            self.inferred_address = false;
            if let Err(fail) = self.follow_to_discontinuity() {
                self.push_error(*fail.0);
            }
        }
        self.close_range();
        if !self.start_of_trace {
            self.elements.push(if qual_status == QualStatus::TraceLost {
                TraceElement::TraceLost
            } else {
                TraceElement::TraceOff
            });
        }
        self.restart();
    }

    /// `exception_address`: where the trap was taken, given the last traced instruction
    /// (the instruction after it, found by `next_pc` without moving the decoder).
    fn exception_address(&mut self, thaddr: bool, field: Option<u64>) -> Result<u64, Fail> {
        let pc = self.cursor.pc;
        let insn = *self.lookup.hot_at(pc)?;
        if insn.is_uninferable_discon() && !thaddr {
            return Ok(self.full(field.unwrap_or(0)));
        }
        if insn.kind == HotKind::EcallEbreak {
            return Ok(pc);
        }
        self.stop_at_last_branch = false;
        let mut probe = self.cursor;
        let here = self.lookup.seek(pc)?;
        self.next_pc(&mut probe, here, pc, None)?;
        Ok(probe.pc)
    }
}

/// The privilege level of a packet's `privilege` field (machine for codes it does not
/// name).
fn privilege_of(code: u8) -> Privilege {
    Privilege::from_code(u64::from(code)).unwrap_or(Privilege::Machine)
}
