//! The lock-step co-simulation of a core (issue 23): a verilated SoC (PicoRV32, SERV) runs an
//! ELF while the hart model runs the same ELF with the SoC's memory map ([`hart_config`]);
//!
//! 1. each RVFI retirement is checked against the hart's next record: the pc, the
//!    instruction, whether it trapped, the next pc (`rvfi_pc_wdata` against the hart's
//!    next record), and the front end's ingress block against the record itself;
//! 2. the encoder's output port, cycle by cycle, against the cycle model of the same
//!    encoder (`EncoderCycle`) fed with the hart's records in the cycles the RTL's front
//!    end presented them (the RTL's own timing: multi-cycle instructions, fetch stalls);
//! 3. the bytes taken, decoded against the ELF, against the hart's execution.
//!
//! The first divergence stops the run and is reported with its retirement index, the
//! cycle, both sides' state and a waveform of the cycles before it ([`Divergence`]: the
//! SoC runs again from reset to the divergence, its VCD dump opened [`WAVE_BEFORE`]
//! cycles before it). The host enables trace as a debugger would, writing the SoC's trace
//! control registers while the core is held in reset (the run's options; a resync
//! interval they cannot express is refused), so that trace is on from the first cycle
//! out of reset; when the hart's last record (the exit store to `tohost`) has been
//! matched, it writes `trTeControl` again to switch trace off, and the encoder drains
//! while the core spins (those blocks reach both sides as the front end made them). The
//! model encoder follows the trace enable the registers give the RTL encoder, so a
//! program may switch trace off and on itself (`trace_control`); the decode check then
//! places each traced part in the hart's execution as it does a run after a loss. A
//! program that clears `trTeActive` or changes the options is a
//! [`DivergenceKind::Control`] divergence (the model's options are fixed).
//!
//! The encoder's bytes are taken every cycle, or at the pace of the board tops' UART
//! ([`OutputPace`]): when the UART cannot keep up with the core, the FIFO overflows, the
//! encoder reports the loss (`trace_lost`) and resynchronises, and the decode check
//! resumes at the next run of the trace; the outcome says how much was lost
//! ([`LockstepOutcome::losses`], [`LockstepOutcome::hart_steps`]).
//!
//! Nothing grows with the length of the run (issue 27, "streaming everywhere"): the
//! hart's records come from a thread of its own ([`HartRecords`]); the bytes taken are
//! deframed and decoded as they come and checked against the steps of a second run of
//! the hart model ([`StreamCheck`]); a first, untraced run counts the records and reports
//! the hart's errors before the SoC starts.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use etrace_decoder::{DecoderConfig, ImageError, ProgramImage};
use etrace_encoder::cycle::encoder::{CycleInput, EncoderCycle, EncoderCycleError};
use etrace_encoder::cycle::output_path::OutputPathConfig;
use etrace_encoder::EncoderOptions;
use etrace_hart::{
    CountingSink, Hart, HartConfig, HartError, HartRecords, HartRecordsError, RecordsTally,
};
use etrace_hdl::config::Config;
use etrace_hdl::rvfi::soc::{SocEncoderOptions, SOC_RAM_BYTES};
use etrace_hdl::rvfi::soc_control::TE_BASE;
use etrace_spec::elf::{parse_elf, ElfImage, LoadError as ElfError};
use etrace_spec::ingress::{IngressRecord, Itype, ItypeWidth, Privilege};
use etrace_spec::isa::Xlen;
use etrace_spec::params::Params;
use etrace_spec::trace_control::map::{control, TR_TE_CONTROL};
use etrace_spec::trace_control::registers::{enable_writes, EnableError, TeSettings};

use super::{LoadError, Soc, SocInputs, SocOutputs};
use crate::cosim::stream_check::{window_for, HartSteps, StreamCheck, StreamCheckError};
use crate::cosim::verify::DecodeSummary;
use crate::cosim::{output_path, PortState, TakenDeframer, TakenItems};
use crate::variant::SocVariant;
use crate::VcdError;

