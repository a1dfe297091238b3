//! The board SoC tops (issue 23, `etrace_hdl::rvfi::board_soc`) run in Icarus Verilog
//! with the cores from their pip packages: the bytes the encoder hands to the UART over
//! the program's first pass decode, against the ELF, to the hart model's run of the
//! program (then the core's spin loop after its exit), and the core then restarts the
//! program with trace on again.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use etrace_decoder::pcs::Step;
use etrace_decoder::{DecoderConfig, ProgramImage};
use etrace_hart::{HartRecords, RecordsTally};
use etrace_hdl::board::core_shell::TRACED_AFTER_END;
use etrace_hdl::board::Board;
use etrace_hdl::rvfi::board_soc::{board_soc, SocCore};
use etrace_hdl::rvfi::soc::SocEncoderOptions;
use etrace_spec::elf::parse_elf;
use etrace_tb::cosim::stream_check::{window_for, HartSteps, StreamCheck};
use etrace_tb::cosim::{TakenDeframer, TakenItems};
use etrace_tb::pythondata::verilog_sources;
use etrace_tb::soc::lockstep::{hart_config, soc_encoder};
use etrace_tb::SocVariant;

/// A UART fast enough for the cores (no trace lost): 4 clock cycles per bit.
const CYCLES_PER_BIT: u32 = 4;

/// The testbench: the board top's clock, and on every cycle the byte the UART takes
/// (`B xx`), the start of a trace loss (`L`), the end of the first pass's trace (`E`: trace enable
/// falls) and the core's restart (`R`: its reset falls after that), then the end.
fn testbench(top: &str) -> String {
    format!(
        r#"`timescale 1ns/1ns
module testbench;
    reg clock = 0;
    wire uart_tx, led_activity, led_lost;
    {top} dut(.clock(clock), .uart_tx(uart_tx), .led_activity(led_activity),
        .led_lost(led_lost));
    always #1 clock = !clock;
    integer cycle = 0;
    integer ended = 0;
    reg was_enabled = 1, was_reset = 1, was_lost = 0;
    always @(negedge clock) begin
        cycle = cycle + 1;
        if (dut.out_valid && dut.out_ready) $display("B %02x", dut.out_data);
        if (dut.trace_lost && !was_lost) $display("L");
        was_lost = dut.trace_lost;
        if (was_enabled && !dut.trace_enable && ended == 0) begin
            $display("E %0d", cycle);
            ended = cycle;
        end
        if (ended != 0 && was_reset && !dut.reset) begin
            $display("R %0d", cycle);
            $finish;
        end
        was_enabled = dut.trace_enable;
        was_reset = dut.reset;
        if (cycle > 3000000) begin
            $display("TIMEOUT");
            $finish;
        end
    end
endmodule
"#
    )
}

/// The core's Verilog files.
fn core_sources(core: SocCore) -> Vec<PathBuf> {
    verilog_sources(core.into()).expect("scripts/setup.sh installs the cores")
}

/// What a simulation saw.
struct Simulated {
    /// The bytes the UART took.
    bytes: Vec<u8>,
    /// Trace losses.
    losses: usize,
    /// The cycle the trace ended and the one the core restarted.
    ended: Option<(u64, u64)>,
    /// The folder of the simulation's files (removed after a passing check).
    dir: PathBuf,
}

