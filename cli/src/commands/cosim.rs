//! `etrace cosim`: the hart model's ingress stream (or a seeded random stream) drives the
//! verilated encoder RTL and the model's cycle-accurate encoder with the same inputs, cycle
//! by cycle, under optional random idle cycles and output back-pressure; the output ports
//! must agree in every cycle (`hdl/DESIGN.md`, "Cycle contract"), and for a program the
//! RTL's bytes are decoded and checked against the hart's execution.
//!
//! It is a pipeline of bounded buffers (issue 27, "streaming everywhere"): the hart model
//! runs in a thread of its own and hands its records on in chunks
//! ([`HartRecords`]); the RTL's bytes are written to `-o`, deframed and decoded as
//! they come, and checked against the hart's steps, pulled from a second run of the hart
//! model as the check needs them ([`StreamCheck`]). A first, untraced run of the hart
//! model gives the record count, the exit code and the trap vectors before the
//! co-simulation starts. Memory does not grow with the length of the run.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use etrace_decoder::{DecoderConfig, ProgramImage, TrapVectors};
use etrace_hart::{Hart, HartConfig, HartRecords, RecordsTally};
use etrace_hdl::config::Config;
use etrace_spec::ingress::random::{RandomStream, RandomStreamConfig};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::isa::Xlen;
use etrace_tb::cosim::stream_check::{window_for, HartSteps, StreamCheck};
use etrace_tb::cosim::{
    self, CosimConfig, CosimError, CosimStats, StallConfig, TakenDeframer, TakenItems,
};
use etrace_tb::Variant;
use indicatif::{ProgressBar, ProgressStyle};

use super::cosim_output::{Consumer, TraceFile};
use super::encoder_args::EncoderArgs;
use super::hardware_args::{options_text, write_params_files, HardwareArgs};
use super::hart_args::{add_bootrom_code, HartArgs};
use super::io::{check_distinct, given_paths, outln, read_elf};
use super::protocol_args::{NtraceArgs, Protocol, ProtocolArgs};
use crate::error::{CliError, InputContext};

/// Arguments of `etrace cosim`.
#[derive(Args)]
pub struct CosimArgs {
    /// Statically linked RISC-V ELF program, run on the hart model (omit with `--random`).
    #[arg(required_unless_present = "random")]
    pub elf: Option<PathBuf>,
    /// Hardware configuration: rv32, rv64, rv32-itype3, rv64-itype3 (default: from the
    /// ELF's XLEN).
    #[arg(long, value_name = "CONFIG")]
    pub config: Option<String>,
    /// A specific verilated build instead of the configuration's build of the hardware
    /// generation options (docs/cli.md, `cosim`, lists them all): e.g. rv32-ts, rv32-smi-ts,
    /// rv32-atb, rv32-bp, rv32-ir, rv32-all, and the builds with a deliberate fault such as
    /// rv32-fault.
    #[arg(
        long,
        value_name = "NAME",
        conflicts_with_all = ["config", "framing", "src_bits", "timestamp", "atb_bits"]
    )]
    pub variant: Option<String>,
    /// Hardware generation options: the verilated build of the configuration with them.
    #[command(flatten)]
    pub hardware: HardwareArgs,
    /// Trace protocol of the encoder RTL.
    #[command(flatten)]
    pub protocol: ProtocolArgs,
    /// N-Trace options (with --protocol ntrace): the verilated N-Trace build with them.
    #[command(flatten)]
    pub ntrace: NtraceArgs,
    /// Run the program on a soft core in lock step with the hart model: picorv32 or serv
    /// (picorv32-swapped: the deliberately wrong front end). The SoC's encoder is the
    /// `rv32` encap build; picorv32 and serv are also built with --bpred-size 6
    /// --return-stack-size 2, picorv32 with --src-bits 8 --timestamp besides.
    #[arg(
        long,
        value_name = "CORE",
        requires = "elf",
        conflicts_with_all = [
            "config", "variant", "random", "framing",
            "atb_bits", "memory", "spike_bootrom", "stall_probability",
            "idle_probability", "seed", "src_id",
        ]
    )]
    pub core: Option<String>,
    /// With --core: take the encoder's bytes at the pace of the board tops' 8N1 UART at N
    /// baud (the FIFO overflows when it cannot keep up; the losses are reported).
    #[arg(long, value_name = "N", requires = "core")]
    pub baud: Option<u32>,
    /// With --core --baud: the SoC's clock in MHz, which the UART's bit time is made from
    /// (12 when not given: the iCE40 boards' clock).
    #[arg(long, value_name = "MHZ", requires = "baud")]
    pub freq: Option<f64>,
    /// Instead of a program: N records of a seeded random ingress stream.
    #[arg(long, value_name = "N", conflicts_with = "elf")]
    pub random: Option<u64>,
    /// Encoder run-time options (on the encoder's option ports).
    #[command(flatten)]
    pub encoder: EncoderArgs,
    /// Probability that the output is not ready in a cycle.
    #[arg(long, value_name = "P", default_value_t = 0.0)]
    pub stall_probability: f64,
    /// Probability of an idle cycle before each ingress block.
    #[arg(long, value_name = "P", default_value_t = 0.0)]
    pub idle_probability: f64,
    /// Seed of the random stalls, idle cycles and random stream.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// `src_id` input (its low srcID bits are sent by builds with a srcID).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub src_id: u16,
    /// Write the RTL's waveform (VCD) here: the whole run, or on a mismatch the cycles
    /// around it (default then: a file in the temporary directory).
    #[arg(long, value_name = "OUT")]
    pub wave: Option<PathBuf>,
    /// Write the bytes the RTL produced here: the byte stream (encap, smi), or one ATB
    /// beat per line (atb), as `etrace encode -o` writes them.
    #[arg(short = 'o', long = "output", value_name = "TRACE")]
    pub output: Option<PathBuf>,
    /// Hart model options.
    #[command(flatten)]
    pub hart: HartArgs,
}

