//! The register file of the encoder's control interface (Trace Control Interface 1.0,
//! "Trace Encoder Control Interface", "Reset and Discovery"; E-Trace 2.0 `control.adoc`;
//! N-Trace 1.0 "N-Trace Specific Trace Controls"): the golden model the hardware block is
//! checked against, and the device the hart model maps for software that drives the
//! encoder.
//!
//! A build encodes one protocol ([`TeProtocol`]): E-Trace (the default) or N-Trace with
//! BTM, HTM or both. What this encoder implements (every other field reads 0 and ignores
//! writes):
//!
//! * `trTeControl`: `trTeActive`, `trTeEnable`, `trTeInstTracing` (read / write),
//!   `trTeEmpty` (read only, the output path is empty), `trTeInstStallOrOverflow` (set when
//!   trace is lost, write 1 to clear, cleared when `trTeEnable` rises), `trTeInstSyncMode`
//!   0 (off) or 1 (count te_inst packets; 2 and 3 are not implemented: a write of them
//!   keeps the previous mode), `trTeInstSyncMax` 0..[`TeImplementation::sync_max_limit`]
//!   (larger values are written as the limit); `trTeContext` reads 0. E-Trace:
//!   `trTeInstMode` reads 7 (`control.adoc`, `sec:ctl-modes`) and `trTeFormat` 0. N-Trace:
//!   `trTeInstMode` is WARL, 3 (BTM) and / or 6 (HTM) as the build has them, any other
//!   value keeps the mode ("N-Trace Specific Trace Controls", `trTeInstMode`); `trTeFormat`
//!   reads 1.
//! * `trTeImpl`: version 1.0, component type 1, protocol 0.0 for E-Trace (`control.adoc`,
//!   `sec:ctl-basic`), 1.0 for N-Trace (`trTeProtocolMajor`, `trTeProtocolMinor`).
//! * `trTeInstFeatures`: `trTeInstNoAddrDiff` (`full_address`), `trTeInstNoTrapAddr`
//!   (`implicit_exception`), `trTeInstEnSequentialJump` (`sijump`), and, where the build
//!   has them, `trTeInstEnImplicitReturn` and `trTeInstEnBranchPrediction`; `trTeSrcBits`
//!   reads the build's source field width, `trTeSrcID` reads 0 (the source field the
//!   framer writes). N-Trace: `trTeInstNoAddrDiff`, `trTeInstNoTrapAddr`,
//!   `trTeInstEnBranchPrediction` (and `trTeInstEnJumpTargetCache`) are "Not applicable,
//!   must be hard coded as 0".
//!
//! Sequencing ("Reset and Discovery"): while `trTeActive` is 0 the encoder is held in
//! reset, every other field is at its reset value and only `trTeActive` can be written;
//! the write that sets it takes nothing else. The options, the synchronisation fields and
//! `trTeInstMode` only change while `trTeEnable` is 0 (the write that sets `trTeEnable`
//! still takes them), so that they are stable while trace is enabled.

use super::map::{self, control, features, implementation};

/// The instruction trace modes of an N-Trace build (N-Trace 1.0 "Main N-Trace Trace
/// Modes": at least one of BTM and HTM; `trTeInstMode` 3 and 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NtraceModes {
    /// Branch Trace Messaging only (`trTeInstMode` 3).
    Btm,
    /// History Trace Messaging only (`trTeInstMode` 6).
    Htm,
    /// Both; BTM after reset.
    BtmAndHtm,
}

/// The trace protocol a build encodes, as `trTeFormat`, `trTeProtocolMajor` /
/// `trTeProtocolMinor` and `trTeInstMode` report it (Trace Control Interface 1.0,
/// "Register: trTeControl", "Register: trTeImpl"; E-Trace 2.0 `control.adoc`; N-Trace 1.0
/// "N-Trace Specific Trace Controls").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TeProtocol {
    /// E-Trace 2.0: `trTeFormat` 0, protocol 0.0, `trTeInstMode` hard-coded 7.
    #[default]
    ETrace,
    /// N-Trace 1.0: `trTeFormat` 1, protocol 1.0, `trTeInstMode` 3 / 6 as the modes.
    NTrace(NtraceModes),
}

