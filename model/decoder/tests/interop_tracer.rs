//! Interoperability of the encoder and decoder with the independent `riscv-etrace` crate
//! (0.10) at the level of instruction reconstruction (`decoder.adoc`), in both directions:
//! * its tracer reconstructs, from our encoder's packets and the program binary, the
//!   hart's retired PC sequence;
//! * our decoder reconstructs the hart's PCs from the packets its serialiser makes.
//!
//! Packets travel as te_inst payload bytes (`pack` / its payload decoder and encoder), the
//! framing layer being covered by `framing::interop_tests`.

mod common;

use common::{assert_no_decode_error, decode, params_for, program};
use etrace_decoder::pcs::{record_steps, steps};
use etrace_decoder::DecoderConfig;
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::{pack, unpack_with, IOptions, TeInst};
use etrace_spec::params::Params;
use riscv_etrace::tracer::item;

#[path = "support/riscv_etrace_glue.rs"]
mod glue;
use glue::{their_bytes, their_params, their_payload, their_tracer};

struct Run {
    name: String,
    elf: Vec<u8>,
    params: Params,
    records: Vec<IngressRecord>,
    packets: Vec<TeInst>,
}

fn run(name: &str) -> Run {
    let program = program(name);
    let params = params_for(name);
    let packets = Encoder::encode_all(&params, EncoderOptions::default(), &program.records)
        .unwrap()
        .into_iter()
        .map(|p| p.packet)
        .collect();
    Run {
        name: name.to_string(),
        elf: program.elf,
        params,
        records: program.records,
        packets,
    }
}

fn hart_pcs(records: &[IngressRecord]) -> Vec<u64> {
    records
        .iter()
        .filter(|r| r.iretire != 0)
        .map(|r| r.iaddr)
        .collect()
}

/// What riscv-etrace's tracer reconstructs: retired PCs, and traps as (EPC, cause).
fn their_trace(run: &Run) -> (Vec<u64>, Vec<(u64, u16)>) {
    let tp = their_params(&run.params);
    let mut tracer = their_tracer(&run.elf, &run.params).unwrap();
    let mut pcs = Vec::new();
    let mut traps = Vec::new();
    for (i, inst) in run.packets.iter().enumerate() {
        let bytes = pack(inst, &run.params).unwrap().bytes;
        let payload = their_payload(&tp, &bytes)
            .unwrap_or_else(|e| panic!("{} packet {i} {inst:?}: {e}", run.name));
        tracer
            .process_te_inst(&payload)
            .unwrap_or_else(|e| panic!("{} packet {i} {inst:?}: {e:?}", run.name));
        for it in tracer.by_ref() {
            let it = it.unwrap_or_else(|e| panic!("{} packet {i} {inst:?}: {e:?}", run.name));
            match it.kind() {
                item::Kind::Regular(_) => pcs.push(it.pc()),
                item::Kind::Trap(info) => traps.push((it.pc(), info.ecause)),
                item::Kind::Context(_) => {}
            }
        }
    }
    (pcs, traps)
}

fn first_difference(got: &[u64], want: &[u64]) -> Option<usize> {
    got.iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .or((got.len() != want.len()).then_some(got.len().min(want.len())))
}

/// `decoder.adoc`: riscv-etrace's tracer, given our encoder's packets (default options)
/// and the program, reconstructs exactly the hart's retired PC sequence.
#[test]
fn decoder_adoc_riscv_etrace_tracer_reconstructs_our_trace() {
    for name in [
        "minimal-rv64",
        "minimal-rv32",
        "recursion-rv32",
        "recursion-rv64",
        "loops-rv64",
        "loops-rv32",
        "traps-rv32",
        "traps-rv64",
        "tailcall-rv32",
        "fnptr_switch-rv64",
        "privilege-rv32",
        "privilege-rv64",
    ] {
        let run = run(name);
        let want = hart_pcs(&run.records);
        let (got, traps) = their_trace(&run);
        if let Some(i) = first_difference(&got, &want) {
            panic!(
                "{name}: PC {i} of {} (hart) / {} (tracer) differs: tracer {:x?}, hart {:x?}",
                want.len(),
                got.len(),
                got.get(i.saturating_sub(2)..(i + 3).min(got.len())),
                want.get(i.saturating_sub(2)..(i + 3).min(want.len())),
            );
        }
        let hart_traps: Vec<u64> = run
            .records
            .iter()
            .filter(|r| r.itype.is_trap())
            .map(|r| r.cause)
            .collect();
        let their_causes: Vec<u64> = traps.iter().map(|t| u64::from(t.1)).collect();
        assert_eq!(their_causes, hart_traps, "{name}: trap causes");
    }
}

