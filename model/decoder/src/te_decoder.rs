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
//! emits a [`TraceElement::DecodeError`] (its [`DecodeCause`]) and waits for the next
//! format 3 synchronisation packet.

use super::branches::{BranchQueue, Outcome};
use super::element::{RangeEnd, TraceElement};
use super::error::{DecodeCause, DecodeError};
use super::image::{Hot, HotKind, Insn, ProgramImage};
use etrace_spec::ingress::Privilege;
use etrace_spec::isa::Xlen;
use etrace_spec::packet::{AddressInfo, BranchFmt, IOptions, QualStatus, TeInst};
use etrace_spec::params::Params;
use etrace_spec::predictor::BranchPredictor;

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

/// Why decoding of a packet failed (boxed: one pointer, so that the decoder's results
/// fit in registers).
#[derive(Debug)]
struct Fail(Box<DecodeCause>);

impl From<DecodeCause> for Fail {
    #[cold]
    fn from(cause: DecodeCause) -> Fail {
        Fail(Box::new(cause))
    }
}

/// Where the current packet came from (for error elements).
#[derive(Debug, Clone, Copy, Default)]
struct PacketPlace {
    index: u64,
    offset: Option<u64>,
}

/// The `decoder.adoc` decoder state, with element output.
pub struct TeDecoder<'a> {
    image: &'a ProgramImage,
    /// The region of the image last looked up: base address and [`Hot`] table.
    hot_base: u64,
    hot: &'a [Hot],
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

