//! The lock-step co-simulation of the PicoRV32 and SERV SoCs (`etrace_tb::soc::lockstep`,
//! issue 23) on the programs each core can run: zero divergences, the encoder's bytes equal to the
//! cycle model's and decoded back to the hart's execution; and the deliberately wrong
//! front end (branch `itype`s swapped) is caught, with the waveform of the divergence; a
//! consumer of the bytes that stops (`cosim --core -o` on a full disk) stops the run.

use std::path::PathBuf;

use etrace_hart::{cause, CountingSink, Hart};
use etrace_tb::soc::lockstep::{
    hart_config, run, run_with, DivergenceKind, LockstepConfig, LockstepError, OutputPace,
};
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

/// The programs SERV runs (RV32I with Zicsr, no C, no M): the `-serv` builds (`traps` with
/// ecall, ebreak and misaligned loads and stores, `timer` with machine timer interrupts
/// in a compute loop and right after `mstatus.MIE` is set) and Dhrystone.
const SERV_PROGRAMS: [&str; 7] = [
    "tailcall-serv",
    "fnptr_switch-serv",
    "loops-serv",
    "recursion-serv",
    "traps-serv",
    "timer-serv",
    "dhrystone-serv",
];

#[test]
fn picorv32_runs_its_programs_in_lock_step_with_byte_exact_trace() {
    lock_step(SocVariant::PicoRv32, &PROGRAMS);
}

#[test]
fn serv_runs_its_programs_in_lock_step_with_byte_exact_trace() {
    lock_step(SocVariant::Serv, &SERV_PROGRAMS);
}

/// E-Trace 2.0 `payload.adoc` (format 0, "Branch prediction") and `encoderBehaviour.adoc`
/// (implicit return): PicoRV32 with an encoder that has a predictor of 64 entries and a
/// return stack of 4, both options enabled through the trace control registers, runs its
/// programs in lock step, byte-exact with the model built the same way and decoded back
/// to the hart's execution; and its trace of the loops, the recursion and Dhrystone is
/// smaller than the default SoC's.
#[test]
fn picorv32_with_predictor_and_return_stack_runs_in_lock_step_with_both_options() {
    lock_step_with_both_options(SocVariant::PicoRv32BpIr, SocVariant::PicoRv32, &PROGRAMS);
}

/// As [`picorv32_with_predictor_and_return_stack_runs_in_lock_step_with_both_options`],
/// for SERV (`etrace cosim --core serv --bpred-size 6 --return-stack-size 2`): its
/// programs with calls, loops, traps and timer interrupts (Dhrystone, about as long as
/// all of them together on the bit-serial core, runs without the options above).
#[test]
fn serv_with_predictor_and_return_stack_runs_in_lock_step_with_both_options() {
    lock_step_with_both_options(
        SocVariant::ServBpIr,
        SocVariant::Serv,
        &SERV_PROGRAMS[..SERV_PROGRAMS.len() - 1],
    );
}

/// `payload.adoc`, "Two example transport schemes" (encap `srcID` and timestamp) with
/// issue 22's options: PicoRV32 whose encoder has both blocks and also sends an 8-bit
/// `srcID` and 2-byte timestamps (the cycle a packet is produced in), both options
/// enabled (`etrace cosim --core picorv32 --bpred-size 6 --return-stack-size 2
/// --src-bits 8 --timestamp`): byte-exact with the model built the same way, decoded
/// back, with the same retirements as without the two framing options and more bytes
/// (a `srcID` byte and a timestamp in every packet).
#[test]
fn picorv32_with_every_generation_option_runs_in_lock_step() {
    let with_options = |variant| {
        let mut config = LockstepConfig::new(variant);
        config.options.branch_prediction = true;
        config.options.implicit_return = true;
        config
    };
    let (all, sized) = (
        with_options(SocVariant::PicoRv32All),
        with_options(SocVariant::PicoRv32BpIr),
    );
    for &name in &PROGRAMS[..PROGRAMS.len() - 1] {
        let elf = etrace_programs::elf(name).unwrap();
        let outcome = run(&elf, &all).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(outcome.decoded.steps >= outcome.retired, "{name}");
        let without = run(&elf, &sized).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(outcome.retired, without.retired, "{name}");
        assert!(
            outcome.bytes > without.bytes,
            "{name}: {outcome:?} against {without:?}"
        );
    }
}

