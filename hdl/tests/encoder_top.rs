//! The whole encoder (`hdl/src/top.rs`) in rust-hdl's simulator on a real program: its
//! output bytes equal the model's (`Encoder::encode_all` framed by the model's encap
//! writer, sync sequence every 4096 bytes) when the output never stalls and blocks arrive
//! far enough apart that no packet is dropped.

use etrace_hdl::config::Config;
use etrace_hdl::output::framer::FramerConfig;
use etrace_hdl::top::Encoder as HwEncoder;
use etrace_model::encoder::{Encoder, EncoderOptions};
use etrace_model::framing::encap::{EncapConfig, EncapWriter};
use etrace_model::hart::{Hart, HartConfig};
use etrace_model::ingress::IngressRecord;
use etrace_model::packet::pack;
use rust_hdl::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

type Rv32Encoder = HwEncoder<32, 5, 4, 80, 6>;

/// Idle cycles after each block: enough for the serializer to drain two packets.
const GAP: usize = 40;

fn records(name: &str, limit: usize) -> Vec<IngressRecord> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../programs/elf/{name}.elf"));
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

fn hardware_bytes(records: &[IngressRecord], options: EncoderOptions) -> Vec<u8> {
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let stim = records.to_vec();
    let total = (stim.len() + 4) * (GAP + 1) + 400;
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Rv32Encoder>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Rv32Encoder>| {
        let mut x = sim.init()?;
        x.full_address.next = options.full_address;
        x.implicit_exception.next = options.implicit_exception;
        x.sijump_option.next = options.sijump;
        x.resync_max.next = u64::from(options.resync_max).into();
        x.out_ready.next = true;
        x.reset.next = true;
        wait_clock_true!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        x.reset.next = false;
        x.trace_enable.next = true;
        let mut schedule: Vec<Option<IngressRecord>> = Vec::new();
        for r in &stim {
            schedule.push(Some(*r));
            schedule.extend(std::iter::repeat_n(None, GAP));
        }
        let mut cycle = 0usize;
        while cycle < total {
            let block = schedule.get(cycle).copied().flatten();
            let r = block.unwrap_or_default();
            x.iretire.next = block.is_some() && r.iretire != 0;
            x.itype.next = u64::from(if block.is_some() { r.itype.code() } else { 0 }).into();
            x.iaddr.next = (r.iaddr & 0xffff_ffff).into();
            x.privilege.next = u64::from(r.privilege.code()).into();
            x.cause.next = (r.cause & 0x1f).into();
            x.tval.next = (r.tval & 0xffff_ffff).into();
            x.sijump.next = r.sijump;
            // Disable once every block has been presented.
            x.trace_enable.next = cycle < schedule.len();
            x = sim.wait(1, x)?;
            if x.out_valid.val() {
                out_tb.lock().unwrap().push(x.out_data.val().index() as u8);
            }
            wait_clock_cycle!(sim, clock, x);
            cycle += 1;
        }
        sim.done(x)
    });
    let mut uut = Rv32Encoder::new(FramerConfig::default());
    uut.connect_all();
    sim.run(Box::new(uut), 10 * total as u64 + 100).unwrap();
    let v = out.lock().unwrap().clone();
    v
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
        let got = hardware_bytes(&recs, options);
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