impl OpenRange {
    /// The range as an element.
    #[inline(always)]
    fn element(&self) -> TraceElement {
        TraceElement::Range {
            first: self.first,
            last: self.last,
            count: self.count,
            end: self.end,
        }
    }
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
            hot_base: 0,
            hot: &[],
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
        if let Err(fail) = self.process_te_inst(packet) {
            self.fail(index, offset, *fail.0);
        }
    }

    /// Reports a packet that could not be read or decoded (`cause`: a [`DecodeCause`], or
    /// the message of the layer that could not read it): a decode-error element, then
    /// nothing until the next format 3 synchronisation packet.
    pub fn fail(&mut self, index: u64, offset: Option<u64>, cause: impl Into<DecodeCause>) {
        self.place = PacketPlace { index, offset };
        self.resyncing = true;
        self.push_error(cause.into());
        self.restart();
    }

    /// Closes the open range and reports `cause` at the current packet.
    fn push_error(&mut self, cause: DecodeCause) {
        self.close_range();
        self.elements
            .push(TraceElement::DecodeError(Box::new(DecodeError {
                packet_index: self.place.index,
                byte_offset: self.place.offset,
                cause,
            })));
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
                        .ok_or(DecodeCause::NoTrapVector {
                            privilege: t.privilege,
                        })?,
                    (None, None) => return Err(DecodeCause::NoTrapVectors.into()),
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
            TeInst::JumpTargetIndex(_) => Err(DecodeCause::JumpTargetCache.into()),
        }
    }

    fn expect_synced(&self) -> Result<(), Fail> {
        if self.start_of_trace {
            Err(DecodeCause::NotSynchronised.into())
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
        if self.hot_at(self.address)?.kind == HotKind::Branch {
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
                    Err(fail) => {
                        self.push_error(*fail.0);
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

    /// The compact form of the instruction at `address`, from the region last looked up
    /// when it holds `address` (the hot path), else from the image.
    #[inline(always)]
    fn hot_at(&self, address: u64) -> Result<&'a Hot, Fail> {
        let off = address.wrapping_sub(self.hot_base);
        let hot: &'a [Hot] = self.hot;
        if address & 1 == 0 && off < 2 * hot.len() as u64 {
            return Ok(&hot[(off / 2) as usize]);
        }
        self.hot_other_region(address).map(|(h, _, _)| h)
    }

    /// [`Self::hot_at`], making the region of `address` the one looked up first.
    #[inline(always)]
    fn seek(&mut self, address: u64) -> Result<&'a Hot, Fail> {
        let off = address.wrapping_sub(self.hot_base);
        let hot: &'a [Hot] = self.hot;
        if address & 1 == 0 && off < 2 * hot.len() as u64 {
            return Ok(&hot[(off / 2) as usize]);
        }
        let (hot, base, table) = self.hot_other_region(address)?;
        self.hot_base = base;
        self.hot = table;
        Ok(hot)
    }

    /// The instruction at `address` outside the region last looked up.
    #[cold]
    #[inline(never)]
    fn hot_other_region(&self, address: u64) -> Result<(&'a Hot, u64, &'a [Hot]), Fail> {
        let image: &'a ProgramImage = self.image;
        if address & 1 == 0 {
            if let Some((base, table)) = image.hot_region(address) {
                if let Some(hot) = table.get((address.wrapping_sub(base) / 2) as usize) {
                    return Ok((hot, base, table));
                }
            }
        }
        Err(no_insn(address))
    }

    /// `follow_execution_path`: from the current pc to `self.address`.
    /// `format3` is the privilege of a format 3 packet being followed to.
    fn follow_execution_path(&mut self, te: &AddressInfo, format3: Option<u8>) -> Result<(), Fail> {
        let previous_address = self.pc;
        let mut steps = 0u64;
        // The instruction at `pc`, once known (saves looking it up twice per step).
        let mut current: Option<Hot> = None;
        // After an inferred address, up to the uninferable discontinuity that ends there.
        while self.inferred_address {
            steps += 1;
            if steps > self.config.max_steps_per_packet {
                return Err(self.not_reached());
            }
            let stop_here = self.next_pc_with(previous_address, te)?;
            current = Some(*self.report_pc(self.pc)?);
            if stop_here {
                self.inferred_address = false;
            }
        }
        self.follow_to_address(te, format3, steps, current)
    }

    /// The error of an address not reached within the step bound.
    #[cold]
    fn not_reached(&self) -> Fail {
        DecodeCause::NotReached {
            address: self.address,
            within: self.config.max_steps_per_packet,
        }
        .into()
    }

    /// The rest of `follow_execution_path` (`steps` taken so far, `current` the
    /// instruction at `pc` if known): one instruction per iteration, `next_pc` then
    /// `report_pc`, except that a straight-line run is crossed in one go (when the reported
    /// address is not inside it, no stop condition can hold on the way) and that the
    /// decoder's moving state is held in locals, written back on the way out. Uninferable
    /// discontinuities go through [`Self::step`].
    fn follow_to_address(
        &mut self,
        te: &AddressInfo,
        format3: Option<u8>,
        mut steps: u64,
        current: Option<Hot>,
    ) -> Result<(), Fail> {
        let address = self.address;
        let mask = self.addr_mask;
        let max_steps = self.config.max_steps_per_packet;
        let mut pc = self.pc;
        let mut last_pc = self.last_pc;
        let mut last_implicit = self.last_was_implicit_return;
        let mut range = self.range;
        let mut instructions = self.instructions;
        let result = 'run: {
            macro_rules! tri {
                ($e:expr) => {
                    match $e {
                        Ok(v) => v,
                        Err(e) => break 'run Err(e),
                    }
                };
            }
            steps += 1;
            if steps > max_steps {
                break 'run Err(self.not_reached());
            }
            // The instruction at `pc`.
            let mut here: Hot = match current {
                Some(h) => h,
                None => *tri!(self.seek(pc)),
            };
            loop {
                let mut stop_here = false;
                let mut skipped = None;
                if here.run_len != 0 {
                    // A straight-line run: report the rest of it and the instruction after
                    // it.
                    let target = pc.wrapping_add(here.run_bytes()) & mask;
                    if !(pc < address && address < target) {
                        if let Some(r) = range.as_mut().filter(|r| r.last == pc) {
                            if let Ok(end) = self.seek(target) {
                                let n = u64::from(here.run_len);
                                r.last = target;
                                r.last_size = end.size();
                                r.count += n;
                                r.end = RangeEnd::Sequential;
                                instructions += n;
                                last_pc = pc.wrapping_add(here.run_last()) & mask;
                                last_implicit = false;
                                pc = target;
                                steps += n;
                                skipped = Some(*end);
                            }
                        }
                    }
                }
                let insn = match skipped {
                    Some(end) => end,
                    None => {
                        // `next_pc`.
                        if here.is_uninferable_discon() {
                            self.pc = pc;
                            self.last_pc = last_pc;
                            self.last_was_implicit_return = last_implicit;
                            self.range = range;
                            let stepped = self.step_discon(here, te);
                            pc = self.pc;
                            last_pc = self.last_pc;
                            last_implicit = self.last_was_implicit_return;
                            range = self.range;
                            stop_here = tri!(stepped);
                        } else {
                            let this_pc = pc;
                            let (next, end) = match here.kind {
                                HotKind::Branch => {
                                    if tri!(self.take_branch(this_pc)) {
                                        (this_pc.wrapping_add(here.offset()), RangeEnd::TakenBranch)
                                    } else {
                                        (
                                            this_pc.wrapping_add(here.size()),
                                            RangeEnd::NotTakenBranch,
                                        )
                                    }
                                }
                                HotKind::InferableJump => {
                                    (this_pc.wrapping_add(here.offset()), RangeEnd::InferableJump)
                                }
                                HotKind::EcallEbreak => {
                                    (this_pc.wrapping_add(here.size()), RangeEnd::EcallEbreak)
                                }
                                _ => (this_pc.wrapping_add(here.size()), RangeEnd::Sequential),
                            };
                            if here.call && self.options.implicit_return {
                                self.push_return(this_pc.wrapping_add(here.size()));
                            }
                            if let Some(r) = &mut range {
                                if r.last == this_pc {
                                    r.end = end;
                                }
                            }
                            pc = next & mask;
                            last_pc = this_pc;
                            last_implicit = false;
                        }
                        // `report_pc`.
                        let insn = tri!(self.seek(pc));
                        instructions += 1;
                        match &mut range {
                            Some(r)
                                if r.last.wrapping_add(r.last_size) == pc
                                    && matches!(
                                        r.end,
                                        RangeEnd::Sequential
                                            | RangeEnd::NotTakenBranch
                                            | RangeEnd::EcallEbreak
                                    ) =>
                            {
                                r.last = pc;
                                r.last_size = insn.size();
                                r.count += 1;
                                r.end = RangeEnd::Sequential;
                            }
                            _ => {
                                if let Some(r) = range {
                                    self.elements.push(r.element());
                                }
                                range = Some(OpenRange {
                                    first: pc,
                                    last: pc,
                                    last_size: insn.size(),
                                    count: 1,
                                    end: RangeEnd::Sequential,
                                });
                            }
                        }
                        *insn
                    }
                };
                let is_branch = insn.kind == HotKind::Branch;
                if self.stop_at_last_branch && is_branch && self.branches() == 1 {
                    // Reached the final branch: its outcome comes with the next packet.
                    self.stop_at_last_branch = false;
                    break 'run Ok(());
                }
                // `unprocessed_branches` at `pc`.
                let unprocessed = self.branches() != u64::from(is_branch);
                if stop_here {
                    if unprocessed {
                        break 'run Err(DecodeCause::UnprocessedBranches.into());
                    }
                    break 'run Ok(());
                }
                if let Some(privilege) = format3 {
                    if pc == address
                        && !unprocessed
                        && (privilege == self.privilege
                            || tri!(self.hot_at(last_pc)).kind == HotKind::TrapReturn)
                    {
                        break 'run Ok(());
                    }
                } else if pc == address && !self.stop_at_last_branch {
                    if te.notify && !unprocessed {
                        break 'run Ok(());
                    }
                    // An implicit return is followed like an inferable jump: its target can
                    // be the reported instruction (`sec:irxx`, first case).
                    let last_discon =
                        tri!(self.hot_at(last_pc)).is_uninferable_discon() && !last_implicit;
                    let depth_ok = !te.irreport || te.irdepth == self.return_stack.len() as u64;
                    if !last_discon && !te.updiscon && !unprocessed && depth_ok {
                        // Reached the reported address, not as an uninferable jump target:
                        // stop for now; the next packet says whether it was the last one.
                        self.inferred_address = true;
                        break 'run Ok(());
                    }
                }
                steps += 1;
                if steps > max_steps {
                    break 'run Err(self.not_reached());
                }
                here = insn;
            }
        };
        self.pc = pc;
        self.last_pc = last_pc;
        self.last_was_implicit_return = last_implicit;
        self.range = range;
        self.instructions = instructions;
        result
    }

    /// [`Self::step`] for an uninferable discontinuity (kept out of the inner loop).
    #[inline(never)]
    fn step_discon(&mut self, insn: Hot, te: &AddressInfo) -> Result<bool, Fail> {
        self.step(insn, self.address, Some(te))
    }

    /// `next_pc` during `follow_execution_path` for packet `te`.
    #[inline]
    fn next_pc_with(&mut self, address: u64, te: &AddressInfo) -> Result<bool, Fail> {
        let insn = *self.seek(self.pc)?;
        self.step(insn, address, Some(te))
    }

    /// `next_pc` outside packet processing (no implicit-return report to honour).
    fn next_pc(&mut self, address: u64) -> Result<bool, Fail> {
        let insn = *self.seek(self.pc)?;
        self.step(insn, address, None)
    }

    /// `next_pc`: moves `pc` past the instruction at `pc`; true when it stopped at the
    /// reported `address` after an uninferable discontinuity.
    #[inline(always)]
    fn step(&mut self, insn: Hot, address: u64, te: Option<&AddressInfo>) -> Result<bool, Fail> {
        let this_pc = self.pc;
        let mut stop_here = false;
        let mut end = RangeEnd::Sequential;
        let mut implicit_return = false;
        let next = match insn.kind {
            HotKind::InferableJump => {
                end = RangeEnd::InferableJump;
                this_pc.wrapping_add(insn.offset())
            }
            HotKind::UninferableJump if self.is_sequential_jump()? => {
                end = RangeEnd::InferableJump;
                let prev = self.insn(self.last_pc)?;
                self.insn(this_pc)?.decoded.sequential_jump_target(
                    &prev.decoded,
                    self.last_pc,
                    self.xlen,
                )
            }
            HotKind::UninferableJump if self.is_implicit_return(insn, te) => {
                end = RangeEnd::UninferableJump;
                implicit_return = true;
                self.return_stack.pop().unwrap_or(0)
            }
            HotKind::UninferableJump | HotKind::TrapReturn => {
                end = if insn.kind == HotKind::TrapReturn {
                    RangeEnd::TrapReturn
                } else {
                    RangeEnd::UninferableJump
                };
                if self.stop_at_last_branch {
                    return Err(DecodeCause::UnexpectedDiscontinuity.into());
                }
                stop_here = true;
                address
            }
            HotKind::Branch => {
                let taken = self.take_branch(this_pc)?;
                if taken {
                    end = RangeEnd::TakenBranch;
                    this_pc.wrapping_add(insn.offset())
                } else {
                    end = RangeEnd::NotTakenBranch;
                    this_pc.wrapping_add(insn.size())
                }
            }
            HotKind::EcallEbreak => {
                end = RangeEnd::EcallEbreak;
                this_pc.wrapping_add(insn.size())
            }
            HotKind::Other => this_pc.wrapping_add(insn.size()),
        };
        if insn.call && self.options.implicit_return {
            self.push_return(this_pc.wrapping_add(insn.size()));
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

    /// A call: pushes its return address (a full stack drops its oldest entry).
    fn push_return(&mut self, address: u64) {
        if self.return_stack.len() == self.stack_capacity {
            self.return_stack.remove(0);
        }
        self.return_stack.push(address);
    }

    /// `is_sequential_jump` for the uninferable jump at `pc`.
    fn is_sequential_jump(&self) -> Result<bool, Fail> {
        if !self.options.sijump || self.last_pc == self.pc {
            return Ok(false);
        }
        let prev = self.insn(self.last_pc)?;
        Ok(self
            .insn(self.pc)?
            .decoded
            .is_sequential_jump(&prev.decoded))
    }

    fn is_implicit_return(&self, insn: Hot, te: Option<&AddressInfo>) -> bool {
        if !self.options.implicit_return || !insn.ret {
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
    #[inline(always)]
    fn take_branch(&mut self, at: u64) -> Result<bool, Fail> {
        let taken = match self.outcomes.take() {
            Some(Outcome::Known(taken)) => taken,
            Some(Outcome::Predicted) => self.predictor.predict(at),
            Some(Outcome::Mispredicted) => !self.predictor.predict(at),
            None => return Err(no_branch(at)),
        };
        if self.options.branch_prediction {
            self.predictor.update(at, taken);
        }
        Ok(taken)
    }

    /// `exception_address`: where the trap was taken, given the last traced instruction.
    fn exception_address(&mut self, thaddr: bool, field: Option<u64>) -> Result<u64, Fail> {
        let insn = self.hot_at(self.pc)?;
        if insn.is_uninferable_discon() && !thaddr {
            return Ok(self.full(field.unwrap_or(0)));
        }
        if insn.kind == HotKind::EcallEbreak {
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
    fn report_pc(&mut self, pc: u64) -> Result<&'a Hot, Fail> {
        let insn = self.seek(pc)?;
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
            self.elements.push(r.element());
        }
    }
}

/// The error of a branch without a reported outcome (kept out of the hot path).
#[cold]
fn no_branch(address: u64) -> Fail {
    DecodeCause::BranchesExhausted { address }.into()
}

/// The error of an address outside the program image (kept out of the hot path).
#[cold]
fn no_insn(address: u64) -> Fail {
    DecodeCause::NoInstruction { address }.into()
}
