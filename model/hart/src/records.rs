//! The hart model's ingress records as an iterator (issue 27, "streaming everywhere"): the
//! hart runs an ELF in a thread of its own and hands its records (with the instruction
//! bits) on in chunks through a bounded channel, so that a consumer that pulls records (a
//! co-simulation's stimulus, a check that walks the hart's steps) holds no more than a few
//! chunks, however long the run.

use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

use etrace_spec::ingress::IngressRecord;

use crate::{Hart, HartConfig};

/// Records per chunk.
const CHUNK: usize = 4096;
/// Chunks the hart may run ahead of the consumer.
const CHUNKS_AHEAD: usize = 4;

/// The records of one run of the hart model on an ELF file, in order, each with its
/// instruction bits (as [`crate::IngressSink::record`] gets them). An error of the run
/// (or of loading the ELF) ends the records: run the program once beforehand to report
/// it. When the iterator is dropped early, the hart's thread stops handing records on
/// and ends with the run.
pub struct HartRecords {
    chunks: Receiver<Vec<(IngressRecord, u32)>>,
    chunk: std::vec::IntoIter<(IngressRecord, u32)>,
}

impl HartRecords {
    /// Starts the hart model on `elf` with `config` in a thread of its own.
    pub fn spawn(elf: Arc<Vec<u8>>, config: HartConfig) -> HartRecords {
        let (to_consumer, chunks) = sync_channel(CHUNKS_AHEAD);
        std::thread::spawn(move || {
            let Ok(mut hart) = Hart::from_elf(&elf, config) else {
                return;
            };
            let mut chunk = Vec::with_capacity(CHUNK);
            let mut listening = true;
            let mut sink = |rec: &IngressRecord, insn: u32| {
                if !listening {
                    return;
                }
                chunk.push((*rec, insn));
                if chunk.len() == CHUNK {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
                    listening = to_consumer.send(full).is_ok();
                }
            };
            let _ = hart.run(&mut sink);
            if listening && !chunk.is_empty() {
                let _ = to_consumer.send(chunk);
            }
        });
        HartRecords {
            chunks,
            chunk: Vec::new().into_iter(),
        }
    }
}

impl Iterator for HartRecords {
    type Item = (IngressRecord, u32);

    fn next(&mut self) -> Option<(IngressRecord, u32)> {
        loop {
            if let Some(item) = self.chunk.next() {
                return Some(item);
            }
            self.chunk = self.chunks.recv().ok()?.into_iter();
        }
    }
}