/// Reset cycles after the program is loaded.
const RESET_CYCLES: u32 = 4;
/// Cycles allowed for the output to drain after the last record, besides the FIFO's
/// draining at the consumer's pace.
const DRAIN_LIMIT: u64 = 1 << 16;
/// Bytes taken between two hand-overs to the deframer and the decode check.
const BYTES_PER_PIECE: usize = 4096;
/// Cycles of a divergence's waveform before the divergence.
pub const WAVE_BEFORE: u64 = 4000;
/// Cycles of a divergence's waveform after the divergence.
const WAVE_AFTER: u64 = 16;

/// The hart model's profile of the SoC `variant` (`etrace_hdl::rvfi::soc`): its RAM
/// window, `itype` width 4 as the front end's, the trace control registers of its
/// encoder (the CLINT is the hart's own, which the SERV SoC's timer follows).
pub fn hart_config(variant: SocVariant) -> HartConfig {
    HartConfig {
        itype_width: ItypeWidth::W4,
        ram_base: variant.ram_base(),
        ram_size: SOC_RAM_BYTES,
        trace_encoder: Some(TE_BASE),
        trace_encoder_implementation: variant.encoder().implementation(),
        ..HartConfig::default()
    }
}

/// The parameters and the output path of a SoC's encoder built with `encoder` (`rv32`,
/// encap byte stream, its `src_id` 0): those of a co-simulated encoder built the same way.
pub fn soc_encoder(encoder: SocEncoderOptions) -> (Params, OutputPathConfig) {
    let top = encoder.top_options();
    (top.params(Config::Rv32), output_path(&top, 0, 0))
}

/// How the consumer of the SoC's encoder output takes bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputPace {
    /// A byte in every cycle (no back-pressure).
    #[default]
    Always,
    /// As the board tops' 8N1 UART transmitter (`etrace_hdl::board::uart_tx::UartTx`) of
    /// `cycles_per_bit` clock cycles a bit (2 to 65536): ready when idle, then busy for the
    /// ten bit times of the byte it took.
    Uart {
        /// Clock cycles a bit (`etrace_hdl::board::cycles_per_bit`).
        cycles_per_bit: u32,
    },
}

/// The readiness of an [`OutputPace`] consumer, cycle by cycle.
#[derive(Debug, Clone, Copy)]
struct Consumer {
    /// Cycles a byte keeps it busy after the cycle it is taken in (0: never busy).
    busy: u64,
    /// The first cycle it is ready again.
    ready_from: u64,
}

impl Consumer {
    fn new(pace: OutputPace) -> Consumer {
        let busy = match pace {
            OutputPace::Always => 0,
            OutputPace::Uart { cycles_per_bit } => 10 * u64::from(cycles_per_bit.clamp(2, 65_536)),
        };
        Consumer {
            busy,
            ready_from: 0,
        }
    }

    /// Whether it takes a byte in `cycle`.
    fn ready(&self, cycle: u64) -> bool {
        cycle >= self.ready_from
    }

    /// It took a byte in `cycle`.
    fn took(&mut self, cycle: u64) {
        self.ready_from = cycle + 1 + self.busy;
    }

    /// The hart steps in which a run after a loss may start: a loss lasts until the FIFO
    /// of `fifo_bytes` drains at one byte per `1 + busy` cycles (`window_for`).
    fn window(&self, fifo_bytes: usize) -> usize {
        window_for(fifo_bytes, 1.0 - 1.0 / (1 + self.busy) as f64)
    }
}

/// One lock-step run's settings.
#[derive(Debug, Clone)]
pub struct LockstepConfig {
    /// The SoC build.
    pub variant: SocVariant,
    /// Run-time options of the encoder (implicit return and branch prediction only where
    /// the variant's encoder has the return stack / the predictor).
    pub options: EncoderOptions,
    /// Dump the SoC's waveform (VCD) of the whole run here; on a divergence the file is
    /// rewritten with the cycles around it.
    pub wave: Option<PathBuf>,
    /// Where a divergence's waveform goes when `wave` is not set.
    pub mismatch_wave_dir: PathBuf,
    /// How the encoder's bytes are taken.
    pub pace: OutputPace,
}

