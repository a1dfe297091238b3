//! The streamed output of the commands that decode a trace (`etrace decode`, `etrace
//! capture`, `docs/cli.md`): the trace elements of either protocol's decoder
//! ([`super::protocol_decoder`]) written in the format of `--format` as they are
//! produced, so that memory
//! stays bounded however long the trace is; the decode errors counted, the first
//! [`ERRORS_KEPT`] of them kept for the error message. A run of decode errors with nothing
//! decoded between them (a run of garbage, each unreadable packet of it an error) is
//! reported once, as its first error with the extent of the run: `(and N more errors
//! through packet #K @OFFSET)`.

use super::decode::DecodeFormat;
use super::element_text::{
    element_json, element_line, for_each_insn, ExpandError, OffsetUnit, SpikeRows,
};
use super::io::Output;
use crate::error::CliError;
use etrace_decoder::{DecodeCause, DecodeError, ProgramImage, TraceElement};
use std::io::Write;

/// Decode errors listed below the error line (the rest are counted).
pub const ERRORS_KEPT: usize = 20;

/// Writes trace elements as they come, in `etrace decode`'s formats.
pub enum Sink<'a> {
    /// `elements`, `pcs` or `json`: one line per element or instruction.
    Lines(DecodeFormat, OffsetUnit, &'a ProgramImage, Output),
    /// `spike-csv`.
    Spike(SpikeRows<'a, Output>),
}

impl<'a> Sink<'a> {
    /// The output of `format` (offsets of decode errors in `unit`) to `out`.
    pub fn new(
        format: DecodeFormat,
        unit: OffsetUnit,
        image: &'a ProgramImage,
        out: Output,
    ) -> std::io::Result<Self> {
        Ok(match format {
            DecodeFormat::SpikeCsv => Sink::Spike(SpikeRows::new(image, out)?),
            other => Sink::Lines(other, unit, image, out),
        })
    }

    fn element(&mut self, e: &TraceElement) -> Result<(), ExpandError> {
        match self {
            Sink::Spike(rows) => rows.element(e),
            Sink::Lines(DecodeFormat::Json, _, _, out) => Ok(writeln!(out, "{}", element_json(e))?),
            Sink::Lines(DecodeFormat::Pcs, _, image, out) => match e {
                TraceElement::Range { first, count, .. } => {
                    for_each_insn(image, *first, *count, |pc| writeln!(out, "{pc:#x}"))
                }
                _ => Ok(()),
            },
            Sink::Lines(_, unit, _, out) => Ok(writeln!(out, "{}", element_line(e, *unit))?),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Lines(_, _, _, out) => out.flush(),
            // Rows are held back until the next element says whether they trapped.
            Sink::Spike(_) => Ok(()),
        }
    }

    /// Writes what is held back and flushes; the output, to be finished.
    pub fn finish(self) -> std::io::Result<Output> {
        match self {
            Sink::Lines(_, _, _, mut out) => out.flush().map(|()| out),
            Sink::Spike(rows) => rows.finish(),
        }
    }
}

/// The output side of decoding: trace elements -> output, with the error counts of a
/// progress line and of the final message.
pub struct Decoding<'a> {
    /// Where the elements go.
    pub sink: Sink<'a>,
    /// The output's name, for error places.
    pub out_name: String,
    /// The offset unit of `decode-error` lines.
    pub unit: OffsetUnit,
    /// Decode errors seen.
    pub error_count: u64,
    /// The first [`ERRORS_KEPT`] `decode-error` lines (as `etrace decode` lists them).
    pub errors: Vec<String>,
    /// The output stopped at an address outside the programs (as `etrace decode`).
    pub output_stopped: bool,
    /// The run of decode errors being gathered: its first error, and the last one when
    /// there are more.
    run: Option<ErrorRun>,
    /// The bound of instructions per packet, once a walk was cut at it.
    walk_bound_hit: Option<u64>,
}

/// A run of decode errors with nothing decoded between them.
struct ErrorRun {
    first: TraceElement,
    more: u64,
    last: Option<TraceElement>,
}

impl ErrorRun {
    /// The extent of the run after its first error, as the suffix of its line.
    fn extent(&self, unit: OffsetUnit) -> String {
        match &self.last {
            Some(last) => {
                let line = element_line(last, unit);
                let place = line
                    .strip_prefix("decode-error ")
                    .and_then(|l| l.split(':').next())
                    .unwrap_or("?");
                format!(" (and {} more errors through {place})", self.more)
            }
            None => String::new(),
        }
    }
}

