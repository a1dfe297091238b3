//! The encoder builds this crate compiles with Verilator (`hdl/src/top.rs`, [`generate`]):
//! one named [`Variant`] per configuration and [`TopOptions`]; the SoCs ([`SocVariant`]) and
//! the N-Trace encoders ([`NtraceVariant`], `etrace_hdl::ntrace::top`).
//!
//! This file is also compiled into the build script (`build.rs`), which generates and
//! verilates the Verilog of every variant, so it depends on nothing but `etrace-hdl` and
//! `etrace-spec`.
//!
//! [`generate`]: etrace_hdl::top::generate

use std::fmt;
use std::str::FromStr;

use etrace_hdl::config::Config;
use etrace_hdl::encoder_core::Fault;
use etrace_hdl::ntrace::{NtraceFifoConfig, NtraceHwOptions, NtraceTopOptions};
use etrace_hdl::top::{OutputKind, TopOptions};
use etrace_spec::params::Params;

use crate::pythondata::CorePackage;

/// One verilated encoder build (`hdl/DESIGN.md`, "Configurations"; `hdl/src/top.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `rv32`, encap byte stream of `etrace encode --framing encap` (no srcID, no
    /// timestamp, 64-byte FIFO).
    Rv32,
    /// `rv64`, byte stream as [`Variant::Rv32`].
    Rv64,
    /// `rv32-itype3`, byte stream as [`Variant::Rv32`].
    Rv32Itype3,
    /// `rv64-itype3`, byte stream as [`Variant::Rv32`].
    Rv64Itype3,
    /// `rv32`, byte stream with a 4-bit srcID and the 2-byte timestamp, 16-byte FIFO.
    Rv32Ts,
    /// `rv32`, UltraSoC (smi) byte stream of `etrace encode --framing smi`: no index, no
    /// timestamp (the reference flow's `te_inst_raw` format), 64-byte FIFO.
    Rv32Smi,
    /// `rv32`, smi byte stream with an 8-bit index and the 16-bit timestamp, 16-byte FIFO.
    Rv32SmiTs,
    /// `rv32` with the ATB output, 32-bit ATDATA.
    Rv32Atb,
    /// `rv64` with the ATB output, 128-bit ATDATA.
    Rv64Atb16,
    /// [`Variant::Rv32`] with the deliberate fault (`TopOptions::inject_fault`: bit 0 of
    /// every packed branch map flipped).
    Rv32Fault,
    /// `rv32` with a branch predictor of 64 entries (`bpred_size_p` 6), encap byte stream
    /// as [`Variant::Rv32`].
    Rv32Bp,
    /// `rv32` with every option: smi byte stream with an 8-bit index and the 16-bit
    /// timestamp, 16-byte FIFO, a branch predictor of 64 entries, a return stack of 4
    /// entries.
    Rv32All,
    /// [`Variant::Rv32Bp`] with the deliberate fault of the predictor (every prediction
    /// inverted).
    Rv32BpFault,
    /// `rv32` with a return stack of 4 entries (`return_stack_size_p` 2), encap byte
    /// stream as [`Variant::Rv32`].
    Rv32Ir,
    /// [`Variant::Rv32Ir`] with the deliberate fault of the return stack (every pushed
    /// address with its bit 1 inverted).
    Rv32IrFault,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 15] = [
        Variant::Rv32,
        Variant::Rv64,
        Variant::Rv32Itype3,
        Variant::Rv64Itype3,
        Variant::Rv32Ts,
        Variant::Rv32Smi,
        Variant::Rv32SmiTs,
        Variant::Rv32Atb,
        Variant::Rv64Atb16,
        Variant::Rv32Fault,
        Variant::Rv32Bp,
        Variant::Rv32All,
        Variant::Rv32BpFault,
        Variant::Rv32Ir,
        Variant::Rv32IrFault,
    ];

    /// Every variant (as [`Variant::ALL`]).
    pub fn all() -> &'static [Variant] {
        &Variant::ALL
    }

    /// The name: also the Verilator `--prefix` (`V<name>`) and the C symbol prefix.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Rv32 => "rv32",
            Variant::Rv64 => "rv64",
            Variant::Rv32Itype3 => "rv32_itype3",
            Variant::Rv64Itype3 => "rv64_itype3",
            Variant::Rv32Ts => "rv32_ts",
            Variant::Rv32Smi => "rv32_smi",
            Variant::Rv32SmiTs => "rv32_smi_ts",
            Variant::Rv32Atb => "rv32_atb",
            Variant::Rv64Atb16 => "rv64_atb16",
            Variant::Rv32Fault => "rv32_fault",
            Variant::Rv32Bp => "rv32_bp",
            Variant::Rv32All => "rv32_all",
            Variant::Rv32BpFault => "rv32_bp_fault",
            Variant::Rv32Ir => "rv32_ir",
            Variant::Rv32IrFault => "rv32_ir_fault",
        }
    }

    /// The hardware configuration (`hdl/DESIGN.md`, "Configurations").
    pub fn config(self) -> Config {
        match self {
            Variant::Rv32
            | Variant::Rv32Ts
            | Variant::Rv32Smi
            | Variant::Rv32SmiTs
            | Variant::Rv32Atb
            | Variant::Rv32Fault
            | Variant::Rv32Bp
            | Variant::Rv32All
            | Variant::Rv32BpFault
            | Variant::Rv32Ir
            | Variant::Rv32IrFault => Config::Rv32,
            Variant::Rv64 | Variant::Rv64Atb16 => Config::Rv64,
            Variant::Rv32Itype3 => Config::Rv32Itype3,
            Variant::Rv64Itype3 => Config::Rv64Itype3,
        }
    }

    /// The build-time options given to `etrace_hdl::top::generate`.
    pub fn top_options(self) -> TopOptions {
        let bytes = TopOptions::default();
        match self {
            Variant::Rv32 | Variant::Rv64 | Variant::Rv32Itype3 | Variant::Rv64Itype3 => bytes,
            Variant::Rv32Ts => TopOptions {
                src_bits: 4,
                timestamp: true,
                fifo_depth: 16,
                ..bytes
            },
            Variant::Rv32Smi => TopOptions {
                output: OutputKind::Smi,
                ..bytes
            },
            Variant::Rv32SmiTs => TopOptions {
                src_bits: 8,
                timestamp: true,
                fifo_depth: 16,
                output: OutputKind::Smi,
                ..bytes
            },
            Variant::Rv32Atb => TopOptions {
                output: OutputKind::Atb { data_bytes: 4 },
                ..bytes
            },
            Variant::Rv64Atb16 => TopOptions {
                output: OutputKind::Atb { data_bytes: 16 },
                ..bytes
            },
            Variant::Rv32Fault => TopOptions {
                inject_fault: Some(Fault::BranchMap),
                ..bytes
            },
            Variant::Rv32Bp => TopOptions {
                bpred_size: 6,
                ..bytes
            },
            Variant::Rv32All => TopOptions {
                src_bits: 8,
                timestamp: true,
                fifo_depth: 16,
                output: OutputKind::Smi,
                bpred_size: 6,
                return_stack_size: 2,
                ..bytes
            },
            Variant::Rv32BpFault => TopOptions {
                bpred_size: 6,
                inject_fault: Some(Fault::Predictor),
                ..bytes
            },
            Variant::Rv32Ir => TopOptions {
                return_stack_size: 2,
                ..bytes
            },
            Variant::Rv32IrFault => TopOptions {
                return_stack_size: 2,
                inject_fault: Some(Fault::ReturnStack),
                ..bytes
            },
        }
    }

    /// The `discovery.adoc` parameters of the build (`TopOptions::params`).
    pub fn params(self) -> Params {
        self.top_options().params(self.config())
    }

    /// Whether the output is the ATB port (ATVALID / ATDATA / ATBYTES / ATID) rather than the
    /// byte stream.
    pub fn is_atb(self) -> bool {
        matches!(self.top_options().output, OutputKind::Atb { .. })
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`Variant::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown RTL variant `{}` (expected one of", self.0)?;
        for (i, v) in Variant::ALL.iter().enumerate() {
            write!(f, "{}{}", if i == 0 { " " } else { ", " }, v.name())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// The variant of a [`Variant::name`].
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// One verilated SoC build (`etrace_hdl::rvfi::soc`): a core, its RVFI front end and the
/// `rv32` encoder (with a branch predictor and a return stack in
/// [`SocVariant::PicoRv32BpIr`] and [`SocVariant::ServBpIr`], and an 8-bit srcID and
/// timestamps besides in [`SocVariant::PicoRv32All`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SocVariant {
    /// The SoC as a user builds it.
    PicoRv32,
    /// Test only: the front end with the branch `itype`s swapped
    /// (`FrontEndOptions::swap_branch_itypes`), the wrong front end the lock-step
    /// co-simulation must catch.
    PicoRv32Swapped,
    /// SERV (`etrace_hdl::rvfi::serv_soc`).
    Serv,
    /// PicoRV32 with an encoder that has a branch predictor of 64 entries and a return
    /// stack of 4 (`bpred_size_p` 6, `return_stack_size_p` 2: the sizes of the
    /// all-options build), which its trace control registers offer.
    PicoRv32BpIr,
    /// SERV with the encoder of [`SocVariant::PicoRv32BpIr`].
    ServBpIr,
    /// PicoRV32 with the encoder of [`SocVariant::PicoRv32BpIr`] that also sends an 8-bit
    /// encap `srcID` (0) and 2-byte timestamps: every generation option the SoC's encap
    /// encoder takes, at the sizes of the all-options build.
    PicoRv32All,
}

impl SocVariant {
    /// Every SoC build.
    pub const ALL: [SocVariant; 6] = [
        SocVariant::PicoRv32,
        SocVariant::PicoRv32Swapped,
        SocVariant::Serv,
        SocVariant::PicoRv32BpIr,
        SocVariant::ServBpIr,
        SocVariant::PicoRv32All,
    ];

    /// The name: the Verilator `--prefix` (`V<name>`) and the C symbol prefix.
    pub fn name(self) -> &'static str {
        match self {
            SocVariant::PicoRv32 => "picorv32",
            SocVariant::PicoRv32Swapped => "picorv32_swapped",
            SocVariant::Serv => "serv",
            SocVariant::PicoRv32BpIr => "picorv32_bp_ir",
            SocVariant::ServBpIr => "serv_bp_ir",
            SocVariant::PicoRv32All => "picorv32_all",
        }
    }

    /// The core's name on the command line (`--core`).
    pub fn core_name(self) -> &'static str {
        match self {
            SocVariant::PicoRv32 | SocVariant::PicoRv32BpIr | SocVariant::PicoRv32All => "picorv32",
            SocVariant::PicoRv32Swapped => "picorv32-swapped",
            SocVariant::Serv | SocVariant::ServBpIr => "serv",
        }
    }

    /// The encoder's generation options.
    pub fn encoder(self) -> etrace_hdl::rvfi::soc::SocEncoderOptions {
        let sizes = |bpred_size, return_stack_size| etrace_hdl::rvfi::soc::SocEncoderOptions {
            bpred_size,
            return_stack_size,
            ..Default::default()
        };
        match self {
            SocVariant::PicoRv32BpIr | SocVariant::ServBpIr => sizes(6, 2),
            SocVariant::PicoRv32All => etrace_hdl::rvfi::soc::SocEncoderOptions {
                src_bits: 8,
                timestamp: true,
                ..sizes(6, 2)
            },
            _ => sizes(0, 0),
        }
    }

    /// The SoC build of the core `core_name` ([`SocVariant::core_name`]) with an encoder
    /// built with `encoder`, if there is one.
    pub fn find(
        core_name: &str,
        encoder: etrace_hdl::rvfi::soc::SocEncoderOptions,
    ) -> Option<SocVariant> {
        SocVariant::ALL
            .into_iter()
            .find(|v| v.core_name() == core_name && v.encoder() == encoder)
    }

    /// The core's package.
    pub fn core(self) -> CorePackage {
        match self {
            SocVariant::PicoRv32
            | SocVariant::PicoRv32Swapped
            | SocVariant::PicoRv32BpIr
            | SocVariant::PicoRv32All => CorePackage::PicoRv32,
            SocVariant::Serv | SocVariant::ServBpIr => CorePackage::Serv,
        }
    }

    /// The base address of the SoC's RAM (its reset address).
    pub fn ram_base(self) -> u64 {
        match self.core() {
            CorePackage::PicoRv32 => etrace_hdl::rvfi::picorv32_soc::PICORV32_RAM_BASE,
            CorePackage::Serv => etrace_hdl::rvfi::serv_soc::SERV_RAM_BASE,
        }
    }

    /// Clock cycles the core may take per retired instruction (a bound for a stalled core:
    /// PicoRV32 needs 3-6, division ~40; bit-serial SERV 35-70, shifts up to ~100).
    pub fn cycles_per_instruction_max(self) -> u64 {
        match self.core() {
            CorePackage::PicoRv32 => 64,
            CorePackage::Serv => 256,
        }
    }

    /// The front end's build-time options.
    pub fn front_end(self) -> etrace_hdl::rvfi::FrontEndOptions {
        etrace_hdl::rvfi::FrontEndOptions {
            swap_branch_itypes: self == SocVariant::PicoRv32Swapped,
            core_traps: match self.core() {
                CorePackage::Serv => etrace_hdl::rvfi::CoreTraps::TimerInterrupt,
                CorePackage::PicoRv32 => etrace_hdl::rvfi::CoreTraps::IllegalInstruction,
            },
        }
    }
}

/// One verilated N-Trace encoder build (`etrace_hdl::ntrace::top`): a configuration, the
/// generator's mode and optimisations, and the output FIFO. Built without tracing only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NtraceVariant {
    /// `rv32`, BTM, the wide FIFO ([`NtraceVariant::fifo`]).
    Rv32Btm,
    /// `rv32`, HTM, the wide FIFO.
    Rv32Htm,
    /// `rv32`, HTM with every optimisation (sequential jump, a 4-entry call stack,
    /// repeated history), the wide FIFO.
    Rv32HtmAll,
    /// [`NtraceVariant::Rv32HtmAll`] with the trickling FIFO: the trace port takes less
    /// than the trace makes, messages are lost and the trace restarts (SYNC 7).
    Rv32HtmAllSlow,
    /// `rv64`, BTM, the wide FIFO.
    Rv64Btm,
    /// `rv64`, HTM, the wide FIFO.
    Rv64Htm,
    /// `rv64`, HTM with every optimisation, the wide FIFO.
    Rv64HtmAll,
    /// `rv64`, BTM with the trickling FIFO.
    Rv64BtmSlow,
    /// [`NtraceVariant::Rv32Htm`] with the deliberate fault of the HIST logic
    /// (`NtraceHwOptions::hist_fault`: every branch outcome enters HIST inverted).
    Rv32HistFault,
}

impl NtraceVariant {
    /// Every N-Trace build.
    pub const ALL: [NtraceVariant; 9] = [
        NtraceVariant::Rv32Btm,
        NtraceVariant::Rv32Htm,
        NtraceVariant::Rv32HtmAll,
        NtraceVariant::Rv32HtmAllSlow,
        NtraceVariant::Rv64Btm,
        NtraceVariant::Rv64Htm,
        NtraceVariant::Rv64HtmAll,
        NtraceVariant::Rv64BtmSlow,
        NtraceVariant::Rv32HistFault,
    ];

    /// The name: the Verilator `--prefix` (`V<name>`) and the C symbol prefix.
    pub fn name(self) -> &'static str {
        match self {
            NtraceVariant::Rv32Btm => "ntrace_rv32_btm",
            NtraceVariant::Rv32Htm => "ntrace_rv32_htm",
            NtraceVariant::Rv32HtmAll => "ntrace_rv32_htm_all",
            NtraceVariant::Rv32HtmAllSlow => "ntrace_rv32_htm_all_slow",
            NtraceVariant::Rv64Btm => "ntrace_rv64_btm",
            NtraceVariant::Rv64Htm => "ntrace_rv64_htm",
            NtraceVariant::Rv64HtmAll => "ntrace_rv64_htm_all",
            NtraceVariant::Rv64BtmSlow => "ntrace_rv64_btm_slow",
            NtraceVariant::Rv32HistFault => "ntrace_rv32_hist_fault",
        }
    }

    /// The hardware configuration.
    pub fn config(self) -> Config {
        match self {
            NtraceVariant::Rv32Btm
            | NtraceVariant::Rv32Htm
            | NtraceVariant::Rv32HtmAll
            | NtraceVariant::Rv32HtmAllSlow
            | NtraceVariant::Rv32HistFault => Config::Rv32,
            NtraceVariant::Rv64Btm
            | NtraceVariant::Rv64Htm
            | NtraceVariant::Rv64HtmAll
            | NtraceVariant::Rv64BtmSlow => Config::Rv64,
        }
    }

    /// The generator's parameters.
    pub fn generator(self) -> NtraceHwOptions {
        let htm = NtraceHwOptions::default();
        let btm = NtraceHwOptions { htm: false, ..htm };
        let all = NtraceHwOptions {
            sijump: true,
            call_stack: 4,
            repeat_history: true,
            ..htm
        };
        match self {
            NtraceVariant::Rv32Btm | NtraceVariant::Rv64Btm | NtraceVariant::Rv64BtmSlow => btm,
            NtraceVariant::Rv32Htm | NtraceVariant::Rv64Htm => htm,
            NtraceVariant::Rv32HtmAll
            | NtraceVariant::Rv32HtmAllSlow
            | NtraceVariant::Rv64HtmAll => all,
            NtraceVariant::Rv32HistFault => NtraceHwOptions {
                hist_fault: true,
                ..htm
            },
        }
    }

    /// The output FIFO: wide (256 bytes, 4 sent every record step: never overflows on the
    /// programs) or trickling (60 bytes, 1 sent every 8 steps: overflows again and again).
    pub fn fifo(self) -> NtraceFifoConfig {
        let wide = NtraceFifoConfig {
            bytes: 256,
            send_bytes: 4,
            every_cycles: 1,
            error_fault: false,
        };
        match self {
            NtraceVariant::Rv32HtmAllSlow | NtraceVariant::Rv64BtmSlow => NtraceFifoConfig {
                bytes: 60,
                send_bytes: 1,
                every_cycles: 8,
                ..wide
            },
            _ => wide,
        }
    }

    /// The generation options given to `etrace_hdl::ntrace::generate_ntrace`.
    pub fn top_options(self) -> NtraceTopOptions {
        NtraceTopOptions {
            generator: self.generator(),
            fifo: self.fifo(),
        }
    }
}

impl fmt::Display for NtraceVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`NtraceVariant::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownNtraceVariant(pub String);

impl fmt::Display for UnknownNtraceVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown N-Trace RTL variant `{}` (expected one of",
            self.0
        )?;
        for (i, v) in NtraceVariant::ALL.iter().enumerate() {
            write!(f, "{}{}", if i == 0 { " " } else { ", " }, v.name())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownNtraceVariant {}

impl FromStr for NtraceVariant {
    type Err = UnknownNtraceVariant;

    /// The variant of a [`NtraceVariant::name`].
    fn from_str(s: &str) -> Result<NtraceVariant, UnknownNtraceVariant> {
        NtraceVariant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| UnknownNtraceVariant(s.to_string()))
    }
}
