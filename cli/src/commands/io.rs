//! File helpers shared by the sub-commands: output files, parameter files.

use crate::error::{CliError, InputContext};
use etrace_decoder::ProgramImage;
use etrace_spec::formats::params_file::load_params as load_params_file;
use etrace_spec::isa::Xlen;
use etrace_spec::params::Params;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Creates an output file (and its folder), buffered.
pub fn create_output(path: &Path) -> Result<BufWriter<File>, CliError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).at(dir.display())?;
    }
    Ok(BufWriter::with_capacity(
        1 << 20,
        File::create(path).at(path.display())?,
    ))
}

/// The output of `-o OUT`, or standard output (buffered) without it; with its name for
/// error places.
pub fn output_or_stdout(path: Option<&Path>) -> Result<(String, Box<dyn Write>), CliError> {
    Ok(match path {
        Some(p) => (p.display().to_string(), Box::new(create_output(p)?)),
        None => (
            "standard output".to_string(),
            Box::new(std::io::BufWriter::new(std::io::stdout())),
        ),
    })
}

/// Flushes an output file taken back from a writer.
pub fn finish_output(inner: std::io::Result<BufWriter<File>>, path: &Path) -> Result<(), CliError> {
    inner.and_then(|mut f| f.flush()).at(path.display())
}

/// The parameters of `--params`, or the defaults of the XLEN of the programs in `image`.
pub fn load_params_for(path: Option<&Path>, image: &ProgramImage) -> Result<Params, CliError> {
    let xlen = if image.xlen() == Some(Xlen::X32) {
        32
    } else {
        64
    };
    load_params(path, xlen)
}

/// The parameters of `--params`, or the defaults for an `xlen`-bit hart.
pub fn load_params(path: Option<&Path>, xlen: u32) -> Result<Params, CliError> {
    let base = if xlen == 32 {
        Params::rv32()
    } else {
        Params::rv64()
    };
    match path {
        Some(p) => load_params_file(p, base).map_err(|e| CliError::input(e, p.display())),
        None => Ok(base),
    }
}