/// `trTeInstMode` 3: baseline instruction trace, N-Trace BTM (Trace Control Interface
/// 1.0 "Register: trTeControl"; N-Trace 1.0 "N-Trace Specific Trace Controls").
pub const INST_MODE_BTM: u32 = 3;
/// `trTeInstMode` 6: optimized instruction trace, N-Trace HTM (as [`INST_MODE_BTM`]).
pub const INST_MODE_HTM: u32 = 6;

impl TeProtocol {
    /// `trTeFormat`: 0 E-Trace, 1 N-Trace ("Register: trTeControl").
    pub const fn format(self) -> u32 {
        match self {
            TeProtocol::ETrace => 0,
            TeProtocol::NTrace(_) => 1,
        }
    }

    /// `trTeProtocolMajor` and `trTeProtocolMinor` ("Register: trTeImpl"): E-Trace 2.0.x
    /// 0.0 (`control.adoc`, `sec:ctl-basic`), N-Trace 1.0 1.0 ("N-Trace Specific Trace
    /// Controls").
    pub const fn version(self) -> (u32, u32) {
        match self {
            TeProtocol::ETrace => (0, 0),
            TeProtocol::NTrace(_) => (1, 0),
        }
    }

    /// Whether `trTeInstMode` = `mode` is implemented: E-Trace only 7 (hard-coded,
    /// `control.adoc` `sec:ctl-modes`); N-Trace 3 (BTM) and / or 6 (HTM).
    pub const fn implements_mode(self, mode: u32) -> bool {
        match self {
            TeProtocol::ETrace => mode == ETRACE_INST_MODE,
            TeProtocol::NTrace(modes) => matches!(
                (modes, mode),
                (NtraceModes::Btm | NtraceModes::BtmAndHtm, INST_MODE_BTM)
                    | (NtraceModes::Htm | NtraceModes::BtmAndHtm, INST_MODE_HTM)
            ),
        }
    }

    /// The protocol and modes as the error messages name them.
    pub const fn name(self) -> &'static str {
        match self {
            TeProtocol::ETrace => "E-Trace",
            TeProtocol::NTrace(NtraceModes::Btm) => "N-Trace BTM",
            TeProtocol::NTrace(NtraceModes::Htm) => "N-Trace HTM",
            TeProtocol::NTrace(NtraceModes::BtmAndHtm) => "N-Trace BTM and HTM",
        }
    }

    /// `trTeInstMode` after reset: E-Trace 7; N-Trace 3 (BTM) unless the build has HTM
    /// only, then 6.
    pub const fn reset_mode(self) -> u32 {
        match self {
            TeProtocol::ETrace => ETRACE_INST_MODE,
            TeProtocol::NTrace(NtraceModes::Htm) => INST_MODE_HTM,
            TeProtocol::NTrace(_) => INST_MODE_BTM,
        }
    }

    /// The `trTeInstFeatures` option bits the protocol allows at all: N-Trace hard-codes
    /// `trTeInstNoAddrDiff`, `trTeInstNoTrapAddr` and `trTeInstEnBranchPrediction` to 0
    /// ("N-Trace Specific Trace Controls": "Not applicable"); E-Trace allows all five
    /// (`control.adoc`, `sec:ctl-modes`).
    pub const fn applicable_options(self) -> u32 {
        let all = features::INST_NO_ADDR_DIFF.put(1)
            | features::INST_NO_TRAP_ADDR.put(1)
            | features::INST_EN_SEQUENTIAL_JUMP.put(1)
            | features::INST_EN_IMPLICIT_RETURN.put(1)
            | features::INST_EN_BRANCH_PREDICTION.put(1);
        match self {
            TeProtocol::ETrace => all,
            TeProtocol::NTrace(_) => {
                all & !(features::INST_NO_ADDR_DIFF.put(1)
                    | features::INST_NO_TRAP_ADDR.put(1)
                    | features::INST_EN_BRANCH_PREDICTION.put(1))
            }
        }
    }
}

