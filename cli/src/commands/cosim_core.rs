//! `etrace cosim PROG.elf --core picorv32|serv` (issue 23): the lock-step co-simulation of a
//! soft core (`etrace_tb::soc::lockstep`): the verilated SoC (core, RVFI front end,
//! encoder) runs the program while the hart model runs it with the SoC's memory map; each
//! retirement, the encoder's output port and the decoded trace are checked; a divergence
//! is reported with a waveform of the cycles before it.

use std::ops::ControlFlow;
use std::path::Path;

use etrace_encoder::EncoderOptions;
use etrace_hdl::board::cycles_per_bit;
use etrace_hdl::config::Config;
use etrace_hdl::rvfi::soc::SocEncoderOptions;
use etrace_tb::cosim::TakenItems;
use etrace_tb::soc::lockstep::{self, soc_encoder, LockstepConfig, LockstepError, OutputPace};
use etrace_tb::SocVariant;

use super::cosim::check_wave_dir;
use super::cosim_output::TraceFile;
use super::hardware_args::{frequency_mhz, soc_options_text, write_params_files, HardwareArgs};
use super::io::{outln, read_elf};
use crate::error::{CliError, InputContext};

/// The SoC build of the core `name` (`--core`) whose encoder is built with `hardware`
/// (`--bpred-size`, `--return-stack-size`); a combination that is not built in is
/// refused, naming the builds there are.
fn soc_variant(name: &str, hardware: &HardwareArgs) -> Result<SocVariant, CliError> {
    let core = name.replace('_', "-");
    if !SocVariant::ALL.iter().any(|v| v.core_name() == core) {
        return Err(CliError::input(
            format!("unknown core `{name}` (expected picorv32, serv or picorv32-swapped)"),
            "--core",
        ));
    }
    let encoder = SocEncoderOptions {
        bpred_size: hardware.bpred_size,
        return_stack_size: hardware.return_stack_size,
        src_bits: hardware.src_bits,
        timestamp: hardware.timestamp,
    };
    SocVariant::find(&core, encoder).ok_or_else(|| {
        let built: Vec<String> = SocVariant::ALL
            .iter()
            .filter(|v| v.core_name() == core)
            .map(|v| soc_build_text(*v))
            .collect();
        CliError::input(
            format!(
                "no SoC of {core} is built with{} (built: {})",
                soc_options_text(encoder),
                built.join("; ")
            ),
            "hardware generation options",
        )
    })
}

/// A SoC build in words: the core and its encoder's generation options.
fn soc_build_text(variant: SocVariant) -> String {
    let options = soc_options_text(variant.encoder());
    format!("{} (rv32{options})", variant.core_name())
}

/// The run-time options `options` need blocks that `variant`'s encoder has.
fn check_options(variant: SocVariant, options: &EncoderOptions) -> Result<(), CliError> {
    let e = variant.encoder();
    let missing = [
        (
            options.branch_prediction && e.bpred_size == 0,
            "--branch-prediction",
            "branch predictor",
        ),
        (
            options.implicit_return && e.return_stack_size == 0,
            "--implicit-return",
            "return stack",
        ),
    ];
    match missing.into_iter().find(|(m, _, _)| *m) {
        Some((_, option, block)) => Err(CliError::input(
            format!(
                "the SoC's encoder ({}) has no {block}: add --bpred-size 6 \
                 --return-stack-size 2 (PicoRV32)",
                soc_build_text(variant)
            ),
            option,
        )),
        None => Ok(()),
    }
}

/// The SoC's UART (`--baud`, `--freq`): baud, clock in Hz and cycles a bit.
#[derive(Debug, Clone, Copy)]
pub struct Uart {
    baud: u32,
    clock_hz: u32,
    cycles_per_bit: u32,
}

/// The UART of `--baud baud` on a clock of `freq` MHz (default 12): refused when the bit
/// time cannot be made from the clock (as `synth --baud`).
pub fn uart(baud: u32, freq: Option<f64>) -> Result<Uart, CliError> {
    let mhz = frequency_mhz(freq.unwrap_or(12.0))?;
    let clock_hz = (mhz * 1e6).round() as u32;
    let cycles_per_bit = cycles_per_bit(clock_hz, baud).at("--baud")?;
    Ok(Uart {
        baud,
        clock_hz,
        cycles_per_bit,
    })
}

/// What a lock-step run writes, and how its output is taken.
#[derive(Debug, Clone, Copy)]
pub struct Outputs<'a> {
    /// `--wave`: the waveform of the whole run (or of a divergence).
    pub wave: Option<&'a Path>,
    /// `-o`: the bytes the RTL produced (those taken), with the parameter files beside.
    pub trace: Option<&'a Path>,
    /// `--baud`: the UART that takes the output (else every cycle).
    pub uart: Option<Uart>,
}

