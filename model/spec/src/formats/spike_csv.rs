//! The spike instruction-trace CSV of the reference flow (header
//! `VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT`), one row per step of the
//! instruction-set simulator. It is the input of the reference flow's post-ISS step, which
//! derives the `ingressPort.adoc` signals from it (see [`super::convert`]).
//!
//! Field encoding: every field is hex. The writer writes lower-case digits without a `0x`
//! prefix; the reader accepts either. `VALID`, `EXCEPTION` and `INTERRUPT` are 0 or 1.
//! Fields may be surrounded by blanks; blank lines are skipped. The header line is checked
//! (names compared case-insensitively); a file whose first line is already a data row is
//! accepted as a file without header.
//!
//! Conventions (`docs/spike.md`):
//!
//! * a row with `EXCEPTION=1` is the trapping instruction (it did not retire unless it is
//!   `ecall` / `ebreak` / `c.ebreak`);
//! * spike leaves `ECAUSE` (and, in some versions, `TVAL` and `INTERRUPT`) set on the
//!   following rows, so those fields mean something only on rows with `EXCEPTION=1`;
//! * in this project's files an interrupt is a row with `EXCEPTION=1` and `INTERRUPT=1`
//!   whose `ADDRESS` / `INSN` are those of the interrupted instruction, which was not
//!   executed.
//!
//! How each kind of [`IngressRecord`] (`crate::ingress`) maps to a row, as done by
//! [`SpikeRow::from_ingress`] (the writer writes `ECAUSE = TVAL = 0` on rows without a
//! trap, unlike spike):
//!
//! | record | VALID | ADDRESS | INSN | EXCEPTION | ECAUSE | TVAL | INTERRUPT |
//! |---|---|---|---|---|---|---|---|
//! | retired, `itype` 0 or 3-15 | 1 | `iaddr` | the instruction | 0 | 0 | 0 | 0 |
//! | `itype` 1, `iretire` 1 (`ecall`, `ebreak`, `c.ebreak`) | 1 | `iaddr` | the instruction | 1 | `cause` | `tval` | 0 |
//! | `itype` 1, `iretire` 0 (faulting instruction) | 1 | `iaddr` | the instruction (or 0 if it could not be fetched) | 1 | `cause` | `tval` | 0 |
//! | `itype` 2 (interrupt) | 1 | `iaddr` (interrupted instruction) | that instruction | 1 | `cause` (no interrupt bit) | `tval` (0) | 1 |
//! | `iretire` 0 and `itype` 0 (nothing happened) | 0 | `iaddr` | the instruction | 0 | 0 | 0 | 0 |
//!
//! `PRIVILEGE` is `priv` (`tab:priv` code) in every case.

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use super::error::{FormatError, Location, Radix};
use super::text::{
    invalid, parse_field, push_hex, shown, write_all_rows, CsvReader, CsvWriter, LineParser,
    RowFormat,
};
use crate::ingress::{IngressRecord, Itype};

/// The header line of a spike instruction-trace CSV.
pub const SPIKE_HEADER: &str = "VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT";

/// The column names, in file order.
pub const SPIKE_COLUMNS: [&str; 8] = [
    "VALID",
    "ADDRESS",
    "INSN",
    "PRIVILEGE",
    "EXCEPTION",
    "ECAUSE",
    "TVAL",
    "INTERRUPT",
];

/// One row of a spike instruction-trace CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SpikeRow {
    /// `VALID`: the row describes a step (always 1 in spike's files).
    pub valid: bool,
    /// `ADDRESS`: address of the instruction.
    pub address: u64,
    /// `INSN`: the instruction word (16 bits for compressed instructions).
    pub insn: u64,
    /// `PRIVILEGE`: privilege level (`ingressPort.adoc` `tab:priv` code).
    pub privilege: u8,
    /// `EXCEPTION`: the instruction trapped (exception, or interrupt with `interrupt`).
    pub exception: bool,
    /// `ECAUSE`: trap cause; meaningful only when `exception` is set.
    pub ecause: u64,
    /// `TVAL`: trap value; meaningful only when `exception` is set.
    pub tval: u64,
    /// `INTERRUPT`: the trap is an interrupt; meaningful only when `exception` is set.
    pub interrupt: bool,
}

