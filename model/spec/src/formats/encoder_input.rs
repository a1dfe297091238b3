//! The reference flow's encoder-input CSV: one line per cycle of the single-retirement
//! ingress port (`ingressPort.adoc`, tables `tab:common-ingress` and `tab:single-ingress`),
//! as written by the post-ISS step and read by the reference encoder model.
//!
//! Header (the reference flow writes the optional columns depending on the parameters:
//! `context` and `ctype` unless `nocontext_p`, `time` unless `notime_p`, `sijump_0` when
//! `sijump_p`):
//!
//! `itype_0,cause,tval,priv,iaddr_0,[context],[time],[ctype],[sijump_0],iretire_0,ilastsize_0`
//!
//! Radix of each column, as the reference flow writes them: `tval` and `iaddr_0` hex
//! (no prefix; the reader accepts `0x`), every other column decimal.
//!
//! The reader finds columns by header name (case-insensitive), so order does not matter;
//! `itype_0`, `cause`, `tval`, `priv`, `iaddr_0`, `iretire_0` and `ilastsize_0` are
//! required, `context`, `ctype` and `sijump_0` are optional (0 when absent), and any other
//! column (for example `time`, which [`IngressRecord`] does not carry) is ignored.

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use super::error::{FormatError, Location, Radix};
use super::text::{
    invalid, parse_field, push_dec, push_hex, shown, write_all_rows, CsvReader, CsvWriter,
    LineParser, RowFormat,
};
use crate::ingress::{IngressRecord, Itype, Privilege};
use crate::params::Params;

/// The role of one header column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Itype,
    Cause,
    Tval,
    Priv,
    Iaddr,
    Context,
    Ctype,
    Sijump,
    Iretire,
    Ilastsize,
    Ignored,
}

/// Every known column with its name; the first seven are required.
const COLUMNS: [(Column, &str); 10] = [
    (Column::Itype, "itype_0"),
    (Column::Cause, "cause"),
    (Column::Tval, "tval"),
    (Column::Priv, "priv"),
    (Column::Iaddr, "iaddr_0"),
    (Column::Iretire, "iretire_0"),
    (Column::Ilastsize, "ilastsize_0"),
    (Column::Context, "context"),
    (Column::Ctype, "ctype"),
    (Column::Sijump, "sijump_0"),
];

/// Number of required columns at the start of [`COLUMNS`].
const REQUIRED: usize = 7;

/// The columns the reference flow's encoder model requires (`csv_headers.py`); `context`
/// and `ctype` are optional for this reader.
pub const ENCODER_INPUT_HEADER: &str =
    "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0";

fn column_name(column: Column) -> &'static str {
    COLUMNS
        .iter()
        .find(|(c, _)| *c == column)
        .map_or("?", |(_, name)| name)
}

/// The lines of an encoder-input CSV, as a [`LineParser`]: the header line first, which
/// names the columns (in any order; unknown columns are ignored), then one record per line.
#[derive(Debug, Clone, Default)]
pub struct EncoderInputParser {
    columns: Option<Vec<Column>>,
}

impl EncoderInputParser {
    /// Whether the header has an `sijump_0` column (after the first record was read).
    pub fn has_sijump(&self) -> bool {
        self.columns
            .as_ref()
            .is_some_and(|c| c.contains(&Column::Sijump))
    }
}

impl LineParser for EncoderInputParser {
    type Row = IngressRecord;

    fn parse(
        &mut self,
        line: &[u8],
        file: &Option<Arc<str>>,
        line_no: u64,
    ) -> Result<Option<IngressRecord>, FormatError> {
        match &self.columns {
            None => {
                self.columns = Some(parse_header(line, file, line_no)?);
                Ok(None)
            }
            Some(columns) => parse_record(line, columns, file, line_no).map(Some),
        }
    }

    fn finish(&self, file: &Option<Arc<str>>, line_no: u64) -> Result<(), FormatError> {
        match self.columns {
            None => Err(FormatError::NoHeader {
                at: Location::line(file.clone(), line_no),
            }),
            Some(_) => Ok(()),
        }
    }
}

