//! te_inst packets (`payload.adoc`, "Instruction Trace Encoder Output Packets"): one Rust
//! type per format / subformat, packing into payload bytes with sign-based compression,
//! unpacking, and a one-line listing.
//!
//! * [`TeInst`] and its field structs: the packets, with the spec's field names;
//! * [`pack`] / [`pack_uncompressed`]: fields in table order, each LSB first, then
//!   sign-based compression (the shortest payload whose sign extension restores it);
//! * [`unpack`] / [`unpack_with`]: the inverse, sign-extending from the last received byte;
//! * [`TeInst::listing`]: `format=1 (diff-delta) branches=1 branch_map=0b0 (1 bit) ...`.
//!
//! Framing of payloads for transport is in [`crate::framing`].

mod bits;
mod error;
mod listing;
mod pack;
mod types;
mod unpack;
mod widths;

#[cfg(test)]
mod golden_tests;
#[cfg(test)]
pub(crate) mod roundtrip_tests;

pub use bits::sign_compress;
pub(crate) use bits::{significant_bits, tail_bits, BitReader, BitWriter};
pub use error::PacketError;
pub use listing::Listing;
pub use pack::{pack, pack_uncompressed, PackedPayload};
pub use types::{
    AddressInfo, Branch, BranchCount, BranchFmt, Context, IOptions, JumpTargetIndex, QualStatus,
    Start, Support, TeInst, Trap,
};
pub use unpack::{unpack, unpack_with};
pub use widths::{
    branch_map_len, jtc_branch_map_len, FieldWidths, BRANCHES_WIDTH, BRANCH_COUNT_WIDTH,
    ENCODER_MODE_WIDTH, IOPTIONS_WIDTH,
};
