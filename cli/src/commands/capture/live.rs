//! Deframing of a live encap byte stream (`e-trace-encap/encapsulation.adoc`) that arrives
//! in pieces: the same packets and errors as [`etrace_decoder::stream::payloads`]
//! on the whole stream, produced as soon as each packet is complete.
//!
//! Packets are parsed with [`EncapDeframer`]; a packet cut off by the end of the bytes
//! received so far waits for more. After a framing error, and at the start unless the
//! stream is known to start at a packet header, the deframer searches for a
//! synchronisation sequence ("Synchronization": N + 1 null bytes, then the first non-null
//! byte starts a normal packet); the search carries its count of null bytes across pieces.

use etrace_decoder::stream::PayloadEvent;
use etrace_spec::framing::encap::{EncapConfig, EncapDeframer, EncapItem};
use etrace_spec::framing::FrameError;

/// Incremental encap deframer (module documentation).
pub struct LiveDeframer {
    config: EncapConfig,
    /// Bytes received and not consumed; `buf[0]` is at stream offset `base`.
    buf: Vec<u8>,
    base: u64,
    /// The next byte is a packet header (else: searching for a synchronisation sequence).
    synced: bool,
    /// While searching: null bytes seen in a row.
    null_run: usize,
    /// While searching after an error: where the search started (for the error at the end).
    hunt_start: Option<u64>,
    /// A synchronisation point was found (or the stream started at a header).
    ever_synced: bool,
}

/// Adds `by` to the stream offset a framing error names.
fn shift(e: FrameError, by: u64) -> FrameError {
    let by = by as usize;
    match e {
        FrameError::Truncated {
            offset,
            needed,
            available,
        } => FrameError::Truncated {
            offset: offset + by,
            needed,
            available,
        },
        FrameError::BadHeader {
            offset,
            header,
            reason,
        } => FrameError::BadHeader {
            offset: offset + by,
            header,
            reason,
        },
        FrameError::EmptyPayload { offset } => FrameError::EmptyPayload {
            offset: offset + by,
        },
        FrameError::NoSync { offset, len } => FrameError::NoSync {
            offset: offset + by,
            len,
        },
        other => other,
    }
}

/// The stream offset a framing error names, if any.
fn error_offset(e: &FrameError) -> Option<u64> {
    match e {
        FrameError::Truncated { offset, .. }
        | FrameError::BadHeader { offset, .. }
        | FrameError::EmptyPayload { offset }
        | FrameError::NoSync { offset, .. } => Some(*offset as u64),
        _ => None,
    }
}

fn error_event(e: FrameError) -> PayloadEvent {
    PayloadEvent::Error {
        offset: error_offset(&e),
        reason: e.to_string(),
    }
}

impl LiveDeframer {
    /// A deframer whose first byte is a packet header (`synced`, as `etrace decode` reads
    /// a file) or that first searches for a synchronisation sequence.
    pub fn new(config: EncapConfig, synced: bool) -> LiveDeframer {
        LiveDeframer {
            config,
            buf: Vec::new(),
            base: 0,
            synced,
            null_run: 0,
            hunt_start: (!synced).then_some(0),
            ever_synced: synced,
        }
    }

