//! The verilated `rv32_smi` build's byte stream (UltraSoC messages with no index and no
//! timestamp: the reference flow's `te_inst_raw` format, `payload.adoc` "Two example
//! transport schemes") equals the golden model's `etrace encode --framing smi` stream
//! (`Encoder::encode_all` framed by `SmiWriter`) on every rv32 program, under several
//! run-time option sets.

mod common;

use common::{assert_same_bytes, model_stream, option_sets, programs, records, rtl_bytes};
use etrace_spec::framing::smi::{SmiConfig, SmiDeframer, SmiItem, SMI_FLOW_INSTRUCTION};
use etrace_spec::ingress::ItypeWidth;
use etrace_tb::cosim::CosimConfig;
use etrace_tb::{Inputs, Rtl, Variant};

#[test]
fn rv32_smi_stream_equals_the_models_te_inst_raw_on_every_program() {
    let variant = Variant::Rv32Smi;
    let params = variant.config().params();
    let output = CosimConfig::new(variant).output();
    let sets = option_sets();
    let mut rtl = Rtl::new(variant);
    let (mut n_records, mut n_messages) = (0, 0);
    for (k, name) in programs("rv32").iter().enumerate() {
        let recs = records(name, ItypeWidth::W4);
        let options = sets[k % sets.len()];
        let (want, spans) = model_stream(&params, options, &recs, &output);
        let got = rtl_bytes(&mut rtl, &recs, &options, Inputs::default());
        assert_same_bytes(&format!("{variant} {name} {options:?}"), &got, &want);
        // `te_inst_raw`: every message is the header 0x40 | length and the payload.
        let items = SmiDeframer::new(&got, SmiConfig::default()).collect::<Vec<_>>();
        assert_eq!(items.len(), spans.len(), "{name}");
        for (item, (span, _)) in items.iter().zip(&spans) {
            let Ok(SmiItem::Packet(m)) = item else {
                panic!("{name}: {item:?}")
            };
            assert_eq!(
                (m.flow, m.index, m.timestamp),
                (SMI_FLOW_INSTRUCTION, 0, None)
            );
            assert_eq!(got[span.start], 0x40 | m.payload.len() as u8, "{name}");
        }
        n_records += recs.len();
        n_messages += spans.len();
    }
    assert!(n_records > 5000 && n_messages > 500, "{n_records} records");
}
