//! The command-line error convention of `docs/cli.md`: one line `error: <what> (<where>)`
//! on stderr, context lines below, exit 2 for bad input or usage and 1 for a failed check.

use std::fmt::Display;
use std::process::ExitCode;

/// What went wrong, and which exit code it maps to.
#[derive(Debug)]
pub enum CliError {
    /// Bad input or usage (exit 2).
    Input {
        /// What is wrong.
        what: String,
        /// Where: a file, line, column, address.
        place: String,
        /// Further lines of context.
        context: Vec<String>,
    },
    /// A check that failed, such as a mismatch (exit 1).
    Check {
        /// What differed.
        what: String,
        /// Where it first differed.
        place: String,
        /// Further lines of context.
        context: Vec<String>,
    },
}

impl CliError {
    /// A bad-input error: `what` happened at `place`.
    pub fn input(what: impl Display, place: impl Display) -> CliError {
        CliError::Input {
            what: what.to_string(),
            place: place.to_string(),
            context: Vec::new(),
        }
    }

    /// Refuses the first of `options` that was given (its flag `true`): `what` at that
    /// option's name; `Ok` when none was.
    pub fn refuse_given(options: &[(bool, &str)], what: &str) -> Result<(), CliError> {
        match options.iter().find(|(given, _)| *given) {
            Some((_, option)) => Err(CliError::input(what, option)),
            None => Ok(()),
        }
    }

    /// A failed check: `what` differed at `place`.
    #[allow(dead_code)]
    pub fn check(what: impl Display, place: impl Display) -> CliError {
        CliError::Check {
            what: what.to_string(),
            place: place.to_string(),
            context: Vec::new(),
        }
    }

    /// Adds a context line printed below the error line.
    pub fn with_context(mut self, line: impl Display) -> CliError {
        match &mut self {
            CliError::Input { context, .. } | CliError::Check { context, .. } => {
                context.push(line.to_string())
            }
        }
        self
    }

    /// Prints the error and returns the exit code.
    pub fn report(&self) -> ExitCode {
        let (context, code) = match self {
            CliError::Input { context, .. } => (context, 2),
            CliError::Check { context, .. } => (context, 1),
        };
        eprintln!("error: {self}");
        for line in context {
            eprintln!("  {line}");
        }
        ExitCode::from(code)
    }
}

impl Display for CliError {
    /// The error line (without its context lines): what is wrong, and where.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (CliError::Input { what, place, .. } | CliError::Check { what, place, .. }) = self;
        // Model errors often name their place already ("... (t.csv line 3, column 2)").
        if place.is_empty() || what.contains(place.as_str()) {
            write!(f, "{what}")
        } else {
            write!(f, "{what} ({place})")
        }
    }
}

/// Attaches a place to any error, making it a bad-input error.
pub trait InputContext<T> {
    /// Maps the error to [`CliError::Input`] at `place`.
    fn at(self, place: impl Display) -> Result<T, CliError>;
}

impl<T, E: Display> InputContext<T> for Result<T, E> {
    fn at(self, place: impl Display) -> Result<T, CliError> {
        self.map_err(|e| CliError::input(e, place))
    }
}
