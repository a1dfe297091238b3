//! The one-line listing of a message (`etrace dump --protocol ntrace`): the message name,
//! then every field under its specification name, addresses and HIST in hex.

use super::types::{Body, Message};
use std::fmt;

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} SRC={}", self.body.tcode(), self.src)?;
        match self.body {
            Body::Ownership { process } => write!(f, " PROCESS={process:#x}")?,
            Body::DirectBranch { icnt } => write!(f, " I-CNT={icnt}")?,
            Body::IndirectBranch { btype, icnt, uaddr } => {
                write!(f, " B-TYPE={} I-CNT={icnt} U-ADDR={uaddr:#x}", btype as u8)?
            }
            Body::Error { etype, ecode } => write!(f, " ETYPE={etype} ECODE={ecode:#x}")?,
            Body::ProgTraceSync { sync, icnt, faddr }
            | Body::DirectBranchSync { sync, icnt, faddr } => {
                write!(f, " SYNC={} I-CNT={icnt} F-ADDR={faddr:#x}", sync.0)?
            }
            Body::IndirectBranchSync {
                sync,
                btype,
                icnt,
                faddr,
            } => write!(
                f,
                " SYNC={} B-TYPE={} I-CNT={icnt} F-ADDR={faddr:#x}",
                sync.0, btype as u8
            )?,
            Body::ResourceFull {
                rcode,
                rdata,
                hrepeat,
            } => {
                write!(f, " RCODE={} RDATA={rdata:#x}", rcode.0)?;
                if let Some(h) = hrepeat {
                    write!(f, " HREPEAT={h}")?;
                }
            }
            Body::IndirectBranchHist {
                btype,
                icnt,
                uaddr,
                hist,
            } => write!(
                f,
                " B-TYPE={} I-CNT={icnt} U-ADDR={uaddr:#x} HIST={hist:#x}",
                btype as u8
            )?,
            Body::IndirectBranchHistSync {
                sync,
                btype,
                icnt,
                faddr,
                hist,
            } => write!(
                f,
                " SYNC={} B-TYPE={} I-CNT={icnt} F-ADDR={faddr:#x} HIST={hist:#x}",
                sync.0, btype as u8
            )?,
            Body::RepeatBranch { bcnt } => write!(f, " B-CNT={bcnt}")?,
            Body::ProgTraceCorrelation {
                evcode,
                cdf,
                icnt,
                hist,
            } => {
                write!(f, " EVCODE={} CDF={cdf} I-CNT={icnt}", evcode.0)?;
                if let Some(h) = hist {
                    write!(f, " HIST={h:#x}")?;
                }
            }
        }
        if let Some(t) = self.tstamp {
            write!(f, " TSTAMP={t}")?;
        }
        Ok(())
    }
}
