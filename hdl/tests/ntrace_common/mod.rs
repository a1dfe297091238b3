//! What the N-Trace co-simulations share: the model options of a generator
//! configuration, random ingress records, and driving the ingress signals with a record.

use etrace_hdl::ntrace::{NtraceHwOptions, NtraceIngress};
use etrace_ntrace::{NtraceMode, NtraceOptions};
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::{IngressRecord, Itype, Privilege};
use rust_hdl::prelude::*;

/// The model's options for the generator's `o`.
pub fn model_options(o: NtraceHwOptions) -> NtraceOptions {
    NtraceOptions {
        mode: if o.htm {
            NtraceMode::Htm
        } else {
            NtraceMode::Btm
        },
        icnt_bits: o.icnt_bits as u32,
        hist_bits: o.hist_bits as u32,
        sync_max: o.sync_max,
        sijump: o.sijump,
        call_stack: o.call_stack,
        repeat_history: o.repeat_history,
        repeat_bits: o.repeat_bits as u32,
        ..NtraceOptions::default()
    }
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

/// Random records: every 4-bit itype, both instruction sizes, traps with and without
/// retirement, privilege and context changes, returns mostly to the address after their
/// call (a shadow stack of the calls), and loops: a body of sequential instructions and
/// conditional branches ending in a taken branch or an indirect jump back to its start,
/// run many times (repeated HIST and branch messages).
pub fn random_records(seed: u64, n: usize) -> Vec<IngressRecord> {
    let mut rng = Rng::new(seed);
    let privs = [Privilege::User, Privilege::Supervisor, Privilege::Machine];
    let codes: Vec<Itype> = Itype::ALL
        .iter()
        .copied()
        .filter(|t| *t != Itype::None && *t != Itype::UninferableJump3)
        .collect();
    let mut addr = 0x8000_0000u64;
    let (mut privilege, mut context) = (Privilege::Machine, 0);
    let mut links: Vec<u64> = Vec::new();
    let mut records = Vec::with_capacity(n);
    let record = |itype, iaddr, ilastsize, privilege, context, sijump| IngressRecord {
        iretire: 1,
        itype,
        iaddr,
        ilastsize,
        privilege,
        context,
        sijump,
        ..IngressRecord::default()
    };
    while records.len() < n {
        if rng.below(150) == 0 {
            // A loop: its body's kinds, sizes and the jump back are fixed, so every
            // iteration is the same.
            let start = addr;
            let body: Vec<(Itype, u8)> = (0..1 + rng.below(6))
                .map(|_| {
                    let kind = if rng.below(2) == 0 {
                        Itype::None
                    } else if rng.below(2) == 0 {
                        Itype::NontakenBranch
                    } else {
                        Itype::TakenBranch
                    };
                    (kind, rng.below(2) as u8)
                })
                .collect();
            let back = if rng.below(2) == 0 {
                Itype::TakenBranch
            } else {
                Itype::UninferableJump
            };
            let sijump = rng.below(2) == 0;
            for _ in 0..2 + rng.below(40) {
                let mut a = start;
                for &(kind, size) in &body {
                    // A taken branch of the body skips nothing: its target is the next
                    // instruction.
                    records.push(record(kind, a, size, privilege, context, false));
                    a += 2 << size;
                }
                records.push(record(back, a, 1, privilege, context, sijump));
            }
            continue;
        }
        let itype = if rng.below(100) < 50 {
            Itype::None
        } else {
            codes[rng.below(codes.len() as u64) as usize]
        };
        if rng.below(40) == 0 {
            privilege = privs[rng.below(3) as usize];
        }
        if rng.below(60) == 0 {
            context ^= 1;
        }
        let iretire = u8::from(!(itype.is_trap() && rng.below(2) == 0));
        let ilastsize = rng.below(2) as u8;
        // Every other record says its jump is sequentially inferable (read with the
        // `sijump` option, only for uninferable jumps).
        let sijump = rng.below(2) == 0;
        records.push(IngressRecord {
            iretire,
            interrupt: itype == Itype::Interrupt,
            ..record(itype, addr, ilastsize, privilege, context, sijump)
        });
        let link = addr + (2 << ilastsize);
        let jump = (rng.next_u64() & 0xffff_fffe) | 0x8000_0000;
        addr = match itype {
            Itype::None | Itype::NontakenBranch => link,
            Itype::UninferableCall | Itype::InferableCall => {
                links.push(link);
                jump
            }
            Itype::Return | Itype::CoroutineSwap if rng.below(4) != 0 => {
                let back = links.pop().unwrap_or(jump);
                if itype == Itype::CoroutineSwap {
                    links.push(link);
                }
                back
            }
            _ => jump,
        };
    }
    records.truncate(n);
    records
}
