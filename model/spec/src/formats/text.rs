//! Shared helpers of the CSV readers and writers: line reading without per-line
//! allocation, field trimming, hex / decimal parsing and formatting.

use std::io::{self, BufRead, Read, Write};
use std::sync::Arc;

use super::error::{FormatError, Location, Radix};

/// Longest line the CSV readers take (64 KiB; a spike CSV or encoder-input line has a few
/// hundred bytes at most): a longer one is an error, so that an input without line ends
/// (`/dev/zero`, a binary file) cannot fill memory.
pub const MAX_LINE_BYTES: usize = 1 << 16;

/// Reads lines into one reused buffer; strips `\n` / `\r\n`; counts lines (1-based);
/// refuses lines longer than [`MAX_LINE_BYTES`].
pub(crate) struct Lines<R> {
    inner: R,
    buf: Vec<u8>,
    /// Number of the line last returned (0 before the first).
    pub(crate) line: u64,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(inner: R) -> Self {
        Lines {
            inner,
            buf: Vec::with_capacity(128),
            line: 0,
        }
    }

    /// The next line without its terminator, or `None` at end of input.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<&[u8]>> {
        self.buf.clear();
        let n = (&mut self.inner)
            .take(MAX_LINE_BYTES as u64 + 2)
            .read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        let mut end = self.buf.len();
        if end > 0 && self.buf[end - 1] == b'\n' {
            end -= 1;
        }
        if end > 0 && self.buf[end - 1] == b'\r' {
            end -= 1;
        }
        if end > MAX_LINE_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("line longer than {MAX_LINE_BYTES} bytes (not a text file?)"),
            ));
        }
        Ok(Some(&self.buf[..end]))
    }
}

/// How the lines of one CSV format are parsed, for [`CsvReader`].
pub trait LineParser {
    /// What one data line holds.
    type Row;
    /// One non-blank line (`line_no` 1-based): a row, or `None` for a header line.
    fn parse(
        &mut self,
        line: &[u8],
        file: &Option<Arc<str>>,
        line_no: u64,
    ) -> Result<Option<Self::Row>, FormatError>;
    /// The end of input, which would have been line `line_no`: an error if the file is
    /// incomplete (no header, for example).
    fn finish(&self, file: &Option<Arc<str>>, line_no: u64) -> Result<(), FormatError>;
}

/// Streaming reader of a CSV file whose lines `P` parses: blank lines are skipped, errors
/// carry the file name and line. Iterating yields one `Result` per row; after the first
/// error the iterator ends.
pub struct CsvReader<R, P> {
    lines: Lines<R>,
    file: Option<Arc<str>>,
    parser: P,
    done: bool,
}

impl<R: BufRead, P: LineParser> CsvReader<R, P> {
    /// A reader over `input` with `parser`.
    pub fn with_parser(input: R, parser: P) -> Self {
        CsvReader {
            lines: Lines::new(input),
            file: None,
            parser,
            done: false,
        }
    }

    /// Names the file in error locations.
    pub fn with_file_name(mut self, name: impl Into<Arc<str>>) -> Self {
        self.file = Some(name.into());
        self
    }

    /// The 1-based line number of the row returned last (0 before the first).
    pub fn line(&self) -> u64 {
        self.lines.line
    }

    /// The file name given with [`Self::with_file_name`].
    pub fn file_name(&self) -> Option<&Arc<str>> {
        self.file.as_ref()
    }

    /// The parser (what it learnt from the header, for example).
    pub fn parser(&self) -> &P {
        &self.parser
    }

    /// Reads the next row; `Ok(None)` at end of input.
    pub fn read(&mut self) -> Result<Option<P::Row>, FormatError> {
        if self.done {
            return Ok(None);
        }
        let result = self.read_inner();
        if !matches!(result, Ok(Some(_))) {
            self.done = true;
        }
        result
    }

    fn read_inner(&mut self) -> Result<Option<P::Row>, FormatError> {
        loop {
            let line_no = self.lines.line + 1;
            let line = match self.lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => return self.parser.finish(&self.file, line_no).map(|()| None),
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
            if let Some(row) = self.parser.parse(line, &self.file, line_no)? {
                return Ok(Some(row));
            }
        }
    }
}

impl<R: BufRead, P: LineParser> Iterator for CsvReader<R, P> {
    type Item = Result<P::Row, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read().transpose()
    }
}

