//! The instruction trace decoder of `decoder.adoc` ("Decoder pseudo code"): te_inst packets
//! and the program image in, trace elements out.
//!
//! It follows the spec's algorithm (`process_te_inst`, `follow_execution_path`, `next_pc`,
//! `process_support`, `exception_address`), extended with what this project's encoder
//! sends beyond the pseudo code's assumptions:
//! * branch prediction (`sec:branch-prediction`, format 0 branch counts): branch outcomes
//!   come from the branch map first, then from the predictor for the counted correctly
//!   predicted branches, then (for `branch_fmt` `no-addr` / `addr-fail`) one mispredicted
//!   branch; the predictor is updated with every branch and reset by every sync packet;
//! * implicit return (`sec:implicit-return`, 2.0 `irreport` / `irdepth`): calls of the
//!   jump class "call" (`ingressPort.adoc` `JumpClasses`, as the encoder counts them)
//!   push, returns pop; a full stack drops its oldest entry;
//! * sequentially inferable jumps exclude returns (see `isa::Decoded::is_sequential_jump`).
//!
//! Where the pseudo code says `ERROR`, or the program image has no instruction at an
//! address the trace reaches, or an address is not reached within a bound, the decoder
//! emits a [`TraceElement::DecodeError`] and waits for the next format 3 synchronisation
//! packet.

use super::branches::{BranchQueue, Outcome};
use super::element::{RangeEnd, TraceElement};
use super::image::{Insn, InsnKind, ProgramImage};
use crate::encoder::predictor::BranchPredictor;
use crate::ingress::Privilege;
use crate::isa::{JumpClass, Xlen};
use crate::packet::{AddressInfo, BranchFmt, IOptions, QualStatus, TeInst};
use crate::params::Params;

/// Decoder limits and knowledge of the target.
#[derive(Debug, Clone, Copy)]
pub struct DecoderConfig {
    /// Most instructions followed for one packet before the address counts as never
    /// reached.
    pub max_steps_per_packet: u64,
    /// The trap vectors, for implicit exception mode (`sec:implicit-exception`: "the
    /// decoder can infer the address of the trap handler from just the exception cause").
    pub trap_vectors: Option<TrapVectors>,
}

impl Default for DecoderConfig {
    fn default() -> Self {
        DecoderConfig {
            max_steps_per_packet: 1 << 26,
            trap_vectors: None,
        }
    }
}

/// The `mtvec` / `stvec` values of the traced program (privileged ISA: BASE in bits
/// XLEN-1:2, MODE in bits 1:0; MODE 1 = vectored, interrupts at BASE + 4 x cause).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrapVectors {
    /// `mtvec`: handler of traps taken into M-mode.
    pub mtvec: u64,
    /// `stvec`: handler of traps taken into S-mode.
    pub stvec: u64,
}

impl TrapVectors {
    /// The first handler instruction of a trap taken into `privilege` (the privilege field
    /// of the trap packet).
    pub fn handler(&self, privilege: u8, ecause: u64, interrupt: bool) -> Option<u64> {
        let tvec = match privilege {
            3 => self.mtvec,
            1 => self.stvec,
            _ => return None,
        };
        let base = tvec & !3;
        Some(if tvec & 3 == 1 && interrupt {
            base.wrapping_add(4 * ecause)
        } else {
            base
        })
    }
}

/// Why decoding of a packet failed.
type Fail = String;

/// Where the current packet came from (for error elements).
#[derive(Debug, Clone, Copy, Default)]
struct PacketPlace {
    index: u64,
    offset: Option<u64>,
}

/// The `decoder.adoc` decoder state, with element output.
pub struct TeDecoder<'a> {
    image: &'a ProgramImage,
    config: DecoderConfig,
    lsb: u32,
    addr_mask: u64,
    xlen: Xlen,
    stack_capacity: usize,
    /// The encoder keeps a return address stack (else a call counter).
    compare_return_addresses: bool,
    /// The instruction at `last_pc` was a return followed implicitly.
    last_was_implicit_return: bool,
    /// After a decode error: packets other than syncs are skipped silently.
    resyncing: bool,
    // decoder.adoc globals
    pc: u64,
    last_pc: u64,
    /// Branch outcomes reported and not yet used (`branches`, `branch_map`).
    outcomes: BranchQueue,
    stop_at_last_branch: bool,
    inferred_address: bool,
    start_of_trace: bool,
    address: u64,
    privilege: u8,
    context: u64,
    options: IOptions,
    return_stack: Vec<u64>,
    predictor: BranchPredictor,
    // element building
    range: Option<OpenRange>,
    place: PacketPlace,
    elements: Vec<TraceElement>,
    /// Instructions reported so far.
    instructions: u64,
}

