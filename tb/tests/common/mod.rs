//! Shared stimulus and reference helpers of the co-simulation tests: real programs run on
//! the hart model give the ingress records; the RTL sees one block every `gap + 1` cycles
//! ([`GAP`] = 40 unless a test needs more; so no packet is ever dropped and the output
//! never stalls), then trace is disabled.
//!
//! Cycle numbering: cycle 0 is the first cycle with the reset pin low (the encoder leaves
//! reset [`INPUT_STAGES`] cycles later, with its timestamp counter at 0; `hdl/DESIGN.md`
//! items 0 and 5). Block `i` is on the port in cycle `i * (gap + 1)`; trace_enable
//! is high in cycles `0 .. T` with `T = n * (gap + 1)`.

#![allow(dead_code)]

use etrace_decoder::pcs::push_record_steps;
use etrace_decoder::stream::PayloadEvent;
use etrace_decoder::{DecoderConfig, ProgramImage, TrapVectors};
use etrace_encoder::cycle::encoder::INPUT_STAGES;
use etrace_encoder::cycle::output_path::{OutputItem, OutputPath, OutputPathConfig};
use etrace_encoder::{Encoder, EncoderOptions};
use etrace_hart::{Hart, HartConfig};
use etrace_spec::framing::Outgoing;
use etrace_spec::ingress::random::{RandomStream, RandomStreamConfig};
use etrace_spec::ingress::{IngressRecord, ItypeWidth};
use etrace_spec::packet::{pack, TeInst};
use etrace_spec::params::Params;
use etrace_tb::cosim::stream_check::StreamCheck;
use etrace_tb::cosim::verify::{check_decoded, ExpectedExecution};
use etrace_tb::cosim::{run, CosimConfig, CosimStats, StallConfig};
use etrace_tb::Variant;
use etrace_tb::{Inputs, Outputs, Rtl};

/// Idle cycles after each block: enough for the serializer to drain two packets.
pub const GAP: u64 = 40;

/// Cycles run after trace_enable falls: the two final decisions and the drain.
pub const TAIL: u64 = 400;

/// Cycles of reset before cycle 0.
pub const RESET_CYCLES: u32 = 2;

/// Records taken from one program: whole programs except the two long ones (`recursion`,
/// `workload`: 0.17 and 1.6 M records), which are cut to keep each test under a minute
/// (about 1 M RTL cycles per second).
pub const MAX_RECORDS: usize = 100_000;

/// The ingress records of `programs/elf/<name>.elf` on the hart model (at most
/// [`MAX_RECORDS`]).
pub fn records(name: &str, itype_width: ItypeWidth) -> Vec<IngressRecord> {
    let config = HartConfig {
        itype_width,
        ..HartConfig::default()
    };
    etrace_programs::records(name, config, MAX_RECORDS).unwrap()
}

/// A whole run of `programs/elf/<name>.elf` on the hart model: its ingress records, and
/// what the decoded trace must reproduce (the program, the hart's steps, its trap
/// vectors).
pub fn program(name: &str, itype_width: ItypeWidth) -> (Vec<IngressRecord>, ExpectedExecution) {
    let bytes = etrace_programs::elf(name).unwrap();
    let config = HartConfig {
        itype_width,
        ..HartConfig::default()
    };
    let config = etrace_programs::hart_config(name, config).unwrap();
    let mut hart = Hart::from_elf(&bytes, config).unwrap();
    let mut records = Vec::new();
    let mut steps = Vec::new();
    hart.run(&mut |r: &IngressRecord, _: u32| {
        push_record_steps(&mut steps, r);
        records.push(*r);
    })
    .unwrap();
    let expected = ExpectedExecution {
        image: ProgramImage::from_elf(&bytes).unwrap(),
        steps,
        decoder: DecoderConfig {
            trap_vectors: Some(TrapVectors {
                mtvec: hart.read_csr(0x305).unwrap_or(0),
                stvec: hart.read_csr(0x105).unwrap_or(0),
            }),
            ..DecoderConfig::default()
        },
    };
    (records, expected)
}

/// The cycle in which block `i` is on the port, `gap` idle cycles after each block.
pub fn block_cycle(i: usize, gap: u64) -> u64 {
    i as u64 * (gap + 1)
}

/// The first cycle with trace_enable low, for `n` blocks.
pub fn disable_cycle(n: usize, gap: u64) -> u64 {
    block_cycle(n, gap)
}

