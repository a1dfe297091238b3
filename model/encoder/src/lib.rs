//! The golden instruction trace encoder: the algorithm of `exampleAlgorithm.adoc` (figure
//! `fig:algo`) over the single-retirement ingress stream, producing te_inst packets of
//! `payload.adoc`.
//!
//! One [`Encoder`] traces one hart. Records enter one at a time ([`Encoder::push`]); the
//! encoder keeps the previous / current / next window and decides packets for the current
//! instruction ([`decision`]). [`Encoder::finish`] reports the final traced instruction and
//! ends the trace with a support packet. [`cycle`] is the cycle-accurate model of the
//! hardware built around it.

pub mod branch_map;
mod build;
pub mod cycle;
pub mod decision;
pub mod implicit_return;
pub mod options;
pub mod qualification;
pub mod resync;
pub mod window;

pub use decision::Reason;
pub use options::EncoderOptions;

use branch_map::BranchMap;
use decision::{Action, Classify, State};
use etrace_spec::ingress::{IngressRecord, Itype};
use etrace_spec::packet::AddressInfo;
use etrace_spec::packet::{QualStatus, TeInst};
use etrace_spec::params::Params;
use etrace_spec::predictor::BranchPredictor;
use implicit_return::ReturnStack;
use resync::ResyncCounter;
use window::{Slot, Window};

/// One te_inst packet with where and why the encoder sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedPacket {
    /// The packet.
    pub packet: TeInst,
    /// Index (0-based) of the ingress record that was current when the packet was sent.
    pub record_index: u64,
    /// The encoder clock it was produced in: 0 for the enable support packet of
    /// [`Encoder::new`], `k` for the `k`-th [`Encoder::push`] or [`Encoder::finish_step`].
    /// When the ingress presents one record per cycle from trace enable on and nothing
    /// stalls, the hardware produces the packet in the cycle its 16-bit timestamp counter
    /// shows as `clock` (`hdl/DESIGN.md` items 3 and 5); `etrace encode` stamps with it.
    pub clock: u64,
    /// The chart's reasons for the packet.
    pub reasons: Vec<Reason>,
}

/// A combination of parameters and options the encoder cannot honour.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncoderError {
    /// An option needs a hardware parameter that is not set.
    #[error("option `{option}` needs parameter {needs}")]
    OptionNeedsParameter {
        /// The run-time option.
        option: &'static str,
        /// The parameter setting it needs.
        needs: &'static str,
    },
}

/// The instruction trace encoder (golden model).
#[derive(Debug)]
pub struct Encoder {
    params: Params,
    options: EncoderOptions,
    window: Window,
    branch_map: BranchMap,
    /// `sec:branch-prediction`: the predictor, when prediction is enabled.
    predictor: Option<BranchPredictor>,
    /// `pbc`: correctly predicted branches not yet reported. Below 31 they lead the branch
    /// map; from 31 on the map is empty and only the count grows.
    pbc: u64,
    /// The current instruction is a branch that failed its prediction.
    curr_mispredicted: bool,
    /// `sec:implicit-return`: nested calls, when implicit return is enabled.
    irstack: Option<ReturnStack>,
    resync: ResyncCounter,
    /// Address reported by the last packet that carried one (for differential addresses).
    last_address: u64,
    /// The trap of the current slot was reported with `thaddr = 0`.
    curr_trap_reported: bool,
    /// The trap of the previous slot was reported with `thaddr = 0`.
    prev_trap_reported: bool,
    /// The last packet reported the target of an uninferable discontinuity (for
    /// `qual_status = ended_ntr`).
    last_packet_was_updiscon_target: bool,
    /// Index of the record in the `next` slot.
    next_index: u64,
    /// Clocks run: pushes and finish steps.
    clocks: u64,
    finished: bool,
    /// Clocks of [`Encoder::finish`] done (0-2).
    finish_clocks: u8,
    /// Free entries of the hardware's 2-packet output queue seen by the next decision
    /// (`hdl/DESIGN.md`, cycle contract item 4); 2 (the default) never drops.
    queue_free: u8,
    /// Packets were dropped and no recovery sync has been sent since.
    lost: bool,
    /// Packets produced by the decision of the current clock, not yet committed.
    pending: Vec<EncodedPacket>,
    /// Number of produced packets that were dropped.
    dropped: u64,
    packets: Vec<EncodedPacket>,
}