/// `--wave`'s directory exists (checked before a run, exit 2).
pub(super) fn check_wave_dir(wave: Option<&Path>) -> Result<(), CliError> {
    match wave.and_then(Path::parent) {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => Err(CliError::input(
            "the waveform's directory does not exist",
            dir.display(),
        )),
        _ => Ok(()),
    }
}

fn probability(p: f64, option: &str) -> Result<f64, CliError> {
    if (0.0..1.0).contains(&p) {
        Ok(p)
    } else {
        Err(CliError::input(
            format!("probability {p} is not in [0, 1)"),
            option,
        ))
    }
}

/// The verilated build for `--variant`, or for `--config` (default: the ELF's XLEN) with
/// the hardware generation options; a combination that is not built in is refused.
fn variant(args: &CosimArgs, xlen: Option<u32>) -> Result<Variant, CliError> {
    if let Some(name) = &args.variant {
        return Variant::from_str(&name.replace('-', "_")).at("--variant");
    }
    let config = match &args.config {
        Some(name) => Config::from_name(name).at("--config")?,
        None if xlen == Some(64) => Config::Rv64,
        None => Config::Rv32,
    };
    let wanted = args.hardware.top_options(0)?;
    let built = |v: &&Variant| {
        let o = v.top_options();
        v.config() == config
            && o.inject_fault.is_none()
            && (
                o.output,
                o.src_bits,
                o.timestamp,
                o.bpred_size,
                o.return_stack_size,
            ) == (
                wanted.output,
                wanted.src_bits,
                wanted.timestamp,
                wanted.bpred_size,
                wanted.return_stack_size,
            )
    };
    Variant::ALL.iter().find(built).copied().ok_or_else(|| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        CliError::input(
            format!(
                "no verilated build of {} with {} --bpred-size {} --return-stack-size {} (the \
                 builds: {}; see --variant)",
                config.name(),
                options_text(&wanted),
                wanted.bpred_size,
                wanted.return_stack_size,
                names.join(", ")
            ),
            "hardware generation options",
        )
    })
}

fn xlen_bits(xlen: Xlen) -> u32 {
    match xlen {
        Xlen::X32 => 32,
        Xlen::X64 => 64,
    }
}

/// The program, what a first run of the hart model found, and how to run it again.
struct Program {
    name: String,
    /// The program's exit code (`tohost`).
    exit_code: u64,
    /// Ingress records of a whole run.
    records: u64,
    elf: Arc<Vec<u8>>,
    hart: HartConfig,
    image: ProgramImage,
    /// Decoder settings (the trap vectors for implicit exception mode).
    decoder: DecoderConfig,
}

impl Program {
    /// The records of a new run of the hart model, in chunks from its own thread, counted
    /// in `tally` (with the error that ends them).
    fn records(&self, tally: &Arc<RecordsTally>) -> impl Iterator<Item = IngressRecord> + Send {
        HartRecords::spawn(self.elf.clone(), self.hart)
            .tallied(tally.clone())
            .map(|(rec, _)| rec)
    }

    /// The steps of a new run (`decoder::pcs::push_record_steps` of every record).
    fn steps(&self, tally: &Arc<RecordsTally>) -> HartSteps<impl Iterator<Item = IngressRecord>> {
        HartSteps::new(self.records(tally))
    }

    /// A later run of the hart model ended as the first did: `tally`'s error, or its
    /// record count differs (`expected`: the first run's, when every record was used).
    fn check_run(&self, tally: &RecordsTally, expected: Option<u64>) -> Result<(), CliError> {
        let checked = match expected {
            Some(n) => tally.check(n),
            None => tally.error().map_or(Ok(()), Err),
        };
        checked.map_err(|e| CliError::check(format!("hart model: {e}"), &self.name))
    }
}