/// Drives `rtl` (reset first) with `records` under `options`, `gap` idle cycles after each
/// block, ready always high, and calls `each(cycle, outputs)` for every cycle from 0 to
/// `disable_cycle + TAIL`. `base` gives the other inputs (srcID, ATID).
pub fn drive(
    rtl: &mut Rtl,
    records: &[IngressRecord],
    options: &EncoderOptions,
    gap: u64,
    base: Inputs,
    mut each: impl FnMut(u64, &Outputs),
) {
    rtl.reset(RESET_CYCLES);
    let mut inputs = base;
    inputs.set_options(options);
    inputs.ready = true;
    let disable = disable_cycle(records.len(), gap);
    let stride = gap + 1;
    for cycle in 0..disable + TAIL {
        let block = (cycle % stride == 0)
            .then(|| records.get((cycle / stride) as usize))
            .flatten();
        inputs.set_block(block);
        inputs.trace_enable = cycle < disable;
        let out = rtl.step(&inputs);
        each(cycle, &out);
    }
}

/// The bytes taken from a byte-stream variant over a whole run; asserts `trace_lost` never
/// rises.
pub fn rtl_bytes(
    rtl: &mut Rtl,
    records: &[IngressRecord],
    options: &EncoderOptions,
    base: Inputs,
) -> Vec<u8> {
    let mut bytes = Vec::new();
    drive(rtl, records, options, GAP, base, |cycle, out| {
        assert!(!out.trace_lost, "trace_lost in cycle {cycle}");
        if out.out_valid {
            bytes.push(out.out_data);
        }
    });
    bytes
}

/// One te_inst packet of the model with its payload and the cycle in which the hardware
/// produces it (`hdl/DESIGN.md` items 2 and 3).
#[derive(Debug, Clone)]
pub struct TimedPacket {
    /// The production (push) cycle.
    pub cycle: u64,
    /// The packet.
    pub packet: TeInst,
    /// `pack(packet)`.
    pub payload: Vec<u8>,
}

/// The model's packets for the schedule of [`drive`] with `gap`, each with its production
/// cycle. The encoder sees every pin [`INPUT_STAGES`] cycles late (item 0: cycles 0 and 1
/// after reset are still reset cycles inside), so with `L` = `INPUT_STAGES`: the enable
/// support packet in cycle `L` (item 3), the decision for block `i` `L + 1` cycles after
/// the block was on the pins (it is shifted in at the end of cycle `L` after, item 2), the
/// two finish decisions `L + 1` and `L + 2` cycles after trace_enable falls (item 3). Also
/// checks they are exactly `Encoder::encode_all`'s.
pub fn timed_packets(
    params: &Params,
    options: EncoderOptions,
    records: &[IngressRecord],
    gap: u64,
) -> Vec<TimedPacket> {
    let mut out = Vec::new();
    let mut add = |cycle: u64, enc: &mut Encoder| {
        for p in enc.take_packets() {
            let payload = pack(&p.packet, params).unwrap().bytes;
            out.push(TimedPacket {
                cycle,
                packet: p.packet,
                payload,
            });
        }
    };
    let mut enc = Encoder::new(params, options).unwrap();
    let late = INPUT_STAGES as u64;
    add(late, &mut enc);
    for (i, r) in records.iter().enumerate() {
        enc.push(r);
        add(block_cycle(i, gap) + late + 1, &mut enc);
    }
    let t = disable_cycle(records.len(), gap);
    assert!(enc.finish_step());
    add(t + late + 1, &mut enc);
    assert!(enc.finish_step());
    add(t + late + 2, &mut enc);
    let all = Encoder::encode_all(params, options, records).unwrap();
    assert_eq!(
        all.iter().map(|p| &p.packet).collect::<Vec<_>>(),
        out.iter().map(|p| &p.packet).collect::<Vec<_>>(),
        "stepwise packets equal encode_all's"
    );
    out
}

/// The model's encap stream as `etrace encode --framing encap` writes it: `encode_all`,
/// then `EncapWriter` (no srcID, no timestamp, a sync sequence every 4096 bytes). Also
/// returns, per packet, the byte range it occupies (its sync sequence included) and the
/// packet.
pub fn model_encap(
    params: &Params,
    options: EncoderOptions,
    records: &[IngressRecord],
) -> (Vec<u8>, Vec<(std::ops::Range<usize>, TeInst)>) {
    model_stream(params, options, records, &OutputPathConfig::default())
}

