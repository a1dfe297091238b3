//! Throughput of the instruction trace decoder of `decoder.adoc` on the workload programs
//! (`programs/elf/workload-rv64.elf`, `-rv32.elf`), in reconstructed instructions per
//! second: (a) te_inst packets to trace elements, (b) elements plus the per-instruction
//! steps, (c) the independent `riscv-etrace` tracer on the same packets. The packets are
//! prepared once (hart -> encoder -> pack -> unpack).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use etrace_model::decoder::pcs::steps;
use etrace_model::decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_model::encoder::{Encoder, EncoderOptions};
use etrace_model::hart::loader::parse_elf;
use etrace_model::hart::{Hart, HartConfig};
use etrace_model::ingress::IngressRecord;
use etrace_model::isa::Xlen;
use etrace_model::packet::{pack, unpack_with, IOptions, TeInst};
use etrace_model::params::Params;
use riscv_etrace::binary::error::SegmentError;
use riscv_etrace::binary::Binary;
use riscv_etrace::config::Parameters;
use riscv_etrace::instruction::{base, Instruction, Kind};
use riscv_etrace::packet::payload::InstructionTrace;
use riscv_etrace::tracer::{self, item, Tracer};

/// The program's loadable segments as a riscv-etrace binary.
struct Code {
    segments: Vec<(u64, Vec<u8>)>,
    base: base::Set,
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

fn their_params(p: &Params) -> Parameters {
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

/// Everything a measurement needs, prepared once.
struct Prepared {
    elf: Vec<u8>,
    params: Params,
    image: ProgramImage,
    packets: Vec<TeInst>,
    theirs: Vec<InstructionTrace>,
    retired: u64,
}

fn prepare(target: &str) -> Prepared {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../programs/elf")
        .join(format!("workload-{target}.elf"));
    let elf = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut hart = Hart::from_elf(&elf, HartConfig::default()).expect("workload loads");
    let mut records: Vec<IngressRecord> = Vec::new();
    let retired = hart.run(&mut records).expect("workload exits").retired;
    let params = if target == "rv32" {
        Params::rv32()
    } else {
        Params::rv64()
    };
    let tp = their_params(&params);
    let mut ioptions = IOptions::default();
    let mut packets = Vec::new();
    let mut theirs = Vec::new();
    for p in Encoder::encode_all(&params, EncoderOptions::default(), &records).unwrap() {
        let bytes = pack(&p.packet, &params).unwrap().bytes;
        let packet = unpack_with(&bytes, &params, &ioptions).unwrap();
        if let TeInst::Support(s) = &packet {
            ioptions = s.ioptions;
        }
        packets.push(packet);
        theirs.push(
            riscv_etrace::packet::builder()
                .with_params(&tp)
                .decoder(&bytes)
                .decode_payload()
                .unwrap(),
        );
    }
    let image = ProgramImage::from_elf(&elf).unwrap();
    Prepared {
        elf,
        params,
        image,
        packets,
        theirs,
        retired,
    }
}

/// (a) packets to elements; returns the elements.
fn decode(p: &Prepared) -> Vec<TraceElement> {
    let mut decoder = TeDecoder::new(&p.image, &p.params, DecoderConfig::default());
    for (i, packet) in p.packets.iter().enumerate() {
        decoder.process(packet, i as u64, None);
    }
    decoder.take_elements(true)
}

/// (c) the riscv-etrace tracer; returns the number of instructions it reconstructed.
fn trace_theirs(p: &Prepared) -> u64 {
    let elf = parse_elf(&p.elf).unwrap();
    let code = Code {
        segments: elf.segments.into_iter().map(|s| (s.addr, s.data)).collect(),
        base: match elf.xlen {
            Xlen::X32 => base::Set::Rv32I,
            Xlen::X64 => base::Set::Rv64I,
        },
    };
    let mut tracer: Tracer<Code> = tracer::builder()
        .with_binary(code)
        .with_params(&their_params(&p.params))
        .build()
        .unwrap();
    let mut n = 0u64;
    for payload in &p.theirs {
        tracer.process_te_inst(payload).unwrap();
        for it in tracer.by_ref() {
            if let item::Kind::Regular(_) = it.unwrap().kind() {
                n += 1;
            }
        }
    }
    n
}

/// Prints one line with the mean rate of `f` over a few runs.
fn summary(label: &str, instructions: u64, mut f: impl FnMut()) {
    let runs = 5;
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    let secs = start.elapsed().as_secs_f64() / f64::from(runs);
    println!(
        "summary {label}: {:.1} M instructions/s ({instructions} instructions in {:.2} ms)",
        instructions as f64 / secs / 1e6,
        secs * 1e3
    );
}

fn bench_decoder(c: &mut Criterion) {
    let mut group = c.benchmark_group("decoder");
    group.sample_size(10);
    for target in ["rv64", "rv32"] {
        let p = prepare(target);
        // The measurements are only meaningful if they reconstruct the whole run.
        let elements = decode(&p);
        assert!(!elements
            .iter()
            .any(|e| matches!(e, TraceElement::DecodeError { .. })));
        let decoded = steps(&elements, &p.image).unwrap().len() as u64;
        assert!(
            decoded >= p.retired,
            "{decoded} steps < {} retired",
            p.retired
        );
        assert_eq!(trace_theirs(&p), p.retired, "riscv-etrace instructions");
        group.throughput(Throughput::Elements(p.retired));

        summary(&format!("workload-{target}/elements"), p.retired, || {
            black_box(decode(&p));
        });
        summary(&format!("workload-{target}/steps"), p.retired, || {
            black_box(steps(&decode(&p), &p.image).unwrap());
        });
        summary(
            &format!("workload-{target}/riscv-etrace"),
            p.retired,
            || {
                black_box(trace_theirs(&p));
            },
        );

        group.bench_function(format!("workload-{target}/elements"), |b| {
            b.iter(|| black_box(decode(&p)))
        });
        group.bench_function(format!("workload-{target}/steps"), |b| {
            b.iter(|| black_box(steps(&decode(&p), &p.image).unwrap()))
        });
        group.bench_function(format!("workload-{target}/riscv-etrace"), |b| {
            b.iter(|| black_box(trace_theirs(&p)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_decoder);
criterion_main!(benches);
