//! The output path (`hdl/DESIGN.md`, "Data path" and "Cycle contract" items 4-8): packet
//! queue, timestamp counter, encap or smi framer / serializer, byte FIFO, and the byte-stream or
//! ATB port. `etrace_encoder::cycle::output_path` models the same behaviour cycle by cycle.
//!
//! Every output path is one file with its block (bundle [`Pushes`] from the encoder core,
//! a source identifier, its pins) and its encoder top (`crate::top::encoder_top!`):
//! [`path`] (byte stream) and [`atb_path`] (ATB).
//!
//! Every stateful block has a `clock` and a synchronous, active-high `reset`.

pub mod atb;
pub mod atb_path;
pub mod byte_fifo;
pub mod framer;
pub mod path;
pub mod queue;
pub mod timestamp;

pub use atb::{AtbAdapter, AtbPort};
pub use atb_path::{AtbEncoder, AtbOutputPath};
pub use byte_fifo::{ByteFifo, ByteStream, ByteStreamSource};
pub use framer::{FrameFormat, Framer, FramerConfig};
pub use path::{Encoder, OutputPath};
pub use queue::{PacketQueue, Pushes, PushesSource};
pub use timestamp::Timestamp;
