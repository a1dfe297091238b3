//! File helpers shared by the sub-commands: output files (written whole or not at all),
//! standard output (a failed write is an error, not a panic), parameter files, ELF files
//! (read whole, up to a size limit) and streamed inputs (read in pieces).

use crate::error::{CliError, InputContext};
use etrace_decoder::ProgramImage;
use etrace_spec::formats::limited::{read_limited, ELF_MAX_BYTES};
use etrace_spec::formats::params_file::load_params as load_params_file;
use etrace_spec::isa::Xlen;
use etrace_spec::params::Params;
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The place of errors writing standard output.
pub const STANDARD_OUTPUT: &str = "standard output";

/// Writes `text` to standard output and flushes it: a failed write (a full disk) is bad
/// input at `(standard output)` (exit 2), not the panic of `print!`.
pub fn write_stdout(text: fmt::Arguments) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(text)
        .and_then(|()| out.flush())
        .at(STANDARD_OUTPUT)
}

/// `println!` for a command's results, through [`write_stdout`]: evaluates to
/// `Result<(), CliError>`.
macro_rules! outln {
    () => {
        $crate::commands::io::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::commands::io::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use outln;

/// Creates the folder of an output file `path` if it does not exist.
pub fn create_folder_of(path: &Path) -> Result<(), CliError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).at(dir.display())?;
    }
    Ok(())
}

/// Creates an output file (and its folder) that appears whole or not at all
/// ([`PartFile`]): finished with [`PartFile::finish`], an existing file at `path` is
/// replaced only by a run that completed.
pub fn create_output(path: &Path) -> Result<PartFile, CliError> {
    create_folder_of(path)?;
    PartFile::create(path)
}

/// An output file that appears whole or not at all: a regular file (or a new path) is
/// written as `NAME.part` beside it and renamed to `NAME` by [`PartFile::finish`]; dropped
/// without it (a failed run), the `.part` file is removed, so that an existing file is
/// never truncated or removed by a failed or interrupted run. Anything else that exists at
/// the path (a device such as `/dev/null`, a FIFO) is written directly and never removed.
pub struct PartFile {
    path: PathBuf,
    /// The `.part` file written instead of `path`, until it is renamed.
    part: Option<PathBuf>,
    out: BufWriter<File>,
}

/// `NAME.part`: the file written in place of `path` (in its folder) until the run ends.
fn part_path(path: &Path) -> Result<PathBuf, CliError> {
    let Some(name) = path.file_name() else {
        return Err(CliError::input("not a file name", path.display()));
    };
    let mut part = name.to_os_string();
    part.push(".part");
    Ok(path.with_file_name(part))
}

impl PartFile {
    /// Creates the file for the output `path` (in a folder that exists), buffered.
    pub fn create(path: &Path) -> Result<PartFile, CliError> {
        let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file());
        let part = if special {
            None
        } else {
            Some(part_path(path)?)
        };
        let target = part.as_deref().unwrap_or(path);
        let file = File::create(target).at(target.display())?;
        Ok(PartFile {
            path: path.to_path_buf(),
            part,
            // A small buffer: a write error (a full disk) shows at once and stops a long
            // run early.
            out: BufWriter::new(file),
        })
    }

    /// The file being written (`NAME.part` until [`PartFile::finish`]), for error places.
    pub fn written(&self) -> &Path {
        self.part.as_deref().unwrap_or(&self.path)
    }

    /// Flushes the file and renames `NAME.part` to `NAME`; on an error the `.part` file is
    /// removed and `NAME` left as it was.
    pub fn finish(mut self) -> Result<(), CliError> {
        self.out.flush().at(self.written().display())?;
        if let Some(part) = self.part.take() {
            if let Err(e) = std::fs::rename(&part, &self.path) {
                let _ = std::fs::remove_file(&part);
                return Err(e).at(self.path.display());
            }
        }
        Ok(())
    }
}

impl Write for PartFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl Drop for PartFile {
    /// A run that did not finish: its `.part` file is removed (`NAME` is left as it was).
    fn drop(&mut self) {
        if let Some(part) = self.part.take() {
            let _ = std::fs::remove_file(part);
        }
    }
}

/// The output of `-o OUT` ([`create_output`]: whole or not at all), or standard output
/// (buffered) without it.
pub enum Output {
    /// `-o OUT`.
    File(PartFile),
    /// No `-o`.
    Stdout(BufWriter<std::io::Stdout>),
}

impl Output {
    /// The file of `path` (and its folder), or standard output without one.
    pub fn open(path: Option<&Path>) -> Result<Output, CliError> {
        Ok(match path {
            Some(p) => Output::File(create_output(p)?),
            None => Output::Stdout(BufWriter::new(std::io::stdout())),
        })
    }

    /// The output's name, for error places.
    pub fn name(&self) -> String {
        match self {
            Output::File(f) => f.path.display().to_string(),
            Output::Stdout(_) => STANDARD_OUTPUT.to_string(),
        }
    }

    /// Flushes the output; a file is then renamed into place ([`PartFile::finish`]).
    pub fn finish(self) -> Result<(), CliError> {
        match self {
            Output::File(f) => f.finish(),
            Output::Stdout(mut out) => out.flush().at(STANDARD_OUTPUT),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::File(f) => f.write(buf),
            Output::Stdout(out) => out.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Output::File(f) => f.write_all(buf),
            Output::Stdout(out) => out.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::File(f) => f.flush(),
            Output::Stdout(out) => out.flush(),
        }
    }
}

/// Finishes an output file taken back from a writer (flushed, renamed into place): the
/// writer's error, or [`PartFile::finish`]'s.
pub fn finish_output(inner: std::io::Result<PartFile>, path: &Path) -> Result<(), CliError> {
    inner.at(path.display())?.finish()
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
