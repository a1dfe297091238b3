//! The refusal of a run whose ingress records the encoder parameters cannot represent
//! (`etrace_spec::ingress::fits`: a cause wider than `ecause_width_p`, an address wider
//! than `iaddress_width_p`, compressed code with `iaddress_lsb_p` = 2, a context wider than
//! the packets' context field): bad input (exit 2,
//! `docs/cli.md`) rather than a trace that is silently wrong.

use crate::error::CliError;
use etrace_spec::ingress::fits::{check_fits, FitError};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::params::Params;

/// Watches the ingress records of a run for the first one the parameters cannot hold.
pub struct FitCheck {
    params: Params,
    records: u64,
    first: Option<(u64, FitError)>,
}

impl FitCheck {
    /// A check against `params`.
    pub fn new(params: &Params) -> FitCheck {
        FitCheck {
            params: params.clone(),
            records: 0,
            first: None,
        }
    }

    /// Checks the next record (until one fails).
    pub fn record(&mut self, record: &IngressRecord) {
        if self.first.is_none() {
            if let Err(e) = check_fits(&self.params, record) {
                self.first = Some((self.records, e));
            }
        }
        self.records += 1;
    }

    /// The error of the first record that did not fit, if any (`place` names the input).
    pub fn result(&self, place: &str) -> Result<(), CliError> {
        match &self.first {
            None => Ok(()),
            Some((index, e)) => Err(CliError::input(
                format!("{e}: the parameters cannot trace this input (ingress record {index})"),
                place,
            )
            .with_context("give parameters that fit the program (--params)")),
        }
    }
}
