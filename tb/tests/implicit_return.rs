//! Implicit return in the RTL (`branchTrace.adoc`, `sec:implicit-return`; `irreport` /
//! `irdepth` of `payload.adoc`, `sec:irxx`): the builds with a return stack of 4 entries
//! (`return_stack_size_p` 2) against the cycle model with `implicit_return` on, port equal
//! in every cycle with and without back-pressure, on every test program (decoded and
//! checked against the hart, with returns actually inferred) and on a seeded random stream
//! of more than two million cycles per build; and the build with a faulty return stack
//! caught.

mod common;

use common::{cosim_program, program, random_cosim, BACK_PRESSURE, NO_STALL, PROGRAMS};
use etrace_encoder::{Encoder, EncoderOptions, Reason};
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::{IngressRecord, Itype, ItypeWidth};
use etrace_tb::cosim::{run, CosimConfig, CosimError};
use etrace_tb::Variant;

/// `base` with `implicit_return`.
fn implicit_return(base: EncoderOptions) -> EncoderOptions {
    EncoderOptions {
        implicit_return: true,
        ..base
    }
}

/// Packets of the golden model reporting the target of an uninferable discontinuity
/// (`Reason::PrevUpdiscon`) for `records` on `variant`'s parameters.
fn updiscon_reports(variant: Variant, options: EncoderOptions, records: &[IngressRecord]) -> usize {
    Encoder::encode_all(&variant.params(), options, records)
        .unwrap()
        .iter()
        .filter(|p| p.reasons.contains(&Reason::PrevUpdiscon))
        .count()
}

/// Co-simulates every test program on `variant` with `options` (implicit return on), with
/// and without back-pressure; returns the returns the model inferred (the discontinuity
/// reports implicit return saves).
fn every_program(variant: Variant, options: EncoderOptions) -> usize {
    let mut inferred = 0;
    for name in PROGRAMS {
        let name = format!("{name}-rv32");
        for stall in [NO_STALL, BACK_PRESSURE] {
            cosim_program(&name, variant, options, stall, 0x5a);
        }
        let (records, _) = program(&name, ItypeWidth::W4);
        let without = EncoderOptions {
            implicit_return: false,
            ..options
        };
        inferred += updiscon_reports(variant, without, &records)
            - updiscon_reports(variant, options, &records);
    }
    inferred
}

#[test]
fn every_program_with_implicit_return_with_and_without_back_pressure() {
    let inferred = every_program(Variant::Rv32Ir, implicit_return(EncoderOptions::default()));
    assert!(inferred > 100, "{inferred} returns inferred");
    // Without the run-time option the build encodes as one without a return stack (but
    // with the `irdepth` field).
    cosim_program(
        "recursion-rv32",
        Variant::Rv32Ir,
        EncoderOptions::default(),
        NO_STALL,
        0,
    );
}

#[test]
fn every_program_with_implicit_return_on_the_all_options_build() {
    let all = EncoderOptions {
        implicit_exception: true,
        sijump: true,
        resync_max: 64,
        branch_prediction: true,
        ..implicit_return(EncoderOptions::default())
    };
    let inferred = every_program(Variant::Rv32All, all);
    assert!(inferred > 100, "{inferred} returns inferred");
}

/// The random stream with call / return nesting: a return goes back to the address after
/// the latest unmatched call, but one in 8 (and those with no call open) goes elsewhere
/// (a failed prediction). The encoder does not check that the stream is one execution.
struct Nested {
    calls: Vec<u64>,
    target: Option<u64>,
    rng: Rng,
}

impl Nested {
    fn record(&mut self, mut record: IngressRecord) -> IngressRecord {
        if let Some(target) = self.target.take() {
            record.iaddr = target;
        }
        if record.iretire == 0 {
            return record;
        }
        match record.itype {
            Itype::InferableCall | Itype::UninferableCall => {
                self.calls.push(record.next_sequential() & 0xffff_ffff)
            }
            Itype::Return if !self.rng.chance(1.0 / 8.0) => self.target = self.calls.pop(),
            _ => {}
        }
        record
    }
}

#[test]
fn random_streams_of_two_million_cycles_with_implicit_return() {
    for (variant, seed) in [(Variant::Rv32Ir, 41), (Variant::Rv32All, 42)] {
        let options = EncoderOptions {
            resync_max: 256,
            sijump: true,
            branch_prediction: variant == Variant::Rv32All,
            ..implicit_return(EncoderOptions::default())
        };
        let (config, stream) = random_cosim(variant, options, seed);
        let mut nested = Nested {
            calls: Vec::new(),
            target: None,
            rng: Rng::new(seed),
        };
        let records: Vec<IngressRecord> =
            stream.take(1_600_000).map(|r| nested.record(r)).collect();
        let inferred = updiscon_reports(
            variant,
            EncoderOptions {
                implicit_return: false,
                ..config.options
            },
            &records,
        ) - updiscon_reports(variant, config.options, &records);
        assert!(inferred > 10_000, "{variant}: {inferred} returns inferred");
        let outcome = run(&config, records.iter().copied(), &mut |_, _| {})
            .unwrap_or_else(|e| panic!("{variant}: {e}"));
        let s = outcome.stats;
        assert!(s.cycles >= 2_000_000, "{variant}: {} cycles", s.cycles);
        assert!(s.packets > 10_000 && s.dropped > 20, "{variant}: {s:?}");
    }
}

#[test]
fn injected_return_stack_fault_is_caught() {
    let (records, _) = program("recursion-rv32", ItypeWidth::W4);
    let options = implicit_return(EncoderOptions::default());
    let mut config = CosimConfig::new(Variant::Rv32IrFault);
    config.options = options;
    let err = run(&config, records.iter().copied(), &mut |_, _| {}).unwrap_err();
    let CosimError::Mismatch(m) = err else {
        panic!("expected a mismatch, got {err}")
    };
    assert!(m.byte.is_some(), "{m}");
    // The same program and options on the good build match.
    let mut good = CosimConfig::new(Variant::Rv32Ir);
    good.options = options;
    run(&good, records.iter().copied(), &mut |_, _| {}).unwrap_or_else(|e| panic!("{e}"));
}
