//! Errors of the reference flow's file formats (spike CSV, encoder-input CSV, parameter
//! files). Every variant names the place (file, 1-based line and column) and the cause.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// A place in a text file: optional file name, 1-based line, optional 1-based column.
///
/// For CSV files the column is the field number; for parameter files it is the character
/// column within the line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// The file name, when the reader was given one.
    pub file: Option<Arc<str>>,
    /// 1-based line number.
    pub line: u64,
    /// 1-based column (CSV: field number), when meaningful.
    pub column: Option<u64>,
}

impl Location {
    /// A location with a line only.
    pub fn line(file: Option<Arc<str>>, line: u64) -> Location {
        Location {
            file,
            line,
            column: None,
        }
    }

    /// A location with a line and a column.
    pub fn at(file: Option<Arc<str>>, line: u64, column: u64) -> Location {
        Location {
            file,
            line,
            column: Some(column),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file} ")?;
        }
        write!(f, "line {}", self.line)?;
        if let Some(column) = self.column {
            write!(f, ", column {column}")?;
        }
        Ok(())
    }
}

/// Radix of a numeric field, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Radix {
    /// Base 16 (an optional `0x` prefix is accepted).
    Hex,
    /// Base 10 (a `0x` prefix switches to base 16).
    Decimal,
}

impl fmt::Display for Radix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Radix::Hex => "hex",
            Radix::Decimal => "decimal",
        })
    }
}

/// An error reading or converting one of the reference flow's files.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// Reading the input failed.
    #[error("read error: {source} ({at})")]
    Io {
        /// The underlying error.
        #[source]
        source: io::Error,
        /// The line being read.
        at: Location,
    },
    /// A file could not be opened or read as a whole.
    #[error("cannot read `{}`: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The file is empty where a header line is required.
    #[error("empty file: no header line ({at})")]
    NoHeader {
        /// Where the header was expected.
        at: Location,
    },
    /// The file has no line, or only blank ones (formats whose header is optional).
    #[error("empty file: no header line and no rows ({at})")]
    Empty {
        /// Where the first line was expected.
        at: Location,
    },
    /// The header line is not the expected one (fixed-header formats).
    #[error("unexpected header `{found}`, expected `{expected}` ({at})")]
    BadHeader {
        /// The header as read.
        found: String,
        /// The expected header.
        expected: &'static str,
        /// The header line.
        at: Location,
    },
    /// A required column is absent from the header.
    #[error("missing column `{column}` in header ({at})")]
    MissingColumn {
        /// The column name.
        column: &'static str,
        /// The header line.
        at: Location,
    },
    /// A column appears twice in the header.
    #[error("duplicate column `{column}` in header ({at})")]
    DuplicateColumn {
        /// The column name.
        column: String,
        /// The header line and the second occurrence.
        at: Location,
    },
    /// A row has a different number of fields than the header.
    #[error("wrong number of fields: {found}, expected {expected} ({at})")]
    FieldCount {
        /// Fields in the row.
        found: usize,
        /// Fields in the header.
        expected: usize,
        /// The row.
        at: Location,
    },
    /// A numeric field does not parse.
    #[error("bad {radix} value `{value}` in column {column} ({at})")]
    BadNumber {
        /// Expected radix.
        radix: Radix,
        /// The field as written.
        value: String,
        /// The column name.
        column: &'static str,
        /// Row and field number.
        at: Location,
    },
    /// A field parses but its value is not allowed.
    #[error("invalid value `{value}` in column {column}: {reason} ({at})")]
    InvalidValue {
        /// The field as written.
        value: String,
        /// The column name.
        column: &'static str,
        /// Why it is refused.
        reason: &'static str,
        /// Row and field number.
        at: Location,
    },
    /// A parameter-file line or TOML document does not follow the syntax.
    #[error("syntax error: {message} ({at})")]
    Syntax {
        /// What is wrong.
        message: String,
        /// Where.
        at: Location,
    },
    /// A parameter name that is not in `discovery.adoc`'s list.
    #[error("unknown parameter `{name}` ({at})")]
    UnknownParameter {
        /// The name as written.
        name: String,
        /// Where the name is.
        at: Location,
    },
    /// A parameter value outside the accepted range.
    #[error("parameter `{name}` = {value} is out of range {min}..={max} ({at})")]
    ParamOutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value as written.
        value: String,
        /// Smallest accepted value.
        min: u64,
        /// Largest accepted value.
        max: u64,
        /// Where the value is.
        at: Location,
    },
    /// A parameter value that is not an integer (or a boolean for 0/1 parameters).
    #[error("parameter `{name}` must be an integer, found {found} ({at})")]
    NotInteger {
        /// The parameter.
        name: String,
        /// What was found (the text or the TOML type).
        found: String,
        /// Where the value is.
        at: Location,
    },
}

impl FormatError {
    /// The location the error refers to, if any.
    pub fn location(&self) -> Option<&Location> {
        match self {
            FormatError::File { .. } => None,
            FormatError::Io { at, .. }
            | FormatError::NoHeader { at }
            | FormatError::Empty { at }
            | FormatError::BadHeader { at, .. }
            | FormatError::MissingColumn { at, .. }
            | FormatError::DuplicateColumn { at, .. }
            | FormatError::FieldCount { at, .. }
            | FormatError::BadNumber { at, .. }
            | FormatError::InvalidValue { at, .. }
            | FormatError::Syntax { at, .. }
            | FormatError::UnknownParameter { at, .. }
            | FormatError::ParamOutOfRange { at, .. }
            | FormatError::NotInteger { at, .. } => Some(at),
        }
    }
}
