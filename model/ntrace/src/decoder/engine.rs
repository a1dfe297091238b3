//! The decoder's message handling (module documentation of [`super`]).

use super::address::{from_faddr, from_uaddr};
use super::block::{BlockEnd, BlockWalk, MAX_STEPS_PER_MESSAGE};
use super::history::BlockHistory;
use crate::call_stack::{CallStack, MAX_DEPTH};
use crate::message::fields::Process;
use crate::message::{BType, Body, FieldConfig, Message, Rcode};
use etrace_decoder::image::InsnKind;
use etrace_decoder::{DecodeCause, DecodeError, ProgramImage, TraceElement};
use etrace_spec::ingress::Privilege;

/// Largest I-CNT field ("Maximum Field Sizes", `NTRACE_MAX_ICNT`: 22 bits).
const MAX_ICNT: u64 = (1 << 22) - 1;
/// Largest HREPEAT and B-CNT fields (`NTRACE_MAX_HREPEAT`, `NTRACE_MAX_BCNT`: 18 bits).
const MAX_REPEAT: u64 = (1 << 18) - 1;

/// What the decoder is told besides the messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NtraceDecoderConfig {
    /// The configured fields (SRC width, timestamps).
    pub fields: FieldConfig,
    /// Follow only the messages of this SRC ("Decoding trace from multiple harts").
    pub src: Option<u16>,
    /// The encoder may leave sequentially inferable jumps unreported.
    pub sijump: bool,
}

/// The N-Trace decoder over one program image.
pub struct NtraceDecoder<'a> {
    image: &'a ProgramImage,
    config: NtraceDecoderConfig,
    elements: Vec<TraceElement>,
    synced: bool,
    /// Where the next block starts.
    pc: u64,
    /// The last address decoded from an address field (the U-ADDR reference).
    reference: u64,
    stack: CallStack,
    /// I-CNT and HIST of ResourceFull messages, for the next block.
    pending_icnt: u64,
    hist: BlockHistory,
    /// The last branch message without SYNC and its target, for RepeatBranch.
    last_branch: Option<(Body, u64)>,
    privilege: Privilege,
    context: u64,
    instructions: u64,
    place: (u64, Option<u64>),
    /// Instructions the message being processed may still take.
    steps_left: u64,
}

