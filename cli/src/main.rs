//! `etrace`: the project's one command-line tool (sub-commands and option names fixed in
//! `docs/cli.md`).
//!
//! Exit codes: 0 success, 1 a check failed (a mismatch), 2 bad input or usage. Errors go to
//! stderr as one line `error: <what> (<where>)`, with context lines below where useful.

mod commands;
mod error;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// RISC-V E-Trace encoder model, tools and flows.
#[derive(Parser)]
#[command(name = "etrace", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run an ELF on the hart model; write spike CSV / encoder-input CSV.
    Iss(commands::iss::IssArgs),
    /// Convert a spike CSV into an encoder-input CSV.
    Convert(commands::convert::ConvertArgs),
    /// Encode ingress (ELF, spike CSV or encoder-input CSV) into framed te_inst packets.
    Encode(commands::encode::EncodeArgs),
    /// List the packets of a framed stream with their fields.
    Dump(commands::dump::DumpArgs),
    /// Decode framed packets against the program's ELF(s): elements, PCs, spike CSV, JSON.
    Decode(commands::decode::DecodeArgs),
    /// Hart model -> encoder -> framing -> decoder in memory, verified against the hart.
    Run(commands::run::RunArgs),
    /// Decode a trace and show its function-call hierarchy, folded stacks, flame graph.
    Calltree(commands::calltree::CalltreeArgs),
    /// Write the encoder's Verilog and a FuseSoC core for a hardware configuration.
    GenVerilog(commands::gen_verilog::GenVerilogArgs),
    /// Hart model -> encoder RTL under Verilator, checked cycle by cycle against the model.
    Cosim(commands::cosim::CosimArgs),
    /// FPGA flow for a board: board top Verilog, synthesis, place and route, bitstream,
    /// report.
    Synth(commands::synth::SynthArgs),
    /// Read a board's UART stream live and decode it.
    Capture(commands::capture::CaptureArgs),
}

fn main() -> ExitCode {
    // A closed standard output (`etrace run | head -1`) ends the command quietly, as it
    // ends other command-line tools: the default action of SIGPIPE (Rust ignores the
    // signal, which makes every later write fail and `println!` panic).
    // SAFETY: sets a signal's action to its default before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Iss(args) => commands::iss::run(args),
        Command::Convert(args) => commands::convert::run(args),
        Command::Encode(args) => commands::encode::run(args),
        Command::Dump(args) => commands::dump::run(args),
        Command::Decode(args) => commands::decode::run(args),
        Command::Run(args) => commands::run::run(args),
        Command::Calltree(args) => commands::calltree::run(args),
        Command::GenVerilog(args) => commands::gen_verilog::run(args),
        Command::Cosim(args) => commands::cosim::run(args),
        Command::Synth(args) => commands::synth::run(args),
        Command::Capture(args) => commands::capture::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => err.report(),
    }
}

/// The command line. clap reports a missing required argument with its name on a line of
/// its own; it is reported here as every other error is, on one line naming it (`error:
/// <what> (<where>)`, exit 2), with clap's usage line and hint below. Every other parse
/// error (and `--help`, `--version`) is clap's.
fn parse() -> Result<Cli, ExitCode> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    match Cli::try_parse() {
        Ok(cli) => Ok(cli),
        Err(e) if e.kind() == ErrorKind::MissingRequiredArgument => {
            let missing = match e.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(names)) => names.join(", "),
                _ => "see the usage below".to_string(),
            };
            eprintln!("error: a required argument is missing ({missing})");
            let rendered = e.render().to_string();
            for line in rendered.lines().skip_while(|l| !l.starts_with("Usage:")) {
                eprintln!("{line}");
            }
            Err(ExitCode::from(2))
        }
        Err(e) => e.exit(),
    }
}
