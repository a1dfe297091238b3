//! Throughput of the hart model with ingress records produced (`ingressPort.adoc`,
//! single retirement): retired instructions per second running the workload programs
//! (`programs/elf/workload-rv64.elf`, `-rv32.elf`), with the records pushed into a
//! `Vec` and with a consuming closure.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use etrace_hart::{Hart, HartConfig};
use etrace_spec::ingress::IngressRecord;

fn workload(target: &str) -> Vec<u8> {
    let path = etrace_programs::elf_dir().join(format!("workload-{target}.elf"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn bench_hart(c: &mut Criterion) {
    let mut group = c.benchmark_group("hart");
    group.sample_size(10);
    for target in ["rv64", "rv32"] {
        let elf = workload(target);
        let config = HartConfig::default();
        let retired = {
            let mut hart = Hart::from_elf(&elf, config).expect("workload loads");
            let mut sink: Vec<IngressRecord> = Vec::new();
            hart.run(&mut sink).expect("workload exits").retired
        };
        group.throughput(Throughput::Elements(retired));
        let mut records: Vec<IngressRecord> = Vec::with_capacity(retired as usize + 64);
        group.bench_function(format!("workload-{target}/vec"), |b| {
            b.iter(|| {
                records.clear();
                let mut hart = Hart::from_elf(&elf, config).expect("workload loads");
                let outcome = hart.run(&mut records).expect("workload exits");
                black_box(outcome.retired)
            })
        });
        group.bench_function(format!("workload-{target}/closure"), |b| {
            b.iter(|| {
                let mut hash = 0u64;
                let mut sink = |rec: &IngressRecord, insn: u32| {
                    hash = hash
                        .rotate_left(5)
                        .wrapping_add(rec.iaddr ^ u64::from(insn) ^ u64::from(rec.itype.code()));
                };
                let mut hart = Hart::from_elf(&elf, config).expect("workload loads");
                hart.run(&mut sink).expect("workload exits");
                black_box(hash)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_hart);
criterion_main!(benches);
