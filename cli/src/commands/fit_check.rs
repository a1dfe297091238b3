//! The refusal of a run whose ingress records the encoder parameters cannot represent
//! (`etrace_spec::ingress::fits`: a cause wider than `ecause_width_p`, an address wider
//! than `iaddress_width_p`, compressed code with `iaddress_lsb_p` = 2, a context wider than
//! the packets' context field) and of an input with an odd instruction address, which
//! no parameters fix (for N-Trace the only check): bad input (exit 2, `docs/cli.md`)
//! rather than a trace that is silently wrong.

use crate::error::CliError;
use etrace_spec::ingress::fits::{check_aligned, check_fits, FitError};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::params::Params;

/// The first record that did not fit.
struct Failed {
    /// Its index among the ingress records.
    index: u64,
    /// The line of the CSV row it came from, when it came from a CSV.
    line: Option<u64>,
    error: FitError,
}

/// Watches the ingress records of a run for the first one the parameters cannot hold.
pub struct FitCheck {
    /// The E-Trace parameters; `None` for N-Trace, which has none for addresses (its
    /// address fields drop bit 0): only an odd address is refused.
    params: Option<Params>,
    records: u64,
    first: Option<Failed>,
}

impl FitCheck {
    /// A check against `params` (E-Trace).
    pub fn new(params: &Params) -> FitCheck {
        FitCheck {
            params: Some(params.clone()),
            records: 0,
            first: None,
        }
    }

    /// The check of an N-Trace encoder: odd instruction addresses only.
    pub fn ntrace() -> FitCheck {
        FitCheck {
            params: None,
            records: 0,
            first: None,
        }
    }

    /// Checks the next record (until one fails), read from CSV line `line` if any.
    pub fn record(&mut self, record: &IngressRecord, line: Option<u64>) {
        if self.first.is_none() {
            let checked = match &self.params {
                Some(params) => check_fits(params, record),
                None => check_aligned(record),
            };
            if let Err(error) = checked {
                self.first = Some(Failed {
                    index: self.records,
                    line,
                    error,
                });
            }
        }
        self.records += 1;
    }

    /// The error of the first record that did not fit, if any (`place` names the input;
    /// the CSV line is added when known): bad input either way, and for a record that
    /// valid parameters could hold, a hint to give such parameters.
    pub fn result(&self, place: &str) -> Result<(), CliError> {
        let Some(Failed { index, line, error }) = &self.first else {
            return Ok(());
        };
        let place = match line {
            Some(line) => format!("{place} line {line}"),
            None => place.to_string(),
        };
        Err(match error {
            FitError::Odd { .. } => CliError::input(
                format!("the input's {error} (ingress record {index})"),
                place,
            ),
            _ => CliError::input(
                format!("{error}: the parameters cannot trace this input (ingress record {index})"),
                place,
            )
            .with_context("give parameters that fit the program (--params)"),
        })
    }
}