/// Capacity of the hardware's packet queue between the packet logic and the framer.
pub const OUTPUT_QUEUE_ENTRIES: u8 = 2;

impl Encoder {
    /// An enabled encoder. It sends the support packet that announces its configuration
    /// (`payload.adoc`, `sec:format33`: "When trace is enabled, and before the first sync").
    pub fn new(params: &Params, options: EncoderOptions) -> Result<Encoder, EncoderError> {
        Encoder::with_queue_free(params, options, OUTPUT_QUEUE_ENTRIES)
    }

    /// As [`Encoder::new`], with the output queue's free entries in the enabling cycle
    /// (`hdl/DESIGN.md`, cycle contract items 3 and 4): with none free, the enable support
    /// packet is dropped and the encoder starts in the lost state.
    pub fn with_queue_free(
        params: &Params,
        options: EncoderOptions,
        queue_free: u8,
    ) -> Result<Encoder, EncoderError> {
        if options.sijump && params.sijump_p == 0 {
            return Err(EncoderError::OptionNeedsParameter {
                option: "sijump",
                needs: "sijump_p = 1",
            });
        }
        if options.implicit_return && params.itype_width_p != 4 {
            return Err(EncoderError::OptionNeedsParameter {
                option: "implicit-return",
                needs: "itype_width_p = 4",
            });
        }
        if options.implicit_return
            && params.return_stack_size_p == 0
            && params.call_counter_size_p == 0
        {
            return Err(EncoderError::OptionNeedsParameter {
                option: "implicit-return",
                needs: "return_stack_size_p > 0 or call_counter_size_p > 0",
            });
        }
        if options.branch_prediction && params.bpred_size_p == 0 {
            return Err(EncoderError::OptionNeedsParameter {
                option: "branch-prediction",
                needs: "bpred_size_p > 0",
            });
        }
        let mut enc = Encoder {
            params: params.clone(),
            options,
            window: Window::default(),
            branch_map: BranchMap::default(),
            predictor: options
                .branch_prediction
                .then(|| BranchPredictor::new(params.bpred_size_p, params.iaddress_lsb_p)),
            pbc: 0,
            curr_mispredicted: false,
            irstack: options.implicit_return.then(|| ReturnStack::new(params)),
            resync: ResyncCounter::new(options.resync_max),
            last_address: 0,
            curr_trap_reported: false,
            prev_trap_reported: false,
            last_packet_was_updiscon_target: false,
            next_index: 0,
            clocks: 0,
            finished: false,
            finish_clocks: 0,
            queue_free: queue_free.min(OUTPUT_QUEUE_ENTRIES),
            lost: false,
            pending: Vec::new(),
            dropped: 0,
            packets: Vec::new(),
        };
        let support = build::support(&enc.params, &enc.options, true, QualStatus::NoChange);
        enc.send(support, 0, vec![Reason::Enabled], false);
        enc.commit(false);
        enc.queue_free = OUTPUT_QUEUE_ENTRIES;
        Ok(enc)
    }

    /// The parameters the encoder was built with.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The run-time options.
    pub fn options(&self) -> &EncoderOptions {
        &self.options
    }

    /// Presents one ingress record, qualified and without notification.
    pub fn push(&mut self, rec: &IngressRecord) {
        self.push_with(rec, true, false);
    }

    /// Presents one ingress record with its qualification (filtering and trace enable) and
    /// trace-notify trigger.
    pub fn push_with(&mut self, rec: &IngressRecord, qualified: bool, notify: bool) {
        debug_assert!(!self.finished, "push after finish");
        self.clock(Slot::new(*rec, qualified, notify));
        self.next_index += 1;
    }