/// The model's stream as `etrace encode` writes it with the framing of `output` (its
/// framing, `srcID` / index; no timestamps: `etrace encode` has no cycles): `encode_all`,
/// then the registry's framer. Also returns, per packet, the byte range it occupies and
/// the packet.
pub fn model_stream(
    params: &Params,
    options: EncoderOptions,
    records: &[IngressRecord],
    output: &OutputPathConfig,
) -> (Vec<u8>, Vec<(std::ops::Range<usize>, TeInst)>) {
    assert!(!output.timestamp, "etrace encode stamps no cycles");
    let packets = Encoder::encode_all(params, options, records).unwrap();
    let mut framer = output
        .framing_config()
        .unwrap()
        .framer(&output.settings())
        .unwrap();
    let mut bytes = Vec::new();
    let mut spans = Vec::new();
    for p in packets {
        let start = bytes.len();
        let payload = pack(&p.packet, params).unwrap().bytes;
        let packet = Outgoing {
            payload: &payload,
            source: output.src_id,
            timestamp: None,
        };
        framer.write_packet(&packet, &mut bytes).unwrap();
        spans.push((start..bytes.len(), p.packet));
    }
    (bytes, spans)
}

/// The model's stream of `timed` framed as `output` frames it, each packet stamped with
/// the low 16 bits of its production cycle counted from the encoder's first cycle out of
/// reset, [`INPUT_STAGES`] after the reset pin's (`hdl/DESIGN.md` items 0 and 5).
pub fn model_timed_stream(timed: &[TimedPacket], output: &OutputPathConfig) -> Vec<u8> {
    let mut framer = output
        .framing_config()
        .unwrap()
        .framer(&output.settings())
        .unwrap();
    let late = INPUT_STAGES as u64;
    let mut bytes = Vec::new();
    for p in timed {
        let packet = Outgoing {
            payload: &p.payload,
            source: output.src_id,
            timestamp: output.timestamp.then_some((p.cycle - late) & 0xffff),
        };
        framer.write_packet(&packet, &mut bytes).unwrap();
    }
    bytes
}

/// Asserts two byte streams are equal, naming the first difference.
pub fn assert_same_bytes(what: &str, got: &[u8], want: &[u8]) {
    let first = got.iter().zip(want).position(|(a, b)| a != b);
    assert!(
        first.is_none() && got.len() == want.len(),
        "{what}: first difference at byte {first:?} (RTL {} bytes, model {} bytes)",
        got.len(),
        want.len()
    );
}

/// The run-time option sets the tests cycle through (`branchTrace.adoc`, "Optional and
/// run-time configurable modes").
pub fn option_sets() -> Vec<EncoderOptions> {
    let d = EncoderOptions::default();
    vec![
        d,
        EncoderOptions {
            full_address: true,
            ..d
        },
        EncoderOptions {
            implicit_exception: true,
            resync_max: 64,
            ..d
        },
        EncoderOptions {
            sijump: true,
            resync_max: 0,
            ..d
        },
    ]
}

/// The program names built for `arch` ("rv32" or "rv64"), sorted.
pub fn programs(arch: &str) -> Vec<String> {
    let dir = etrace_programs::elf_dir();
    let suffix = format!("-{arch}.elf");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().ok()?;
            name.strip_suffix(&suffix).map(|s| format!("{s}-{arch}"))
        })
        .collect();
    names.sort();
    names
}

/// The RTL's port in one cycle as the model's [`OutputItem`] (ATDATA above ATBYTES is
/// not compared: those bytes are not valid).
pub fn presented(out: &Outputs, atb: bool) -> Option<OutputItem> {
    if atb {
        out.atvalid.then(|| {
            let bits = (u32::from(out.atbytes) + 1) * 8;
            let mask = if bits >= 128 {
                u128::MAX
            } else {
                (1u128 << bits) - 1
            };
            OutputItem::Beat(etrace_spec::framing::atb::AtbBeat {
                atid: out.atid,
                atbytes: out.atbytes,
                atdata: out.atdata & mask,
            })
        })
    } else {
        out.out_valid.then_some(OutputItem::Byte {
            data: out.out_data,
            last: out.out_last,
        })
    }
}

