//! The consumer's items deframed as they come, as the model's decoder deframes them
//! (`decoder::stream`: [`PayloadStream`] for a byte stream, [`AtbStream`] for ATB beats):
//! used by `etrace cosim`, the lock-step run and [`super::TakenStream::payloads`] (issue
//! 27, "streaming everywhere").

use etrace_decoder::stream::{PayloadEvent, PayloadStream};
use etrace_encoder::cycle::output_path::{OutputPathConfig, OutputPort};
use etrace_spec::framing::atb::{AtbConfig, AtbStream};
use etrace_spec::framing::Deframer;

use super::TakenItems;

/// ATB's configuration of an output path (beats of one byte for a byte stream).
pub fn atb_config(output: &OutputPathConfig) -> AtbConfig {
    let data_bytes = match output.port {
        OutputPort::Atb { data_bytes, .. } => data_bytes,
        OutputPort::ByteStream => 1,
    };
    AtbConfig {
        data_bytes,
        encap: output.encap(),
    }
}

/// The deframer of an output path's items.
pub enum TakenDeframer {
    /// A byte stream (encap, smi).
    Bytes(PayloadStream),
    /// ATB beats.
    Beats(AtbStream),
    /// The output path's framing cannot be made: one error event.
    Failed(Option<String>),
}

impl TakenDeframer {
    /// The deframer of `output`'s framing.
    pub fn new(output: &OutputPathConfig) -> TakenDeframer {
        match output.port {
            OutputPort::Atb { .. } => {
                TakenDeframer::Beats(AtbStream::new(atb_config(output), true))
            }
            OutputPort::ByteStream => match output.framing_config() {
                Ok(framing) => TakenDeframer::Bytes(PayloadStream::new(&framing, true)),
                Err(e) => TakenDeframer::Failed(Some(e.to_string())),
            },
        }
    }

    /// The payload events the next items complete. Items of the other kind than the
    /// output path's (bytes to an ATB deframer, beats to a byte stream's) are a wiring
    /// error: they panic.
    pub fn push(&mut self, items: TakenItems<'_>) -> Vec<PayloadEvent> {
        match (self, items) {
            (TakenDeframer::Bytes(stream), TakenItems::Bytes(bytes)) => stream.push(bytes),
            (TakenDeframer::Beats(stream), TakenItems::Beats(beats)) => {
                let mut events = Vec::new();
                for beat in beats {
                    stream.push_beat(*beat, &mut events);
                }
                events.into_iter().map(PayloadEvent::from).collect()
            }
            (TakenDeframer::Failed(reason), _) => failed(reason),
            (_, items) => unreachable!("items of another output path: {items:?}"),
        }
    }

    /// The end of the output: the remaining events.
    pub fn finish(&mut self) -> Vec<PayloadEvent> {
        match self {
            TakenDeframer::Bytes(stream) => stream.finish(),
            TakenDeframer::Beats(stream) => {
                let mut events = Vec::new();
                stream.finish(&mut events);
                events.into_iter().map(PayloadEvent::from).collect()
            }
            TakenDeframer::Failed(reason) => failed(reason),
        }
    }
}

/// The error event of a framing that cannot be made, once.
fn failed(reason: &mut Option<String>) -> Vec<PayloadEvent> {
    reason
        .take()
        .map(|reason| PayloadEvent::Error {
            offset: None,
            reason,
        })
        .into_iter()
        .collect()
}