/// Streaming reader of encoder-input CSV files, yielding [`IngressRecord`]s.
///
/// The header is read with the first record. After the first error the iterator ends.
pub type EncoderInputReader<R> = CsvReader<R, EncoderInputParser>;

impl<R: BufRead> CsvReader<R, EncoderInputParser> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        CsvReader::with_parser(input, EncoderInputParser::default())
    }

    /// Whether the header has an `sijump_0` column (after the first record was read).
    pub fn has_sijump(&self) -> bool {
        self.parser().has_sijump()
    }

    /// Reads the next record; `Ok(None)` at end of input.
    pub fn read_record(&mut self) -> Result<Option<IngressRecord>, FormatError> {
        self.read()
    }
}

fn parse_header(
    line: &[u8],
    file: &Option<Arc<str>>,
    line_no: u64,
) -> Result<Vec<Column>, FormatError> {
    let mut columns = Vec::new();
    for (index, name) in line
        .split(|&b| b == b',')
        .map(<[u8]>::trim_ascii)
        .enumerate()
    {
        let column = COLUMNS
            .iter()
            .find(|(_, n)| name.eq_ignore_ascii_case(n.as_bytes()))
            .map_or(Column::Ignored, |(c, _)| *c);
        if column != Column::Ignored && columns.contains(&column) {
            return Err(FormatError::DuplicateColumn {
                column: shown(name),
                at: Location::at(file.clone(), line_no, index as u64 + 1),
            });
        }
        columns.push(column);
    }
    for (column, name) in &COLUMNS[..REQUIRED] {
        if !columns.contains(column) {
            return Err(FormatError::MissingColumn {
                column: name,
                at: Location::line(file.clone(), line_no),
            });
        }
    }
    Ok(columns)
}

fn parse_record(
    line: &[u8],
    columns: &[Column],
    file: &Option<Arc<str>>,
    line_no: u64,
) -> Result<IngressRecord, FormatError> {
    let mut record = IngressRecord::default();
    let mut count = 0usize;
    for (index, field) in line.split(|&b| b == b',').enumerate() {
        count += 1;
        let Some(&column) = columns.get(index) else {
            continue;
        };
        if column == Column::Ignored {
            continue;
        }
        let value = field.trim_ascii();
        let name = column_name(column);
        let radix = match column {
            Column::Tval | Column::Iaddr => Radix::Hex,
            _ => Radix::Decimal,
        };
        let number = parse_field(radix, value, name, file, line_no, index)?;
        let bad = |reason| invalid(value, name, reason, file, line_no, index);
        match column {
            Column::Itype => {
                record.itype =
                    Itype::from_code(number).ok_or_else(|| bad("reserved itype code"))?;
            }
            Column::Cause => record.cause = number,
            Column::Tval => record.tval = number,
            Column::Priv => {
                record.privilege =
                    Privilege::from_code(number).ok_or_else(|| bad("reserved privilege code"))?;
            }
            Column::Iaddr => record.iaddr = number,
            Column::Context => record.context = number,
            Column::Ctype => {
                record.ctype = u8::try_from(number)
                    .ok()
                    .filter(|&c| c <= 3)
                    .ok_or_else(|| bad("must be 0 to 3"))?;
            }
            Column::Sijump => {
                record.sijump = match number {
                    0 => false,
                    1 => true,
                    _ => return Err(bad("must be 0 or 1")),
                }
            }
            Column::Iretire => {
                record.iretire = match number {
                    0 | 1 => number as u8,
                    _ => return Err(bad("must be 0 or 1 (single retirement)")),
                }
            }
            Column::Ilastsize => {
                record.ilastsize = match number {
                    0..=3 => number as u8,
                    _ => return Err(bad("must be 0 to 3")),
                }
            }
            Column::Ignored => {}
        }
    }
    if count != columns.len() {
        return Err(FormatError::FieldCount {
            found: count,
            expected: columns.len(),
            at: Location::line(file.clone(), line_no),
        });
    }
    record.interrupt = record.itype == Itype::Interrupt;
    Ok(record)
}

/// Which optional columns the writer writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncoderInputOptions {
    /// Write the `context` and `ctype` columns.
    pub context: bool,
    /// Write the `sijump_0` column.
    pub sijump: bool,
}

