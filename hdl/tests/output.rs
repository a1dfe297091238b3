//! Simulation tests of the output path (`hdl/DESIGN.md` items 4-8) against the model's
//! cycle-accurate `etrace_encoder::cycle::output_path::OutputPath` and its framers
//! (`framing::encap`, `framing::smi`, `framing::atb`): random pushes within `free`, random `out_ready` /
//! ATREADY, fixed seeds; `free`, the presented byte / beat and the taken sequence are
//! compared in every cycle.

use std::collections::VecDeque;

use etrace_encoder::cycle::output_path::{
    OutputItem, OutputPath as ModelPath, OutputPathConfig, OutputPort,
};
use etrace_hdl::output::{
    AtbOutputPath, ByteFifo, FrameFormat, FramerConfig, OutputPath, PacketQueue, Pushes, Timestamp,
};
use etrace_spec::framing::atb::{AtbBeat, AtbConfig};
use etrace_spec::framing::encap::EncapConfig;
use etrace_spec::framing::smi::SmiConfig;
use etrace_spec::framing::{FramingKind, Outgoing};
use etrace_spec::ingress::random::Rng;
use etrace_spec::packet::sign_compress;
use rust_hdl::prelude::*;

/// A sign-compressed payload of 1..=`max` bytes (as `packet::pack` gives them).
fn payload(rng: &mut Rng, max: u64) -> Vec<u8> {
    let len = 1 + rng.below(max) as usize;
    let mut bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    if rng.below(3) == 0 {
        let fill = if rng.below(2) == 0 { 0x00 } else { 0xff };
        let keep = 1 + rng.below(len as u64) as usize;
        for b in bytes.iter_mut().skip(keep) {
            *b = fill;
        }
    }
    sign_compress(&mut bytes);
    bytes
}

/// The payload sign-extended to P bits, as the packer gives it.
fn to_bits<const P: usize>(bytes: &[u8]) -> Bits<P> {
    let sign = bytes[bytes.len() - 1] >> 7 == 1;
    let mut v = Bits::<P>::default();
    for i in 0..P {
        let bit = if i < 8 * bytes.len() {
            (bytes[i / 8] >> (i % 8)) & 1 == 1
        } else {
            sign
        };
        if bit {
            v = v.replace_bit(i, true);
        }
    }
    v
}

/// Pushed payloads with the timestamp (production cycle) of each.
type Sent = Vec<(Vec<u8>, u16)>;

/// A block with a clock and a synchronous reset, in rust-hdl's simulator.
trait Clocked: Block {
    fn clock(&mut self) -> &mut Signal<In, Clock>;
    fn reset(&mut self) -> &mut Signal<In, Bit>;
}

impl Clocked for Timestamp {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn reset(&mut self) -> &mut Signal<In, Bit> {
        &mut self.reset
    }
}

impl<const N: usize> Clocked for ByteFifo<N> {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn reset(&mut self) -> &mut Signal<In, Bit> {
        &mut self.reset
    }
}

impl<const P: usize> Clocked for PacketQueue<P> {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn reset(&mut self) -> &mut Signal<In, Bit> {
        &mut self.pushes.reset
    }
}

impl<const P: usize, const N: usize> Clocked for OutputPath<P, N> {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn reset(&mut self) -> &mut Signal<In, Bit> {
        &mut self.pushes.reset
    }
}

impl<const P: usize, const N: usize, const DW: usize, const BW: usize> Clocked
    for AtbOutputPath<P, N, DW, BW>
{
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn reset(&mut self) -> &mut Signal<In, Bit> {
        &mut self.pushes.reset
    }
}

fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, 500), "the circuit does not settle");
}

/// One rising and one falling clock edge.
fn tick<B: Clocked>(uut: &mut B) {
    uut.clock().next = Clock { clk: true };
    settle(uut);
    uut.clock().next = Clock { clk: false };
    settle(uut);
}