    /// Bytes received and not yet deframed (the start of an incomplete packet).
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    /// Takes `bytes`, the next piece of the stream; returns the events they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<PayloadEvent> {
        self.buf.extend_from_slice(bytes);
        let mut events = Vec::new();
        self.run(&mut events, false);
        events
    }

    /// No more bytes will come. At the `end_of_stream` (end of file, hang-up) a packet cut
    /// off is an error, as is a search for a synchronisation sequence that found none, as
    /// [`etrace_decoder::stream::payloads`] reports them at the end of a file. When
    /// the reader stopped on its own (a byte limit, a timeout) an incomplete last packet is
    /// left undecoded, and only a stream in which no synchronisation point was ever found
    /// is an error.
    pub fn finish(&mut self, end_of_stream: bool) -> Vec<PayloadEvent> {
        let mut events = Vec::new();
        self.run(&mut events, end_of_stream);
        if !self.synced && (end_of_stream || !self.ever_synced) {
            if let Some(start) = self.hunt_start.take() {
                let end = self.base + self.buf.len() as u64;
                if end > start && self.null_run <= self.config.max_null_run() {
                    events.push(error_event(FrameError::NoSync {
                        offset: start as usize,
                        len: (end - start) as usize,
                    }));
                }
            }
        }
        self.base += self.buf.len() as u64;
        self.buf.clear();
        events
    }

    fn run(&mut self, events: &mut Vec<PayloadEvent>, at_end: bool) {
        let mut pos = 0usize;
        while pos < self.buf.len() {
            if !self.synced {
                pos = self.hunt(pos);
                continue;
            }
            let mut deframer = EncapDeframer::new(&self.buf[pos..], self.config);
            match deframer.next() {
                None => break,
                Some(Ok(EncapItem::Packet(p))) => {
                    events.push(PayloadEvent::Payload {
                        offset: self.base + (pos + p.offset) as u64,
                        bytes: p.payload,
                    });
                    pos += deframer.position();
                }
                Some(Ok(_)) => pos += deframer.position(),
                Some(Err(FrameError::Truncated { .. })) if !at_end => break,
                Some(Err(e)) => {
                    let truncated = matches!(e, FrameError::Truncated { .. });
                    events.push(error_event(shift(e, self.base + pos as u64)));
                    if truncated {
                        pos = self.buf.len();
                        break;
                    }
                    // As `EncapDeframer`: skip the failing byte, then search.
                    pos += deframer.position().max(1);
                    self.synced = false;
                    self.null_run = 0;
                    self.hunt_start = Some(self.base + pos as u64);
                }
            }
        }
        self.buf.drain(..pos);
        self.base += pos as u64;
    }

    /// Searches from `pos` for N + 1 null bytes followed by a non-null byte; returns the
    /// position of that byte (now synced) or the end of the buffer.
    fn hunt(&mut self, pos: usize) -> usize {
        let need = self.config.max_null_run() + 1;
        for (i, &b) in self.buf.iter().enumerate().skip(pos) {
            if b & 0x1f == 0 {
                self.null_run += 1;
            } else if self.null_run >= need {
                self.synced = true;
                self.ever_synced = true;
                self.hunt_start = None;
                self.null_run = 0;
                return i;
            } else {
                self.null_run = 0;
            }
        }
        self.buf.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use etrace_decoder::stream::{payloads, Framing};
    use etrace_spec::framing::encap::EncapWriter;

    /// A stream of `n` packets with a sync sequence every 64 bytes.
    fn stream(n: usize) -> Vec<u8> {
        let mut w = EncapWriter::new(EncapConfig::default(), 64);
        for i in 0..n {
            let payload: Vec<u8> = (0..(i % 9 + 1)).map(|k| (i * 7 + k) as u8 | 1).collect();
            w.write(&payload, 0, None).unwrap();
        }
        w.into_bytes()
    }

    /// Deframes `data` in pieces of `piece` bytes.
    fn live(data: &[u8], piece: usize, synced: bool) -> Vec<PayloadEvent> {
        let mut d = LiveDeframer::new(EncapConfig::default(), synced);
        let mut events = Vec::new();
        for chunk in data.chunks(piece) {
            events.extend(d.push(chunk));
        }
        events.extend(d.finish(true));
        events
    }

    fn whole(data: &[u8]) -> Vec<PayloadEvent> {
        payloads(&Framing::Encap(EncapConfig::default()), data)
    }

    /// `encapsulation.adoc` "Synchronization": in any piece size, the live deframer gives
    /// the events of the whole-stream deframer, with or without an initial search (the
    /// stream starts with a synchronisation sequence).
    #[test]
    fn encapsulation_pieces_give_the_whole_stream_events() {
        let data = stream(200);
        let want = whole(&data);
        assert!(want.len() == 200);
        for piece in [1, 2, 3, 7, 31, 32, 33, 100, 4096] {
            assert_eq!(live(&data, piece, true), want, "piece {piece}, synced");
            assert_eq!(live(&data, piece, false), want, "piece {piece}, search");
        }
    }

    /// Corrupted and cut-off streams: the same errors at the same offsets.
    #[test]
    fn encapsulation_errors_equal_the_whole_stream_errors() {
        let mut data = stream(200);
        data[300] = 0x1f; // a header announcing 31 bytes
        data[301] = 0x80 | 0x05; // extend without a timestamp
        data[900] = 0xff;
        for cut in [data.len(), data.len() - 3, 905] {
            let part = &data[..cut];
            let want = whole(part);
            assert!(want.iter().any(|e| matches!(e, PayloadEvent::Error { .. })));
            for piece in [1, 5, 64, 1000] {
                assert_eq!(live(part, piece, true), want, "cut {cut}, piece {piece}");
            }
        }
    }

    /// A reader that stops on its own leaves a cut-off last packet undecoded, without error.
    #[test]
    fn encapsulation_stop_inside_a_packet_is_not_an_error() {
        let data = stream(50);
        let whole_events = whole(&data);
        let mut d = LiveDeframer::new(EncapConfig::default(), false);
        let mut got = d.push(&data[..data.len() - 2]);
        assert_eq!(d.pending(), data.len() - 2 - last_header(&data));
        got.extend(d.finish(false));
        assert_eq!(got, whole_events[..whole_events.len() - 1]);
    }

    /// Offset of the last packet's header.
    fn last_header(data: &[u8]) -> usize {
        match whole(data).last() {
            Some(PayloadEvent::Payload { offset, .. }) => *offset as usize,
            other => panic!("{other:?}"),
        }
    }

    /// A stream without any synchronisation sequence gives one error when searched.
    #[test]
    fn encapsulation_no_sync_is_an_error() {
        let data = vec![0x21u8, 0x05, 0x22, 0x01, 0x02];
        let got = live(&data, 2, false);
        assert_eq!(got.len(), 1);
        assert!(
            matches!(&got[0], PayloadEvent::Error { offset: Some(0), reason } if reason.contains("no synchronisation")),
            "{got:?}"
        );
    }
}
