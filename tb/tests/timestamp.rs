//! The `rv32_ts` build (4-bit srcID, 2-byte timestamp, 16-byte FIFO): every packet carries
//! the 16-bit cycle counter of the cycle it was produced in (`hdl/DESIGN.md` items 2, 3
//! and 5) and the low 4 bits of `src_id` (`encapsulation.adoc`), and the port equals the
//! model's cycle-accurate output path in every cycle (items 4-8).

mod common;

use common::{assert_same_bytes, check_cycle_exact, option_sets, records, timed_packets};
use etrace_encoder::cycle::encoder::INPUT_STAGES;
use etrace_encoder::cycle::output_path::{OutputItem, OutputPathConfig, OutputPort};
use etrace_spec::framing::encap::{EncapConfig, EncapWriter};
use etrace_spec::ingress::ItypeWidth;
use etrace_tb::{Inputs, Rtl, Variant};

/// Idle cycles after each block: with timestamps and a 34-byte sync sequence every 4096
/// bytes, two packets and a sync sequence take up to ~70 cycles to serialize.
const GAP: u64 = 80;

/// The `src_id` input; only its low 4 bits are sent.
const SRC_ID_INPUT: u16 = 0xfff5;
const SRC_ID: u16 = 0x5;

#[test]
fn timestamp_is_the_cycle_counter_of_the_production_cycle() {
    let variant = Variant::Rv32Ts;
    let params = variant.config().params();
    let sets = option_sets();
    let mut rtl = Rtl::new(variant);
    let mut total_packets = 0;
    let mut wrapped = false;
    for (k, name) in ["traps-rv32", "timer-rv32", "workload-rv32"]
        .iter()
        .enumerate()
    {
        let recs = records(name, ItypeWidth::W4);
        let options = sets[k % sets.len()];
        let timed = timed_packets(&params, options, &recs, GAP);
        let late = INPUT_STAGES as u64;
        wrapped |= timed.last().unwrap().cycle - late > 0xffff;
        // The bytes the encoder must send: each packet framed with the low 16 bits of its
        // production cycle as timestamp, counted from the encoder's first cycle out of
        // reset, `INPUT_STAGES` after the reset pin's (`hdl/DESIGN.md` items 0 and 5).
        let encap = EncapConfig {
            src_bits: 4,
            timestamp_bytes: 2,
            ..EncapConfig::default()
        };
        let mut writer = EncapWriter::new(encap, 4096);
        for p in &timed {
            writer
                .write(&p.payload, SRC_ID, Some((p.cycle - late) & 0xffff))
                .unwrap();
        }
        let want = writer.into_bytes();
        let base = Inputs {
            src_id: SRC_ID_INPUT,
            ..Inputs::default()
        };
        let config = OutputPathConfig {
            src_bits: 4,
            src_id: SRC_ID,
            timestamp: true,
            sync_interval: 4096,
            fifo_depth: 16,
            port: OutputPort::ByteStream,
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