/// Connects `uut` and runs one cycle of reset.
fn reset<B: Clocked>(uut: &mut B) {
    uut.connect_all();
    check_all(uut).unwrap();
    uut.reset().next = true;
    settle(uut);
    tick(uut);
    uut.reset().next = false;
    settle(uut);
}

/// An output path under test: its pushes, and its port as the model's items.
trait PathUnderTest<const P: usize>: Clocked {
    fn pushes(&mut self) -> &mut Pushes<P>;
    fn set_ready(&mut self, ready: bool);
    fn presented(&self) -> Option<OutputItem>;
}

impl<const P: usize, const N: usize> PathUnderTest<P> for OutputPath<P, N> {
    fn pushes(&mut self) -> &mut Pushes<P> {
        &mut self.pushes
    }
    fn set_ready(&mut self, ready: bool) {
        self.pins.out_ready.next = ready;
    }
    fn presented(&self) -> Option<OutputItem> {
        self.pins.out_valid.val().then(|| OutputItem::Byte {
            data: self.pins.out_data.val().to_u8(),
            last: self.pins.out_last.val(),
        })
    }
}

impl<const P: usize, const N: usize, const DW: usize, const BW: usize> PathUnderTest<P>
    for AtbOutputPath<P, N, DW, BW>
{
    fn pushes(&mut self) -> &mut Pushes<P> {
        &mut self.pushes
    }
    fn set_ready(&mut self, ready: bool) {
        self.pins.atready.next = ready;
    }
    fn presented(&self) -> Option<OutputItem> {
        self.pins.atvalid.val().then(|| {
            let data = (0..DW)
                .filter(|&i| self.pins.atdata.val().get_bit(i))
                .fold(0u128, |d, i| d | 1 << i);
            OutputItem::Beat(AtbBeat {
                atid: self.pins.atid.val().to_u8(),
                atbytes: self.pins.atbytes.val().to_u8(),
                atdata: data,
            })
        })
    }
}

/// Random pushes for this cycle (at most `free`, until `left` packets are pushed).
fn pushes(rng: &mut Rng, free: usize, left: &mut usize, max_bytes: u64) -> Vec<Vec<u8>> {
    let n = (rng.below(3) as usize).min(free).min(*left);
    *left -= n;
    (0..n).map(|_| payload(rng, max_bytes)).collect()
}

/// Drives `uut` (reset first) and `model` with the same random pushes and ready
/// (`ready_percent` %); checks `free` and the presented item in every cycle; returns the
/// items taken and the pushed payloads with their push cycles.
fn run_path<const P: usize, U: PathUnderTest<P>>(
    mut uut: U,
    mut model: ModelPath,
    seed: u64,
    packets: usize,
    ready_percent: u64,
) -> (Vec<OutputItem>, Sent) {
    reset(&mut uut);
    let mut rng = Rng::new(seed);
    let mut left = packets;
    let mut taken = Vec::new();
    let mut sent = Vec::new();
    let mut cycle = 0u64;
    let mut staged: Vec<Vec<u8>> = Vec::new();
    while left > 0 || !model.is_idle() {
        let free = model.free();
        let push = pushes(&mut rng, free, &mut left, P as u64 / 8);
        let ready = rng.below(100) < ready_percent;
        // The packet logic's packet register: the packets produced in the previous cycle.
        let port = uut.pushes();
        port.push_count.next = (staged.len() as u64).into();
        port.entry0_payload.next = staged.first().map_or(Bits::default(), |p| to_bits::<P>(p));
        port.entry1_payload.next = staged.get(1).map_or(Bits::default(), |p| to_bits::<P>(p));
        uut.set_ready(ready);
        settle(&mut uut);
        assert_eq!(uut.pushes().free.val().index(), free, "free, cycle {cycle}");
        assert_eq!(
            uut.presented(),
            model.presented(),
            "presented, cycle {cycle}"
        );
        for p in &push {
            sent.push((p.clone(), model.timestamp()));
        }
        let refs: Vec<&[u8]> = push.iter().map(|p| p.as_slice()).collect();
        if let Some(item) = model.cycle(&refs, ready).unwrap() {
            taken.push(item);
        }
        tick(&mut uut);
        staged = push;
        cycle += 1;
        assert!(cycle < 200 * packets as u64 + 2000, "no progress");
    }
    (taken, sent)
}