impl SpikeRow {
    /// The row describing `record`, whose instruction word is `insn` (table in the module
    /// documentation).
    pub fn from_ingress(record: &IngressRecord, insn: u32) -> SpikeRow {
        let trap = record.itype.is_trap();
        SpikeRow {
            valid: record.iretire != 0 || record.itype != Itype::None,
            address: record.iaddr,
            insn: u64::from(insn),
            privilege: record.privilege.code(),
            exception: trap,
            ecause: if trap { record.cause } else { 0 },
            tval: if trap { record.tval } else { 0 },
            interrupt: record.itype == Itype::Interrupt,
        }
    }
}

/// The lines of a spike instruction-trace CSV (header optional, see the module
/// documentation), as a [`LineParser`]. A file with no line (or only blank ones) is an
/// error: a trace with nothing in it cannot be what was meant.
#[derive(Debug, Clone, Copy, Default)]
pub struct SpikeParser {
    started: bool,
}

impl LineParser for SpikeParser {
    type Row = SpikeRow;

    fn parse(
        &mut self,
        line: &[u8],
        file: &Option<Arc<str>>,
        line_no: u64,
    ) -> Result<Option<SpikeRow>, FormatError> {
        if !self.started {
            self.started = true;
            if is_header(line) {
                check_header(line, file, line_no)?;
                return Ok(None);
            }
        }
        parse_row(line, file, line_no).map(Some)
    }

    fn finish(&self, file: &Option<Arc<str>>, line_no: u64) -> Result<(), FormatError> {
        if self.started {
            return Ok(());
        }
        Err(FormatError::Empty {
            at: Location::line(file.clone(), line_no),
        })
    }
}

/// Streaming reader of spike instruction-trace CSV rows.
///
/// Iterating yields one `Result` per data row; after the first error the iterator ends.
pub type SpikeReader<R> = CsvReader<R, SpikeParser>;

impl<R: BufRead> CsvReader<R, SpikeParser> {
    /// A reader over `input` (header optional, see the module documentation).
    pub fn new(input: R) -> Self {
        CsvReader::with_parser(input, SpikeParser::default())
    }

    /// Reads the next row; `Ok(None)` at end of input.
    pub fn read_row(&mut self) -> Result<Option<SpikeRow>, FormatError> {
        self.read()
    }
}

/// A first line is a header when its first field is not a hex number.
fn is_header(line: &[u8]) -> bool {
    let first = line.split(|&b| b == b',').next().unwrap_or(&[]);
    super::text::parse_hex(first.trim_ascii()).is_err()
}

fn check_header(line: &[u8], file: &Option<Arc<str>>, line_no: u64) -> Result<(), FormatError> {
    let mut names = line.split(|&b| b == b',').map(<[u8]>::trim_ascii);
    let matches = SPIKE_COLUMNS.iter().all(|want| {
        names
            .next()
            .is_some_and(|n| n.eq_ignore_ascii_case(want.as_bytes()))
    }) && names.next().is_none();
    if matches {
        Ok(())
    } else {
        Err(FormatError::BadHeader {
            found: shown(line.trim_ascii()),
            expected: SPIKE_HEADER,
            at: Location::line(file.clone(), line_no),
        })
    }
}

fn parse_flag(
    value: &[u8],
    field: usize,
    file: &Option<Arc<str>>,
    line_no: u64,
) -> Result<bool, FormatError> {
    let column = SPIKE_COLUMNS[field];
    match parse_field(Radix::Hex, value, column, file, line_no, field)? {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(invalid(
            value,
            column,
            "must be 0 or 1",
            file,
            line_no,
            field,
        )),
    }
}

/// Parses one data row.
fn parse_row(line: &[u8], file: &Option<Arc<str>>, line_no: u64) -> Result<SpikeRow, FormatError> {
    let mut fields: [&[u8]; 8] = [&[]; 8];
    let mut count = 0usize;
    for field in line.split(|&b| b == b',') {
        if count < fields.len() {
            fields[count] = field.trim_ascii();
        }
        count += 1;
    }
    if count != fields.len() {
        return Err(FormatError::FieldCount {
            found: count,
            expected: fields.len(),
            at: Location::line(file.clone(), line_no),
        });
    }
    let hex = |field: usize| {
        parse_field(
            Radix::Hex,
            fields[field],
            SPIKE_COLUMNS[field],
            file,
            line_no,
            field,
        )
    };
    let valid = parse_flag(fields[0], 0, file, line_no)?;
    let address = hex(1)?;
    let insn = hex(2)?;
    let privilege = hex(3)?;
    let privilege = u8::try_from(privilege).map_err(|_| {
        invalid(
            fields[3],
            "PRIVILEGE",
            "does not fit in 8 bits",
            file,
            line_no,
            3,
        )
    })?;
    let exception = parse_flag(fields[4], 4, file, line_no)?;
    let ecause = hex(5)?;
    let tval = hex(6)?;
    let interrupt = parse_flag(fields[7], 7, file, line_no)?;
    Ok(SpikeRow {
        valid,
        address,
        insn,
        privilege,
        exception,
        ecause,
        tval,
        interrupt,
    })
}

