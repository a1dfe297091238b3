//! The decoder of a trace's protocol (`--protocol`, `docs/cli.md`): E-Trace te_inst payloads
//! into the decoder of `decoder.adoc`, or N-Trace messages into the decoder of the N-Trace
//! decoding guidelines; both give the same trace elements, taken as they are produced.

use etrace_decoder::stream::{feed_payloads_with, PayloadEvent};
use etrace_decoder::{DecoderConfig, ProgramImage, TeDecoder, TraceElement};
use etrace_ntrace::decoder::{feed, StreamItem};
use etrace_ntrace::NtraceDecoder;
use etrace_spec::params::Params;

/// One protocol's decoder, counting the packets (messages) it was given.
pub struct ProtocolDecoder<'a> {
    decoder: Kind<'a>,
    /// Packets (E-Trace, readable or not) or messages (N-Trace) seen.
    pub packets: u64,
}

enum Kind<'a> {
    Etrace(Box<TeDecoder<'a>>, Params),
    Ntrace(NtraceDecoder<'a>),
}

impl<'a> ProtocolDecoder<'a> {
    /// E-Trace: payloads unpacked with `params` (and the latest support packet's
    /// `ioptions`) into `decoder`.
    pub fn etrace(decoder: TeDecoder<'a>, params: &Params) -> Self {
        ProtocolDecoder {
            decoder: Kind::Etrace(Box::new(decoder), params.clone()),
            packets: 0,
        }
    }

    /// N-Trace: messages into `decoder`.
    pub fn ntrace(decoder: NtraceDecoder<'a>) -> Self {
        ProtocolDecoder {
            decoder: Kind::Ntrace(decoder),
            packets: 0,
        }
    }

    /// Decodes E-Trace payload events (an N-Trace decoder is given none: the caller reads
    /// the stream as its protocol says), handing the elements of a long walk to `elements`
    /// as they come (`etrace_decoder::TeDecoder::process_with`): one format 0 packet can
    /// stand for billions of instructions, so memory holds a bounded number of elements
    /// (besides those of the events before, which the caller takes after).
    pub fn payloads_each<E>(
        &mut self,
        events: &[PayloadEvent],
        mut elements: impl FnMut(&[TraceElement]) -> Result<(), E>,
    ) -> Result<(), E> {
        debug_assert!(matches!(self.decoder, Kind::Etrace(..)));
        if let Kind::Etrace(decoder, params) = &mut self.decoder {
            self.packets = feed_payloads_with(decoder, params, self.packets, events, |e| {
                let done = elements(e);
                e.clear();
                done
            })?;
        }
        Ok(())
    }

    /// An E-Trace decoder's program image, parameters and configuration (for the
    /// parallel decoder); `None` for N-Trace.
    pub fn etrace_setup(&self) -> Option<(&'a ProgramImage, Params, DecoderConfig)> {
        match &self.decoder {
            Kind::Etrace(decoder, params) => {
                Some((decoder.image(), params.clone(), decoder.config()))
            }
            Kind::Ntrace(_) => None,
        }
    }

    /// Decodes N-Trace message stream items (an E-Trace decoder is given none).
    pub fn messages(&mut self, items: Vec<StreamItem>) {
        debug_assert!(matches!(self.decoder, Kind::Ntrace(..)));
        if let Kind::Ntrace(decoder) = &mut self.decoder {
            let messages = items
                .iter()
                .filter(|i| matches!(i, StreamItem::Message { .. }));
            self.packets += messages.count() as u64;
            feed(decoder, items);
        }
    }

    /// Decodes N-Trace message stream items like [`Self::messages`], handing the elements
    /// to `elements` after each message: one message can stand for millions of
    /// instructions, so memory holds the elements of one message at most.
    pub fn messages_each<E>(
        &mut self,
        items: Vec<StreamItem>,
        mut elements: impl FnMut(&[TraceElement]) -> Result<(), E>,
    ) -> Result<(), E> {
        for item in items {
            self.messages(vec![item]);
            let produced = self.take_elements(false);
            if !produced.is_empty() {
                elements(&produced)?;
            }
        }
        Ok(())
    }

    /// The elements produced so far (with the open instruction range when `flush`).
    pub fn take_elements(&mut self, flush: bool) -> Vec<TraceElement> {
        match &mut self.decoder {
            Kind::Etrace(decoder, _) => decoder.take_elements(flush),
            Kind::Ntrace(decoder) => decoder.take_elements(),
        }
    }

    /// What the protocol's trace is made of, for messages.
    pub fn units(&self) -> &'static str {
        match self.decoder {
            Kind::Etrace(..) => "te_inst packets",
            Kind::Ntrace(..) => "N-Trace messages",
        }
    }

    /// Instructions reconstructed so far.
    pub fn instructions(&self) -> u64 {
        match &self.decoder {
            Kind::Etrace(decoder, _) => decoder.instructions(),
            Kind::Ntrace(decoder) => decoder.instructions(),
        }
    }
}
