//! The layers below the te_inst decoder: framed bytes -> packet payloads (with the
//! deframers of [`etrace_spec::framing`]) -> te_inst packets ([`etrace_spec::packet::unpack_with`],
//! using the options of the latest support packet) -> trace elements.

use super::element::TraceElement;
use super::te_decoder::TeDecoder;
use etrace_spec::framing::atb::{deframe_atb, AtbBeat, AtbConfig};
use etrace_spec::framing::encap::{EncapConfig, EncapDeframer, EncapItem};
use etrace_spec::framing::smi::{SmiConfig, SmiDeframer, SmiItem};
use etrace_spec::framing::FrameError;
use etrace_spec::packet::unpack_with;
use etrace_spec::params::Params;

/// How the packets of a byte stream are framed (ATB beats go through [`atb_payloads`]).
#[derive(Debug, Clone, Copy)]
pub enum Framing {
    /// e-trace-encap 1.0.
    Encap(EncapConfig),
    /// Siemens messaging.
    Smi(SmiConfig),
}

/// One event of the payload layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayloadEvent {
    /// A te_inst payload at a byte offset (for ATB: the index of its first beat).
    Payload {
        /// Where the packet starts.
        offset: u64,
        /// The payload bytes.
        bytes: Vec<u8>,
    },
    /// Bytes that could not be deframed; the deframer resynchronised after them.
    Error {
        /// Where the problem was found, when the error says.
        offset: Option<u64>,
        /// What was wrong.
        reason: String,
    },
}

/// Deframes a byte stream into payload events.
pub fn payloads(framing: &Framing, bytes: &[u8]) -> Vec<PayloadEvent> {
    let mut out = Vec::new();
    match framing {
        Framing::Encap(cfg) => {
            for item in EncapDeframer::new(bytes, *cfg) {
                match item {
                    Ok(EncapItem::Packet(p)) => out.push(PayloadEvent::Payload {
                        offset: p.offset as u64,
                        bytes: p.payload,
                    }),
                    Ok(_) => {}
                    Err(e) => out.push(PayloadEvent::Error {
                        offset: error_offset(&e),
                        reason: e.to_string(),
                    }),
                }
            }
        }
        Framing::Smi(cfg) => {
            for item in SmiDeframer::new(bytes, *cfg) {
                match item {
                    Ok(SmiItem::Packet(p)) => out.push(PayloadEvent::Payload {
                        offset: p.offset as u64,
                        bytes: p.payload,
                    }),
                    Ok(SmiItem::Synced { .. }) => {}
                    Err(e) => out.push(PayloadEvent::Error {
                        offset: error_offset(&e),
                        reason: e.to_string(),
                    }),
                }
            }
        }
    }
    out
}

/// Byte offset (or beat index) a framing error names, if any.
fn error_offset(e: &FrameError) -> Option<u64> {
    match e {
        FrameError::Truncated { offset, .. }
        | FrameError::BadHeader { offset, .. }
        | FrameError::EmptyPayload { offset }
        | FrameError::IndexTooWide { offset, .. }
        | FrameError::NoSync { offset, .. } => Some(*offset as u64),
        _ => None,
    }
}

/// Deframes ATB beats into payload events (offsets are beat indices).
pub fn atb_payloads(config: &AtbConfig, beats: &[AtbBeat]) -> Vec<PayloadEvent> {
    deframe_atb(beats, config)
        .into_iter()
        .filter_map(|item| match item.item {
            Ok(EncapItem::Packet(p)) => Some(PayloadEvent::Payload {
                offset: item.beat as u64,
                bytes: p.payload,
            }),
            Ok(_) => None,
            Err(e) => Some(PayloadEvent::Error {
                offset: Some(item.beat as u64),
                reason: e.to_string(),
            }),
        })
        .collect()
}

/// Decodes payload events into trace elements.
pub fn decode_payloads(
    decoder: &mut TeDecoder<'_>,
    params: &Params,
    events: &[PayloadEvent],
) -> Vec<TraceElement> {
    let mut index = 0u64;
    for event in events {
        match event {
            PayloadEvent::Payload { offset, bytes } => {
                match unpack_with(bytes, params, &decoder.options()) {
                    Ok(packet) => decoder.process(&packet, index, Some(*offset)),
                    Err(e) => decoder.fail(index, Some(*offset), e.to_string()),
                }
                index += 1;
            }
            PayloadEvent::Error { offset, reason } => {
                decoder.fail(index, *offset, reason.clone());
            }
        }
    }
    decoder.take_elements(true)
}
