//! `NtraceGenerator`: the N-Trace messages of each ingress record ("Rules of Generating
//! Messages", "Handling of 3-bit itype values", "Handling of 4-bit itype values",
//! "Pseudo-code of Simple N-Trace Encoder"), as the model's `NtraceEncoder::push` forms
//! them, in BTM or HTM ("Main N-Trace Trace Modes", a generation parameter).
//!
//! A record is taken one cycle after it is on the port (the block register, as E-Trace's
//! `hdl/DESIGN.md` item 0). A message whose address is the next PC (a taken direct
//! branch in BTM, an indirect jump, a trap return, an exception, an interrupt) is decided
//! on the record that ends its block and sent with the next record (the *pending*
//! message). Each record gives at most eight messages, in this order, one per output slot
//! (the first two and the seventh only with repeated history):
//!
//! 1. `early_hrepeat`: ResourceFull RCODE 2, the counted HIST repeats, sent before the
//!    first message of the record that ends a run of repeats (a `block_end` message, an
//!    Ownership of a change);
//! 2. `repeat_branch`: RepeatBranch, the counted branch message repeats (B-CNT), before
//!    the first message of the record (`block_end`, Ownership, ResourceFull);
//! 3. `block_end`: the message that ends a block: ProgTraceSync (SYNC 5, the first record
//!    after trace enable), the pending branch message (DirectBranch, IndirectBranch,
//!    IndirectBranchHist with B-TYPE 0 / 2 exception / 3 interrupt, U-ADDR the XOR with
//!    the last address sent), or its synchronising form with F-ADDR once `sync_max`
//!    messages were sent since the last synchronising one ("Synchronizing Messages", SYNC
//!    2), or, on a privilege change inside a block, IndirectBranch(Hist)Sync with SYNC 6
//!    (Trace Event); on the cycle trace is disabled, ProgTraceCorrelation (EVCODE 4);
//! 4. `sync_owner`: the Ownership message that follows every synchronising message;
//! 5. `owner`: the Ownership message of a privilege or context change;
//! 6. `icnt_full`: ResourceFull RCODE 0 when the I-CNT counter overflows ("I-CNT Details");
//! 7. `late_hrepeat`: ResourceFull RCODE 2 of counted HIST repeats before a HIST
//!    ResourceFull that is no repeat (when no earlier message of the record sent them);
//! 8. `hist_full`: ResourceFull RCODE 1 when the HIST register fills ("HIST Field Full"),
//!    unless it is counted as a repeat.
//!
//! The optimisation options ("Optimization Extensions") are generation parameters, off by
//! default:
//!
//! * `sijump` ("Sequential Jump Optimization"): an uninferable jump (itype 6, 8, 10, 14,
//!   or a co-routine swap without a predicted return) whose `sijump` input is set is not
//!   reported when it retires and an instruction of its block retired before it (the
//!   constant load is in the same message's I-CNT), as the model decides.
//! * `call_stack` ("Implicit Return Optimization", stack with full addresses): calls push
//!   the address after them on a [`NtraceCallStack`] of `call_stack` entries; a return or
//!   co-routine swap pops it, and its message waits for the next PC: sent (as an indirect
//!   branch, B-TYPE 0) only when the next PC is not the popped address. A swap pushes its
//!   own next address after the pop; a full stack drops its oldest entry; every
//!   synchronising message empties it (before the record's own call or return acts).
//! * `repeat_history` ("Repeated History Optimization", "ResourceFull Message",
//!   "RepeatBranch Message"): a full HIST register is cut at its smallest period, as the
//!   model's `History::take_periodic` (when its `n` branch bits repeat with a period
//!   `p <= n / 2`, the whole periods are sent and the other `n mod p` bits start the next
//!   HIST, so the next full register holds the same pattern in the same phase); a HIST
//!   ResourceFull equal to the last one sent is counted (HREPEAT, `repeat_bits` wide)
//!   instead of sent; a branch message equal to the last one (I-CNT, HIST, target; no
//!   ResourceFull in its block) is counted (B-CNT) instead of sent. The counts go out
//!   (ResourceFull RCODE 2, RepeatBranch) before the next other message, the model's
//!   order.

use etrace_ntrace::{NtraceMode, NtraceOptions};
use etrace_spec::ingress::ItypeWidth;
use rust_hdl::prelude::*;

use super::call_stack::{NtraceCallStack, CALL_STACK_MAX};
use super::hist_cut::HistCut;
use super::ingress::NtraceIngress;
use super::message::{NtraceSlotsSource, ADDR_BITS, HIST_BITS, LEAD_BITS};

/// Width of the I-CNT counter register: `NTRACE_MAX_ICNT` (22 bits, "Maximum Field
/// Sizes").
pub const ICNT_BITS: usize = 22;
use crate::ingress::NextSequential;
use crate::packer::ZeroExtend;
use crate::param::LocalParam;

/// Width of the HREPEAT and B-CNT counters at most (the model's `repeat_bits` 1..=18).
pub const REPEAT_BITS: usize = 18;

/// TCODEs ("Fields in Messages").
const OWNERSHIP: u64 = 2;
const DIRECT_BRANCH: u64 = 3;
const INDIRECT_BRANCH: u64 = 4;
const PROG_TRACE_SYNC: u64 = 9;
const DIRECT_BRANCH_SYNC: u64 = 11;
const INDIRECT_BRANCH_SYNC: u64 = 12;
const RESOURCE_FULL: u64 = 27;
const INDIRECT_BRANCH_HIST: u64 = 28;
const INDIRECT_BRANCH_HIST_SYNC: u64 = 29;
const REPEAT_BRANCH: u64 = 30;
const PROG_TRACE_CORRELATION: u64 = 33;

/// The generation parameters of the generator ("N-Trace Specific Trace Controls",
/// "Maximum Field Sizes"; the model's `NtraceOptions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NtraceHwOptions {
    /// HTM (`trTeInstMode` 6), else BTM (3).
    pub htm: bool,
    /// Width of the I-CNT counter, overflow bit included (3..=22).
    pub icnt_bits: usize,
    /// Width of the HIST register, stop bit included (2..=32).
    pub hist_bits: usize,
    /// Messages between periodic synchronisations (0: none; at most 65528).
    pub sync_max: u32,
    /// "Sequential Jump Optimization" (`trTeInstEnSequentialJump`): sequentially
    /// inferable jumps (the `sijump` input) are not reported.
    pub sijump: bool,
    /// "Implicit Return Optimization" (`trTeInstImplicitReturnMode` 3): entries of the
    /// call stack (0: off; at most [`CALL_STACK_MAX`]; needs the 4-bit itype).
    pub call_stack: usize,
    /// "Repeated History Optimization" (`trTeInstEnRepeatedHistory`): ResourceFull
    /// RCODE 2 and RepeatBranch.
    pub repeat_history: bool,
    /// Width of the HREPEAT and B-CNT counters (1..=[`REPEAT_BITS`]): at most
    /// 2^`repeat_bits` - 1 repeats in one message.
    pub repeat_bits: usize,
    /// Test only: every branch outcome enters HIST inverted (the deliberate fault that
    /// shows the co-simulation checker bites).
    pub hist_fault: bool,
}

impl NtraceHwOptions {
    /// The golden model's options (`etrace_ntrace::NtraceOptions`) for a generator built
    /// with these, fed records with an `itype` of `itype_width`: the model the
    /// co-simulations compare the generator with.
    pub fn model_options(&self, itype_width: ItypeWidth) -> NtraceOptions {
        NtraceOptions {
            mode: if self.htm {
                NtraceMode::Htm
            } else {
                NtraceMode::Btm
            },
            icnt_bits: self.icnt_bits as u32,
            hist_bits: self.hist_bits as u32,
            sync_max: self.sync_max,
            sijump: self.sijump,
            call_stack: self.call_stack,
            repeat_history: self.repeat_history,
            repeat_bits: self.repeat_bits as u32,
            itype_width,
            ..NtraceOptions::default()
        }
    }
}

impl Default for NtraceHwOptions {
    /// The model's defaults: HTM, 16-bit I-CNT, 32-bit HIST, a sync every 256 messages.
    fn default() -> Self {
        NtraceHwOptions {
            htm: true,
            icnt_bits: 16,
            hist_bits: 32,
            sync_max: 256,
            sijump: false,
            call_stack: 0,
            repeat_history: false,
            repeat_bits: REPEAT_BITS,
            hist_fault: false,
        }
    }
}

