//! The hart model's ingress records as an iterator (issue 27, "streaming everywhere"): the
//! hart runs an ELF in a thread of its own and hands its records (with the instruction
//! bits) on in chunks through a bounded channel, so that a consumer that pulls records (a
//! co-simulation's stimulus, a check that walks the hart's steps) holds no more than a few
//! chunks, however long the run.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use etrace_spec::elf::LoadError;
use etrace_spec::ingress::IngressRecord;

use crate::{Hart, HartConfig, HartError};

/// Records per chunk.
const CHUNK: usize = 4096;
/// Chunks the hart may run ahead of the consumer.
const CHUNKS_AHEAD: usize = 4;

/// Why the records of a [`HartRecords`] run ended before the program exited.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HartRecordsError {
    /// The ELF file could not be loaded.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The run stopped with an error.
    #[error("{0}")]
    Run(#[from] HartError),
    /// The hart's thread could not be started.
    #[error("the hart model's thread could not be started: {0}")]
    Spawn(String),
    /// The hart's thread panicked.
    #[error("the hart model's thread panicked: {0}")]
    Panicked(String),
    /// The run handed on another number of records than the run it repeats.
    #[error(
        "the hart model handed on {presented} records, the first run of the program {expected}"
    )]
    Count {
        /// Records of the first run.
        expected: u64,
        /// Records handed on.
        presented: u64,
    },
}

/// What the hart's thread sends.
enum Message {
    /// The next records.
    Chunk(Vec<(IngressRecord, u32)>),
    /// The end of the run: the program exited (`Ok`), or the error.
    End(Result<(), HartRecordsError>),
}

/// The records of one run of the hart model on an ELF file, in order, each with its
/// instruction bits (as [`crate::IngressSink::record`] gets them); an error of loading the
/// ELF, of the run or of the hart's thread (a panic) is the last item. When dropped, the
/// hart's thread is stopped ([`Hart::with_stop`]) and joined.
pub struct HartRecords {
    chunks: Option<Receiver<Message>>,
    chunk: std::vec::IntoIter<(IngressRecord, u32)>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// The run's end was seen (or its error handed on): no more items.
    ended: bool,
}

/// The hart's thread: runs the program and sends its records, then the end marker.
fn run_hart(elf: &[u8], config: HartConfig, stop: Arc<AtomicBool>, to: &SyncSender<Message>) {
    let mut hart = match Hart::from_elf(elf, config) {
        Ok(hart) => hart.with_stop(stop).without_console(),
        Err(e) => {
            let _ = to.send(Message::End(Err(e.into())));
            return;
        }
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
            listening = to.send(Message::Chunk(full)).is_ok();
        }
    };
    let result = hart.run(&mut sink);
    if !listening {
        return;
    }
    if !chunk.is_empty() && to.send(Message::Chunk(chunk)).is_err() {
        return;
    }
    let _ = to.send(Message::End(result.map(|_| ()).map_err(Into::into)));
}

/// The text of a thread's panic payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

impl HartRecords {
    /// Starts the hart model on `elf` with `config` in a thread of its own.
    pub fn spawn(elf: Arc<Vec<u8>>, config: HartConfig) -> HartRecords {
        let (to_consumer, chunks) = sync_channel(CHUNKS_AHEAD);
        let stop = Arc::new(AtomicBool::new(false));
        let hart_stop = stop.clone();
        let spawned = std::thread::Builder::new()
            .name("hart-records".into())
            .spawn(move || run_hart(&elf, config, hart_stop, &to_consumer));
        let (thread, chunks) = match spawned {
            Ok(thread) => (Some(thread), chunks),
            Err(e) => {
                // The end marker of a thread that never ran.
                let (to, chunks) = sync_channel(1);
                let _ = to.send(Message::End(Err(HartRecordsError::Spawn(e.to_string()))));
                (None, chunks)
            }
        };
        HartRecords {
            chunks: Some(chunks),
            chunk: Vec::new().into_iter(),
            stop,
            thread,
            ended: false,
        }
    }

    /// The error of a thread that ended without its end marker: its panic.
    fn lost_thread(&mut self) -> HartRecordsError {
        let text = match self.thread.take().map(JoinHandle::join) {
            Some(Err(payload)) => panic_text(payload.as_ref()),
            _ => "it ended without the end of the run".to_string(),
        };
        HartRecordsError::Panicked(text)
    }

    /// The records without their `Result`, each counted in `tally`, which keeps the error
    /// that ends them (for consumers that take an iterator of records, such as a
    /// co-simulation's stimulus).
    pub fn tallied(
        self,
        tally: Arc<RecordsTally>,
    ) -> impl Iterator<Item = (IngressRecord, u32)> + Send + 'static {
        self.map_while(move |item| match item {
            Ok(record) => {
                tally.records.fetch_add(1, Ordering::Relaxed);
                Some(record)
            }
            Err(e) => {
                if let Ok(mut error) = tally.error.lock() {
                    error.get_or_insert(e);
                }
                None
            }
        })
    }
}

impl Iterator for HartRecords {
    type Item = Result<(IngressRecord, u32), HartRecordsError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.chunk.next() {
                return Some(Ok(item));
            }
            if self.ended {
                return None;
            }
            let message = self.chunks.as_ref().and_then(|c| c.recv().ok());
            match message {
                Some(Message::Chunk(chunk)) => self.chunk = chunk.into_iter(),
                Some(Message::End(end)) => {
                    self.ended = true;
                    return end.err().map(Err);
                }
                None => {
                    self.ended = true;
                    return Some(Err(self.lost_thread()));
                }
            }
        }
    }
}

impl Drop for HartRecords {
    /// Stops the hart's thread (a run whose records are no longer wanted) and joins it.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // A thread blocked on a full channel sees it closed.
        drop(self.chunks.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The records a [`HartRecords::tallied`] iterator handed on, and the error that ended
/// them, read once the consumer is done.
#[derive(Debug, Default)]
pub struct RecordsTally {
    records: AtomicU64,
    error: Mutex<Option<HartRecordsError>>,
}

impl RecordsTally {
    /// Records handed on so far.
    pub fn records(&self) -> u64 {
        self.records.load(Ordering::Relaxed)
    }

    /// The error that ended the records, if any.
    pub fn error(&self) -> Option<HartRecordsError> {
        self.error.lock().ok().and_then(|e| e.clone())
    }

    /// The run handed on all its `expected` records (those of a first run of the same
    /// program) without an error; otherwise the error, or the counts.
    pub fn check(&self, expected: u64) -> Result<(), HartRecordsError> {
        if let Some(e) = self.error() {
            return Err(e);
        }
        let presented = self.records();
        if presented != expected {
            return Err(HartRecordsError::Count {
                expected,
                presented,
            });
        }
        Ok(())
    }
}
