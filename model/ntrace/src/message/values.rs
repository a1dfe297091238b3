//! The field values of a message body in the order of its layout
//! ([`super::layout::fields_of`]), and the body of a list of values: the one mapping
//! between the message values and the fields the writer, the reader and the listing
//! walk.

use super::fields::{BType, Evcode, Rcode, SyncReason};
use super::layout::MAX_FIELDS;
use super::tcode::Tcode;
use super::types::Body;

impl Body {
    /// The field values in the order of [`fields_of`] (absent fields 0).
    pub fn values(&self) -> [u64; MAX_FIELDS] {
        let mut v = [0u64; MAX_FIELDS];
        let list: &[u64] = match *self {
            Body::Ownership { process } => &[process],
            Body::DirectBranch { icnt } => &[icnt],
            Body::IndirectBranch { btype, icnt, uaddr } => &[btype as u64, icnt, uaddr],
            Body::Error { etype, ecode } => &[u64::from(etype), ecode],
            Body::ProgTraceSync { sync, icnt, faddr }
            | Body::DirectBranchSync { sync, icnt, faddr } => &[u64::from(sync.0), icnt, faddr],
            Body::IndirectBranchSync {
                sync,
                btype,
                icnt,
                faddr,
            } => &[u64::from(sync.0), btype as u64, icnt, faddr],
            Body::ResourceFull {
                rcode,
                rdata,
                hrepeat,
            } => &[u64::from(rcode.0), rdata, hrepeat.unwrap_or(0)],
            Body::IndirectBranchHist {
                btype,
                icnt,
                uaddr,
                hist,
            } => &[btype as u64, icnt, uaddr, hist],
            Body::IndirectBranchHistSync {
                sync,
                btype,
                icnt,
                faddr,
                hist,
            } => &[u64::from(sync.0), btype as u64, icnt, faddr, hist],
            Body::RepeatBranch { bcnt } => &[bcnt],
            Body::ProgTraceCorrelation {
                evcode,
                cdf,
                icnt,
                hist,
            } => &[u64::from(evcode.0), u64::from(cdf), icnt, hist.unwrap_or(0)],
        };
        v[..list.len()].copy_from_slice(list);
        v
    }

    /// The body of `tcode` with field values `v` in the order of [`fields_of`].
    pub fn from_values(tcode: Tcode, v: &[u64; MAX_FIELDS]) -> Body {
        let sync = SyncReason(v[0] as u8);
        match tcode {
            Tcode::Ownership => Body::Ownership { process: v[0] },
            Tcode::DirectBranch => Body::DirectBranch { icnt: v[0] },
            Tcode::IndirectBranch => Body::IndirectBranch {
                btype: BType::from_code(v[0]),
                icnt: v[1],
                uaddr: v[2],
            },
            Tcode::Error => Body::Error {
                etype: v[0] as u8,
                ecode: v[1],
            },
            Tcode::ProgTraceSync => Body::ProgTraceSync {
                sync,
                icnt: v[1],
                faddr: v[2],
            },
            Tcode::DirectBranchSync => Body::DirectBranchSync {
                sync,
                icnt: v[1],
                faddr: v[2],
            },
            Tcode::IndirectBranchSync => Body::IndirectBranchSync {
                sync,
                btype: BType::from_code(v[1]),
                icnt: v[2],
                faddr: v[3],
            },
            Tcode::ResourceFull => {
                let rcode = Rcode(v[0] as u8);
                Body::ResourceFull {
                    rcode,
                    rdata: v[1],
                    hrepeat: (rcode == Rcode::HIST_REPEAT).then_some(v[2]),
                }
            }
            Tcode::IndirectBranchHist => Body::IndirectBranchHist {
                btype: BType::from_code(v[0]),
                icnt: v[1],
                uaddr: v[2],
                hist: v[3],
            },
            Tcode::IndirectBranchHistSync => Body::IndirectBranchHistSync {
                sync,
                btype: BType::from_code(v[1]),
                icnt: v[2],
                faddr: v[3],
                hist: v[4],
            },
            Tcode::RepeatBranch => Body::RepeatBranch { bcnt: v[0] },
            Tcode::ProgTraceCorrelation => Body::ProgTraceCorrelation {
                evcode: Evcode(v[0] as u8),
                cdf: v[1] as u8,
                icnt: v[2],
                hist: (v[1] == 1).then_some(v[3]),
            },
        }
    }
}