/// Simulates `board`'s SoC of `core` running `program` until its restart, its encoder
/// built with `encoder`.
fn simulate(board: Board, core: SocCore, program: &str, encoder: SocEncoderOptions) -> Simulated {
    let elf = std::fs::read(program_path(program)).unwrap();
    let image = parse_elf(&elf).unwrap();
    let soc = board_soc(
        board,
        core,
        &image,
        board.clock_hz() / CYCLES_PER_BIT,
        encoder,
    )
    .unwrap();
    let dir = std::env::temp_dir().join(format!(
        "etrace-board-soc-{}-{}-{}-{}{}{}-{}",
        board.name(),
        core.name(),
        encoder.bpred_size,
        encoder.return_stack_size,
        encoder.src_bits,
        encoder.timestamp as u8,
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("soc.v"), &soc.verilog).unwrap();
    std::fs::write(dir.join("testbench.v"), testbench(&soc.top)).unwrap();
    let sim = dir.join("sim.vvp");
    let status = Command::new("iverilog")
        .args(["-g2012", "-DRISCV_FORMAL", "-o"])
        .arg(&sim)
        .arg(dir.join("testbench.v"))
        .arg(dir.join("soc.v"))
        .args(core_sources(core))
        .status()
        .expect("iverilog (scripts/setup.sh installs it)");
    assert!(status.success(), "iverilog failed on {}", dir.display());
    let out = Command::new("vvp").arg("-n").arg(&sim).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let bytes = text
        .lines()
        .filter_map(|l| l.strip_prefix("B "))
        .map(|h| u8::from_str_radix(h, 16).unwrap())
        .collect();
    let losses = text.lines().filter(|l| *l == "L").count();
    let at = |tag: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(tag))
            .and_then(|n| n.parse::<u64>().ok())
    };
    let ended = at("E ").zip(at("R "));
    Simulated {
        bytes,
        losses,
        ended,
        dir,
    }
}

fn program_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../programs/elf")
        .join(name)
}

/// Decodes `bytes` (the board's `rv32` encap stream, its encoder built with `encoder`)
/// against `program` on `variant`'s memory map and matches the
/// decoded steps with the hart model's run on `variant`'s profile followed by the core's
/// spin loop after the exit (`j .` after the store to `tohost`, which the hart model does
/// not run: it stops at that store); returns the matched steps beyond the hart's run,
/// and the runs of the trace.
fn decoded(
    program: &str,
    variant: SocVariant,
    encoder: SocEncoderOptions,
    bytes: &[u8],
) -> (u64, u64) {
    let elf = Arc::new(std::fs::read(program_path(program)).unwrap());
    let image = ProgramImage::from_elf(&elf).unwrap();
    let (params, output) = soc_encoder(encoder);
    let hart: Vec<Step> = HartSteps::new(
        HartRecords::spawn(elf, hart_config(variant))
            .tallied(Arc::new(RecordsTally::default()))
            .map(|(r, _)| r),
    )
    .collect();
    let Some(&Step::Instruction { pc, privilege }) = hart.last() else {
        panic!("{program}: the hart's run ends with an instruction");
    };
    let spin = Step::Instruction {
        pc: pc + 4,
        privilege,
    };
    let expected = hart.iter().copied().chain(std::iter::repeat(spin));
    let mut check = StreamCheck::new(&params, &image, DecoderConfig::default(), expected)
        .with_window(window_for(output.fifo_depth, 0.9));
    let mut deframer = TakenDeframer::new(&output);
    check.push(&deframer.push(TakenItems::Bytes(bytes)));
    check.push(&deframer.finish());
    let summary = check.finish().expect("the decoded trace is the hart's");
    (
        summary.steps.saturating_sub(hart.len() as u64),
        summary.runs,
    )
}

/// Runs `program` on `board`'s SoC of `core` until its restart and decodes its trace;
/// returns the trace losses and the bytes sent. The SoC's encoder is `variant`'s.
fn check(board: Board, core: SocCore, program: &str, variant: SocVariant) -> (usize, usize) {
    check_with(board, core, program, variant, variant.encoder())
}