impl Default for EncoderInputOptions {
    /// `context` and `ctype` on, `sijump_0` off: the header of the reference flow's
    /// `csv_headers.py`.
    fn default() -> Self {
        EncoderInputOptions {
            context: true,
            sijump: false,
        }
    }
}

impl EncoderInputOptions {
    /// The columns the reference flow writes for `params` (`nocontext_p`, `sijump_p`).
    pub fn from_params(params: &Params) -> Self {
        EncoderInputOptions {
            context: params.has_context(),
            sijump: params.sijump_p != 0,
        }
    }

    /// The header line these options produce.
    pub fn header(&self) -> String {
        let mut h = String::from("itype_0,cause,tval,priv,iaddr_0,");
        if self.context {
            h.push_str("context,ctype,");
        }
        if self.sijump {
            h.push_str("sijump_0,");
        }
        h.push_str("iretire_0,ilastsize_0");
        h
    }
}

impl RowFormat for EncoderInputOptions {
    type Row = IngressRecord;

    fn header(&self) -> String {
        EncoderInputOptions::header(self)
    }

    fn write_row(&self, r: &IngressRecord, b: &mut Vec<u8>) {
        push_dec(b, u64::from(r.itype.code()));
        b.push(b',');
        push_dec(b, r.cause);
        b.push(b',');
        push_hex(b, r.tval);
        b.push(b',');
        push_dec(b, u64::from(r.privilege.code()));
        b.push(b',');
        push_hex(b, r.iaddr);
        b.push(b',');
        if self.context {
            push_dec(b, r.context);
            b.push(b',');
            push_dec(b, u64::from(r.ctype));
            b.push(b',');
        }
        if self.sijump {
            b.push(if r.sijump { b'1' } else { b'0' });
            b.push(b',');
        }
        push_dec(b, u64::from(r.iretire));
        b.push(b',');
        push_dec(b, u64::from(r.ilastsize));
    }
}

/// Writer of encoder-input CSV files: the header at creation, then one line per record.
/// Wrap the output in a `BufWriter` for speed.
pub type EncoderInputWriter<W> = CsvWriter<W, EncoderInputOptions>;

impl<W: Write> CsvWriter<W, EncoderInputOptions> {
    /// Writes the header line for `options` to `out`.
    pub fn new(out: W, options: EncoderInputOptions) -> io::Result<Self> {
        CsvWriter::with_format(out, options)
    }

    /// Writes one record.
    pub fn write_record(&mut self, r: &IngressRecord) -> io::Result<()> {
        self.write(r)
    }
}

/// Reads every record of `input` (convenience for small files and tests).
pub fn read_all<R: BufRead>(input: R) -> Result<Vec<IngressRecord>, FormatError> {
    EncoderInputReader::new(input).collect()
}

