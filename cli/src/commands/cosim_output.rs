//! What `etrace cosim` does with the RTL's output as it comes (issue 27, "streaming
//! everywhere"): the bytes or ATB beats the consumer took, batch by batch, are written to
//! `-o` as `etrace encode -o` writes the framing, deframed as the model's decoder deframes
//! them, and decoded and checked against the hart's steps ([`StreamCheck`]); nothing is
//! kept.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use etrace_decoder::pcs::Step;
use etrace_encoder::cycle::output_path::OutputPathConfig;
use etrace_spec::framing::atb::AtbConfig;
use etrace_tb::cosim::deframe::atb_config;
use etrace_tb::cosim::stream_check::StreamCheck;
use etrace_tb::cosim::{TakenDeframer, TakenItems};

use crate::error::{CliError, InputContext};

/// The RTL's output written as `etrace encode -o` writes its framing, as it comes: the
/// bytes, or the beat listing (`docs/cli.md`, "File formats").
///
/// A regular file (or a new path) is written as `TRACE.part` beside it and renamed to
/// `TRACE` by [`TraceFile::finish`]; dropped without it (a failed run), the `.part` file is
/// removed, so that an existing `TRACE` is never truncated or removed by a failed or
/// interrupted run. Anything else that exists at the path (a device such as `/dev/null`,
/// a FIFO) is written directly and never removed.
pub(super) struct TraceFile {
    path: PathBuf,
    /// The `.part` file written instead of `path`, until it is renamed.
    part: Option<PathBuf>,
    out: std::io::BufWriter<std::fs::File>,
    atb: AtbConfig,
    /// The first write error.
    error: Option<std::io::Error>,
}

/// `TRACE.part`: the file written in place of `path` (in its directory) until the run ends.
fn part_path(path: &Path) -> Result<PathBuf, CliError> {
    let Some(name) = path.file_name() else {
        return Err(CliError::input("not a file name", path.display()));
    };
    let mut part = name.to_os_string();
    part.push(".part");
    Ok(path.with_file_name(part))
}

impl TraceFile {
    /// Creates the file for the output `output` at `path` (through `TRACE.part` for a
    /// regular file or a new path).
    pub(super) fn create(path: &Path, output: &OutputPathConfig) -> Result<TraceFile, CliError> {
        let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file());
        let part = if special {
            None
        } else {
            Some(part_path(path)?)
        };
        let target = part.as_deref().unwrap_or(path);
        let file = std::fs::File::create(target).at(target.display())?;
        Ok(TraceFile {
            path: path.to_path_buf(),
            part,
            out: std::io::BufWriter::new(file),
            atb: atb_config(output),
            error: None,
        })
    }

    /// Writes the next items (the first write error is kept for [`TraceFile::finish`]);
    /// whether the file can take more (not after a write error).
    pub(super) fn write(&mut self, items: TakenItems<'_>) -> ControlFlow<()> {
        if self.error.is_none() {
            let written = match items {
                TakenItems::Bytes(bytes) => self.out.write_all(bytes),
                TakenItems::Beats(beats) => beats
                    .iter()
                    .try_for_each(|b| writeln!(self.out, "{}", self.atb.format_beat(b))),
            };
            self.error = written.err();
        }
        match self.error {
            Some(_) => ControlFlow::Break(()),
            None => ControlFlow::Continue(()),
        }
    }

    /// The write error of `file` (through [`TraceFile::finish`], naming the file), if the
    /// run stopped because `file` could not be written.
    pub(super) fn stop_error(file: Option<TraceFile>) -> Option<CliError> {
        file.map(TraceFile::finish).and_then(Result::err)
    }

    /// Flushes the file and renames `TRACE.part` to `TRACE`; the first write error, naming
    /// the file (the `.part` file is then removed).
    pub(super) fn finish(mut self) -> Result<(), CliError> {
        let flushed = self.out.flush();
        if let Err(e) = self.error.take().map_or(flushed, Err) {
            let written = self.part.as_deref().unwrap_or(&self.path);
            return Err(e).at(written.display());
        }
        if let Some(part) = self.part.take() {
            if let Err(e) = std::fs::rename(&part, &self.path) {
                let _ = std::fs::remove_file(&part);
                return Err(e).at(self.path.display());
            }
        }
        Ok(())
    }
}

impl Drop for TraceFile {
    /// A run that did not finish: its `.part` file is removed (`TRACE` is left as it was).
    fn drop(&mut self) {
        if let Some(part) = self.part.take() {
            let _ = std::fs::remove_file(part);
        }
    }
}

/// What happens to the RTL's output as it comes: written to `-o`, deframed, and decoded
/// and checked against the hart's steps (for a program).
pub(super) struct Consumer<'p, S> {
    /// `-o`.
    pub(super) file: Option<TraceFile>,
    /// The deframer of the RTL's framing.
    pub(super) deframe: TakenDeframer,
    /// The decode check of a program.
    pub(super) check: Option<StreamCheck<'p, S>>,
}

impl<S: Iterator<Item = Step>> Consumer<'_, S> {
    /// The items the consumer took in the next batch of cycles; a break once `-o` cannot
    /// be written (the run stops there: [`TraceFile::finish`] names the error).
    pub(super) fn take(&mut self, items: TakenItems<'_>) -> ControlFlow<()> {
        if let Some(file) = &mut self.file {
            file.write(items)?;
        }
        if let Some(check) = &mut self.check {
            let events = self.deframe.push(items);
            check.push(&events);
        }
        ControlFlow::Continue(())
    }
}
