//! MSEO bytes to decoded messages: the streaming reader ([`MessageSplitter`]) and the
//! message layout, with every problem placed at its byte offset.

use crate::message::layout::parse;
use crate::message::{FieldConfig, Message};
use crate::mseo::MessageSplitter;
use etrace_spec::framing::{Deframer, FrameEvent};

use super::engine::NtraceDecoder;
use etrace_decoder::TraceElement;

/// One item of a message stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamItem {
    /// A message, its index in the stream and the byte offset of its first byte.
    Message {
        /// Index (0-based) among the messages and unreadable stretches.
        index: u64,
        /// Byte offset.
        offset: u64,
        /// The message.
        message: Message,
    },
    /// Bytes that do not read as a message.
    Error {
        /// Index (0-based) among the messages and unreadable stretches.
        index: u64,
        /// Byte offset where the problem is, when known.
        offset: Option<u64>,
        /// What was wrong.
        reason: String,
    },
}

/// Messages of an MSEO byte stream pushed in pieces.
pub struct MessageStream {
    splitter: MessageSplitter,
    fields: FieldConfig,
    events: Vec<FrameEvent>,
    index: u64,
}

impl MessageStream {
    /// A stream whose first byte starts a message (`synced`) or not.
    pub fn new(fields: FieldConfig, synced: bool) -> MessageStream {
        MessageStream {
            splitter: MessageSplitter::new(fields.src_bits, synced),
            fields,
            events: Vec::new(),
            index: 0,
        }
    }

    /// Takes the next bytes; returns the items they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<StreamItem> {
        self.splitter.push(bytes, &mut self.events);
        self.take()
    }

    /// The end of the stream: the remaining items.
    pub fn finish(&mut self) -> Vec<StreamItem> {
        self.splitter.finish(&mut self.events);
        self.take()
    }

    /// Bytes of a message begun and not ended.
    pub fn pending(&self) -> usize {
        Deframer::pending(&self.splitter)
    }

    /// Reading stops before the end of the stream (a live capture interrupted): a message
    /// begun and not ended is dropped, not reported as cut off.
    pub fn stop(&mut self) -> Vec<StreamItem> {
        self.splitter.stop(&mut self.events);
        self.take()
    }

    fn take(&mut self) -> Vec<StreamItem> {
        let mut items = Vec::with_capacity(self.events.len());
        for event in self.events.drain(..) {
            let index = self.index;
            self.index += 1;
            items.push(match event {
                FrameEvent::Packet(p) => {
                    let offset = p.at.index().unwrap_or(0);
                    match parse(&p.payload, &self.fields) {
                        Ok(message) => StreamItem::Message {
                            index,
                            offset,
                            message,
                        },
                        Err(e) => StreamItem::Error {
                            index,
                            offset: Some(offset),
                            reason: format!("byte offset {offset}: {e}"),
                        },
                    }
                }
                FrameEvent::Error { at, error } => StreamItem::Error {
                    index,
                    offset: at.index(),
                    reason: FrameEvent::reason(&at, &error),
                },
            });
        }
        items
    }
}

/// Hands the items of a message stream to `decoder`: messages are processed, unreadable
/// bytes reported (decoding then waits for a synchronising message).
pub fn feed(decoder: &mut NtraceDecoder, items: Vec<StreamItem>) {
    for item in items {
        match item {
            StreamItem::Message {
                index,
                offset,
                message,
            } => decoder.process(&message, index, Some(offset)),
            StreamItem::Error {
                index,
                offset,
                reason,
            } => decoder.unreadable(index, offset, reason),
        }
    }
}

/// Decodes a whole MSEO byte stream (its first byte starts a message or is idle), pushed
/// in pieces of 64 KiB; returns the trace elements.
pub fn decode_bytes(
    decoder: &mut NtraceDecoder,
    fields: FieldConfig,
    bytes: &[u8],
) -> Vec<TraceElement> {
    let mut stream = MessageStream::new(fields, true);
    let mut elements = Vec::new();
    for piece in bytes.chunks(1 << 16) {
        feed(decoder, stream.push(piece));
        elements.extend(decoder.take_elements());
    }
    feed(decoder, stream.finish());
    elements.extend(decoder.take_elements());
    elements
}
