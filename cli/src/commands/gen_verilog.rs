//! `etrace gen-verilog --config CONFIG -o DIR`: writes the encoder's Verilog for a named
//! configuration (`docs/cli.md`) and a FuseSoC core file for it, after checking it with
//! yosys (no latch, every module defined, no undriven wire); with `--rvfi`, the encoder
//! behind the RVFI front end, for one's own core (`etrace_hdl::rvfi::rvfi_encoder`); with
//! `--protocol ntrace`, the N-Trace encoder (`etrace_hdl::ntrace::top`).

use super::hardware_args::{at_option, write_params_files, HardwareArgs};
use super::io::outln;
use super::ntrace_hardware_args::NtraceHardwareArgs;
use super::protocol_args::{NtraceArgs, Protocol, ProtocolArgs};
use crate::error::{CliError, InputContext};
use clap::Args;
use etrace_hdl::config::Config;
use etrace_hdl::fusesoc::ParameterValue;
use etrace_hdl::ntrace::generate_ntrace;
use etrace_hdl::rvfi::rvfi_encoder::rvfi_encoder;
use etrace_hdl::rvfi::{CoreTraps, FrontEndOptions};
use etrace_hdl::top::{generate, OutputKind, TopOptions};
use etrace_hdl::verilog::VerilogCheckError;
use std::path::PathBuf;

/// Arguments of `etrace gen-verilog`.
#[derive(Args)]
pub struct GenVerilogArgs {
    /// Hardware configuration: rv32, rv64, rv32-itype3 or rv64-itype3.
    #[arg(long, value_name = "CONFIG")]
    pub config: String,
    /// Output directory (created if missing).
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: PathBuf,
    /// Trace protocol of the encoder.
    #[command(flatten)]
    pub protocol: ProtocolArgs,
    /// Hardware generation options.
    #[command(flatten)]
    pub hardware: HardwareArgs,
    /// N-Trace options (with --protocol ntrace).
    #[command(flatten)]
    pub ntrace: NtraceArgs,
    /// N-Trace hardware options (with --protocol ntrace).
    #[command(flatten)]
    pub ntrace_hardware: NtraceHardwareArgs,
    /// Depth of the output byte FIFO: 16, 32, 64, 128 or 256 bytes (64 with atb); with
    /// --protocol ntrace, the bytes the FIFO holds (54-256).
    #[arg(long, value_name = "BYTES", default_value_t = 64)]
    pub fifo_depth: usize,
    /// Skip the yosys check of the generated Verilog.
    #[arg(long)]
    pub no_check: bool,
    /// The encoder behind the RVFI front end (top etrace_rvfi_encoder_rv32): a core's
    /// RVFI retirement signals in instead of the ingress port (rv32 only).
    #[arg(long)]
    pub rvfi: bool,
    /// With --rvfi: what a trap that is no ecall, ebreak or misaligned access is on the
    /// core: illegal-instruction (PicoRV32) or timer-interrupt (SERV).
    #[arg(long, value_name = "KIND", requires = "rvfi", default_value = "illegal-instruction",
          value_parser = ["illegal-instruction", "timer-interrupt"])]
    pub core_traps: String,
    /// With --rvfi: the trace control registers (Trace Control Interface 1.0) drive the
    /// encoder's reset, trace enable and run-time options; the top has their register
    /// port (te_address, te_write, te_wdata, te_rdata) instead of those pins.
    #[arg(long, requires = "rvfi")]
    pub control_registers: bool,
}

/// Runs `etrace gen-verilog`.
pub fn run(args: GenVerilogArgs) -> Result<(), CliError> {
    let config = Config::from_name(&args.config).at("--config")?;
    if args.protocol.protocol == Protocol::Ntrace {
        return run_ntrace(&args, config);
    }
    args.ntrace_hardware.refuse_for_etrace(&args.ntrace)?;
    let options = args.hardware.top_options(args.fifo_depth)?;
    let mut parameters = core_parameters(config, &options);
    let design = if args.rvfi {
        let (core_traps, core_traps_name) = if args.core_traps == "timer-interrupt" {
            (CoreTraps::TimerInterrupt, "timer-interrupt")
        } else {
            (CoreTraps::IllegalInstruction, "illegal-instruction")
        };
        parameters.extend([
            ("rvfi", ParameterValue::Bool(true)),
            ("core_traps", ParameterValue::Str(core_traps_name)),
            (
                "control_registers",
                ParameterValue::Bool(args.control_registers),
            ),
        ]);
        let front_end = FrontEndOptions {
            swap_branch_itypes: false,
            core_traps,
        };
        at_option(rvfi_encoder(
            config,
            &options,
            front_end,
            args.control_registers,
        ))?
    } else {
        at_option(generate(config, &options))?
    };
    let (verilog_name, verilog_path) = check_and_write(&args, &design)?;
    let core_path = args.out.join(format!("{}.core", design.top));
    let core = etrace_hdl::fusesoc::core_file(
        &design.top,
        &verilog_name,
        &design.description,
        &parameters,
    );
    std::fs::write(&core_path, core).at(core_path.display())?;
    let base = args.out.join(&design.top);
    let files = write_params_files(config, &options, &design.description, &base)?;
    outln!("{}", verilog_path.display())?;
    outln!("{}", core_path.display())?;
    for path in files {
        outln!("{}", path.display())?;
    }
    Ok(())
}

