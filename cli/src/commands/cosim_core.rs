//! `etrace cosim PROG.elf --core picorv32|serv` (issue 23): the lock-step co-simulation of a
//! soft core (`etrace_tb::soc::lockstep`): the verilated SoC (core, RVFI front end,
//! encoder) runs the program while the hart model runs it with the SoC's memory map; each
//! retirement, the encoder's output port and the decoded trace are checked; a divergence
//! is reported with a waveform of the cycles before it.

use std::path::Path;

use etrace_encoder::EncoderOptions;
use etrace_tb::soc::lockstep::{self, LockstepConfig, LockstepError};
use etrace_tb::SocVariant;

use super::io::read_elf;
use crate::error::CliError;

/// The SoC build of a `--core` name.
fn soc_variant(name: &str) -> Result<SocVariant, CliError> {
    SocVariant::ALL
        .into_iter()
        .find(|v| v.name() == name.replace('-', "_"))
        .ok_or_else(|| {
            CliError::input(
                format!("unknown core `{name}` (expected picorv32, serv or picorv32-swapped)"),
                "--core",
            )
        })
}

/// Runs the lock-step co-simulation of `elf` on core `core` with `options`, the waveform
/// (`--wave`) of the whole run into `wave`.
pub fn run(
    elf: &Path,
    core: &str,
    options: EncoderOptions,
    wave: Option<&Path>,
) -> Result<(), CliError> {
    let variant = soc_variant(core)?;
    if let Some(dir) = wave.and_then(Path::parent) {
        if !dir.as_os_str().is_empty() && !dir.is_dir() {
            return Err(CliError::input(
                "the waveform's directory does not exist",
                dir.display(),
            ));
        }
    }
    let name = elf.display().to_string();
    let bytes = read_elf(elf)?;
    let mut config = LockstepConfig::new(variant);
    config.options = options;
    config.wave = wave.map(Path::to_path_buf);
    let outcome = match lockstep::run(&bytes, &config) {
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
            | LockstepError::Wave(_)),
        ) => return Err(CliError::input(e, &name)),
        Err(e) => return Err(CliError::check(e, &name)),
    };
    println!("cosim: {name} on core {}", variant.name());
    println!("cycles: {}", outcome.cycles);
    println!("wall time: {:.3} s", outcome.seconds);
    println!("cycles per second: {:.0}", outcome.cycles_per_second());
    println!("retirements checked: {}", outcome.retired);
    println!("bytes matched: {}", outcome.bytes);
    println!(
        "trace bits per core cycle: {:.4}, per instruction: {:.4}",
        outcome.bits_per_cycle(),
        outcome.bits_per_instruction()
    );
    println!(
        "decoded: {} steps equal the hart's, in {} run(s) of the trace",
        outcome.decoded.steps, outcome.decoded.runs
    );
    Ok(())
}
