//! The hardware generation options of every command that builds the encoder hardware
//! (`gen-verilog`, `cosim`, `synth`; `docs/cli.md`, "Hardware generation options"): the
//! output framing, the width of its source field, timestamps, the ATDATA width and the
//! sizes of the branch predictor (`bpred_size_p`) and the return stack
//! (`return_stack_size_p`), turned into the generator's
//! `etrace_hdl::top::TopOptions`; and the parameter files written beside the hardware's
//! Verilog or output, which say how to decode its stream.

use std::path::{Path, PathBuf};

use clap::Args;
use etrace_hdl::config::Config;
use etrace_hdl::rvfi::soc::SocEncoderOptions;
use etrace_hdl::top::{OutputKind, TopError, TopOptions};
use etrace_spec::formats::params_out::{params_static_config, params_toml};
use etrace_spec::framing::FramingKind;

use crate::error::{CliError, InputContext};

/// The option a generator error `e` is about (`docs/cli.md`, "Hardware generation
/// options"), the place an error message names.
pub fn top_error_option(e: &TopError) -> &'static str {
    match e {
        TopError::FifoDepth(_) => "--fifo-depth",
        TopError::AtbWidth(_) => "--atb-bits",
        TopError::SrcBits(_) | TopError::ControlSrcBits(_) => "--src-bits",
        TopError::BpredSize(_) => "--bpred-size",
        TopError::ReturnStackSize(_) => "--return-stack-size",
        TopError::RvfiConfig(_) => "--config",
    }
}

/// A generator result with its error, if any, placed at the option it is about
/// ([`top_error_option`]).
pub fn at_option<T>(result: Result<T, TopError>) -> Result<T, CliError> {
    result.map_err(|e| {
        let place = top_error_option(&e);
        CliError::input(e, place)
    })
}

/// The ATDATA widths of the ATB output, in bits (`--atb-bits`).
const ATB_BITS: [u32; 5] = [8, 16, 32, 64, 128];

/// Hardware generation options, named as the framing options of the software encoder.
#[derive(Args, Debug, Clone)]
pub struct HardwareArgs {
    /// Output of the encoder: encap or smi (byte stream with valid / ready), or atb.
    #[arg(long, value_name = "encap|smi|atb", default_value = "encap")]
    pub framing: FramingKind,
    /// Width of the encap `srcID` field or of the smi index in bits (0-16; 0 for atb).
    #[arg(long, value_name = "B", default_value_t = 0)]
    pub src_bits: u8,
    /// Add a 2-byte timestamp (free-running cycle counter: the cycle the packet is
    /// produced in) to every packet.
    #[arg(long)]
    pub timestamp: bool,
    /// ATDATA width in bits for atb (8, 16, 32, 64 or 128).
    #[arg(long, value_name = "BITS", default_value_t = 32)]
    pub atb_bits: u32,
    /// `bpred_size_p`: a branch predictor of 2^N entries for the run-time option
    /// `--branch-prediction` (0: none; at most 8).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub bpred_size: u8,
    /// `return_stack_size_p`: a return stack of 2^N entries for the run-time option
    /// `--implicit-return` (0: none; at most 3).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub return_stack_size: u8,
}

impl HardwareArgs {
    /// The generator's options with a byte FIFO of `fifo_depth` bytes (the generator
    /// checks the combination).
    pub fn top_options(&self, fifo_depth: usize) -> Result<TopOptions, CliError> {
        let output = match self.framing {
            FramingKind::Encap => OutputKind::Bytes,
            FramingKind::Smi => OutputKind::Smi,
            FramingKind::Atb if ATB_BITS.contains(&self.atb_bits) => OutputKind::Atb {
                data_bytes: self.atb_bits / 8,
            },
            FramingKind::Atb => {
                return Err(CliError::input(
                    format!(
                        "ATDATA width of {} bits is not supported (8, 16, 32, 64 or 128)",
                        self.atb_bits
                    ),
                    "--atb-bits",
                ))
            }
        };
        Ok(TopOptions {
            src_bits: self.src_bits,
            timestamp: self.timestamp,
            fifo_depth,
            output,
            bpred_size: self.bpred_size,
            return_stack_size: self.return_stack_size,
            inject_fault: None,
        })
    }
}

/// The predictor and return stack sizes as on the command line (nothing for none).
pub fn sizes_text(bpred_size: u8, return_stack_size: u8) -> String {
    let mut text = String::new();
    if bpred_size > 0 {
        text.push_str(&format!(" --bpred-size {bpred_size}"));
    }
    if return_stack_size > 0 {
        text.push_str(&format!(" --return-stack-size {return_stack_size}"));
    }
    text
}

/// A SoC encoder's generation options as on the command line (nothing for the default
/// build).
pub fn soc_options_text(encoder: SocEncoderOptions) -> String {
    let mut text = sizes_text(encoder.bpred_size, encoder.return_stack_size);
    if encoder.src_bits > 0 {
        text.push_str(&format!(" --src-bits {}", encoder.src_bits));
    }
    if encoder.timestamp {
        text.push_str(" --timestamp");
    }
    text
}

/// Generation options as they are written on the command line (for messages and the
/// parameter files' decoding hint).
pub fn options_text(options: &TopOptions) -> String {
    let framing = match options.output {
        OutputKind::Bytes => FramingKind::Encap,
        OutputKind::Smi => FramingKind::Smi,
        OutputKind::Atb { .. } => FramingKind::Atb,
    };
    let mut text = format!("--framing {framing} --src-bits {}", options.src_bits);
    if options.timestamp {
        text.push_str(" --timestamp");
    }
    if let OutputKind::Atb { data_bytes } = options.output {
        text.push_str(&format!(" --atb-bits {}", data_bytes * 8));
    }
    text
}

/// Writes the parameters of the hardware `config` built with `options` beside `base`
/// (`docs/cli.md`, "gen-verilog"): `<base>.params.toml` (TOML with the `discovery.adoc`
/// names) and `<base>.params.scf` (the reference flow's `name=value` static config), each
/// headed by `description` and the options a decoder of its stream needs. Returns the two
/// paths.
pub fn write_params_files(
    config: Config,
    options: &TopOptions,
    description: &str,
    base: &Path,
) -> Result<[PathBuf; 2], CliError> {
    let decode = format!(
        "decode its stream with: etrace decode TRACE --elf PROG.elf --params <this file> {}",
        options_text(options)
    );
    let header = [description, decode.as_str()];
    let params = options.params(config);
    let files = [
        ("params.toml", params_toml(&params, &header)),
        ("params.scf", params_static_config(&params, &header)),
    ];
    let mut paths = files.clone().map(|(ext, _)| {
        let mut name = base.as_os_str().to_os_string();
        name.push(format!(".{ext}"));
        PathBuf::from(name)
    });
    for ((_, text), path) in files.iter().zip(&mut paths) {
        std::fs::write(&*path, text).at(path.display())?;
    }
    Ok(paths)
}

/// A clock frequency in MHz (`--freq`): finite, above 0, at most 1000.
pub fn frequency_mhz(mhz: f64) -> Result<f64, CliError> {
    if mhz.is_finite() && mhz > 0.0 && mhz <= 1000.0 {
        Ok(mhz)
    } else {
        Err(CliError::input(
            format!("frequency {mhz} MHz is out of range (0-1000)"),
            "--freq",
        ))
    }
}
