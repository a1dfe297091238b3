//! Helpers of the hart model tests: the test programs of `model/hart/tests/data` (built by
//! `model/hart/tests/data/build.sh`), their symbols, and runs that collect the records.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

use etrace_hart::{Hart, HartConfig, HartError, RunOutcome};
use etrace_spec::ingress::{IngressRecord, Itype};
use object::{Object, ObjectSymbol};

/// The two builds of every test program.
pub const TARGETS: [&str; 2] = ["rv32", "rv64"];

/// The bytes of `model/hart/tests/data/<name>-<target>.elf`.
pub fn elf(name: &str, target: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{name}-{target}.elf"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Symbol table of an ELF: name -> address.
pub fn symbols(bytes: &[u8]) -> HashMap<String, u64> {
    let file = object::File::parse(bytes).expect("test ELF parses");
    file.symbols()
        .filter_map(|s| Some((s.name().ok()?.to_string(), s.address())))
        .collect()
}

/// A finished (or stopped) run.
pub struct Run {
    pub hart: Hart,
    pub result: Result<RunOutcome, HartError>,
    pub records: Vec<(IngressRecord, u32)>,
    pub sym: HashMap<String, u64>,
}

impl Run {
    /// Address of a symbol of the program.
    pub fn at(&self, name: &str) -> u64 {
        *self
            .sym
            .get(name)
            .unwrap_or_else(|| panic!("no symbol {name}"))
    }

    /// The outcome of a run expected to exit.
    pub fn outcome(&self) -> &RunOutcome {
        self.result.as_ref().expect("program exits")
    }

    /// Indices of the records of the given `itype`, in order.
    pub fn indices_of(&self, itype: Itype) -> Vec<usize> {
        self.records
            .iter()
            .enumerate()
            .filter(|(_, (rec, _))| rec.itype == itype)
            .map(|(i, _)| i)
            .collect()
    }

    /// Index of the first record at `name`.
    pub fn index_at(&self, name: &str) -> usize {
        let addr = self.at(name);
        self.records
            .iter()
            .position(|(r, _)| r.iaddr == addr)
            .unwrap_or_else(|| panic!("no record at {name} ({addr:#x})"))
    }

    /// The first record at `name`.
    pub fn record_at(&self, name: &str) -> IngressRecord {
        self.records[self.index_at(name)].0
    }

    /// The 32 (or 16) instruction bits at `name`.
    pub fn insn_at(&self, name: &str) -> u64 {
        let b = self.hart.read_memory(self.at(name), 2).expect("mapped");
        let lo = u64::from(u16::from_le_bytes([b[0], b[1]]));
        if lo & 3 != 3 {
            return lo;
        }
        let b = self.hart.read_memory(self.at(name), 4).expect("mapped");
        u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Run test program `name` for `target` with `config`.
pub fn run_with(name: &str, target: &str, config: HartConfig) -> Run {
    let bytes = elf(name, target);
    let sym = symbols(&bytes);
    let mut hart = Hart::from_elf(&bytes, config).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut records = Vec::new();
    let result = hart.run(&mut records);
    Run {
        hart,
        result,
        records,
        sym,
    }
}

/// Run test program `name` for `target` with the default configuration and a limit of
/// one million instructions.
pub fn run(name: &str, target: &str) -> Run {
    run_with(
        name,
        target,
        HartConfig {
            max_instructions: 1_000_000,
            ..HartConfig::default()
        },
    )
}
