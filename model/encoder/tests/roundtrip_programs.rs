//! Every program of `programs/manifest.toml`, both targets: hart model -> encoder
//! (`exampleAlgorithm.adoc`) -> pack (`payload.adoc`) -> frame -> deframe -> unpack, for
//! the three framings (`e-trace-encap/encapsulation.adoc`, the Siemens messaging of the
//! reference flow, ATB of `fragmentCodeAndTransport.adoc`) and several run-time option
//! sets: the deframed packets must be the encoder's, at the byte offsets they were
//! framed at.

use std::path::PathBuf;

use etrace_encoder::{EncodedPacket, Encoder, EncoderOptions};
use etrace_hart::{Hart, HartConfig};
use etrace_spec::framing::atb::{deframe_atb, AtbConfig};
use etrace_spec::framing::encap::{EncapConfig, EncapDeframer, EncapItem};
use etrace_spec::framing::smi::{SmiConfig, SmiDeframer, SmiItem};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::{pack, unpack_with, IOptions, TeInst};
use etrace_spec::params::Params;

fn programs_dir() -> PathBuf {
    etrace_programs::dir()
}

/// Names of the manifest's programs.
fn program_names() -> Vec<String> {
    etrace_programs::manifest_names(&programs_dir()).unwrap()
}

fn records(name: &str, target: &str) -> Vec<IngressRecord> {
    let path = programs_dir().join(format!("elf/{name}-{target}.elf"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let config = etrace_programs::hart_config(&format!("{name}-{target}"), HartConfig::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut hart =
        Hart::from_elf(&bytes, config).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut recs = Vec::new();
    hart.run(&mut recs)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    recs
}

/// The run-time option sets (`branchTrace.adoc`, optional modes), by name.
fn option_sets() -> Vec<(&'static str, EncoderOptions)> {
    let base = EncoderOptions::default();
    vec![
        ("differential, resync 256", base),
        (
            "differential, resync off",
            EncoderOptions {
                resync_max: 0,
                ..base
            },
        ),
        (
            "full address, resync 256",
            EncoderOptions {
                full_address: true,
                ..base
            },
        ),
        (
            "full address, resync off",
            EncoderOptions {
                full_address: true,
                resync_max: 0,
                ..base
            },
        ),
        (
            "sijump, implicit exception",
            EncoderOptions {
                sijump: true,
                implicit_exception: true,
                ..base
            },
        ),
    ]
}

/// Unpacks deframed payloads with the `ioptions` of the latest support packet.
struct Unpacker<'a> {
    params: &'a Params,
    ioptions: IOptions,
}

impl Unpacker<'_> {
    fn unpack(&mut self, payload: &[u8], what: &str) -> TeInst {
        let inst = unpack_with(payload, self.params, &self.ioptions)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        if let TeInst::Support(s) = &inst {
            self.ioptions = s.ioptions;
        }
        inst
    }
}

/// Frames every payload as encap (sync sequence first, srcID 3 of 4 bits, timestamps of 2
/// bytes on every other packet), deframes and unpacks.
fn encap_round_trip(params: &Params, packets: &[EncodedPacket], payloads: &[Vec<u8>], what: &str) {
    let cfg = EncapConfig {
        src_bits: 4,
        timestamp_bytes: 2,
        ..EncapConfig::default()
    };
    let mut stream = cfg.sync_sequence();
    let mut offsets = Vec::new();
    for (i, payload) in payloads.iter().enumerate() {
        offsets.push(stream.len());
        let ts = (i % 2 == 0).then_some(i as u64 & 0xffff);
        stream.extend(cfg.frame(payload, 3, ts).expect("encap frame"));
    }
    let mut unpacker = Unpacker {
        params,
        ioptions: IOptions::default(),
    };
    let mut got = Vec::new();
    for item in EncapDeframer::new(&stream, cfg) {
        match item.unwrap_or_else(|e| panic!("{what}: encap: {e}")) {
            EncapItem::Packet(p) => {
                let i = got.len();
                assert_eq!(p.offset, offsets[i], "{what}: encap packet #{i} offset");
                assert_eq!(p.src_id, 3, "{what}: encap packet #{i} srcID");
                assert_eq!(p.timestamp, (i % 2 == 0).then_some(i as u64 & 0xffff));
                got.push(unpacker.unpack(&p.payload, &format!("{what}: encap packet #{i}")));
            }
            EncapItem::NullIdle { .. } | EncapItem::NullAlignment { .. } => {}
            other => panic!("{what}: encap: unexpected {other:?}"),
        }
    }
    assert_packets(packets, &got, &format!("{what}: encap"));
}

/// Frames every payload as Siemens messages (index 5 of 3 bits, timestamps), deframes
/// and unpacks.
fn smi_round_trip(params: &Params, packets: &[EncodedPacket], payloads: &[Vec<u8>], what: &str) {
    let cfg = SmiConfig { index_bits: 3 };
    let mut stream = Vec::new();
    let mut offsets = Vec::new();
    for (i, payload) in payloads.iter().enumerate() {
        offsets.push(stream.len());
        stream.extend(cfg.frame(payload, 5, Some(i as u16)).expect("smi frame"));
    }
    let mut unpacker = Unpacker {
        params,
        ioptions: IOptions::default(),
    };
    let mut got = Vec::new();
    for item in SmiDeframer::new(&stream, cfg) {
        match item.unwrap_or_else(|e| panic!("{what}: smi: {e}")) {
            SmiItem::Packet(p) => {
                let i = got.len();
                assert_eq!(p.offset, offsets[i], "{what}: smi packet #{i} offset");
                assert_eq!((p.index, p.timestamp), (5, Some(i as u16)));
                assert_eq!(p.payload, payloads[i], "{what}: smi packet #{i} payload");
                got.push(unpacker.unpack(&p.payload, &format!("{what}: smi packet #{i}")));
            }
            other => panic!("{what}: smi: unexpected {other:?}"),
        }
    }
    assert_packets(packets, &got, &format!("{what}: smi"));
}

/// Frames every payload in 32-bit ATB beats on ATID 0x12, deframes and unpacks.
fn atb_round_trip(params: &Params, packets: &[EncodedPacket], payloads: &[Vec<u8>], what: &str) {
    let cfg = AtbConfig::default();
    let mut beats = Vec::new();
    let mut first_beats = Vec::new();
    let mut offsets = Vec::new();
    let mut offset = 0;
    for payload in payloads {
        let packet = cfg.encap.frame(payload, 0, None).expect("encap frame");
        first_beats.push(beats.len());
        offsets.push(offset);
        offset += packet.len();
        beats.extend(cfg.beats(&packet, 0x12).expect("atb beats"));
    }
    let mut unpacker = Unpacker {
        params,
        ioptions: IOptions::default(),
    };
    let mut got = Vec::new();
    for item in deframe_atb(&beats, &cfg) {
        assert_eq!(item.atid, 0x12);
        match item.item.unwrap_or_else(|e| panic!("{what}: atb: {e}")) {
            EncapItem::Packet(p) => {
                let i = got.len();
                assert_eq!(p.offset, offsets[i], "{what}: atb packet #{i} offset");
                assert_eq!(item.beat, first_beats[i], "{what}: atb packet #{i} beat");
                got.push(unpacker.unpack(&p.payload, &format!("{what}: atb packet #{i}")));
            }
            other => panic!("{what}: atb: unexpected {other:?}"),
        }
    }
    assert_packets(packets, &got, &format!("{what}: atb"));
}

fn assert_packets(sent: &[EncodedPacket], got: &[TeInst], what: &str) {
    assert_eq!(got.len(), sent.len(), "{what}: packet count");
    for (i, (s, g)) in sent.iter().zip(got).enumerate() {
        assert_eq!(
            &s.packet, g,
            "{what}: packet #{i} (record {})",
            s.record_index
        );
    }
}

#[test]
fn manifest_programs_round_trip_through_every_framing() {
    let names = program_names();
    assert!(names.len() >= 9, "manifest lists {} programs", names.len());
    let mut runs = 0;
    for name in &names {
        for (target, base) in [("rv32", Params::rv32()), ("rv64", Params::rv64())] {
            let recs = records(name, target);
            for (set_name, options) in &option_sets() {
                let mut params = base.clone();
                if options.sijump {
                    params.sijump_p = 1;
                }
                let what = format!("{name}-{target}, {set_name}");
                let packets = Encoder::encode_all(&params, *options, &recs)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(packets.len() >= 3, "{what}: {} packets", packets.len());
                let payloads: Vec<Vec<u8>> = packets
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        pack(&p.packet, &params)
                            .unwrap_or_else(|e| panic!("{what}: pack #{i}: {e}"))
                            .bytes
                    })
                    .collect();
                encap_round_trip(&params, &packets, &payloads, &what);
                smi_round_trip(&params, &packets, &payloads, &what);
                atb_round_trip(&params, &packets, &payloads, &what);
                runs += 1;
            }
        }
    }
    assert_eq!(runs, names.len() * 2 * 5);
}
