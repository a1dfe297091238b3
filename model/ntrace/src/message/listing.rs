//! The one-line listing of a message (`etrace dump --protocol ntrace`): the message name,
//! SRC, then every field sent under its specification name (addresses, HIST and the coded
//! values PROCESS, ECODE, RDATA in hex), then TSTAMP.

use super::layout::{fields_of, present};
use super::types::Message;
use std::fmt;

/// Fields listed in hex.
const HEX: [&str; 6] = ["U-ADDR", "F-ADDR", "HIST", "PROCESS", "ECODE", "RDATA"];

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tcode = self.body.tcode();
        write!(f, "{tcode} SRC={}", self.src)?;
        let values = self.body.values();
        for (i, spec) in fields_of(tcode).iter().enumerate() {
            if !present(spec, &values) {
                continue;
            }
            if HEX.contains(&spec.name) {
                write!(f, " {}={:#x}", spec.name, values[i])?;
            } else {
                write!(f, " {}={}", spec.name, values[i])?;
            }
        }
        if let Some(t) = self.tstamp {
            write!(f, " TSTAMP={t}")?;
        }
        Ok(())
    }
}
