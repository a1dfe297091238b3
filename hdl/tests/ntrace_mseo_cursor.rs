//! `MseoCursor` ("MSEO Sequences", "Order of bits and bytes") against `MseoBytes` (the
//! byte-at-index serialiser that `ntrace_cosim` checks against the model's `MseoWriter`):
//! on seeded random messages with every run length, with and without the address and
//! HIST runs, the cursor stepped byte by byte gives the same bytes as `MseoBytes` at
//! index 0, 1, 2, ...

use etrace_hdl::ntrace::{MseoBytes, MseoCursor, MseoMeasure, NtraceMessage};
use etrace_spec::ingress::random::Rng;
use rust_hdl::prelude::*;
use std::sync::{Arc, Mutex};

mod ntrace_common;
use ntrace_common::{drive_message, MessageFields};

/// The cursor on a message whose layout `MseoMeasure` gives, beside `MseoBytes` on the
/// same message.
#[derive(LogicBlock, Default)]
struct CursorBench {
    clock: Signal<In, Clock>,
    message: NtraceMessage,
    index: Signal<In, Bits<5>>,
    step: Signal<In, Bit>,
    cursor_byte: Signal<Out, Bits<8>>,
    reference_byte: Signal<Out, Bits<8>>,
    length: Signal<Out, Bits<5>>,
    measure: MseoMeasure,
    cursor: MseoCursor,
    reference: MseoBytes,
}

impl Logic for CursorBench {
    #[hdl_gen]
    fn update(&mut self) {
        NtraceMessage::link(&mut self.message, &mut self.measure.message);
        self.cursor.clock.next = self.clock.val();
        self.cursor.tcode.next = self.message.tcode.val();
        self.cursor.lead.next = self.message.lead.val();
        self.cursor.addr.next = self.message.addr.val();
        self.cursor.hist.next = self.message.hist.val();
        self.cursor.lead_bytes.next = self.measure.layout.lead_bytes.val().get_bits::<4>(0);
        self.cursor.addr_bytes.next = self.measure.layout.addr_bytes.val().get_bits::<4>(0);
        self.cursor.hist_bytes.next = self.measure.layout.hist_bytes.val().get_bits::<4>(0);
        self.cursor.first.next = !self.index.val().any();
        self.cursor.last.next = (self.index.val() + 1) == self.measure.layout.length.val();
        self.cursor.step.next = self.step.val();
        self.cursor_byte.next = self.cursor.mseo_byte.val();
        NtraceMessage::link(&mut self.message, &mut self.reference.message);
        self.reference.index.next = self.index.val();
        self.reference_byte.next = self.reference.mseo_byte.val();
        self.length.next = self.reference.length.val();
    }
}

/// A value of `bits` random bits at most (the width itself random, so every run length
/// occurs; the full width one time in four, so the longest messages occur too).
fn random_value(rng: &mut Rng, bits: u64) -> u64 {
    let width = if rng.chance(0.25) {
        bits
    } else {
        rng.below(bits + 1)
    };
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    rng.next_u64() & mask
}

fn random_messages(seed: u64, count: usize) -> Vec<MessageFields> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            (
                rng.below(64),
                random_value(&mut rng, 40),
                1 + rng.below(7),
                random_value(&mut rng, 64),
                rng.chance(0.6),
                random_value(&mut rng, 32),
                rng.chance(0.5),
            )
        })
        .collect()
}

/// Each message's bytes from the cursor (stepped once per clock) and from `MseoBytes`.
fn both_serialisers(messages: &[MessageFields]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let out = Arc::new(Mutex::new(Vec::new()));
    let out_tb = out.clone();
    let todo = messages.to_vec();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<CursorBench>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<CursorBench>| {
        let mut x = sim.init()?;
        for m in &todo {
            drive_message(&mut x.message, m);
            x.index.next = 0.into();
            x.step.next = true;
            wait_clock_false!(sim, clock, x);
            let length = x.length.val().to_u64();
            let (mut cursor, mut reference) = (Vec::new(), Vec::new());
            for i in 0..length {
                x.index.next = i.into();
                wait_clock_false!(sim, clock, x);
                x = sim.wait(1, x)?;
                cursor.push(x.cursor_byte.val().to_u64() as u8);
                reference.push(x.reference_byte.val().to_u64() as u8);
                wait_clock_cycle!(sim, clock, x);
            }
            out_tb.lock().unwrap().push((cursor, reference));
        }
        sim.done(x)
    });
    let mut uut = CursorBench::default();
    uut.connect_all();
    sim.run(Box::new(uut), 400 * messages.len() as u64 + 100)
        .unwrap();
    let v = out.lock().unwrap().clone();
    v
}

/// "MSEO Sequences": the cursor's bytes equal the byte-at-index serialiser's on every
/// message, lengths 2 to 25.
#[test]
fn mseo_sequences_cursor_equals_byte_at_index() {
    let messages = random_messages(25, 1500);
    let results = both_serialisers(&messages);
    assert_eq!(results.len(), messages.len());
    let mut lengths = std::collections::BTreeSet::new();
    for (m, (cursor, reference)) in messages.iter().zip(&results) {
        assert!(!reference.is_empty(), "message {m:x?}: no bytes");
        assert_eq!(cursor, reference, "message {m:x?}");
        lengths.insert(reference.len());
    }
    // Both optional runs and long runs occurred: the longest message has 25 bytes.
    assert!(lengths.contains(&2) && lengths.contains(&25), "{lengths:?}");
}