impl LockstepConfig {
    /// The SoC as a user builds it, default options.
    pub fn new(variant: SocVariant) -> LockstepConfig {
        LockstepConfig {
            variant,
            options: EncoderOptions::default(),
            wave: None,
            mismatch_wave_dir: std::env::temp_dir(),
            pace: OutputPace::Always,
        }
    }

    /// The SoC's inputs from the first cycle out of reset: output always ready.
    fn soc_inputs(&self) -> SocInputs {
        SocInputs {
            ready: true,
            ..SocInputs::default()
        }
    }

    /// What the encoder should see of its trace control registers: active, tracing, the
    /// run-time options.
    fn te_settings(&self) -> TeSettings {
        TeSettings {
            active: true,
            trace_enable: true,
            full_address: self.options.full_address,
            implicit_exception: self.options.implicit_exception,
            sijump: self.options.sijump,
            implicit_return: self.options.implicit_return,
            branch_prediction: self.options.branch_prediction,
            resync_max: self.options.resync_max,
            htm: false,
        }
    }

    /// The host's register writes that enable trace with the run's options, while the
    /// core is held in reset ([`enable_writes`]).
    fn enable_writes(&self) -> Result<[(u32, u32); 3], LockstepError> {
        let implementation = self.variant.encoder().implementation();
        Ok(enable_writes(implementation, &self.te_settings())?)
    }
}

/// The RTL's side of a retirement cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RtlRetirement {
    /// `rvfi_valid`.
    pub valid: bool,
    /// `rvfi_pc_rdata`.
    pub pc: u64,
    /// `rvfi_pc_wdata`.
    pub next_pc: u64,
    /// `rvfi_insn`.
    pub insn: u32,
    /// `rvfi_trap`.
    pub trap: bool,
    /// The front end's block (`None`: no block).
    pub block: Option<IngressRecord>,
}

/// What differed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DivergenceKind {
    /// The core retired something else than the hart's next instruction (pc, instruction
    /// or trap), or retired past the hart's end.
    Retirement,
    /// `rvfi_pc_wdata` is not the address of the hart's next record.
    NextPc,
    /// The front end's block differs from the hart's record.
    Block,
    /// The encoder's output port differs from the cycle model's.
    Output,
    /// The program changed what the trace control registers give the encoder in a way
    /// the check does not follow: `trTeActive` cleared (the encoder reset), or other
    /// run-time options than the run's (the model encoder's options are fixed).
    Control,
}

/// The first divergence of a lock-step run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// What differed.
    pub kind: DivergenceKind,
    /// Retirement index (hart records matched before it).
    pub retirement: u64,
    /// SoC cycle since reset.
    pub cycle: u64,
    /// The RTL's side.
    pub rtl: RtlRetirement,
    /// The hart's record there (with its instruction bits), if any.
    pub hart: Option<(IngressRecord, u32)>,
    /// For [`DivergenceKind::Output`]: the RTL's and the model's port.
    pub ports: Option<(PortState, PortState)>,
    /// The cycle from which trace was disabled (the hart's last record matched), if the
    /// divergence came after it, while the output drained.
    pub program_end: Option<u64>,
    /// The waveform of the cycles before the divergence, if it could be written.
    pub wave: Option<Waveform>,
}

/// A waveform file of a divergence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waveform {
    /// The VCD file.
    pub path: PathBuf,
    /// The first and last cycle (since reset, as [`Divergence::cycle`]) it holds.
    pub cycles: (u64, u64),
    /// The VCD time of the first cycle's falling clock edge (ten time units a cycle; the
    /// cycles that loaded the RAM come first).
    pub first_time: u64,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} divergence at retirement {} (cycle {}): RTL pc {:#x} insn {:#010x} trap {} \
             next pc {:#x} block {:?}; hart ",
            self.kind,
            self.retirement,
            self.cycle,
            self.rtl.pc,
            self.rtl.insn,
            self.rtl.trap,
            self.rtl.next_pc,
            self.rtl.block
        )?;
        match &self.hart {
            Some((r, insn)) => write!(f, "{r:?} insn {insn:#010x}")?,
            None => f.write_str("(no more records)")?,
        }
        if let Some((got, want)) = &self.ports {
            write!(f, "; encoder port RTL {got:?}, model {want:?}")?;
        }
        if let Some(end) = self.program_end {
            write!(f, "; trace disabled from cycle {end} (the hart's end)")?;
        }
        match &self.wave {
            Some(w) => write!(
                f,
                "\n  waveform: {} (cycles {}-{}, VCD time {} on)",
                w.path.display(),
                w.cycles.0,
                w.cycles.1,
                w.first_time
            ),
            None => f.write_str("\n  waveform: could not be written"),
        }
    }
}

