//! Conversion of spike instruction-trace rows ([`super::spike_csv`]) into the ingress
//! records a hart's ingress port would present (`ingressPort.adoc`, single retirement,
//! conventions of [`crate::ingress`]) — the job of the reference flow's post-ISS step.
//!
//! Per row (rows with `VALID=0` are skipped):
//!
//! * `EXCEPTION=1`, `INTERRUPT=1`: interrupt: `itype` 2, `iretire` 0, `iaddr` = `ADDRESS`
//!   (the interrupted instruction), `cause` = `ECAUSE` with the interrupt bit (bit 63, and
//!   bit XLEN-1) cleared, `tval` = `TVAL`;
//! * `EXCEPTION=1`, `INTERRUPT=0`: exception: `itype` 1, `cause` = `ECAUSE`, `tval` =
//!   `TVAL`, `iretire` 1 if the instruction is `ecall`, `ebreak` or `c.ebreak`, else 0;
//! * otherwise the instruction retired: `iretire` 1 and `itype` from the instruction word
//!   ([`crate::isa::Decoded::itype`]); a branch is taken iff the next row's `ADDRESS` is
//!   not the branch's address + size. `INTERRUPT`, `ECAUSE` and `TVAL` are ignored on
//!   these rows (spike may leave them set from the last trap).
//!
//! `ilastsize` comes from the size of `INSN` on every row (also on trap rows, where the
//! encoder ignores it); `priv` is `PRIVILEGE`; `context` and `ctype` are 0. `sijump` is
//! set on a retired uninferable jump that is sequentially inferable from the immediately
//! preceding row when that row retired (`ingressPort.adoc`, `sijump`; `itype` keeps its
//! uninferable code, as the spec says, whether or not a writer writes the `sijump_0`
//! column). For RV32, `ADDRESS` and `TVAL` are cut to 32 bits.
//!
//! A branch on the last row has no following row: it is reported as not taken (the trace
//! shows no discontinuity after it; a hart model's trace ends with the `tohost` store, so
//! this does not arise there).

use std::io::BufRead;
use std::sync::Arc;

use super::error::{FormatError, Location};
use super::spike_csv::{SpikeReader, SpikeRow};
use crate::ingress::{IngressRecord, Itype, ItypeWidth, Privilege};
use crate::isa::{self, Decoded, Xlen};
use crate::params::Params;

/// Choices of the conversion: the base ISA the instructions are decoded for and the
/// `itype` bus width (`itype_width_p`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConvertOptions {
    /// RV32 or RV64.
    pub xlen: Xlen,
    /// `itype_width_p`: 3 or 4 bits.
    pub itype_width: ItypeWidth,
}

impl ConvertOptions {
    /// XLEN from `iaddress_width_p` (above 32: RV64) and the `itype` width of `params`.
    pub fn from_params(params: &Params) -> Self {
        ConvertOptions {
            xlen: if params.iaddress_width_p > 32 {
                Xlen::X64
            } else {
                Xlen::X32
            },
            itype_width: params.itype_width(),
        }
    }
}

/// A record waiting for the next row (to know whether a branch was taken).
#[derive(Debug, Clone, Copy)]
struct Pending {
    record: IngressRecord,
    is_branch: bool,
    /// The line of its row.
    line: u64,
}

/// Push-style converter: feed rows in order with [`Self::push`], then call
/// [`Self::finish`]. Each call returns the record of the previous row, once known.
#[derive(Debug, Clone)]
pub struct SpikeConverter {
    options: ConvertOptions,
    file: Option<Arc<str>>,
    pending: Option<Pending>,
    prev_retired: Option<Decoded>,
    /// The line of the row of the record returned last.
    done_line: u64,
}

impl SpikeConverter {
    /// A converter with `options`.
    pub fn new(options: ConvertOptions) -> Self {
        SpikeConverter {
            options,
            file: None,
            pending: None,
            prev_retired: None,
            done_line: 0,
        }
    }

    /// Names the file in error locations.
    pub fn with_file_name(mut self, name: Option<Arc<str>>) -> Self {
        self.file = name;
        self
    }

    /// Converts `row` (read from line `line`, for errors). Returns the record of the
    /// previous valid row, which is complete now.
    pub fn push(
        &mut self,
        row: &SpikeRow,
        line: u64,
    ) -> Result<Option<IngressRecord>, FormatError> {
        if !row.valid {
            return Ok(None);
        }
        let record = self.convert(row, line)?;
        let mask = self.options.xlen.mask();
        let done = self.pending.take().map(|mut p| {
            if p.is_branch {
                let taken = p.record.next_sequential() & mask != record.iaddr;
                p.record.itype = if taken {
                    Itype::TakenBranch
                } else {
                    Itype::NontakenBranch
                };
            }
            p
        });
        self.pending = Some(Pending {
            record,
            is_branch: record.iretire == 1 && record.itype.is_branch(),
            line,
        });
        Ok(done.map(|p| self.done(p)))
    }

