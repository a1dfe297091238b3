//! The packet decision of `exampleAlgorithm.adoc`, figure `fig:algo` ("Instruction delta
//! trace algorithm"): for the current instruction, given the previous and next, which
//! te_inst packet (if any) to send and why.

use super::window::{Slot, Window};

/// Why a packet was sent: the chart's decision names (used for the annotated listing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Trace enabled (support packet before the first sync).
    Enabled,
    /// The previous instruction signalled a trap.
    PrevException,
    /// The current record is a trap without retirement (`exc_only`).
    CurrExcOnly,
    /// The previous trap was already reported with `thaddr = 0` (`trep`).
    PrevReported,
    /// First qualified instruction.
    FirstQualified,
    /// Privilege change or precise context change (`ppccd`).
    Ppccd,
    /// Resync counter exceeded (`>max_resync`).
    ResyncExceeded,
    /// The previous instruction was an uninferable discontinuity.
    PrevUpdiscon,
    /// Resync counter at its maximum with branches waiting (`resync_br`).
    ResyncBr,
    /// Trap with retirement, or a notify trigger (`er_n`).
    ErN,
    /// The next record is a trap without retirement.
    NextExcOnly,
    /// Privilege / precise context change next, with branches waiting (`ppccd_br`).
    PpccdBr,
    /// The next instruction is not traced.
    NextUnqualified,
    /// Branch map full, or a branch failed its prediction while counting (`rpt_br`).
    RptBr,
    /// The correctly-predicted-branch count reached 0xffff_ffff.
    BranchCountMax,
    /// Imprecise context change (`cci`).
    Cci,
    /// Recovery after packets were dropped: the support packet with `qual_status` =
    /// trace_lost and the sync that follows it (`hdl/DESIGN.md`, cycle contract item 4).
    TraceLost,
    /// Qualification ended.
    QualificationEnded,
    /// Trace disabled.
    Disabled,
}

/// What kind of packet the chart asks for (one of its rectangles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Format 3 subformat 1 for the trap signalled by `trap` (a window slot); `thaddr` says
    /// whether the address is the trap handler (current instruction) or the EPC.
    Trap {
        /// Set: address of the first handler instruction; clear: EPC / undefined.
        thaddr: bool,
        /// The trap record is the previous slot (else the current one).
        trap_in_prev: bool,
    },
    /// Format 3 subformat 0 for the current instruction.
    Sync,
    /// Format 0/1/2 with the address of the current instruction.
    Address,
    /// Format 1 without address (the branch map is full) or format 0 without address (a
    /// branch failed its prediction after 31 or more correct ones).
    BranchMap,
    /// Format 3 subformat 2: imprecise context change.
    Context,
}

/// Inputs to the decision that are encoder state rather than window contents.
#[derive(Debug, Clone, Copy, Default)]
pub struct State {
    /// Branches waiting in the branch map (including the current instruction's).
    pub branches: u32,
    /// The map is full and not every branch in it was predicted correctly (`rpt_br`).
    pub branch_map_full: bool,
    /// Counting correctly predicted branches (`pbc >= 31`) and the current branch failed
    /// its prediction (`rpt_br`).
    pub count_failed: bool,
    /// The correctly-predicted-branch count reached its maximum (`sec:format0`).
    pub count_full: bool,
    /// The trap in the previous slot was reported already with `thaddr = 0`.
    pub prev_trap_reported: bool,
    /// Resync counter equals its maximum.
    pub resync_at_max: bool,
    /// Resync counter exceeds its maximum.
    pub resync_exceeded: bool,
    /// Packets were dropped and the output has room for the trace-lost support packet and
    /// a sync: the current instruction is reported with a sync (`hdl/DESIGN.md`).
    pub recover: bool,
}

/// Predicates on window slots that depend on the run-time options.
pub trait Classify {
    /// The slot ends with an uninferable PC discontinuity (`updiscon`).
    fn updiscon(&self, slot: &Slot) -> bool;
}

/// Privilege change, or a context change to be reported precisely or as a discontinuity,
/// between `before` and `after` (`ppccd`).
pub fn ppccd(before: &Slot, after: &Slot, before_updiscon: bool) -> bool {
    after.rec.privilege != before.rec.privilege
        || (after.rec.context != before.rec.context && (after.rec.ctype >= 2 || before_updiscon))
}

