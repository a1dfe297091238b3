//! Parallel decoding of an E-Trace stream (issue 27, item 2): the framed stream is cut
//! into pieces at format 3 subformat 0 synchronisation packets, as byte ranges found by
//! the framing's boundary scan ([`split_bytes`]: the workers deframe their own range), or
//! for framings without one as payload events deframed in order ([`split`]); the pieces
//! are decoded apart on worker threads ([`piece`]) and joined in order ([`join`]), with
//! the output of the sequential decoder, element for element; the element buffers are
//! reused ([`buffers`]). Memory stays bounded: the stream is read in chunks, and at most a
//! few pieces per thread are in flight.

pub mod buffers;
mod driver;
pub mod join;
pub mod piece;
pub mod split;
pub mod split_bytes;

use crate::element::TraceElement;
use crate::image::ProgramImage;
use crate::stream::Framing;
use crate::te_decoder::DecoderConfig;
use buffers::ElementBuffers;
use driver::Driver;
use etrace_spec::params::Params;
use piece::{decode_piece, Decoded};
use split::Piece;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};
use std::sync::Mutex;

/// How to decode in parallel.
#[derive(Debug, Clone, Copy)]
pub struct ParallelConfig {
    /// Worker threads.
    pub jobs: usize,
    /// Payload bytes after which a piece ends at the next sync packet.
    pub piece_bytes: usize,
    /// Pieces in flight per worker thread.
    pub window_per_job: usize,
}

impl ParallelConfig {
    /// `jobs` workers, pieces of 4 KiB of framed bytes, two pieces in flight per worker:
    /// a piece's elements (about 150 times its size) then stay in a buffer of well under a
    /// megabyte, reused from piece to piece (measured on the 10^7-instruction scaling
    /// trace: 16 KiB pieces cost a fifth more CPU time in page faults).
    pub fn new(jobs: usize) -> ParallelConfig {
        ParallelConfig {
            jobs: jobs.max(1),
            piece_bytes: 1 << 12,
            window_per_job: 2,
        }
    }
}

/// What a parallel decoding did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Payload events that were packets (readable or not).
    pub packets: u64,
    /// Instructions reconstructed.
    pub instructions: u64,
    /// Pieces the stream was cut into.
    pub pieces: u64,
    /// Pieces decoded again in order, because the state they were primed with did not
    /// agree (see [`crate::TeDecoder::continues_into`]).
    pub redecoded: u64,
}

/// What a decoding is given: the program image, the encoder's parameters, the decoder
/// configuration and the framing.
#[derive(Clone, Copy)]
pub struct Setup<'s> {
    /// The program image.
    pub image: &'s ProgramImage,
    /// The encoder parameters.
    pub params: &'s Params,
    /// The decoder configuration.
    pub config: DecoderConfig,
    /// The framing of the stream.
    pub framing: &'s Framing,
}

/// Decodes the stream that `read` pushes in chunks (into the function it is given) on
/// `parallel.jobs` threads; `out` reads the elements in order as they are joined, the
/// last time with `true` (their buffer is reused afterwards). The first error of `read`
/// or `out` ends the decoding.
pub fn decode_parallel<E>(
    setup: Setup<'_>,
    parallel: ParallelConfig,
    read: impl FnOnce(&mut dyn FnMut(&[u8]) -> Result<(), E>) -> Result<(), E>,
    mut out: impl FnMut(&[TraceElement], bool) -> Result<(), E>,
) -> Result<Summary, E> {
    let (job_tx, job_rx) = sync_channel::<Piece>(parallel.jobs);
    let job_rx = Mutex::new(job_rx);
    let (result_tx, result_rx) = channel::<Decoded<'_>>();
    let window = parallel.jobs * parallel.window_per_job.max(1);
    let buffers = ElementBuffers::new(window + parallel.jobs);
    std::thread::scope(|scope| {
        for _ in 0..parallel.jobs {
            let (job_rx, result_tx, buffers) = (&job_rx, result_tx.clone(), &buffers);
            scope.spawn(move || work(setup, job_rx, result_tx, buffers));
        }
        drop(result_tx);
        let mut driver = Driver::new(setup, parallel.piece_bytes, window, job_tx, result_rx);
        let mut out = |elements: Vec<TraceElement>, last: bool| {
            let done = out(&elements, last);
            buffers.give(elements);
            done
        };
        read(&mut |bytes| driver.push(bytes, &mut out))?;
        driver.finish(&mut out)
    })
}

/// A worker thread: decodes the pieces it takes (into buffers handed back, when there are
/// some) until there are no more.
fn work<'a>(
    setup: Setup<'a>,
    jobs: &Mutex<Receiver<Piece>>,
    results: Sender<Decoded<'a>>,
    buffers: &ElementBuffers,
) {
    loop {
        let piece = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(piece) = piece else {
            return;
        };
        let decoded = decode_piece(
            setup.image,
            setup.params,
            setup.config,
            setup.framing,
            &piece,
            buffers.take(),
        );
        if results.send(decoded).is_err() {
            return;
        }
    }
}
