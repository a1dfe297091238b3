//! The whole encoder (`hdl/src/top.rs`) in rust-hdl's simulator on a real program: its
//! output bytes equal the model's (`Encoder::encode_all` framed by the model's encap
//! writer, sync sequence every 4096 bytes) when the output never stalls and blocks arrive
//! far enough apart that no packet is dropped; and under random idle cycles, output
//! back-pressure, drops and a re-enable, its port equals the cycle model's
//! (`etrace_encoder::cycle::encoder::EncoderCycle`) in every cycle.

use etrace_encoder::cycle::encoder::{CycleInput, EncoderCycle};
use etrace_encoder::cycle::output_path::{OutputItem, OutputPathConfig};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_hart::{Hart, HartConfig};
use etrace_hdl::config::Config;
use etrace_hdl::output::framer::FramerConfig;
use etrace_hdl::top::Encoder as HwEncoder;
use etrace_spec::framing::encap::{EncapConfig, EncapWriter};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::pack;
use rust_hdl::prelude::*;
use std::sync::{Arc, Mutex};

type Rv32Encoder = HwEncoder<32, 5, 4, 80, 6>;

/// Idle cycles after each block: enough for the serializer to drain two packets.
const GAP: usize = 40;

fn records(name: &str, limit: usize) -> Vec<IngressRecord> {
    let path = etrace_programs::elf_path(name);
    let bytes = std::fs::read(path).unwrap();
    let mut hart = Hart::from_elf(&bytes, HartConfig::default()).unwrap();
    let mut records = Vec::new();
    hart.run(&mut records).unwrap();
    records.truncate(limit);
    records
}

fn model_bytes(records: &[IngressRecord], options: EncoderOptions) -> Vec<u8> {
    let params = Config::Rv32.params();
    let packets = Encoder::encode_all(&params, options, records).unwrap();
    let mut writer = EncapWriter::new(EncapConfig::default(), 4096);
    for p in &packets {
        let payload = pack(&p.packet, &params).unwrap().bytes;
        writer.write(&payload, 0, None).unwrap();
    }
    writer.into_bytes()
}

/// What the byte-stream port shows in one cycle: `Some((out_data, out_last))` when
/// `out_valid`, and `trace_lost`.
type PortCycle = (Option<(u8, bool)>, bool);

/// Runs the RV32 encoder on `cycles` after one reset cycle; returns the port in every cycle.
fn hardware_cycles(cycles: &[CycleInput], options: EncoderOptions) -> Vec<PortCycle> {
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let stim = cycles.to_vec();
    let total = stim.len();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Rv32Encoder>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Rv32Encoder>| {
        let mut x = sim.init()?;
        x.full_address.next = options.full_address;
        x.implicit_exception.next = options.implicit_exception;
        x.sijump_option.next = options.sijump;
        x.resync_max.next = u64::from(options.resync_max).into();
        x.reset.next = true;
        wait_clock_true!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        x.reset.next = false;
        for c in &stim {
            let r = c.block.unwrap_or_default();
            x.iretire.next = c.block.is_some() && r.iretire != 0;
            x.itype.next = u64::from(if c.block.is_some() { r.itype.code() } else { 0 }).into();
            x.iaddr.next = (r.iaddr & 0xffff_ffff).into();
            x.privilege.next = u64::from(r.privilege.code()).into();
            x.cause.next = (r.cause & 0x1f).into();
            x.tval.next = (r.tval & 0xffff_ffff).into();
            x.sijump.next = r.sijump;
            x.trace_enable.next = c.trace_enable;
            x.trigger.next = u64::from(c.trigger).into();
            x.halted.next = c.halted;
            x.out_ready.next = c.ready;
            x = sim.wait(1, x)?;
            let byte = x
                .out_valid
                .val()
                .then(|| (x.out_data.val().index() as u8, x.out_last.val()));
            out_tb.lock().unwrap().push((byte, x.trace_lost.val()));
            wait_clock_cycle!(sim, clock, x);
        }
        sim.done(x)
    });
    let mut uut = Rv32Encoder::new(FramerConfig::default());
    uut.connect_all();
    sim.run(Box::new(uut), 10 * total as u64 + 100).unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// The cycle model's port in every cycle (`hdl/DESIGN.md`, items 0-8).