/// [`check`] with the SoC's encoder built with `encoder` (the hart's memory map
/// `variant`'s).
fn check_with(
    board: Board,
    core: SocCore,
    program: &str,
    variant: SocVariant,
    encoder: SocEncoderOptions,
) -> (usize, usize) {
    let sim = simulate(board, core, program, encoder);
    let files = sim.dir.display();
    let (ended, restarted) = sim.ended.unwrap_or_else(|| {
        panic!("{program}: the trace does not end or the core does not restart ({files})")
    });
    assert!(ended < restarted);
    let (spins, runs) = decoded(program, variant, encoder, &sim.bytes);
    // The core spins for the cycles it is traced after the exit.
    assert!(spins <= TRACED_AFTER_END, "{program}: {spins} ({files})");
    // A run after each loss (but the last, if the trace ends in it, as in the lock step).
    let losses = sim.losses as u64;
    assert!(
        runs == losses + 1 || (losses > 0 && runs == losses),
        "{program}: {runs} runs, {losses} losses ({files})"
    );
    std::fs::remove_dir_all(&sim.dir).ok();
    eprintln!(
        "{program} on {} ({encoder:?}): {} bytes, {} losses",
        variant.name(),
        sim.bytes.len(),
        sim.losses
    );
    (sim.losses, sim.bytes.len())
}

/// PicoRV32 runs its calls and returns faster than the UART sends their packets: the
/// FIFO overflows, the trace says so and resumes, and each run decodes to the hart's.
#[test]
fn picorv32_board_soc_traces_its_program_through_losses_and_restarts() {
    let (losses, _) = check(
        Board::Icebreaker,
        SocCore::PicoRv32,
        "tailcall-picorv32.elf",
        SocVariant::PicoRv32,
    );
    assert!(losses > 0);
}

/// E-Trace 2.0 `payload.adoc` (format 0) and `encoderBehaviour.adoc` (implicit return):
/// the board SoC whose encoder has a branch predictor of 64 entries and a return stack of
/// 4 (`synth --core picorv32 --bpred-size 6 --return-stack-size 2`) enables both options
/// at boot; its trace decodes to the hart's with those parameters, and it sends fewer
/// bytes and loses trace fewer times through the UART than the default SoC running the
/// same program.
#[test]
fn picorv32_board_soc_with_predictor_and_return_stack_traces_its_program() {
    let program = "tailcall-picorv32.elf";
    let (losses, bytes) = check(
        Board::Icebreaker,
        SocCore::PicoRv32,
        program,
        SocVariant::PicoRv32BpIr,
    );
    let (plain_losses, plain_bytes) = check(
        Board::Icebreaker,
        SocCore::PicoRv32,
        program,
        SocVariant::PicoRv32,
    );
    assert!(
        losses < plain_losses,
        "{losses} losses, {plain_losses} without"
    );
    assert!(bytes < plain_bytes, "{bytes} bytes, {plain_bytes} without");
}

/// SERV's traps (illegal instruction, ecall, ebreak, misaligned accesses), no trace lost:
/// the whole run decodes to the hart's.
#[test]
fn serv_board_soc_traces_its_traps_and_restarts() {
    let (losses, _) = check(
        Board::Ulx3s25f,
        SocCore::Serv,
        "traps-serv.elf",
        SocVariant::Serv,
    );
    assert_eq!(losses, 0);
}

/// `payload.adoc`, "Two example transport schemes" (encap with a srcID and timestamps):
/// SERV's SoC with every generation option the board takes (`synth --core serv --src-bits 8
/// --timestamp --bpred-size 6 --return-stack-size 2`): its UART stream deframes with the
/// 8-bit srcID and the 2-byte timestamps and decodes, traps included, to the hart's.
#[test]
fn serv_board_soc_with_every_option_frames_and_decodes() {
    let all = SocEncoderOptions {
        bpred_size: 6,
        return_stack_size: 2,
        src_bits: 8,
        timestamp: true,
    };
    let (losses, bytes) = check_with(
        Board::Ulx3s25f,
        SocCore::Serv,
        "traps-serv.elf",
        SocVariant::Serv,
        all,
    );
    assert_eq!(losses, 0);
    assert!(bytes > 0);
}