#[derive(Debug, Clone, Copy)]
struct OpenRange {
    first: u64,
    last: u64,
    last_size: u64,
    count: u64,
    /// How the last instruction left the range, once known.
    end: RangeEnd,
}

impl<'a> TeDecoder<'a> {
    /// A decoder for packets of an encoder with `params`, over `image`.
    pub fn new(image: &'a ProgramImage, params: &Params, config: DecoderConfig) -> Self {
        let xlen = image.xlen().unwrap_or(if params.iaddress_width_p > 32 {
            Xlen::X64
        } else {
            Xlen::X32
        });
        let stack_size = if params.return_stack_size_p > 0 {
            params.return_stack_size_p
        } else {
            params.call_counter_size_p
        };
        TeDecoder {
            image,
            config,
            lsb: params.iaddress_lsb_p as u32,
            addr_mask: if params.iaddress_width_p >= 64 {
                u64::MAX
            } else {
                (1u64 << params.iaddress_width_p) - 1
            },
            xlen,
            stack_capacity: 1usize << stack_size.min(16),
            compare_return_addresses: params.return_stack_size_p > 0,
            last_was_implicit_return: false,
            resyncing: false,
            pc: 0,
            last_pc: 0,
            outcomes: BranchQueue::default(),
            stop_at_last_branch: false,
            inferred_address: false,
            start_of_trace: true,
            address: 0,
            privilege: Privilege::Machine.code(),
            context: 0,
            options: IOptions::default(),
            return_stack: Vec::new(),
            predictor: BranchPredictor::new(params.bpred_size_p.max(1), params.iaddress_lsb_p),
            range: None,
            place: PacketPlace::default(),
            elements: Vec::new(),
            instructions: 0,
        }
    }

    /// The options of the most recent support packet (needed to unpack the next packets).
    pub fn options(&self) -> IOptions {
        self.options
    }

    /// Instructions reconstructed so far.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// Takes the elements produced so far. The open instruction range stays open (it may
    /// grow with the next packet) unless `flush` is set.
    pub fn take_elements(&mut self, flush: bool) -> Vec<TraceElement> {
        if flush {
            self.close_range();
        }
        std::mem::take(&mut self.elements)
    }

    /// Records that packets were lost or could not be read before the next one: the trace
    /// has a gap; decoding resumes at the next synchronisation packet.
    pub fn lost(&mut self) {
        self.close_range();
        if !self.start_of_trace {
            self.elements.push(TraceElement::TraceLost);
        }
        self.restart();
    }

    /// Processes one te_inst packet (`process_te_inst`); `index` and `offset` say where it
    /// came from, for error elements.
    pub fn process(&mut self, packet: &TeInst, index: u64, offset: Option<u64>) {
        self.place = PacketPlace { index, offset };
        if self.resyncing && !matches!(packet, TeInst::Start(_) | TeInst::Trap(_)) {
            // Already reported: packets are skipped until the next synchronisation.
            if let TeInst::Support(s) = packet {
                self.options = s.ioptions;
            }
            return;
        }
        if let Err(reason) = self.process_te_inst(packet) {
            self.fail(index, offset, reason);
        }
    }

    /// Reports a packet that could not be read or decoded: a decode-error element, then
    /// nothing until the next format 3 synchronisation packet.
    pub fn fail(&mut self, index: u64, offset: Option<u64>, reason: String) {
        self.resyncing = true;
        self.close_range();
        self.elements.push(TraceElement::DecodeError {
            packet_index: index,
            byte_offset: offset,
            reason,
        });
        self.restart();
    }

    fn restart(&mut self) {
        self.start_of_trace = true;
        self.inferred_address = false;
        self.stop_at_last_branch = false;
        self.clear_branches();
        self.return_stack.clear();
    }

    fn clear_branches(&mut self) {
        self.outcomes.clear();
    }

    fn branches(&self) -> u64 {
        self.outcomes.len()
    }