/// One CSV file format of the reference flow: its header line and how a row is written.
pub trait RowFormat {
    /// What one line holds.
    type Row;
    /// The header line, without its terminator.
    fn header(&self) -> String;
    /// Appends the fields of `row` to `line` (no terminator).
    fn write_row(&self, row: &Self::Row, line: &mut Vec<u8>);
}

/// Writer of a CSV file of format `F`: the header at creation, then one line per row.
/// Wrap the output in a `BufWriter` for speed.
pub struct CsvWriter<W: Write, F: RowFormat> {
    out: W,
    format: F,
    line: Vec<u8>,
}

impl<W: Write, F: RowFormat> CsvWriter<W, F> {
    /// Writes the header line of `format` to `out`.
    pub fn with_format(mut out: W, format: F) -> io::Result<Self> {
        out.write_all(format.header().as_bytes())?;
        out.write_all(b"\n")?;
        Ok(CsvWriter {
            out,
            format,
            line: Vec::with_capacity(96),
        })
    }

    /// Writes one row.
    pub fn write(&mut self, row: &F::Row) -> io::Result<()> {
        self.line.clear();
        self.format.write_row(row, &mut self.line);
        self.line.push(b'\n');
        self.out.write_all(&self.line)
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

/// `rows` in format `format`, with its header, as bytes (convenience for small files and
/// tests).
pub(crate) fn write_all_rows<F: RowFormat>(format: F, rows: &[F::Row]) -> Vec<u8> {
    const VEC: &str = "writing to a Vec cannot fail";
    let mut w = CsvWriter::with_format(Vec::new(), format).expect(VEC);
    for row in rows {
        w.write(row).expect(VEC);
    }
    w.into_inner().expect(VEC)
}

/// Why a number did not parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumError {
    /// Empty, or a character that is not a digit of the radix.
    Syntax,
    /// More than 64 bits.
    Overflow,
}

fn hex_digit(b: u8) -> Option<u64> {
    match b {
        b'0'..=b'9' => Some(u64::from(b - b'0')),
        b'a'..=b'f' => Some(u64::from(b - b'a' + 10)),
        b'A'..=b'F' => Some(u64::from(b - b'A' + 10)),
        _ => None,
    }
}

fn strip_hex_prefix(s: &[u8]) -> Option<&[u8]> {
    match s {
        [b'0', b'x' | b'X', rest @ ..] => Some(rest),
        _ => None,
    }
}

/// Parses hex digits, with or without a `0x` prefix.
pub(crate) fn parse_hex(s: &[u8]) -> Result<u64, NumError> {
    let digits = strip_hex_prefix(s).unwrap_or(s);
    if digits.is_empty() {
        return Err(NumError::Syntax);
    }
    let mut value: u64 = 0;
    let mut overflow = false;
    for &b in digits {
        let d = hex_digit(b).ok_or(NumError::Syntax)?;
        if value >> 60 != 0 {
            overflow = true;
        }
        value = (value << 4) | d;
    }
    if overflow {
        Err(NumError::Overflow)
    } else {
        Ok(value)
    }
}

/// Parses decimal digits; a `0x` prefix selects hex instead.
pub(crate) fn parse_dec(s: &[u8]) -> Result<u64, NumError> {
    if strip_hex_prefix(s).is_some() {
        return parse_hex(s);
    }
    if s.is_empty() {
        return Err(NumError::Syntax);
    }
    let mut value: u64 = 0;
    let mut overflow = false;
    for &b in s {
        if !b.is_ascii_digit() {
            return Err(NumError::Syntax);
        }
        match value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
    }
    if overflow {
        Err(NumError::Overflow)
    } else {
        Ok(value)
    }
}

/// Parses a field in `radix`, turning failures into a [`FormatError`] naming the column.
pub(crate) fn parse_field(
    radix: Radix,
    value: &[u8],
    column: &'static str,
    file: &Option<Arc<str>>,
    line: u64,
    field: usize,
) -> Result<u64, FormatError> {
    let result = match radix {
        Radix::Hex => parse_hex(value),
        Radix::Decimal => parse_dec(value),
    };
    result.map_err(|e| match e {
        NumError::Syntax => FormatError::BadNumber {
            radix,
            value: shown(value),
            column,
            at: Location::at(file.clone(), line, field as u64 + 1),
        },
        NumError::Overflow => FormatError::InvalidValue {
            value: shown(value),
            column,
            reason: "does not fit in 64 bits",
            at: Location::at(file.clone(), line, field as u64 + 1),
        },
    })
}

/// An [`FormatError::InvalidValue`] for field `field` (0-based) of `line`.
pub(crate) fn invalid(
    value: &[u8],
    column: &'static str,
    reason: &'static str,
    file: &Option<Arc<str>>,
    line: u64,
    field: usize,
) -> FormatError {
    FormatError::InvalidValue {
        value: shown(value),
        column,
        reason,
        at: Location::at(file.clone(), line, field as u64 + 1),
    }
}

/// A field's text for an error message: printable ASCII as it is, other bytes escaped
/// (`\xNN`, `\n`: an error line never carries raw binary), at most 64 characters.
pub(crate) fn shown(value: &[u8]) -> String {
    let text = value.escape_ascii().to_string();
    if text.chars().count() > 64 {
        let mut s: String = text.chars().take(64).collect();
        s.push_str("...");
        s
    } else {
        text
    }
}

/// Appends `value` in lower-case hex without prefix.
pub(crate) fn push_hex(buf: &mut Vec<u8>, value: u64) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut tmp = [0u8; 16];
    let mut i = tmp.len();
    let mut v = value;
    loop {
        i -= 1;
        tmp[i] = DIGITS[(v & 0xf) as usize];
        v >>= 4;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&tmp[i..]);
}

