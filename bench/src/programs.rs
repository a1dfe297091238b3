//! The test programs (`programs/manifest.toml`, `programs/elf`), their runs on the hart
//! model, and our encoder's payloads for them.

use std::path::{Path, PathBuf};

use etrace_encoder::{Encoder, EncoderOptions};
use etrace_hart::{Hart, HartConfig, HartError};
use etrace_spec::elf::parse_elf;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::isa::Xlen;
use etrace_spec::packet::pack;
use etrace_spec::params::Params;

/// The program with a run-time iteration count (`programs/src/scaling.c`).
pub const SCALING: &str = "scaling";

/// Its iteration count variable.
const ROUNDS_SYMBOL: &str = etrace_programs::SCALING_ROUNDS;

/// One built program (`programs/elf/<name>.elf`).
pub struct Program {
    /// File stem, e.g. `workload-rv32`.
    pub name: String,
    /// The ELF file.
    pub elf: Vec<u8>,
    /// Its XLEN.
    pub xlen: Xlen,
    /// How the hart model runs it: in the memory its manifest table asks for.
    pub config: HartConfig,
}

impl Program {
    /// Reads `programs/elf/<name>.elf` below `programs`.
    pub fn load(programs: &Path, name: &str) -> Result<Program, String> {
        let path = programs.join("elf").join(format!("{name}.elf"));
        let elf = std::fs::read(&path).map_err(|e| format!("{e} ({})", path.display()))?;
        let xlen = parse_elf(&elf)
            .map_err(|e| format!("{e} ({})", path.display()))?
            .xlen;
        let config = etrace_programs::hart_config_in(programs, name, HartConfig::default())
            .map_err(|e| e.to_string())?;
        Ok(Program {
            name: name.to_string(),
            elf,
            xlen,
            config,
        })
    }

    /// The default parameters of its XLEN.
    pub fn params(&self) -> Params {
        match self.xlen {
            Xlen::X32 => Params::rv32(),
            Xlen::X64 => Params::rv64(),
        }
    }

    /// Its whole run on the hart model: the ingress records and the retired count.
    pub fn run(&self) -> Result<Run, String> {
        let mut hart =
            Hart::from_elf(&self.elf, self.config).map_err(|e| format!("{e} ({})", self.name))?;
        let mut records = Vec::new();
        let outcome = hart
            .run(&mut records)
            .map_err(|e| format!("{e} ({})", self.name))?;
        Ok(Run {
            records,
            retired: outcome.retired,
        })
    }

    /// The first `instructions` retired instructions of a run with the iteration count
    /// variable `scaling_rounds` set to `rounds` in the loaded image (as a debugger
    /// would); an error if the program exits before.
    pub fn run_cut(&self, rounds: u32, instructions: u64) -> Result<Run, String> {
        let at = |e: &dyn std::fmt::Display| format!("{e} ({})", self.name);
        let address = etrace_programs::scaling_rounds_location(&self.elf)
            .map_err(|e| at(&e))?
            .0;
        let mut image = parse_elf(&self.elf).map_err(|e| at(&e))?;
        let segment = image
            .segments
            .iter_mut()
            .find(|s| address >= s.addr && address + 4 <= s.addr + s.data.len() as u64)
            .ok_or_else(|| at(&format!("{ROUNDS_SYMBOL} is not in a loaded segment")))?;
        let offset = (address - segment.addr) as usize;
        segment.data[offset..offset + 4].copy_from_slice(&rounds.to_le_bytes());
        let config = HartConfig {
            max_instructions: instructions,
            ..self.config
        };
        let mut hart = Hart::from_image(&image, config).map_err(|e| at(&e))?;
        let mut records = Vec::new();
        match hart.run(&mut records) {
            Err(HartError::MaxInstructions { .. }) => Ok(Run {
                retired: hart.retired(),
                records,
            }),
            Ok(_) => Err(at(&format!(
                "the program exited before {instructions} instructions"
            ))),
            Err(e) => Err(at(&e)),
        }
    }
}

/// The ingress records of a run.
pub struct Run {
    /// One record per retired instruction or trap (`ingressPort.adoc`).
    pub records: Vec<IngressRecord>,
    /// Retired instructions.
    pub retired: u64,
}

/// The names of the programs of `programs/manifest.toml`, in order.
pub fn manifest_names(programs: &Path) -> Result<Vec<String>, String> {
    etrace_programs::manifest_names(programs).map_err(|e| e.to_string())
}

/// `programs/` of this checkout.
pub fn default_dir() -> PathBuf {
    etrace_programs::dir()
}

/// Our encoder over `records`: the te_inst payload bytes of every packet (`pack`).
pub fn our_payloads(
    params: &Params,
    options: EncoderOptions,
    records: &[IngressRecord],
) -> Result<Vec<Vec<u8>>, String> {
    let packets = Encoder::encode_all(params, options, records).map_err(|e| e.to_string())?;
    packets
        .iter()
        .map(|p| pack(&p.packet, params).map(|b| b.bytes))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())
}
