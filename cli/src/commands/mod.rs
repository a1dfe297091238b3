//! One module per `etrace` sub-command.

pub mod convert;
pub mod iss;
