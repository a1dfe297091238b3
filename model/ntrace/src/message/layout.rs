//! The field layout of every message ("Fields in Messages", the message tables of "N-Trace
//! Messages (Details)"): TCODE (6 bits), SRC (configured width), the message's fields in
//! the order sent, then TSTAMP (variable, when timestamps are enabled); written with
//! [`MseoWriter`] and read back with [`FieldReader`].

use super::fields::{BType, Evcode, Rcode, SyncReason};
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

/// Appends the MSEO bytes of `message` to `out`.
pub fn write(message: &Message, config: &FieldConfig, out: &mut MseoWriter) {
    out.fixed(6, u64::from(message.body.tcode().code()));
    out.fixed(u32::from(config.src_bits), u64::from(message.src));
    match message.body {
        Body::Ownership { process } => out.var(process),
        Body::DirectBranch { icnt } => out.var(icnt),
        Body::IndirectBranch { btype, icnt, uaddr } => {
            out.fixed(2, btype as u64);
            out.var(icnt);
            out.var(uaddr);
        }
        Body::Error { etype, ecode } => {
            out.fixed(4, u64::from(etype));
            out.var(ecode);
        }
        Body::ProgTraceSync { sync, icnt, faddr }
        | Body::DirectBranchSync { sync, icnt, faddr } => {
            out.fixed(4, u64::from(sync.0));
            out.var(icnt);
            out.var(faddr);
        }
        Body::IndirectBranchSync {
            sync,
            btype,
            icnt,
            faddr,
        } => {
            out.fixed(4, u64::from(sync.0));
            out.fixed(2, btype as u64);
            out.var(icnt);
            out.var(faddr);
        }
        Body::ResourceFull {
            rcode,
            rdata,
            hrepeat,
        } => {
            out.fixed(4, u64::from(rcode.0));
            out.var(rdata);
            if let Some(h) = hrepeat {
                out.var(h);
            }
        }
        Body::IndirectBranchHist {
            btype,
            icnt,
            uaddr,
            hist,
        } => {
            out.fixed(2, btype as u64);
            out.var(icnt);
            out.var(uaddr);
            out.var(hist);
        }
        Body::IndirectBranchHistSync {
            sync,
            btype,
            icnt,
            faddr,
            hist,
        } => {
            out.fixed(4, u64::from(sync.0));
            out.fixed(2, btype as u64);
            out.var(icnt);
            out.var(faddr);
            out.var(hist);
        }
        Body::RepeatBranch { bcnt } => out.var(bcnt),
        Body::ProgTraceCorrelation {
            evcode,
            cdf,
            icnt,
            hist,
        } => {
            out.fixed(4, u64::from(evcode.0));
            out.fixed(2, u64::from(cdf));
            out.var(icnt);
            if let Some(h) = hist {
                out.var(h);
            }
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
    let body = read_body(tcode, &mut r).map_err(field)?;
    let tstamp = if config.timestamp && r.more() {
        Some(r.var("TSTAMP").map_err(field)?)
    } else {
        None
    };
    r.finish().map_err(field)?;
    Ok(Message { src, body, tstamp })
}

fn read_body(tcode: Tcode, r: &mut FieldReader) -> Result<Body, FieldError> {
    let sync = |r: &mut FieldReader| r.fixed("SYNC", 4).map(|v| SyncReason(v as u8));
    let btype = |r: &mut FieldReader| r.fixed("B-TYPE", 2).map(BType::from_code);
    Ok(match tcode {
        Tcode::Ownership => Body::Ownership {
            process: r.var("PROCESS")?,
        },
        Tcode::DirectBranch => Body::DirectBranch {
            icnt: r.var("I-CNT")?,
        },
        Tcode::IndirectBranch => Body::IndirectBranch {
            btype: btype(r)?,
            icnt: r.var("I-CNT")?,
            uaddr: r.var("U-ADDR")?,
        },
        Tcode::Error => Body::Error {
            etype: r.fixed("ETYPE", 4)? as u8,
            ecode: r.var("ECODE")?,
        },
        Tcode::ProgTraceSync => Body::ProgTraceSync {
            sync: sync(r)?,
            icnt: r.var("I-CNT")?,
            faddr: r.var("F-ADDR")?,
        },
        Tcode::DirectBranchSync => Body::DirectBranchSync {
            sync: sync(r)?,
            icnt: r.var("I-CNT")?,
            faddr: r.var("F-ADDR")?,
        },
        Tcode::IndirectBranchSync => Body::IndirectBranchSync {
            sync: sync(r)?,
            btype: btype(r)?,
            icnt: r.var("I-CNT")?,
            faddr: r.var("F-ADDR")?,
        },
        Tcode::ResourceFull => {
            let rcode = Rcode(r.fixed("RCODE", 4)? as u8);
            let rdata = r.var("RDATA")?;
            let hrepeat = if rcode == Rcode::HIST_REPEAT {
                Some(r.var("HREPEAT")?)
            } else {
                None
            };
            Body::ResourceFull {
                rcode,
                rdata,
                hrepeat,
            }
        }
        Tcode::IndirectBranchHist => Body::IndirectBranchHist {
            btype: btype(r)?,
            icnt: r.var("I-CNT")?,
            uaddr: r.var("U-ADDR")?,
            hist: r.var("HIST")?,
        },
        Tcode::IndirectBranchHistSync => Body::IndirectBranchHistSync {
            sync: sync(r)?,
            btype: btype(r)?,
            icnt: r.var("I-CNT")?,
            faddr: r.var("F-ADDR")?,
            hist: r.var("HIST")?,
        },
        Tcode::RepeatBranch => Body::RepeatBranch {
            bcnt: r.var("B-CNT")?,
        },
        Tcode::ProgTraceCorrelation => {
            let evcode = Evcode(r.fixed("EVCODE", 4)? as u8);
            let cdf = r.fixed("CDF", 2)? as u8;
            let icnt = r.var("I-CNT")?;
            let hist = if cdf == 1 { Some(r.var("HIST")?) } else { None };
            Body::ProgTraceCorrelation {
                evcode,
                cdf,
                icnt,
                hist,
            }
        }
    })
}
