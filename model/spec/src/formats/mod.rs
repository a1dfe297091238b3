//! The reference flow's files (E-Trace spec repository, `referenceFlow/`): the spike
//! instruction-trace CSV (and spike's own commit log, [`spike_log`]), the encoder-input CSV (the `ingressPort.adoc` signals, one line
//! per cycle), parameter files with the names of `discovery.adoc`, and the conversion of
//! spike rows into ingress records that the post-ISS step performs.

pub mod convert;
pub mod encoder_input;
pub mod error;
pub mod limited;
pub mod params_file;
pub mod params_out;
pub mod spike_csv;
pub mod spike_log;
mod text;

pub use error::{FormatError, Location, Radix};
pub(crate) use text::shown;
pub use text::{CsvReader, CsvWriter, LineParser, RowFormat, MAX_LINE_BYTES};
