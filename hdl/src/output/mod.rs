//! The output path (`hdl/DESIGN.md`, "Data path" and "Cycle contract" items 4-8): packet
//! queue, timestamp counter, encap framer / serializer, byte FIFO, and the byte-stream or
//! ATB port. `etrace_encoder::cycle::output_path` models the same behaviour cycle by cycle.
//!
//! Every stateful block has a `clock` and a synchronous, active-high `reset`.

pub mod atb;
pub mod byte_fifo;
pub mod framer;
pub mod path;
pub mod queue;
pub mod timestamp;

pub use atb::AtbAdapter;
pub use byte_fifo::ByteFifo;
pub use framer::{Framer, FramerConfig};
pub use path::{AtbOutputPath, OutputPath};
pub use queue::PacketQueue;
pub use timestamp::Timestamp;
