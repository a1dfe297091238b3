//! The TCODE field ("Common Fields", TCODE; table "Fields in Messages").

use std::fmt;

/// Transfer code of an N-Trace message (the 6-bit TCODE field, sent first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Tcode {
    /// 2: "Ownership Message".
    Ownership = 2,
    /// 3: "DirectBranch Message".
    DirectBranch = 3,
    /// 4: "IndirectBranch Message".
    IndirectBranch = 4,
    /// 8: "Error Message".
    Error = 8,
    /// 9: "ProgTraceSync Message".
    ProgTraceSync = 9,
    /// 11: "DirectBranchSync Message".
    DirectBranchSync = 11,
    /// 12: "IndirectBranchSync Message".
    IndirectBranchSync = 12,
    /// 27: "ResourceFull Message".
    ResourceFull = 27,
    /// 28: "IndirectBranchHist Message".
    IndirectBranchHist = 28,
    /// 29: "IndirectBranchHistSync Message".
    IndirectBranchHistSync = 29,
    /// 30: "RepeatBranch Message".
    RepeatBranch = 30,
    /// 33: "ProgTraceCorrelation Message".
    ProgTraceCorrelation = 33,
}

impl Tcode {
    /// Every standard TCODE of N-Trace 1.0.
    pub const ALL: [Tcode; 12] = [
        Tcode::Ownership,
        Tcode::DirectBranch,
        Tcode::IndirectBranch,
        Tcode::Error,
        Tcode::ProgTraceSync,
        Tcode::DirectBranchSync,
        Tcode::IndirectBranchSync,
        Tcode::ResourceFull,
        Tcode::IndirectBranchHist,
        Tcode::IndirectBranchHistSync,
        Tcode::RepeatBranch,
        Tcode::ProgTraceCorrelation,
    ];

    /// The 6-bit code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The TCODE of a code; `None` for vendor-defined and reserved codes.
    pub fn from_code(code: u64) -> Option<Tcode> {
        Tcode::ALL
            .iter()
            .copied()
            .find(|t| u64::from(t.code()) == code)
    }

    /// The message name of the specification.
    pub fn name(self) -> &'static str {
        match self {
            Tcode::Ownership => "Ownership",
            Tcode::DirectBranch => "DirectBranch",
            Tcode::IndirectBranch => "IndirectBranch",
            Tcode::Error => "Error",
            Tcode::ProgTraceSync => "ProgTraceSync",
            Tcode::DirectBranchSync => "DirectBranchSync",
            Tcode::IndirectBranchSync => "IndirectBranchSync",
            Tcode::ResourceFull => "ResourceFull",
            Tcode::IndirectBranchHist => "IndirectBranchHist",
            Tcode::IndirectBranchHistSync => "IndirectBranchHistSync",
            Tcode::RepeatBranch => "RepeatBranch",
            Tcode::ProgTraceCorrelation => "ProgTraceCorrelation",
        }
    }
}

impl fmt::Display for Tcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
