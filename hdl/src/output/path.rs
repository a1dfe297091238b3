//! The byte-stream output path (`hdl/DESIGN.md`, "Data path", items 4-7): packet queue,
//! timestamp counter, framer / serializer and byte FIFO as one block ([`OutputPath`]),
//! and the encoder top with it ([`Encoder`]: encap or UltraSoC (smi) byte stream with
//! valid / ready). An entry's timestamp is the counter value in the cycle it was produced.

use rust_hdl::prelude::*;

use super::{
    ByteFifo, ByteStreamSource, FrameFormat, Framer, FramerConfig, PacketQueue, Pushes, Timestamp,
};
use crate::config::Config;
use crate::top::{emit, encoder_top, Emitted, TopError, TopOptions};

/// Queue, timestamp, framer and a FIFO of depth `2^N`, with the byte-stream port
/// (`DESIGN.md` items 4-7). P = payload width.
#[derive(LogicBlock)]
pub struct OutputPath<const P: usize, const N: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Reset, the packets pushed into the queue and its room.
    pub pushes: Pushes<P>,
    /// The encap `srcID` or smi index (low `src_bits` bits used).
    pub source_id: Signal<In, Bits<16>>,
    /// The byte stream.
    pub pins: ByteStreamSource,
    queue: PacketQueue<P>,
    timestamp: Timestamp,
    framer: Framer<P>,
    fifo: ByteFifo<N>,
    // The pins' consumer reads with `out_ready`, not `read_next`.
    unused_reading: Signal<Local, Bit>,
}

impl<const P: usize, const N: usize> OutputPath<P, N> {
    /// An output path with the given framing.
    pub fn new(config: FramerConfig) -> Self {
        OutputPath {
            clock: Default::default(),
            pushes: Default::default(),
            source_id: Default::default(),
            pins: Default::default(),
            queue: Default::default(),
            timestamp: Default::default(),
            framer: Framer::new(config),
            fifo: Default::default(),
            unused_reading: Default::default(),
        }
    }
}

impl<const P: usize, const N: usize> Logic for OutputPath<P, N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.queue.clock.next = self.clock.val();
        self.timestamp.clock.next = self.clock.val();
        self.framer.clock.next = self.clock.val();
        self.fifo.clock.next = self.clock.val();
        Pushes::<P>::link(&mut self.pushes, &mut self.queue.pushes);
        self.timestamp.reset.next = self.pushes.reset.val();
        self.framer.reset.next = self.pushes.reset.val();
        self.fifo.reset.next = self.pushes.reset.val();
        self.queue.in_timestamp.next = self.timestamp.queued.val();
        self.queue.pop.next = self.framer.pop.val();
        self.framer.src_id.next = self.source_id.val();
        self.framer.head_valid.next = self.queue.head_valid.val();
        self.framer.head_payload.next = self.queue.head_payload.val();
        self.framer.head_length.next = self.queue.head_length.val();
        self.framer.head_timestamp.next = self.queue.head_timestamp.val();
        self.framer.can_write.next = self.fifo.can_write.val();
        self.fifo.wr_en.next = self.framer.wr_en.val();
        self.fifo.wr_data.next = self.framer.wr_data.val();
        self.fifo.wr_last.next = self.framer.wr_last.val();
        ByteStreamSource::link(&mut self.pins, &mut self.fifo.stream);
        self.fifo.read_next.next = false;
        self.unused_reading.next = self.fifo.reading.val();
    }
}

encoder_top! {
    /// The encoder with the byte-stream output (`hdl/DESIGN.md` item 7), encap or smi:
    /// FIFO depth 2^`N` bytes.
    pub struct Encoder<A, E, IT, P, N> {
        /// `srcID` (encap) or index (smi) of the framed packets (its low `src_bits` bits
        /// are sent).
        src_id: In<Bits<16>>,
        pins: ByteStreamSource,
        path: OutputPath<P, N>,
    }
}

/// The encap byte-stream encoder of `config` with `options` (the generator's arm of
/// [`crate::top::OutputKind::Bytes`]): a synchronisation sequence every 4096 bytes, as
/// `etrace encode --framing encap`.
pub(crate) fn emit_bytes(config: Config, options: &TopOptions) -> Result<Emitted, TopError> {
    let framing = FramerConfig {
        src_bits: options.src_bits,
        timestamp: options.timestamp,
        ..FramerConfig::default()
    };
    emit_stream(config, options, framing)
}

/// The UltraSoC (smi) byte-stream encoder of `config` with `options` (the generator's arm
/// of [`crate::top::OutputKind::Smi`]): `options.src_bits` index bits, as `etrace encode
/// --framing smi`.
pub(crate) fn emit_smi(config: Config, options: &TopOptions) -> Result<Emitted, TopError> {
    emit_stream(
        config,
        options,
        FramerConfig::smi(options.src_bits, options.timestamp),
    )
}

/// The byte-stream encoder of `config` with `framing` and the FIFO depth of `options`.
fn emit_stream(
    config: Config,
    options: &TopOptions,
    framing: FramerConfig,
) -> Result<Emitted, TopError> {
    let depth = options.fifo_depth;
    let name = match framing.format {
        FrameFormat::Encap => "encap",
        FrameFormat::Smi => "smi",
    };
    let output = format!("{name} byte stream, {depth}-byte FIFO");
    crate::with_fifo_depth!(depth, [N] => crate::with_config!(config, [A, E, IT, P] => {
        let top = || Encoder::<A, E, IT, P, N>::new(framing, options.core());
        emit(top, config, output)
    }))
    .ok_or(TopError::FifoDepth(depth))
}