fn model_cycles(cycles: &[CycleInput], options: EncoderOptions) -> Vec<PortCycle> {
    let params = Config::Rv32.params();
    let mut model = EncoderCycle::new(&params, options, OutputPathConfig::default()).unwrap();
    let mut out = Vec::new();
    for c in cycles {
        let byte = match model.presented() {
            Some(OutputItem::Byte { data, last }) => Some((data, last)),
            _ => None,
        };
        out.push((byte, model.trace_lost()));
        model.cycle(c).unwrap();
    }
    out
}

/// Bytes taken by a consumer that is always ready.
fn taken(port: &[PortCycle]) -> Vec<u8> {
    port.iter().filter_map(|(b, _)| b.map(|(d, _)| d)).collect()
}

/// Blocks `GAP` cycles apart, output always ready, disabled after the last block.
fn spaced(records: &[IngressRecord]) -> Vec<CycleInput> {
    let mut cycles = Vec::new();
    for r in records {
        let on = |block| CycleInput {
            block,
            trace_enable: true,
            ready: true,
            ..CycleInput::default()
        };
        cycles.push(on(Some(*r)));
        cycles.extend(std::iter::repeat_n(on(None), GAP));
    }
    cycles.extend(std::iter::repeat_n(
        CycleInput {
            ready: true,
            ..CycleInput::default()
        },
        4 * GAP + 400,
    ));
    cycles
}

#[test]
fn whole_encoder_bytes_equal_the_models_on_a_program() {
    for (name, options) in [
        ("fnptr_switch-rv32", EncoderOptions::default()),
        (
            "traps-rv32",
            EncoderOptions {
                full_address: true,
                ..EncoderOptions::default()
            },
        ),
    ] {
        let recs = records(name, 600);
        let want = model_bytes(&recs, options);
        let got = taken(&hardware_cycles(&spaced(&recs), options));
        let first = got.iter().zip(&want).position(|(a, b)| a != b);
        assert!(
            first.is_none() && got.len() == want.len(),
            "{name}: first difference at byte {first:?} (hardware {} bytes, model {} bytes)",
            got.len(),
            want.len()
        );
        assert!(want.len() > 100, "{name}: a real stream");
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

#[test]
fn hdl_design_items_1_to_8_whole_encoder_under_stalls_matches_the_cycle_model() {
    let recs = records("fnptr_switch-rv32", 2000);
    let mut rng = Rng(0x5eed);
    let mut cycles = Vec::new();
    for (i, r) in recs[1400..].iter().enumerate() {
        while rng.below(4) == 0 {
            cycles.push(CycleInput {
                trace_enable: true,
                ready: rng.below(3) == 0,
                ..CycleInput::default()
            });
        }
        cycles.push(CycleInput {
            block: Some(*r),
            // A disable and re-enable while the output is stalled.
            trace_enable: i != 300,
            ready: rng.below(3) == 0,
            ..CycleInput::default()
        });
    }
    cycles.extend(std::iter::repeat_n(
        CycleInput {
            ready: true,
            ..CycleInput::default()
        },
        600,
    ));
    let options = EncoderOptions::default();
    let want = model_cycles(&cycles, options);
    let got = hardware_cycles(&cycles, options);
    assert_eq!(got.len(), want.len());
    for (t, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "cycle {t}: (byte, last), trace_lost");
    }
    assert!(
        want.iter().any(|&(_, lost)| lost),
        "the stalls lose packets"
    );
    assert!(taken(&want).len() > 300, "a real stream");
}

#[test]
fn whole_encoder_passes_yosys_validate() {
    let mut uut = Rv32Encoder::new(FramerConfig::default());
    uut.connect_all();
    let verilog = etrace_hdl::verilog::generate(&uut);
    etrace_hdl::verilog::yosys_check("etrace_encoder_top_rv32", &verilog).unwrap();
    let mut uut = HwEncoder::<64, 6, 4, 144, 6>::new(FramerConfig::default());
    uut.connect_all();
    let verilog = etrace_hdl::verilog::generate(&uut);
    etrace_hdl::verilog::yosys_check("etrace_encoder_top_rv64", &verilog).unwrap();
}