/// Runs the lock-step co-simulation of `elf` on core `core` with `options`, writing
/// `outputs`.
pub fn run(
    elf: &Path,
    core: &str,
    hardware: &HardwareArgs,
    options: EncoderOptions,
    outputs: Outputs,
) -> Result<(), CliError> {
    let Outputs { wave, trace, uart } = outputs;
    let variant = soc_variant(core, hardware)?;
    check_options(variant, &options)?;
    check_wave_dir(wave)?;
    let name = elf.display().to_string();
    let bytes = read_elf(elf)?;
    let mut config = LockstepConfig::new(variant);
    config.options = options;
    config.wave = wave.map(Path::to_path_buf);
    if let Some(u) = uart {
        config.pace = OutputPace::Uart {
            cycles_per_bit: u.cycles_per_bit,
        };
    }
    // The SoC's encoder: the `rv32` byte stream (encap).
    let (_, output) = soc_encoder(variant.encoder());
    let mut file = match trace {
        Some(path) => Some(TraceFile::create(path, &output)?),
        None => None,
    };
    let mut taken = |piece: &[u8]| match file.as_mut() {
        Some(f) => f.write(TakenItems::Bytes(piece)),
        None => ControlFlow::Continue(()),
    };
    let outcome = match lockstep::run_with(&bytes, &config, &mut taken) {
        Ok(o) => o,
        Err(LockstepError::Diverged(d)) => {
            return Err(CliError::check(
                format!(
                    "the core diverges from the hart model at retirement {}",
                    d.retirement
                ),
                &name,
            )
            .with_context(d.to_string()))
        }
        Err(
            e @ (LockstepError::Elf(_)
            | LockstepError::NotRv32
            | LockstepError::Image(_)
            | LockstepError::Load(_)
            | LockstepError::Hart(_)
            | LockstepError::Model(_)
            | LockstepError::Control(_)
            | LockstepError::Wave(_)),
        ) => return Err(CliError::input(e, &name)),
        // Only `-o` stops the run (it cannot be written): its error, naming the file.
        Err(e @ LockstepError::ConsumerStopped(_)) => {
            return Err(
                TraceFile::stop_error(file.take()).unwrap_or_else(|| CliError::check(e, &name))
            )
        }
        Err(e) => return Err(CliError::check(e, &name)),
    };
    outln!("cosim: {name} on core {}", soc_build_text(variant))?;
    if let (Some(path), Some(file)) = (trace, file) {
        file.finish()?;
        outln!("RTL output: {}", path.display())?;
        let description = format!(
            "parameters of the SoC's encoder, {}, that wrote {}",
            soc_build_text(variant),
            path.display()
        );
        let top = variant.encoder().top_options();
        for file in write_params_files(Config::Rv32, &top, &description, path)? {
            outln!("its parameters: {}", file.display())?;
        }
    }
    if let Some(u) = uart {
        outln!(
            "output: 8N1 UART at {} baud from a {:.3} MHz clock ({} cycles a bit)",
            u.baud,
            f64::from(u.clock_hz) / 1e6,
            u.cycles_per_bit
        )?;
    }
    outln!("cycles: {}", outcome.cycles)?;
    outln!("wall time: {:.3} s", outcome.seconds)?;
    outln!("cycles per second: {:.0}", outcome.cycles_per_second())?;
    outln!("retirements checked: {}", outcome.retired)?;
    outln!("bytes matched: {}", outcome.bytes)?;
    outln!(
        "trace bits per core cycle: {:.4}, per instruction: {:.4}",
        outcome.bits_per_cycle(),
        outcome.bits_per_instruction()
    )?;
    outln!(
        "decoded: {} steps equal the hart's, in {} run(s) of the trace",
        outcome.decoded.steps,
        outcome.decoded.runs
    )?;
    match outcome.hart_steps {
        Some(all) if outcome.losses > 0 => outln!(
            "trace lost: {} times ({} cycles; {} of them reported in the trace); decoded {} \
             of the hart's {all} steps ({:.2} % lost)",
            outcome.losses,
            outcome.lost_cycles,
            outcome.decoded.runs.saturating_sub(1),
            outcome.decoded.steps,
            100.0 * outcome.steps_lost() as f64 / all.max(1) as f64
        ),
        Some(all) => outln!(
            "trace lost: never; the program switched trace off through the trace control \
             registers: decoded {} of the hart's {all} steps",
            outcome.decoded.steps
        ),
        None => outln!("trace lost: never"),
    }
}
