//! The register file of the encoder's control interface (Trace Control Interface 1.0,
//! "Trace Encoder Control Interface", "Reset and Discovery"; E-Trace 2.0 `control.adoc`):
//! the golden model the hardware block is checked against, and the device the hart model
//! maps for software that drives the encoder.
//!
//! What this encoder implements (every other field reads 0 and ignores writes):
//!
//! * `trTeControl`: `trTeActive`, `trTeEnable`, `trTeInstTracing` (read / write),
//!   `trTeEmpty` (read only, the output path is empty), `trTeInstStallOrOverflow` (set when
//!   trace is lost, write 1 to clear, cleared when `trTeEnable` rises), `trTeInstSyncMode`
//!   0 (off) or 1 (count te_inst packets; 2 and 3 are not implemented: a write of them
//!   keeps the previous mode), `trTeInstSyncMax` 0..[`TeImplementation::sync_max_limit`]
//!   (larger values are written as the limit); `trTeInstMode` reads 7 and `trTeContext`
//!   0 (`control.adoc`, `sec:ctl-modes`); `trTeFormat` 0 (E-Trace).
//! * `trTeImpl`: version 1.0, component type 1, protocol 0.0 (`control.adoc`,
//!   `sec:ctl-basic`).
//! * `trTeInstFeatures`: `trTeInstNoAddrDiff` (`full_address`), `trTeInstNoTrapAddr`
//!   (`implicit_exception`), `trTeInstEnSequentialJump` (`sijump`), and, where the build
//!   has them, `trTeInstEnImplicitReturn` and `trTeInstEnBranchPrediction`; `trTeSrcBits`
//!   reads the build's source field width, `trTeSrcID` reads 0 (the source field the
//!   framer writes).
//!
//! Sequencing ("Reset and Discovery"): while `trTeActive` is 0 the encoder is held in
//! reset, every other field is at its reset value and only `trTeActive` can be written;
//! the write that sets it takes nothing else. The options and the synchronisation fields
//! only change while `trTeEnable` is 0, so that they are stable while trace is enabled.

use super::map::{self, control, features, implementation};

/// What a build of the encoder implements, as the registers report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeImplementation {
    /// The build has a branch predictor (`bpred_size_p` > 0).
    pub branch_prediction: bool,
    /// The build has a return stack (`return_stack_size_p` > 0).
    pub implicit_return: bool,
    /// Width of the source field the framer writes (`trTeSrcBits`, 0..12).
    pub src_bits: u32,
    /// The largest `trTeInstSyncMax`: 2^(limit + 4) packets must fit the resync counter.
    pub sync_max_limit: u32,
}

impl Default for TeImplementation {
    /// No predictor, no return stack, no source field; a 16-bit resync counter (limit 11).
    fn default() -> Self {
        TeImplementation {
            branch_prediction: false,
            implicit_return: false,
            src_bits: 0,
            sync_max_limit: 11,
        }
    }
}

/// `trTeInstSyncMode` after reset: count packets.
pub const RESET_SYNC_MODE: u32 = 1;
/// `trTeInstSyncMax` after reset: 2^(4 + 4) = 256 packets (the encoder's default resync).
pub const RESET_SYNC_MAX: u32 = 4;
/// `trTeInstMode` as E-Trace hard-codes it.
pub const ETRACE_INST_MODE: u32 = 7;

/// What the encoder's inputs see of the registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TeSettings {
    /// `trTeActive`: the encoder runs (else it is held in reset).
    pub active: bool,
    /// Trace enable: `trTeActive`, `trTeEnable` and `trTeInstTracing` all set.
    pub trace_enable: bool,
    /// `full_address` option.
    pub full_address: bool,
    /// `implicit_exception` option.
    pub implicit_exception: bool,
    /// `sijump` option.
    pub sijump: bool,
    /// `implicit_return` option.
    pub implicit_return: bool,
    /// `branch_prediction` option.
    pub branch_prediction: bool,
    /// te_inst packets between forced syncs, 0 = off.
    pub resync_max: u32,
}

/// The register file of one trace encoder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeRegisters {
    implementation: TeImplementation,
    active: bool,
    enable: bool,
    inst_tracing: bool,
    stall_or_overflow: bool,
    sync_mode: u32,
    sync_max: u32,
    /// The written option bits of `trTeInstFeatures` (legal ones only).
    options: u32,
}