/// What a build of the encoder implements, as the registers report it (Trace Control
/// Interface 1.0, "Trace Encoder Control Interface").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeImplementation {
    /// The protocol and, for N-Trace, its instruction trace modes (`trTeFormat`,
    /// `trTeImpl`, `trTeInstMode`).
    pub protocol: TeProtocol,
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
    /// E-Trace; no predictor, no return stack, no source field; a 16-bit resync counter
    /// (limit 11).
    fn default() -> Self {
        TeImplementation {
            protocol: TeProtocol::ETrace,
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
    /// N-Trace: `trTeInstMode` is 6, History Trace Messaging (N-Trace 1.0 "N-Trace
    /// Specific Trace Controls"; else BTM). Always false for E-Trace.
    pub htm: bool,
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
    /// `trTeInstMode` (E-Trace: 7).
    inst_mode: u32,
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
            inst_mode: implementation.protocol.reset_mode(),
            options: 0,
        }
    }

    /// The option bits of `trTeInstFeatures` this implementation lets software set
    /// ("Register: trTeInstFeatures"; N-Trace's hard-coded 0 bits:
    /// [`TeProtocol::applicable_options`]).
    pub fn writable_options(&self) -> u32 {
        let mut bits = self.implementation.protocol.applicable_options();
        if !self.implementation.implicit_return {
            bits &= !features::INST_EN_IMPLICIT_RETURN.put(1);
        }
        if !self.implementation.branch_prediction {
            bits &= !features::INST_EN_BRANCH_PREDICTION.put(1);
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
                    | control::INST_MODE.put(self.inst_mode)
                    | control::FORMAT.put(self.implementation.protocol.format())
                    | control::INST_STALL_OR_OVERFLOW.put(self.stall_or_overflow.into())
                    | control::INST_SYNC_MODE.put(self.sync_mode)
                    | control::INST_SYNC_MAX.put(self.sync_max)
            }
            map::TR_TE_IMPL => {
                let (major, minor) = self.implementation.protocol.version();
                implementation::VER_MAJOR.put(1)
                    | implementation::VER_MINOR.put(0)
                    | implementation::COMP_TYPE.put(1)
                    | implementation::PROTOCOL_MAJOR.put(major)
                    | implementation::PROTOCOL_MINOR.put(minor)
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
            // trTeInstMode is WARL: a mode the build does not implement (0 included)
            // keeps the previous one ("Register: trTeControl").
            let inst_mode = control::INST_MODE.get(value);
            if self.implementation.protocol.implements_mode(inst_mode) {
                self.inst_mode = inst_mode;
            }
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
            htm: self.inst_mode == INST_MODE_HTM,
        }
    }
}

