//! `etrace gen-verilog --config CONFIG -o DIR`: writes the encoder's Verilog for a named
//! configuration (`docs/cli.md`) and a FuseSoC core file for it, after checking it with
//! yosys (no latch, every module defined, no undriven wire).

use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_hdl::config::Config;
use etrace_hdl::top::{generate, OutputKind, TopOptions};
use etrace_hdl::verilog::VerilogCheckError;
use std::path::PathBuf;

/// The ATDATA widths of the ATB output, in bits (`--atb-bits`).
const ATB_BITS: [u32; 5] = [8, 16, 32, 64, 128];

/// Arguments of `etrace gen-verilog`.
#[derive(Args)]
pub struct GenVerilogArgs {
    /// Hardware configuration: rv32, rv64, rv32-itype3 or rv64-itype3.
    #[arg(long, value_name = "CONFIG")]
    pub config: String,
    /// Output directory (created if missing).
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: PathBuf,
    /// Transport of the packets: encap (byte stream with valid / ready) or atb.
    #[arg(long, value_name = "encap|atb", default_value = "encap")]
    pub framing: String,
    /// Width of the encap `srcID` field in bits (0-16; 0 for atb).
    #[arg(long, value_name = "B", default_value_t = 0)]
    pub src_bits: u8,
    /// Add a 2-byte timestamp (free-running cycle counter) to every packet.
    #[arg(long)]
    pub timestamp: bool,
    /// ATDATA width in bits for atb (8, 16, 32, 64 or 128).
    #[arg(long, value_name = "BITS", default_value_t = 32)]
    pub atb_bits: u32,
    /// Depth of the output byte FIFO: 16, 32, 64, 128 or 256 bytes (64 with atb).
    #[arg(long, value_name = "BYTES", default_value_t = 64)]
    pub fifo_depth: usize,
    /// Skip the yosys check of the generated Verilog.
    #[arg(long)]
    pub no_check: bool,
}

/// Runs `etrace gen-verilog`.
pub fn run(args: GenVerilogArgs) -> Result<(), CliError> {
    let config = Config::from_name(&args.config).at("--config")?;
    let output = match args.framing.as_str() {
        "encap" => OutputKind::Bytes,
        // The generator checks the combination (no srcID with atb, supported widths).
        "atb" if ATB_BITS.contains(&args.atb_bits) => OutputKind::Atb {
            data_bytes: args.atb_bits / 8,
        },
        "atb" => {
            return Err(CliError::input(
                format!(
                    "ATDATA width of {} bits is not supported (8, 16, 32, 64 or 128)",
                    args.atb_bits
                ),
                "--atb-bits",
            ))
        }
        other => {
            return Err(CliError::input(
                format!("unknown framing `{other}` for the hardware (expected encap or atb)"),
                "--framing",
            ))
        }
    };
    let options = TopOptions {
        src_bits: args.src_bits,
        timestamp: args.timestamp,
        fifo_depth: args.fifo_depth,
        output,
        inject_fault: false,
    };
    let design = generate(config, &options).at("gen-verilog options")?;
    if !args.no_check {
        etrace_hdl::verilog::yosys_check_top(&design.top, &design.verilog).map_err(
            |e| match e {
                // Not a failed check: the tool is missing (usage, as `synth` without its tools).
                VerilogCheckError::Tool { .. } => {
                    CliError::input(e, "yosys").with_context("--no-check skips the check")
                }
                _ => CliError::check("the generated Verilog failed the yosys check", &design.top)
                    .with_context(e),
            },
        )?;
    }
    std::fs::create_dir_all(&args.out).at(args.out.display())?;
    let verilog_name = format!("{}.v", design.top);
    let verilog_path = args.out.join(&verilog_name);
    std::fs::write(&verilog_path, &design.verilog).at(verilog_path.display())?;
    let core_path = args.out.join(format!("{}.core", design.top));
    let core = etrace_hdl::fusesoc::core_file(&design.top, &verilog_name, &design.description);
    std::fs::write(&core_path, core).at(core_path.display())?;
    println!("{}", verilog_path.display());
    println!("{}", core_path.display());
    Ok(())
}
