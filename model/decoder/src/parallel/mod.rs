//! Parallel decoding of an E-Trace stream (issue 27, item 2): the framed stream is cut
//! into pieces at format 3 subformat 0 synchronisation packets, as byte ranges found by
//! the framing's boundary scan ([`split_bytes`]: the workers deframe their own range), or
//! for framings without one as payload events deframed in order ([`split`]); the pieces
//! are decoded apart on worker threads ([`piece`]) and joined in order ([`join`]), with
//! the output of the sequential decoder, element for element; the element buffers are
//! reused ([`buffers`]). Memory stays bounded: the stream is read in chunks, at most a
//! few pieces per thread are in flight, and a piece with a walk of more elements than a
//! worker holds ([`piece::PIECE_ELEMENTS`]) is decoded in order, its elements handed out
//! as they come. Worker threads are started as pieces come, never more than there are
//! pieces; when the system will not start one, the threads already started (or, with
//! none, the reading thread itself) decode the rest.

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
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
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
    /// Worker threads started: at most `jobs` and at most one per piece; fewer when the
    /// system would not start more.
    pub threads: usize,
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
        let (job_rx, buffers) = (&job_rx, &buffers);
        // Starts one more worker: false when the system will not start a thread.
        let spawn = move || {
            let result_tx = result_tx.clone();
            std::thread::Builder::new()
                .name(String::from("etrace-decode"))
                .spawn_scoped(scope, move || work(setup, job_rx, result_tx, buffers))
                .is_ok()
        };
        let mut driver = Driver::new(
            setup,
            parallel.piece_bytes,
            window,
            Workers::new(parallel.jobs, job_tx, Box::new(spawn)),
            result_rx,
        );
        let mut out = |elements: Vec<TraceElement>, last: bool| {
            let done = out(&elements, last);
            buffers.give(elements);
            done
        };
        read(&mut |bytes| driver.push(bytes, &mut out))?;
        driver.finish(&mut out)
    })
}

/// The worker threads of a decoding, started as pieces come, and the channel to them.
pub(crate) struct Workers<'w> {
    /// The channel to the workers (`None` once closed).
    jobs: Option<SyncSender<Piece>>,
    /// Starts one more worker.
    spawn: Box<dyn FnMut() -> bool + 'w>,
    /// Workers started.
    started: usize,
    /// Workers wanted at most (fewer once the system would not start one).
    most: usize,
}

impl<'w> Workers<'w> {
    /// At most `most` workers, taking pieces from `jobs`, started by `spawn`.
    pub fn new(
        most: usize,
        jobs: SyncSender<Piece>,
        spawn: Box<dyn FnMut() -> bool + 'w>,
    ) -> Workers<'w> {
        Workers {
            jobs: Some(jobs),
            spawn,
            started: 0,
            most,
        }
    }

    /// Hands `piece` to a worker, the `pieces`-th in flight (a worker is started for it
    /// when fewer than `pieces` run and more may); false when there is no worker to take
    /// it (the caller decodes it).
    pub fn send(&mut self, piece: &Piece, pieces: usize) -> bool {
        if self.started < self.most.min(pieces) {
            if (self.spawn)() {
                self.started += 1;
            } else {
                self.most = self.started;
            }
        }
        if self.started == 0 {
            return false;
        }
        let sent = self.jobs.as_ref().map(|jobs| jobs.send(piece.clone()));
        if !matches!(sent, Some(Ok(()))) {
            self.jobs = None;
            return false;
        }
        true
    }

    /// No more pieces: the workers end when they have decoded theirs.
    pub fn close(&mut self) {
        self.jobs = None;
    }

    /// Workers started.
    pub fn started(&self) -> usize {
        self.started
    }
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

#[cfg(test)]
mod tests {
    use super::split::Content;
    use super::*;
    use etrace_spec::packet::IOptions;
    use std::sync::Arc;

    fn piece(seq: u64) -> Piece {
        Piece {
            seq,
            first_index: 0,
            primed: seq > 0,
            options: IOptions::default(),
            content: Content::Events(Arc::new(Vec::new())),
            last: false,
        }
    }

    /// A worker is started for each piece in flight up to the most wanted; when the
    /// system will not start one, no more are tried, and with none started the pieces are
    /// left to the caller. Cases: threads the system starts, pieces in flight at each
    /// send, and whether each send went to a worker, with the workers started at the end.
    #[test]
    fn workers_start_per_piece_and_fall_back_when_the_system_refuses() {
        #[allow(clippy::type_complexity)]
        let cases: &[(usize, &[usize], &[bool], usize)] = &[
            (64, &[1, 2, 3, 3], &[true; 4], 3),
            (1, &[1, 2, 3], &[true; 3], 1),
            (0, &[1, 2], &[false, false], 0),
        ];
        for &(allowed, in_flight, want, started) in cases {
            let (tx, rx) = sync_channel::<Piece>(16);
            let mut spawned = 0;
            let spawn = move || {
                spawned += 1;
                spawned <= allowed
            };
            let mut workers = Workers::new(4, tx, Box::new(spawn));
            let got: Vec<bool> = in_flight
                .iter()
                .enumerate()
                .map(|(i, &n)| workers.send(&piece(i as u64), n))
                .collect();
            assert_eq!(got, want, "{allowed} threads allowed");
            assert_eq!(workers.started(), started, "{allowed} threads allowed");
            let sent = want.iter().filter(|&&s| s).count();
            assert_eq!(rx.try_iter().count(), sent, "{allowed} threads allowed");
        }
    }
}
