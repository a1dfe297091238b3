//! The field layout of every message ("Fields in Messages", the message tables of "N-Trace
//! Messages (Details)"): TCODE (6 bits), SRC (configured width), the message's fields in
//! the order sent, then TSTAMP (variable, when timestamps are enabled); written with
//! [`MseoWriter`] and read back with [`FieldReader`].

use super::fields::Rcode;
use super::tcode::Tcode;
use super::types::{Body, Message};
use crate::mseo::{FieldError, FieldReader, MseoWriter};

/// The configured fields (`trTeSrcBits`, `trTsEnable`, "N-Trace Specific Trace Controls").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FieldConfig {
    /// Width of the SRC field (0: no SRC field), at most 12 (`NTRACE_MAX_SRC`).
    pub src_bits: u8,
    /// Messages may carry a TSTAMP field.
    pub timestamp: bool,
}

/// Why the bytes of a message do not read as an N-Trace message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// A TCODE that is vendor defined or reserved (table "Fields in Messages").
    #[error("TCODE {tcode} is not a standard N-Trace message")]
    UnknownTcode {
        /// The TCODE read.
        tcode: u8,
    },
    /// A field could not be read.
    #[error("{tcode}: {error}")]
    Field {
        /// The message.
        tcode: Tcode,
        /// What was wrong.
        error: FieldError,
    },
    /// The TCODE itself could not be read.
    #[error("TCODE: {0}")]
    Header(FieldError),
}

/// How a field is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// A fixed-length field of this many bits.
    Fixed(u32),
    /// A variable-length field.
    Var,
    /// A variable-length field sent only when the field at this index has this value
    /// (HREPEAT with RCODE 2, HIST with CDF 1).
    VarWhen(usize, u64),
}

/// One field of a message layout: its specification name and width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldSpec {
    /// The field name ("Fields in Messages").
    pub name: &'static str,
    /// How it is sent.
    pub width: Width,
}

const fn fixed(name: &'static str, bits: u32) -> FieldSpec {
    FieldSpec {
        name,
        width: Width::Fixed(bits),
    }
}

const fn var(name: &'static str) -> FieldSpec {
    FieldSpec {
        name,
        width: Width::Var,
    }
}

/// Most fields of a message between SRC and TSTAMP.
pub const MAX_FIELDS: usize = 5;

const SYNC: FieldSpec = fixed("SYNC", 4);
const BTYPE: FieldSpec = fixed("B-TYPE", 2);
const ICNT: FieldSpec = var("I-CNT");
const UADDR: FieldSpec = var("U-ADDR");
const FADDR: FieldSpec = var("F-ADDR");
const HIST: FieldSpec = var("HIST");
const OWNERSHIP: &[FieldSpec] = &[var("PROCESS")];
const DIRECT: &[FieldSpec] = &[ICNT];
const INDIRECT: &[FieldSpec] = &[BTYPE, ICNT, UADDR];
const ERROR: &[FieldSpec] = &[fixed("ETYPE", 4), var("ECODE")];
const SYNC_FADDR: &[FieldSpec] = &[SYNC, ICNT, FADDR];
const INDIRECT_SYNC: &[FieldSpec] = &[SYNC, BTYPE, ICNT, FADDR];
const RESOURCE_FULL: &[FieldSpec] = &[
    fixed("RCODE", 4),
    var("RDATA"),
    FieldSpec {
        name: "HREPEAT",
        width: Width::VarWhen(0, Rcode::HIST_REPEAT.0 as u64),
    },
];
const INDIRECT_HIST: &[FieldSpec] = &[BTYPE, ICNT, UADDR, HIST];
const INDIRECT_HIST_SYNC: &[FieldSpec] = &[SYNC, BTYPE, ICNT, FADDR, HIST];
const REPEAT: &[FieldSpec] = &[var("B-CNT")];
const CORRELATION: &[FieldSpec] = &[
    fixed("EVCODE", 4),
    fixed("CDF", 2),
    ICNT,
    FieldSpec {
        name: "HIST",
        width: Width::VarWhen(1, 1),
    },
];

/// The fields of a message between SRC and TSTAMP, in the order sent (the message tables
/// of "N-Trace Messages (Details)").
pub fn fields_of(tcode: Tcode) -> &'static [FieldSpec] {
    match tcode {
        Tcode::Ownership => OWNERSHIP,
        Tcode::DirectBranch => DIRECT,
        Tcode::IndirectBranch => INDIRECT,
        Tcode::Error => ERROR,
        Tcode::ProgTraceSync | Tcode::DirectBranchSync => SYNC_FADDR,
        Tcode::IndirectBranchSync => INDIRECT_SYNC,
        Tcode::ResourceFull => RESOURCE_FULL,
        Tcode::IndirectBranchHist => INDIRECT_HIST,
        Tcode::IndirectBranchHistSync => INDIRECT_HIST_SYNC,
        Tcode::RepeatBranch => REPEAT,
        Tcode::ProgTraceCorrelation => CORRELATION,
    }
}

/// Whether field `spec` is sent, given the values of the fields before it.
pub fn present(spec: &FieldSpec, values: &[u64]) -> bool {
    match spec.width {
        Width::VarWhen(i, v) => values[i] == v,
        _ => true,
    }
}

/// Appends the MSEO bytes of `message` to `out`.
pub fn write(message: &Message, config: &FieldConfig, out: &mut MseoWriter) {
    let tcode = message.body.tcode();
    out.fixed(6, u64::from(tcode.code()));
    out.fixed(u32::from(config.src_bits), u64::from(message.src));
    let values = message.body.values();
    for (i, spec) in fields_of(tcode).iter().enumerate() {
        match spec.width {
            Width::Fixed(bits) => out.fixed(bits, values[i]),
            _ if present(spec, &values) => out.var(values[i]),
            _ => {}
        }
    }
    if let Some(t) = message.tstamp {
        out.var(t);
    }
    out.end();
}

/// The MSEO bytes of one message.
pub fn to_bytes(message: &Message, config: &FieldConfig) -> Vec<u8> {
    let mut out = MseoWriter::new();
    write(message, config, &mut out);
    out.take()
}

/// Reads one message from its MSEO bytes (as [`crate::mseo::MessageSplitter`] cuts them).
pub fn parse(bytes: &[u8], config: &FieldConfig) -> Result<Message, MessageError> {
    let mut r = FieldReader::new(bytes);
    let code = r.fixed("TCODE", 6).map_err(MessageError::Header)?;
    let tcode = Tcode::from_code(code).ok_or(MessageError::UnknownTcode { tcode: code as u8 })?;
    let field = |error| MessageError::Field { tcode, error };
    let src = r.fixed("SRC", u32::from(config.src_bits)).map_err(field)? as u16;
    let mut values = [0u64; MAX_FIELDS];
    for (i, spec) in fields_of(tcode).iter().enumerate() {
        values[i] = match spec.width {
            Width::Fixed(bits) => r.fixed(spec.name, bits).map_err(field)?,
            _ if present(spec, &values) => r.var(spec.name).map_err(field)?,
            _ => 0,
        };
    }
    let tstamp = if config.timestamp && r.more() {
        Some(r.var("TSTAMP").map_err(field)?)
    } else {
        None
    };
    r.finish().map_err(field)?;
    Ok(Message {
        src,
        body: Body::from_values(tcode, &values),
        tstamp,
    })
}