    /// Ends the trace: reports the final traced instruction and sends the support packet
    /// with `ienable = 0` (`payload.adoc`, `sec:qual-status`).
    pub fn finish(&mut self) {
        while self.finish_step() {}
    }

    /// One of the two clocks of [`Encoder::finish`], which the hardware makes in two cycles,
    /// each with its own output queue room ([`Encoder::set_queue_free`]; `hdl/DESIGN.md`,
    /// cycle contract item 3). Returns false when both were already done.
    pub fn finish_step(&mut self) -> bool {
        if self.finish_clocks == 2 {
            return false;
        }
        self.finished = true;
        self.finish_clocks += 1;
        self.clock(Slot::default());
        true
    }

    /// Whether both clocks of [`Encoder::finish`] are done.
    pub fn is_finished(&self) -> bool {
        self.finish_clocks == 2
    }

    /// Sets the number of free entries (0-2) of the output queue that the decision of the
    /// next clock ([`Encoder::push`], [`Encoder::push_with`], [`Encoder::finish`]) sees,
    /// as the hardware's packet queue reports it (`hdl/DESIGN.md`, cycle contract item 4).
    /// When the packets of a decision do not fit, all of them are dropped; then packets are
    /// dropped until a decision with 2 free entries for a traced instruction that is not
    /// exception-only and does not follow a trap, which sends a support packet with `qual_status` = trace_lost and a
    /// sync. The encoder's state advances as if every packet had been sent.
    pub fn set_queue_free(&mut self, free: u8) {
        self.queue_free = free.min(OUTPUT_QUEUE_ENTRIES);
    }

    /// Number of packets dropped because the output queue was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Whether packets were dropped and the recovery sync has not been sent yet.
    pub fn is_lost(&self) -> bool {
        self.lost
    }

    /// Packets sent so far.
    pub fn packets(&self) -> &[EncodedPacket] {
        &self.packets
    }

    /// Takes the packets sent so far.
    pub fn take_packets(&mut self) -> Vec<EncodedPacket> {
        std::mem::take(&mut self.packets)
    }

