//! The verilated encoder's byte stream (`hdl/DESIGN.md`, "Data path") equals the golden
//! model's `etrace encode --framing encap` stream (`Encoder::encode_all` framed by
//! `EncapWriter`, `encapsulation.adoc`) on whole programs, for the byte-stream variants
//! of every configuration, under several run-time option sets.

mod common;

use common::{assert_same_bytes, model_encap, option_sets, programs, records, rtl_bytes};
use etrace_spec::ingress::ItypeWidth;
use etrace_tb::{Inputs, Rtl, Variant};

/// Runs every program of `arch` through `variant`; program `k` uses option set `k % 4`.
/// Returns the number of records and of bytes compared.
fn every_program(variant: Variant, arch: &str, width: ItypeWidth) -> (usize, usize) {
    let params = variant.config().params();
    let sets = option_sets();
    let mut rtl = Rtl::new(variant);
    let (mut n_records, mut n_bytes) = (0, 0);
    for (k, name) in programs(arch).iter().enumerate() {
        let recs = records(name, width);
        let options = sets[k % sets.len()];
        let (want, _) = model_encap(&params, options, &recs);
        let got = rtl_bytes(&mut rtl, &recs, &options, Inputs::default());
        assert_same_bytes(&format!("{variant} {name} {options:?}"), &got, &want);
        n_records += recs.len();
        n_bytes += want.len();
    }
    assert!(n_records > 5000, "{variant}: {n_records} records");
    (n_records, n_bytes)
}

#[test]
fn rv32_encap_stream_equals_the_models_on_every_program() {
    every_program(Variant::Rv32, "rv32", ItypeWidth::W4);
}

#[test]
fn rv64_encap_stream_equals_the_models_on_every_program() {
    every_program(Variant::Rv64, "rv64", ItypeWidth::W4);
}

#[test]
fn rv32_itype3_encap_stream_equals_the_models_on_every_program() {
    every_program(Variant::Rv32Itype3, "rv32", ItypeWidth::W3);
}

#[test]
fn rv64_itype3_encap_stream_equals_the_models_on_every_program() {
    every_program(Variant::Rv64Itype3, "rv64", ItypeWidth::W3);
}

/// Every option set on one program with traps and interrupts.
#[test]
fn rv32_encap_stream_equals_the_models_under_every_option_set() {
    let params = Variant::Rv32.config().params();
    let recs = records("timer-rv32", ItypeWidth::W4);
    let mut rtl = Rtl::new(Variant::Rv32);
    for options in option_sets() {
        let (want, _) = model_encap(&params, options, &recs);
        let got = rtl_bytes(&mut rtl, &recs, &options, Inputs::default());
        assert_same_bytes(&format!("timer-rv32 {options:?}"), &got, &want);
    }
}