/// Runs `OutputPath<P, N>` against the model's byte stream; returns the taken (byte,
/// last) sequence and the pushed payloads with their push cycles.
fn run_byte_stream<const P: usize, const N: usize>(
    config: FramerConfig,
    src_id: u16,
    seed: u64,
    packets: usize,
    ready_percent: u64,
) -> (Vec<(u8, bool)>, Sent) {
    let model_cfg = model_config(config, src_id, 1 << N);
    let mut uut = OutputPath::<P, N>::new(config);
    uut.source_id.next = u64::from(src_id).into();
    let model = ModelPath::new(model_cfg).unwrap();
    let (taken, sent) = run_path(uut, model, seed, packets, ready_percent);
    let bytes = taken
        .into_iter()
        .map(|item| match item {
            OutputItem::Byte { data, last } => (data, last),
            other => panic!("a byte stream took {other:?}"),
        })
        .collect();
    (bytes, sent)
}

/// The model's output path of the framer settings `config`, the byte stream.
fn model_config(config: FramerConfig, src_id: u16, fifo_depth: usize) -> OutputPathConfig {
    OutputPathConfig {
        framing: match config.format {
            FrameFormat::Encap => FramingKind::Encap,
            FrameFormat::Smi => FramingKind::Smi,
        },
        src_bits: config.src_bits,
        src_id,
        timestamp: config.timestamp,
        sync_interval: usize::from(config.sync_interval),
        fifo_depth,
        port: OutputPort::ByteStream,
    }
}

/// The stream the model's framer of `config` (the registry's `EncapWriter` or
/// `SmiWriter`) writes for `sent` (and each byte's `last`).
fn framed_stream(config: FramerConfig, src_id: u16, sent: &[(Vec<u8>, u16)]) -> Vec<(u8, bool)> {
    let model = model_config(config, src_id, 1);
    let mut w = model
        .framing_config()
        .unwrap()
        .framer(&model.settings())
        .unwrap();
    let mut out = Vec::new();
    for (p, ts) in sent {
        let packet = Outgoing {
            payload: p,
            source: src_id,
            timestamp: config.timestamp.then_some(u64::from(*ts)),
        };
        let mut new = Vec::new();
        w.write_packet(&packet, &mut new).unwrap();
        for (i, &b) in new.iter().enumerate() {
            out.push((b, i + 1 == new.len()));
        }
    }
    out
}

fn check_byte_stream<const P: usize, const N: usize>(
    config: FramerConfig,
    src_id: u16,
    seed: u64,
    packets: usize,
    ready_percent: u64,
) {
    let (taken, sent) = run_byte_stream::<P, N>(config, src_id, seed, packets, ready_percent);
    assert_eq!(sent.len(), packets);
    assert_eq!(taken, framed_stream(config, src_id, &sent), "{config:?}");
}

#[test]
fn item4_to_item7_byte_stream_matches_model_p80_default_framing() {
    check_byte_stream::<80, 6>(FramerConfig::default(), 0, 1, 120, 70);
}

#[test]
fn item4_to_item7_byte_stream_matches_model_p80_srcid8_timestamp_short_sync() {
    let cfg = FramerConfig {
        format: FrameFormat::Encap,
        src_bits: 8,
        timestamp: true,
        sync_interval: 64,
    };
    check_byte_stream::<80, 3>(cfg, 0xa5, 2, 120, 60);
}

#[test]
fn item4_to_item7_byte_stream_matches_model_p80_srcid12() {
    let cfg = FramerConfig {
        format: FrameFormat::Encap,
        src_bits: 12,
        timestamp: false,
        sync_interval: 100,
    };
    check_byte_stream::<80, 2>(cfg, 0xabc, 3, 120, 50);
}

