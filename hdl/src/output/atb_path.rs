//! The ATB output path (`hdl/DESIGN.md`, "Data path", items 4-8): the byte-stream output
//! path ([`OutputPath`]) feeding the ATB adapter ([`AtbOutputPath`]), and the encoder top
//! with it ([`AtbEncoder`]).

use rust_hdl::prelude::*;

use super::{AtbAdapter, AtbPort, ByteStreamSource, FramerConfig, OutputPath, Pushes};
use crate::config::Config;
use crate::generics::DEFAULT_FIFO_DEPTH;
use crate::top::{emit, encoder_top, Emitted, TopError, TopOptions};

/// The output path with the ATB port: ATDATA of DW bits, ATBYTES of BW bits
/// (`DESIGN.md` item 8). The encap framing has no srcID (the source is on ATID) and the
/// model's ATB framing has no sync sequences, so `sync_interval` must be 0.
#[derive(LogicBlock)]
pub struct AtbOutputPath<const P: usize, const N: usize, const DW: usize, const BW: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Reset, the packets pushed into the queue and its room.
    pub pushes: Pushes<P>,
    /// The ATID of the trace source.
    pub source_id: Signal<In, Bits<7>>,
    /// The ATB port.
    pub pins: AtbPort<DW, BW>,
    path: OutputPath<P, N>,
    adapter: AtbAdapter<DW, BW>,
}

impl<const P: usize, const N: usize, const DW: usize, const BW: usize> AtbOutputPath<P, N, DW, BW> {
    /// An ATB output path; panics when `src_bits` or `sync_interval` is not 0.
    pub fn new(config: FramerConfig) -> Self {
        assert_eq!(config.src_bits, 0, "ATB carries the source on ATID");
        assert_eq!(
            config.sync_interval, 0,
            "the ATB framing has no sync sequences"
        );
        AtbOutputPath {
            clock: Default::default(),
            pushes: Default::default(),
            source_id: Default::default(),
            pins: Default::default(),
            path: OutputPath::new(config),
            adapter: AtbAdapter::new(),
        }
    }
}

impl<const P: usize, const N: usize, const DW: usize, const BW: usize> Logic
    for AtbOutputPath<P, N, DW, BW>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.path.clock.next = self.clock.val();
        self.adapter.clock.next = self.clock.val();
        Pushes::<P>::link(&mut self.pushes, &mut self.path.pushes);
        self.adapter.reset.next = self.pushes.reset.val();
        self.path.source_id.next = 0.into();
        ByteStreamSource::join(&mut self.path.pins, &mut self.adapter.fifo);
        self.adapter.source_atid.next = self.source_id.val();
        AtbPort::<DW, BW>::link(&mut self.pins, &mut self.adapter.atb);
    }
}

encoder_top! {
    /// The encoder with the ATB output (`hdl/DESIGN.md` item 8): FIFO depth 2^`N` bytes,
    /// ATDATA of `DW` bits, ATBYTES of `BW` bits.
    pub struct AtbEncoder<A, E, IT, P, N, DW, BW> {
        /// ATID of the beats (0x00 and 0x70-0x7f are reserved).
        source_atid: In<Bits<7>>,
        pins: AtbPort<DW, BW>,
        path: AtbOutputPath<P, N, DW, BW>,
    }
}

/// The ATB encoder of `config` with `options` and beats of `data_bytes` bytes (the
/// generator's arm of [`crate::top::OutputKind::Atb`]): no srcID, the default FIFO depth.
pub(crate) fn emit_atb(
    config: Config,
    options: &TopOptions,
    data_bytes: u32,
) -> Result<Emitted, TopError> {
    if options.src_bits != 0 {
        return Err(TopError::SrcBits(options.src_bits));
    }
    if options.fifo_depth != DEFAULT_FIFO_DEPTH {
        return Err(TopError::FifoDepth(options.fifo_depth));
    }
    // The ATB transport carries no synchronisation sequences (the model's framing).
    let framing = FramerConfig {
        src_bits: 0,
        timestamp: options.timestamp,
        sync_interval: 0,
        ..FramerConfig::default()
    };
    let output = format!("ATB output, {}-bit ATDATA", data_bytes * 8);
    crate::with_atb_width!(data_bytes, [DW, BW] => crate::with_config!(config, [A, E, IT, P] => {
        const N: usize = crate::generics::DEFAULT_FIFO_ADDRESS_BITS;
        let top = || AtbEncoder::<A, E, IT, P, N, DW, BW>::new(framing, options.core());
        emit(top, config, output)
    }))
    .ok_or(TopError::AtbWidth(data_bytes))
}