/// The spike instruction-trace CSV as a [`RowFormat`].
#[derive(Debug, Clone, Copy, Default)]
pub struct SpikeFormat;

impl RowFormat for SpikeFormat {
    type Row = SpikeRow;

    fn header(&self) -> String {
        SPIKE_HEADER.to_string()
    }

    fn write_row(&self, row: &SpikeRow, b: &mut Vec<u8>) {
        b.push(if row.valid { b'1' } else { b'0' });
        b.push(b',');
        push_hex(b, row.address);
        b.push(b',');
        push_hex(b, row.insn);
        b.push(b',');
        push_hex(b, u64::from(row.privilege));
        b.push(b',');
        b.push(if row.exception { b'1' } else { b'0' });
        b.push(b',');
        push_hex(b, row.ecause);
        b.push(b',');
        push_hex(b, row.tval);
        b.push(b',');
        b.push(if row.interrupt { b'1' } else { b'0' });
    }
}

/// Writer of spike instruction-trace CSV files: the header at creation, then one line per
/// row. Wrap the output in a `BufWriter` for speed.
pub type SpikeWriter<W> = CsvWriter<W, SpikeFormat>;

impl<W: Write> CsvWriter<W, SpikeFormat> {
    /// Writes the header line to `out`.
    pub fn new(out: W) -> io::Result<Self> {
        CsvWriter::with_format(out, SpikeFormat)
    }

    /// Writes one row.
    pub fn write_row(&mut self, row: &SpikeRow) -> io::Result<()> {
        self.write(row)
    }
}

/// Reads every row of `input` (convenience for small files and tests).
pub fn read_all<R: BufRead>(input: R) -> Result<Vec<SpikeRow>, FormatError> {
    SpikeReader::new(input).collect()
}