    /// The record of the last row, if any (a branch there counts as not taken).
    pub fn finish(&mut self) -> Option<IngressRecord> {
        self.pending.take().map(|p| self.done(p))
    }

    /// The line of the row of the record [`Self::push`] or [`Self::finish`] returned last
    /// (0 before the first).
    pub fn line(&self) -> u64 {
        self.done_line
    }

    /// Hands out the record of `pending`, noting its line.
    fn done(&mut self, pending: Pending) -> IngressRecord {
        self.done_line = pending.line;
        pending.record
    }

    fn convert(&mut self, row: &SpikeRow, line: u64) -> Result<IngressRecord, FormatError> {
        let invalid = |value: u64, column: &'static str, field: u64, reason: &'static str| {
            FormatError::InvalidValue {
                value: format!("{value:x}"),
                column,
                reason,
                at: Location::at(self.file.clone(), line, field),
            }
        };
        let privilege = Privilege::from_code(u64::from(row.privilege)).ok_or_else(|| {
            invalid(
                u64::from(row.privilege),
                "PRIVILEGE",
                4,
                "reserved privilege code",
            )
        })?;
        let xlen = self.options.xlen;
        let raw = row.insn as u32;
        let decoded = isa::decode(raw, xlen);
        let mut record = IngressRecord {
            iaddr: row.address & xlen.mask(),
            ilastsize: if decoded.size == 2 { 0 } else { 1 },
            privilege,
            ..IngressRecord::default()
        };
        if row.exception {
            record.tval = row.tval & xlen.mask();
            if row.interrupt {
                let interrupt_bits = (1u64 << 63) | (1u64 << (xlen.bits() - 1));
                record.itype = Itype::Interrupt;
                record.interrupt = true;
                record.cause = row.ecause & !interrupt_bits;
                self.prev_retired = None;
            } else {
                record.itype = Itype::Exception;
                record.cause = row.ecause;
                let retired = decoded.is_ecall_or_ebreak();
                record.iretire = u8::from(retired);
                self.prev_retired = retired.then_some(decoded);
            }
            return Ok(record);
        }
        if row.insn > u64::from(u32::MAX) || (decoded.size == 4 && raw & 0x1f == 0x1f) {
            return Err(invalid(
                row.insn,
                "INSN",
                3,
                "instructions longer than 32 bits cannot be described by ilastsize",
            ));
        }
        record.iretire = 1;
        record.itype = decoded.itype(false, self.options.itype_width);
        record.sijump = self
            .prev_retired
            .is_some_and(|prev| decoded.is_sequential_jump(&prev));
        self.prev_retired = Some(decoded);
        Ok(record)
    }
}

/// Iterator of ingress records converted from a spike CSV reader. Ends after the first
/// error.
pub struct SpikeToIngress<R> {
    reader: SpikeReader<R>,
    converter: SpikeConverter,
    done: bool,
}

impl<R: BufRead> SpikeToIngress<R> {
    /// Converts the rows of `reader` with `options`.
    pub fn new(reader: SpikeReader<R>, options: ConvertOptions) -> Self {
        let converter = SpikeConverter::new(options).with_file_name(reader.file_name().cloned());
        SpikeToIngress {
            reader,
            converter,
            done: false,
        }
    }

    /// The line of the row of the record returned last (0 before the first).
    pub fn line(&self) -> u64 {
        self.converter.line()
    }
}

impl<R: BufRead> Iterator for SpikeToIngress<R> {
    type Item = Result<IngressRecord, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
            match self.reader.read_row() {
                Ok(Some(row)) => match self.converter.push(&row, self.reader.line()) {
                    Ok(Some(record)) => return Some(Ok(record)),
                    Ok(None) => continue,
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                },
                Ok(None) => {
                    self.done = true;
                    return self.converter.finish().map(Ok);
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// Converts a list of rows; error lines are those of a file written by
/// [`super::spike_csv::SpikeWriter`] (header on line 1, row `i` on line `i + 2`).
pub fn convert_rows(
    rows: &[SpikeRow],
    options: ConvertOptions,
) -> Result<Vec<IngressRecord>, FormatError> {
    let mut converter = SpikeConverter::new(options);
    let mut out = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        out.extend(converter.push(row, i as u64 + 2)?);
    }
    out.extend(converter.finish());
    Ok(out)
}
