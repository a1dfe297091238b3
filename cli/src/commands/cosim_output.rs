//! What `etrace cosim` does with the RTL's output as it comes (issue 27, "streaming
//! everywhere"): the bytes or ATB beats the consumer took, batch by batch, are written to
//! `-o` as `etrace encode -o` writes the framing, deframed as the model's decoder deframes
//! them, and decoded and checked against the hart's steps ([`StreamCheck`]); nothing is
//! kept.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;

use etrace_decoder::pcs::Step;
use etrace_encoder::cycle::output_path::OutputPathConfig;
use etrace_spec::framing::atb::AtbConfig;
use etrace_tb::cosim::deframe::atb_config;
use etrace_tb::cosim::stream_check::StreamCheck;
use etrace_tb::cosim::{TakenDeframer, TakenItems};

use super::io::PartFile;
use crate::error::{CliError, InputContext};

/// The RTL's output written as `etrace encode -o` writes its framing, as it comes: the
/// bytes, or the beat listing (`docs/cli.md`, "File formats"). The file appears whole or
/// not at all ([`PartFile`]): an existing `TRACE` is never truncated or removed by a
/// failed or interrupted run.
pub(super) struct TraceFile {
    file: PartFile,
    atb: AtbConfig,
    /// The first write error.
    error: Option<std::io::Error>,
}

impl TraceFile {
    /// Creates the file for the output `output` at `path`.
    pub(super) fn create(path: &Path, output: &OutputPathConfig) -> Result<TraceFile, CliError> {
        Ok(TraceFile {
            file: PartFile::create(path)?,
            atb: atb_config(output),
            error: None,
        })
    }

    /// Writes the next items (the first write error is kept for [`TraceFile::finish`]);
    /// whether the file can take more (not after a write error).
    pub(super) fn write(&mut self, items: TakenItems<'_>) -> ControlFlow<()> {
        if self.error.is_none() {
            let written = match items {
                TakenItems::Bytes(bytes) => self.file.write_all(bytes),
                TakenItems::Beats(beats) => beats
                    .iter()
                    .try_for_each(|b| writeln!(self.file, "{}", self.atb.format_beat(b))),
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
        if let Some(e) = self.error.take() {
            return Err(e).at(self.file.written().display());
        }
        self.file.finish()
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
