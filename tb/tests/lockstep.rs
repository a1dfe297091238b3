//! The lock-step co-simulation of the PicoRV32 SoC (`etrace_tb::soc::lockstep`, issue 23)
//! on the programs PicoRV32 can run: zero divergences, the encoder's bytes equal to the
//! cycle model's and decoded back to the hart's execution; and the deliberately wrong
//! front end (branch `itype`s swapped) is caught.

use etrace_tb::soc::lockstep::{run, DivergenceKind, LockstepConfig, LockstepError};
use etrace_tb::SocVariant;

/// The programs PicoRV32 runs (no CSRs, no traps, no console): `minimal`, the
/// `-picorv32` builds of `scripts/build-programs.sh` and Dhrystone.
const PROGRAMS: [&str; 6] = [
    "minimal-rv32",
    "tailcall-picorv32",
    "fnptr_switch-picorv32",
    "loops-picorv32",
    "recursion-picorv32",
    "dhrystone-picorv32",
];

#[test]
fn programs_run_in_lock_step_with_byte_exact_trace() {
    for name in PROGRAMS {
        let elf = etrace_programs::elf(name).unwrap();
        let outcome = run(&elf, &LockstepConfig::new(SocVariant::PicoRv32))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(outcome.retired > 20, "{name}");
        assert_eq!(outcome.decoded.steps, outcome.retired, "{name}");
        assert!(outcome.bytes > 0, "{name}");
        eprintln!(
            "{name}: {} retired, {} cycles, {} bytes, {:.0} cycles/s",
            outcome.retired,
            outcome.cycles,
            outcome.bytes,
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