/// Writes `records` with a header into a byte vector (convenience for small files and tests).
pub fn write_all(records: &[IngressRecord], options: EncoderInputOptions) -> Vec<u8> {
    write_all_rows(options, records)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(itype: Itype, iretire: u8, iaddr: u64, ilastsize: u8) -> IngressRecord {
        IngressRecord {
            iretire,
            itype,
            iaddr,
            ilastsize,
            interrupt: itype == Itype::Interrupt,
            ..IngressRecord::default()
        }
    }

    /// Every itype code, both trap kinds (retiring and not), every privilege.
    fn records() -> Vec<IngressRecord> {
        let mut v: Vec<IngressRecord> = Itype::ALL
            .iter()
            .enumerate()
            .map(|(i, &t)| record(t, 1, 0x8000_0000 + 4 * i as u64, (i % 2) as u8))
            .collect();
        v.push(IngressRecord {
            cause: 11,
            tval: 0,
            ..record(Itype::Exception, 1, 0x8000_0100, 1)
        });
        v.push(IngressRecord {
            cause: 2,
            tval: 0xffff_ffff_ffff_ffff,
            privilege: Privilege::User,
            ..record(Itype::Exception, 0, 0x8000_0104, 1)
        });
        v.push(IngressRecord {
            cause: 7,
            privilege: Privilege::Supervisor,
            context: 0x1234,
            ctype: 2,
            ..record(Itype::Interrupt, 0, 0x8000_0108, 0)
        });
        v.push(IngressRecord {
            sijump: true,
            privilege: Privilege::VirtualSupervisor,
            ..record(Itype::UninferableJump, 1, 0x8000_010c, 1)
        });
        for p in [Privilege::Debug, Privilege::VirtualUser] {
            v.push(IngressRecord {
                privilege: p,
                ..record(Itype::None, 1, 0x10, 0)
            });
        }
        v
    }

    #[test]
    fn encoder_input_round_trip_all_column_sets() {
        let all = records();
        for (context, sijump) in [(true, false), (true, true), (false, false), (false, true)] {
            let options = EncoderInputOptions { context, sijump };
            let bytes = write_all(&all, options);
            let got = read_all(&bytes[..]).unwrap();
            let want: Vec<IngressRecord> = all
                .iter()
                .map(|r| IngressRecord {
                    context: if context { r.context } else { 0 },
                    ctype: if context { r.ctype } else { 0 },
                    sijump: sijump && r.sijump,
                    ..*r
                })
                .collect();
            assert_eq!(got, want, "context {context} sijump {sijump}");
        }
    }

    #[test]
    fn writer_radix_matches_reference_flow() {
        let r = IngressRecord {
            cause: 12,
            tval: 0xabc,
            ..record(Itype::Exception, 0, 0x8000_00aa, 1)
        };
        let text = String::from_utf8(write_all(&[r], EncoderInputOptions::default())).unwrap();
        assert_eq!(
            text,
            "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0\n\
             1,12,abc,3,800000aa,0,0,0,1\n"
        );
        let opts = EncoderInputOptions {
            context: false,
            sijump: true,
        };
        assert_eq!(
            opts.header(),
            "itype_0,cause,tval,priv,iaddr_0,sijump_0,iretire_0,ilastsize_0"
        );
    }

    #[test]
    fn reader_uses_names_not_positions() {
        let text = "ilastsize_0,time,iretire_0,priv,iaddr_0,tval,cause,itype_0,extra\n\
                    1,99,1,3,0x80000004,0,0,5,whatever\n";
        let got = read_all(text.as_bytes()).unwrap();
        assert_eq!(got, vec![record(Itype::TakenBranch, 1, 0x8000_0004, 1)]);
    }

    #[test]
    fn missing_column_is_named() {
        let text = "itype_0,cause,tval,priv,context,ctype,iretire_0,ilastsize_0\n";
        let err = read_all(text.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "missing column `iaddr_0` in header (line 1)"
        );
        let err = read_all("".as_bytes()).unwrap_err();
        assert!(matches!(err, FormatError::NoHeader { .. }));
        let err = read_all("itype_0,itype_0\n".as_bytes()).unwrap_err();
        assert!(matches!(
            err,
            FormatError::DuplicateColumn {
                at: Location {
                    column: Some(2),
                    ..
                },
                ..
            }
        ));
    }

    #[test]
    fn bad_fields_are_located() {
        let head = "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0\n";
        let cases = [
            ("0,0,0,3,80zz,0,0,1,1", "bad hex value `80zz` in column iaddr_0 (line 2, column 5)"),
            ("7,0,0,3,80,0,0,1,1", "invalid value `7` in column itype_0: reserved itype code (line 2, column 1)"),
            ("0,0,0,2,80,0,0,1,1", "invalid value `2` in column priv: reserved privilege code (line 2, column 4)"),
            ("0,x,0,3,80,0,0,1,1", "bad decimal value `x` in column cause (line 2, column 2)"),
            ("0,0,0,3,80,0,0,2,1", "invalid value `2` in column iretire_0: must be 0 or 1 (single retirement) (line 2, column 8)"),
            ("0,0,0,3,80,0,0,1", "wrong number of fields: 8, expected 9 (line 2)"),
            ("0,0,0,3,80,0,0,1,1,1", "wrong number of fields: 10, expected 9 (line 2)"),
        ];
        for (row, want) in cases {
            let text = format!("{head}{row}\n");
            let err = read_all(text.as_bytes()).unwrap_err();
            assert_eq!(err.to_string(), want);
        }
    }
}
