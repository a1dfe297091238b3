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
use super::text::{invalid, parse_field, push_dec, push_hex, shown, Lines};
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

/// Streaming reader of encoder-input CSV files, yielding [`IngressRecord`]s.
///
/// The header is read with the first record. After the first error the iterator ends.
pub struct EncoderInputReader<R> {
    lines: Lines<R>,
    file: Option<Arc<str>>,
    columns: Option<Vec<Column>>,
    done: bool,
}

impl<R: BufRead> EncoderInputReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        EncoderInputReader {
            lines: Lines::new(input),
            file: None,
            columns: None,
            done: false,
        }
    }

    /// Names the file in error locations.
    pub fn with_file_name(mut self, name: impl Into<Arc<str>>) -> Self {
        self.file = Some(name.into());
        self
    }

    /// The 1-based line number of the record returned last.
    pub fn line(&self) -> u64 {
        self.lines.line
    }

    /// Whether the header has an `sijump_0` column (after the first record was read).
    pub fn has_sijump(&self) -> bool {
        self.columns
            .as_ref()
            .is_some_and(|c| c.contains(&Column::Sijump))
    }

    /// Reads the next record; `Ok(None)` at end of input.
    pub fn read_record(&mut self) -> Result<Option<IngressRecord>, FormatError> {
        if self.done {
            return Ok(None);
        }
        let result = self.read_inner();
        if !matches!(result, Ok(Some(_))) {
            self.done = true;
        }
        result
    }

    fn read_inner(&mut self) -> Result<Option<IngressRecord>, FormatError> {
        loop {
            let line_no = self.lines.line + 1;
            let line = match self.lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => {
                    if self.columns.is_none() {
                        return Err(FormatError::NoHeader {
                            at: Location::line(self.file.clone(), line_no),
                        });
                    }
                    return Ok(None);
                }
                Err(source) => {
                    return Err(FormatError::Io {
                        source,
                        at: Location::line(self.file.clone(), line_no),
                    })
                }
            };
            if line.trim_ascii().is_empty() {
                continue;
            }
            match &self.columns {
                None => {
                    self.columns = Some(parse_header(line, &self.file, line_no)?);
                }
                Some(columns) => return parse_record(line, columns, &self.file, line_no).map(Some),
            }
        }
    }
}

impl<R: BufRead> Iterator for EncoderInputReader<R> {
    type Item = Result<IngressRecord, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_record().transpose()
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

/// Writer of encoder-input CSV files: the header at creation, then one line per record.
/// Wrap the output in a `BufWriter` for speed.
pub struct EncoderInputWriter<W: Write> {
    out: W,
    options: EncoderInputOptions,
    buf: Vec<u8>,
}

impl<W: Write> EncoderInputWriter<W> {
    /// Writes the header line for `options` to `out`.
    pub fn new(mut out: W, options: EncoderInputOptions) -> io::Result<Self> {
        out.write_all(options.header().as_bytes())?;
        out.write_all(b"\n")?;
        Ok(EncoderInputWriter {
            out,
            options,
            buf: Vec::with_capacity(96),
        })
    }

    /// Writes one record.
    pub fn write_record(&mut self, r: &IngressRecord) -> io::Result<()> {
        let b = &mut self.buf;
        b.clear();
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
        if self.options.context {
            push_dec(b, r.context);
            b.push(b',');
            push_dec(b, u64::from(r.ctype));
            b.push(b',');
        }
        if self.options.sijump {
            b.push(if r.sijump { b'1' } else { b'0' });
            b.push(b',');
        }
        push_dec(b, u64::from(r.iretire));
        b.push(b',');
        push_dec(b, u64::from(r.ilastsize));
        b.push(b'\n');
        self.out.write_all(b)
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Flushes and returns the output.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Reads every record of `input` (convenience for small files and tests).
pub fn read_all<R: BufRead>(input: R) -> Result<Vec<IngressRecord>, FormatError> {
    EncoderInputReader::new(input).collect()
}

/// Writes `records` with a header into a byte vector (convenience for small files and tests).
pub fn write_all(records: &[IngressRecord], options: EncoderInputOptions) -> Vec<u8> {
    let mut w = EncoderInputWriter::new(Vec::new(), options).expect("writing to a Vec cannot fail");
    for r in records {
        w.write_record(r).expect("writing to a Vec cannot fail");
    }
    w.into_inner().expect("writing to a Vec cannot fail")
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
