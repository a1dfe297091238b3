//! One module per `etrace` sub-command.

pub mod convert;
pub mod dump;
pub mod encode;
mod framing_args;
mod io;
pub mod iss;