/// Runs `programs` on `variant` (an encoder with both blocks) with both options enabled,
/// in lock step and decoded back, and on `plain` (the same core, the default encoder):
/// both retire the same instructions, and the loops, the recursion and Dhrystone trace
/// in fewer bytes with the options.
fn lock_step_with_both_options(variant: SocVariant, plain: SocVariant, programs: &[&str]) {
    let mut config = LockstepConfig::new(variant);
    config.options.branch_prediction = true;
    config.options.implicit_return = true;
    for &name in programs {
        let elf = etrace_programs::elf(name).unwrap();
        let outcome = run(&elf, &config).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(outcome.decoded.steps >= outcome.retired, "{name}");
        let plain =
            run(&elf, &LockstepConfig::new(plain)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(outcome.retired, plain.retired, "{name}");
        eprintln!(
            "{name}: {} retired, {} bytes with both options, {} without",
            outcome.retired, outcome.bytes, plain.bytes
        );
        if ["loops", "recursion", "dhrystone"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            assert!(outcome.bytes < plain.bytes, "{name}: {outcome:?}");
        }
    }
}

/// A SoC whose encoder has neither block refuses the options before it runs: its
/// registers could not hold them (`trTeInstFeatures` is WARL) and the model has no
/// parameter for them, so the run would not trace what was asked.
#[test]
fn the_options_are_refused_by_a_soc_without_their_blocks() {
    let elf = etrace_programs::elf("minimal-rv32").unwrap();
    for (bp, ir) in [(true, false), (false, true)] {
        let mut config = LockstepConfig::new(SocVariant::PicoRv32);
        config.options.branch_prediction = bp;
        config.options.implicit_return = ir;
        let e = run(&elf, &config).unwrap_err();
        assert!(matches!(e, LockstepError::Model(_)), "{e}");
        let what = if bp {
            "`branch-prediction` needs parameter bpred_size_p"
        } else {
            "does not implement `implicit-return"
        };
        assert!(e.to_string().contains(what), "{e}");
    }
}

fn lock_step(variant: SocVariant, programs: &[&str]) {
    for &name in programs {
        let elf = etrace_programs::elf(name).unwrap();
        // The program passes its own checks on the hart with the SoC's memory map
        // (Dhrystone's `main` returns no value: its exit code means nothing).
        let mut hart = Hart::from_elf(&elf, hart_config(variant))
            .unwrap()
            .without_console();
        let run_on_hart = hart.run(&mut CountingSink::default()).unwrap();
        if !name.starts_with("dhrystone") {
            assert_eq!(run_on_hart.exit_code, 0, "{name}");
        }
        // The traps the lock step went through: SERV's timer interrupts, its exceptions.
        match name {
            "timer-serv" => assert_eq!(run_on_hart.trap_count(true, cause::IRQ_M_TIMER), 6),
            "traps-serv" => assert_eq!(run_on_hart.exceptions(), 4),
            _ => {}
        }
        let outcome =
            run(&elf, &LockstepConfig::new(variant)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(outcome.retired > 20, "{name}");
        // The decode check compared every step with the hart's; a step per instruction
        // retired and per trap taken (an exception that replaces its instruction has a
        // record but no retirement).
        assert!(outcome.decoded.steps >= outcome.retired, "{name}");
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

/// Issue 23, item 2: software on the core discovers the encoder through its trace control
/// registers and switches instruction trace off and on three times; the encoder follows
/// (byte-exact with the model fed the registers' trace enable), and each traced part
/// decodes to the hart's execution, the untraced parts missing from the trace.
#[test]
fn software_switches_trace_off_and_on_through_the_trace_control_registers() {
    for variant in [SocVariant::PicoRv32, SocVariant::Serv] {
        let name = format!("trace_control-{}", variant.name());
        let elf = etrace_programs::elf(&name).unwrap();
        let mut hart = Hart::from_elf(&elf, hart_config(variant))
            .unwrap()
            .without_console();
        let on_hart = hart.run(&mut CountingSink::default()).unwrap();
        assert_eq!(on_hart.exit_code, 0, "{name}: discovery reads the encoder");
        let outcome =
            run(&elf, &LockstepConfig::new(variant)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(outcome.losses, 0, "{name}: {outcome:?}");
        // Four traced parts: before the first switch-off, after each switch-on.
        assert_eq!(outcome.decoded.runs, 4, "{name}: {outcome:?}");
        let all = outcome.hart_steps.expect("the hart's steps are counted");
        assert!(
            outcome.decoded.steps > 0 && outcome.decoded.steps + 500 < all,
            "{name}: {outcome:?}"
        );
    }
}

#[test]
fn the_wrong_front_end_is_caught_with_a_waveform() {
    let elf = etrace_programs::elf("minimal-rv32").unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("etrace-lockstep-wave-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = LockstepConfig::new(SocVariant::PicoRv32Swapped);
    config.mismatch_wave_dir = dir.clone();
    match run(&elf, &config) {
        Err(LockstepError::Diverged(d)) => {
            assert_eq!(d.kind, DivergenceKind::Block, "{d}");
            let (got, want) = (d.rtl.block.unwrap().itype, d.hart.unwrap().0.itype);
            assert!(got.is_branch() && want.is_branch() && got != want, "{d}");
            // The waveform: the cycles up to the divergence, the front end's signals in it,
            // the diverging cycle's rising edge dumped.
            let wave = d.wave.as_ref().expect("a waveform");
            assert_eq!(wave.path.parent(), Some(dir.as_path()), "{d}");
            assert_eq!(wave.cycles.1, d.cycle + 16, "{d}");
            assert!(wave.cycles.0 <= d.cycle, "{d}");
            assert!(d.to_string().contains("waveform: "), "{d}");
            let vcd = std::fs::read_to_string(&wave.path).unwrap();
            for signal in [" rvfi_valid ", " itype ", " out_data "] {
                assert!(vcd.contains(signal), "{signal} in the VCD");
            }
            let diverging_edge = wave.first_time + 10 * (d.cycle - wave.cycles.0) + 5;
            assert!(vcd.contains(&format!("\n#{diverging_edge}\n")), "{d}");
        }
        other => panic!("not caught: {other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 23, a UART that cannot keep up: PicoRV32 on Dhrystone with its trace taken at
/// 115,200 baud from a 12 MHz clock (the iCE40 boards' UART: 104 cycles a bit). The FIFO
/// overflows, the RTL and the model agree on every loss, and the decoded trace resumes
/// after each one; the outcome says how much was lost.
#[test]
fn a_slow_uart_loses_trace_and_the_decoder_resumes() {
    let elf = etrace_programs::elf("dhrystone-picorv32").unwrap();
    let cycles_per_bit = etrace_hdl::board::cycles_per_bit(12_000_000, 115_200).unwrap();
    let mut config = LockstepConfig::new(SocVariant::PicoRv32);
    config.pace = OutputPace::Uart { cycles_per_bit };
    let outcome = run(&elf, &config).unwrap_or_else(|e| panic!("{e}"));
    assert!(outcome.losses > 0, "{outcome:?}");
    assert!(outcome.lost_cycles >= outcome.losses, "{outcome:?}");
    // The decoder resumes after the losses the trace reports (a loss that lasts until trace
    // is disabled at the end has no run after it).
    assert!(outcome.decoded.runs >= 2, "{outcome:?}");
    assert!(outcome.decoded.runs <= outcome.losses + 1, "{outcome:?}");
    let all = outcome.hart_steps.expect("the hart's steps are counted");
    assert!(
        outcome.decoded.steps > 0 && outcome.decoded.steps < all,
        "{outcome:?}"
    );
    assert_eq!(outcome.steps_lost(), all - outcome.decoded.steps);
    // The UART's pace: a byte at most every 10 bit times.
    let byte_cycles = 10 * u64::from(cycles_per_bit) + 1;
    assert!(
        outcome.bytes * byte_cycles <= outcome.cycles + byte_cycles,
        "{outcome:?}"
    );
    eprintln!(
        "dhrystone at 115200 baud: {} losses, {} of {all} steps decoded, {} bytes",
        outcome.losses, outcome.decoded.steps, outcome.bytes
    );
}

/// A consumer that breaks on the first piece of bytes (a full piece, in the middle of
/// Dhrystone's run) stops the run there, and is not called again.
#[test]
fn a_consumer_that_breaks_stops_the_lock_step_run() {
    let elf = etrace_programs::elf("dhrystone-picorv32").unwrap();
    let config = LockstepConfig::new(SocVariant::PicoRv32);
    let mut pieces = Vec::new();
    let result = run_with(&elf, &config, &mut |piece| {
        pieces.push(piece.len());
        std::ops::ControlFlow::Break(())
    });
    match result {
        Err(LockstepError::ConsumerStopped(cycle)) => assert!(cycle > 0),
        other => panic!("{other:?}"),
    }
    assert_eq!(pieces, [4096], "one full piece, then the run stopped");
}
