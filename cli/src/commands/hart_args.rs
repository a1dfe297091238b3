//! How the commands that run a program on the hart model (`iss`, `encode --elf`, `run`,
//! `cosim`) start it (`docs/cli.md`, "Shared option groups").

use clap::Args;
use etrace_hart::HartConfig;
use etrace_spec::ingress::ItypeWidth;

/// The hart model's run options.
#[derive(Args, Clone, Copy)]
pub struct HartArgs {
    /// Stop with an error after this many retired instructions of the program.
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    pub max_instructions: u64,
}

impl HartArgs {
    /// The hart configuration, producing records with `itype_width` (`itype_width_p`).
    pub fn config(&self, itype_width: ItypeWidth) -> HartConfig {
        HartConfig {
            max_instructions: self.max_instructions,
            itype_width,
            ..HartConfig::default()
        }
    }
}