/// Runs the chart for the current instruction of a window whose current slot is traced.
/// Returns the actions in the order the packets are sent, with their reasons.
pub fn decide(w: &Window, s: &State, c: &impl Classify) -> Vec<(Action, Vec<Reason>)> {
    let (prev, curr, next) = (&w.prev, &w.curr, &w.next);
    debug_assert!(curr.traced());
    let prev_traced = prev.traced();
    let prev_exception = prev_traced && prev.is_trap();
    let prev_updiscon = prev_traced && c.updiscon(prev);
    let first_qualified = !prev_traced;

    // A trap without retirement is not an instruction: it is reported by the next traced
    // instruction (thaddr = 1), unless its address must be given now.
    if curr.is_exc_only() {
        if prev_exception {
            let mut why = vec![Reason::PrevException, Reason::CurrExcOnly];
            if s.prev_trap_reported {
                // The previous trap is known already: report this one with its address.
                why.push(Reason::PrevReported);
                return vec![(
                    Action::Trap {
                        thaddr: false,
                        trap_in_prev: false,
                    },
                    why,
                )];
            }
            return vec![(
                Action::Trap {
                    thaddr: false,
                    trap_in_prev: true,
                },
                why,
            )];
        }
        let reason = if first_qualified {
            Some(Reason::FirstQualified)
        } else if prev_updiscon {
            Some(Reason::PrevUpdiscon)
        } else if !next.traced() {
            Some(Reason::NextUnqualified)
        } else {
            None
        };
        return match reason {
            Some(r) => vec![(
                Action::Trap {
                    thaddr: false,
                    trap_in_prev: false,
                },
                vec![r, Reason::CurrExcOnly],
            )],
            None => Vec::new(),
        };
    }

    if prev_exception {
        if s.prev_trap_reported {
            return vec![(
                Action::Sync,
                vec![Reason::PrevException, Reason::PrevReported],
            )];
        }
        return vec![(
            Action::Trap {
                thaddr: true,
                trap_in_prev: true,
            },
            vec![Reason::PrevException],
        )];
    }

    let curr_ppccd = prev_traced && ppccd(prev, curr, prev_updiscon);
    if first_qualified || curr_ppccd || s.resync_exceeded || s.recover {
        let why = [
            (first_qualified, Reason::FirstQualified),
            (curr_ppccd, Reason::Ppccd),
            (s.resync_exceeded, Reason::ResyncExceeded),
            (s.recover, Reason::TraceLost),
        ];
        return vec![(Action::Sync, reasons(&why))];
    }

    if prev_updiscon {
        return vec![(Action::Address, vec![Reason::PrevUpdiscon])];
    }

    let resync_br = s.resync_at_max && s.branches != 0;
    let er_n = (curr.rec.iretire != 0 && curr.is_trap()) || curr.notify;
    if resync_br || er_n || s.count_full {
        let why = [
            (resync_br, Reason::ResyncBr),
            (er_n, Reason::ErN),
            (s.count_full, Reason::BranchCountMax),
        ];
        return vec![(Action::Address, reasons(&why))];
    }

    let next_exc_only = next.traced() && next.is_exc_only();
    let ppccd_br = s.branches != 0 && next.traced() && ppccd(curr, next, c.updiscon(curr));
    let next_unqualified = !next.traced();
    if next_exc_only || ppccd_br || next_unqualified {
        let why = [
            (next_exc_only, Reason::NextExcOnly),
            (ppccd_br, Reason::PpccdBr),
            (next_unqualified, Reason::NextUnqualified),
        ];
        return vec![(Action::Address, reasons(&why))];
    }

    let mut actions = Vec::new();
    if s.branch_map_full || s.count_failed {
        actions.push((Action::BranchMap, vec![Reason::RptBr]));
    }
    let cci = curr.rec.context != prev.rec.context && curr.rec.ctype == 1;
    if cci {
        actions.push((Action::Context, vec![Reason::Cci]));
    }
    actions
}

fn reasons(flags: &[(bool, Reason)]) -> Vec<Reason> {
    flags.iter().filter(|(f, _)| *f).map(|(_, r)| *r).collect()
}
