//! The ATB builds (`hdl/DESIGN.md` item 8): the beats equal the model's ATB framing of the
//! same packets (`fragmentCodeAndTransport.adoc`, "ATB transport": each packet starts a
//! new beat, ATBYTES + 1 valid bytes, byte 0 in ATDATA[7:0]; `model/spec/src/framing/atb.rs`),
//! and the port equals the model's cycle-accurate output path in every cycle.

mod common;

use common::{check_cycle_exact, option_sets, programs, records, timed_packets, GAP};
use etrace_encoder::cycle::output_path::{OutputItem, OutputPathConfig, OutputPort};
use etrace_spec::framing::atb::{AtbBeat, AtbConfig};
use etrace_spec::framing::FramingKind;
use etrace_spec::ingress::ItypeWidth;
use etrace_tb::{Inputs, Rtl, Variant};

const ATID: u8 = 0x15;

/// Runs every program of `arch` through `variant` (ATDATA of `data_bytes`); returns the
/// number of beats compared.
fn every_program(variant: Variant, arch: &str, data_bytes: u8) -> usize {
    let params = variant.config().params();
    let sets = option_sets();
    let atb = AtbConfig {
        data_bytes,
        ..AtbConfig::default()
    };
    let mut rtl = Rtl::new(variant);
    let mut beats = 0;
    for (k, name) in programs(arch).iter().enumerate() {
        let recs = records(name, ItypeWidth::W4);
        let options = sets[k % sets.len()];
        let timed = timed_packets(&params, options, &recs, GAP);
        let want: Vec<AtbBeat> = timed
            .iter()
            .flat_map(|p| atb.frame(&p.payload, ATID, None).unwrap())
            .collect();
        let base = Inputs {
            source_atid: ATID,
            ..Inputs::default()
        };
        let config = OutputPathConfig {
            framing: FramingKind::Encap,
            src_bits: 0,
            src_id: 0,
            timestamp: false,
            sync_interval: 0,
            fifo_depth: 64,
            port: OutputPort::Atb {
                data_bytes,
                atid: ATID,
            },
        };
        let what = format!("{variant} {name} {options:?}");
        let taken = check_cycle_exact(&mut rtl, &recs, &options, GAP, base, &timed, config, &what);
        let got: Vec<AtbBeat> = taken
            .iter()
            .map(|item| match item {
                OutputItem::Beat(b) => *b,
                OutputItem::Byte { .. } => unreachable!("ATB port"),
            })
            .collect();
        let first = got.iter().zip(&want).position(|(a, b)| a != b);
        assert!(
            first.is_none() && got.len() == want.len(),
            "{what}: first differing beat {first:?} (RTL {} beats, model {})",
            got.len(),
            want.len()
        );
        beats += want.len();
    }
    beats
}

#[test]
fn rv32_atb_beats_equal_the_models_atb_framing() {
    let beats = every_program(Variant::Rv32Atb, "rv32", 4);
    assert!(beats > 5000, "{beats} beats");
}

#[test]
fn rv64_atb16_beats_equal_the_models_atb_framing() {
    let beats = every_program(Variant::Rv64Atb16, "rv64", 16);
    assert!(beats > 2000, "{beats} beats");
}
