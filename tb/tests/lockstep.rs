//! The lock-step co-simulation of the PicoRV32 SoC (`etrace_tb::soc::lockstep`, issue 23)
//! on the programs PicoRV32 can run: zero divergences, the encoder's bytes equal to the
//! cycle model's and decoded back to the hart's execution; and the deliberately wrong
//! front end (branch `itype`s swapped) is caught.

use etrace_tb::soc::lockstep::{run, DivergenceKind, LockstepConfig, LockstepError};
use etrace_tb::SocVariant;

/// The programs of `programs/manifest.toml` built for PicoRV32 (no CSRs, no traps).
const PROGRAMS: [&str; 1] = ["minimal-rv32"];

#[test]
fn programs_run_in_lock_step_with_byte_exact_trace() {
    for name in PROGRAMS {
        let elf = etrace_programs::elf(name).unwrap();
        let outcome = run(&elf, &LockstepConfig::new(SocVariant::PicoRv32))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(outcome.retired > 20, "{name}");
        assert_eq!(outcome.decoded.steps, outcome.retired, "{name}");
        assert!(!outcome.bytes.is_empty());
        eprintln!(
            "{name}: {} retired, {} cycles, {} bytes, {:.0} cycles/s",
            outcome.retired,
            outcome.cycles,
            outcome.bytes.len(),
            outcome.cycles_per_second()
        );
    }
}

#[test]
fn the_wrong_front_end_is_caught() {
    let elf = etrace_programs::elf("minimal-rv32").unwrap();
    match run(&elf, &LockstepConfig::new(SocVariant::PicoRv32Swapped)) {
        Err(LockstepError::Diverged(d)) => {
            assert_eq!(d.kind, DivergenceKind::Block, "{d}");
            let (got, want) = (d.rtl.block.unwrap().itype, d.hart.unwrap().0.itype);
            assert!(got.is_branch() && want.is_branch() && got != want, "{d}");
        }
        other => panic!("not caught: {other:?}"),
    }
}
