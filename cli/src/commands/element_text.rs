//! The output formats of `etrace decode` (`--format elements|pcs|spike-csv|json`): trace
//! elements of the decoder (`decoder.adoc`, [`TraceElement`]) as text lines, as JSON
//! objects, or expanded into executed instructions (program addresses, or rows of the
//! spike instruction-trace CSV of `etrace_spec::formats::spike_csv`).

use etrace_decoder::image::InsnKind;
use etrace_decoder::{ProgramImage, RangeEnd, TraceElement};
use etrace_spec::formats::spike_csv::{SpikeRow, SpikeWriter};
use etrace_spec::ingress::Privilege;
use serde_json::{json, Value};
use std::io::{self, Write};

/// How `decode-error` lines name the place of a packet: a byte offset (encap, smi) or the
/// index of its first ATB beat (atb).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffsetUnit {
    /// Byte offset in the framed stream.
    Byte,
    /// ATB beat index.
    Beat,
}

/// The short name of a privilege level (`ingressPort.adoc`, `tab:priv`).
pub fn privilege_name(p: Privilege) -> &'static str {
    match p {
        Privilege::User => "U",
        Privilege::Supervisor => "S",
        Privilege::Machine => "M",
        Privilege::Debug => "D",
        Privilege::VirtualUser => "VU",
        Privilege::VirtualSupervisor => "VS",
    }
}

/// The name of the class of a range's last instruction.
pub fn range_end_name(end: RangeEnd) -> &'static str {
    match end {
        RangeEnd::Sequential => "sequential",
        RangeEnd::TakenBranch => "taken-branch",
        RangeEnd::NotTakenBranch => "not-taken-branch",
        RangeEnd::InferableJump => "inferable-jump",
        RangeEnd::UninferableJump => "uninferable-jump",
        RangeEnd::TrapReturn => "trap-return",
        RangeEnd::EcallEbreak => "ecall-ebreak",
    }
}

fn place(offset: Option<u64>, unit: OffsetUnit) -> String {
    match (offset, unit) {
        (None, _) => "?".to_string(),
        (Some(o), OffsetUnit::Byte) => format!("{o:#x}"),
        (Some(o), OffsetUnit::Beat) => format!("beat {o}"),
    }
}

/// One element as a line of `--format elements`, e.g.
/// `range 0x80000000..0x8000001c 8 insns end=taken-branch` (`first..last`, both included).
pub fn element_line(e: &TraceElement, unit: OffsetUnit) -> String {
    match e {
        TraceElement::TraceOn { address, privilege } => {
            format!("trace-on {address:#x} {}", privilege_name(*privilege))
        }
        TraceElement::Range {
            first,
            last,
            count,
            end,
        } => format!(
            "range {first:#x}..{last:#x} {count} insns end={}",
            range_end_name(*end)
        ),
        TraceElement::Trap {
            ecause,
            interrupt,
            tval,
            epc,
        } => format!(
            "trap ecause={ecause} interrupt={} tval={tval:#x} epc={}",
            u8::from(*interrupt),
            epc.map_or("?".to_string(), |a| format!("{a:#x}"))
        ),
        TraceElement::Privilege { privilege } => {
            format!("privilege {}", privilege_name(*privilege))
        }
        TraceElement::Context { context } => format!("context {context:#x}"),
        TraceElement::TraceOff => "trace-off".to_string(),
        TraceElement::TraceLost => "trace-lost".to_string(),
        TraceElement::DecodeError(e) => format!(
            "decode-error packet #{} @{}: {}",
            e.packet_index,
            place(e.byte_offset, unit),
            e.cause
        ),
    }
}

fn hex(v: u64) -> Value {
    Value::String(format!("{v:#x}"))
}

/// One element as a JSON object of `--format json`: `"element"` names the kind (the first
/// word of [`element_line`]); addresses and trap values are hex strings (RV64 addresses do
/// not fit a JSON number's exact range everywhere), counts and causes are numbers.
pub fn element_json(e: &TraceElement) -> Value {
    match e {
        TraceElement::TraceOn { address, privilege } => json!({
            "element": "trace-on", "address": hex(*address),
            "privilege": privilege_name(*privilege)
        }),
        TraceElement::Range {
            first,
            last,
            count,
            end,
        } => json!({
            "element": "range", "first": hex(*first), "last": hex(*last),
            "count": count, "end": range_end_name(*end)
        }),
        TraceElement::Trap {
            ecause,
            interrupt,
            tval,
            epc,
        } => json!({
            "element": "trap", "ecause": ecause, "interrupt": interrupt,
            "tval": hex(*tval), "epc": epc.map(hex)
        }),
        TraceElement::Privilege { privilege } => json!({
            "element": "privilege", "privilege": privilege_name(*privilege)
        }),
        TraceElement::Context { context } => json!({
            "element": "context", "context": hex(*context)
        }),
        TraceElement::TraceOff => json!({ "element": "trace-off" }),
        TraceElement::TraceLost => json!({ "element": "trace-lost" }),
        TraceElement::DecodeError(e) => json!({
            "element": "decode-error", "packet": e.packet_index, "offset": e.byte_offset,
            "reason": e.cause.to_string()
        }),
    }
}

