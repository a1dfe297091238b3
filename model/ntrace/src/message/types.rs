//! The message values: one [`Body`] variant per message of table "Fields in Messages",
//! fields under their specification names (I-CNT as `icnt`, F-ADDR as `faddr`, ...);
//! address fields hold the field value (the address without its bit 0, "Address
//! Compression"), HIST fields include their stop bit ("HIST Field Generation").

use super::fields::{BType, Evcode, Rcode, SyncReason};
use super::tcode::Tcode;

/// The fields of a message after TCODE and SRC, before TSTAMP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Body {
    /// "Ownership Message": PROCESS.
    Ownership {
        /// PROCESS (see [`super::fields::Process`]).
        process: u64,
    },
    /// "DirectBranch Message": I-CNT.
    DirectBranch {
        /// I-CNT.
        icnt: u64,
    },
    /// "IndirectBranch Message": B-TYPE, I-CNT, U-ADDR.
    IndirectBranch {
        /// B-TYPE.
        btype: BType,
        /// I-CNT.
        icnt: u64,
        /// U-ADDR.
        uaddr: u64,
    },
    /// "Error Message": ETYPE, ECODE.
    Error {
        /// ETYPE (4 bits).
        etype: u8,
        /// ECODE.
        ecode: u64,
    },
    /// "ProgTraceSync Message": SYNC, I-CNT, F-ADDR.
    ProgTraceSync {
        /// SYNC.
        sync: SyncReason,
        /// I-CNT.
        icnt: u64,
        /// F-ADDR.
        faddr: u64,
    },
    /// "DirectBranchSync Message": SYNC, I-CNT, F-ADDR.
    DirectBranchSync {
        /// SYNC.
        sync: SyncReason,
        /// I-CNT.
        icnt: u64,
        /// F-ADDR.
        faddr: u64,
    },
    /// "IndirectBranchSync Message": SYNC, B-TYPE, I-CNT, F-ADDR.
    IndirectBranchSync {
        /// SYNC.
        sync: SyncReason,
        /// B-TYPE.
        btype: BType,
        /// I-CNT.
        icnt: u64,
        /// F-ADDR.
        faddr: u64,
    },
    /// "ResourceFull Message": RCODE, RDATA[0], RDATA[1] (HREPEAT, RCODE 2 only).
    ResourceFull {
        /// RCODE.
        rcode: Rcode,
        /// RDATA[0].
        rdata: u64,
        /// RDATA[1]: HREPEAT of RCODE 2.
        hrepeat: Option<u64>,
    },
    /// "IndirectBranchHist Message": B-TYPE, I-CNT, U-ADDR, HIST.
    IndirectBranchHist {
        /// B-TYPE.
        btype: BType,
        /// I-CNT.
        icnt: u64,
        /// U-ADDR.
        uaddr: u64,
        /// HIST.
        hist: u64,
    },
    /// "IndirectBranchHistSync Message": SYNC, B-TYPE, I-CNT, F-ADDR, HIST.
    IndirectBranchHistSync {
        /// SYNC.
        sync: SyncReason,
        /// B-TYPE.
        btype: BType,
        /// I-CNT.
        icnt: u64,
        /// F-ADDR.
        faddr: u64,
        /// HIST.
        hist: u64,
    },
    /// "RepeatBranch Message": B-CNT.
    RepeatBranch {
        /// B-CNT.
        bcnt: u64,
    },
    /// "ProgTraceCorrelation Message": EVCODE, CDF, I-CNT, HIST (CDF 1).
    ProgTraceCorrelation {
        /// EVCODE.
        evcode: Evcode,
        /// CDF.
        cdf: u8,
        /// I-CNT.
        icnt: u64,
        /// HIST (present when CDF is 1, HTM).
        hist: Option<u64>,
    },
}

/// One N-Trace message: TCODE (from the body), SRC, the body, TSTAMP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Message {
    /// SRC (sent when the SRC field is configured, "Common Fields" SRC).
    pub src: u16,
    /// The fields between SRC and TSTAMP.
    pub body: Body,
    /// TSTAMP (when timestamps are enabled, "Timestamp Reporting").
    pub tstamp: Option<u64>,
}

impl Body {
    /// The TCODE of the message.
    pub fn tcode(&self) -> Tcode {
        match self {
            Body::Ownership { .. } => Tcode::Ownership,
            Body::DirectBranch { .. } => Tcode::DirectBranch,
            Body::IndirectBranch { .. } => Tcode::IndirectBranch,
            Body::Error { .. } => Tcode::Error,
            Body::ProgTraceSync { .. } => Tcode::ProgTraceSync,
            Body::DirectBranchSync { .. } => Tcode::DirectBranchSync,
            Body::IndirectBranchSync { .. } => Tcode::IndirectBranchSync,
            Body::ResourceFull { .. } => Tcode::ResourceFull,
            Body::IndirectBranchHist { .. } => Tcode::IndirectBranchHist,
            Body::IndirectBranchHistSync { .. } => Tcode::IndirectBranchHistSync,
            Body::RepeatBranch { .. } => Tcode::RepeatBranch,
            Body::ProgTraceCorrelation { .. } => Tcode::ProgTraceCorrelation,
        }
    }

    /// SYNC of a synchronising message ("Synchronizing Messages"), else `None`.
    pub fn sync(&self) -> Option<SyncReason> {
        match *self {
            Body::ProgTraceSync { sync, .. }
            | Body::DirectBranchSync { sync, .. }
            | Body::IndirectBranchSync { sync, .. }
            | Body::IndirectBranchHistSync { sync, .. } => Some(sync),
            _ => None,
        }
    }

    /// The I-CNT field, if the message has one.
    pub fn icnt(&self) -> Option<u64> {
        match *self {
            Body::DirectBranch { icnt }
            | Body::IndirectBranch { icnt, .. }
            | Body::ProgTraceSync { icnt, .. }
            | Body::DirectBranchSync { icnt, .. }
            | Body::IndirectBranchSync { icnt, .. }
            | Body::IndirectBranchHist { icnt, .. }
            | Body::IndirectBranchHistSync { icnt, .. }
            | Body::ProgTraceCorrelation { icnt, .. } => Some(icnt),
            _ => None,
        }
    }

    /// The HIST field, if the message has one.
    pub fn hist(&self) -> Option<u64> {
        match *self {
            Body::IndirectBranchHist { hist, .. } | Body::IndirectBranchHistSync { hist, .. } => {
                Some(hist)
            }
            Body::ProgTraceCorrelation { hist, .. } => hist,
            _ => None,
        }
    }

    /// The B-TYPE field, if the message has one.
    pub fn btype(&self) -> Option<BType> {
        match *self {
            Body::IndirectBranch { btype, .. }
            | Body::IndirectBranchSync { btype, .. }
            | Body::IndirectBranchHist { btype, .. }
            | Body::IndirectBranchHistSync { btype, .. } => Some(btype),
            _ => None,
        }
    }
}
