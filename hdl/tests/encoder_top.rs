//! The whole encoder (`etrace_hdl::output::Encoder`, byte-stream top) in rust-hdl's
//! simulator on a real program: its output bytes equal the model's (`Encoder::encode_all`
//! framed by the model's encap writer, sync sequence every 4096 bytes) when the output
//! never stalls and blocks arrive far enough apart that no packet is dropped; and under
//! random idle cycles, output back-pressure, drops and a re-enable, its port equals the
//! cycle model's (`etrace_encoder::cycle::encoder::EncoderCycle`) in every cycle.

mod common;

use etrace_encoder::cycle::encoder::{CycleInput, EncoderCycle};
use etrace_encoder::cycle::output_path::{OutputItem, OutputPathConfig};
use etrace_encoder::EncoderOptions;
use etrace_hart::HartConfig;
use etrace_hdl::config::Config;
use etrace_hdl::encoder_core::CoreOptions;
use etrace_hdl::output::{Encoder, FramerConfig};
use etrace_hdl::with_config;
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::IngressRecord;
use rust_hdl::prelude::*;
use std::sync::{Arc, Mutex};

/// Idle cycles after each block: enough for the serializer to drain two packets.
const GAP: usize = 40;

fn records(name: &str, limit: usize) -> Vec<IngressRecord> {
    etrace_programs::records(name, HartConfig::default(), limit).unwrap()
}

/// What the byte-stream port shows in one cycle: `Some((out_data, out_last))` when
/// `out_valid`, and `trace_lost`.
type PortCycle = (Option<(u8, bool)>, bool);

/// Runs the encoder of `config` (64-byte FIFO) on `cycles` after one reset cycle; returns
/// the port in every cycle.
fn hardware_cycles(
    config: Config,
    cycles: &[CycleInput],
    options: EncoderOptions,
) -> Vec<PortCycle> {
    with_config!(config, [A, E, IT, P] => run_encoder::<A, E, IT, P>(cycles, options))
}

fn run_encoder<const A: usize, const E: usize, const IT: usize, const P: usize>(
    cycles: &[CycleInput],
    options: EncoderOptions,
) -> Vec<PortCycle> {
    type Top<const A: usize, const E: usize, const IT: usize, const P: usize> =
        Encoder<A, E, IT, P, { etrace_hdl::generics::DEFAULT_FIFO_ADDRESS_BITS }>;
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let stim = cycles.to_vec();
    let total = stim.len();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Top<A, E, IT, P>>| {
        x.clock.next = !x.clock.val()
    });
    sim.add_testbench(move |mut sim: Sim<Top<A, E, IT, P>>| {
        let mut x = sim.init()?;
        let inputs = &mut x.inputs;
        inputs.options.full_address.next = options.full_address;
        inputs.options.implicit_exception.next = options.implicit_exception;
        inputs.options.sijump_option.next = options.sijump;
        inputs.options.resync_max.next = u64::from(options.resync_max).into();
        inputs.reset.next = true;
        wait_clock_true!(sim, clock, x);
        wait_clock_cycle!(sim, clock, x);
        x.inputs.reset.next = false;
        for c in &stim {
            common::drive_block(&mut x.inputs.block, c.block.as_ref());
            x.inputs.control.trace_enable.next = c.trace_enable;
            x.inputs.control.trigger.next = u64::from(c.trigger).into();
            x.inputs.control.halted.next = c.halted;
            x.pins.out_ready.next = c.ready;
            x = sim.wait(1, x)?;
            let pins = &x.pins;
            let byte = pins
                .out_valid
                .val()
                .then(|| (pins.out_data.val().index() as u8, pins.out_last.val()));
            out_tb.lock().unwrap().push((byte, x.trace_lost.val()));
            wait_clock_cycle!(sim, clock, x);
        }
        sim.done(x)
    });
    let mut uut = Top::<A, E, IT, P>::new(FramerConfig::default(), CoreOptions::default());
    uut.connect_all();
    sim.run(Box::new(uut), 10 * total as u64 + 100).unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// The cycle model's port in every cycle (`hdl/DESIGN.md`, items 0-8).
fn model_cycles(config: Config, cycles: &[CycleInput], options: EncoderOptions) -> Vec<PortCycle> {
    let params = config.params();
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
    let config = Config::Rv32;
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
        let (want, _) = common::encap_stream(&config.params(), options, &[&recs]);
        let got = taken(&hardware_cycles(config, &spaced(&recs), options));
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
fn hdl_design_items_1_to_8_whole_encoder_under_stalls_matches_the_cycle_model() {
    let config = Config::Rv32;
    let recs = records("fnptr_switch-rv32", 2000);
    let mut rng = Rng::new(0x5eed);
    // Random idle cycles before each block, the output ready one cycle in three, a
    // disable and re-enable while the output is stalled (block 300), then a drain.
    let mut cycles = Vec::new();
    for (i, r) in recs[1400..].iter().enumerate() {
        let idle = std::iter::from_fn(|| (rng.below(4) == 0).then_some(None));
        for block in idle.collect::<Vec<_>>().into_iter().chain([Some(*r)]) {
            cycles.push(CycleInput {
                block,
                trace_enable: block.is_none() || i != 300,
                ready: rng.below(3) == 0,
                ..CycleInput::default()
            });
        }
    }
    let drain = CycleInput {
        ready: true,
        ..CycleInput::default()
    };
    cycles.extend(std::iter::repeat_n(drain, 600));
    let options = EncoderOptions::default();
    let want = model_cycles(config, &cycles, options);
    let got = hardware_cycles(config, &cycles, options);
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

/// Every configuration's generated top (and an ATB one) passes yosys and Verilator's lint
/// with the waivers of `scripts/check-verilog.sh`; its pins are flat, named as the ports
/// `generate` lists, in the order of the module header.
#[test]
fn generated_tops_pass_yosys_and_lint_with_flat_pins() {
    use etrace_hdl::top::{generate, OutputKind, TopOptions};
    use etrace_hdl::verilog::{lint_top, yosys_check_top};
    let atb = TopOptions {
        output: OutputKind::Atb { data_bytes: 8 },
        ..TopOptions::default()
    };
    let builds = Config::ALL
        .into_iter()
        .map(|c| (c, TopOptions::default()))
        .chain([(Config::Rv64, atb)]);
    for (config, options) in builds {
        let g = generate(config, &options).unwrap();
        let names: Vec<&str> = g.ports.iter().map(|p| p.name.as_str()).collect();
        let header = format!("module {}({});", g.top, names.join(","));
        assert!(g.verilog.contains(&header), "{}: {header}", g.top);
        assert!(names.iter().all(|n| !n.contains('$')), "{names:?}");
        assert_eq!(names[..3], ["clock", "reset", "iretire"], "{}", g.top);
        assert_eq!(names.last(), Some(&"trace_lost"), "{}", g.top);
        yosys_check_top(&g.top, &g.verilog).unwrap_or_else(|e| panic!("{e}"));
        lint_top(&g.top, &g.verilog).unwrap_or_else(|e| panic!("{e}"));
    }
}