impl TeRegisters {
    /// The registers after power-up: `trTeActive` and `trTeEnable` 0, every other field at
    /// the value this implementation gives it after reset.
    pub fn new(implementation: TeImplementation) -> Self {
        TeRegisters {
            implementation,
            active: false,
            enable: false,
            inst_tracing: false,
            stall_or_overflow: false,
            sync_mode: RESET_SYNC_MODE,
            sync_max: RESET_SYNC_MAX,
            options: 0,
        }
    }

    /// The option bits of `trTeInstFeatures` this implementation lets software set.
    pub fn writable_options(&self) -> u32 {
        let mut bits = features::INST_NO_ADDR_DIFF.put(1)
            | features::INST_NO_TRAP_ADDR.put(1)
            | features::INST_EN_SEQUENTIAL_JUMP.put(1);
        if self.implementation.implicit_return {
            bits |= features::INST_EN_IMPLICIT_RETURN.put(1);
        }
        if self.implementation.branch_prediction {
            bits |= features::INST_EN_BRANCH_PREDICTION.put(1);
        }
        bits
    }

    /// The value read at byte `offset` of the window (the low two bits are ignored;
    /// offsets beyond the window wrap). `empty`: the output path holds no trace.
    pub fn read(&self, offset: u32, empty: bool) -> u32 {
        match (offset % map::WINDOW_BYTES) & !3 {
            map::TR_TE_CONTROL => {
                control::ACTIVE.put(self.active.into())
                    | control::ENABLE.put(self.enable.into())
                    | control::INST_TRACING.put(self.inst_tracing.into())
                    | control::EMPTY.put(empty.into())
                    | control::INST_MODE.put(ETRACE_INST_MODE)
                    | control::INST_STALL_OR_OVERFLOW.put(self.stall_or_overflow.into())
                    | control::INST_SYNC_MODE.put(self.sync_mode)
                    | control::INST_SYNC_MAX.put(self.sync_max)
            }
            map::TR_TE_IMPL => {
                implementation::VER_MAJOR.put(1)
                    | implementation::VER_MINOR.put(0)
                    | implementation::COMP_TYPE.put(1)
                    | implementation::PROTOCOL_MAJOR.put(0)
                    | implementation::PROTOCOL_MINOR.put(0)
            }
            map::TR_TE_INST_FEATURES => {
                self.options | features::SRC_BITS.put(self.implementation.src_bits)
            }
            _ => 0,
        }
    }

    /// One clock cycle of the register file: an optional write of `value` at byte
    /// `offset`, and `lost` (trace was lost in this cycle: `trTeInstStallOrOverflow` is
    /// set after the write, if the encoder was active before and after it).
    pub fn cycle(&mut self, write: Option<(u32, u32)>, lost: bool) {
        let was_active = self.active;
        if let Some((offset, value)) = write {
            self.write(offset, value);
        }
        if lost && was_active && self.active {
            self.stall_or_overflow = true;
        }
    }

    /// A write of `value` at byte `offset` (as [`TeRegisters::read`]).
    pub fn write(&mut self, offset: u32, value: u32) {
        match (offset % map::WINDOW_BYTES) & !3 {
            map::TR_TE_CONTROL => self.write_control(value),
            map::TR_TE_INST_FEATURES if self.active && !self.enable => {
                self.options = value & self.writable_options();
            }
            _ => {}
        }
    }

    fn write_control(&mut self, value: u32) {
        let active = control::ACTIVE.get(value) == 1;
        if !active {
            *self = TeRegisters::new(self.implementation);
            return;
        }
        if !self.active {
            self.active = true;
            return;
        }
        if !self.enable {
            let mode = control::INST_SYNC_MODE.get(value);
            if mode <= 1 {
                self.sync_mode = mode;
            }
            let max = control::INST_SYNC_MAX.get(value);
            self.sync_max = max.min(self.implementation.sync_max_limit);
        }
        let enable = control::ENABLE.get(value) == 1;
        if (enable && !self.enable) || control::INST_STALL_OR_OVERFLOW.get(value) == 1 {
            self.stall_or_overflow = false;
        }
        self.enable = enable;
        self.inst_tracing = control::INST_TRACING.get(value) == 1;
    }