/// Why a lock-step run failed.
#[derive(Debug, thiserror::Error)]
pub enum LockstepError {
    /// The ELF could not be read.
    #[error("ELF: {0}")]
    Elf(#[from] ElfError),
    /// The program is not RV32.
    #[error("the program is RV64; the SoCs run RV32 programs")]
    NotRv32,
    /// The decoder's image of the program could not be made.
    #[error("program image: {0}")]
    Image(#[from] ImageError),
    /// The program does not fit the SoC.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The hart model failed to run the program.
    #[error("hart model: {0}")]
    Hart(#[from] HartError),
    /// A later run of the hart model (its records or its steps) ended otherwise than the
    /// first, untraced run.
    #[error("hart model: {0}")]
    HartRecords(#[from] HartRecordsError),
    /// The encoder model rejected the settings.
    #[error("encoder model: {0}")]
    Model(#[from] EncoderCycleError),
    /// The options cannot be set through the SoC's trace control registers.
    #[error("trace control registers: {0}")]
    Control(#[from] EnableError),
    /// The RTL and the models differ.
    #[error("{0}")]
    Diverged(Box<Divergence>),
    /// The core stopped retiring (halted by a trap, or too slow) before the hart's end.
    #[error(
        "the core retired {retired} of the hart's {records} records in {cycles} cycles{halted}",
        halted = if *.halted { " and halted (trap)" } else { "" }
    )]
    Stalled {
        /// Records matched.
        retired: u64,
        /// Records of the hart.
        records: u64,
        /// Cycles run.
        cycles: u64,
        /// The core's `trap` output is high.
        halted: bool,
    },
    /// The output did not drain after the last record.
    #[error("the encoder's output did not drain within {0} cycles after the last record")]
    NoDrain(u64),
    /// The waveform file of the whole run could not be opened.
    #[error("waveform: {0}")]
    Wave(VcdError),
    /// The decoded trace does not reproduce the hart's execution.
    #[error("decoded trace: {0}")]
    Decode(#[from] StreamCheckError),
    /// The consumer of the encoder's bytes ([`run_with`]'s `taken`) stopped the run in
    /// this cycle (for example because its file cannot be written); it says why.
    #[error("the consumer of the encoder's output stopped the run in cycle {0}")]
    ConsumerStopped(u64),
}

/// Figures of a matching run.
#[derive(Debug, Clone, PartialEq)]
pub struct LockstepOutcome {
    /// Core clock cycles from reset release to the drained output.
    pub cycles: u64,
    /// Cycles until the hart's last record was matched.
    pub program_cycles: u64,
    /// Retirements matched (every record of the hart's run).
    pub retired: u64,
    /// Wall time of the cycle loop, seconds.
    pub seconds: f64,
    /// The encoder's bytes (equal on both sides), counted.
    pub bytes: u64,
    /// The decoded trace against the hart.
    pub decoded: DecodeSummary,
    /// Trace losses: the times the encoder's `trace_lost` rose (the FIFO overflowed).
    pub losses: u64,
    /// Cycles with `trace_lost` high.
    pub lost_cycles: u64,
    /// The hart's steps (instructions and traps) when trace was lost or switched off by
    /// the program (more than one run), else `None`: the decoded trace covers
    /// [`DecodeSummary::steps`] of them.
    pub hart_steps: Option<u64>,
}

impl LockstepOutcome {
    /// Simulated core cycles per second of wall time.
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }

    /// Trace bits per core cycle of the program.
    pub fn bits_per_cycle(&self) -> f64 {
        self.bytes as f64 * 8.0 / self.program_cycles.max(1) as f64
    }

    /// Trace bits per retired instruction.
    pub fn bits_per_instruction(&self) -> f64 {
        self.bytes as f64 * 8.0 / self.retired.max(1) as f64
    }

    /// The hart's steps the decoded trace does not cover (0 when it covers them all).
    pub fn steps_lost(&self) -> u64 {
        self.hart_steps
            .map_or(0, |all| all.saturating_sub(self.decoded.steps))
    }
}

/// The front end's block in a cycle, as a record (`None`: no block on the port).
fn block_of(out: &SocOutputs) -> Option<IngressRecord> {
    if out.iretire == 0 && out.itype == 0 {
        return None;
    }
    Some(IngressRecord {
        iretire: out.iretire,
        itype: Itype::from_code(u64::from(out.itype)).unwrap_or_default(),
        iaddr: out.iaddr,
        ilastsize: out.ilastsize,
        privilege: Privilege::from_code(u64::from(out.privilege)).unwrap_or_default(),
        cause: out.cause,
        tval: out.tval,
        interrupt: out.itype == 2,
        context: 0,
        ctype: 0,
        sijump: out.sijump != 0,
    })
}

/// A first, untraced run of `elf` on the hart model: its record count, or its error.
fn count_records(elf: &[u8], variant: SocVariant) -> Result<u64, LockstepError> {
    let mut hart = Hart::from_elf(elf, hart_config(variant))?.without_console();
    let mut sink = CountingSink::default();
    hart.run(&mut sink)?;
    Ok(sink.records)
}

/// Runs `elf` on the SoC and the models in lock step (module documentation).
pub fn run(elf: &[u8], config: &LockstepConfig) -> Result<LockstepOutcome, LockstepError> {
    run_with(elf, config, &mut |_| ControlFlow::Continue(()))
}

/// [`run`], handing the bytes the consumer took to `taken` as they come, in pieces of up
/// to 4 KiB (the RTL's output, for `etrace cosim --core -o`); when `taken` breaks (its file
/// cannot be written), the run stops there with [`LockstepError::ConsumerStopped`].
pub fn run_with(
    elf: &[u8],
    config: &LockstepConfig,
    taken: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
) -> Result<LockstepOutcome, LockstepError> {
    match run_checked(elf, config, taken) {
        Err(LockstepError::Diverged(mut d)) => {
            // The SoC's run is repeatable: the ELF parsed and loaded before.
            if let Ok(image) = parse_elf(elf) {
                d.wave = divergence_wave(&image, config, &d).ok();
            }
            Err(LockstepError::Diverged(d))
        }
        other => other,
    }
}

/// Runs the SoC again from reset with the inputs of the lock-step run that diverged with
/// `d`, dumping its waveform from [`WAVE_BEFORE`] cycles before the divergence to
/// [`WAVE_AFTER`] cycles after it into `config.wave`, or a file in
/// `config.mismatch_wave_dir`.
fn divergence_wave(
    image: &ElfImage,
    config: &LockstepConfig,
    d: &Divergence,
) -> Result<Waveform, VcdError> {
    let path = config.wave.clone().unwrap_or_else(|| {
        config.mismatch_wave_dir.join(format!(
            "etrace-cosim-{}-cycle{}.vcd",
            config.variant.name(),
            d.cycle
        ))
    });
    let mut soc = Soc::new(config.variant);
    let Ok(writes) = config.enable_writes() else {
        // Not reached: the run that diverged wrote the same registers.
        return Err(VcdError::BadPath { path });
    };
    if soc.load(image, RESET_CYCLES).is_err() {
        // Not reached: the run that diverged loaded the same image.
        return Err(VcdError::BadPath { path });
    }
    soc.write_registers(&writes);
    let mut inputs = config.soc_inputs();
    let first = d.cycle.saturating_sub(WAVE_BEFORE);
    let last = d.cycle + WAVE_AFTER;
    let mut first_time = 0;
    for cycle in 0..=last {
        if cycle == first {
            soc.open_vcd(&path)?;
            first_time = soc.cycles() * 10;
        }
        end_of_program(&mut inputs, d.program_end == Some(cycle));
        soc.step(&inputs);
    }
    soc.close_vcd();
    Ok(Waveform {
        path,
        cycles: (first, last),
        first_time,
    })
}

/// The host's inputs at the end of the program: in that cycle (`now`), a write of
/// `trTeControl` that keeps the encoder active and switches trace off (the core spins on
/// untraced); in any other, no write.
fn end_of_program(inputs: &mut SocInputs, now: bool) {
    inputs.host_write = now;
    inputs.host_address = (TR_TE_CONTROL / 4) as u16;
    inputs.host_data = u64::from(control::ACTIVE.put(1));
}

/// [`run_with`], a divergence reported without its waveform.
fn run_checked(
    elf: &[u8],
    config: &LockstepConfig,
    taken: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
) -> Result<LockstepOutcome, LockstepError> {
    let image = parse_elf(elf)?;
    if image.xlen != Xlen::X32 {
        return Err(LockstepError::NotRv32);
    }
    let total = count_records(elf, config.variant)?;
    let elf = Arc::new(elf.to_vec());
    let presented = Arc::new(RecordsTally::default());
    let mut records = HartRecords::spawn(elf.clone(), hart_config(config.variant))
        .tallied(presented.clone())
        .peekable();
    let program = ProgramImage::from_elf(&elf)?;
    let (params, output) = soc_encoder(config.variant.encoder());
    let stepped = Arc::new(RecordsTally::default());
    let elf_again = elf.clone();
    let hart_steps = HartSteps::new(
        HartRecords::spawn(elf, hart_config(config.variant))
            .tallied(stepped.clone())
            .map(|(r, _)| r),
    );
    let mut consumer = Consumer::new(config.pace);
    // The FIFO drains at the consumer's pace.
    let drain_limit = DRAIN_LIMIT + 2 * output.fifo_depth as u64 * (1 + consumer.busy);
    let mut check = StreamCheck::new(&params, &program, DecoderConfig::default(), hart_steps)
        .with_window(consumer.window(output.fifo_depth))
        .with_trace_off_runs();
    let mut deframer = TakenDeframer::new(&output);
    let mut model = EncoderCycle::new(&params, config.options, output)?;
    let mut soc = Soc::new(config.variant);
    if let Some(path) = &config.wave {
        soc.open_vcd(path).map_err(LockstepError::Wave)?;
    }
    let writes = config.enable_writes()?;
    soc.load(&image, RESET_CYCLES)?;
    soc.write_registers(&writes);
    let want_settings = config.te_settings();
    let mut inputs = config.soc_inputs();
    let limit = total * config.variant.cycles_per_instruction_max() + 10_000;
    let mut matched = 0u64;
    let mut bytes = 0u64;
    let mut piece = Vec::with_capacity(BYTES_PER_PIECE);
    let mut cycle = 0u64;
    let mut ended_at: Option<u64> = None;
    let (mut losses, mut lost_cycles, mut was_lost) = (0u64, 0u64, false);
    let start = Instant::now();
    loop {
        inputs.ready = consumer.ready(cycle);
        let out = soc.step(&inputs);
        let block = block_of(&out);
        let rtl = RtlRetirement {
            valid: out.rvfi_valid != 0,
            pc: out.rvfi_pc_rdata,
            next_pc: out.rvfi_pc_wdata,
            insn: out.rvfi_insn as u32,
            trap: out.rvfi_trap != 0,
            block,
        };
        let hart = records.peek().copied();
        let retirement = matched;
        let diverged = move |kind, ports| {
            LockstepError::Diverged(Box::new(Divergence {
                kind,
                retirement,
                cycle,
                rtl,
                hart,
                ports,
                program_end: ended_at,
                wave: None,
            }))
        };
        let settings = TeSettings {
            active: out.te_active != 0,
            trace_enable: out.te_trace_enable != 0,
            full_address: out.te_full_address != 0,
            implicit_exception: out.te_implicit_exception != 0,
            sijump: out.te_sijump_option != 0,
            implicit_return: want_settings.implicit_return,
            branch_prediction: want_settings.branch_prediction,
            resync_max: out.te_resync_max as u32,
            htm: want_settings.htm,
        };
        let followed = TeSettings {
            trace_enable: settings.trace_enable,
            ..want_settings
        };
        if settings != followed {
            return Err(diverged(DivergenceKind::Control, None));
        }
        let mut model_block = block;
        if ended_at.is_none() && (rtl.valid || block.is_some()) {
            let Some((want, insn)) = hart else {
                return Err(diverged(DivergenceKind::Retirement, None));
            };
            let trapped = matches!(want.itype, Itype::Exception | Itype::Interrupt);
            if !rtl.valid || rtl.pc != want.iaddr || rtl.insn != insn || rtl.trap != trapped {
                return Err(diverged(DivergenceKind::Retirement, None));
            }
            if block != Some(want) {
                return Err(diverged(DivergenceKind::Block, None));
            }
            records.next();
            if let Some((next, _)) = records.peek() {
                if !trapped && rtl.next_pc != next.iaddr {
                    return Err(diverged(DivergenceKind::NextPc, None));
                }
            }
            model_block = Some(want);
            matched += 1;
        }
        let got = PortState {
            byte: (out.out_valid != 0).then_some((out.out_data, out.out_last != 0)),
            beat: None,
            trace_lost: out.trace_lost != 0,
        };
        let want = PortState::of_model(model.presented(), model.trace_lost());
        model.cycle(&CycleInput {
            block: model_block,
            trace_enable: settings.trace_enable,
            trigger: 0,
            halted: false,
            ready: inputs.ready,
        })?;
        if got != want {
            return Err(diverged(DivergenceKind::Output, Some((got, want))));
        }
        if got.trace_lost {
            lost_cycles += 1;
            losses += u64::from(!was_lost);
        }
        was_lost = got.trace_lost;
        if inputs.ready && got.byte.is_some() {
            consumer.took(cycle);
        }
        if let Some((data, _)) = got.byte.filter(|_| inputs.ready) {
            bytes += 1;
            piece.push(data);
            if piece.len() == BYTES_PER_PIECE {
                if taken(&piece).is_break() {
                    return Err(LockstepError::ConsumerStopped(cycle));
                }
                check.push(&deframer.push(TakenItems::Bytes(&piece)));
                piece.clear();
            }
        }
        cycle += 1;
        end_of_program(&mut inputs, false);
        match ended_at {
            None if records.peek().is_none() => {
                ended_at = Some(cycle);
                end_of_program(&mut inputs, true);
            }
            None if cycle > limit || (out.core_trap != 0 && cycle > 16) => {
                return Err(LockstepError::Stalled {
                    retired: matched,
                    records: total,
                    cycles: cycle,
                    halted: out.core_trap != 0,
                });
            }
            Some(end) if model.is_idle() && cycle > end + 8 => break,
            Some(end) if cycle - end > drain_limit => {
                return Err(LockstepError::NoDrain(drain_limit));
            }
            _ => {}
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    // The records matched are all of the first run's (not a run cut short by an error).
    presented.check(total)?;
    if taken(&piece).is_break() {
        return Err(LockstepError::ConsumerStopped(cycle));
    }
    check.push(&deframer.push(TakenItems::Bytes(&piece)));
    check.push(&deframer.finish());
    let decoded = check.finish();
    if let Some(e) = stepped.error() {
        return Err(e.into());
    }
    let decoded = decoded?;
    // How much was lost: the hart's steps, counted by another run of it.
    let hart_steps = (losses > 0 || decoded.runs > 1).then(|| {
        let records = HartRecords::spawn(elf_again, hart_config(config.variant))
            .map_while(Result::ok)
            .map(|(r, _)| r);
        HartSteps::new(records).count() as u64
    });
    Ok(LockstepOutcome {
        cycles: cycle,
        program_cycles: ended_at.unwrap_or(cycle),
        retired: matched,
        seconds,
        bytes,
        decoded,
        losses,
        lost_cycles,
        hart_steps,
    })
}
