//! The deliberately faulty build (`TopOptions::inject_fault`: bit 0 of every packed branch
//! map flipped) differs from the model, and the first difference lies inside a packet that
//! carries a branch map (format 1, `payload.adoc` `sec:format1`): the comparison of the
//! other tests does catch a wrong RTL.

mod common;

use common::{assert_same_bytes, model_encap, records, rtl_bytes};
use etrace_encoder::EncoderOptions;
use etrace_spec::ingress::ItypeWidth;
use etrace_spec::packet::TeInst;
use etrace_tb::{Inputs, Rtl, Variant};

#[test]
fn injected_branch_map_fault_is_caught_in_a_branch_map_packet() {
    let params = Variant::Rv32.config().params();
    let options = EncoderOptions::default();
    let recs = records("loops-rv32", ItypeWidth::W4);
    let (want, spans) = model_encap(&params, options, &recs);

    // The good build matches on this program ...
    let good = rtl_bytes(
        &mut Rtl::new(Variant::Rv32),
        &recs,
        &options,
        Inputs::default(),
    );
    assert_same_bytes("rv32 loops-rv32", &good, &want);

    // ... the faulty one does not, first inside a format 1 packet.
    let bad = rtl_bytes(
        &mut Rtl::new(Variant::Rv32Fault),
        &recs,
        &options,
        Inputs::default(),
    );
    assert_ne!(bad, want, "the fault changes the stream");
    let first = bad
        .iter()
        .zip(&want)
        .position(|(a, b)| a != b)
        .unwrap_or(bad.len().min(want.len()));
    let (span, packet) = spans
        .iter()
        .find(|(span, _)| span.contains(&first))
        .expect("the first difference lies inside a model packet");
    assert!(
        matches!(packet, TeInst::Branch(_)),
        "first difference at byte {first} lies in packet {span:?}: {packet:?}"
    );
    // Every packet before it was sent unchanged.
    assert_eq!(bad[..span.start], want[..span.start]);
}
