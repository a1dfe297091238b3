//! N-Trace messages ("N-Trace Messages (Overview)", table "Fields in Messages", and
//! "N-Trace Messages (Details)"): [`Tcode`], the coded fields ([`fields`]), the message
//! values ([`Message`], [`Body`]) and their field layout ([`layout`]: writing to and
//! reading from MSEO bytes).

pub mod fields;
pub mod layout;
mod listing;
mod tcode;
mod types;
mod values;

#[cfg(test)]
pub(crate) mod spec_examples;

pub use fields::{BType, Evcode, Rcode, SyncReason};
pub use layout::{FieldConfig, MessageError};
pub use tcode::Tcode;
pub use types::{Body, Message};