#[test]
fn item4_to_item7_byte_stream_matches_model_p80_srcid3_timestamp_no_sync() {
    let cfg = FramerConfig {
        format: FrameFormat::Encap,
        src_bits: 3,
        timestamp: true,
        sync_interval: 0,
    };
    check_byte_stream::<80, 4>(cfg, 5, 4, 120, 90);
}

#[test]
fn item4_to_item7_byte_stream_matches_model_p144() {
    let cfg = FramerConfig {
        format: FrameFormat::Encap,
        src_bits: 12,
        timestamp: true,
        sync_interval: 80,
    };
    check_byte_stream::<144, 6>(cfg, 0x7e5, 5, 40, 80);
}

/// `_section_packet_length` / srcID alignment: every packet framed alone (no sync) equals
/// `EncapConfig::frame`, for srcID widths 0, 8, 12 (and 16, 5), timestamp on and off.
#[test]
fn encapsulation_packets_equal_model_frame() {
    let mut seed = 100;
    for (src_bits, src_id) in [(0u8, 0u16), (8, 0x3c), (12, 0xfed), (16, 0x1234), (5, 0x15)] {
        for timestamp in [false, true] {
            seed += 1;
            let cfg = FramerConfig {
                format: FrameFormat::Encap,
                src_bits,
                timestamp,
                sync_interval: 0,
            };
            let (taken, sent) = run_byte_stream::<80, 6>(cfg, src_id, seed, 60, 100);
            let encap = EncapConfig {
                src_bits,
                timestamp_bytes: cfg.timestamp_bytes(),
                ..EncapConfig::default()
            };
            let mut packets = taken.split_inclusive(|&(_, last)| last);
            for (p, ts) in &sent {
                let want = encap
                    .frame(p, src_id, timestamp.then_some(u64::from(*ts)))
                    .unwrap();
                let got: Vec<u8> = packets.next().unwrap().iter().map(|&(b, _)| b).collect();
                assert_eq!(got, want, "payload {p:02x?} srcID {src_bits} bits");
            }
            assert!(packets.next().is_none());
        }
    }
}

#[test]
fn item4_to_item7_smi_byte_stream_matches_model_te_inst_raw() {
    check_byte_stream::<80, 6>(FramerConfig::smi(0, false), 0, 21, 120, 70);
}

#[test]
fn item4_to_item7_smi_byte_stream_matches_model_index8_timestamp() {
    check_byte_stream::<80, 3>(FramerConfig::smi(8, true), 0xa5, 22, 120, 60);
}

#[test]
fn item4_to_item7_smi_byte_stream_matches_model_p144_index12() {
    check_byte_stream::<144, 4>(FramerConfig::smi(12, false), 0xabc, 23, 40, 80);
}

/// Every message framed alone equals `SmiConfig::frame` (the reference flow's `te_inst_raw`
/// when the index is 0 bits and there is no timestamp), for index widths 0, 4, 8, 16; the
/// index input's bits above the index width are not sent.
#[test]
fn smi_messages_equal_model_frame() {
    let mut seed = 200;
    for (src_bits, src_id) in [(0u8, 0u16), (4, 0x9), (8, 0x3c), (16, 0x1234)] {
        for timestamp in [false, true] {
            seed += 1;
            let cfg = FramerConfig::smi(src_bits, timestamp);
            let mut uut = OutputPath::<80, 6>::new(cfg);
            uut.source_id.next = u64::from(src_id | 0xfff0 << src_bits.min(15)).into();
            let model = ModelPath::new(model_config(cfg, src_id, 64)).unwrap();
            let (taken, sent) = run_path(uut, model, seed, 60, 100);
            let smi = SmiConfig {
                index_bits: src_bits,
            };
            let mut messages =
                taken.split_inclusive(|item| matches!(item, OutputItem::Byte { last: true, .. }));
            for (p, ts) in &sent {
                let want = smi.frame(p, src_id, timestamp.then_some(*ts)).unwrap();
                let got: Vec<u8> = messages
                    .next()
                    .unwrap()
                    .iter()
                    .map(|item| match item {
                        OutputItem::Byte { data, .. } => *data,
                        other => panic!("a byte stream took {other:?}"),
                    })
                    .collect();
                assert_eq!(got, want, "payload {p:02x?} index {src_bits} bits");
            }
            assert!(messages.next().is_none());
        }
    }
}