    fn process_te_inst(&mut self, packet: &TeInst) -> Result<(), Fail> {
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
            TeInst::Trap(t) => {
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
                    // Nothing retired: the handler is reported by a following packet. As
                    // every synchronisation packet, it resets the encoder's branch,
                    // predictor and call state.
                    self.clear_branches();
                    self.return_stack.clear();
                    self.predictor.reset();
                    return Ok(());
                }
                let address = match (t.address, self.config.trap_vectors) {
                    (Some(a), _) => a,
                    (None, Some(v)) => v
                        .handler(t.privilege, t.ecause, t.interrupt)
                        .map(|a| (a & self.addr_mask) >> self.lsb)
                        .ok_or_else(|| {
                            format!(
                                "no trap vector for privilege {} (implicit exception)",
                                t.privilege
                            )
                        })?,
                    (None, None) => {
                        return Err(
                            "trap packet without handler address (implicit exception mode \
                             needs the trap vectors, which this decoder is not given)"
                                .to_string(),
                        )
                    }
                };
                self.sync(address, t.branch, t.privilege, t.context, true)
            }
            TeInst::Branch(b) => {
                self.expect_synced()?;
                if let Some(info) = &b.address {
                    self.stop_at_last_branch = false;
                    self.update_address(info);
                } else {
                    self.stop_at_last_branch = true;
                }
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
                self.stop_at_last_branch = false;
                self.update_address(info);
                self.follow_execution_path(info, None)
            }
            TeInst::BranchCount(c) => {
                self.expect_synced()?;
                self.outcomes.push_predicted(u64::from(c.branch_count) + 31);
                if c.branch_fmt != BranchFmt::Addr {
                    self.outcomes.push_mispredicted();
                }
                let info = c.address.unwrap_or_default();
                if let Some(a) = &c.address {
                    self.stop_at_last_branch = false;
                    self.update_address(a);
                } else {
                    self.stop_at_last_branch = true;
                }
                self.follow_execution_path(&info, None)
            }
            TeInst::JumpTargetIndex(_) => {
                Err("format 0 subformat 1 (jump target cache) is not supported".to_string())
            }
        }
    }

    fn expect_synced(&self) -> Result<(), Fail> {
        if self.start_of_trace {
            Err("expecting trace to start with format 3".to_string())
        } else {
            Ok(())
        }
    }

    fn full(&self, field: u64) -> u64 {
        (field << self.lsb) & self.addr_mask
    }

    fn update_address(&mut self, info: &AddressInfo) {
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
            self.clear_branches();
        }
        let insn = self.insn(self.address)?;
        if matches!(insn.kind, InsnKind::Branch { .. }) {
            self.outcomes.push_map(u32::from(branch), 1);
        }
        if !trap && !was_start {
            let info = AddressInfo::default();
            self.follow_execution_path(&info, Some(privilege))?;
            // A format 3 ends with the reported instruction's own branch (if any) still
            // unprocessed, as after any packet. The reported instruction runs at the
            // packet's privilege: move it behind the privilege element.
            if privilege != self.privilege || context != self.context {
                self.unreport_last();
                self.note_context(privilege, context);
                self.report_pc(self.pc)?;
            }
        } else {
            self.close_range();
            if was_start {
                self.elements.push(TraceElement::TraceOn {
                    address: self.address,
                    privilege: Privilege::from_code(u64::from(privilege))
                        .unwrap_or(Privilege::Machine),
                });
            }
            self.note_context(privilege, context);
            self.pc = self.address;
            self.report_pc(self.pc)?;
            self.last_pc = self.pc;
        }
        self.start_of_trace = false;
        self.resyncing = false;
        self.return_stack.clear();
        self.predictor.reset();
        Ok(())
    }

    fn note_context(&mut self, privilege: u8, context: u64) {
        if privilege != self.privilege {
            self.privilege = privilege;
            self.close_range();
            self.elements.push(TraceElement::Privilege {
                privilege: Privilege::from_code(u64::from(privilege)).unwrap_or(Privilege::Machine),
            });
        }
        if context != self.context {
            self.context = context;
            self.close_range();
            self.elements.push(TraceElement::Context { context });
        }
    }

    fn process_support(&mut self, ienable: bool, qual_status: QualStatus, ioptions: IOptions) {
        self.options = ioptions;
        if qual_status == QualStatus::NoChange && ienable {
            return;
        }
        if qual_status == QualStatus::EndedNtr && self.inferred_address && !self.start_of_trace {
            // The final instruction is the second occurrence of the reported address:
            // follow on to the uninferable discontinuity's target.
            self.inferred_address = false;
            let start = self.pc;
            let mut steps = 0u64;
            loop {
                match self
                    .next_pc(start)
                    .and_then(|stop| self.report_pc(self.pc).map(|_| stop))
                {
                    Ok(stop) => {
                        if stop {
                            break;
                        }
                    }
                    Err(reason) => {
                        self.close_range();
                        self.elements.push(TraceElement::DecodeError {
                            packet_index: self.place.index,
                            byte_offset: self.place.offset,
                            reason,
                        });
                        break;
                    }
                }
                steps += 1;
                if steps > self.config.max_steps_per_packet {
                    break;
                }
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

    /// The pre-decoded instruction at `address` (borrowed from the image, not copied: this
    /// is the decoder's hot path).
    #[inline]
    fn insn(&self, address: u64) -> Result<&'a Insn, Fail> {
        let image: &'a ProgramImage = self.image;
        image.insn(address).ok_or_else(|| no_insn(address))
    }

    fn unprocessed_branches(&self, at: u64) -> Result<bool, Fail> {
        let here = u64::from(matches!(self.insn(at)?.kind, InsnKind::Branch { .. }));
        Ok(self.branches() != here)
    }

    /// `follow_execution_path`: from the current pc to `self.address`.
    /// `format3` is the privilege of a format 3 packet being followed to.
    fn follow_execution_path(&mut self, te: &AddressInfo, format3: Option<u8>) -> Result<(), Fail> {
        let previous_address = self.pc;
        let mut steps = 0u64;
        // The instruction at `pc`, once known (saves looking it up twice per step).
        let mut current: Option<&'a Insn> = None;
        loop {
            steps += 1;
            if steps > self.config.max_steps_per_packet {
                return Err(format!(
                    "address {:#x} not reached within {} instructions",
                    self.address, self.config.max_steps_per_packet
                ));
            }
            if self.inferred_address {
                let stop_here = self.next_pc_with(previous_address, te)?;
                current = Some(self.report_pc(self.pc)?);
                if stop_here {
                    self.inferred_address = false;
                }
                continue;
            }
            let here = match current {
                Some(i) => i,
                None => self.insn(self.pc)?,
            };
            let (stop_here, insn) = match self.skip_run(here)? {
                Some((insn, n)) => {
                    steps += n;
                    (false, insn)
                }
                None => {
                    let stop_here = self.step(here, self.address, Some(te))?;
                    (stop_here, self.report_pc(self.pc)?)
                }
            };
            current = Some(insn);
            let pc = self.pc;
            let is_branch = matches!(insn.kind, InsnKind::Branch { .. });
            if self.branches() == 1 && is_branch && self.stop_at_last_branch {
                // Reached the final branch: its outcome comes with the next packet.
                self.stop_at_last_branch = false;
                return Ok(());
            }
            if stop_here {
                if self.unprocessed_branches(pc)? {
                    return Err("unprocessed branches at an uninferable jump target".into());
                }
                return Ok(());
            }
            if let Some(privilege) = format3 {
                if pc == self.address
                    && !self.unprocessed_branches(pc)?
                    && (privilege == self.privilege
                        || self.insn(self.last_pc)?.kind == InsnKind::TrapReturn)
                {
                    return Ok(());
                }
                continue;
            }
            if pc == self.address && !self.stop_at_last_branch {
                if te.notify && !self.unprocessed_branches(pc)? {
                    return Ok(());
                }
                // An implicit return is followed like an inferable jump: its target can be
                // the reported instruction (`sec:irxx`, first case).
                let last_discon = self.insn(self.last_pc)?.is_uninferable_discon()
                    && !self.last_was_implicit_return;
                let depth_ok = !te.irreport || te.irdepth == self.return_stack.len() as u64;
                if !last_discon && !te.updiscon && !self.unprocessed_branches(pc)? && depth_ok {
                    // Reached the reported address, not as an uninferable jump target:
                    // stop for now; the next packet says whether it was the last one.
                    self.inferred_address = true;
                    return Ok(());
                }
            }
        }
    }

    /// Fast path of `follow_execution_path`: from a sequential instruction, moves over the
    /// rest of its straight-line run to the next control-transfer instruction in one go,
    /// when the reported address is not inside the run (so no stop condition can hold on
    /// the way). Returns the instruction reached and the number of instructions reported.
    #[inline]
    fn skip_run(&mut self, here: &'a Insn) -> Result<Option<(&'a Insn, u64)>, Fail> {
        if here.run_len < 2 {
            return Ok(None);
        }
        let target = self.pc.wrapping_add(u64::from(here.run_bytes)) & self.addr_mask;
        if self.pc < self.address && self.address < target {
            return Ok(None);
        }
        let Some(end) = self.image.insn(target) else {
            return Ok(None);
        };
        let Some(r) = self.range.as_mut().filter(|r| r.last == self.pc) else {
            return Ok(None);
        };
        // Reported: the rest of the run (run_len - 1 instructions) and the one after it.
        let n = u64::from(here.run_len);
        r.last = target;
        r.last_size = end.size();
        r.count += n;
        r.end = RangeEnd::Sequential;
        self.instructions += n;
        self.last_pc = self.pc.wrapping_add(u64::from(here.run_last)) & self.addr_mask;
        self.last_was_implicit_return = false;
        self.pc = target;
        Ok(Some((end, n)))
    }

    /// `next_pc` during `follow_execution_path` for packet `te`.
    #[inline]
    fn next_pc_with(&mut self, address: u64, te: &AddressInfo) -> Result<bool, Fail> {
        let insn = self.insn(self.pc)?;
        self.step(insn, address, Some(te))
    }

    /// `next_pc` outside packet processing (no implicit-return report to honour).
    fn next_pc(&mut self, address: u64) -> Result<bool, Fail> {
        let insn = self.insn(self.pc)?;
        self.step(insn, address, None)
    }

    /// `next_pc`: moves `pc` past the instruction at `pc`; true when it stopped at the
    /// reported `address` after an uninferable discontinuity.
    #[inline(always)]
    fn step(
        &mut self,
        insn: &'a Insn,
        address: u64,
        te: Option<&AddressInfo>,
    ) -> Result<bool, Fail> {
        let this_pc = self.pc;
        let mut stop_here = false;
        let mut end = RangeEnd::Sequential;
        let mut implicit_return = false;
        let next = match insn.kind {
            InsnKind::InferableJump { offset } => {
                end = RangeEnd::InferableJump;
                this_pc.wrapping_add(offset as u64)
            }
            InsnKind::UninferableJump if self.is_sequential_jump(insn)? => {
                end = RangeEnd::InferableJump;
                let prev = self.insn(self.last_pc)?;
                insn.decoded
                    .sequential_jump_target(&prev.decoded, self.last_pc, self.xlen)
            }
            InsnKind::UninferableJump if self.is_implicit_return(insn, te) => {
                end = RangeEnd::UninferableJump;
                implicit_return = true;
                self.return_stack.pop().unwrap_or(0)
            }
            InsnKind::UninferableJump | InsnKind::TrapReturn => {
                end = if insn.kind == InsnKind::TrapReturn {
                    RangeEnd::TrapReturn
                } else {
                    RangeEnd::UninferableJump
                };
                if self.stop_at_last_branch {
                    return Err("unexpected uninferable discontinuity".into());
                }
                stop_here = true;
                address
            }
            InsnKind::Branch { offset } => {
                let taken = self.take_branch(this_pc)?;
                if taken {
                    end = RangeEnd::TakenBranch;
                    this_pc.wrapping_add(offset as u64)
                } else {
                    end = RangeEnd::NotTakenBranch;
                    this_pc.wrapping_add(insn.size())
                }
            }
            InsnKind::EcallEbreak => {
                end = RangeEnd::EcallEbreak;
                this_pc.wrapping_add(insn.size())
            }
            InsnKind::Other => this_pc.wrapping_add(insn.size()),
        };
        if self.options.implicit_return && insn.jump_class() == JumpClass::Call {
            if self.return_stack.len() == self.stack_capacity {
                self.return_stack.remove(0);
            }
            self.return_stack.push(this_pc.wrapping_add(insn.size()));
        }
        if let Some(r) = &mut self.range {
            if r.last == this_pc {
                r.end = end;
            }
        }
        self.pc = next & self.addr_mask;
        self.last_pc = this_pc;
        self.last_was_implicit_return = implicit_return;
        Ok(stop_here)
    }

    fn is_sequential_jump(&self, insn: &Insn) -> Result<bool, Fail> {
        if !self.options.sijump || self.last_pc == self.pc {
            return Ok(false);
        }
        let prev = self.insn(self.last_pc)?;
        Ok(insn.decoded.is_sequential_jump(&prev.decoded))
    }

    fn is_implicit_return(&self, insn: &Insn, te: Option<&AddressInfo>) -> bool {
        if !self.options.implicit_return || insn.jump_class() != JumpClass::Return {
            return false;
        }
        let Some(&predicted) = self.return_stack.last() else {
            return false;
        };
        // `decoder.adoc` treats a return at the reported depth as not implicit whenever
        // `irreport` is set; but the encoder also sets `irreport` to report the depth before
        // a format 3 packet (`sec:irxx`), and then the returns on the way are implicit (the
        // 2.0 ambiguity of spec issue #254). A mispredicted return is reported with its
        // actual target, which differs from the prediction, and only an encoder with a
        // return address stack predicts targets: that tells the two cases apart.
        if let Some(te) = te {
            if self.compare_return_addresses
                && te.irreport
                && te.irdepth == self.return_stack.len() as u64
                && predicted != self.address
            {
                return false;
            }
        }
        true
    }

    /// `is_taken_branch`: the next branch outcome, from the map, the predictor, or the one
    /// failed prediction.
    fn take_branch(&mut self, at: u64) -> Result<bool, Fail> {
        let taken = match self.outcomes.take() {
            Some(Outcome::Known(taken)) => taken,
            Some(Outcome::Predicted) => self.predictor.predict(at),
            Some(Outcome::Mispredicted) => !self.predictor.predict(at),
            None => return Err(format!("cannot resolve branch at {at:#x}")),
        };
        if self.options.branch_prediction {
            self.predictor.update(at, taken);
        }
        Ok(taken)
    }

    /// `exception_address`: where the trap was taken, given the last traced instruction.
    fn exception_address(&mut self, thaddr: bool, field: Option<u64>) -> Result<u64, Fail> {
        let insn = self.insn(self.pc)?;
        if insn.is_uninferable_discon() && !thaddr {
            return Ok(self.full(field.unwrap_or(0)));
        }
        if insn.kind == InsnKind::EcallEbreak {
            return Ok(self.pc);
        }
        let saved = (self.pc, self.last_pc);
        let range = self.range;
        self.stop_at_last_branch = false;
        self.next_pc(self.pc)?;
        let epc = self.pc;
        (self.pc, self.last_pc) = saved;
        self.range = range;
        Ok(epc)
    }

    /// `report_pc`: appends an instruction to the open range, or closes it and opens a new
    /// one. An address outside the program image is an error, not an instruction.
    #[inline(always)]
    /// Returns the reported instruction.
    fn report_pc(&mut self, pc: u64) -> Result<&'a Insn, Fail> {
        let insn = self.insn(pc)?;
        let size = insn.size();
        self.instructions += 1;
        if let Some(r) = &mut self.range {
            if r.last.wrapping_add(r.last_size) == pc
                && matches!(
                    r.end,
                    RangeEnd::Sequential | RangeEnd::NotTakenBranch | RangeEnd::EcallEbreak
                )
            {
                r.last = pc;
                r.last_size = size;
                r.count += 1;
                r.end = RangeEnd::Sequential;
                return Ok(insn);
            }
        }
        self.close_range();
        self.range = Some(OpenRange {
            first: pc,
            last: pc,
            last_size: size,
            count: 1,
            end: RangeEnd::Sequential,
        });
        Ok(insn)
    }

    /// Takes the most recently reported instruction back out of the open range.
    fn unreport_last(&mut self) {
        let Some(r) = &mut self.range else {
            return;
        };
        self.instructions -= 1;
        if r.count == 1 {
            self.range = None;
            return;
        }
        // Walk to the instruction before `last` (ranges are sequential).
        let mut pc = r.first;
        for _ in 0..r.count - 2 {
            pc += self.image.insn(pc).map_or(2, |i| i.size());
        }
        r.last = pc;
        r.last_size = self.image.insn(pc).map_or(2, |i| i.size());
        r.count -= 1;
    }

    fn close_range(&mut self) {
        if let Some(r) = self.range.take() {
            self.elements.push(TraceElement::Range {
                first: r.first,
                last: r.last,
                count: r.count,
                end: r.end,
            });
        }
    }
}

/// The error of an address outside the program image (kept out of the hot path).
#[cold]
fn no_insn(address: u64) -> Fail {
    format!("no instruction in the program image at {address:#x}")
}
