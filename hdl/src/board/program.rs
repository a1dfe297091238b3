//! The ingress trace a board replays: a window of the `traps` test program
//! (`programs/src/traps.c`) run on the hart model, past its start-up code, with
//! conditional branches, calls, returns, indirect jumps, `xRET`s and four traps
//! (`ecall`, two `ebreak`s, an illegal instruction).

use etrace_model::hart::{Hart, HartConfig};
use etrace_model::ingress::{IngressRecord, ItypeWidth};

use super::BoardError;
use crate::config::Config;

/// The RV32 build of the program.
const TRAPS_RV32: &[u8] = include_bytes!("../../../programs/elf/traps-rv32.elf");
/// The RV64 build of the program.
const TRAPS_RV64: &[u8] = include_bytes!("../../../programs/elf/traps-rv64.elf");

/// The program's ELF in the repository, for `config`'s XLEN (to decode a board's stream).
pub fn program_path(config: Config) -> &'static str {
    if config.address_width() == 32 {
        "programs/elf/traps-rv32.elf"
    } else {
        "programs/elf/traps-rv64.elf"
    }
}

/// Records of start-up code skipped.
pub const SKIP: usize = 100;
/// Records replayed (the replay table's depth: 2^9).
pub const COUNT: usize = 512;

/// The whole ingress trace of the program for `config` (its XLEN and itype width).
pub fn program_records(config: Config) -> Result<Vec<IngressRecord>, BoardError> {
    let elf = if config.address_width() == 32 {
        TRAPS_RV32
    } else {
        TRAPS_RV64
    };
    let itype_width = if config.itype_width() == 3 {
        ItypeWidth::W3
    } else {
        ItypeWidth::W4
    };
    let hart_config = HartConfig {
        itype_width,
        ..HartConfig::default()
    };
    let mut hart =
        Hart::from_elf(elf, hart_config).map_err(|e| BoardError::Program(e.to_string()))?;
    let mut records = Vec::new();
    hart.run(&mut records)
        .map_err(|e| BoardError::Program(e.to_string()))?;
    Ok(records)
}

/// The records a board build replays for `config`: [`COUNT`] records after the first
/// [`SKIP`].
pub fn replayed_records(config: Config) -> Result<Vec<IngressRecord>, BoardError> {
    let records = program_records(config)?;
    if records.len() < SKIP + COUNT {
        return Err(BoardError::Program(format!(
            "the program retires {} records, fewer than {}",
            records.len(),
            SKIP + COUNT
        )));
    }
    Ok(records[SKIP..SKIP + COUNT].to_vec())
}