/// Drives `AtbOutputPath` and the model's ATB port; checks every cycle; checks the beats
/// against `AtbConfig::frame`.
fn check_atb<const P: usize, const DW: usize, const BW: usize>(
    timestamp: bool,
    seed: u64,
    packets: usize,
) {
    let atid = 0x23u8;
    let config = FramerConfig {
        format: FrameFormat::Encap,
        src_bits: 0,
        timestamp,
        sync_interval: 0,
    };
    let data_bytes = (DW / 8) as u8;
    let model_cfg = OutputPathConfig {
        framing: FramingKind::Encap,
        src_bits: 0,
        src_id: 0,
        timestamp,
        sync_interval: 0,
        fifo_depth: 8,
        port: OutputPort::Atb { data_bytes, atid },
    };
    let mut uut = AtbOutputPath::<P, 3, DW, BW>::new(config);
    uut.source_id.next = u64::from(atid).into();
    let model = ModelPath::new(model_cfg).unwrap();
    let (taken, sent) = run_path(uut, model, seed, packets, 60);
    let atb = AtbConfig {
        data_bytes,
        encap: model_cfg.encap(),
    };
    let mut expected = Vec::new();
    for (p, ts) in &sent {
        let beats = atb
            .frame(p, atid, timestamp.then_some(u64::from(*ts)))
            .unwrap();
        expected.extend(beats.into_iter().map(OutputItem::Beat));
    }
    assert_eq!(taken, expected);
}

#[test]
fn item8_atb_matches_model_atdata8() {
    check_atb::<80, 8, 1>(true, 11, 60);
}

#[test]
fn item8_atb_matches_model_atdata16() {
    check_atb::<80, 16, 1>(false, 12, 60);
}

#[test]
fn item8_atb_matches_model_atdata32() {
    check_atb::<80, 32, 2>(true, 13, 80);
}

#[test]
fn item8_atb_matches_model_atdata64() {
    check_atb::<80, 64, 3>(false, 14, 60);
}

#[test]
fn item8_atb_matches_model_atdata128() {
    check_atb::<144, 128, 4>(true, 15, 40);
}

/// Item 7 alone: the block-RAM FIFO against a queue model, random writes / reads.
fn check_fifo<const N: usize>(seed: u64, cycles: usize) {
    let depth = 1usize << N;
    let mut uut = ByteFifo::<N>::default();
    reset(&mut uut);
    let mut rng = Rng::new(seed);
    let mut model: VecDeque<(u8, bool)> = VecDeque::new();
    for cycle in 0..cycles {
        // Phases of mostly-writing and mostly-reading reach full and empty.
        let phase = (cycle / 50) % 2 == 0;
        let wr = rng.below(100) < if phase { 80 } else { 30 };
        let rd = rng.below(100) < if phase { 30 } else { 80 };
        let data = rng.next_u64() as u8;
        let last = rng.below(4) == 0;
        uut.wr_en.next = wr;
        uut.wr_data.next = u64::from(data).into();
        uut.wr_last.next = last;
        uut.stream.out_ready.next = rd;
        settle(&mut uut);
        assert_eq!(
            uut.can_write.val(),
            model.len() < depth,
            "can_write, cycle {cycle}"
        );
        assert_eq!(
            uut.stream.out_valid.val(),
            !model.is_empty(),
            "out_valid, cycle {cycle}"
        );
        if let Some(&(d, l)) = model.front() {
            assert_eq!(
                (uut.stream.out_data.val().to_u8(), uut.stream.out_last.val()),
                (d, l),
                "head, cycle {cycle}"
            );
        }
        let start = model.len();
        if rd && start > 0 {
            model.pop_front();
        }
        if wr && start < depth {
            model.push_back((data, last));
        }
        tick(&mut uut);
    }
}