impl<'a> NtraceDecoder<'a> {
    /// A decoder over `image`; it waits for a synchronising message.
    pub fn new(image: &'a ProgramImage, config: NtraceDecoderConfig) -> NtraceDecoder<'a> {
        NtraceDecoder {
            image,
            config,
            elements: Vec::new(),
            synced: false,
            pc: 0,
            reference: 0,
            stack: CallStack::new(MAX_DEPTH),
            pending_icnt: 0,
            hist: BlockHistory::default(),
            last_branch: None,
            privilege: Privilege::Machine,
            context: 0,
            instructions: 0,
            place: (0, None),
            steps_left: MAX_STEPS_PER_MESSAGE,
        }
    }

    /// Instructions reconstructed so far.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// Takes the elements produced so far.
    pub fn take_elements(&mut self) -> Vec<TraceElement> {
        std::mem::take(&mut self.elements)
    }

    /// A message that could not be read (at byte `offset`): reported, and decoding waits
    /// for the next synchronising message.
    pub fn unreadable(&mut self, index: u64, offset: Option<u64>, reason: String) {
        self.place = (index, offset);
        self.fail(DecodeCause::Unreadable { reason });
    }

    /// Processes message number `index` (at byte `offset` of the stream).
    pub fn process(&mut self, message: &Message, index: u64, offset: Option<u64>) {
        if self.config.src.is_some_and(|s| s != message.src) {
            return;
        }
        self.place = (index, offset);
        self.steps_left = MAX_STEPS_PER_MESSAGE;
        if let Err(cause) = self.process_body(&message.body) {
            self.fail(cause);
        }
    }

    fn fail(&mut self, cause: DecodeCause) {
        let (packet_index, byte_offset) = self.place;
        self.elements
            .push(TraceElement::DecodeError(Box::new(DecodeError {
                packet_index,
                byte_offset,
                cause,
            })));
        self.unsync();
    }

    fn unsync(&mut self) {
        self.synced = false;
        self.pending_icnt = 0;
        self.hist.clear();
        self.last_branch = None;
    }

    fn process_body(&mut self, body: &Body) -> Result<(), DecodeCause> {
        if let Body::Ownership { process } = *body {
            self.ownership(Process::from_value(process));
            return Ok(());
        }
        if let Body::Error { .. } = body {
            self.elements.push(TraceElement::TraceLost);
            self.unsync();
            return Ok(());
        }
        if let Some(icnt) = body.icnt() {
            check("I-CNT", icnt, MAX_ICNT)?;
        }
        if body.sync().is_some() {
            return self.synchronise(body);
        }
        if !self.synced {
            return Ok(());
        }
        match *body {
            Body::ResourceFull {
                rcode,
                rdata,
                hrepeat,
            } => {
                match rcode {
                    Rcode::ICNT => {
                        check("RDATA (I-CNT)", rdata, MAX_ICNT)?;
                        self.pending_icnt = self.pending_icnt.saturating_add(rdata);
                    }
                    Rcode::HIST => self.hist.add(rdata, 1),
                    Rcode::HIST_REPEAT => {
                        let times = hrepeat.unwrap_or(1);
                        check("HREPEAT", times, MAX_REPEAT)?;
                        self.hist.add(rdata, times);
                    }
                    Rcode(code @ 3..=7) => {
                        return Err(format!(
                            "ResourceFull RCODE {code} is reserved (\"ResourceFull Message\": \
                             3 to 7 are reserved for future encodings)"
                        )
                        .into());
                    }
                    // Vendor codes (8 to 15) carry nothing this decoder can follow.
                    _ => {}
                }
                Ok(())
            }
            Body::RepeatBranch { bcnt } => {
                check("B-CNT", bcnt, MAX_REPEAT)?;
                let (branch, target) = self.last_branch.ok_or(DecodeCause::NothingToRepeat)?;
                for _ in 0..bcnt {
                    self.branch(&branch, Some(target))?;
                }
                Ok(())
            }
            Body::ProgTraceCorrelation { icnt, hist, .. } => {
                self.block(icnt, hist, false)?;
                self.elements.push(TraceElement::TraceOff);
                self.unsync();
                Ok(())
            }
            _ => self.branch(body, None),
        }
    }

    /// A branch message (DirectBranch, IndirectBranch, IndirectBranchHist); `repeat`:
    /// the target when it repeats the previous one.
    fn branch(&mut self, body: &Body, repeat: Option<u64>) -> Result<(), DecodeCause> {
        let direct = matches!(body, Body::DirectBranch { .. });
        let end = self.block(body.icnt().unwrap_or(0), body.hist(), direct)?;
        check_block_end(body, &end)?;
        let target = match (*body, repeat) {
            (_, Some(t)) => t,
            (Body::IndirectBranch { uaddr, .. }, None)
            | (Body::IndirectBranchHist { uaddr, .. }, None) => from_uaddr(self.reference, uaddr),
            _ => end
                .next
                .ok_or(DecodeCause::UninferableInBlock { address: self.pc })?,
        };
        self.trap(body.btype(), end);
        if !direct {
            self.reference = target;
        }
        self.pc = target;
        self.last_branch = Some((*body, target));
        Ok(())
    }

    /// A synchronising message: the block up to it when synchronised, then its F-ADDR
    /// (and a fresh state, "Synchronizing Messages").
    fn synchronise(&mut self, body: &Body) -> Result<(), DecodeCause> {
        let faddr = match *body {
            Body::ProgTraceSync { faddr, .. }
            | Body::DirectBranchSync { faddr, .. }
            | Body::IndirectBranchSync { faddr, .. }
            | Body::IndirectBranchHistSync { faddr, .. } => faddr,
            _ => return Ok(()),
        };
        let address = from_faddr(faddr);
        if self.synced {
            let direct = matches!(body, Body::DirectBranchSync { .. });
            let end = self.block(body.icnt().unwrap_or(0), body.hist(), direct)?;
            check_block_end(body, &end)?;
            check_sync_address(body, &end, address)?;
            self.trap(body.btype(), end);
        } else {
            self.elements.push(TraceElement::TraceOn {
                address,
                privilege: self.privilege,
            });
            self.synced = true;
        }
        self.pc = address;
        self.reference = address;
        self.stack.clear();
        self.pending_icnt = 0;
        self.hist.clear();
        self.last_branch = None;
        Ok(())
    }

    fn trap(&mut self, btype: Option<BType>, end: BlockEnd) {
        if let Some(b) = btype.filter(|b| b.is_trap()) {
            self.elements.push(TraceElement::Trap {
                ecause: 0,
                interrupt: b == BType::Interrupt,
                tval: 0,
                epc: end.next,
            });
        }
    }

    /// Follows one block: the I-CNT and HIST collected from ResourceFull messages and
    /// this message's.
    fn block(
        &mut self,
        icnt: u64,
        hist: Option<u64>,
        last_taken: bool,
    ) -> Result<BlockEnd, DecodeCause> {
        let icnt = std::mem::take(&mut self.pending_icnt).saturating_add(icnt);
        if let Some(h) = hist {
            self.hist.add(h, 1);
        }
        let mut walk = BlockWalk {
            image: self.image,
            stack: &mut self.stack,
            elements: &mut self.elements,
            sijump: self.config.sijump,
            steps_left: &mut self.steps_left,
        };
        let end = walk.run(self.pc, icnt, &mut self.hist, last_taken);
        self.hist.clear();
        let end = end?;
        self.instructions += end.instructions;
        if let Some(next) = end.next {
            self.pc = next;
        }
        Ok(end)
    }

    fn ownership(&mut self, process: Process) {
        if let Some(p) = process.privilege() {
            if p != self.privilege {
                self.privilege = p;
                self.elements.push(TraceElement::Privilege { privilege: p });
            }
        }
        let context = if process.format >= 2 {
            process.context
        } else {
            0
        };
        if context != self.context {
            self.context = context;
            self.elements.push(TraceElement::Context { context });
        }
    }
}

/// What a branch message says about its block's last instruction, checked against the
/// image:
/// - "DirectBranch Message": a taken direct conditional branch;
/// - "IndirectBranch Message", "IndirectBranchHist Message" with B-TYPE 0: an indirect
///   jump, call or return, or a trap return (itype 3);
/// - the same with a trap B-TYPE: anything but an indirect jump or trap return whose
///   target nothing inferred, as that instruction's own message comes first ("Handling of
///   3-bit itype values": the address of a message is known at the next record).
///
/// A synchronising message with B-TYPE 0 may end linear code ("Synchronizing Messages"),
/// so only DirectBranchSync is checked among those.
fn check_block_end(body: &Body, end: &BlockEnd) -> Result<(), DecodeCause> {
    let last_kind = end.last.map(|(_, insn)| insn.kind);
    let (expected, fits) = match *body {
        Body::DirectBranch { .. } | Body::DirectBranchSync { .. } => (
            "a conditional branch",
            matches!(last_kind, Some(InsnKind::Branch { .. })),
        ),
        Body::IndirectBranch { btype, .. } | Body::IndirectBranchHist { btype, .. } => {
            if btype == BType::Indirect {
                (
                    "an indirect jump, call or return, or a trap return",
                    end.ends_uninferable(),
                )
            } else if end.next.is_none() {
                ("an instruction a trap may follow", false)
            } else {
                return Ok(());
            }
        }
        _ => return Ok(()),
    };
    if fits {
        return Ok(());
    }
    let (address, found) = match end.last {
        Some((address, _)) if end.ends_uninferable() && end.next.is_none() => (
            address,
            "an indirect jump or trap return that no message resolved",
        ),
        Some((address, insn)) => (address, kind_name(insn.kind)),
        None => (end.start, "no instruction (an empty block)"),
    };
    Err(DecodeCause::WrongBlockEnd {
        message: body.tcode().name(),
        address,
        found,
        expected,
    })
}

/// A synchronising message that stands for a taken branch (DirectBranchSync) or for a
/// block of code with B-TYPE 0 (IndirectBranchSync, IndirectBranchHistSync) gives in F-ADDR
/// where execution goes next; where the program says so itself (the block does not end
/// with an indirect jump or trap return), the two must agree. ProgTraceSync may follow a
/// gap in the trace and a trap B-TYPE gives the handler, so neither is checked.
fn check_sync_address(body: &Body, end: &BlockEnd, address: u64) -> Result<(), DecodeCause> {
    let checked = match *body {
        Body::DirectBranchSync { .. } => true,
        Body::IndirectBranchSync { btype, .. } | Body::IndirectBranchHistSync { btype, .. } => {
            btype == BType::Indirect
        }
        _ => false,
    };
    match end.next {
        Some(next) if checked && !end.ends_uninferable() && next != address => {
            Err(DecodeCause::SyncAddressDisagrees {
                message: body.tcode().name(),
                address,
                next,
            })
        }
        _ => Ok(()),
    }
}

/// An instruction kind as [`DecodeCause::WrongBlockEnd`] names it.
fn kind_name(kind: InsnKind) -> &'static str {
    match kind {
        InsnKind::Other => "an instruction that does not jump",
        InsnKind::Branch { .. } => "a conditional branch",
        InsnKind::InferableJump { .. } => "a direct jump",
        InsnKind::UninferableJump => "an indirect jump",
        InsnKind::TrapReturn => "a trap return",
        InsnKind::EcallEbreak => "an ecall or ebreak",
    }
}

fn check(field: &'static str, value: u64, max: u64) -> Result<(), DecodeCause> {
    if value > max {
        return Err(DecodeCause::FieldTooLarge { field, value, max });
    }
    Ok(())
}
