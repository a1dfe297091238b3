//! Glue to the independent `riscv-etrace` crate (0.10), shared by the interoperability
//! tests, the decoder benchmark and the `etrace-bench` crate (included with `#[path]`):
//! our parameters in its terms, a program's loadable segments as its `Binary`, our ingress
//! records as its generator's `Step`s, and runs of its generator (encoder) and tracer
//! (decoder).

use etrace_spec::elf::parse_elf;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::isa::Xlen;
use etrace_spec::packet::{unpack_with, IOptions, TeInst};
use etrace_spec::params::Params;
use riscv_etrace::binary::error::SegmentError;
use riscv_etrace::binary::Binary;
use riscv_etrace::config::Parameters;
use riscv_etrace::generator::hart2enc::{CType, IType};
use riscv_etrace::generator::step::{Kind as StepKind, Step};
use riscv_etrace::generator::{Event, Generator};
use riscv_etrace::instruction::{base, Instruction, Kind, Size};
use riscv_etrace::packet::payload::InstructionTrace;
use riscv_etrace::packet::sync::Synchronization;
use riscv_etrace::packet::unit::{ReferenceDOptions, ReferenceIOptions};
use riscv_etrace::tracer::{self, item, Tracer};
use riscv_etrace::types::{Context, Privilege};

/// riscv-etrace's parameters equal to ours (`discovery.adoc`, `tab:iparameters`).
#[allow(dead_code)]
pub fn their_params(p: &Params) -> Parameters {
    let nz = |v: u64| std::num::NonZeroU8::new(v as u8).unwrap();
    Parameters {
        cache_size_p: p.cache_size_p as u8,
        call_counter_size_p: p.call_counter_size_p as u8,
        context_width_p: nz(p.context_width_p),
        time_width_p: nz(p.time_width_p),
        ecause_width_p: nz(p.ecause_width_p),
        f0s_width_p: p.f0s_width_p as u8,
        iaddress_lsb_p: p.iaddress_lsb_p as u8,
        iaddress_width_p: nz(p.iaddress_width_p),
        nocontext_p: p.nocontext_p == 1,
        notime_p: p.notime_p == 1,
        privilege_width_p: nz(p.privilege_width_p),
        return_stack_size_p: p.return_stack_size_p as u8,
        sijump_p: p.sijump_p == 1,
    }
}

/// The program binary in riscv-etrace's terms: the ELF's loadable segments.
#[allow(dead_code)]
pub struct Code {
    segments: Vec<(u64, Vec<u8>)>,
    base: base::Set,
}

#[allow(dead_code)]
impl Code {
    /// The loadable segments of an ELF file.
    pub fn from_elf(bytes: &[u8]) -> Code {
        let elf = parse_elf(bytes).unwrap();
        Code {
            segments: elf.segments.into_iter().map(|s| (s.addr, s.data)).collect(),
            base: match elf.xlen {
                Xlen::X32 => base::Set::Rv32I,
                Xlen::X64 => base::Set::Rv64I,
            },
        }
    }
}

impl Binary<Option<Kind>> for Code {
    type Error = SegmentError;

    fn get_insn(&mut self, address: u64) -> Result<Instruction<Option<Kind>>, SegmentError> {
        let (base, data) = self
            .segments
            .iter()
            .find(|(base, data)| address >= *base && address - base < data.len() as u64)
            .ok_or(SegmentError::AddressNotCovered)?;
        Instruction::extract(&data[(address - base) as usize..], &self.base)
            .map(|(i, _)| i)
            .ok_or(SegmentError::InvalidInstruction)
    }
}

/// One ingress record as one riscv-etrace generator step (single retirement).
///
/// The generator's `Step` models exactly our ingress conventions: one step per retired
/// instruction, an exception raised by a retiring `ecall`/`ebreak` is a `Trap` step with
/// an instruction size, any other exception and every interrupt is a `Trap` step without
/// one, at the address of the faulting (or interrupted) instruction. So every record maps
/// to one step, and nothing of the stream is dropped.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug)]
pub struct Record {
    address: u64,
    kind: StepKind,
    ctype: CType,
    context: Context,
}

#[allow(dead_code)]
impl Record {
    /// `Step::kind` from the record's `itype`, `cause`, `tval`, `iretire` and `ilastsize`
    /// (its `Kind::from_hart`), `Step::context` from `priv` and `context`, `Step::ctype`
    /// from `ctype`; an error names the field it cannot express.
    pub fn from_ingress(r: &IngressRecord) -> Result<Record, String> {
        let itype = IType::try_from(r.itype.code())
            .map_err(|c| format!("itype {c} unknown to riscv-etrace"))?;
        let insn_size = match r.ilastsize {
            0 => Size::Compressed,
            1 => Size::Normal,
            n => return Err(format!("ilastsize {n}")),
        };
        let ecause = u16::try_from(r.cause).map_err(|_| format!("cause {}", r.cause))?;
        Ok(Record {
            address: r.iaddr,
            kind: StepKind::from_hart(itype, ecause, r.tval, insn_size, r.iretire != 0, r.sijump),
            ctype: CType::try_from(r.ctype).map_err(|_| format!("ctype {}", r.ctype))?,
            context: Context {
                privilege: Privilege::try_from(r.privilege.code())
                    .map_err(|_| format!("privilege {:?}", r.privilege))?,
                context: r.context,
            },
        })
    }
}

impl Step for Record {
    fn address(&self) -> u64 {
        self.address
    }