/// The message generator (module documentation): `A` = `iaddress_width_p`, `E` =
/// `ecause_width_p`, `IT` = `itype_width_p`. A record (`record` high: it retires, has a
/// nonzero itype, or ends the trace) may enter at most every third cycle: the messages a
/// record counts towards periodic synchronisation are taken off two cycles after it
/// (`NtraceMseoPath` takes a record step in several cycles).
#[derive(LogicBlock)]
pub struct NtraceGenerator<const A: usize, const E: usize, const IT: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high (acts a cycle later, with the block register).
    pub reset: Signal<In, Bit>,
    /// The ingress signals N-Trace reads ([`NtraceIngress`]: `iretire`, `itype`, `iaddr`,
    /// `privilege`, `hart_context`, `sijump`, `ilastsize`).
    pub ingress: NtraceIngress<A, IT>,
    /// A record step enters in this cycle: the ingress signals and `trace_enable` are
    /// read. In a cycle without it the generator sees no record and the trace enable of
    /// the last record, whatever the inputs hold. The gate is on two flip-flops of the
    /// block register, `present` and the held trace enable; the decode of `itype` is not
    /// behind it, as every use of the record's classes is under `present`.
    pub record: Signal<In, Bit>,
    /// Trace enable (read with a record): a record is traced while it is high; its fall
    /// ends the trace with ProgTraceCorrelation, its rise restarts it with ProgTraceSync.
    pub trace_enable: Signal<In, Bit>,
    /// Restart after a FIFO overrun ("Error Message", "Synchronizing Messages" SYNC 7):
    /// high in one or more cycles up to the one in which the restarting record enters,
    /// with no record in the block register; the trace state is dropped (no repeat is
    /// flushed) and the next record starts the trace again with ProgTraceSync SYNC 7, as
    /// the model's `NtraceEncoder::restart(SyncReason::FIFO_OVERRUN)`. Low outside an
    /// output path that loses messages.
    pub restart: Signal<In, Bit>,
    /// The record's messages, one per slot in the order above.
    pub slots: NtraceSlotsSource,
    iretire_q: DFF<Bit>,
    // The record's itype one-hot (bit `k`: itype `k`) and "a record is present" (traced,
    // retiring or with an itype), decoded as the record enters: its class is one LUT from
    // flip-flops.
    itype_hot: DFF<Bits<16>>,
    present_ff: DFF<Bit>,
    port_code: ZeroExtend<IT, 16>,
    one_hot: Constant<Bits<16>>,
    // itype values no rule reads (0: none; 7, 11, 15: reserved).
    unused_itypes: Signal<Local, Bit>,
    // The record's address is the pending return's predicted one, compared as the record
    // enters: `pend_expected` changes only with a present record, so with a record at
    // most every third cycle it already holds the value this record is compared with.
    matched_ahead: DFF<Bit>,
    // How the record ends its block, decided as it enters from the state it will meet
    // (state changes only with a present record, a restart, a reset or the end of the
    // trace, `kill`; with a record at most every third cycle none of the first can fall
    // between): the trace is not started (ProgTraceSync), the pending message resolves
    // (a pending return only if the record is not at its predicted address), the block
    // has instructions and the privilege changes (SYNC 6); and any of the first, second
    // or fourth. In the record's cycle each decision is one LUT of flip-flops.
    kill: Signal<Local, Bit>,
    live_started: Signal<Local, Bit>,
    live_pending: Signal<Local, Bit>,
    starting_ahead: DFF<Bit>,
    resolves_ahead: DFF<Bit>,
    returns_ahead: DFF<Bit>,
    event_ahead: DFF<Bit>,
    ends_ahead: DFF<Bit>,
    iaddr_q: DFF<Bits<A>>,
    privilege_q: DFF<Bits<2>>,
    context_q: DFF<Bits<1>>,
    ilastsize_q: DFF<Bit>,
    sijump_q: DFF<Bit>,
    enable_ff: DFF<Bit>,
    reset_ff: DFF<Bit>,
    // State: started (ProgTraceSync sent), the pending message, the last address sent,
    // privilege and context, instructions since the block began (nonzero), messages
    // since the last synchronising message.
    started: DFF<Bit>,
    // The next ProgTraceSync restarts from a FIFO overrun (SYNC 7, not 5).
    overrun: DFF<Bit>,
    pend_valid: DFF<Bit>,
    pend_direct: DFF<Bit>,
    pend_btype: DFF<Bits<2>>,
    // The pending message is a return or swap predicted to `pend_expected` (sent only
    // when the next PC differs).
    pend_return: DFF<Bit>,
    pend_expected: DFF<Bits<A>>,
    reference: DFF<Bits<ADDR_BITS>>,
    // Whether the present record sends its address (`reference` loads), formed a cycle
    // ahead from the next values of the decision flip-flops so that the load enable is two
    // LUTs of flip-flops: `addr_sent` when it does whatever `matched_ahead` and `sync_due`
    // say (a start, a block event without a pending message, a resolving message that is
    // indirect), else, with a pending return, `addr_if_matched` (a block event) or
    // `addr_if_missed` (it resolves: a return is indirect), or, resolving a direct branch,
    // `addr_if_due` (DirectBranchSync).
    addr_sent: DFF<Bit>,
    addr_if_matched: DFF<Bit>,
    addr_if_missed: DFF<Bit>,
    addr_if_due: DFF<Bit>,
    // The present record sends its address (`a_sync || (resolving && !pend_direct)`): the
    // `reference` load and the block-end message's address field.
    addr_load: Signal<Local, Bit>,
    // The kind of the next cycle's block-end message, formed at the end of the update
    // from the next values of the decision flip-flops and `sync_due_ff`, so that its
    // fields are selected from flip-flops: a start (ProgTraceSync), a resolving direct
    // branch with or without sync (DirectBranch(Sync)), a resolving indirect one, a
    // pending return if it is missed (a return is indirect), a block event, and a block
    // event with a pending return if it is matched (IndirectBranch(Hist)Sync, SYNC 6). No
    // kind: ProgTraceCorrelation. Gated by the trace enable rather than `present`: a
    // record that is not present has no block-end message but the correlation, whose
    // trace enable is low. (So `end_matched_event` is `addr_if_matched` without
    // `present_ff`'s next value, which comes through the step's input logic and would
    // put it back on the message's path.)
    end_start: DFF<Bit>,
    end_direct_sync: DFF<Bit>,
    end_direct: DFF<Bit>,
    end_indirect_sync: DFF<Bit>,
    end_indirect: DFF<Bit>,
    end_missed_sync: DFF<Bit>,
    end_missed: DFF<Bit>,
    end_event: DFF<Bit>,
    end_matched_event: DFF<Bit>,
    // The present record's indirect resolving messages and its block-event message
    // (`matched_ahead` decides a pending return).
    indirect_sync_end: Signal<Local, Bit>,
    indirect_end: Signal<Local, Bit>,
    event_end: Signal<Local, Bit>,
    owner_priv: DFF<Bits<2>>,
    owner_context: DFF<Bit>,
    walk: DFF<Bit>,
    // Messages left before periodic synchronisation is due: `sync_max` minus the messages
    // counted since the last synchronising message, not read once due (`sync_due_ff`
    // holds; a reset, or the cycle after a synchronising message, sets it to `sync_max`
    // and clears `sync_due_ff`). Counting down, the due test compares the record's count
    // (at most 8) with the low bits and reads the high ones as zero, where counting up it
    // added and compared 16 bits.
    to_sync: DFF<Bits<16>>,
    // `to_sync`'s bits 4 and up are 0 (and synchronisation is on), registered: it lags
    // `to_sync` only in the cycle after a count is taken off, whose own count is 0 (records
    // are at least three cycles apart), so the due test reads it for `to_sync`'s high bits.
    to_sync_high_zero: DFF<Bit>,
    // `sync_max` is below 16 (its bits 4 and up are 0).
    sync_max_small: Constant<Bit>,
    // The count starts again (`to_sync` set to `sync_max`): a synchronising message was
    // sent, or the reset was asserted, in the last cycle.
    count_restart: DFF<Bit>,
    due_now: Signal<Local, Bit>,
    // The I-CNT counter ("I-CNT Details"): `icnt_bits` bits, the top one the overflow
    // bit; and the HIST register ("HIST Field Generation"): its most significant one the
    // stop bit, full when it reaches bit `hist_bits - 1`.
    icnt: DFF<Bits<ICNT_BITS>>,
    icnt_top: Constant<Bits<ICNT_BITS>>,
    // The bits below the overflow bit, and those without bit 0: the count is one or two
    // short of the overflow bit when they are all set (the count is below it).
    icnt_short_1: Constant<Bits<ICNT_BITS>>,
    icnt_short_2: Constant<Bits<ICNT_BITS>>,
    // The count is one (`near_1`) or at most two (`near_2`) short of the overflow bit,
    // registered from the last cycle's count: as `hist_empty`, current whenever a record
    // is present (the count changes in the cycle after a record, and a restart or a
    // reset sets it to 0, which is neither).
    near_1: DFF<Bit>,
    near_2: DFF<Bit>,
    // The count plus the record's units, added from flip-flops; the block's end selects
    // the units alone after it (the adder is off the decision's path).
    icnt_plus: Signal<Local, Bits<ICNT_BITS>>,
    icnt_units: Signal<Local, Bits<ICNT_BITS>>,
    // The record's units registered with it (bit 0: it retires 1 unit, bit 1: 2 units;
    // 0 without a record), so the adder starts from flip-flops.
    units: DFF<Bits<2>>,
    icnt_sum: Signal<Local, Bits<ICNT_BITS>>,
    // The sum when it overflows (the ResourceFull's RDATA).
    over_sum: Signal<Local, Bits<ICNT_BITS>>,
    icnt_over: Signal<Local, Bit>,
    hist: DFF<Bits<HIST_BITS>>,
    hist_top: Constant<Bits<HIST_BITS>>,
    // HIST holds no outcome (`hist == 1`), registered from the last cycle's HIST: HIST
    // changes only in the cycle after a record (its block register), at a restart and at
    // a reset, which set it to 1, so with records at least three cycles apart the
    // register is current whenever a record is present.
    hist_empty: DFF<Bit>,
    hist_base: Signal<Local, Bits<HIST_BITS>>,
    hist_outcome: Signal<Local, Bits<HIST_BITS>>,
    hist_pushed: Signal<Local, Bits<HIST_BITS>>,
    hist_push: Signal<Local, Bit>,
    hist_over: Signal<Local, Bit>,
    // Test only: XORed into each branch outcome (`NtraceHwOptions::hist_fault`).
    hist_fault: Constant<Bit>,
    // TCODEs (`localparam`s: rust-hdl prints a Rust constant's name).
    tc_ownership: LocalParam<6, OWNERSHIP>,
    tc_direct_branch: LocalParam<6, DIRECT_BRANCH>,
    tc_indirect_branch: LocalParam<6, INDIRECT_BRANCH>,
    tc_prog_trace_sync: LocalParam<6, PROG_TRACE_SYNC>,
    tc_direct_branch_sync: LocalParam<6, DIRECT_BRANCH_SYNC>,
    tc_indirect_branch_sync: LocalParam<6, INDIRECT_BRANCH_SYNC>,
    tc_resource_full: LocalParam<6, RESOURCE_FULL>,
    tc_indirect_branch_hist: LocalParam<6, INDIRECT_BRANCH_HIST>,
    tc_indirect_branch_hist_sync: LocalParam<6, INDIRECT_BRANCH_HIST_SYNC>,
    tc_prog_trace_correlation: LocalParam<6, PROG_TRACE_CORRELATION>,
    htm: Constant<Bit>,
    sync_on: Constant<Bit>,
    sync_max: Constant<Bits<16>>,
    // The record.
    iaddr_wide: ZeroExtend<A, ADDR_BITS>,
    rec_context: Signal<Local, Bit>,
    present: Signal<Local, Bit>,
    trap: Signal<Local, Bit>,
    indirect: Signal<Local, Bit>,
    branch: Signal<Local, Bit>,
    taken: Signal<Local, Bit>,
    // Uninferable jumps the sequential jump optimisation may leave out (itype 6, 8, 10,
    // 12, 14), the same with a retired instruction before it in its block, and the record's
    // reported indirect jump.
    jump: Signal<Local, Bit>,
    walk_before: Signal<Local, Bit>,
    sequential: Signal<Local, Bit>,
    reported: Signal<Local, Bit>,
    sijump_on: Constant<Bit>,
    // The implicit return call stack, the address after the record's instruction, the
    // record pops a predicted return address, the pending return is mispredicted (the
    // record is not at its popped address: the return is reported).
    stack: NtraceCallStack<A>,
    link: NextSequential<A>,
    predicted: Signal<Local, Bit>,
    return_missed: Signal<Local, Bit>,
    // Repeated history: the HIST of the last RCODE 1 ResourceFull and the repeats of it
    // counted (HREPEAT); the last branch message (TCODE, its fields, the target; valid
    // while no other message came after it) and its repeats counted (B-CNT); a
    // ResourceFull in the current block.
    repeat_on: Constant<Bit>,
    repeat_max: Constant<Bits<REPEAT_BITS>>,
    last_full_valid: DFF<Bit>,
    last_full: DFF<Bits<HIST_BITS>>,
    hrepeat: DFF<Bits<REPEAT_BITS>>,
    last_valid: DFF<Bit>,
    last_tcode: DFF<Bits<6>>,
    last_lead: DFF<Bits<LEAD_BITS>>,
    last_addr: DFF<Bits<ADDR_BITS>>,
    last_hist: DFF<Bits<HIST_BITS>>,
    last_target: DFF<Bits<A>>,
    bcnt: DFF<Bits<REPEAT_BITS>>,
    block_resource: DFF<Bit>,
    // The full HIST cut at its smallest period for each outcome of the branch that fills
    // it, formed ahead from the HIST flip-flops (`HistCut`), and the one of the record's
    // outcome (the cut, what stays in HIST after it, and whether it is the last full HIST);
    // the HIST field sent and the register after the record.
    cut_taken: HistCut,
    cut_not_taken: HistCut,
    cut_sent: Signal<Local, Bits<HIST_BITS>>,
    cut_kept: Signal<Local, Bits<HIST_BITS>>,
    cut_same: Signal<Local, Bit>,
    hist_sent: Signal<Local, Bits<HIST_BITS>>,
    hist_kept: Signal<Local, Bits<HIST_BITS>>,
    // The plain branch message of the resolving record as a repeat key (fields a
    // message lacks are 0).
    key_tcode: Signal<Local, Bits<6>>,
    key_lead: Signal<Local, Bits<LEAD_BITS>>,
    key_addr: Signal<Local, Bits<ADDR_BITS>>,
    key_hist: Signal<Local, Bits<HIST_BITS>>,
    same_branch: Signal<Local, Bit>,
    // The key compared with the last branch message ahead, off the record's paths: the
    // fields the record does not change (TCODE, I-CNT and B-TYPE, HIST), registered from
    // the last cycle's state as `hist_empty` (the state changes only in the cycle after a
    // record, and a restart or a reset as a record enters leaves it resolving nothing),
    // and its U-ADDR and target from the port as the record enters (as `matched_ahead`).
    same_fields: DFF<Bit>,
    same_addr: DFF<Bit>,
    same_target: DFF<Bit>,
    port_iaddr_wide: ZeroExtend<A, ADDR_BITS>,
    port_key_addr: Signal<Local, Bits<ADDR_BITS>>,
    branch_repeat: Signal<Local, Bit>,
    plain_sent: Signal<Local, Bit>,
    // Counted repeats go out before this record's first message (`flush_early`: a
    // `block_end` or change Ownership message; any message for B-CNT).
    flush_early: Signal<Local, Bit>,
    flush_bcnt: Signal<Local, Bit>,
    // The counts below their maximum (from their flip-flops: the counts never pass
    // `repeat_max`), B-CNT with this record's repeat, HREPEAT after the flush and with one
    // more (the adders read the flip-flops, so the repeat decisions only select).
    bcnt_below_max: Signal<Local, Bit>,
    bcnt_now: Signal<Local, Bits<REPEAT_BITS>>,
    hrepeat_below_max: Signal<Local, Bit>,
    hrepeat_base: Signal<Local, Bits<REPEAT_BITS>>,
    hrepeat_base_plus: Signal<Local, Bits<REPEAT_BITS>>,
    hist_same: Signal<Local, Bit>,
    hist_repeat: Signal<Local, Bit>,
    bcnt_lead: ZeroExtend<REPEAT_BITS, LEAD_BITS>,
    last_full_lead: ZeroExtend<HIST_BITS, LEAD_BITS>,
    early_count: ZeroExtend<REPEAT_BITS, ADDR_BITS>,
    late_count: ZeroExtend<REPEAT_BITS, ADDR_BITS>,
    tc_repeat_branch: LocalParam<6, REPEAT_BRANCH>,
    // What happens in this cycle.
    // The trace ends in this cycle (ProgTraceCorrelation): the record in the block
    // register turned trace enable off while the trace was started. Registered as that
    // record enters, from the state it meets then: `started` changes only in the cycle
    // after a record and at a restart or a reset (records are at least three cycles
    // apart), and the restart and the reset clear it at that edge.
    correlation: DFF<Bit>,
    starting: Signal<Local, Bit>,
    resolving: Signal<Local, Bit>,
    block_sync: Signal<Local, Bit>,
    sync_due: Signal<Local, Bit>,
    // No messages left before synchronising (`to_sync` 0), registered with the count it
    // subtracts.
    sync_due_ff: DFF<Bit>,
    a_sync: Signal<Local, Bit>,
    ends_block: Signal<Local, Bit>,
    with_hist: Signal<Local, Bit>,
    owner_change: Signal<Local, Bit>,
    // Field values.
    faddr: Signal<Local, Bits<ADDR_BITS>>,
    uaddr: Signal<Local, Bits<ADDR_BITS>>,
    icnt_lead: ZeroExtend<ICNT_BITS, LEAD_BITS>,
    sum_lead: ZeroExtend<ICNT_BITS, LEAD_BITS>,
    hist_lead: ZeroExtend<HIST_BITS, LEAD_BITS>,
    btype_lead: ZeroExtend<2, LEAD_BITS>,
    priv_lead: ZeroExtend<2, LEAD_BITS>,
    old_priv_lead: ZeroExtend<2, LEAD_BITS>,
    owner_process: Signal<Local, Bits<LEAD_BITS>>,
    old_owner_process: Signal<Local, Bits<LEAD_BITS>>,
    cdf: Signal<Local, Bits<LEAD_BITS>>,
    // Messages counted for periodic synchronisation: this record's counted messages (one
    // bit each, registered) and, in the next cycle, their number taken from `to_sync`.
    counted: DFF<Bits<8>>,
    counted_now: Signal<Local, Bits<8>>,
    count_01: Signal<Local, Bits<4>>,
    count_23: Signal<Local, Bits<4>>,
    count_45: Signal<Local, Bits<4>>,
    count_67: Signal<Local, Bits<4>>,
    count_all: Signal<Local, Bits<4>>,
    count_q: DFF<Bits<4>>,
    count_wide: ZeroExtend<4, 16>,
}

