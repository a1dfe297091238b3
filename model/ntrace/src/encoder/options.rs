//! The encoder's controls ("N-Trace Specific Trace Controls": `trTeInstMode`,
//! `trTeInstEnSequentialJump`, `trTeInstImplicitReturnMode`, `trTeInstEnRepeatedHistory`,
//! `trTeSrcBits` / `trTeSrcID`, `trTsEnable`, `trTeInstSyncMax`) and its implementation
//! sizes (I-CNT counter, HIST register, HREPEAT and B-CNT counters, "Maximum Field
//! Sizes").

use crate::call_stack::MAX_DEPTH;
use crate::message::{FieldConfig, SyncReason};
use etrace_spec::ingress::ItypeWidth;

/// `trTeInstMode` ("Main N-Trace Trace Modes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NtraceMode {
    /// 3: Branch Trace Messaging, a message per taken direct conditional branch.
    Btm,
    /// 6: History Trace Messaging, a HIST bit per direct conditional branch.
    #[default]
    Htm,
}

impl NtraceMode {
    /// The command-line name (`--ntrace-mode`, `docs/cli.md`).
    pub fn name(self) -> &'static str {
        match self {
            NtraceMode::Btm => "btm",
            NtraceMode::Htm => "htm",
        }
    }
}

/// Options of the N-Trace encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NtraceOptions {
    /// BTM or HTM.
    pub mode: NtraceMode,
    /// Implicit-return call stack depth (0: off; at most 32).
    pub call_stack: usize,
    /// Repeated history (ResourceFull RCODE 2) and repeated branch messages
    /// (RepeatBranch).
    pub repeat_history: bool,
    /// Sequentially inferable jumps are not reported ("Sequential Jump Optimization").
    pub sijump: bool,
    /// SRC field width (0: none).
    pub src_bits: u8,
    /// SRC value (`trTeSrcID`).
    pub src_id: u16,
    /// Messages carry TSTAMP (the number of ingress records so far).
    pub timestamp: bool,
    /// A branch message becomes its synchronising counterpart (SYNC = 2) once this many
    /// messages were sent since the last synchronising message (0: never).
    pub sync_max: u32,
    /// Width of the I-CNT counter, its overflow bit included: a ResourceFull RCODE 0
    /// when the overflow bit is set ("Examples of I-CNT Field Full Generation").
    pub icnt_bits: u32,
    /// Width of the HIST register, stop bit included.
    pub hist_bits: u32,
    /// Width of the HREPEAT and B-CNT counters.
    pub repeat_bits: u32,
    /// Width of the ingress port's `itype` (the call stack needs 4 bits).
    pub itype_width: ItypeWidth,
    /// SYNC of the ProgTraceSync message that starts the trace.
    pub start_sync: SyncReason,
}

impl Default for NtraceOptions {
    fn default() -> Self {
        NtraceOptions {
            mode: NtraceMode::Htm,
            call_stack: 0,
            repeat_history: false,
            sijump: false,
            src_bits: 0,
            src_id: 0,
            timestamp: false,
            sync_max: 256,
            icnt_bits: 16,
            hist_bits: 32,
            repeat_bits: 18,
            itype_width: ItypeWidth::W4,
            start_sync: SyncReason::TRACE_ENABLE,
        }
    }
}

/// An option that cannot be used, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {reason}")]
pub struct OptionError {
    /// The option.
    pub option: &'static str,
    /// Why.
    pub reason: String,
}

/// Widest SRC field ("Maximum Field Sizes": `NTRACE_MAX_SRC`).
pub const MAX_SRC_BITS: u8 = 12;

/// Checks a SRC field of `src_bits` bits (`trTeSrcBits`) holding `src_id` (`trTeSrcID`)
/// against "Maximum Field Sizes": the encoder's check, and that of the readers of a
/// stream with such a field.
pub fn check_src(src_bits: u8, src_id: u16) -> Result<(), OptionError> {
    if src_bits > MAX_SRC_BITS {
        return Err(OptionError {
            option: "src-bits",
            reason: format!("{src_bits} is above {MAX_SRC_BITS}"),
        });
    }
    if !etrace_spec::bitfield::fits(u64::from(src_id), u32::from(src_bits)) {
        return Err(OptionError {
            option: "src-id",
            reason: format!("{src_id} does not fit in {src_bits} bits"),
        });
    }
    Ok(())
}

impl NtraceOptions {
    /// Checks the options against the limits of "Maximum Field Sizes" and "Implicit
    /// Return Optimization".
    pub fn validate(&self) -> Result<(), OptionError> {
        let err = |option, reason: String| Err(OptionError { option, reason });
        if self.call_stack > MAX_DEPTH {
            return err(
                "call-stack",
                format!("depth {} is above {MAX_DEPTH}", self.call_stack),
            );
        }
        if self.call_stack > 0 && self.itype_width == ItypeWidth::W3 {
            return err(
                "call-stack",
                "needs the 4-bit itype (calls and returns are not told apart with 3 bits)"
                    .to_string(),
            );
        }
        check_src(self.src_bits, self.src_id)?;
        if !(3..=22).contains(&self.icnt_bits) {
            return err("icnt-bits", format!("{} is not in 3..=22", self.icnt_bits));
        }
        if !(2..=32).contains(&self.hist_bits) {
            return err("hist-bits", format!("{} is not in 2..=32", self.hist_bits));
        }
        if !(1..=18).contains(&self.repeat_bits) {
            return err(
                "repeat-bits",
                format!("{} is not in 1..=18", self.repeat_bits),
            );
        }
        Ok(())
    }

    /// The configured fields of the messages.
    pub fn fields(&self) -> FieldConfig {
        FieldConfig {
            src_bits: self.src_bits,
            timestamp: self.timestamp,
        }
    }
}
