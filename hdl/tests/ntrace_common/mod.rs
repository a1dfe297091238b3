//! What the N-Trace co-simulations share: the model options of a generator
//! configuration, random ingress records, and driving the ingress signals with a record.

#![allow(dead_code, unused_imports)]

use etrace_hdl::ntrace::{NtraceHwOptions, NtraceIngress};
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