    /// Encodes a whole stream: support, packets, final report and support.
    pub fn encode_all<'a>(
        params: &Params,
        options: EncoderOptions,
        records: impl IntoIterator<Item = &'a IngressRecord>,
    ) -> Result<Vec<EncodedPacket>, EncoderError> {
        let mut enc = Encoder::new(params, options)?;
        for rec in records {
            enc.push(rec);
        }
        enc.finish();
        Ok(enc.take_packets())
    }

    fn clock(&mut self, next: Slot) {
        self.clocks += 1;
        self.window.shift(next);
        self.prev_trap_reported = self.curr_trap_reported;
        self.curr_trap_reported = false;
        let index = self.next_index.saturating_sub(1);
        let w = self.window;
        if !w.curr.traced() {
            if w.prev.traced() {
                // The previous instruction was the last traced one (its packet was sent
                // because this one is not traced).
                let status = if self.last_packet_was_updiscon_target {
                    QualStatus::EndedNtr
                } else {
                    QualStatus::EndedRep
                };
                let enabled = !self.finished || w.curr.valid;
                let reason = if enabled {
                    Reason::QualificationEnded
                } else {
                    Reason::Disabled
                };
                let support = build::support(&self.params, &self.options, enabled, status);
                self.send(support, index, vec![reason], false);
                self.commit(false);
            }
            return;
        }
        self.curr_mispredicted = false;
        if w.curr.is_branch() {
            self.record_branch(w.curr.rec.iaddr, w.curr.rec.itype == Itype::TakenBranch);
        }
        self.track_calls();
        let w = self.window;
        let state = State {
            branches: self.branch_map.branches,
            branch_map_full: self.branch_map.is_full(),
            count_failed: self.counting() && self.curr_mispredicted,
            count_full: self.counting() && self.pbc - 31 == u64::from(u32::MAX),
            prev_trap_reported: self.prev_trap_reported,
            resync_at_max: self.resync.at_max(),
            resync_exceeded: self.resync.exceeded(),
            // The recovery sync must carry an address: not for an exception-only record,
            // nor for the trap report of the previous instruction (which may omit it).
            recover: self.lost
                && self.queue_free == OUTPUT_QUEUE_ENTRIES
                && !w.curr.is_exc_only()
                && !(w.prev.traced() && w.prev.is_trap()),
        };
        for (action, reasons) in decision::decide(&w, &state, &*self) {
            self.act(action, reasons, index);
        }
        self.commit(state.recover);
    }

    /// Applies the output queue's room to the packets of this clock's decision
    /// ([`Encoder::set_queue_free`]).
    fn commit(&mut self, recover: bool) {
        if self.pending.is_empty() {
            return;
        }
        if recover {
            let index = self.pending[0].record_index;
            let support = build::support(&self.params, &self.options, true, QualStatus::TraceLost);
            self.packets.push(EncodedPacket {
                packet: support,
                record_index: index,
                clock: self.clocks,
                reasons: vec![Reason::TraceLost],
            });
            self.packets.append(&mut self.pending);
            self.lost = false;
            return;
        }
        let fits = self.pending.len() <= usize::from(self.queue_free);
        if self.lost || !fits {
            self.dropped += self.pending.len() as u64;
            self.pending.clear();
            self.lost = true;
        } else {
            self.packets.append(&mut self.pending);
        }
    }

    /// Implicit return mode: updates the return stack for the current instruction and marks
    /// inferred / mispredicted returns in the window.
    fn track_calls(&mut self) {
        let Some(stack) = &mut self.irstack else {
            return;
        };
        let (curr, next) = (&mut self.window.curr, &self.window.next);
        curr.implicit_return = false;
        curr.return_mispredicted = false;
        if curr.rec.iretire == 0 {
            return;
        }
        match curr.rec.itype {
            Itype::UninferableCall | Itype::InferableCall => {
                stack.call(curr.rec.next_sequential());
            }
            Itype::Return if next.valid => {
                let depth_before = stack.depth();
                curr.implicit_return = stack.try_return(next.rec.iaddr);
                curr.return_mispredicted = !curr.implicit_return && depth_before > 0;
            }
            t if t.is_branch() => stack.branch(),
            _ => {}
        }
    }

    /// `irreport` / `irdepth` of an address packet for the current instruction (`sec:irxx`).
    fn implicit_return_report(&self, updiscon_target: bool) -> (bool, u64) {
        let Some(stack) = &self.irstack else {
            return (false, 0);
        };
        let w = &self.window;
        if updiscon_target && w.prev.return_mispredicted {
            return (true, stack.depth());
        }
        let before_format3 = !w.next.traced() || self.next_is_format3();
        if before_format3 && stack.must_report_depth(w.prev.implicit_return) {
            return (true, stack.depth());
        }
        (false, 0)
    }

    /// `pbc >= 31`: correctly predicted branches are counted instead of mapped.
    fn counting(&self) -> bool {
        self.pbc >= u64::from(branch_map::MAX_BRANCHES)
    }

    /// "Update branch map/predictor" of the chart.
    fn record_branch(&mut self, address: u64, taken: bool) {
        let Some(predictor) = &mut self.predictor else {
            self.branch_map.push(taken);
            return;
        };
        let correct = predictor.update(address, taken);
        if self.counting() {
            if correct {
                self.pbc += 1;
            } else {
                self.curr_mispredicted = true;
            }
            return;
        }
        let all_correct_so_far = self.pbc == u64::from(self.branch_map.branches);
        self.branch_map.push(taken);
        if correct && all_correct_so_far {
            self.pbc += 1;
            if self.counting() {
                // 31 correct predictions: from now on only the count is reported.
                self.branch_map.take();
            }
        }
    }

    /// Clears the branch state after a packet that reported it.
    fn branches_reported(&mut self, sync: bool) {
        self.branch_map.take();
        self.pbc = 0;
        if sync {
            if let Some(p) = &mut self.predictor {
                // The table restarts at the sync; the reported instruction's own branch
                // (its outcome is the packet's `branch` field) is its first update, as in
                // a decoder that resolves that branch after the sync.
                p.reset();
                let curr = &self.window.curr;
                if curr.is_branch() {
                    p.update(curr.rec.iaddr, curr.rec.itype == Itype::TakenBranch);
                }
            }
            if let Some(s) = &mut self.irstack {
                // The stack restarts at the sync: the reported instruction's own call or
                // return acts on the empty stack, as in a decoder that follows it after
                // the sync.
                s.reset();
                self.track_calls();
            }
        }
    }

    fn act(&mut self, action: Action, reasons: Vec<Reason>, index: u64) {
        let w = self.window;
        let updiscon_target = reasons.contains(&Reason::PrevUpdiscon);
        match action {
            Action::Trap {
                thaddr,
                trap_in_prev,
            } => {
                let trap = if trap_in_prev { &w.prev } else { &w.curr };
                let packet = build::trap(&self.params, &self.options, &w.curr, &trap.rec, thaddr);
                if !thaddr && !trap_in_prev {
                    self.curr_trap_reported = true;
                }
                self.last_address = w.curr.rec.iaddr;
                self.branches_reported(true);
                self.send(packet, index, reasons, true);
            }
            Action::Sync => {
                let packet = build::sync(&self.params, &w.curr);
                self.last_address = w.curr.rec.iaddr;
                self.branches_reported(true);
                self.send(packet, index, reasons, true);
            }
            Action::Address => {
                let updiscon = updiscon_target && self.next_is_format3();
                let (irreport, irdepth) = self.implicit_return_report(updiscon_target);
                let count = self.counting().then(|| build::PredictedCount {
                    branch_count: (self.pbc - 31) as u32,
                    failed_here: self.curr_mispredicted,
                });
                let map = self.branch_map;
                self.branches_reported(false);
                let packet = build::address(
                    &self.params,
                    &self.options,
                    w.curr.rec.iaddr,
                    self.last_address,
                    map,
                    count,
                    AddressInfo {
                        address: 0,
                        notify: w.curr.notify,
                        updiscon,
                        irreport,
                        irdepth,
                    },
                );
                self.last_address = w.curr.rec.iaddr;
                self.send(packet, index, reasons, false);
                self.last_packet_was_updiscon_target = updiscon_target;
                return;
            }
            Action::BranchMap => {
                let packet = if self.counting() {
                    build::branch_count_only((self.pbc - 31) as u32)
                } else {
                    build::branch_map_only(self.branch_map)
                };
                self.branches_reported(false);
                self.send(packet, index, reasons, false);
            }
            Action::Context => {
                let packet = build::context(&self.params, &w.curr);
                self.send(packet, index, reasons, false);
            }
        }
        self.last_packet_was_updiscon_target = false;
    }

    /// Whether the packet after the one being sent for the current instruction will be a
    /// format 3 (the condition for `updiscon`, `payload.adoc` `sec:updiscon`).
    fn next_is_format3(&self) -> bool {
        let (curr, next) = (&self.window.curr, &self.window.next);
        next.traced()
            && (next.is_exc_only()
                || decision::ppccd(curr, next, self.updiscon(curr))
                || self.resync.exceeded_after_one_more())
    }

    fn send(&mut self, packet: TeInst, record_index: u64, reasons: Vec<Reason>, is_sync: bool) {
        self.resync.packet_sent(is_sync);
        self.pending.push(EncodedPacket {
            packet,
            record_index,
            clock: self.clocks,
            reasons,
        });
    }
}

impl Classify for Encoder {
    fn updiscon(&self, slot: &Slot) -> bool {
        if !slot.valid || slot.rec.iretire == 0 {
            return false;
        }
        let sequentially_inferable =
            self.options.sijump && self.params.sijump_p != 0 && slot.rec.sijump;
        slot.rec.itype.is_uninferable_discon() && !sequentially_inferable && !slot.implicit_return
    }
}
