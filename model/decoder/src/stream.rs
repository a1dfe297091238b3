//! The layers below the te_inst decoder: framed bytes -> packet payloads (a push deframer
//! of the registry [`etrace_spec::framing`], fed in pieces as they arrive:
//! [`PayloadStream`]) -> te_inst packets ([`etrace_spec::packet::unpack_with`], using the
//! options of the latest support packet) -> trace elements ([`feed_payloads`]).

use super::element::TraceElement;
use super::te_decoder::TeDecoder;
use etrace_spec::framing::atb::{AtbBeat, AtbConfig, AtbStream};
use etrace_spec::framing::{Deframer, FrameEvent};
use etrace_spec::packet::{unpack_with, TeInst};
use etrace_spec::params::Params;

/// How the packets of a byte stream are framed: a framing of the registry with its
/// configuration.
pub use etrace_spec::framing::FramingConfig as Framing;

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

impl From<FrameEvent> for PayloadEvent {
    fn from(event: FrameEvent) -> PayloadEvent {
        match event {
            FrameEvent::Packet(p) => PayloadEvent::Payload {
                offset: p.at.index().unwrap_or(0),
                bytes: p.payload,
            },
            FrameEvent::Error { at, error } => PayloadEvent::Error {
                offset: at.index(),
                reason: FrameEvent::reason(&at, &error),
            },
        }
    }
}

/// Payload events of a stream pushed in pieces of any size: the same events, whatever
/// the pieces, as [`payloads`] gives for the whole stream.
pub struct PayloadStream {
    deframer: Box<dyn Deframer>,
    events: Vec<FrameEvent>,
}

impl PayloadStream {
    /// Payload events of a framed stream whose first byte starts a packet (`synced`) or
    /// that is entered at an arbitrary byte.
    pub fn new(framing: &Framing, synced: bool) -> PayloadStream {
        PayloadStream {
            deframer: framing.deframer(synced),
            events: Vec::new(),
        }
    }

    /// Payload events of `deframer`'s stream.
    pub fn from_deframer(deframer: Box<dyn Deframer>) -> PayloadStream {
        PayloadStream {
            deframer,
            events: Vec::new(),
        }
    }

    /// Takes the next bytes; returns the events they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<PayloadEvent> {
        self.deframer.push(bytes, &mut self.events);
        self.take()
    }

    /// The end of the stream: the remaining events (see [`Deframer::finish`]).
    pub fn finish(&mut self) -> Vec<PayloadEvent> {
        self.deframer.finish(&mut self.events);
        self.take()
    }

    /// The reader stopped early: the remaining events (see [`Deframer::stop`]).
    pub fn stop(&mut self) -> Vec<PayloadEvent> {
        self.deframer.stop(&mut self.events);
        self.take()
    }

    /// Bytes received and not yet deframed.
    pub fn pending(&self) -> usize {
        self.deframer.pending()
    }

    fn take(&mut self) -> Vec<PayloadEvent> {
        self.events.drain(..).map(PayloadEvent::from).collect()
    }
}

/// Deframes a whole byte stream (its first byte starts a packet) into payload events
/// (pushed in pieces of 64 KiB, which keeps the deframer's event buffer small).
pub fn payloads(framing: &Framing, bytes: &[u8]) -> Vec<PayloadEvent> {
    let mut stream = PayloadStream::new(framing, true);
    let mut events = Vec::new();
    for piece in bytes.chunks(1 << 16) {
        events.extend(stream.push(piece));
    }
    events.extend(stream.finish());
    events
}

/// Deframes ATB beats held in memory into payload events (offsets are beat indices).
pub fn atb_payloads(config: &AtbConfig, beats: &[AtbBeat]) -> Vec<PayloadEvent> {
    let mut stream = AtbStream::new(*config, true);
    let mut events = Vec::new();
    for beat in beats {
        stream.push_beat(*beat, &mut events);
    }
    stream.finish(&mut events);
    events.into_iter().map(PayloadEvent::from).collect()
}

