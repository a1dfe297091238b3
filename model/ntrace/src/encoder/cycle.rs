//! A cycle model of the N-Trace encoder's output ("Error Message", "Synchronizing
//! Messages" SYNC 7): one ingress record per cycle; the messages of each cycle enter a
//! FIFO of a given size, which sends a given number of bytes every given number of
//! cycles. A message that
//! does not fit is lost, and so is everything until the FIFO has room for an Error message
//! (ETYPE 0, ECODE "program trace messages lost") and the largest synchronising message:
//! then the Error message goes out and the trace restarts with a ProgTraceSync message
//! with SYNC 7 (restart from FIFO overrun).

use std::collections::VecDeque;

use super::engine::NtraceEncoder;
use super::options::{NtraceOptions, OptionError};
use crate::message::layout::write;
use crate::message::{Body, Message, SyncReason};
use crate::mseo::{MseoWriter, MSEO_END_MESSAGE};
use etrace_spec::ingress::IngressRecord;

/// Room an overflowed FIFO needs before the trace restarts: the Error message, the
/// largest standard message (38 bytes, "N-Trace Transmission Protocol") and an Ownership
/// message.
const RESTART_ROOM: usize = 4 + 38 + 12;

/// ECODE bit "Program Trace Message(s) lost" ("Error Message").
const ECODE_PROGRAM_TRACE_LOST: u64 = 0b100;

/// The output FIFO of the cycle model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FifoConfig {
    /// FIFO size in bytes (at least [`RESTART_ROOM`]).
    pub bytes: usize,
    /// Bytes sent at a time (the trace port's width in bytes).
    pub send_bytes: u32,
    /// Cycles between sends (1: every cycle).
    pub every_cycles: u32,
}

/// The N-Trace encoder with its output FIFO (module documentation).
#[derive(Debug, Clone)]
pub struct NtraceCycleEncoder {
    encoder: NtraceEncoder,
    fifo: FifoConfig,
    queue: VecDeque<u8>,
    out: Vec<u8>,
    cycle: u64,
    /// Messages are being lost until the FIFO has room again.
    overflowed: bool,
    /// Index of the record at which the trace (re)started, for each start.
    restarts: Vec<u64>,
    records: u64,
}

impl NtraceCycleEncoder {
    /// An encoder with `options` and a FIFO `fifo`.
    pub fn new(
        options: NtraceOptions,
        fifo: FifoConfig,
    ) -> Result<NtraceCycleEncoder, OptionError> {
        if fifo.bytes < RESTART_ROOM || fifo.send_bytes == 0 || fifo.every_cycles == 0 {
            return Err(OptionError {
                option: "fifo",
                reason: format!(
                    "{} bytes, {} bytes every {} cycles: needs at least {RESTART_ROOM} bytes \
                     and a send of at least 1 byte every 1 or more cycles",
                    fifo.bytes, fifo.send_bytes, fifo.every_cycles
                ),
            });
        }
        Ok(NtraceCycleEncoder {
            encoder: NtraceEncoder::new(options)?,
            fifo,
            queue: VecDeque::with_capacity(fifo.bytes),
            out: Vec::new(),
            cycle: 0,
            overflowed: false,
            restarts: Vec::new(),
            records: 0,
        })
    }

    /// One cycle with an ingress record.
    pub fn push(&mut self, rec: &IngressRecord) {
        let index = self.records;
        self.records += 1;
        if self.overflowed {
            if self.fifo.bytes - self.queue.len() >= RESTART_ROOM {
                self.overflowed = false;
                self.error_message();
                self.encoder.restart(SyncReason::FIFO_OVERRUN);
            } else {
                self.drain();
                return;
            }
        }
        if !self.encoder.is_started() {
            self.restarts.push(index);
        }
        self.encoder.push(rec);
        let bytes = self.encoder.take_bytes();
        self.enqueue(&bytes);
        self.drain();
    }

    /// The end of the trace: the last messages, and the FIFO emptied.
    pub fn finish(&mut self) {
        if !self.overflowed {
            self.encoder.finish();
            let bytes = self.encoder.take_bytes();
            self.enqueue(&bytes);
        }
        self.out.extend(self.queue.drain(..));
    }

    /// The bytes sent so far.
    pub fn take_bytes(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// The records at which the trace started and restarted after an overflow.
    pub fn restarts(&self) -> &[u64] {
        &self.restarts
    }

    /// Puts the messages of `bytes` into the FIFO; the first that does not fit starts an
    /// overflow (it and the rest are lost).
    fn enqueue(&mut self, bytes: &[u8]) {
        for message in bytes.split_inclusive(|b| b & 3 == MSEO_END_MESSAGE) {
            if self.overflowed || self.queue.len() + message.len() > self.fifo.bytes {
                self.overflowed = true;
                continue;
            }
            self.queue.extend(message);
        }
    }

    fn error_message(&mut self) {
        let options = self.encoder.options();
        let message = Message {
            src: options.src_id,
            body: Body::Error {
                etype: 0,
                ecode: ECODE_PROGRAM_TRACE_LOST,
            },
            tstamp: options.timestamp.then_some(0),
        };
        let mut w = MseoWriter::new();
        write(&message, &options.fields(), &mut w);
        self.queue.extend(w.take());
    }

    fn drain(&mut self) {
        self.cycle += 1;
        if self.cycle % u64::from(self.fifo.every_cycles) == 0 {
            let n = (self.fifo.send_bytes as usize).min(self.queue.len());
            self.out.extend(self.queue.drain(..n));
        }
    }
}