    /// What the encoder's inputs see now.
    pub fn settings(&self) -> TeSettings {
        let option = |f: map::Field| f.get(self.options) == 1;
        TeSettings {
            active: self.active,
            trace_enable: self.active && self.enable && self.inst_tracing,
            full_address: option(features::INST_NO_ADDR_DIFF),
            implicit_exception: option(features::INST_NO_TRAP_ADDR),
            sijump: option(features::INST_EN_SEQUENTIAL_JUMP),
            implicit_return: option(features::INST_EN_IMPLICIT_RETURN),
            branch_prediction: option(features::INST_EN_BRANCH_PREDICTION),
            resync_max: if self.sync_mode == 1 {
                1 << (self.sync_max + 4)
            } else {
                0
            },
        }
    }
}

/// Why [`enable_writes`] cannot give settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnableError {
    /// The build has no predictor or no return stack for the option asked for.
    #[error("this encoder build does not implement the {0} option (trTeInstFeatures)")]
    NotImplemented(&'static str),
    /// The resync interval is not 0 or 2^(k + 4) packets with k up to the limit.
    #[error(
        "a resync every {packets} packets cannot be set through trTeInstSyncMax: \
         use 0 (off) or 2^(k+4) packets with k at most {limit}"
    )]
    SyncMax {
        /// The interval asked for.
        packets: u32,
        /// The implementation's `trTeInstSyncMax` limit.
        limit: u32,
    },
}