/// Appends `value` in decimal.
pub(crate) fn push_dec(buf: &mut Vec<u8>, value: u64) {
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    let mut v = value;
    loop {
        i -= 1;
        tmp[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&tmp[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_parsing_accepts_prefix_and_rejects_garbage() {
        assert_eq!(parse_hex(b"80000000"), Ok(0x8000_0000));
        assert_eq!(parse_hex(b"0x1F"), Ok(0x1f));
        assert_eq!(parse_hex(b"0X1f"), Ok(0x1f));
        assert_eq!(parse_hex(b"ffffffffffffffff"), Ok(u64::MAX));
        assert_eq!(parse_hex(b"00000000000000001"), Ok(1));
        assert_eq!(parse_hex(b"10000000000000000"), Err(NumError::Overflow));
        assert_eq!(parse_hex(b""), Err(NumError::Syntax));
        assert_eq!(parse_hex(b"0x"), Err(NumError::Syntax));
        assert_eq!(parse_hex(b"xyz"), Err(NumError::Syntax));
        assert_eq!(parse_hex(b"-1"), Err(NumError::Syntax));
    }

    #[test]
    fn decimal_parsing() {
        assert_eq!(parse_dec(b"0"), Ok(0));
        assert_eq!(parse_dec(b"18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_dec(b"18446744073709551616"), Err(NumError::Overflow));
        assert_eq!(parse_dec(b"0x10"), Ok(16));
        assert_eq!(parse_dec(b"1a"), Err(NumError::Syntax));
        assert_eq!(parse_dec(b""), Err(NumError::Syntax));
    }

    #[test]
    fn formatting() {
        let mut b = Vec::new();
        push_hex(&mut b, 0);
        b.push(b',');
        push_hex(&mut b, 0xdead_beef_0123_4567);
        b.push(b',');
        push_dec(&mut b, 0);
        b.push(b',');
        push_dec(&mut b, u64::MAX);
        assert_eq!(b, b"0,deadbeef01234567,0,18446744073709551615");
    }

    /// Lines up to [`MAX_LINE_BYTES`] are read (with or without `\r\n`); a longer one,
    /// or an input with no line end at all, is an error, not a buffer the size of the
    /// input.
    #[test]
    fn line_length_is_bounded() {
        let longest = [vec![b'a'; MAX_LINE_BYTES], b"\r\nb\n".to_vec()].concat();
        let mut lines = Lines::new(&longest[..]);
        assert_eq!(
            lines.next_line().unwrap().map(<[u8]>::len),
            Some(MAX_LINE_BYTES)
        );
        assert_eq!(lines.next_line().unwrap(), Some(&b"b"[..]));
        assert_eq!(lines.next_line().unwrap(), None);
        let endless = std::io::repeat(0).take(1 << 30);
        let mut lines = Lines::new(std::io::BufReader::new(endless));
        let err = lines.next_line().unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(lines.line, 1);
    }

    /// Error messages show binary bytes escaped, and at most 64 characters.
    #[test]
    fn shown_fields_never_carry_raw_binary() {
        assert_eq!(shown(b"VALID,ADDR"), "VALID,ADDR");
        assert_eq!(shown(b"a\x00\x1b[2J\xff\n"), "a\\x00\\x1b[2J\\xff\\n");
        let long = shown(&[0xffu8; 100]);
        assert!(long.is_ascii() && long.ends_with("..."), "{long}");
        assert_eq!(long.len(), 64 + 3);
    }
}
