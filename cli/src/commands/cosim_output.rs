//! What `etrace cosim` does with the RTL's output as it comes (issue 27, "streaming
//! everywhere"): the bytes or ATB beats the consumer took, batch by batch, are written to
//! `-o` as `etrace encode -o` writes the framing, deframed as the model's decoder deframes
//! them, and decoded and checked against the hart's steps ([`StreamCheck`]); nothing is
//! kept.

use std::io::Write;
use std::path::{Path, PathBuf};

use etrace_decoder::pcs::Step;
use etrace_decoder::stream::{PayloadEvent, PayloadStream};
use etrace_encoder::cycle::output_path::{OutputPathConfig, OutputPort};
use etrace_spec::framing::atb::{AtbConfig, AtbStream};
use etrace_spec::framing::Deframer;
use etrace_tb::cosim::stream_check::StreamCheck;
use etrace_tb::cosim::TakenItems;

use crate::error::{CliError, InputContext};

/// ATB's configuration of the RTL's output (beats of one byte for a byte stream).
fn atb_config(output: &OutputPathConfig) -> AtbConfig {
    let data_bytes = match output.port {
        OutputPort::Atb { data_bytes, .. } => data_bytes,
        OutputPort::ByteStream => 1,
    };
    AtbConfig {
        data_bytes,
        encap: output.encap(),
    }
}

/// The RTL's output written as `etrace encode -o` writes its framing, as it comes: the
/// bytes, or the beat listing (`docs/cli.md`, "File formats").
pub(super) struct TraceFile {
    path: PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    atb: AtbConfig,
    /// The first write error.
    error: Option<std::io::Error>,
}

impl TraceFile {
    /// Creates the file at `path` for the output `output`.
    pub(super) fn create(path: &Path, output: &OutputPathConfig) -> Result<TraceFile, CliError> {
        let file = std::fs::File::create(path).at(path.display())?;
        Ok(TraceFile {
            path: path.to_path_buf(),
            out: std::io::BufWriter::new(file),
            atb: atb_config(output),
            error: None,
        })
    }

    /// Writes the next items (the first write error is kept for [`TraceFile::finish`]).
    pub(super) fn write(&mut self, items: TakenItems<'_>) {
        if self.error.is_some() {
            return;
        }
        let written = match items {
            TakenItems::Bytes(bytes) => self.out.write_all(bytes),
            TakenItems::Beats(beats) => beats
                .iter()
                .try_for_each(|b| writeln!(self.out, "{}", self.atb.format_beat(b))),
        };
        self.error = written.err();
    }

    /// Flushes the file; the first write error, naming the file.
    pub(super) fn finish(mut self) -> Result<(), CliError> {
        let flushed = self.out.flush();
        match self.error.take().map_or(flushed, Err) {
            Ok(()) => Ok(()),
            Err(e) => Err(e).at(self.path.display()),
        }
    }
}

/// The RTL's output deframed as it comes (as the model's decoder deframes it).
pub(super) enum Deframe {
    /// A byte stream (encap, smi).
    Bytes(PayloadStream),
    /// ATB beats.
    Beats(AtbStream),
    /// The output path's framing cannot be made: one error event.
    Failed(Option<String>),
}

impl Deframe {
    /// The deframer of `output`'s framing.
    pub(super) fn new(output: &OutputPathConfig) -> Deframe {
        match output.port {
            OutputPort::Atb { .. } => Deframe::Beats(AtbStream::new(atb_config(output), true)),
            OutputPort::ByteStream => match output.framing_config() {
                Ok(framing) => Deframe::Bytes(PayloadStream::new(&framing, true)),
                Err(e) => Deframe::Failed(Some(e.to_string())),
            },
        }
    }

    /// The payload events the next items complete.
    pub(super) fn push(&mut self, items: TakenItems<'_>) -> Vec<PayloadEvent> {
        match (self, items) {
            (Deframe::Bytes(stream), TakenItems::Bytes(bytes)) => stream.push(bytes),
            (Deframe::Beats(stream), TakenItems::Beats(beats)) => {
                let mut events = Vec::new();
                for beat in beats {
                    stream.push_beat(*beat, &mut events);
                }
                events.into_iter().map(PayloadEvent::from).collect()
            }
            (Deframe::Failed(reason), _) => failed(reason),
            _ => Vec::new(),
        }
    }

    /// The end of the output: the remaining events.
    pub(super) fn finish(&mut self) -> Vec<PayloadEvent> {
        match self {
            Deframe::Bytes(stream) => stream.finish(),
            Deframe::Beats(stream) => {
                let mut events = Vec::new();
                stream.finish(&mut events);
                events.into_iter().map(PayloadEvent::from).collect()
            }
            Deframe::Failed(reason) => failed(reason),
        }
    }
}

/// The error event of a framing that cannot be made, once.
fn failed(reason: &mut Option<String>) -> Vec<PayloadEvent> {
    reason
        .take()
        .map(|reason| PayloadEvent::Error {
            offset: None,
            reason,
        })
        .into_iter()
        .collect()
}

/// What happens to the RTL's output as it comes: written to `-o`, deframed, and decoded
/// and checked against the hart's steps (for a program).
pub(super) struct Consumer<'p, S> {
    /// `-o`.
    pub(super) file: Option<TraceFile>,
    /// The deframer of the RTL's framing.
    pub(super) deframe: Deframe,
    /// The decode check of a program.
    pub(super) check: Option<StreamCheck<'p, S>>,
}

impl<S: Iterator<Item = Step>> Consumer<'_, S> {
    /// The items the consumer took in the next batch of cycles.
    pub(super) fn take(&mut self, items: TakenItems<'_>) {
        if let Some(file) = &mut self.file {
            file.write(items);
        }
        if let Some(check) = &mut self.check {
            let events = self.deframe.push(items);
            check.push(&events);
        }
    }
}