/// The register writes (byte offset, value) with which a debugger (or the boot code of
/// a SoC) takes the encoder out of reset and enables instruction trace with `want`'s
/// options and resync interval ("Reset and Discovery": `trTeActive` first, then the
/// options while `trTeEnable` is 0, then `trTeEnable` and `trTeInstTracing` with the
/// synchronisation fields). `want.active` and `want.trace_enable` are not read.
pub fn enable_writes(
    implementation: TeImplementation,
    want: &TeSettings,
) -> Result<[(u32, u32); 3], EnableError> {
    if want.branch_prediction && !implementation.branch_prediction {
        return Err(EnableError::NotImplemented("branch prediction"));
    }
    if want.implicit_return && !implementation.implicit_return {
        return Err(EnableError::NotImplemented("implicit return"));
    }
    let sync = match want.resync_max {
        0 => control::INST_SYNC_MODE.put(0),
        n => {
            let k = n.trailing_zeros().wrapping_sub(4);
            if !n.is_power_of_two() || n < 16 || k > implementation.sync_max_limit {
                return Err(EnableError::SyncMax {
                    packets: n,
                    limit: implementation.sync_max_limit,
                });
            }
            control::INST_SYNC_MODE.put(1) | control::INST_SYNC_MAX.put(k)
        }
    };
    let bit = |on: bool, f: map::Field| if on { f.put(1) } else { 0 };
    let options = bit(want.full_address, features::INST_NO_ADDR_DIFF)
        | bit(want.implicit_exception, features::INST_NO_TRAP_ADDR)
        | bit(want.sijump, features::INST_EN_SEQUENTIAL_JUMP)
        | bit(want.implicit_return, features::INST_EN_IMPLICIT_RETURN)
        | bit(want.branch_prediction, features::INST_EN_BRANCH_PREDICTION);
    let on = control::ACTIVE.put(1) | control::ENABLE.put(1) | control::INST_TRACING.put(1);
    Ok([
        (map::TR_TE_CONTROL, control::ACTIVE.put(1)),
        (map::TR_TE_INST_FEATURES, options),
        (map::TR_TE_CONTROL, on | sync),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use map::{TR_TE_CONTROL as CONTROL, TR_TE_INST_FEATURES as FEATURES};

    fn full() -> TeImplementation {
        TeImplementation {
            branch_prediction: true,
            implicit_return: true,
            src_bits: 8,
            ..TeImplementation::default()
        }
    }

    #[test]
    fn reset_and_discovery_sequence_of_the_control_interface() {
        let mut r = TeRegisters::new(full());
        // After power-up: inactive, disabled; E-Trace's hard-coded fields read.
        assert_eq!(r.read(CONTROL, true), 0x0041_0078);
        assert_eq!(r.read(map::TR_TE_IMPL, true), 0x0000_0101);
        // While inactive only trTeActive can be written.
        r.write(FEATURES, 0x1F);
        assert_eq!(r.read(FEATURES, true), 0x8000_0000);
        // Release from reset: write 0x1, read back trTeActive = 1; nothing else taken.
        r.write(CONTROL, 0x7);
        assert_eq!(r.read(CONTROL, true) & 0x7, 0x1);
        // Discovery of the option bits: write all ones, read back what is implemented.
        r.write(FEATURES, u32::MAX);
        assert_eq!(r.read(FEATURES, true), 0x8000_001F);
        let narrow = TeRegisters::new(TeImplementation::default());
        assert_eq!(narrow.writable_options(), 0x7);
        // trTeInstSyncMax is WARL: too large a value is written as the limit.
        r.write(CONTROL, 0x01F3_0001);
        assert_eq!(r.read(CONTROL, false), 0x00B1_0071);
        assert_eq!(r.settings().resync_max, 1 << 15);
        // Mode 3 (half-words) is not implemented: the previous mode stays.
        r.write(CONTROL, 0x0033_0001);
        assert_eq!(control::INST_SYNC_MODE.get(r.read(CONTROL, false)), 1);
        assert_eq!(control::INST_SYNC_MAX.get(r.read(CONTROL, false)), 3);
    }

    #[test]
    fn enabling_traces_and_locks_the_options() {
        let mut r = TeRegisters::new(full());
        r.write(CONTROL, 1);
        r.write(FEATURES, 0x14);
        r.write(CONTROL, 0x0000_0007);
        let s = r.settings();
        assert!(s.active && s.trace_enable && s.sijump && s.branch_prediction);
        assert!(!s.implicit_return && !s.full_address);
        assert_eq!(s.resync_max, 0, "the write set trTeInstSyncMode 0");
        // Options and sync fields stay while enabled.
        r.write(FEATURES, 0x1);
        r.write(CONTROL, 0x00F1_0007);
        assert_eq!(r.read(FEATURES, true) & 0xFF, 0x14);
        assert_eq!(r.settings().resync_max, 0);
        // trTeInstTracing alone turns trace off.
        r.write(CONTROL, 0x3);
        assert!(!r.settings().trace_enable);
        // trTeActive = 0 resets everything.
        r.write(CONTROL, 0);
        assert_eq!(r, TeRegisters::new(full()));
    }

    #[test]
    fn stall_or_overflow_is_set_by_loss_and_cleared_by_write_one_or_enable() {
        let mut r = TeRegisters::new(full());
        r.cycle(None, true);
        assert_eq!(r.read(CONTROL, true) & 0x1000, 0, "not set while inactive");
        r.write(CONTROL, 1);
        r.write(CONTROL, 0x7);
        r.cycle(None, true);
        assert_ne!(r.read(CONTROL, true) & 0x1000, 0);
        r.cycle(Some((CONTROL, 0x7)), false);
        assert_ne!(r.read(CONTROL, true) & 0x1000, 0, "a write of 0 keeps it");
        r.cycle(Some((CONTROL, 0x1007)), false);
        assert_eq!(r.read(CONTROL, true) & 0x1000, 0, "write 1 to clear");
        r.cycle(Some((CONTROL, 0x1)), true);
        r.cycle(Some((CONTROL, 0x3)), false);
        assert_eq!(
            r.read(CONTROL, true) & 0x1000,
            0,
            "cleared when trTeEnable rises"
        );
        r.cycle(Some((CONTROL, 0x1003)), true);
        assert_ne!(
            r.read(CONTROL, true) & 0x1000,
            0,
            "loss in the cycle of the clear wins"
        );
    }

    #[test]
    fn enable_writes_give_the_settings_asked_for() {
        for resync_max in [0, 16, 256, 1 << 15] {
            let want = TeSettings {
                active: true,
                trace_enable: true,
                full_address: resync_max == 16,
                sijump: true,
                branch_prediction: resync_max == 0,
                resync_max,
                ..TeSettings::default()
            };
            let mut r = TeRegisters::new(full());
            for (offset, value) in enable_writes(full(), &want).unwrap() {
                r.write(offset, value);
            }
            assert_eq!(r.settings(), want);
        }
        let narrow = TeImplementation::default();
        let bp = TeSettings {
            branch_prediction: true,
            ..TeSettings::default()
        };
        assert_eq!(
            enable_writes(narrow, &bp),
            Err(EnableError::NotImplemented("branch prediction"))
        );
        for packets in [8, 100, 1 << 16] {
            let want = TeSettings {
                resync_max: packets,
                ..TeSettings::default()
            };
            assert!(matches!(
                enable_writes(narrow, &want),
                Err(EnableError::SyncMax { .. })
            ));
        }
    }
}
