//! The encoder's state machine, per ingress record ("Handling of 3-bit itype values",
//! "Handling of 4-bit itype values", "Pseudo-code of Simple N-Trace Encoder"): a message
//! whose address is the next PC is decided on the record that ends its block and sent on
//! the next record (the address "is known at the next valid ingress port cycle").

use super::address::{faddr, uaddr};
use super::history::History;
use super::options::{NtraceMode, NtraceOptions, OptionError};
use crate::call_stack::CallStack;
use crate::message::fields::Process;
use crate::message::layout::write;
use crate::message::{BType, Body, Evcode, FieldConfig, Message, Rcode, SyncReason};
use crate::mseo::MseoWriter;
use etrace_spec::ingress::{IngressRecord, Itype, Privilege};

/// A message waiting for the next PC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    /// A taken direct conditional branch (BTM).
    Direct,
    /// An indirect jump, trap return or trap.
    Indirect(BType),
    /// A return or co-routine swap whose predicted address is `expected`: reported only
    /// when the next PC differs ("Handling of 4-bit itype values", itype 12 and 13).
    Return { expected: u64 },
}

/// What makes two branch messages the same for RepeatBranch ("RepeatBranch Message":
/// I-CNT, HIST and target address).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BranchKey {
    body: Body,
    target: u64,
}

/// The N-Trace encoder (module documentation).
#[derive(Debug, Clone)]
pub struct NtraceEncoder {
    options: NtraceOptions,
    fields: FieldConfig,
    out: MseoWriter,
    kept: Option<Vec<Message>>,
    messages: u64,
    started: bool,
    /// I-CNT counter (half-words since it was last sent).
    icnt: u64,
    /// Largest count before the counter's overflow bit is set.
    icnt_max: u64,
    hist: History,
    /// Half-words since the last message that ends a block (ResourceFull does not).
    walk: u64,
    pending: Option<Pending>,
    /// Last address sent (the U-ADDR reference).
    reference: u64,
    stack: CallStack,
    since_sync: u32,
    privilege: Privilege,
    context: u64,
    /// HIST of the last ResourceFull message and repeats of it not yet sent.
    last_full: Option<u64>,
    hrepeat: u64,
    /// Last branch message and repeats of it not yet sent.
    last_branch: Option<BranchKey>,
    bcnt: u64,
    /// A ResourceFull message was sent or counted in the current block (so its branch
    /// message is no repeat of the previous one).
    block_resource: bool,
    repeat_max: u64,
    time: u64,
    last_time: u64,
    /// Trace is switched off.
    off: bool,
}

impl NtraceEncoder {
    /// An encoder with `options` (checked, see [`NtraceOptions::validate`]).
    pub fn new(options: NtraceOptions) -> Result<NtraceEncoder, OptionError> {
        options.validate()?;
        Ok(NtraceEncoder {
            options,
            fields: options.fields(),
            out: MseoWriter::new(),
            kept: None,
            messages: 0,
            started: false,
            icnt: 0,
            icnt_max: (1u64 << (options.icnt_bits - 1)) - 1,
            hist: History::new(options.hist_bits),
            walk: 0,
            pending: None,
            reference: 0,
            stack: CallStack::new(options.call_stack),
            since_sync: 0,
            privilege: Privilege::Machine,
            context: 0,
            last_full: None,
            hrepeat: 0,
            last_branch: None,
            bcnt: 0,
            block_resource: false,
            repeat_max: (1u64 << options.repeat_bits) - 1,
            time: 0,
            last_time: 0,
            off: false,
        })
    }

    /// Keeps every message sent (for listings and tests), beside the bytes.
    pub fn keep_messages(&mut self) {
        self.kept.get_or_insert_with(Vec::new);
    }