impl<const A: usize, const E: usize, const IT: usize> NtraceGenerator<A, E, IT> {
    /// A generator with `options`.
    ///
    /// # Panics
    ///
    /// If a width is out of its range or `sync_max` is above 65528 (a configuration
    /// error, not a run-time input).
    pub fn new(options: NtraceHwOptions) -> Self {
        assert!(
            (3..=ICNT_BITS).contains(&options.icnt_bits),
            "icnt_bits {} is not in 3..={ICNT_BITS}",
            options.icnt_bits
        );
        assert!(
            (2..=HIST_BITS).contains(&options.hist_bits),
            "hist_bits {} is not in 2..={HIST_BITS}",
            options.hist_bits
        );
        assert!(
            options.call_stack <= CALL_STACK_MAX,
            "call_stack {} is above {CALL_STACK_MAX}",
            options.call_stack
        );
        assert!(
            options.call_stack == 0 || IT >= 4,
            "call_stack needs the 4-bit itype (calls and returns are not told apart with 3 bits)"
        );
        assert!(
            (1..=REPEAT_BITS).contains(&options.repeat_bits),
            "repeat_bits {} is not in 1..={REPEAT_BITS}",
            options.repeat_bits
        );
        assert!(
            options.sync_max <= 65528,
            "sync_max {} is above 65528",
            options.sync_max
        );
        NtraceGenerator {
            clock: Default::default(),
            reset: Default::default(),
            ingress: Default::default(),
            record: Default::default(),
            trace_enable: Default::default(),
            restart: Default::default(),
            slots: Default::default(),
            iretire_q: Default::default(),
            itype_hot: Default::default(),
            present_ff: Default::default(),
            port_code: Default::default(),
            one_hot: Constant::new(bits::<16>(1)),
            unused_itypes: Default::default(),
            matched_ahead: Default::default(),
            kill: Default::default(),
            live_started: Default::default(),
            live_pending: Default::default(),
            starting_ahead: Default::default(),
            resolves_ahead: Default::default(),
            returns_ahead: Default::default(),
            event_ahead: Default::default(),
            ends_ahead: Default::default(),
            iaddr_q: Default::default(),
            privilege_q: Default::default(),
            context_q: Default::default(),
            ilastsize_q: Default::default(),
            sijump_q: Default::default(),
            enable_ff: Default::default(),
            reset_ff: Default::default(),
            started: Default::default(),
            overrun: Default::default(),
            pend_valid: Default::default(),
            pend_direct: Default::default(),
            pend_btype: Default::default(),
            pend_return: Default::default(),
            pend_expected: Default::default(),
            reference: Default::default(),
            addr_sent: Default::default(),
            addr_if_matched: Default::default(),
            addr_if_missed: Default::default(),
            addr_if_due: Default::default(),
            addr_load: Default::default(),
            end_start: Default::default(),
            end_direct_sync: Default::default(),
            end_direct: Default::default(),
            end_indirect_sync: Default::default(),
            end_indirect: Default::default(),
            end_missed_sync: Default::default(),
            end_missed: Default::default(),
            end_event: Default::default(),
            end_matched_event: Default::default(),
            indirect_sync_end: Default::default(),
            indirect_end: Default::default(),
            event_end: Default::default(),
            owner_priv: Default::default(),
            owner_context: Default::default(),
            walk: Default::default(),
            to_sync: Default::default(),
            to_sync_high_zero: Default::default(),
            sync_max_small: Constant::new(options.sync_max < 16),
            count_restart: Default::default(),
            due_now: Default::default(),
            icnt: Default::default(),
            icnt_top: Constant::new(bits::<ICNT_BITS>(1) << (options.icnt_bits as u64 - 1)),
            icnt_short_1: Constant::new(bits::<ICNT_BITS>((1 << (options.icnt_bits - 1)) - 1)),
            icnt_short_2: Constant::new(bits::<ICNT_BITS>((1 << (options.icnt_bits - 1)) - 2)),
            near_1: Default::default(),
            near_2: Default::default(),
            icnt_plus: Default::default(),
            icnt_units: Default::default(),
            units: Default::default(),
            icnt_sum: Default::default(),
            over_sum: Default::default(),
            icnt_over: Default::default(),
            hist: Default::default(),
            hist_top: Constant::new(bits::<HIST_BITS>(1) << (options.hist_bits as u64 - 1)),
            hist_empty: Default::default(),
            hist_base: Default::default(),
            hist_outcome: Default::default(),
            hist_pushed: Default::default(),
            hist_push: Default::default(),
            hist_over: Default::default(),
            hist_fault: Constant::new(options.hist_fault),
            tc_ownership: Default::default(),
            tc_direct_branch: Default::default(),
            tc_indirect_branch: Default::default(),
            tc_prog_trace_sync: Default::default(),
            tc_direct_branch_sync: Default::default(),
            tc_indirect_branch_sync: Default::default(),
            tc_resource_full: Default::default(),
            tc_indirect_branch_hist: Default::default(),
            tc_indirect_branch_hist_sync: Default::default(),
            tc_prog_trace_correlation: Default::default(),
            htm: Constant::new(options.htm),
            sync_on: Constant::new(options.sync_max > 0),
            sync_max: Constant::new(bits::<16>(u64::from(options.sync_max))),
            iaddr_wide: Default::default(),
            rec_context: Default::default(),
            present: Default::default(),
            trap: Default::default(),
            indirect: Default::default(),
            branch: Default::default(),
            taken: Default::default(),
            jump: Default::default(),
            walk_before: Default::default(),
            sequential: Default::default(),
            reported: Default::default(),
            sijump_on: Constant::new(options.sijump),
            stack: NtraceCallStack::new(options.call_stack),
            link: Default::default(),
            predicted: Default::default(),
            return_missed: Default::default(),
            repeat_on: Constant::new(options.repeat_history),
            repeat_max: Constant::new(bits::<REPEAT_BITS>((1 << options.repeat_bits) - 1)),
            last_full_valid: Default::default(),
            last_full: Default::default(),
            hrepeat: Default::default(),
            last_valid: Default::default(),
            last_tcode: Default::default(),
            last_lead: Default::default(),
            last_addr: Default::default(),
            last_hist: Default::default(),
            last_target: Default::default(),
            bcnt: Default::default(),
            block_resource: Default::default(),
            cut_taken: HistCut::new(options.hist_bits, true),
            cut_not_taken: HistCut::new(options.hist_bits, false),
            cut_sent: Default::default(),
            cut_kept: Default::default(),
            cut_same: Default::default(),
            hist_sent: Default::default(),
            hist_kept: Default::default(),
            key_tcode: Default::default(),
            key_lead: Default::default(),
            key_addr: Default::default(),
            key_hist: Default::default(),
            same_branch: Default::default(),
            same_fields: Default::default(),
            same_addr: Default::default(),
            same_target: Default::default(),
            port_iaddr_wide: Default::default(),
            port_key_addr: Default::default(),
            branch_repeat: Default::default(),
            plain_sent: Default::default(),
            flush_early: Default::default(),
            flush_bcnt: Default::default(),
            bcnt_below_max: Default::default(),
            bcnt_now: Default::default(),
            hrepeat_below_max: Default::default(),
            hrepeat_base_plus: Default::default(),
            hrepeat_base: Default::default(),
            hist_same: Default::default(),
            hist_repeat: Default::default(),
            bcnt_lead: Default::default(),
            last_full_lead: Default::default(),
            early_count: Default::default(),
            late_count: Default::default(),
            tc_repeat_branch: Default::default(),
            correlation: Default::default(),
            starting: Default::default(),
            resolving: Default::default(),
            block_sync: Default::default(),
            sync_due: Default::default(),
            sync_due_ff: Default::default(),
            a_sync: Default::default(),
            ends_block: Default::default(),
            with_hist: Default::default(),
            owner_change: Default::default(),
            faddr: Default::default(),
            uaddr: Default::default(),
            icnt_lead: Default::default(),
            sum_lead: Default::default(),
            hist_lead: Default::default(),
            btype_lead: Default::default(),
            priv_lead: Default::default(),
            old_priv_lead: Default::default(),
            owner_process: Default::default(),
            old_owner_process: Default::default(),
            cdf: Default::default(),
            counted: Default::default(),
            counted_now: Default::default(),
            count_01: Default::default(),
            count_23: Default::default(),
            count_45: Default::default(),
            count_67: Default::default(),
            count_all: Default::default(),
            count_q: Default::default(),
            count_wide: Default::default(),
        }
    }
}