impl<'a> Decoding<'a> {
    /// Decoded elements into `sink` (named `out_name`; decode errors' offsets in `unit`).
    pub fn new(sink: Sink<'a>, out_name: String, unit: OffsetUnit) -> Self {
        Decoding {
            sink,
            out_name,
            unit,
            error_count: 0,
            errors: Vec::new(),
            output_stopped: false,
            run: None,
            walk_bound_hit: None,
        }
    }

    /// Writes the next elements (`last`: they end the trace, a run of errors among them
    /// is reported now).
    pub fn write(&mut self, elements: &[TraceElement], last: bool) -> Result<(), CliError> {
        for e in elements {
            if matches!(e, TraceElement::DecodeError { .. }) {
                let e = e.clone();
                match &mut self.run {
                    Some(run) => {
                        run.more += 1;
                        run.last = Some(e);
                    }
                    None => {
                        self.run = Some(ErrorRun {
                            first: e,
                            more: 0,
                            last: None,
                        })
                    }
                }
                continue;
            }
            self.end_run()?;
            self.element(e)?;
        }
        if last {
            self.end_run()?;
        }
        self.sink
            .flush()
            .map_err(|e| CliError::input(e, &self.out_name))
    }

    /// Reports the run of decode errors gathered, if any.
    fn end_run(&mut self) -> Result<(), CliError> {
        let Some(run) = self.run.take() else {
            return Ok(());
        };
        let extent = run.extent(self.unit);
        if let Some(DecodeError {
            cause: DecodeCause::NotReached { within, .. },
            ..
        }) = run.first.decode_error()
        {
            self.walk_bound_hit = Some(*within);
        }
        self.error(format!("{}{extent}", element_line(&run.first, self.unit)));
        if self.output_stopped {
            return Ok(());
        }
        match &mut self.sink {
            Sink::Lines(DecodeFormat::Elements, unit, _, out) => {
                writeln!(out, "{}{extent}", element_line(&run.first, *unit))
            }
            Sink::Lines(DecodeFormat::Json, _, _, out) => {
                let mut value = element_json(&run.first);
                if let Some(last) = run.last.as_ref().and_then(TraceElement::decode_error) {
                    value["more_errors"] = run.more.into();
                    value["through_packet"] = last.packet_index.into();
                }
                writeln!(out, "{value}")
            }
            _ => Ok(()),
        }
        .map_err(|err| CliError::input(err, &self.out_name))
    }

    /// Writes one element that is not a decode error.
    fn element(&mut self, e: &TraceElement) -> Result<(), CliError> {
        if self.output_stopped {
            return Ok(());
        }
        match self.sink.element(e) {
            Ok(()) => Ok(()),
            Err(ExpandError::Io(err)) => Err(CliError::input(err, &self.out_name)),
            Err(ExpandError::NotInImage(a)) => {
                self.error(format!(
                    "decode-error: no instruction in the programs at {a:#x}"
                ));
                self.output_stopped = true;
                Ok(())
            }
        }
    }

    fn error(&mut self, line: String) {
        self.error_count += 1;
        if self.errors.len() < ERRORS_KEPT {
            self.errors.push(line);
        }
    }

    /// Finishes the output (a file is renamed into place, [`Output::finish`]); the failed
    /// check of the decode errors, if there were any (`place` the trace's name).
    pub fn finish(mut self, place: &str) -> Result<(), CliError> {
        self.end_run()?;
        self.sink
            .finish()
            .map_err(|e| CliError::input(e, &self.out_name))?
            .finish()?;
        let checked = check_errors(self.error_count, &self.errors, place);
        match self.walk_bound_hit {
            Some(within) => checked.map_err(|e| {
                e.with_context(format!(
                    "a walk not reached within {within} instructions may be a sound packet: a \
                     loop that runs longer with every branch predicted is one format 0 packet \
                     (--max-walk raises the bound)"
                ))
            }),
            None => checked,
        }
    }
}

/// The failed check of `count` decode errors (the first of them `lines`), if any.
pub fn check_errors(count: u64, lines: &[String], place: &str) -> Result<(), CliError> {
    if count == 0 {
        return Ok(());
    }
    let mut err = CliError::check(format!("{count} decode errors"), place);
    for line in lines {
        err = err.with_context(line);
    }
    if count > lines.len() as u64 {
        err = err.with_context(format!("... and {} more", count - lines.len() as u64));
    }
    Err(err)
}