/// Why a range could not be expanded into instructions.
#[derive(Debug)]
pub enum ExpandError {
    /// Writing the output failed.
    Io(io::Error),
    /// The program image has no instruction at this address.
    NotInImage(u64),
}

impl From<io::Error> for ExpandError {
    fn from(e: io::Error) -> Self {
        ExpandError::Io(e)
    }
}

/// Calls `f` with the address of every instruction of a range, walking the image by
/// instruction size.
pub fn for_each_insn(
    image: &ProgramImage,
    first: u64,
    count: u64,
    mut f: impl FnMut(u64) -> io::Result<()>,
) -> Result<(), ExpandError> {
    let mut pc = first;
    for _ in 0..count {
        f(pc)?;
        let size = image.insn(pc).ok_or(ExpandError::NotInImage(pc))?.size();
        pc = pc.wrapping_add(size);
    }
    Ok(())
}

/// Writes the spike CSV rows of a decoded trace, element by element.
///
/// Every executed instruction is a row with `VALID=1`, its address, its instruction word
/// from the program image and the privilege last reported by the trace. A trap follows the
/// spike convention (`docs/cli.md`, `spike_csv` module table): an exception raised by
/// `ecall` / `ebreak` marks that (retired) instruction's row with `EXCEPTION=1`; any other
/// exception, and an interrupt, adds a row for the instruction at the trap's EPC (which
/// did not execute) with `EXCEPTION=1` (and `INTERRUPT=1`). A trap whose EPC the trace does
/// not give gets address 0.
pub struct SpikeRows<'a, W: Write> {
    image: &'a ProgramImage,
    writer: SpikeWriter<W>,
    privilege: Privilege,
    /// The last instruction row, held back until it is known whether it trapped.
    pending: Option<SpikeRow>,
}

impl<'a, W: Write> SpikeRows<'a, W> {
    /// Writes the header.
    pub fn new(image: &'a ProgramImage, out: W) -> io::Result<Self> {
        Ok(SpikeRows {
            image,
            writer: SpikeWriter::new(out)?,
            privilege: Privilege::Machine,
            pending: None,
        })
    }

    fn insn_word(&self, pc: u64) -> u64 {
        self.image.insn(pc).map_or(0, |i| u64::from(i.decoded.raw))
    }

    fn row(&self, pc: u64) -> SpikeRow {
        SpikeRow {
            valid: true,
            address: pc,
            insn: self.insn_word(pc),
            privilege: self.privilege.code(),
            ..SpikeRow::default()
        }
    }

    fn push(&mut self, row: SpikeRow) -> io::Result<()> {
        if let Some(prev) = self.pending.replace(row) {
            self.writer.write_row(&prev)?;
        }
        Ok(())
    }

    /// Writes the rows of one element.
    pub fn element(&mut self, e: &TraceElement) -> Result<(), ExpandError> {
        match e {
            TraceElement::TraceOn { privilege, .. } | TraceElement::Privilege { privilege } => {
                self.privilege = *privilege;
            }
            TraceElement::Range { first, count, .. } => {
                let mut pc = *first;
                for _ in 0..*count {
                    let size = self
                        .image
                        .insn(pc)
                        .ok_or(ExpandError::NotInImage(pc))?
                        .size();
                    self.push(self.row(pc))?;
                    pc = pc.wrapping_add(size);
                }
            }
            TraceElement::Trap {
                ecause,
                interrupt,
                tval,
                epc,
            } => {
                let address = epc.unwrap_or(0);
                let on_retired = !*interrupt
                    && self.pending.is_some_and(|r| r.address == address)
                    && self
                        .image
                        .insn(address)
                        .is_some_and(|i| i.kind == InsnKind::EcallEbreak);
                let mut row = if on_retired {
                    self.pending.take().expect("checked above")
                } else {
                    self.row(address)
                };
                row.exception = true;
                row.ecause = *ecause;
                row.tval = *tval;
                row.interrupt = *interrupt;
                self.push(row)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Writes the held-back row and flushes.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(row) = self.pending.take() {
            self.writer.write_row(&row)?;
        }
        self.writer.into_inner()
    }
}