/// Loads the program and runs it once on the hart model, untraced: its record count,
/// exit code and trap vectors (`mtvec` / `stvec` as the run leaves them); an error of the
/// run is reported before the co-simulation starts.
fn load_program(path: &Path, variant: Variant, hart: &HartArgs) -> Result<Program, CliError> {
    let name = path.display().to_string();
    let bytes = read_elf(path)?;
    let mut image = ProgramImage::from_elf(&bytes).at(&name)?;
    let params = variant.params();
    let config = hart.config(params.itype_width())?;
    let bootrom = hart.spike_bootrom;
    let mut model = Hart::from_elf(&bytes, config).at(&name)?.without_console();
    if bootrom {
        add_bootrom_code(&mut image, model.xlen(), model.entry())?;
    }
    let bits = xlen_bits(model.xlen());
    if bits != variant.config().address_width() {
        return Err(CliError::input(
            format!(
                "a {bits}-bit program cannot run on the {} encoder",
                variant.config().name()
            ),
            &name,
        ));
    }
    let mut records = 0u64;
    let exit_code = model
        .run(&mut |_: &IngressRecord, _: u32| records += 1)
        .at(&name)?
        .exit_code;
    let decoder = DecoderConfig {
        trap_vectors: Some(TrapVectors {
            mtvec: model.read_csr(0x305).unwrap_or(0),
            stvec: model.read_csr(0x105).unwrap_or(0),
        }),
        ..DecoderConfig::default()
    };
    Ok(Program {
        name,
        exit_code,
        records,
        elf: Arc::new(bytes),
        hart: config,
        image,
        decoder,
    })
}