    fn kind(&self) -> StepKind {
        self.kind
    }

    fn ctype(&self) -> CType {
        self.ctype
    }

    fn context(&self) -> Context {
        self.context
    }
}

/// riscv-etrace's generator (its encoder algorithm) run over `records`, its payloads
/// serialised by its packet encoder: the support packet of `begin_qualification`, the
/// payloads of every step, and those of `end_qualification`.
///
/// Its generator has no resynchronisation counter (a resync is an `Event::ReSync` given
/// by the caller): with `resync_max` > 0 this function counts payloads as our encoder's
/// counter does (`sec:resync`: cleared by format 3 subformat 0 and 1, the event given with
/// the next step once `resync_max` other payloads were sent); 0 gives no events.
#[allow(dead_code)]
pub fn their_payloads(
    records: &[IngressRecord],
    tp: &Parameters,
    ioptions: ReferenceIOptions,
    resync_max: u32,
) -> Result<Vec<Vec<u8>>, String> {
    let mut generator: Generator<Record> = riscv_etrace::generator::builder()
        .with_params(tp)
        .build()
        .map_err(|e| format!("generator: {e}"))?;
    let support = generator
        .begin_qualification(ioptions, ReferenceDOptions::default())
        .map_err(|e| format!("begin_qualification: {e}"))?;
    let mut payloads: Vec<InstructionTrace> = vec![support.into()];
    let mut count = 0u32;
    for (i, r) in records.iter().enumerate() {
        let step = Record::from_ingress(r).map_err(|e| format!("record {i}: {e}"))?;
        let event = (resync_max != 0 && count >= resync_max).then_some(Event::ReSync);
        for p in generator.process_step(step, event) {
            let p = p.map_err(|e| format!("record {i} ({:#x}): {e}", r.iaddr))?;
            count = match p {
                InstructionTrace::Synchronization(
                    Synchronization::Start(_) | Synchronization::Trap(_),
                ) => 0,
                _ => count.saturating_add(1),
            };
            payloads.push(p);
        }
    }
    for p in generator.end_qualification(false) {
        payloads.push(p.map_err(|e| format!("end of trace: {e}"))?);
    }
    payloads.iter().map(|p| their_bytes(tp, p)).collect()
}

/// A te_inst payload serialised by riscv-etrace's packet encoder.
#[allow(dead_code)]
pub fn their_bytes(tp: &Parameters, payload: &InstructionTrace) -> Result<Vec<u8>, String> {
    let mut buf = [0u8; 64];
    let mut enc = riscv_etrace::packet::builder()
        .with_params(tp)
        .encoder(&mut buf);
    enc.encode(payload)
        .map_err(|e| format!("{payload:?}: {e:?}"))?;
    let len = 64 - enc.uncommitted();
    Ok(buf[..len].to_vec())
}

/// A te_inst payload read by riscv-etrace's payload decoder.
#[allow(dead_code)]
pub fn their_payload(tp: &Parameters, bytes: &[u8]) -> Result<InstructionTrace, String> {
    riscv_etrace::packet::builder()
        .with_params(tp)
        .decoder(bytes)
        .decode_payload()
        .map_err(|e| format!("riscv-etrace's payload decoder: {e}"))
}

/// riscv-etrace's tracer (its decoder) for the program `elf` and our `params`.
#[allow(dead_code)]
pub fn their_tracer(elf: &[u8], params: &Params) -> Result<Tracer<Code>, String> {
    tracer::builder()
        .with_binary(Code::from_elf(elf))
        .with_params(&their_params(params))
        .build()
        .map_err(|e| format!("tracer: {e:?}"))
}

/// riscv-etrace's tracer (its decoder) over `payloads` with the program `elf`: the number
/// of instructions it reconstructs, or its first error with the payload's index.
#[allow(dead_code)]
pub fn their_trace_count(
    elf: &[u8],
    params: &Params,
    payloads: &[InstructionTrace],
) -> Result<u64, String> {
    let mut tracer = their_tracer(elf, params)?;
    let mut n = 0u64;
    for (i, payload) in payloads.iter().enumerate() {
        tracer
            .process_te_inst(payload)
            .map_err(|e| format!("packet {i}: {e}"))?;
        for it in tracer.by_ref() {
            let it = it.map_err(|e| format!("packet {i}: {e}"))?;
            if let item::Kind::Regular(_) = it.kind() {
                n += 1;
            }
        }
    }
    Ok(n)
}

/// te_inst payloads read both ways: by our `unpack_with` (with the ioptions of the latest
/// support packet) and by riscv-etrace's payload decoder; an error names the payload.
#[allow(dead_code)]
pub fn unpack_both(
    payloads: &[Vec<u8>],
    params: &Params,
) -> Result<(Vec<TeInst>, Vec<InstructionTrace>), String> {
    let tp = their_params(params);
    let mut ioptions = IOptions::default();
    let mut ours = Vec::with_capacity(payloads.len());
    let mut theirs = Vec::with_capacity(payloads.len());
    for (i, bytes) in payloads.iter().enumerate() {
        let packet =
            unpack_with(bytes, params, &ioptions).map_err(|e| format!("payload {i}: {e}"))?;
        if let TeInst::Support(s) = &packet {
            ioptions = s.ioptions;
        }
        ours.push(packet);
        theirs.push(their_payload(&tp, bytes).map_err(|e| format!("payload {i}: {e}"))?);
    }
    Ok((ours, theirs))
}