/// Runs `rtl` on the schedule of [`drive`] and checks its port in every cycle against the
/// model's cycle-accurate output path (`etrace_encoder::cycle::output_path`, `hdl/DESIGN.md`
/// items 4-8) fed with the model's packets at their production cycles ([`timed_packets`]).
/// Returns the items the consumer took.
#[allow(clippy::too_many_arguments)]
pub fn check_cycle_exact(
    rtl: &mut Rtl,
    records: &[IngressRecord],
    options: &EncoderOptions,
    gap: u64,
    base: Inputs,
    timed: &[TimedPacket],
    config: OutputPathConfig,
    what: &str,
) -> Vec<OutputItem> {
    let atb = rtl.variant().is_atb();
    let mut path = OutputPath::new(config).unwrap();
    let mut next = 0;
    let mut taken = Vec::new();
    drive(rtl, records, options, gap, base, |cycle, out| {
        assert!(!out.trace_lost, "{what}: trace_lost in cycle {cycle}");
        assert_eq!(
            presented(out, atb),
            path.presented(),
            "{what}: output port in cycle {cycle}"
        );
        if cycle < INPUT_STAGES as u64 {
            // Still reset inside the encoder (item 0): its output path does not run.
            return;
        }
        let start = next;
        while next < timed.len() && timed[next].cycle == cycle {
            next += 1;
        }
        let pushes: Vec<&[u8]> = timed[start..next]
            .iter()
            .map(|p| p.payload.as_slice())
            .collect();
        if let Some(item) = path.cycle(&pushes, true).unwrap() {
            taken.push(item);
        }
    });
    assert_eq!(next, timed.len(), "{what}: every packet was pushed");
    assert!(path.is_idle(), "{what}: the output path drained");
    taken
}

/// Co-simulates the program `name` on `variant` with `options` under `stall` (`src_id`
/// on its source pin): port equal in every cycle, every block presented, the bytes decoded
/// and checked against the hart (the whole execution when nothing was dropped). Returns
/// the run's figures and the payloads of its stream.
pub fn cosim_program(
    name: &str,
    variant: Variant,
    options: EncoderOptions,
    stall: StallConfig,
    src_id: u16,
) -> (CosimStats, Vec<PayloadEvent>) {
    let (records, expected) = program(name, variant.config().itype());
    let mut config = CosimConfig::new(variant);
    config.options = options;
    config.stall = stall;
    config.src_id = src_id;
    let outcome = run(&config, records.iter().copied(), &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{name} on {variant}: {e}"));
    let s = outcome.stats;
    assert_eq!(s.blocks, records.len() as u64, "{name} on {variant}");
    let events = outcome.stream.payloads(&config.output());
    let summary = check_decoded(&variant.params(), &events, &expected)
        .unwrap_or_else(|e| panic!("{name} on {variant}: {e}"));
    // The streamed check, fed in pieces, agrees (trace losses under back-pressure included).
    let mut streamed = StreamCheck::new(
        &variant.params(),
        &expected.image,
        expected.decoder,
        expected.steps.iter().copied(),
    );
    for piece in events.chunks(7) {
        streamed.push(piece);
    }
    assert_eq!(
        streamed.finish().ok(),
        Some(summary),
        "{name} on {variant}: the streamed check"
    );
    if s.dropped == 0 {
        assert_eq!(
            summary.steps as usize,
            expected.steps.len(),
            "{name} on {variant}: the whole execution decoded"
        );
    } else {
        // Blocks in every cycle overflow the queue even without back-pressure; each run
        // between losses was checked against the hart above.
        assert!(summary.steps > 0, "{name} on {variant}: something decoded");
    }
    (s, events)
}

/// Every test program, without the `-rv32` / `-rv64` suffix.
pub const PROGRAMS: [&str; 9] = [
    "fnptr_switch",
    "loops",
    "minimal",
    "privilege",
    "recursion",
    "tailcall",
    "timer",
    "traps",
    "workload",
];

/// No idle cycles, the output always ready.
pub const NO_STALL: StallConfig = StallConfig {
    stall_probability: 0.0,
    idle_probability: 0.0,
    seed: 1,
};

/// Heavy back-pressure and idle cycles: packets are dropped.
pub const BACK_PRESSURE: StallConfig = StallConfig {
    stall_probability: 0.6,
    idle_probability: 0.3,
    seed: 7,
};

/// The set-up of a long random co-simulation on `variant` with `options`: half the cycles
/// stalled and a quarter idle, and the seeded random stream for its parameters with a
/// trap about every 3000 records.
pub fn random_cosim(
    variant: Variant,
    options: EncoderOptions,
    seed: u64,
) -> (CosimConfig, RandomStream) {
    let mut config = CosimConfig::new(variant);
    config.options = options;
    config.stall = StallConfig {
        stall_probability: 0.5,
        idle_probability: 0.25,
        seed,
    };
    let stream = RandomStream::new(
        RandomStreamConfig {
            trap_rate: 1.0 / 3000.0,
            ..RandomStreamConfig::for_params(&variant.params())
        },
        seed,
    );
    (config, stream)
}
