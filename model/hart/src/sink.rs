//! Consumers of the ingress stream the hart produces (`ingressPort.adoc`,
//! "Simplifications for single-retirement": one record per retired instruction or trap).

use etrace_spec::ingress::{IngressRecord, Itype};

/// Receives one ingress record per retired instruction and per trap, in order, with the
/// instruction bits of the retired (or trapping) instruction (0 for an interrupt).
pub trait IngressSink {
    /// Consume one record.
    fn record(&mut self, rec: &IngressRecord, insn: u32);
}

impl IngressSink for Vec<IngressRecord> {
    fn record(&mut self, rec: &IngressRecord, _insn: u32) {
        self.push(*rec);
    }
}

impl IngressSink for Vec<(IngressRecord, u32)> {
    fn record(&mut self, rec: &IngressRecord, insn: u32) {
        self.push((*rec, insn));
    }
}

impl<F: FnMut(&IngressRecord, u32)> IngressSink for F {
    fn record(&mut self, rec: &IngressRecord, insn: u32) {
        self(rec, insn)
    }
}

/// A sink that only counts what it receives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CountingSink {
    /// Records received.
    pub records: u64,
    /// Records with `iretire = 1`.
    pub retired: u64,
    /// Records per `itype` code (index = code).
    pub by_itype: [u64; 16],
}

impl IngressSink for CountingSink {
    fn record(&mut self, rec: &IngressRecord, _insn: u32) {
        self.records += 1;
        self.retired += u64::from(rec.iretire);
        self.by_itype[usize::from(rec.itype.code() & 15)] += 1;
    }
}

impl CountingSink {
    /// Number of records with `itype`.
    pub fn count(&self, itype: Itype) -> u64 {
        self.by_itype[usize::from(itype.code())]
    }
}

/// A sink that drops everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NullSink;

impl IngressSink for NullSink {
    fn record(&mut self, _rec: &IngressRecord, _insn: u32) {}
}
