//! The builds with timestamps, `rv32_ts` (encap, 4-bit srcID, 16-byte FIFO) and
//! `rv32_smi_ts` (UltraSoC messages, 8-bit index, 16-byte FIFO): every packet carries the
//! 16-bit cycle counter of the cycle it was produced in (`hdl/DESIGN.md` items 2, 3 and 5)
//! and the low `src_bits` bits of `src_id` (`encapsulation.adoc`; `payload.adoc`, "Two
//! example transport schemes"), and the port equals the model's cycle-accurate output path
//! in every cycle (items 4-8).

mod common;

use common::{
    assert_same_bytes, check_cycle_exact, model_timed_stream, option_sets, records, timed_packets,
};
use etrace_encoder::cycle::encoder::INPUT_STAGES;
use etrace_encoder::cycle::output_path::OutputItem;
use etrace_encoder::Encoder;
use etrace_spec::ingress::ItypeWidth;
use etrace_tb::cosim::CosimConfig;
use etrace_tb::{Inputs, Rtl, Variant};

/// Idle cycles after each block: with timestamps and a 34-byte sync sequence every 4096
/// bytes, two packets and a sync sequence take up to ~70 cycles to serialize.
const GAP: u64 = 80;

/// The `src_id` input; only its low `src_bits` bits are sent.
const SRC_ID_INPUT: u16 = 0xf0a5;

fn timestamp_is_the_cycle_counter_of_the_production_cycle(variant: Variant) {
    let params = variant.config().params();
    let sets = option_sets();
    let mut rtl = Rtl::new(variant);
    let mut cosim = CosimConfig::new(variant);
    cosim.src_id = SRC_ID_INPUT;
    let config = cosim.output();
    assert!(config.timestamp && config.src_bits > 0, "{variant}");
    let mut total_packets = 0;
    let mut wrapped = false;
    for (k, name) in ["traps-rv32", "timer-rv32", "workload-rv32"]
        .iter()
        .enumerate()
    {
        let recs = records(name, ItypeWidth::W4);
        let options = sets[k % sets.len()];
        let timed = timed_packets(&params, options, &recs, GAP);
        wrapped |= timed.last().unwrap().cycle - INPUT_STAGES as u64 > 0xffff;
        let want = model_timed_stream(&timed, &config);
        let base = Inputs {
            src_id: SRC_ID_INPUT,
            ..Inputs::default()
        };
        let what = format!("{variant} {name} {options:?}");
        let taken = check_cycle_exact(&mut rtl, &recs, &options, GAP, base, &timed, config, &what);
        let got: Vec<u8> = taken
            .iter()
            .map(|item| match item {
                OutputItem::Byte { data, .. } => *data,
                OutputItem::Beat(_) => unreachable!("byte stream"),
            })
            .collect();
        assert_same_bytes(&what, &got, &want);
        total_packets += timed.len();
    }
    assert!(total_packets > 1000, "{total_packets} packets");
    assert!(wrapped, "the 16-bit counter wrapped at least once");
}

#[test]
fn encap_timestamp_is_the_cycle_counter_of_the_production_cycle() {
    timestamp_is_the_cycle_counter_of_the_production_cycle(Variant::Rv32Ts);
}

#[test]
fn smi_timestamp_is_the_cycle_counter_of_the_production_cycle() {
    timestamp_is_the_cycle_counter_of_the_production_cycle(Variant::Rv32SmiTs);
}

/// `etrace encode` has no cycles and stamps a packet with its encoder clock
/// (`EncodedPacket::clock`): the hardware's timestamp of the packet when the ingress
/// presents one record per cycle and nothing stalls (the production cycles of
/// `timed_packets` with no idle cycles, which the RTL tests above check).
#[test]
fn encode_stamps_are_the_production_cycles_of_one_record_per_cycle() {
    let params = Variant::Rv32.config().params();
    for (k, name) in ["traps-rv32", "timer-rv32", "loops-rv32"]
        .iter()
        .enumerate()
    {
        let recs = records(name, ItypeWidth::W4);
        let options = option_sets()[k];
        let clocks: Vec<u64> = Encoder::encode_all(&params, options, &recs)
            .unwrap()
            .iter()
            .map(|p| p.clock)
            .collect();
        let cycles: Vec<u64> = timed_packets(&params, options, &recs, 0)
            .iter()
            .map(|p| p.cycle - INPUT_STAGES as u64)
            .collect();
        assert_eq!(clocks, cycles, "{name}");
        assert_eq!(clocks.last(), Some(&(recs.len() as u64 + 2)), "{name}");
    }
}