/// Second direction of issue 4. riscv-etrace's encoder side has two parts: a payload
/// generator (`generator::Generator`, the encoder algorithm, driven by its own `Step`
/// trait rather than by ingress records or the encoder-input CSV) and a packet serialiser
/// (`packet::encoder`). This test uses the serialiser: it encodes the packet values our
/// encoder chose (converted through its payload decoder), the bytes must unpack to the
/// same packets, and our decoder must reconstruct the hart's steps from them. Driving its
/// generator from our ingress records is not covered here.
#[test]
fn decoder_adoc_our_decoder_reads_riscv_etrace_serialised_packets() {
    for name in ["recursion-rv32", "loops-rv64", "traps-rv32", "minimal-rv64"] {
        let run = run(name);
        let tp = their_params(&run.params);
        let image = etrace_decoder::ProgramImage::from_elf(&run.elf).unwrap();
        let mut ioptions = IOptions::default();
        let mut packets = Vec::with_capacity(run.packets.len());
        for (i, inst) in run.packets.iter().enumerate() {
            let ours = pack(inst, &run.params).unwrap().bytes;
            let theirs = their_payload(&tp, &ours).unwrap();
            let bytes = their_bytes(&tp, &theirs).unwrap();
            let packet = unpack_with(&bytes, &run.params, &ioptions)
                .unwrap_or_else(|e| panic!("{name} packet {i}: {e}"));
            assert_eq!(&packet, inst, "{name} packet {i}");
            if let TeInst::Support(s) = &packet {
                ioptions = s.ioptions;
            }
            packets.push(packet);
        }
        let elements = decode(&image, &run.params, DecoderConfig::default(), &packets);
        assert_no_decode_error(&elements, name);
        assert_eq!(
            steps(&elements, &image).unwrap(),
            record_steps(&run.records),
            "{name}"
        );
    }
}

/// Discrepancy pinned (`decoder.adoc` pseudo code: a format 3 subformat 1 packet, as a
/// start of trace, clears `branches` and `branch_map`; `sec:trap`: with `thaddr` = 1 the
/// trace continues at the handler address). In `timer-rv32` the first timer interrupt is
/// taken at the `beqz` at 0x80000572; our decoder (`decode_programs`) follows the whole run.
/// riscv-etrace 0.10's tracer agrees with the hart up to the handler's first branch (`bgez`
/// at 0x80000594), which it resolves as taken (to 0x80000638) while the hart fell through
/// to 0x80000598: it uses a branch outcome left from before the trap packet instead of the
/// first bit of the next packet's map, and then fails on that packet
/// (`UnprocessedBranches`) because one of its branches is left over.
#[test]
fn decoder_adoc_riscv_etrace_tracer_stops_after_an_interrupt_packet() {
    let run = run("timer-rv32");
    let tp = their_params(&run.params);
    let mut tracer = their_tracer(&run.elf, &run.params).unwrap();
    let first_interrupt = run
        .packets
        .iter()
        .position(|p| matches!(p, TeInst::Trap(t) if t.interrupt && t.thaddr))
        .expect("an interrupt packet");
    let mut pcs = Vec::new();
    let mut failed_at = None;
    'packets: for (i, inst) in run.packets.iter().enumerate() {
        let bytes = pack(inst, &run.params).unwrap().bytes;
        let payload = their_payload(&tp, &bytes).unwrap();
        if let Err(e) = tracer.process_te_inst(&payload) {
            failed_at = Some((i, format!("{e:?}")));
            break;
        }
        for it in tracer.by_ref() {
            match it {
                Ok(it) => {
                    if let item::Kind::Regular(_) = it.kind() {
                        pcs.push(it.pc());
                    }
                }
                Err(e) => {
                    failed_at = Some((i, format!("{e:?}")));
                    break 'packets;
                }
            }
        }
    }
    let (index, error) = failed_at.expect("riscv-etrace 0.10 fails on this trace");
    assert_eq!(index, first_interrupt + 1);
    assert!(error.starts_with("UnprocessedBranches"), "{error}");
    let want = hart_pcs(&run.records);
    let diff = first_difference(&pcs, &want[..pcs.len().min(want.len())])
        .expect("the tracer leaves the hart's path");
    assert_eq!(pcs[diff - 1], 0x8000_0594, "the handler's bgez");
    assert_eq!(pcs[diff], 0x8000_0638, "taken, by the tracer");
    assert_eq!(want[diff], 0x8000_0598, "not taken, by the hart");
    // The hart was in the interrupt handler (entered at 0x80000058) at that point.
    assert!(pcs[..diff].contains(&0x8000_0058));
}
