//! File helpers shared by the sub-commands: output files, parameter files, ELF files (read
//! whole, up to a size limit) and streamed inputs (read in pieces).

use crate::error::{CliError, InputContext};
use etrace_decoder::ProgramImage;
use etrace_spec::formats::limited::{read_limited, ELF_MAX_BYTES};
use etrace_spec::formats::params_file::load_params as load_params_file;
use etrace_spec::isa::Xlen;
use etrace_spec::params::Params;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

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

/// The parameters a decoding command takes: those of `--params`, or without a file the
/// defaults for the image's XLEN with the return stack and predictor sizes that
/// `--implicit-return` and `--branch-prediction` get on `encode` and `run` without one, so
/// that a stream encoded with those options and no file decodes with no file. (The sizes
/// only act when the trace's support packet enables the options.)
pub fn decoder_params_for(path: Option<&Path>, image: &ProgramImage) -> Result<Params, CliError> {
    let params = load_params_for(path, image)?;
    Ok(match path {
        Some(_) => params,
        None => super::encoder_args::with_default_sizes(params, true, true),
    })
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

/// The bytes of an ELF file (refused past [`ELF_MAX_BYTES`], so that a device that never
/// ends does not fill memory).
pub fn read_elf(path: &Path) -> Result<Vec<u8>, CliError> {
    read_limited(path, ELF_MAX_BYTES).at(path.display())
}

/// Size of the pieces a streamed input is read in.
const PIECE_BYTES: usize = 1 << 16;

/// Reads the file at `path` in pieces, handing each to `piece`, so that memory stays
/// bounded however long the input is; returns the number of bytes read. An empty file is
/// an error: a trace with nothing in it cannot be what was meant.
pub fn read_pieces(
    path: &Path,
    mut piece: impl FnMut(&[u8]) -> Result<(), CliError>,
) -> Result<u64, CliError> {
    let mut file = File::open(path).at(path.display())?;
    let mut buf = vec![0u8; PIECE_BYTES];
    let mut total = 0u64;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(CliError::input(e, path.display())),
        };
        total += n as u64;
        piece(&buf[..n])?;
    }
    if total == 0 {
        return Err(CliError::input("empty trace: no bytes", path.display()));
    }
    Ok(total)
}

/// The optional output files that were given, with their option names (for
/// [`check_distinct`]).
pub fn given_paths<'a>(
    options: &[(&'static str, &'a Option<PathBuf>)],
) -> Vec<(&'static str, &'a Path)> {
    options
        .iter()
        .filter_map(|&(name, path)| path.as_deref().map(|p| (name, p)))
        .collect()
}

/// Refuses to write an output over an input or over another output: each of `outputs`
/// (option name, path) must be a file other than every input and every earlier output
/// (compared after resolving links; standard output is not a path and never clashes).
pub fn check_distinct(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<(), CliError> {
    for (i, (name, out)) in outputs.iter().enumerate() {
        let others = inputs.iter().chain(&outputs[..i]);
        if let Some((other, _)) = others.into_iter().find(|(_, p)| same_file(out, p)) {
            return Err(CliError::input(
                format!(
                    "{} is also {other}: refusing to overwrite it",
                    out.display()
                ),
                name,
            ));
        }
    }
    Ok(())
}

/// True when `a` and `b` name the same file (both resolved when they exist).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