    /// The messages sent so far, when kept.
    pub fn take_messages(&mut self) -> Vec<Message> {
        self.kept.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The MSEO bytes written so far.
    pub fn take_bytes(&mut self) -> Vec<u8> {
        self.out.take()
    }

    /// Number of messages sent.
    pub fn messages(&self) -> u64 {
        self.messages
    }

    /// Whether the trace has started (a ProgTraceSync message was sent and no restart or
    /// finish since).
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// The options.
    pub fn options(&self) -> &NtraceOptions {
        &self.options
    }

    /// Takes one ingress record.
    pub fn push(&mut self, rec: &IngressRecord) {
        self.time += 1;
        if self.off {
            return;
        }
        if !self.started {
            self.start(rec);
        } else if let Some(p) = self.pending.take() {
            self.resolve(p, rec.iaddr);
        }
        if rec.privilege != self.privilege || rec.context != self.context {
            if rec.privilege != self.privilege && self.walk > 0 {
                // Instructions of the old privilege not yet described: end their block.
                self.block_sync(SyncReason::TRACE_EVENT, rec.iaddr);
            }
            self.privilege = rec.privilege;
            self.context = rec.context;
            self.ownership();
        }
        let units = if rec.iretire != 0 {
            rec.instruction_size() / 2
        } else {
            0
        };
        let link = rec.next_sequential();
        let sijump = self.options.sijump && rec.sijump && rec.iretire != 0 && self.walk > 0;
        self.icnt += units;
        if self.icnt > self.icnt_max {
            // "I-CNT Details": the overflow bit of the counter is set; the count, this
            // instruction included, goes out in a ResourceFull message.
            let icnt = std::mem::take(&mut self.icnt);
            self.flush_bcnt();
            self.block_resource = true;
            self.emit(Body::ResourceFull {
                rcode: Rcode::ICNT,
                rdata: icnt,
                hrepeat: None,
            });
        }
        self.walk += units;
        let htm = self.options.mode == NtraceMode::Htm;
        self.pending = match rec.itype {
            Itype::Exception => Some(Pending::Indirect(BType::Exception)),
            Itype::Interrupt => Some(Pending::Indirect(BType::Interrupt)),
            Itype::TrapReturn => Some(Pending::Indirect(BType::Indirect)),
            Itype::NontakenBranch | Itype::TakenBranch => {
                let taken = rec.itype == Itype::TakenBranch;
                if htm {
                    self.hist.push(taken);
                    if self.hist.is_full() {
                        self.hist_full();
                    }
                    None
                } else {
                    taken.then_some(Pending::Direct)
                }
            }
            Itype::UninferableCall => {
                self.stack.push(link);
                (!sijump).then_some(Pending::Indirect(BType::Indirect))
            }
            Itype::InferableCall => {
                self.stack.push(link);
                None
            }
            Itype::UninferableJump3 | Itype::UninferableJump | Itype::OtherUninferableJump => {
                (!sijump).then_some(Pending::Indirect(BType::Indirect))
            }
            Itype::CoroutineSwap => {
                let popped = self.stack.pop();
                self.stack.push(link);
                match popped {
                    Some(expected) => Some(Pending::Return { expected }),
                    None => (!sijump).then_some(Pending::Indirect(BType::Indirect)),
                }
            }
            Itype::Return => match self.stack.pop() {
                Some(expected) => Some(Pending::Return { expected }),
                None => Some(Pending::Indirect(BType::Indirect)),
            },
            Itype::None | Itype::InferableJump | Itype::OtherInferableJump => None,
        };
    }

    /// Starts the trace anew after a gap (messages were lost): the next record is traced
    /// from a fresh state, beginning with a ProgTraceSync message with SYNC `sync`.
    pub fn restart(&mut self, sync: SyncReason) {
        self.options.start_sync = sync;
        self.started = false;
        self.pending = None;
        self.end_block();
        self.stack.clear();
        self.last_full = None;
        self.hrepeat = 0;
        self.last_branch = None;
        self.bcnt = 0;
    }

    /// Trace is switched off ("Rules of Generating Messages": a ProgTraceCorrelation
    /// message with EVCODE 4 ends the trace); records pushed until
    /// [`NtraceEncoder::trace_on`] are not traced.
    pub fn trace_off(&mut self) {
        self.finish_with(Evcode::TRACE_DISABLED);
        self.off = true;
    }

    /// Trace is switched on again: the next record restarts it with a ProgTraceSync
    /// message with SYNC 5 (Trace Enable, "Synchronizing Messages").
    pub fn trace_on(&mut self) {
        if self.off {
            self.off = false;
            self.restart(SyncReason::TRACE_ENABLE);
        }
    }

    /// The end of the trace: [`NtraceEncoder::finish_with`] EVCODE 4 (trace disabled).
    pub fn finish(&mut self) {
        self.finish_with(Evcode::TRACE_DISABLED);
    }

    /// The end of the trace: what is left is sent in a ProgTraceCorrelation message
    /// with `evcode` whose I-CNT and HIST end at the last instruction.
    pub fn finish_with(&mut self, evcode: Evcode) {
        if !self.started {
            return;
        }
        self.pending = None;
        self.flush_repeats();
        let htm = self.options.mode == NtraceMode::Htm;
        let body = Body::ProgTraceCorrelation {
            evcode,
            cdf: u8::from(htm),
            icnt: self.icnt,
            hist: htm.then_some(self.hist.value()),
        };
        self.emit(body);
        self.icnt = 0;
        self.hist.reset();
        self.walk = 0;
        self.started = false;
    }

    fn start(&mut self, rec: &IngressRecord) {
        self.started = true;
        self.privilege = rec.privilege;
        self.context = rec.context;
        self.emit_sync(Body::ProgTraceSync {
            sync: self.options.start_sync,
            icnt: 0,
            faddr: faddr(rec.iaddr),
        });
        self.after_sync(rec.iaddr);
    }

    /// Sends the message decided on the previous record, now that the next PC is known.
    fn resolve(&mut self, pending: Pending, target: u64) {
        let btype = match pending {
            Pending::Direct => {
                return self.branch(
                    Body::DirectBranch { icnt: self.icnt },
                    Body::DirectBranchSync {
                        sync: SyncReason::PERIODIC,
                        icnt: self.icnt,
                        faddr: faddr(target),
                    },
                    target,
                );
            }
            Pending::Return { expected } if expected == target => return,
            Pending::Return { .. } => BType::Indirect,
            Pending::Indirect(btype) => btype,
        };
        let (icnt, hist) = (self.icnt, self.hist.value());
        let (plain, sync) = if self.options.mode == NtraceMode::Htm && !self.hist.is_empty() {
            (
                Body::IndirectBranchHist {
                    btype,
                    icnt,
                    uaddr: uaddr(self.reference, target),
                    hist,
                },
                Body::IndirectBranchHistSync {
                    sync: SyncReason::PERIODIC,
                    btype,
                    icnt,
                    faddr: faddr(target),
                    hist,
                },
            )
        } else {
            (
                Body::IndirectBranch {
                    btype,
                    icnt,
                    uaddr: uaddr(self.reference, target),
                },
                Body::IndirectBranchSync {
                    sync: SyncReason::PERIODIC,
                    btype,
                    icnt,
                    faddr: faddr(target),
                },
            )
        };
        self.branch(plain, sync, target);
    }

    /// Sends a message that ends a block: its synchronising form when a periodic
    /// synchronisation is due, else the plain one (or a repeat of the previous one).
    fn branch(&mut self, plain: Body, sync: Body, target: u64) {
        let direct = matches!(plain, Body::DirectBranch { .. });
        if self.options.sync_max > 0 && self.since_sync >= self.options.sync_max {
            self.emit_sync(sync);
            self.end_block();
            self.after_sync(target);
            return;
        }
        let key = BranchKey {
            body: plain,
            target,
        };
        if self.options.repeat_history
            && !self.block_resource
            && self.last_branch == Some(key)
            && self.bcnt < self.repeat_max
        {
            self.bcnt += 1;
        } else {
            self.flush_repeats();
            self.emit(plain);
            self.last_branch = Some(key);
        }
        self.end_block();
        if !direct {
            self.reference = target;
        }
    }

    /// A synchronising message on linear code (B-TYPE 0) ending the block at `next`.
    fn block_sync(&mut self, sync: SyncReason, next: u64) {
        let (icnt, hist) = (self.icnt, self.hist.value());
        let body = if self.options.mode == NtraceMode::Htm {
            Body::IndirectBranchHistSync {
                sync,
                btype: BType::Indirect,
                icnt,
                faddr: faddr(next),
                hist,
            }
        } else {
            Body::IndirectBranchSync {
                sync,
                btype: BType::Indirect,
                icnt,
                faddr: faddr(next),
            }
        };
        self.emit_sync(body);
        self.end_block();
        self.after_sync(next);
    }

    fn end_block(&mut self) {
        self.block_resource = false;
        self.icnt = 0;
        self.hist.reset();
        self.walk = 0;
    }

    /// "Synchronizing Messages": every synchronising message resets the encoder state
    /// and is followed by an Ownership message.
    fn after_sync(&mut self, address: u64) {
        self.reference = address;
        self.stack.clear();
        self.since_sync = 0;
        self.last_full = None;
        self.last_branch = None;
        self.ownership();
    }

    fn ownership(&mut self) {
        let (v, prv) = Process::for_privilege(self.privilege);
        let process = Process {
            format: if self.context != 0 { 2 } else { 0 },
            prv,
            v,
            context: self.context,
        };
        self.flush_repeats();
        self.emit(Body::Ownership {
            process: process.value(),
        });
    }

    /// "HIST Field Full": the register goes out in a ResourceFull message, or, with
    /// repeated history, counts as a repeat of the previous one.
    fn hist_full(&mut self) {
        let h = if self.options.repeat_history {
            self.hist.take_periodic()
        } else {
            self.hist.take()
        };
        self.flush_bcnt();
        self.block_resource = true;
        if self.options.repeat_history
            && self.last_full == Some(h)
            && self.hrepeat < self.repeat_max
        {
            self.hrepeat += 1;
            return;
        }
        self.flush_repeats();
        self.emit(Body::ResourceFull {
            rcode: Rcode::HIST,
            rdata: h,
            hrepeat: None,
        });
        self.last_full = Some(h);
    }

    /// Sends counted repeats (HREPEAT, B-CNT) before any other message.
    fn flush_repeats(&mut self) {
        if self.hrepeat > 0 {
            let h = self.last_full.unwrap_or(1);
            let n = std::mem::take(&mut self.hrepeat);
            self.emit(Body::ResourceFull {
                rcode: Rcode::HIST_REPEAT,
                rdata: h,
                hrepeat: Some(n),
            });
        }
        self.flush_bcnt();
        self.last_branch = None;
    }

    /// Sends counted branch repeats (B-CNT).
    fn flush_bcnt(&mut self) {
        if self.bcnt > 0 {
            let n = std::mem::take(&mut self.bcnt);
            self.emit(Body::RepeatBranch { bcnt: n });
        }
    }

    fn emit_sync(&mut self, body: Body) {
        self.flush_repeats();
        self.emit_with(body, true);
    }

    fn emit(&mut self, body: Body) {
        if !matches!(body, Body::ResourceFull { .. } | Body::RepeatBranch { .. }) {
            // Everything but repeat bookkeeping breaks a run of equal branch messages.
            self.last_branch = None;
        }
        self.emit_with(body, false);
    }

    fn emit_with(&mut self, body: Body, absolute: bool) {
        let tstamp = self.options.timestamp.then(|| {
            let t = if absolute {
                self.time
            } else {
                self.time - self.last_time
            };
            self.last_time = self.time;
            t
        });
        let message = Message {
            src: self.options.src_id,
            body,
            tstamp,
        };
        write(&message, &self.fields, &mut self.out);
        if let Some(kept) = &mut self.kept {
            kept.push(message);
        }
        self.messages += 1;
        self.since_sync = self.since_sync.saturating_add(1);
    }
}
