//! Function-call hierarchy of a traced execution (`seeds/004`): a call tree rebuilt from the
//! instruction stream (`decoder.adoc` trace elements, or executed PCs) and the function
//! symbols of the ELF files, with per-function instruction counts, the indented
//! `<FunctionCall N: name(0xaddr)>` / `<Return: name>` listing, folded stacks and an SVG
//! flame graph.
//!
//! The stack is kept the way `seeds/004` keeps it: each frame remembers the address its
//! caller continues at, and a return pops down to the frame whose return address equals the
//! target (so returns that skip frames are followed); a jump without linkage that lands on a
//! function entry is a tail call and replaces the current frame; traps open a frame for the
//! handler that `xRET` closes.

pub mod builder;
pub mod folded;
pub mod symbols;
pub mod tree;

pub use builder::{from_elements, from_pcs, from_steps, CallTreeBuilder};
pub use folded::{folded_lines, write_flamegraph};
pub use symbols::{Symbol, SymbolTable};
pub use tree::{CallKind, CallNode, CallTree, Ending, FunctionStats};

/// What can go wrong while building or writing a call tree.
#[derive(Debug, thiserror::Error)]
pub enum CallTreeError {
    /// The ELF's symbol table could not be read.
    #[error("cannot read the ELF symbol table: {0}")]
    Symbols(#[from] object::Error),
    /// An executed address has no instruction in the program image.
    #[error("no instruction at address {address:#x} (instruction {index} of the trace)")]
    NotInImage {
        /// The address.
        address: u64,
        /// Index of the instruction in the trace (0-based).
        index: u64,
    },
    /// Writing the flame graph failed.
    #[error("cannot write the flame graph: {0}")]
    Flamegraph(#[from] std::io::Error),
}