/// Runs `etrace cosim`.
pub fn run(args: CosimArgs) -> Result<(), CliError> {
    let outputs = given_paths(&[("--wave", &args.wave), ("--output", &args.output)]);
    let inputs: Vec<(&str, &Path)> = args.elf.iter().map(|e| ("the ELF", e.as_path())).collect();
    check_distinct(&outputs, &inputs)?;
    if args.protocol.protocol == Protocol::Ntrace {
        return super::cosim_ntrace::run(&args);
    }
    args.ntrace.refuse_for_etrace()?;
    if let (Some(core), Some(elf)) = (&args.core, &args.elf) {
        let uart = match args.baud {
            Some(baud) => Some(super::cosim_core::uart(baud, args.freq)?),
            None => None,
        };
        return super::cosim_core::run(
            elf,
            core,
            &args.hardware,
            args.encoder.options()?,
            super::cosim_core::Outputs {
                wave: args.wave.as_deref(),
                trace: args.output.as_deref(),
                uart,
            },
        );
    }
    let stall = StallConfig {
        stall_probability: probability(args.stall_probability, "--stall-probability")?,
        idle_probability: probability(args.idle_probability, "--idle-probability")?,
        seed: args.seed,
    };
    let xlen = match &args.elf {
        Some(path) => {
            let name = path.display().to_string();
            let bytes = read_elf(path)?;
            Some(xlen_bits(
                Hart::from_elf(&bytes, HartConfig::default())
                    .at(&name)?
                    .xlen(),
            ))
        }
        None => None,
    };
    let variant = variant(&args, xlen)?;
    let mut config = CosimConfig::new(variant);
    config.options = args.encoder.options()?;
    if config.options.branch_prediction && variant.params().bpred_size_p == 0 {
        return Err(CliError::input(
            format!(
                "the RTL {variant} has no branch predictor (bpred_size_p 0): build with \
                 --bpred-size 6, or --variant rv32-bp / rv32-all"
            ),
            "--branch-prediction",
        ));
    }
    if config.options.implicit_return && variant.params().return_stack_size_p == 0 {
        return Err(CliError::input(
            format!(
                "the RTL {variant} has no return stack (return_stack_size_p 0): build with \
                 --return-stack-size 2, or --variant rv32-ir / rv32-all"
            ),
            "--implicit-return",
        ));
    }
    config.stall = stall;
    config.src_id = args.src_id;
    config.wave = args.wave.clone();
    check_wave_dir(args.wave.as_deref())?;

    if args.random == Some(0) {
        return Err(CliError::input(
            "a random stream of 0 records: nothing would be checked",
            "--random",
        ));
    }
    let start = Instant::now();
    let program = match &args.elf {
        Some(path) => Some(load_program(path, variant, &args.hart)?),
        None => None,
    };
    let hart_seconds = start.elapsed().as_secs_f64();
    let total = match (&program, args.random) {
        (Some(p), _) => p.records,
        (None, Some(n)) => n,
        (None, None) => 0,
    };
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} cosim {bar:40} {pos}/{len} records, {msg} [{elapsed_precise}]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut progress = |cycles: u64, blocks: u64| {
        bar.set_position(blocks);
        bar.set_message(format!("{cycles} cycles"));
    };
    let output = config.output();
    let file = match &args.output {
        Some(path) => Some(TraceFile::create(path, &output)?),
        None => None,
    };
    let params = config.params();
    // Records the co-simulation's run and the check's run of the hart model handed on.
    let presented = Arc::new(RecordsTally::default());
    // Where a run after a trace loss may start: grows with the FIFO and the back-pressure.
    let window = window_for(output.fifo_depth, stall.stall_probability);
    let stepped = Arc::new(RecordsTally::default());
    let mut consumer = Consumer {
        file,
        deframe: TakenDeframer::new(&output),
        check: program.as_ref().map(|p| {
            StreamCheck::new(&params, &p.image, p.decoder, p.steps(&stepped)).with_window(window)
        }),
    };
    let mut take = |items: TakenItems<'_>| consumer.take(items);
    let stats = match &program {
        Some(p) => {
            let records = || p.records(&presented);
            cosim::run_streaming(&config, records, &mut progress, &mut take)
        }
        None => {
            let stream = RandomStream::new(RandomStreamConfig::for_params(&params), args.seed);
            let records = || stream.clone().take(total as usize);
            cosim::run_streaming(&config, records, &mut progress, &mut take)
        }
    };
    bar.finish_and_clear();
    let source = program.as_ref().map_or_else(
        || format!("random stream, seed {}", args.seed),
        |p| p.name.clone(),
    );
    let s: CosimStats = match stats {
        Ok(s) => s,
        // Only `-o` stops the run (it cannot be written): its error, naming the file.
        Err(CosimError::ConsumerStopped(cycles)) => {
            return Err(TraceFile::stop_error(consumer.file.take())
                .unwrap_or_else(|| cosim_error(CosimError::ConsumerStopped(cycles), &source)));
        }
        // The RTL's output of a failed run is not kept: dropping the consumer's file
        // removes its `.part` file, and an existing TRACE is left as it was.
        Err(e) => return Err(cosim_error(e, &source)),
    };
    if let Some(p) = &program {
        // Every record of the first run was presented (not a run cut short by an error).
        p.check_run(&presented, Some(p.records))?;
    }
    outln!("cosim: {source} on RTL {variant}")?;
    outln!("cycles: {}", s.cycles)?;
    outln!(
        "wall time: {:.3} s (hart model {hart_seconds:.3} s)",
        s.seconds
    )?;
    outln!("cycles per second: {:.0}", s.cycles_per_second())?;
    outln!("instructions checked: {}", s.instructions)?;
    outln!(
        "packets matched: {} ({} dropped by both)",
        s.packets,
        s.dropped
    )?;
    outln!("bytes matched: {}", s.bytes)?;
    if let (Some(path), Some(file)) = (&args.output, consumer.file.take()) {
        file.finish()?;
        outln!("RTL output: {}", path.display())?;
        let top = variant.top_options();
        let description = format!(
            "parameters of the RTL {variant} that wrote {}",
            path.display()
        );
        for file in write_params_files(variant.config(), &top, &description, path)? {
            outln!("its parameters: {}", file.display())?;
        }
    }
    if let (Some(p), Some(mut check)) = (&program, consumer.check.take()) {
        check.push(&consumer.deframe.finish());
        let summary = check.finish();
        p.check_run(&stepped, None)?;
        let summary = summary.map_err(|e| {
            CliError::check(
                format!("the RTL's trace does not decode to the hart's execution: {e}"),
                &p.name,
            )
        })?;
        outln!(
            "decoded: {} steps equal the hart's, in {} run(s) of the trace",
            summary.steps,
            summary.runs
        )?;
        if p.exit_code != 0 {
            return Err(CliError::check(
                format!("the program exited with code {}", p.exit_code),
                &p.name,
            ));
        }
    }
    if s.instructions == 0 && s.packets == 0 && s.bytes == 0 {
        return Err(CliError::check(
            "nothing was checked: no instruction, packet or byte",
            &source,
        ));
    }
    Ok(())
}

/// The error of a co-simulation that stopped: a mismatch names its cycle, with the
/// report's lines as context.
fn cosim_error(e: CosimError, source: &str) -> CliError {
    match e {
        CosimError::Mismatch(m) => {
            let mut err = CliError::check(
                format!("the RTL differs from the model at cycle {}", m.cycle),
                source,
            );
            for line in m.to_string().lines().skip(1) {
                err = err.with_context(line.trim_start());
            }
            err
        }
        // Settings the model cannot run, or a waveform that cannot be written.
        e @ (CosimError::Model(_) | CosimError::Wave(_)) => CliError::input(e, source),
        e => CliError::check(e, source),
    }
}