#[test]
fn item7_byte_fifo_depth4_matches_queue_model() {
    check_fifo::<2>(21, 3000);
}

#[test]
fn item7_byte_fifo_depth64_matches_queue_model() {
    check_fifo::<6>(22, 3000);
}

/// Item 4 alone: packets produced within `free` enter a packet register (as in the packet
/// logic) and are pushed in the next cycle into the queue's input register, which they
/// leave for the queue at the end of the cycle after; random pops; the head and `free`
/// each cycle.
#[test]
fn item4_packet_queue_matches_queue_model() {
    let mut uut = PacketQueue::<80>::default();
    reset(&mut uut);
    let mut rng = Rng::new(31);
    let mut model: VecDeque<(Vec<u8>, u16)> = VecDeque::new();
    let mut staged: Vec<Vec<u8>> = Vec::new();
    let mut staged_ts = 0u16;
    let mut incoming: Vec<(Vec<u8>, u16)> = Vec::new();
    for cycle in 0..2000u64 {
        let free = 2 - model.len() - staged.len() - incoming.len();
        let mut left = usize::MAX;
        let produced = pushes(&mut rng, free, &mut left, 10);
        let pop = rng.below(2) == 0;
        let port = &mut uut.pushes;
        port.push_count.next = (staged.len() as u64).into();
        port.entry0_payload.next = staged.first().map_or(Bits::default(), |p| to_bits::<80>(p));
        port.entry1_payload.next = staged.get(1).map_or(Bits::default(), |p| to_bits::<80>(p));
        uut.in_timestamp.next = u64::from(incoming.first().map_or(0, |e| e.1)).into();
        uut.pop.next = pop;
        settle(&mut uut);
        assert_eq!(uut.pushes.free.val().index(), free, "free, cycle {cycle}");
        assert_eq!(
            uut.head_valid.val(),
            !model.is_empty(),
            "head_valid, cycle {cycle}"
        );
        if let Some((p, t)) = model.front() {
            assert_eq!(
                uut.head_payload.val(),
                to_bits::<80>(p),
                "payload, cycle {cycle}"
            );
            assert_eq!(
                uut.head_length.val().index(),
                p.len(),
                "length, cycle {cycle}"
            );
            assert_eq!(
                uut.head_timestamp.val().to_u16(),
                *t,
                "timestamp, cycle {cycle}"
            );
        }
        if pop {
            model.pop_front();
        }
        model.extend(incoming.drain(..));
        incoming = staged.drain(..).map(|p| (p, staged_ts)).collect();
        staged = produced;
        staged_ts = rng.next_u64() as u16;
        tick(&mut uut);
    }
}

/// Item 5: the counter is 0 in the first cycle after reset, +1 per cycle, wraps at 2^16,
/// and a reset in the middle restarts it; the block presents the value of two cycles
/// before (the timestamp of the queue's input register).
#[test]
fn item5_timestamp_counts_cycles_from_reset() {
    let mut uut = Timestamp::default();
    reset(&mut uut);
    assert_eq!(uut.queued.val().to_u64(), 0xfffe);
    tick(&mut uut);
    assert_eq!(uut.queued.val().to_u64(), 0xffff);
    tick(&mut uut);
    for expected in 0..70_000u64 {
        assert_eq!(uut.queued.val().to_u64(), expected % 65_536);
        tick(&mut uut);
    }
    uut.reset.next = true;
    settle(&mut uut);
    tick(&mut uut);
    uut.reset.next = false;
    settle(&mut uut);
    assert_eq!(uut.queued.val().to_u64(), 0xfffe);
    tick(&mut uut);
    assert_eq!(uut.queued.val().to_u64(), 0xffff);
    tick(&mut uut);
    assert_eq!(uut.queued.val().to_u64(), 0);
}