/// The generation options of an E-Trace build as the `.core` file's parameters (issue 22,
/// item 5): those of `gen-verilog` under their option names, and `bpred_size_p` and
/// `return_stack_size_p` under their `discovery.adoc` names (with `--rvfi`, `run` adds the
/// front end's).
fn core_parameters(config: Config, options: &TopOptions) -> Vec<(&'static str, ParameterValue)> {
    let params = options.params(config);
    let framing = match options.output {
        OutputKind::Bytes => "encap",
        OutputKind::Smi => "smi",
        OutputKind::Atb { .. } => "atb",
    };
    let mut parameters = vec![
        ("framing", ParameterValue::Str(framing)),
        ("src_bits", ParameterValue::Int(u64::from(options.src_bits))),
        ("timestamp", ParameterValue::Bool(options.timestamp)),
    ];
    if let OutputKind::Atb { data_bytes } = options.output {
        parameters.push(("atb_bits", ParameterValue::Int(u64::from(data_bytes) * 8)));
    }
    parameters.extend([
        ("fifo_depth", ParameterValue::Int(options.fifo_depth as u64)),
        ("bpred_size_p", ParameterValue::Int(params.bpred_size_p)),
        (
            "return_stack_size_p",
            ParameterValue::Int(params.return_stack_size_p),
        ),
    ]);
    parameters
}

/// Checks `design` with yosys (unless `--no-check`) and writes its Verilog into the output
/// folder: the file's name and path.
fn check_and_write(
    args: &GenVerilogArgs,
    design: &etrace_hdl::top::Generated,
) -> Result<(String, std::path::PathBuf), CliError> {
    if !args.no_check {
        yosys_check(design)?;
    }
    std::fs::create_dir_all(&args.out).at(args.out.display())?;
    let verilog_name = format!("{}.v", design.top);
    let verilog_path = args.out.join(&verilog_name);
    std::fs::write(&verilog_path, &design.verilog).at(verilog_path.display())?;
    Ok((verilog_name, verilog_path))
}

/// The yosys check of a generated top (no latch, every module defined, no undriven wire).
fn yosys_check(design: &etrace_hdl::top::Generated) -> Result<(), CliError> {
    etrace_hdl::verilog::yosys_check_top(&design.top, &design.verilog).map_err(|e| match e {
        // Not a failed check: the tool is missing (usage, as `synth` without its tools).
        VerilogCheckError::Tool { .. } => {
            CliError::input(e, "yosys").with_context("--no-check skips the check")
        }
        _ => CliError::check("the generated Verilog failed the yosys check", &design.top)
            .with_context(e),
    })
}

/// `etrace gen-verilog --protocol ntrace`: the N-Trace encoder's Verilog, its FuseSoC core
/// (the generation parameters as CAPI2 parameters) and a note of how to decode its stream.
fn run_ntrace(args: &GenVerilogArgs, config: Config) -> Result<(), CliError> {
    if args.rvfi {
        return Err(CliError::input(
            "the RVFI front end is built for the E-Trace encoder only",
            "--rvfi",
        ));
    }
    let options =
        args.ntrace_hardware
            .top_options(&args.ntrace, &args.hardware, args.fifo_depth)?;
    let design = generate_ntrace(config, &options).at("gen-verilog --protocol ntrace options")?;
    let (verilog_name, verilog_path) = check_and_write(args, &design)?;
    let g = options.generator;
    let core = etrace_hdl::fusesoc::core_file(
        &design.top,
        &verilog_name,
        &design.description,
        &[
            ("ntrace_htm", ParameterValue::Int(u64::from(g.htm))),
            ("ntrace_sijump", ParameterValue::Int(u64::from(g.sijump))),
            (
                "ntrace_call_stack",
                ParameterValue::Int(g.call_stack as u64),
            ),
            (
                "ntrace_repeat_history",
                ParameterValue::Int(u64::from(g.repeat_history)),
            ),
            (
                "ntrace_sync_max",
                ParameterValue::Int(u64::from(g.sync_max)),
            ),
            (
                "ntrace_fifo_bytes",
                ParameterValue::Int(u64::from(options.fifo.bytes)),
            ),
        ],
    );
    let core_path = args.out.join(format!("{}.core", design.top));
    std::fs::write(&core_path, core).at(core_path.display())?;
    let decode_path = args.out.join(format!("{}.decode.txt", design.top));
    let decode = format!(
        "# {}\n# decode its stream with:\netrace decode TRACE --elf PROG.elf --protocol ntrace\n",
        design.description,
    );
    std::fs::write(&decode_path, decode).at(decode_path.display())?;
    for path in [&verilog_path, &core_path, &decode_path] {
        outln!("{}", path.display())?;
    }
    Ok(())
}