impl<const A: usize, const E: usize, const IT: usize> Default for NtraceGenerator<A, E, IT> {
    fn default() -> Self {
        Self::new(NtraceHwOptions::default())
    }
}

impl<const A: usize, const E: usize, const IT: usize> Logic for NtraceGenerator<A, E, IT> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            iretire_q,
            units,
            itype_hot,
            present_ff,
            hist_empty,
            near_1,
            near_2,
            matched_ahead,
            starting_ahead,
            resolves_ahead,
            returns_ahead,
            event_ahead,
            ends_ahead,
            iaddr_q,
            privilege_q,
            context_q,
            ilastsize_q,
            sijump_q,
            enable_ff,
            reset_ff,
            correlation,
            started,
            overrun,
            pend_valid,
            pend_direct,
            pend_btype,
            pend_return,
            pend_expected,
            last_full_valid,
            last_full,
            hrepeat,
            last_valid,
            last_tcode,
            last_lead,
            last_addr,
            last_hist,
            last_target,
            same_fields,
            same_addr,
            same_target,
            bcnt,
            block_resource,
            reference,
            addr_sent,
            addr_if_matched,
            addr_if_missed,
            addr_if_due,
            end_start,
            end_direct_sync,
            end_direct,
            end_indirect_sync,
            end_indirect,
            end_missed_sync,
            end_missed,
            end_event,
            end_matched_event,
            owner_priv,
            owner_context,
            walk,
            to_sync,
            to_sync_high_zero,
            count_restart,
            sync_due_ff,
            counted,
            count_q,
            icnt,
            hist
        );
        // The block register (`hdl/DESIGN.md` item 0).
        // Without a record: not present, the trace enable held (and cleared a cycle after a
        // reset, as the reset's own flip-flops are). `iretire` and the one-hot itype are
        // registered whatever the port holds: every use of them is under `present`.
        self.port_code.narrow.next = self.ingress.itype.val();
        self.iretire_q.d.next = self.ingress.iretire.val();
        self.itype_hot.d.next = self.one_hot.val() << self.port_code.wide.val();
        self.present_ff.d.next = false;
        self.units.d.next = 0.into();
        self.enable_ff.d.next = self.enable_ff.q.val() && !self.reset_ff.q.val();
        if self.record.val() {
            self.present_ff.d.next = self.trace_enable.val()
                && (self.ingress.iretire.val() || self.ingress.itype.val().any());
            self.enable_ff.d.next = self.trace_enable.val();
            if self.trace_enable.val() && self.ingress.iretire.val() {
                self.units.d.next = 1.into();
                if self.ingress.ilastsize.val() {
                    self.units.d.next = 2.into();
                }
            }
        }
        self.matched_ahead.d.next = self.ingress.iaddr.val() == self.pend_expected.q.val();
        self.unused_itypes.next = self.itype_hot.q.val().get_bit(0)
            || self.itype_hot.q.val().get_bit(7)
            || self.itype_hot.q.val().get_bit(11)
            || self.itype_hot.q.val().get_bit(15);
        self.iaddr_q.d.next = self.ingress.iaddr.val();
        self.privilege_q.d.next = self.ingress.privilege.val();
        self.context_q.d.next = self.ingress.hart_context.val();
        self.ilastsize_q.d.next = self.ingress.ilastsize.val();
        self.sijump_q.d.next = self.ingress.sijump.val();
        self.reset_ff.d.next = self.reset.val();

        // The record: `itype` classes ("Handling of 3-bit / 4-bit itype values").
        self.iaddr_wide.narrow.next = self.iaddr_q.q.val();
        self.rec_context.next = self.context_q.q.val().any();
        self.present.next = self.present_ff.q.val();
        self.trap.next = self.itype_hot.q.val().get_bit(1) || self.itype_hot.q.val().get_bit(2);
        self.indirect.next = self.itype_hot.q.val().get_bit(3)
            || self.itype_hot.q.val().get_bit(6)
            || self.itype_hot.q.val().get_bit(8)
            || self.itype_hot.q.val().get_bit(10)
            || self.itype_hot.q.val().get_bit(12)
            || self.itype_hot.q.val().get_bit(13)
            || self.itype_hot.q.val().get_bit(14);
        self.branch.next = self.itype_hot.q.val().get_bit(4) || self.itype_hot.q.val().get_bit(5);
        self.taken.next = self.itype_hot.q.val().get_bit(5);
        self.jump.next = self.itype_hot.q.val().get_bit(6)
            || self.itype_hot.q.val().get_bit(8)
            || self.itype_hot.q.val().get_bit(10)
            || self.itype_hot.q.val().get_bit(12)
            || self.itype_hot.q.val().get_bit(14);

        // What this cycle does.
        self.correlation.d.next = self.record.val()
            && !self.trace_enable.val()
            && self.enable_ff.q.val()
            && self.started.q.val()
            && !self.restart.val()
            && !self.reset_ff.q.val();
        // The decisions of the record entering in this cycle, from the state it will
        // meet (the restart, the reset and the end of the trace clear `started`,
        // `pend_valid` and `walk` at this edge).
        self.kill.next = self.restart.val() || self.reset_ff.q.val() || self.correlation.q.val();
        self.live_started.next = self.started.q.val() && !self.kill.val();
        self.live_pending.next = self.live_started.val() && self.pend_valid.q.val();
        self.starting_ahead.d.next = !self.live_started.val();
        self.resolves_ahead.d.next = self.live_pending.val() && !self.pend_return.q.val();
        self.returns_ahead.d.next = self.live_pending.val() && self.pend_return.q.val();
        self.event_ahead.d.next = self.live_started.val()
            && self.walk.q.val()
            && (self.ingress.privilege.val() != self.owner_priv.q.val());
        self.ends_ahead.d.next =
            self.starting_ahead.d.val() || self.resolves_ahead.d.val() || self.event_ahead.d.val();
        self.starting.next = self.present.val() && self.starting_ahead.q.val();
        // A predicted return whose next PC is the popped address is not reported (its
        // block goes on).
        self.return_missed.next = self.returns_ahead.q.val() && !self.matched_ahead.q.val();
        self.resolving.next =
            self.present.val() && (self.resolves_ahead.q.val() || self.return_missed.val());
        self.owner_change.next = self.present.val()
            && self.started.q.val()
            && ((self.privilege_q.q.val() != self.owner_priv.q.val())
                || (self.rec_context.val() != self.owner_context.q.val()));
        self.block_sync.next = self.present.val()
            && self.event_ahead.q.val()
            && !self.resolves_ahead.q.val()
            && !self.return_missed.val();
        self.sync_due.next = self.sync_due_ff.q.val();
        self.addr_load.next = self.addr_sent.q.val()
            || (self.matched_ahead.q.val() && self.addr_if_matched.q.val())
            || (!self.matched_ahead.q.val() && self.addr_if_missed.q.val())
            || (self.addr_if_due.q.val() && self.sync_due.val());
        self.a_sync.next = self.starting.val()
            || (self.resolving.val() && self.sync_due.val())
            || self.block_sync.val();
        self.ends_block.next =
            self.present.val() && (self.ends_ahead.q.val() || self.return_missed.val());
        // "Sequential Jump Optimization": the jump and the instruction before it are in
        // one block (an instruction of the block retired before the jump).
        self.walk_before.next = self.walk.q.val() && !self.ends_block.val();
        self.sequential.next = self.sijump_on.val()
            && self.sijump_q.q.val()
            && self.iretire_q.q.val()
            && self.walk_before.val();
        // "Implicit Return Optimization": a return or swap pops the stack (emptied first by
        // this record's synchronising message).
        self.predicted.next = (self.itype_hot.q.val().get_bit(12)
            || self.itype_hot.q.val().get_bit(13))
            && self.stack.nonempty.val()
            && !self.a_sync.val();
        self.reported.next = self.itype_hot.q.val().get_bit(3)
            || (!self.predicted.val()
                && (self.itype_hot.q.val().get_bit(13)
                    || (self.jump.val() && !self.sequential.val())));
        // Calls push the address after them, a swap replaces the top.
        self.link.iaddr.next = self.iaddr_q.q.val();
        self.link.ilastsize.next = self.ilastsize_q.q.val();
        self.stack.clock.next = self.clock.val();
        self.stack.clear.next = self.a_sync.val() || self.reset_ff.q.val();
        self.stack.push.next = self.present.val()
            && (self.itype_hot.q.val().get_bit(8) || self.itype_hot.q.val().get_bit(9));
        self.stack.pop.next = self.present.val() && self.itype_hot.q.val().get_bit(13);
        self.stack.swap.next = self.present.val() && self.itype_hot.q.val().get_bit(12);
        self.stack.link.next = self.link.address.val();
        self.hist_empty.d.next =
            (self.hist.q.val() == 1) || self.restart.val() || self.reset_ff.q.val();
        self.with_hist.next = self.htm.val() && !self.hist_empty.q.val();

        // I-CNT of the record: counted from 0 when a message ended the block; the
        // overflow bit set sends the count in a ResourceFull message and restarts it.
        self.icnt_units.next = 0.into();
        if self.units.q.val().get_bit(0) {
            self.icnt_units.next = 1.into();
        }
        if self.units.q.val().get_bit(1) {
            self.icnt_units.next = 2.into();
        }
        self.icnt_plus.next = self.icnt.q.val() + self.icnt_units.val();
        self.icnt_sum.next = self.icnt_plus.val();
        // The sum reaches the overflow bit (the count is below it): one unit onto the
        // count one short of it, or two onto a count one or two short. The sum is then the
        // overflow bit with bit 0 of the count plus the units, so neither the overflow nor
        // the ResourceFull message waits for the adder.
        self.near_1.d.next = ((self.icnt.q.val() & self.icnt_short_1.val())
            == self.icnt_short_1.val())
            && !self.restart.val()
            && !self.reset_ff.q.val();
        self.near_2.d.next = ((self.icnt.q.val() & self.icnt_short_2.val())
            == self.icnt_short_2.val())
            && !self.restart.val()
            && !self.reset_ff.q.val();
        self.icnt_over.next = (self.units.q.val().get_bit(0) && self.near_1.q.val())
            || (self.units.q.val().get_bit(1) && self.near_2.q.val());
        self.over_sum.next = self.icnt_top.val();
        if self.icnt.q.val().get_bit(0) ^ self.units.q.val().get_bit(0) {
            self.over_sum.next = self.icnt_top.val() | 1;
        }
        if self.ends_block.val() || self.correlation.q.val() {
            // Counted from 0: the units (at most 2) never reach the overflow bit (bit 2 or
            // above, `icnt_bits` >= 3).
            self.icnt_sum.next = self.icnt_units.val();
            self.icnt_over.next = false;
        }
        // (Below the overflow bit the sum has no bit at or above it: the mask leaves the
        // register and its adder `icnt_bits - 1` bits wide.)
        self.icnt.d.next = self.icnt_sum.val() & self.icnt_short_1.val();
        if self.icnt_over.val() || self.reset_ff.q.val() {
            self.icnt.d.next = 0.into();
        }
        // HIST of the record: a direct conditional branch (HTM) shifts in its outcome;
        // full, the register goes out in a ResourceFull message and starts again.
        self.hist_base.next = self.hist.q.val();
        if self.ends_block.val() || self.correlation.q.val() {
            self.hist_base.next = 1.into();
        }
        self.hist_outcome.next = 0.into();
        if self.taken.val() ^ self.hist_fault.val() {
            self.hist_outcome.next = 1.into();
        }
        self.hist_push.next = self.present.val() && self.htm.val() && self.branch.val();
        self.hist_pushed.next = self.hist_base.val();
        if self.hist_push.val() {
            self.hist_pushed.next = (self.hist_base.val() << 1) | self.hist_outcome.val();
        }
        self.hist_over.next =
            self.hist_push.val() && (self.hist_pushed.val() & self.hist_top.val()).any();
        // Repeated history: the full register is cut at its smallest period. It is full
        // only when the record's branch pushes onto a HIST one short of full (`hist_over`;
        // from an empty one only when `hist_bits` is 2, whose HIST is always empty), so the
        // cut is the one formed ahead from the HIST flip-flops for the record's outcome.
        // Each block also compares its cut with the last full HIST, for HREPEAT (`cut_same`,
        // read only when the register is full, when `hist_sent` is that cut). The outcome
        // selects the three once.
        self.cut_taken.clock.next = self.clock.val();
        self.cut_taken.hist.next = self.hist.q.val();
        self.cut_taken.last_full.next = self.last_full.q.val();
        self.cut_not_taken.clock.next = self.clock.val();
        self.cut_not_taken.hist.next = self.hist.q.val();
        self.cut_not_taken.last_full.next = self.last_full.q.val();
        self.cut_sent.next = self.cut_not_taken.sent.val();
        self.cut_kept.next = self.cut_not_taken.kept.val();
        self.cut_same.next = self.cut_not_taken.same.val();
        if self.hist_outcome.val().get_bit(0) {
            self.cut_sent.next = self.cut_taken.sent.val();
            self.cut_kept.next = self.cut_taken.kept.val();
            self.cut_same.next = self.cut_taken.same.val();
        }
        self.hist_sent.next = self.hist_pushed.val();
        self.hist_kept.next = 1.into();
        if self.repeat_on.val() && self.hist_over.val() {
            self.hist_sent.next = self.cut_sent.val();
            self.hist_kept.next = self.cut_kept.val();
        }
        self.hist.d.next = self.hist_pushed.val();
        if self.hist_over.val() {
            self.hist.d.next = self.hist_kept.val();
        }
        if self.reset_ff.q.val() {
            self.hist.d.next = 1.into();
        }

        // Field values.
        self.faddr.next = self.iaddr_wide.wide.val() >> 1;
        self.uaddr.next = (self.reference.q.val() ^ self.iaddr_wide.wide.val()) >> 1;
        self.icnt_lead.narrow.next = self.icnt.q.val();
        self.sum_lead.narrow.next = self.over_sum.val();
        self.hist_lead.narrow.next = self.hist_sent.val();
        self.btype_lead.narrow.next = self.pend_btype.q.val();
        // PROCESS ("Ownership Message"): FORMAT 0 (privilege) or 2 (CONTEXT), PRV, V 0.
        self.priv_lead.narrow.next = self.privilege_q.q.val();
        self.old_priv_lead.narrow.next = self.owner_priv.q.val();
        self.owner_process.next = self.priv_lead.wide.val() << 2;
        if self.rec_context.val() {
            self.owner_process.next = (self.priv_lead.wide.val() << 2) | 34;
        }
        self.old_owner_process.next = self.old_priv_lead.wide.val() << 2;
        if self.owner_context.q.val() {
            self.old_owner_process.next = (self.old_priv_lead.wide.val() << 2) | 34;
        }
        self.cdf.next = 0.into();
        if self.htm.val() {
            self.cdf.next = 16.into();
        }

        // "RepeatBranch Message": the plain branch message of the resolving record, as
        // a key; the same as the last one sent, with no ResourceFull in its block, it
        // is counted instead of sent.
        self.key_tcode.next = self.tc_direct_branch.val();
        self.key_lead.next = self.icnt_lead.wide.val();
        self.key_addr.next = 0.into();
        self.key_hist.next = 0.into();
        if !self.pend_direct.q.val() {
            self.key_tcode.next = self.tc_indirect_branch.val();
            self.key_lead.next = (self.icnt_lead.wide.val() << 2) | self.btype_lead.wide.val();
            self.key_addr.next = self.uaddr.val();
            if self.with_hist.val() {
                self.key_tcode.next = self.tc_indirect_branch_hist.val();
                self.key_hist.next = self.hist.q.val();
            }
        }
        self.same_fields.d.next = (self.key_tcode.val() == self.last_tcode.q.val())
            && (self.key_lead.val() == self.last_lead.q.val())
            && (self.key_hist.val() == self.last_hist.q.val());
        self.port_iaddr_wide.narrow.next = self.ingress.iaddr.val();
        self.port_key_addr.next = 0.into();
        if !self.pend_direct.q.val() {
            self.port_key_addr.next =
                (self.reference.q.val() ^ self.port_iaddr_wide.wide.val()) >> 1;
        }
        self.same_addr.d.next = self.port_key_addr.val() == self.last_addr.q.val();
        self.same_target.d.next = self.ingress.iaddr.val() == self.last_target.q.val();
        self.same_branch.next = self.last_valid.q.val()
            && self.same_fields.q.val()
            && self.same_addr.q.val()
            && self.same_target.q.val();
        // The counts start at 0 and step by one only below `repeat_max`, so "below the
        // maximum" is "not at it": an equality of the flip-flops, not a comparator behind
        // the decisions.
        self.bcnt_below_max.next = self.bcnt.q.val() != self.repeat_max.val();
        self.hrepeat_below_max.next = self.hrepeat.q.val() != self.repeat_max.val();
        self.branch_repeat.next = self.repeat_on.val()
            && self.resolving.val()
            && !self.sync_due.val()
            && !self.block_resource.q.val()
            && self.same_branch.val()
            && self.bcnt_below_max.val();
        self.plain_sent.next =
            self.resolving.val() && !self.sync_due.val() && !self.branch_repeat.val();

        // 3. The message that ends a block.
        self.slots.block_end.valid.next = self.correlation.q.val()
            || self.starting.val()
            || (self.resolving.val() && !self.branch_repeat.val())
            || self.block_sync.val();
        self.indirect_sync_end.next = self.end_indirect_sync.q.val()
            || (self.end_missed_sync.q.val() && !self.matched_ahead.q.val());
        self.indirect_end.next =
            self.end_indirect.q.val() || (self.end_missed.q.val() && !self.matched_ahead.q.val());
        self.event_end.next = self.end_event.q.val()
            || (self.end_matched_event.q.val() && self.matched_ahead.q.val());
        // ProgTraceCorrelation: EVCODE 4, CDF, I-CNT(, HIST).
        self.slots.block_end.tcode.next = self.tc_prog_trace_correlation.val();
        self.slots.block_end.lead.next = (self.icnt_lead.wide.val() << 6) | self.cdf.val() | 4;
        self.slots.block_end.lead_min.next = 7.into();
        self.slots.block_end.addr.next = self.faddr.val();
        // F-ADDR or U-ADDR: `addr_load`, formed a cycle ahead.
        self.slots.block_end.addr_valid.next = self.addr_load.val();
        self.slots.block_end.hist.next = self.hist.q.val();
        self.slots.block_end.hist_valid.next = self.htm.val();
        if self.end_start.q.val() {
            // ProgTraceSync: SYNC 5 (Trace Enable), or 7 (restart from FIFO overrun),
            // I-CNT 0, F-ADDR.
            self.slots.block_end.tcode.next = self.tc_prog_trace_sync.val();
            self.slots.block_end.lead.next = 5.into();
            if self.overrun.q.val() {
                self.slots.block_end.lead.next = 7.into();
            }
            self.slots.block_end.lead_min.next = 5.into();
            self.slots.block_end.hist_valid.next = false;
        }
        if self.end_direct_sync.q.val() {
            // DirectBranchSync: SYNC 2, I-CNT, F-ADDR.
            self.slots.block_end.tcode.next = self.tc_direct_branch_sync.val();
            self.slots.block_end.lead.next = (self.icnt_lead.wide.val() << 4) | 2;
            self.slots.block_end.lead_min.next = 5.into();
            self.slots.block_end.hist_valid.next = false;
        }
        if self.end_direct.q.val() {
            // DirectBranch: I-CNT.
            self.slots.block_end.tcode.next = self.tc_direct_branch.val();
            self.slots.block_end.lead.next = self.icnt_lead.wide.val();
            self.slots.block_end.lead_min.next = 1.into();
            self.slots.block_end.hist_valid.next = false;
        }
        if self.indirect_sync_end.val() {
            // IndirectBranch(Hist)Sync: SYNC 2, B-TYPE, I-CNT, F-ADDR(, HIST).
            self.slots.block_end.tcode.next = self.tc_indirect_branch_sync.val();
            if self.with_hist.val() {
                self.slots.block_end.tcode.next = self.tc_indirect_branch_hist_sync.val();
            }
            self.slots.block_end.lead.next =
                (self.icnt_lead.wide.val() << 6) | (self.btype_lead.wide.val() << 4) | 2;
            self.slots.block_end.hist_valid.next = self.with_hist.val();
        }
        if self.indirect_end.val() {
            // IndirectBranch(Hist): B-TYPE, I-CNT, U-ADDR(, HIST).
            self.slots.block_end.tcode.next = self.tc_indirect_branch.val();
            if self.with_hist.val() {
                self.slots.block_end.tcode.next = self.tc_indirect_branch_hist.val();
            }
            self.slots.block_end.lead.next =
                (self.icnt_lead.wide.val() << 2) | self.btype_lead.wide.val();
            self.slots.block_end.lead_min.next = 3.into();
            self.slots.block_end.addr.next = self.uaddr.val();
            self.slots.block_end.hist_valid.next = self.with_hist.val();
        }
        if self.event_end.val() {
            // IndirectBranch(Hist)Sync: SYNC 6 (Trace Event), B-TYPE 0, I-CNT, F-ADDR, HIST
            // (HTM).
            self.slots.block_end.tcode.next = self.tc_indirect_branch_sync.val();
            if self.htm.val() {
                self.slots.block_end.tcode.next = self.tc_indirect_branch_hist_sync.val();
            }
            self.slots.block_end.lead.next = (self.icnt_lead.wide.val() << 6) | 6;
        }

        // Counted repeats go out before the record's first message: any `block_end`
        // message or a change Ownership sends both counts; a ResourceFull sends B-CNT
        // (this record's repeat included).
        self.flush_early.next = self.slots.block_end.valid.val() || self.owner_change.val();
        self.flush_bcnt.next =
            self.flush_early.val() || self.icnt_over.val() || self.hist_over.val();
        // B-CNT with this record's repeat, and HREPEAT after the flush and one more: the
        // adders read the flip-flops, the decisions only select.
        self.bcnt_now.next = self.bcnt.q.val();
        if self.branch_repeat.val() {
            self.bcnt_now.next = self.bcnt.q.val() + 1;
        }
        self.hrepeat_base.next = self.hrepeat.q.val();
        self.hrepeat_base_plus.next = self.hrepeat.q.val() + 1;
        if self.flush_early.val() {
            self.hrepeat_base.next = 0.into();
            self.hrepeat_base_plus.next = 1.into();
        }
        // "HIST Field Full" with repeated history: the cut HIST equal to the last one
        // sent (`cut_same`) is counted (HREPEAT) instead of sent.
        self.hist_same.next =
            self.last_full_valid.q.val() && !self.a_sync.val() && self.cut_same.val();
        self.hist_repeat.next = self.repeat_on.val()
            && self.hist_over.val()
            && self.hist_same.val()
            && (self.flush_early.val() || self.hrepeat_below_max.val());
        self.bcnt_lead.narrow.next = self.bcnt_now.val();
        self.last_full_lead.narrow.next = self.last_full.q.val();
        self.early_count.narrow.next = self.hrepeat.q.val();
        self.late_count.narrow.next = self.hrepeat_base.val();

        // 1. ResourceFull RCODE 2: RDATA the repeated HIST, HREPEAT its repeats. (The
        // repeat messages are gated by the option itself: without it the counts stay 0,
        // which synthesis cannot see through their registers, so their logic would stay
        // on the decision's paths.)
        self.slots.early_hrepeat.valid.next =
            self.repeat_on.val() && self.flush_early.val() && self.hrepeat.q.val().any();
        self.slots.early_hrepeat.tcode.next = self.tc_resource_full.val();
        self.slots.early_hrepeat.lead.next = (self.last_full_lead.wide.val() << 4) | 2;
        self.slots.early_hrepeat.lead_min.next = 5.into();
        self.slots.early_hrepeat.addr.next = self.early_count.wide.val();
        self.slots.early_hrepeat.addr_valid.next = true;
        self.slots.early_hrepeat.hist.next = 0.into();
        self.slots.early_hrepeat.hist_valid.next = false;

        // 2. RepeatBranch: B-CNT.
        self.slots.repeat_branch.valid.next = self.repeat_on.val()
            && self.flush_bcnt.val()
            && (self.branch_repeat.val() || self.bcnt.q.val().any());
        self.slots.repeat_branch.tcode.next = self.tc_repeat_branch.val();
        self.slots.repeat_branch.lead.next = self.bcnt_lead.wide.val();
        self.slots.repeat_branch.lead_min.next = 1.into();
        self.slots.repeat_branch.addr.next = 0.into();
        self.slots.repeat_branch.addr_valid.next = false;
        self.slots.repeat_branch.hist.next = 0.into();
        self.slots.repeat_branch.hist_valid.next = false;

        // 4. Ownership after a synchronising message: the privilege the block ran at.
        self.slots.sync_owner.valid.next = self.a_sync.val();
        self.slots.sync_owner.tcode.next = self.tc_ownership.val();
        self.slots.sync_owner.lead.next = self.old_owner_process.val();
        if self.starting.val() {
            self.slots.sync_owner.lead.next = self.owner_process.val();
        }
        self.slots.sync_owner.lead_min.next = 1.into();
        self.slots.sync_owner.addr.next = 0.into();
        self.slots.sync_owner.addr_valid.next = false;
        self.slots.sync_owner.hist.next = 0.into();
        self.slots.sync_owner.hist_valid.next = false;

        // 5. Ownership of a privilege or context change.
        self.slots.owner.valid.next = self.owner_change.val();
        self.slots.owner.tcode.next = self.tc_ownership.val();
        self.slots.owner.lead.next = self.owner_process.val();
        self.slots.owner.lead_min.next = 1.into();
        self.slots.owner.addr.next = 0.into();
        self.slots.owner.addr_valid.next = false;
        self.slots.owner.hist.next = 0.into();
        self.slots.owner.hist_valid.next = false;

        // 6. ResourceFull RCODE 0: RDATA the I-CNT, this instruction included.
        self.slots.icnt_full.valid.next = self.icnt_over.val();
        self.slots.icnt_full.tcode.next = self.tc_resource_full.val();
        self.slots.icnt_full.lead.next = self.sum_lead.wide.val() << 4;
        self.slots.icnt_full.lead_min.next = 5.into();
        self.slots.icnt_full.addr.next = 0.into();
        self.slots.icnt_full.addr_valid.next = false;
        self.slots.icnt_full.hist.next = 0.into();
        self.slots.icnt_full.hist_valid.next = false;

        // 7. ResourceFull RCODE 2 before a HIST ResourceFull that is no repeat.
        self.slots.late_hrepeat.valid.next = self.repeat_on.val()
            && self.hist_over.val()
            && !self.hist_repeat.val()
            && self.hrepeat_base.val().any();
        self.slots.late_hrepeat.tcode.next = self.tc_resource_full.val();
        self.slots.late_hrepeat.lead.next = (self.last_full_lead.wide.val() << 4) | 2;
        self.slots.late_hrepeat.lead_min.next = 5.into();
        self.slots.late_hrepeat.addr.next = self.late_count.wide.val();
        self.slots.late_hrepeat.addr_valid.next = true;
        self.slots.late_hrepeat.hist.next = 0.into();
        self.slots.late_hrepeat.hist_valid.next = false;

        // 8. ResourceFull RCODE 1: RDATA the full HIST (the whole periods with repeated
        // history), unless counted as a repeat.
        self.slots.hist_full.valid.next = self.hist_over.val() && !self.hist_repeat.val();
        self.slots.hist_full.tcode.next = self.tc_resource_full.val();
        self.slots.hist_full.lead.next = (self.hist_lead.wide.val() << 4) | 1;
        self.slots.hist_full.lead_min.next = 5.into();
        self.slots.hist_full.addr.next = 0.into();
        self.slots.hist_full.addr_valid.next = false;
        self.slots.hist_full.hist.next = 0.into();
        self.slots.hist_full.hist_valid.next = false;

        // State.
        if self.starting.val() {
            self.started.d.next = true;
        }
        if self.correlation.q.val() {
            self.started.d.next = false;
            self.pend_valid.d.next = false;
            self.overrun.d.next = false;
        }
        if self.present.val() {
            // The pending message of the record ("Handling of 4-bit itype values").
            self.pend_valid.d.next = self.trap.val()
                || self.reported.val()
                || self.predicted.val()
                || (!self.htm.val() && self.taken.val());
            self.pend_return.d.next = self.predicted.val();
            self.pend_expected.d.next = self.stack.top.val();
            self.pend_direct.d.next = !self.trap.val() && !self.indirect.val();
            self.pend_btype.d.next = 0.into();
            if self.itype_hot.q.val().get_bit(1) {
                self.pend_btype.d.next = 2.into();
            }
            if self.itype_hot.q.val().get_bit(2) {
                self.pend_btype.d.next = 3.into();
            }
            self.owner_priv.d.next = self.privilege_q.q.val();
            self.owner_context.d.next = self.rec_context.val();
        }
        // Instructions since the block began.
        if self.ends_block.val() || self.correlation.q.val() {
            self.walk.d.next = false;
        }
        if self.units.q.val().any() {
            self.walk.d.next = true;
        }
        // The last address sent: U-ADDR's reference ("Address Compression").
        if self.addr_load.val() {
            self.reference.d.next = self.iaddr_wide.wide.val();
        }
        // Repeated history state, in the model's order within the record: a plain branch
        // message becomes the last one; a synchronising message, an Ownership, a HIST
        // ResourceFull that is no repeat and the end of the trace forget it.
        if self.plain_sent.val() {
            self.last_valid.d.next = true;
            self.last_tcode.d.next = self.key_tcode.val();
            self.last_lead.d.next = self.key_lead.val();
            self.last_addr.d.next = self.key_addr.val();
            self.last_hist.d.next = self.key_hist.val();
            self.last_target.d.next = self.iaddr_q.q.val();
        }
        if self.a_sync.val()
            || self.owner_change.val()
            || self.correlation.q.val()
            || self.slots.hist_full.valid.val()
        {
            self.last_valid.d.next = false;
        }
        self.bcnt.d.next = self.bcnt_now.val();
        if self.flush_bcnt.val() {
            self.bcnt.d.next = 0.into();
        }
        self.hrepeat.d.next = self.hrepeat_base.val();
        if self.hist_over.val() {
            self.hrepeat.d.next = 0.into();
        }
        if self.hist_repeat.val() {
            self.hrepeat.d.next = self.hrepeat_base_plus.val();
        }
        // Without repeated history both counts are constant 0 (synthesis drops them).
        if !self.repeat_on.val() {
            self.bcnt.d.next = 0.into();
            self.hrepeat.d.next = 0.into();
        }
        if self.a_sync.val() {
            self.last_full_valid.d.next = false;
        }
        if self.slots.hist_full.valid.val() {
            self.last_full_valid.d.next = true;
            self.last_full.d.next = self.hist_sent.val();
        }
        // A ResourceFull in the block: its branch message is no repeat.
        if self.ends_block.val() {
            self.block_resource.d.next = false;
        }
        if self.icnt_over.val() || self.hist_over.val() {
            self.block_resource.d.next = true;
        }
        // Messages since the last synchronising message (held once at `sync_max`): this
        // record's messages are registered (bit per slot: block end, sync Ownership,
        // change Ownership, I-CNT and HIST ResourceFull, early and late HREPEAT,
        // RepeatBranch), their number is registered in the next cycle and added in the
        // one after it, which hold no record (a record step of the output path takes
        // several cycles), so `sync_due` reads the whole count.
        self.count_01.next = 0.into();
        if self.counted.q.val().get_bit(0) {
            self.count_01.next = 1.into();
        }
        if self.counted.q.val().get_bit(1) {
            self.count_01.next = self.count_01.val() + 1;
        }
        self.count_23.next = 0.into();
        if self.counted.q.val().get_bit(2) {
            self.count_23.next = 1.into();
        }
        if self.counted.q.val().get_bit(3) {
            self.count_23.next = self.count_23.val() + 1;
        }
        self.count_45.next = 0.into();
        if self.counted.q.val().get_bit(4) {
            self.count_45.next = 1.into();
        }
        if self.counted.q.val().get_bit(5) {
            self.count_45.next = self.count_45.val() + 1;
        }
        self.count_67.next = 0.into();
        if self.counted.q.val().get_bit(6) {
            self.count_67.next = 1.into();
        }
        if self.counted.q.val().get_bit(7) {
            self.count_67.next = self.count_67.val() + 1;
        }
        self.count_all.next = (self.count_01.val() + self.count_23.val())
            + (self.count_45.val() + self.count_67.val());
        self.count_q.d.next = self.count_all.val();
        self.count_wide.narrow.next = self.count_q.q.val();
        // `sync_due` of the next cycle: the messages left after this edge at 0 (`sync_max`
        // after a synchronising message or a reset, above 0 for every `sync_max` that is
        // on). Once due, it holds until the synchronising message (a record counts
        // nothing then, below), so `to_sync`, which may have gone below 0, is not read
        // again before it is set to `sync_max`: the due test does not gate `to_sync`.
        self.due_now.next = self.to_sync_high_zero.q.val()
            && (self.count_q.q.val() >= self.to_sync.q.val().get_bits::<4>(0));
        self.to_sync.d.next = self.to_sync.q.val() - self.count_wide.wide.val();
        self.to_sync_high_zero.d.next =
            self.sync_on.val() && !self.to_sync.q.val().get_bits::<12>(4).any();
        self.sync_due_ff.d.next = self.due_now.val() || self.sync_due_ff.q.val();
        // The messages a synchronising record counts after its sync (its own sync
        // Ownership, change Ownership, I-CNT / HIST ResourceFull and late HREPEAT).
        self.counted_now.next = 0.into();
        if self.slots.sync_owner.valid.val() {
            self.counted_now.next = self.counted_now.val() | 0x02;
        }
        if self.slots.owner.valid.val() {
            self.counted_now.next = self.counted_now.val() | 0x04;
        }
        if self.slots.icnt_full.valid.val() {
            self.counted_now.next = self.counted_now.val() | 0x08;
        }
        if self.slots.hist_full.valid.val() {
            self.counted_now.next = self.counted_now.val() | 0x10;
        }
        if self.slots.late_hrepeat.valid.val() {
            self.counted_now.next = self.counted_now.val() | 0x40;
        }
        if !self.a_sync.val() {
            if self.slots.block_end.valid.val() {
                self.counted_now.next = self.counted_now.val() | 0x01;
            }
            if self.slots.early_hrepeat.valid.val() {
                self.counted_now.next = self.counted_now.val() | 0x20;
            }
            if self.slots.repeat_branch.valid.val() {
                self.counted_now.next = self.counted_now.val() | 0x80;
            }
            if self.sync_due.val() {
                self.counted_now.next = 0.into();
            }
        }
        self.counted.d.next = self.counted_now.val();
        // A synchronising message starts the count again in the next cycle, which holds no
        // record (the count it carries is taken off in the one after); so does the reset.
        self.count_restart.d.next = self.a_sync.val() || self.reset.val();
        if self.count_restart.q.val() {
            self.to_sync.d.next = self.sync_max.val();
            self.sync_due_ff.d.next = false;
            self.to_sync_high_zero.d.next = self.sync_on.val() && self.sync_max_small.val();
        }
        // A restart from FIFO overrun forgets the trace state (the model's `restart`).
        if self.restart.val() {
            self.started.d.next = false;
            self.pend_valid.d.next = false;
            self.walk.d.next = false;
            self.icnt.d.next = 0.into();
            self.hist.d.next = 1.into();
            self.last_full_valid.d.next = false;
            self.hrepeat.d.next = 0.into();
            self.last_valid.d.next = false;
            self.bcnt.d.next = 0.into();
            self.block_resource.d.next = false;
            self.overrun.d.next = true;
        }
        if self.reset_ff.q.val() {
            self.overrun.d.next = false;
            self.started.d.next = false;
            self.pend_valid.d.next = false;
            self.walk.d.next = false;
            self.counted.d.next = 0.into();
            self.count_q.d.next = 0.into();
            self.last_full_valid.d.next = false;
            self.hrepeat.d.next = 0.into();
            self.last_valid.d.next = false;
            self.bcnt.d.next = 0.into();
            self.block_resource.d.next = false;
        }
        // The address load of the next cycle's record, from the next values of the flip-
        // flops it reads (here, after their last assignment). A start excludes a pending
        // message and a block event; a resolving and a returning pending message exclude
        // each other.
        self.addr_sent.d.next = self.present_ff.d.val()
            && (self.starting_ahead.d.val()
                || (self.event_ahead.d.val()
                    && !self.resolves_ahead.d.val()
                    && !self.returns_ahead.d.val())
                || (self.resolves_ahead.d.val() && !self.pend_direct.d.val()));
        self.addr_if_matched.d.next =
            self.present_ff.d.val() && self.returns_ahead.d.val() && self.event_ahead.d.val();
        self.addr_if_missed.d.next = self.present_ff.d.val() && self.returns_ahead.d.val();
        self.addr_if_due.d.next =
            self.present_ff.d.val() && self.resolves_ahead.d.val() && self.pend_direct.d.val();
        self.end_start.d.next = self.trace_enable.val() && self.starting_ahead.d.val();
        self.end_direct_sync.d.next = self.trace_enable.val()
            && self.resolves_ahead.d.val()
            && self.pend_direct.d.val()
            && self.sync_due_ff.d.val();
        self.end_direct.d.next = self.trace_enable.val()
            && self.resolves_ahead.d.val()
            && self.pend_direct.d.val()
            && !self.sync_due_ff.d.val();
        self.end_indirect_sync.d.next = self.trace_enable.val()
            && self.resolves_ahead.d.val()
            && !self.pend_direct.d.val()
            && self.sync_due_ff.d.val();
        self.end_indirect.d.next = self.trace_enable.val()
            && self.resolves_ahead.d.val()
            && !self.pend_direct.d.val()
            && !self.sync_due_ff.d.val();
        self.end_missed_sync.d.next =
            self.trace_enable.val() && self.returns_ahead.d.val() && self.sync_due_ff.d.val();
        self.end_missed.d.next =
            self.trace_enable.val() && self.returns_ahead.d.val() && !self.sync_due_ff.d.val();
        self.end_event.d.next = self.trace_enable.val()
            && self.event_ahead.d.val()
            && !self.resolves_ahead.d.val()
            && !self.returns_ahead.d.val();
        self.end_matched_event.d.next =
            self.trace_enable.val() && self.returns_ahead.d.val() && self.event_ahead.d.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::verilog::{generate, lint, yosys_check};

    /// Every optimisation option on.
    fn all_options() -> NtraceHwOptions {
        NtraceHwOptions {
            sijump: true,
            call_stack: CALL_STACK_MAX,
            repeat_history: true,
            repeat_bits: 4,
            ..NtraceHwOptions::default()
        }
    }

    #[test]
    fn ntrace_generator_verilog() {
        for (name, options) in [
            ("ntrace_generator", NtraceHwOptions::default()),
            ("ntrace_generator_all", all_options()),
        ] {
            for config in [Config::Rv32, Config::Rv64] {
                let v = crate::with_config!(config, [A, E, IT, P] => {
                    let mut uut = NtraceGenerator::<A, E, IT>::new(options);
                    uut.connect_all();
                    generate(&uut)
                });
                yosys_check(name, &v).unwrap();
                lint(name, &v).unwrap();
            }
        }
    }
}
