//! The project's test programs (`programs/README.md`): where their built ELFs are, how to
//! run one on the hart model, and the window of `traps` that the board tops replay from
//! block RAM ([`replay`]).

use std::path::{Path, PathBuf};

use etrace_hart::{Hart, HartConfig, HartError, LoadError, MemoryMap};
use etrace_spec::ingress::IngressRecord;

/// Why a test program could not be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// The ELF file could not be read.
    #[error("cannot read {path}: {reason}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        reason: String,
    },
    /// The hart model refused the ELF.
    #[error("{name}: {source}")]
    Load {
        /// The program.
        name: String,
        /// Why.
        source: LoadError,
    },
    /// The run stopped without the program exiting.
    #[error("{name}: {source}")]
    Run {
        /// The program.
        name: String,
        /// Why.
        source: HartError,
    },
    /// `manifest.toml` is missing or malformed.
    #[error("{reason} ({path})")]
    Manifest {
        /// The manifest file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// One of the scaling program's run-time counts is not where it should be.
    #[error("{reason} ({symbol})")]
    Rounds {
        /// The variable (`scaling_rounds` or `scaling_steps`).
        symbol: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The run retired fewer records than asked for.
    #[error("{name} retires {len} records, fewer than {need}")]
    TooShort {
        /// The program.
        name: String,
        /// Records retired.
        len: usize,
        /// Records needed.
        need: usize,
    },
}

/// The run-time round count of the scaling program (`src/scaling.c`): the workload's four
/// parts, about 1.6 million instructions per round.
pub const SCALING_ROUNDS: &str = "scaling_rounds";

/// The run-time step count of the scaling program (`src/scaling.c`): small steps after the
/// rounds, about 2 * 10^4 instructions each, for runs shorter than a round.
pub const SCALING_STEPS: &str = "scaling_steps";

/// The run-time turn count of the scaling program's last loop (`src/scaling.c`): 5
/// instructions a turn, one branch taken every turn, so that with branch prediction the
/// whole loop is one format 0 packet.
pub const SCALING_SPIN: &str = "scaling_spin";

/// Where [`SCALING_ROUNDS`] lies in an ELF file of the scaling program: its address and
/// the offset of its four bytes in the file.
pub fn scaling_rounds_location(elf: &[u8]) -> Result<(u64, usize), ProgramError> {
    variable_location(elf, SCALING_ROUNDS)
}

/// Where the 32-bit variable `symbol` lies in an ELF file: its address and the offset of
/// its four bytes in the file.
fn variable_location(elf: &[u8], symbol: &'static str) -> Result<(u64, usize), ProgramError> {
    use object::{Object, ObjectSection, ObjectSymbol};
    let fail = |reason: &str| ProgramError::Rounds {
        symbol,
        reason: reason.to_string(),
    };
    let file = object::File::parse(elf).map_err(|e| fail(&e.to_string()))?;
    let found = file
        .symbols()
        .find(|s| s.name() == Ok(symbol))
        .ok_or_else(|| fail("no such symbol in the ELF"))?;
    let address = found.address();
    let section = found
        .section_index()
        .and_then(|i| file.section_by_index(i).ok())
        .ok_or_else(|| fail("in no section"))?;
    let (start, size) = section
        .file_range()
        .ok_or_else(|| fail("no bytes in the file"))?;
    let within = address.wrapping_sub(section.address());
    if within.saturating_add(4) > size {
        return Err(fail("past the end of its section"));
    }
    Ok((address, (start + within) as usize))
}

/// A copy of a scaling program's ELF file with [`SCALING_ROUNDS`] set to `rounds` (the
/// file's bytes patched, as a debugger would set the variable), so that the command line
/// runs it for as long as wanted: one round is about 1.6 million instructions.
pub fn scaling_elf(elf: &[u8], rounds: u32) -> Result<Vec<u8>, ProgramError> {
    scaling_elf_sized(elf, rounds, 0)
}

/// A copy of a scaling program's ELF file with [`SCALING_ROUNDS`] set to `rounds` and
/// [`SCALING_STEPS`] to `steps` (about 1.6 * 10^6 and 2 * 10^4 instructions each).
pub fn scaling_elf_sized(elf: &[u8], rounds: u32, steps: u32) -> Result<Vec<u8>, ProgramError> {
    patched_elf(elf, &[(SCALING_ROUNDS, rounds), (SCALING_STEPS, steps)])
}

/// A copy of a scaling program's ELF file with [`SCALING_SPIN`] set to `turns` (after one
/// round of the workload's parts): a run of about 1.6 * 10^6 + 5 * `turns` instructions
/// whose last loop, with branch prediction, reaches the decoder only when it ends.
pub fn scaling_elf_spin(elf: &[u8], turns: u32) -> Result<Vec<u8>, ProgramError> {
    patched_elf(elf, &[(SCALING_SPIN, turns)])
}

/// A copy of an ELF file with each 32-bit variable `symbol` set to `value`.
fn patched_elf(elf: &[u8], values: &[(&'static str, u32)]) -> Result<Vec<u8>, ProgramError> {
    let mut patched = elf.to_vec();
    for &(symbol, value) in values {
        let offset = variable_location(elf, symbol)?.1;
        patched[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    }
    Ok(patched)
}

/// The `programs/` folder of the source tree this crate was built from (sources,
/// `manifest.toml`, `elf/`: for tests and benchmarks).
pub fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `[[program]]` tables of `<dir>/manifest.toml`, in order (the schema is in the
/// manifest's header).
pub fn manifest_tables(dir: &Path) -> Result<Vec<toml::Table>, ProgramError> {
    let path = dir.join("manifest.toml");
    let fail = |reason: String| ProgramError::Manifest {
        path: path.display().to_string(),
        reason,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| fail(e.to_string()))?;
    let manifest: toml::Table = toml::from_str(&text).map_err(|e| fail(e.to_string()))?;
    let tables = manifest
        .get("program")
        .and_then(toml::Value::as_array)
        .ok_or_else(|| fail("no [[program]] tables".to_string()))?;
    let tables = tables
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.as_table()
                .filter(|t| t.get("name").and_then(toml::Value::as_str).is_some())
                .cloned()
                .ok_or_else(|| fail(format!("[[program]] {} has no name", i + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if tables.is_empty() {
        return Err(fail("no programs listed".to_string()));
    }
    Ok(tables)
}

/// The names of the programs of `<dir>/manifest.toml` (the `name` of every
/// `[[program]]` table), in order.
pub fn manifest_names(dir: &Path) -> Result<Vec<String>, ProgramError> {
    Ok(manifest_tables(dir)?
        .iter()
        .filter_map(|t| t.get("name").and_then(toml::Value::as_str))
        .map(str::to_string)
        .collect())
}

/// The names of the programs of `<dir>/manifest.toml` whose whole run retires at most
/// `max_instret` instructions (their `instret_max`): the quick ones, for tests that run
/// every program in many variants.
pub fn manifest_names_up_to(dir: &Path, max_instret: u64) -> Result<Vec<String>, ProgramError> {
    Ok(manifest_tables(dir)?
        .iter()
        .filter(|t| {
            t.get("instret_max")
                .and_then(toml::Value::as_integer)
                .is_some_and(|n| u64::try_from(n).is_ok_and(|n| n <= max_instret))
        })
        .filter_map(|t| t.get("name").and_then(toml::Value::as_str))
        .map(str::to_string)
        .collect())
}

/// The manifest table of the program built as `<stem>.elf` (`<name>-rv32` or
/// `<name>-rv64`), if `<dir>/manifest.toml` lists it.
fn manifest_table(dir: &Path, stem: &str) -> Result<Option<toml::Table>, ProgramError> {
    let name = stem
        .strip_suffix("-rv32")
        .or_else(|| stem.strip_suffix("-rv64"))
        .unwrap_or(stem);
    Ok(manifest_tables(dir)?
        .into_iter()
        .find(|t| t.get("name").and_then(toml::Value::as_str) == Some(name)))
}

/// The memory map (spike's `-m` syntax) that the program built as `<stem>.elf` needs: its
/// key `memory` in `<dir>/manifest.toml`, `None` for a program that runs in the default
/// memory or that the manifest does not list.
pub fn manifest_memory(dir: &Path, stem: &str) -> Result<Option<String>, ProgramError> {
    let Some(table) = manifest_table(dir, stem)? else {
        return Ok(None);
    };
    match table.get("memory") {
        None => Ok(None),
        Some(toml::Value::String(map)) => Ok(Some(map.clone())),
        Some(_) => Err(ProgramError::Manifest {
            path: dir.join("manifest.toml").display().to_string(),
            reason: format!("`memory` of {stem} is not a string"),
        }),
    }
}

/// `config` with the memory map that the program built as `<stem>.elf` needs (its key
/// `memory` in `<dir>/manifest.toml`, [`manifest_memory`]); unchanged for a program without
/// one.
pub fn hart_config_in(
    dir: &Path,
    stem: &str,
    config: HartConfig,
) -> Result<HartConfig, ProgramError> {
    let Some(text) = manifest_memory(dir, stem)? else {
        return Ok(config);
    };
    let memory: MemoryMap =
        text.parse()
            .map_err(|e: etrace_hart::MemoryMapError| ProgramError::Manifest {
                path: dir.join("manifest.toml").display().to_string(),
                reason: format!("`memory` of {stem}: {e}"),
            })?;
    Ok(HartConfig { memory, ..config })
}

/// [`hart_config_in`] for this source tree's programs ([`dir`]): every test that runs the
/// test programs on the hart model starts them with this.
pub fn hart_config(stem: &str, config: HartConfig) -> Result<HartConfig, ProgramError> {
    hart_config_in(&dir(), stem, config)
}

/// The folder of the built ELFs (`programs/elf/`, in the source tree this crate was built
/// from: for tests and benchmarks).
pub fn elf_dir() -> PathBuf {
    dir().join("elf")
}

/// The ELF of a program build, `<stem>.elf` (for example `traps-rv32`).
pub fn elf_path(stem: &str) -> PathBuf {
    elf_dir().join(format!("{stem}.elf"))
}

/// The bytes of the ELF `<stem>.elf`.
pub fn elf(stem: &str) -> Result<Vec<u8>, ProgramError> {
    let path = elf_path(stem);
    std::fs::read(&path).map_err(|e| ProgramError::Read {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

/// Every ingress record of a whole run of the ELF `bytes` (`name` for messages): the run
/// must end with the program's exit.
pub fn run_records(
    name: &str,
    bytes: &[u8],
    config: HartConfig,
) -> Result<Vec<IngressRecord>, ProgramError> {
    let mut hart = Hart::from_elf(bytes, config).map_err(|source| ProgramError::Load {
        name: name.to_string(),
        source,
    })?;
    let mut records = Vec::new();
    hart.run(&mut records).map_err(|source| ProgramError::Run {
        name: name.to_string(),
        source,
    })?;
    Ok(records)
}

/// The first `limit` ingress records of a whole run of `<stem>.elf` (the run must end with
/// the program's exit), in the memory the manifest gives the program ([`hart_config`]).
pub fn records(
    stem: &str,
    config: HartConfig,
    limit: usize,
) -> Result<Vec<IngressRecord>, ProgramError> {
    let config = hart_config(stem, config)?;
    let mut records = run_records(stem, &elf(stem)?, config)?;
    records.truncate(limit);
    Ok(records)
}

pub mod replay {
    //! The ingress trace a board replays: a window of the `traps` test program
    //! (`programs/src/traps.c`) run on the hart model, past its start-up code, with
    //! conditional branches, calls, returns, indirect jumps, `xRET`s and four traps
    //! (`ecall`, two `ebreak`s, an illegal instruction). The ELFs are built into the
    //! binary, so `etrace synth` makes the replay table wherever it runs.

    use etrace_hart::{Hart, HartConfig, HartError};
    use etrace_spec::ingress::{IngressRecord, ItypeWidth};
    use etrace_spec::isa::Xlen;

    use super::{run_records, ProgramError};

    /// The RV32 build of the program.
    const TRAPS_RV32: &[u8] = include_bytes!("elf/traps-rv32.elf");
    /// The RV64 build of the program.
    const TRAPS_RV64: &[u8] = include_bytes!("elf/traps-rv64.elf");

    /// Records of start-up code skipped.
    pub const SKIP: usize = 100;
    /// Records replayed (the depth of the board's replay table).
    pub const COUNT: usize = 512;

    /// The program's ELF in the repository, for `xlen` (to decode a board's stream).
    pub fn program_path(xlen: Xlen) -> &'static str {
        match xlen {
            Xlen::X32 => "programs/elf/traps-rv32.elf",
            Xlen::X64 => "programs/elf/traps-rv64.elf",
        }
    }

    /// The whole ingress trace of the program for `xlen` and `itype_width`.
    pub fn program_records(
        xlen: Xlen,
        itype_width: ItypeWidth,
    ) -> Result<Vec<IngressRecord>, ProgramError> {
        let (elf, config) = program(xlen, itype_width);
        run_records(program_path(xlen), elf, config)
    }

    /// The program's ELF for `xlen` (built into the binary; its path in the repository is
    /// [`program_path`]).
    pub fn program_elf(xlen: Xlen) -> &'static [u8] {
        match xlen {
            Xlen::X32 => TRAPS_RV32,
            Xlen::X64 => TRAPS_RV64,
        }
    }

    /// The program's ELF for `xlen` and the hart model's configuration that runs it with
    /// `itype_width`.
    fn program(xlen: Xlen, itype_width: ItypeWidth) -> (&'static [u8], HartConfig) {
        let elf = program_elf(xlen);
        let config = HartConfig {
            itype_width,
            ..HartConfig::default()
        };
        (elf, config)
    }

    /// The records a board replays: [`COUNT`] records after the first [`SKIP`].
    pub fn replayed_records(
        xlen: Xlen,
        itype_width: ItypeWidth,
    ) -> Result<Vec<IngressRecord>, ProgramError> {
        let (elf, config) = program(xlen, itype_width);
        let records = replay_window(program_path(xlen), elf, config)?.records;
        if records.len() < COUNT {
            return Err(ProgramError::TooShort {
                name: program_path(xlen).to_string(),
                len: records.len(),
                need: SKIP + COUNT,
            });
        }
        Ok(records)
    }

    /// The records a board replays of the ELF `bytes` (`name` for messages) run on the
    /// hart model with `config`: [`COUNT`] records after the first [`SKIP`], or of a
    /// shorter run its last [`COUNT`] (all of a run of at most [`COUNT`]). The run stops
    /// once it has retired the instructions the window needs, so a program that never
    /// exits (firmware in a loop) replays too; a run that stops for another reason before
    /// its exit, or retires nothing, is an error.
    pub fn replay_window(
        name: &str,
        bytes: &[u8],
        config: HartConfig,
    ) -> Result<ReplayWindow, ProgramError> {
        // Every retired instruction makes a record (a trap without retirement one more).
        let limit = (SKIP + COUNT) as u64;
        let config = HartConfig {
            max_instructions: limit,
            ..config
        };
        let mut hart = Hart::from_elf(bytes, config).map_err(|source| ProgramError::Load {
            name: name.to_string(),
            source,
        })?;
        let mut records = Vec::new();
        match hart.run(&mut records) {
            Ok(_) | Err(HartError::MaxInstructions { .. }) => {}
            Err(source) => {
                return Err(ProgramError::Run {
                    name: name.to_string(),
                    source,
                })
            }
        }
        if records.is_empty() {
            return Err(ProgramError::TooShort {
                name: name.to_string(),
                len: 0,
                need: 1,
            });
        }
        let first = SKIP.min(records.len().saturating_sub(COUNT));
        let end = records.len().min(first + COUNT);
        Ok(ReplayWindow {
            first,
            records: records[first..end].to_vec(),
        })
    }

    /// The records a board replays of a run ([`replay_window`]).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct ReplayWindow {
        /// The index of the first replayed record in the run.
        pub first: usize,
        /// The replayed records.
        pub records: Vec<IngressRecord>,
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The replay window stops the run early; its records are those of the whole run.
        #[test]
        fn the_window_of_a_long_run_is_that_of_the_whole_run() {
            for xlen in [Xlen::X32, Xlen::X64] {
                let whole = program_records(xlen, ItypeWidth::W4).unwrap();
                let window = replayed_records(xlen, ItypeWidth::W4).unwrap();
                assert_eq!(window, whole[SKIP..SKIP + COUNT], "{xlen:?}");
            }
        }

        /// A run shorter than the window replays all of it; a program the hart model
        /// cannot load is an error naming it.
        #[test]
        fn a_short_run_replays_whole_and_a_bad_elf_is_an_error() {
            let bytes = crate::elf("minimal-rv32").unwrap();
            let whole = run_records("minimal", &bytes, HartConfig::default()).unwrap();
            assert!(whole.len() < COUNT);
            let window = replay_window("minimal", &bytes, HartConfig::default()).unwrap();
            assert_eq!(window.first, 0);
            assert_eq!(window.records, whole);
            let e = replay_window("junk.elf", b"not an elf", HartConfig::default()).unwrap_err();
            assert!(matches!(e, ProgramError::Load { .. }), "{e}");
            assert!(e.to_string().starts_with("junk.elf: "), "{e}");
        }

        #[test]
        fn replayed_window_has_branches_jumps_and_traps() {
            for xlen in [Xlen::X32, Xlen::X64] {
                for width in [ItypeWidth::W3, ItypeWidth::W4] {
                    let records = replayed_records(xlen, width).unwrap();
                    assert_eq!(records.len(), COUNT);
                    let count = |f: &dyn Fn(&IngressRecord) -> bool| {
                        records.iter().filter(|r| f(r)).count()
                    };
                    assert!(count(&|r| r.itype.is_branch()) > 20, "{xlen:?}: branches");
                    assert!(count(&|r| r.itype.is_trap()) >= 3, "{xlen:?}: traps");
                    assert!(
                        count(&|r| r.itype.is_uninferable_discon()) >= 3,
                        "{xlen:?}: uninferable jumps"
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use etrace_hart::{Hart, HartConfig, NullSink};

    use super::{elf, scaling_elf_sized};

    /// Runs `scaling-<target>` with `rounds` rounds and `steps` steps: the instructions it
    /// retires, after checking that it exits with 0 and prints "scaling ok".
    fn retired(target: &str, rounds: u32, steps: u32) -> u64 {
        let stem = format!("scaling-{target}");
        let bytes = scaling_elf_sized(&elf(&stem).unwrap(), rounds, steps).unwrap();
        let mut hart = Hart::from_elf(&bytes, HartConfig::default()).unwrap();
        let outcome = hart.run(&mut NullSink).unwrap();
        assert_eq!(
            outcome.exit_code, 0,
            "{stem}, {rounds} rounds, {steps} steps"
        );
        assert_eq!(hart.console(), "scaling ok\n");
        outcome.retired
    }

    /// The steps of `src/scaling.c` are about 2 * 10^4 instructions each, so that the
    /// benchmark's long-run table reaches down to 10^5 instructions; rounds and steps add.
    #[test]
    fn scaling_steps_and_rounds_set_the_length() {
        for target in ["rv32", "rv64"] {
            let base = retired(target, 0, 0);
            let step = (retired(target, 0, 10) - base) / 10;
            assert!(
                (10_000..40_000).contains(&step),
                "{target}: {step} per step"
            );
            let round = retired(target, 1, 0) - base;
            assert!((1_000_000..2_500_000).contains(&round), "{target}: {round}");
            let both = retired(target, 1, 10) - base;
            assert!(
                both.abs_diff(round + 10 * step) < 10_000,
                "{target}: {both}"
            );
        }
    }
}