/// Why [`enable_writes`] cannot give settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnableError {
    /// The build has no predictor or no return stack for the option asked for, or its
    /// protocol hard-codes the option's bit to 0 (N-Trace 1.0 "N-Trace Specific Trace
    /// Controls").
    #[error("this encoder build does not implement the {0} option (trTeInstFeatures)")]
    NotImplemented(&'static str),
    /// The build does not implement the `trTeInstMode` asked for ([`TeSettings::htm`]).
    #[error(
        "this encoder build does not implement trTeInstMode {mode} ({name}; it encodes {protocol})"
    )]
    ModeNotImplemented {
        /// The mode asked for.
        mode: u32,
        /// Its name (BTM, HTM).
        name: &'static str,
        /// The build's protocol and modes.
        protocol: &'static str,
    },
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
/// options, resync interval and (N-Trace) mode ("Reset and Discovery": `trTeActive`
/// first, then the options while `trTeEnable` is 0, then `trTeEnable` and
/// `trTeInstTracing` with the synchronisation fields and `trTeInstMode`; "Enabling and
/// Disabling"). `want.active` and `want.trace_enable` are not read. An option or mode
/// the build does not implement is an error ([`EnableError`]), as the registers would
/// silently keep another value. E-Trace builds write no `trTeInstMode` (hard-coded 7).
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
    let protocol = implementation.protocol;
    let inst_mode = match protocol {
        TeProtocol::ETrace if want.htm => {
            return Err(EnableError::ModeNotImplemented {
                mode: INST_MODE_HTM,
                name: "HTM",
                protocol: protocol.name(),
            })
        }
        TeProtocol::ETrace => 0,
        TeProtocol::NTrace(_) => {
            let (mode, name) = if want.htm {
                (INST_MODE_HTM, "HTM")
            } else {
                (INST_MODE_BTM, "BTM")
            };
            if !protocol.implements_mode(mode) {
                return Err(EnableError::ModeNotImplemented {
                    mode,
                    name,
                    protocol: protocol.name(),
                });
            }
            control::INST_MODE.put(mode)
        }
    };
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
    let applicable = protocol.applicable_options();
    let mut options = 0;
    for (on, field, name) in [
        (
            want.full_address,
            features::INST_NO_ADDR_DIFF,
            "full address",
        ),
        (
            want.implicit_exception,
            features::INST_NO_TRAP_ADDR,
            "implicit exception",
        ),
        (want.sijump, features::INST_EN_SEQUENTIAL_JUMP, "sijump"),
        (
            want.implicit_return,
            features::INST_EN_IMPLICIT_RETURN,
            "implicit return",
        ),
        (
            want.branch_prediction,
            features::INST_EN_BRANCH_PREDICTION,
            "branch prediction",
        ),
    ] {
        if on {
            if applicable & field.put(1) == 0 {
                return Err(EnableError::NotImplemented(name));
            }
            options |= field.put(1);
        }
    }
    let on = control::ACTIVE.put(1) | control::ENABLE.put(1) | control::INST_TRACING.put(1);
    Ok([
        (map::TR_TE_CONTROL, control::ACTIVE.put(1)),
        (map::TR_TE_INST_FEATURES, options),
        (map::TR_TE_CONTROL, on | sync | inst_mode),
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
    /// The four kinds of build: E-Trace and N-Trace with BTM, HTM or both; full options.
    fn builds() -> [TeImplementation; 4] {
        [
            TeProtocol::ETrace,
            TeProtocol::NTrace(NtraceModes::Btm),
            TeProtocol::NTrace(NtraceModes::Htm),
            TeProtocol::NTrace(NtraceModes::BtmAndHtm),
        ]
        .map(|protocol| TeImplementation { protocol, ..full() })
    }

    fn ntrace(modes: NtraceModes) -> TeImplementation {
        TeImplementation {
            protocol: TeProtocol::NTrace(modes),
            ..full()
        }
    }

    /// Trace Control Interface 1.0 "Register: trTeImpl" (`trTeProtocolMajor`,
    /// `trTeProtocolMinor`) and "Register: trTeControl" (`trTeFormat`), with E-Trace 2.0
    /// `control.adoc` `sec:ctl-basic` and N-Trace 1.0 "N-Trace Specific Trace Controls":
    /// the read-only fields report the build's protocol; writes do not change them.
    #[test]
    fn register_trteimpl_and_trteformat_report_the_protocol() {
        use NtraceModes::*;
        // (protocol, trTeImpl, trTeFormat)
        let table = [
            (TeProtocol::ETrace, 0x0000_0101, 0),
            (TeProtocol::NTrace(Btm), 0x0001_0101, 1),
            (TeProtocol::NTrace(Htm), 0x0001_0101, 1),
            (TeProtocol::NTrace(BtmAndHtm), 0x0001_0101, 1),
        ];
        for (protocol, impl_word, format) in table {
            let implementation = TeImplementation { protocol, ..full() };
            let mut r = TeRegisters::new(implementation);
            for write in [None, Some(0x1), Some(!0x2), Some(0x0101_0001)] {
                if let Some(value) = write {
                    r.write(CONTROL, value);
                    r.write(map::TR_TE_IMPL, value);
                }
                assert_eq!(r.read(map::TR_TE_IMPL, true), impl_word, "{protocol:?}");
                let control = r.read(CONTROL, true);
                assert_eq!(control::FORMAT.get(control), format, "{protocol:?}");
            }
        }
    }

    /// Trace Control Interface 1.0 "Register: trTeControl", `trTeInstMode` (WARL; "When
    /// non-supported mode (different than 0) is set, it cannot revert to 0 but MUST revert
    /// to supported non-0 mode"), E-Trace 2.0 `control.adoc` `sec:ctl-modes` (hard-coded
    /// 7) and N-Trace 1.0 "N-Trace Specific Trace Controls" (3 BTM, 6 HTM): the reset mode,
    /// then each write of every mode while `trTeEnable` is 0 (the read-back after it),
    /// then writes while enabled (ignored) and the reset by `trTeActive` = 0.
    #[test]
    fn register_trtecontrol_trteinstmode_is_warl() {
        use NtraceModes::*;
        // (protocol, reset mode, the mode read after a write of 0..=7 at reset mode)
        let table = [
            (TeProtocol::ETrace, 7, [7, 7, 7, 7, 7, 7, 7, 7]),
            (TeProtocol::NTrace(Btm), 3, [3, 3, 3, 3, 3, 3, 3, 3]),
            (TeProtocol::NTrace(Htm), 6, [6, 6, 6, 6, 6, 6, 6, 6]),
            (TeProtocol::NTrace(BtmAndHtm), 3, [3, 3, 3, 3, 3, 3, 6, 3]),
        ];
        let mode = |r: &TeRegisters| control::INST_MODE.get(r.read(CONTROL, true));
        for (protocol, reset_mode, after) in table {
            let implementation = TeImplementation { protocol, ..full() };
            let mut r = TeRegisters::new(implementation);
            assert_eq!(mode(&r), reset_mode, "{protocol:?} at power-up");
            r.write(CONTROL, 0x1 | control::INST_MODE.put(6));
            assert_eq!(
                mode(&r),
                reset_mode,
                "{protocol:?}: the write of trTeActive"
            );
            for (written, &want) in after.iter().enumerate() {
                let mut r = r.clone();
                r.write(CONTROL, 0x1 | control::INST_MODE.put(written as u32));
                assert_eq!(mode(&r), want, "{protocol:?}: write {written}");
                assert_eq!(r.settings().htm, want == 6, "{protocol:?}: htm");
                // The write that sets trTeEnable still takes the mode; later writes
                // while enabled do not.
                let mut e = r.clone();
                e.write(CONTROL, 0x7 | control::INST_MODE.put(reset_mode));
                assert_eq!(mode(&e), reset_mode, "{protocol:?}: enabling write");
                for other in 0..8 {
                    e.write(CONTROL, 0x7 | control::INST_MODE.put(other));
                    assert_eq!(mode(&e), reset_mode, "{protocol:?}: {other} while enabled");
                }
                // The write that clears trTeEnable does not take it (trTeEnable was 1);
                // the next one does.
                e.write(CONTROL, 0x1 | control::INST_MODE.put(written as u32));
                assert_eq!(mode(&e), reset_mode, "{protocol:?}: disabling write");
                e.write(CONTROL, 0x1 | control::INST_MODE.put(written as u32));
                assert_eq!(mode(&e), want, "{protocol:?}: after disabling");
                e.write(CONTROL, 0);
                assert_eq!(mode(&e), reset_mode, "{protocol:?}: trTeActive = 0 resets");
            }
        }
    }

    /// N-Trace 1.0 "N-Trace Specific Trace Controls": `trTeInstNoAddrDiff`,
    /// `trTeInstNoTrapAddr`, `trTeInstEnBranchPrediction` and
    /// `trTeInstEnJumpTargetCache` are "Not applicable, must be hard coded as 0";
    /// `trTeInstEnSequentialJump` and `trTeInstEnImplicitReturn` are optional. E-Trace
    /// 2.0 `control.adoc` `sec:ctl-modes`: the five options are optional.
    #[test]
    fn n_trace_specific_trace_controls_hard_code_etrace_only_features() {
        // (build, what reads back after a write of all ones to trTeInstFeatures)
        let narrow = |protocol| TeImplementation {
            protocol,
            ..TeImplementation::default()
        };
        let table = [
            (full(), 0x8000_001F),
            (narrow(TeProtocol::ETrace), 0x0000_0007),
            (ntrace(NtraceModes::Btm), 0x8000_000C),
            (ntrace(NtraceModes::Htm), 0x8000_000C),
            (ntrace(NtraceModes::BtmAndHtm), 0x8000_000C),
            (narrow(TeProtocol::NTrace(NtraceModes::Htm)), 0x0000_0004),
        ];
        for (implementation, read) in table {
            let mut r = TeRegisters::new(implementation);
            r.write(CONTROL, 1);
            r.write(FEATURES, u32::MAX);
            assert_eq!(r.read(FEATURES, true), read, "{implementation:?}");
            // Each bit alone: taken if and only if it reads back from all ones.
            for bit in 0..16 {
                r.write(FEATURES, 1 << bit);
                assert_eq!(
                    r.read(FEATURES, true) & 0xFFFF,
                    (1 << bit) & read,
                    "{implementation:?}: bit {bit}"
                );
            }
            r.write(FEATURES, u32::MAX);
            let s = r.settings();
            assert_eq!(s.full_address, read & 1 != 0);
            assert_eq!(s.implicit_exception, read & 2 != 0);
            assert_eq!(s.branch_prediction, read & 0x10 != 0);
        }
    }

    /// "Reset and Discovery" and "Enabling and Disabling" for every build: the writes of
    /// [`enable_writes`] give the settings asked for, or an error (never a panic) for a
    /// mode or an option the build does not implement.
    #[test]
    fn enabling_and_disabling_every_build_and_mode() {
        for implementation in builds() {
            let protocol = implementation.protocol;
            for bits in 0..(1u32 << 6) {
                let want = TeSettings {
                    active: true,
                    trace_enable: true,
                    full_address: bits & 1 != 0,
                    implicit_exception: bits & 2 != 0,
                    sijump: bits & 4 != 0,
                    implicit_return: bits & 8 != 0,
                    branch_prediction: bits & 16 != 0,
                    resync_max: 256,
                    htm: bits & 32 != 0,
                };
                let mode = if want.htm {
                    INST_MODE_HTM
                } else {
                    INST_MODE_BTM
                };
                let mode_ok = match protocol {
                    TeProtocol::ETrace => !want.htm,
                    TeProtocol::NTrace(_) => protocol.implements_mode(mode),
                };
                let options_ok = matches!(protocol, TeProtocol::ETrace)
                    || !(want.full_address || want.implicit_exception || want.branch_prediction);
                match enable_writes(implementation, &want) {
                    Ok(writes) => {
                        assert!(mode_ok && options_ok, "{protocol:?} {want:?}");
                        let mut r = TeRegisters::new(implementation);
                        for (offset, value) in writes {
                            r.write(offset, value);
                        }
                        assert_eq!(r.settings(), want, "{protocol:?}");
                    }
                    Err(EnableError::ModeNotImplemented { mode: m, .. }) => {
                        assert!(!mode_ok, "{protocol:?} {want:?}");
                        assert_eq!(m, mode);
                    }
                    Err(EnableError::NotImplemented(_)) => {
                        assert!(mode_ok && !options_ok, "{protocol:?} {want:?}")
                    }
                    Err(e) => panic!("{protocol:?} {want:?}: {e}"),
                }
            }
        }
        let htm = TeSettings {
            htm: true,
            ..TeSettings::default()
        };
        let e = enable_writes(ntrace(NtraceModes::Btm), &htm).unwrap_err();
        assert_eq!(
            e.to_string(),
            "this encoder build does not implement trTeInstMode 6 (HTM; it encodes N-Trace BTM)"
        );
        // E-Trace writes no trTeInstMode: the writes are those of before N-Trace.
        assert_eq!(
            enable_writes(full(), &TeSettings::default()).unwrap(),
            [(CONTROL, 1), (FEATURES, 0), (CONTROL, 7)]
        );
    }
}