/// Writes `rows` with a header into a byte vector (convenience for small files and tests).
pub fn write_all(rows: &[SpikeRow]) -> Vec<u8> {
    write_all_rows(SpikeFormat, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<SpikeRow> {
        vec![
            SpikeRow {
                valid: true,
                address: 0x1000,
                insn: 0x297,
                privilege: 3,
                ..SpikeRow::default()
            },
            SpikeRow {
                valid: true,
                address: 0x8000_0004,
                insn: 0x0000_0073,
                privilege: 0,
                exception: true,
                ecause: 8,
                tval: 0,
                interrupt: false,
            },
            SpikeRow {
                valid: true,
                address: 0xffff_ffff_ffff_fffe,
                insn: 0x8082,
                privilege: 1,
                exception: true,
                ecause: 7,
                tval: 0,
                interrupt: true,
            },
            SpikeRow {
                valid: false,
                address: 0,
                insn: 0,
                privilege: 3,
                exception: true,
                ecause: 2,
                tval: 0xdead_beef,
                interrupt: false,
            },
        ]
    }

    #[test]
    fn spike_csv_round_trip() {
        let rows = rows();
        let bytes = write_all(&rows);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert_eq!(
            text,
            "VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n\
             1,1000,297,3,0,0,0,0\n\
             1,80000004,73,0,1,8,0,0\n\
             1,fffffffffffffffe,8082,1,1,7,0,1\n\
             0,0,0,3,1,2,deadbeef,0\n"
        );
        assert_eq!(read_all(&bytes[..]).unwrap(), rows);
    }

    #[test]
    fn reader_accepts_prefix_blanks_crlf_and_no_header() {
        let text = "valid, address ,insn,privilege,exception,ecause,tval,interrupt\r\n\
                    \r\n\
                    1,0x1000,0X297,3,0,0,0,0\r\n";
        let got = read_all(text.as_bytes()).unwrap();
        assert_eq!(got, vec![rows()[0]]);
        let got = read_all("1, 1000 ,297,3,0,0,0,0".as_bytes()).unwrap();
        assert_eq!(got, vec![rows()[0]]);
        for empty in ["", "\n", " \r\n\n"] {
            let err = read_all(empty.as_bytes()).unwrap_err();
            assert!(matches!(err, FormatError::Empty { .. }), "{empty:?}: {err}");
        }
        assert_eq!(read_all(SPIKE_HEADER.as_bytes()).unwrap(), vec![]);
    }

    #[test]
    fn bad_hex_names_column_line_and_field() {
        let text = format!("{SPIKE_HEADER}\n1,1000,297,3,0,0,0,0\n1,xyz,297,3,0,0,0,0\n");
        let err = read_all(text.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad hex value `xyz` in column ADDRESS (line 3, column 2)"
        );
        assert!(matches!(
            err,
            FormatError::BadNumber {
                column: "ADDRESS",
                at: Location {
                    line: 3,
                    column: Some(2),
                    ..
                },
                ..
            }
        ));
    }

    #[test]
    fn wrong_field_count() {
        let text = format!("{SPIKE_HEADER}\n1,1000,297,3,0,0,0,0\n\n\n1,1000,297,3,0,0,0\n");
        let err = read_all(text.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "wrong number of fields: 7, expected 8 (line 5)"
        );
        let text = "1,1000,297,3,0,0,0,0,9\n";
        let err = read_all(text.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "wrong number of fields: 9, expected 8 (line 1)"
        );
    }

    #[test]
    fn bad_header_and_bad_flags() {
        let err = read_all("VALID,ADDRESS,INSN\n".as_bytes()).unwrap_err();
        assert!(matches!(
            err,
            FormatError::BadHeader {
                at: Location { line: 1, .. },
                ..
            }
        ));
        let err = read_all("1,1000,297,3,2,0,0,0\n".as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid value `2` in column EXCEPTION: must be 0 or 1 (line 1, column 5)"
        );
        let err = read_all("1,1000,297,100,0,0,0,0\n".as_bytes())
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "invalid value `100` in column PRIVILEGE: does not fit in 8 bits (line 1, column 4)"
        );
        let err = read_all("1,10000000000000000,297,3,0,0,0,0\n".as_bytes()).unwrap_err();
        assert!(matches!(
            err,
            FormatError::InvalidValue {
                column: "ADDRESS",
                ..
            }
        ));
    }

    #[test]
    fn file_name_appears_in_errors_and_iteration_stops() {
        let text = "1,1000,297,3,0,0,0,0\n1,q,297,3,0,0,0,0\n1,1000,297,3,0,0,0,0\n";
        let mut r = SpikeReader::new(text.as_bytes()).with_file_name("t.csv");
        assert!(r.next().unwrap().is_ok());
        assert_eq!(r.line(), 1);
        let e = r.next().unwrap().unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad hex value `q` in column ADDRESS (t.csv line 2, column 2)"
        );
        assert!(r.next().is_none());
    }

    #[test]
    fn from_ingress_maps_each_record_kind() {
        use crate::ingress::Privilege;
        let ret = IngressRecord {
            iretire: 1,
            itype: Itype::Return,
            iaddr: 0x8000_0010,
            ilastsize: 0,
            privilege: Privilege::User,
            cause: 5,
            tval: 6,
            ..IngressRecord::default()
        };
        assert_eq!(
            SpikeRow::from_ingress(&ret, 0x8082),
            SpikeRow {
                valid: true,
                address: 0x8000_0010,
                insn: 0x8082,
                privilege: 0,
                ..SpikeRow::default()
            }
        );
        let irq = IngressRecord {
            iretire: 0,
            itype: Itype::Interrupt,
            iaddr: 0x8000_0020,
            ilastsize: 1,
            cause: 7,
            interrupt: true,
            ..IngressRecord::default()
        };
        assert_eq!(
            SpikeRow::from_ingress(&irq, 0x13),
            SpikeRow {
                valid: true,
                address: 0x8000_0020,
                insn: 0x13,
                privilege: 3,
                exception: true,
                ecause: 7,
                tval: 0,
                interrupt: true,
            }
        );
        let fault = IngressRecord {
            iretire: 0,
            itype: Itype::Exception,
            iaddr: 0x8000_0030,
            ilastsize: 1,
            cause: 2,
            tval: 0x3020_0073,
            ..IngressRecord::default()
        };
        let row = SpikeRow::from_ingress(&fault, 0x3020_0073);
        assert!(row.exception && !row.interrupt && row.valid);
        assert_eq!((row.ecause, row.tval), (2, 0x3020_0073));
    }
}
