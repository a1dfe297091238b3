//! How the commands that run a program on the hart model (`iss`, `encode --elf`, `run`,
//! `cosim`) start it (`docs/cli.md`, "Shared option groups").

use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_decoder::ProgramImage;
use etrace_hart::{spike_bootrom_code, HartConfig, MemoryMap, BOOTROM_BASE};
use etrace_spec::ingress::ItypeWidth;
use etrace_spec::isa::Xlen;

/// The hart model's run options.
#[derive(Args, Clone)]
pub struct HartArgs {
    /// Stop with an error after this many retired instructions of the program.
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    pub max_instructions: u64,
    /// Memory map in spike's syntax: <base>:<size>,... (hex with 0x) or <MiB> at
    /// 0x8000_0000 (default: 2 GiB at 0x8000_0000 plus wherever the ELF loads).
    // Parsed by `config`, not by clap: a malformed map is one error line (clap would
    // append its usage tip).
    #[arg(short = 'm', long = "memory", value_name = "MAP")]
    pub memory: Option<String>,
    /// Run as spike does: start at its boot ROM (0x1000), serve HTIF requests and take
    /// interrupts at its times, so that traces line up with spike's.
    #[arg(long)]
    pub spike_bootrom: bool,
}

impl HartArgs {
    /// The hart configuration, producing records with `itype_width` (`itype_width_p`); a
    /// malformed or unusable `-m` map is a bad-input error.
    pub fn config(&self, itype_width: ItypeWidth) -> Result<HartConfig, CliError> {
        let memory = memory_map(self.memory.as_deref())?;
        Ok(HartConfig {
            max_instructions: self.max_instructions,
            itype_width,
            spike_bootrom: self.spike_bootrom,
            memory,
            ..HartConfig::default()
        })
    }
}

/// The hart model's memory given by a `-m/--memory` map in spike's syntax (`None`: the
/// default, 2 GiB at 0x8000_0000 plus wherever the ELF loads); a malformed or unusable map
/// is a bad-input error naming the option.
pub fn memory_map(text: Option<&str>) -> Result<MemoryMap, CliError> {
    match text {
        Some(text) => text.parse::<MemoryMap>().at("-m/--memory"),
        None => Ok(MemoryMap::default()),
    }
}

/// Adds spike's boot ROM code (`docs/spike.md`, "Boot ROM") for a program of `xlen` entered
/// at `entry` to a decoder's program image, so that a trace starting there decodes.
pub fn add_bootrom_code(image: &mut ProgramImage, xlen: Xlen, entry: u64) -> Result<(), CliError> {
    image
        .add_code(BOOTROM_BASE, &spike_bootrom_code(xlen, entry), xlen)
        .at("spike's boot ROM (--spike-bootrom)")
}
