//! What the N-Trace co-simulations share: the model options of a generator
//! configuration, random ingress records, driving the ingress signals with a record, and
//! one message as plain numbers.

#![allow(dead_code, unused_imports)]

use etrace_hdl::ntrace::{NtraceHwOptions, NtraceIngress, NtraceMessage, NtraceMessageSource};
use etrace_ntrace::NtraceOptions;
use etrace_spec::ingress::{IngressRecord, ItypeWidth};
use rust_hdl::prelude::*;

/// The model's options for the generator's `o` (records with a 4-bit `itype`).
pub fn model_options(o: NtraceHwOptions) -> NtraceOptions {
    o.model_options(ItypeWidth::W4)
}

/// Drives an ingress bundle and trace enable with `record`, or with the end of the trace
/// (`None`: trace disabled, no record).
pub fn drive_record(
    ingress: &mut NtraceIngress<32, 4>,
    trace_enable: &mut Signal<In, Bit>,
    record: Option<&IngressRecord>,
) {
    if let Some(r) = record {
        trace_enable.next = true;
        ingress.iretire.next = r.iretire != 0;
        ingress.itype.next = u64::from(r.itype.code()).into();
        ingress.iaddr.next = (r.iaddr & 0xffff_ffff).into();
        ingress.privilege.next = u64::from(r.privilege.code()).into();
        ingress.hart_context.next = (r.context & 1).into();
        ingress.ilastsize.next = r.ilastsize != 0;
        ingress.sijump.next = r.sijump;
    } else {
        trace_enable.next = false;
        ingress.iretire.next = false;
        ingress.itype.next = 0.into();
    }
}

/// Random records with loops (`etrace_spec::ingress::random::looping_records`).
pub use etrace_spec::ingress::random::looping_records as random_records;

/// One message as plain numbers ("Fields in Messages", `etrace_hdl::ntrace::NtraceMessage`):
/// (tcode, lead, lead_min, addr, addr_valid, hist, hist_valid).
pub type MessageFields = (u64, u64, u64, u64, bool, u64, bool);

/// The message a block offers, if one is present.
pub fn read_message(m: &NtraceMessageSource) -> Option<MessageFields> {
    m.valid.val().then(|| {
        (
            m.tcode.val().to_u64(),
            m.lead.val().to_u64(),
            m.lead_min.val().to_u64(),
            m.addr.val().to_u64(),
            m.addr_valid.val(),
            m.hist.val().to_u64(),
            m.hist_valid.val(),
        )
    })
}

/// Drives a message bundle with `fields` (present).
pub fn drive_message(m: &mut NtraceMessage, fields: &MessageFields) {
    m.valid.next = true;
    m.tcode.next = fields.0.into();
    m.lead.next = fields.1.into();
    m.lead_min.next = fields.2.into();
    m.addr.next = fields.3.into();
    m.addr_valid.next = fields.4;
    m.hist.next = fields.5.into();
    m.hist_valid.next = fields.6;
}