/// Passes payload events to the decoder, numbering packets from `index`; returns the
/// index of the next packet. The elements are kept in the decoder until taken, however
/// many (see [`feed_payloads_with`]).
pub fn feed_payloads(
    decoder: &mut TeDecoder<'_>,
    params: &Params,
    index: u64,
    events: &[PayloadEvent],
) -> u64 {
    let process = |decoder: &mut TeDecoder<'_>, packet: &TeInst, index, offset| {
        decoder.process(packet, index, offset);
        Ok::<(), std::convert::Infallible>(())
    };
    match feed(decoder, params, index, events, process) {
        Ok(next) => next,
        Err(never) => match never {},
    }
}

/// [`feed_payloads`], with the elements of long walks handed to `out` as they are
/// produced ([`TeDecoder::process_with`]): the decoder holds a bounded number of elements
/// (with those of the packets before, until the caller takes them). The first error of
/// `out` ends the feeding.
pub fn feed_payloads_with<E>(
    decoder: &mut TeDecoder<'_>,
    params: &Params,
    index: u64,
    events: &[PayloadEvent],
    mut out: impl FnMut(&mut Vec<TraceElement>) -> Result<(), E>,
) -> Result<u64, E> {
    let process = |decoder: &mut TeDecoder<'_>, packet: &TeInst, index, offset| {
        decoder.process_with(packet, index, offset, &mut out)
    };
    feed(decoder, params, index, events, process)
}

/// The payload events to `process`, numbered from `index`; the index of the next packet.
fn feed<E>(
    decoder: &mut TeDecoder<'_>,
    params: &Params,
    mut index: u64,
    events: &[PayloadEvent],
    mut process: impl FnMut(&mut TeDecoder<'_>, &TeInst, u64, Option<u64>) -> Result<(), E>,
) -> Result<u64, E> {
    for event in events {
        match event {
            PayloadEvent::Payload { offset, bytes } => {
                match unpack_with(bytes, params, &decoder.options()) {
                    Ok(packet) => process(decoder, &packet, index, Some(*offset))?,
                    Err(e) => decoder.fail(index, Some(*offset), e.to_string()),
                }
                index += 1;
            }
            PayloadEvent::Error { offset, reason } => {
                decoder.fail(index, *offset, reason.clone());
            }
        }
    }
    Ok(index)
}

/// Decodes payload events into trace elements.
pub fn decode_payloads(
    decoder: &mut TeDecoder<'_>,
    params: &Params,
    events: &[PayloadEvent],
) -> Vec<TraceElement> {
    feed_payloads(decoder, params, 0, events);
    decoder.take_elements(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use etrace_spec::framing::{FramingKind, FramingSettings, Outgoing};
    use etrace_spec::ingress::random::Rng;

    /// Every framing of the registry: a damaged stream pushed in random pieces gives the
    /// payload events of the whole stream.
    #[test]
    fn pieces_give_the_payload_events_of_the_whole_stream() {
        let mut rng = Rng::new(11);
        let settings = FramingSettings {
            src_bits: 0,
            src_id: None,
            timestamp: true,
            timestamp_bytes: 2,
            atb_bits: 32,
            sync_interval: 48,
        };
        for &kind in FramingKind::ALL {
            let framing = kind.config(&settings).unwrap();
            let mut framer = framing.framer(&settings).unwrap();
            let mut data = Vec::new();
            for i in 0..60u64 {
                let payload: Vec<u8> = (0..1 + rng.below(12))
                    .map(|_| rng.next_u64() as u8)
                    .collect();
                let packet = Outgoing {
                    payload: &payload,
                    source: framing.source(&settings),
                    timestamp: Some(i),
                };
                framer.write_packet(&packet, &mut data).unwrap();
            }
            for _ in 0..3 {
                let at = rng.below(data.len() as u64) as usize;
                data[at] ^= 0x11;
            }
            data.truncate(data.len() - 2);
            let whole = payloads(&framing, &data);
            let mut stream = PayloadStream::new(&framing, true);
            let mut got = Vec::new();
            let mut at = 0;
            while at < data.len() {
                let n = (1 + rng.below(40) as usize).min(data.len() - at);
                got.extend(stream.push(&data[at..at + n]));
                at += n;
            }
            got.extend(stream.finish());
            assert_eq!(got, whole, "{kind}");
        }
    }
}
