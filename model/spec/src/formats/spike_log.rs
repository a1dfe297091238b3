//! spike's commit log (`spike -l --log-commits`, `docs/spike.md` "Commit log"): the
//! instructions spike retired and the traps it took, read back as [`SpikeLogEntry`]s.
//!
//! The lines the reader knows, each starting `core <hart>:`:
//!
//! | line | example | entry |
//! |---|---|---|
//! | commit | `core   0: 3 0x00001000 (0x00000297) x5  0x00001000` | [`SpikeLogEntry::Commit`] (privilege, pc, instruction) |
//! | trap | `core   0: exception trap_machine_ecall, epc 0x80000792` | [`SpikeLogEntry::Trap`] |
//! | interrupt | `core   0: exception interrupt #7, epc 0x80000564` | [`SpikeLogEntry::Trap`] with `interrupt` |
//! | disassembly | `core   0: 0x00001000 (0x00000297) auipc t0, 0x0` | none (the commit line follows) |
//! | trap value | `core   0:           tval 0x800005a0` | none |
//! | symbol | `core   0: >>>>  _trap_entry` | none |
//!
//! Blank lines are skipped; any other line is an error naming its line number. A trapping
//! instruction (`ecall` and `ebreak` included) has a disassembly line and a trap line but
//! no commit line.

use std::io::BufRead;

use crate::ingress::Privilege;

/// One event of spike's commit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpikeLogEntry {
    /// An instruction retired.
    Commit {
        /// Privilege the instruction ran at (`tab:priv` code in the log).
        privilege: Privilege,
        /// Its address.
        pc: u64,
        /// Its bits (16 for a compressed instruction).
        insn: u32,
    },
    /// A trap was taken.
    Trap {
        /// Address of the trapping or interrupted instruction (`epc`).
        epc: u64,
        /// Cause without the interrupt bit.
        cause: u64,
        /// An interrupt rather than an exception.
        interrupt: bool,
    },
}

/// Why a line of a spike commit log could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SpikeLogError {
    /// Reading the input failed.
    #[error("read error: {source} (spike log line {line})")]
    Io {
        /// The underlying error.
        #[source]
        source: std::io::Error,
        /// 1-based line number.
        line: u64,
    },
    /// The line is not one of the known kinds, or a field of it is malformed.
    #[error("{reason}: `{text}` (spike log line {line})")]
    BadLine {
        /// 1-based line number.
        line: u64,
        /// The line as read.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
}

/// spike's names of the exception causes (`trap_<name>`), by cause code (privileged ISA,
/// "Machine Cause Register (mcause)").
const EXCEPTION_NAMES: [(&str, u64); 14] = [
    ("instruction_address_misaligned", 0),
    ("instruction_access_fault", 1),
    ("illegal_instruction", 2),
    ("breakpoint", 3),
    ("load_address_misaligned", 4),
    ("load_access_fault", 5),
    ("store_address_misaligned", 6),
    ("store_access_fault", 7),
    ("user_ecall", 8),
    ("supervisor_ecall", 9),
    ("machine_ecall", 11),
    ("instruction_page_fault", 12),
    ("load_page_fault", 13),
    ("store_page_fault", 15),
];

fn hex(field: &str) -> Option<u64> {
    u64::from_str_radix(field.strip_prefix("0x")?, 16).ok()
}

/// One line's entry: `Ok(None)` for a line that carries none, `Err(reason)` for an unknown
/// or malformed line.
pub fn parse_line(text: &str) -> Result<Option<SpikeLogEntry>, &'static str> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    let rest = trimmed
        .strip_prefix("core")
        .and_then(|r| r.split_once(':'))
        .map(|(_, r)| r.trim())
        .ok_or("not a spike log line (no `core N:`)")?;
    if rest.starts_with(">>>>") || rest.starts_with("tval ") {
        return Ok(None);
    }
    if let Some(trap) = rest.strip_prefix("exception ") {
        let (what, epc) = trap
            .split_once(", epc ")
            .ok_or("trap line without `, epc`")?;
        let epc = hex(epc.trim()).ok_or("malformed epc")?;
        let (cause, interrupt) = if let Some(n) = what.strip_prefix("interrupt #") {
            (n.parse().map_err(|_| "malformed interrupt number")?, true)
        } else {
            let name = what.strip_prefix("trap_").ok_or("unknown trap kind")?;
            let cause = EXCEPTION_NAMES
                .iter()
                .find(|(n, _)| *n == name)
                .map(|&(_, c)| c)
                .ok_or("unknown exception name")?;
            (cause, false)
        };
        return Ok(Some(SpikeLogEntry::Trap {
            epc,
            cause,
            interrupt,
        }));
    }
    let mut fields = rest.split_whitespace();
    let first = fields.next().unwrap_or_default();
    if first.starts_with("0x") {
        // The disassembly line before the instruction executes.
        return Ok(None);
    }
    let privilege = first
        .parse()
        .ok()
        .and_then(Privilege::from_code)
        .ok_or("malformed privilege of a commit line")?;
    let pc = fields
        .next()
        .and_then(hex)
        .ok_or("malformed pc of a commit line")?;
    let insn = fields
        .next()
        .and_then(|f| f.strip_prefix('(')?.strip_suffix(')'))
        .and_then(hex)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or("malformed instruction of a commit line")?;
    Ok(Some(SpikeLogEntry::Commit {
        privilege,
        pc,
        insn,
    }))
}

/// Reads the entries of a spike commit log, in order.
pub struct SpikeLogReader<R> {
    input: R,
    line: u64,
    buf: String,
}

impl<R: BufRead> SpikeLogReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> SpikeLogReader<R> {
        SpikeLogReader {
            input,
            line: 0,
            buf: String::new(),
        }
    }
}

impl<R: BufRead> Iterator for SpikeLogReader<R> {
    type Item = Result<SpikeLogEntry, SpikeLogError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            self.buf.clear();
            self.line += 1;
            let line = self.line;
            match self.input.read_line(&mut self.buf) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(source) => return Some(Err(SpikeLogError::Io { source, line })),
            }
            match parse_line(&self.buf) {
                Ok(None) => continue,
                Ok(Some(entry)) => return Some(Ok(entry)),
                Err(reason) => {
                    return Some(Err(SpikeLogError::BadLine {
                        line,
                        text: self.buf.trim_end().to_string(),
                        reason,
                    }))
                }
            }
        }
    }
}
