//! One module per `etrace` sub-command.

pub mod convert;
mod io;
pub mod iss;
