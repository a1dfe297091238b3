//! The RTL-against-model regression (`hdl/DESIGN.md`, "Cycle contract"): an ingress stream
//! drives the verilated encoder ([`Rtl`]) and the cycle model of the same encoder
//! ([`EncoderCycle`]) with the same inputs, cycle by cycle, under random idle cycles and
//! output back-pressure ([`StallConfig`]); their output ports must be equal in every cycle
//! (byte or beat, `last`, `trace_lost`). On the first difference the run stops with a
//! [`Mismatch`] report (cycle, first differing byte, its packet on both sides, decoded, and
//! a waveform file). The bytes the consumer took can then be decoded and checked against
//! the hart ([`verify`]).

mod candidates;
pub mod deframe;
mod per_cycle;
pub mod port;
mod report;
pub mod stimulus;
pub mod stream_check;
pub mod verify;

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Instant;

use etrace_decoder::stream::PayloadEvent;
use etrace_encoder::cycle::encoder::{EncoderCycle, EncoderCycleError};
use etrace_encoder::cycle::output_path::{OutputPathConfig, OutputPort};
use etrace_encoder::EncoderOptions;
use etrace_hdl::top::{OutputKind, TopOptions};
use etrace_spec::framing::atb::AtbBeat;
use etrace_spec::framing::FramingKind;
use etrace_spec::ingress::IngressRecord;
use etrace_spec::params::Params;

use crate::{Inputs, Rtl, Variant, VcdError};
pub use deframe::TakenDeframer;
pub use per_cycle::run_per_cycle;
pub use port::PortState;
pub use report::Mismatch;
pub use stimulus::{StallConfig, Stimulus};

/// Cycles with reset high before the first cycle.
const RESET_CYCLES: u32 = 2;
/// Cycles allowed after the last record for the output to drain.
const DRAIN_LIMIT: u64 = 1 << 20;
/// The progress callback runs every this many cycles.
pub const PROGRESS_PERIOD: u64 = 1 << 16;

/// One co-simulation's settings.
#[derive(Debug, Clone)]
pub struct CosimConfig {
    /// The verilated encoder.
    pub variant: Variant,
    /// Run-time options on the option ports (no implicit return, no branch prediction).
    pub options: EncoderOptions,
    /// Idle cycles and back-pressure.
    pub stall: StallConfig,
    /// `src_id` input (its low `src_bits` bits are sent).
    pub src_id: u16,
    /// ATID of the ATB variants.
    pub atid: u8,
    /// Dump a waveform (VCD) of the whole run here.
    pub wave: Option<PathBuf>,
    /// Where a mismatch's waveform goes when `wave` is not set.
    pub mismatch_wave_dir: PathBuf,
}

impl CosimConfig {
    /// Default options, no stalls, srcID 0, ATID 0x10, no waveform; a mismatch's waveform
    /// goes to the system's temporary directory.
    pub fn new(variant: Variant) -> CosimConfig {
        CosimConfig {
            variant,
            options: EncoderOptions::default(),
            stall: StallConfig::default(),
            src_id: 0,
            atid: 0x10,
            wave: None,
            mismatch_wave_dir: std::env::temp_dir(),
        }
    }

    /// The model's parameters of the variant's configuration.
    pub fn params(&self) -> Params {
        self.variant.params()
    }

    /// The cycle model's output path for the variant (`hdl/src/top.rs`, `generate`).
    pub fn output(&self) -> OutputPathConfig {
        output_path(&self.variant.top_options(), self.src_id, self.atid)
    }
}

/// The cycle model's output path of an encoder built with `top` (`hdl/src/top.rs`,
/// `generate`), on whose `src_id` input is `src_id` (its low `src_bits` bits are sent) and
/// whose ATB port (if any) has the ATID `atid`.
pub fn output_path(top: &TopOptions, src_id: u16, atid: u8) -> OutputPathConfig {
    let (framing, port) = match top.output {
        OutputKind::Bytes => (FramingKind::Encap, OutputPort::ByteStream),
        OutputKind::Smi => (FramingKind::Smi, OutputPort::ByteStream),
        OutputKind::Atb { data_bytes } => (
            FramingKind::Encap,
            OutputPort::Atb {
                data_bytes: data_bytes as u8,
                atid,
            },
        ),
    };
    OutputPathConfig {
        framing,
        src_bits: top.src_bits,
        src_id: if top.src_bits == 0 {
            0
        } else {
            src_id & ((1u32 << top.src_bits) - 1) as u16
        },
        timestamp: top.timestamp,
        // Encap byte streams as `etrace encode --framing encap` writes them.
        sync_interval: if top.output == OutputKind::Bytes {
            4096
        } else {
            0
        },
        fifo_depth: top.fifo_depth,
        port,
    }
}

/// What the consumer took from the port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TakenStream {
    /// Bytes of the byte stream.
    Bytes(Vec<u8>),
    /// ATB beats.
    Beats(Vec<AtbBeat>),
}

impl TakenStream {
    /// Bytes taken (for ATB: valid bytes of the beats).
    pub fn byte_count(&self) -> u64 {
        self.items().byte_count()
    }

    /// The stream as the items the consumer took.
    pub fn items(&self) -> TakenItems<'_> {
        match self {
            TakenStream::Bytes(b) => TakenItems::Bytes(b),
            TakenStream::Beats(b) => TakenItems::Beats(b),
        }
    }

    /// The payloads of the stream (deframed as the model's decoder does).
    pub fn payloads(&self, output: &OutputPathConfig) -> Vec<PayloadEvent> {
        let mut deframer = TakenDeframer::new(output);
        let mut events = deframer.push(self.items());
        events.extend(deframer.finish());
        events
    }
}

/// Figures of a co-simulation run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CosimStats {
    /// Clock cycles simulated (after reset).
    pub cycles: u64,
    /// Wall time of the cycle loop, seconds.
    pub seconds: f64,
    /// Ingress blocks presented.
    pub blocks: u64,
    /// Retired instructions presented.
    pub instructions: u64,
    /// Packets the encoder pushed (identical on both sides).
    pub packets: u64,
    /// Packets dropped because the queue was full.
    pub dropped: u64,
    /// Bytes taken by the consumer, equal on both sides.
    pub bytes: u64,
}

impl CosimStats {
    /// Simulated cycles per second of wall time.
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

/// A finished, matching run.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Figures.
    pub stats: CosimStats,
    /// What the consumer took (equal on both sides).
    pub stream: TakenStream,
}

/// Why a co-simulation stopped.
#[derive(Debug, thiserror::Error)]
pub enum CosimError {
    /// The RTL and the model differ.
    #[error("{0}")]
    Mismatch(Box<Mismatch>),
    /// The model rejected the settings or broke its contract.
    #[error("model: {0}")]
    Model(#[from] EncoderCycleError),
    /// The waveform file could not be written.
    #[error("waveform: {0}")]
    Wave(#[from] VcdError),
    /// The model side's thread stopped before the end of the run.
    #[error("the model side of the co-simulation stopped unexpectedly")]
    ModelStopped,
    /// The output did not drain after the last record.
    #[error("the output did not drain within {0} cycles after the last record")]
    NoDrain(u64),
    /// The consumer of the output ([`run_streaming`]'s `taken`) stopped the run after this
    /// many cycles (for example because its file cannot be written); it says why.
    #[error("the consumer of the RTL's output stopped the run after {0} cycles")]
    ConsumerStopped(u64),
}

/// The model side of a cycle: the stimulus and the cycle model, and what they give the
/// RTL side.
struct ModelSide<I> {
    model: EncoderCycle,
    stimulus: Stimulus<I>,
    /// The inputs that do not change (options, srcID, ATID).
    base: Inputs,
    /// Cycles prepared.
    cycle: u64,
    /// The cycle in which the records ended.
    ended_at: Option<u64>,
}

/// One cycle prepared by the model side.
#[derive(Clone, Copy)]
struct Prepared {
    /// The RTL's inputs.
    inputs: Inputs,
    /// The port the model shows before the cycle's clock edge.
    want: PortState,
}

impl<I: Iterator<Item = IngressRecord>> ModelSide<I> {
    fn new(config: &CosimConfig, records: I) -> Result<ModelSide<I>, CosimError> {
        let model = EncoderCycle::new(&config.params(), config.options, config.output())?;
        let mut base = Inputs::default();
        base.set_options(&config.options);
        base.src_id = config.src_id;
        base.source_atid = config.atid;
        Ok(ModelSide {
            model,
            stimulus: Stimulus::new(records, config.stall),
            base,
            cycle: 0,
            ended_at: None,
        })
    }

    /// The next cycle, run on the model.
    fn prepare(&mut self) -> Result<Prepared, CosimError> {
        let c = self.stimulus.next_cycle();
        let want = PortState::of_model(self.model.presented(), self.model.trace_lost());
        let mut inputs = self.base;
        inputs.set_block(c.block.as_ref());
        inputs.trace_enable = c.trace_enable;
        inputs.trigger = c.trigger;
        inputs.halted = c.halted;
        inputs.ready = c.ready;
        self.model.cycle(&c)?;
        self.cycle += 1;
        Ok(Prepared { inputs, want })
    }

    /// After a cycle: whether the run is over (records ended and the output drained);
    /// an error when the output does not drain.
    fn finished(&mut self) -> Result<bool, CosimError> {
        if !self.stimulus.ended() {
            return Ok(false);
        }
        let since = *self.ended_at.get_or_insert(self.cycle);
        if self.model.is_idle() {
            return Ok(true);
        }
        if self.cycle - since > DRAIN_LIMIT {
            return Err(CosimError::NoDrain(DRAIN_LIMIT));
        }
        Ok(false)
    }

    fn totals(&self) -> ModelTotals {
        ModelTotals {
            blocks: self.stimulus.presented(),
            instructions: self.stimulus.retired(),
            packets: self.model.pushed(),
            dropped: self.model.dropped(),
        }
    }
}

/// The model side's counts at the end of a run.
#[derive(Debug, Clone, Copy)]
struct ModelTotals {
    blocks: u64,
    instructions: u64,
    packets: u64,
    dropped: u64,
}

impl ModelTotals {
    /// The figures of a matching run of `cycles` cycles in `seconds` that handed on `bytes`.
    fn stats(self, cycles: u64, seconds: f64, bytes: u64) -> CosimStats {
        CosimStats {
            cycles,
            seconds,
            blocks: self.blocks,
            instructions: self.instructions,
            packets: self.packets,
            dropped: self.dropped,
            bytes,
        }
    }
}

/// The two simulators and the stimulus, stepped together in one thread (the mismatch
/// report's re-run).
struct Bench<I> {
    rtl: Rtl,
    side: ModelSide<I>,
}

impl<I: Iterator<Item = IngressRecord>> Bench<I> {
    /// Both sides after reset; the RTL is the traced build if `traced` (for a waveform).
    fn new(config: &CosimConfig, records: I, traced: bool) -> Result<Bench<I>, CosimError> {
        let side = ModelSide::new(config, records)?;
        let mut rtl = if traced {
            Rtl::traced(config.variant)
        } else {
            Rtl::new(config.variant)
        };
        rtl.reset(RESET_CYCLES);
        Ok(Bench { rtl, side })
    }

    /// One cycle on both sides: the two port states and whether the consumer took the
    /// item.
    fn step(&mut self) -> Result<(PortState, PortState, bool), CosimError> {
        let p = self.side.prepare()?;
        let got = PortState::of_rtl(&self.rtl.step(&p.inputs), self.rtl.variant().is_atb());
        Ok((got, p.want, p.inputs.ready))
    }
}

/// Cycles the model side prepares ahead in one batch.
const BATCH: usize = 1024;
/// Batches the model side may run ahead of the RTL.
const BATCHES_AHEAD: usize = 4;

/// A batch of prepared cycles (the RTL's inputs and the model's port of each); the last
/// one carries the model's totals.
struct Batch {
    inputs: Vec<Inputs>,
    wants: Vec<PortState>,
    /// Blocks presented up to the end of the batch.
    presented: u64,
    /// Set on the run's last batch.
    end: Option<ModelTotals>,
}

/// The model side's thread: prepares batches until the run is over, the RTL side stops
/// listening, or the model fails.
fn prepare_batches<I: Iterator<Item = IngressRecord>>(
    mut side: ModelSide<I>,
    to_rtl: &mpsc::SyncSender<Result<Batch, CosimError>>,
) {
    loop {
        let mut batch = Batch {
            inputs: Vec::with_capacity(BATCH),
            wants: Vec::with_capacity(BATCH),
            presented: 0,
            end: None,
        };
        let result = (|| {
            while batch.inputs.len() < BATCH {
                let p = side.prepare()?;
                batch.inputs.push(p.inputs);
                batch.wants.push(p.want);
                if side.finished()? {
                    batch.end = Some(side.totals());
                    break;
                }
            }
            Ok(())
        })();
        batch.presented = side.stimulus.presented();
        let last = batch.end.is_some();
        let message = result.map(|()| batch);
        let failed = message.is_err();
        if to_rtl.send(message).is_err() || last || failed {
            return;
        }
    }
}

/// How the RTL side's loop ended.
enum Checked {
    /// Every cycle agreed; the model side's totals.
    Done(ModelTotals),
    /// The ports differ in `cycle`.
    Differ {
        cycle: u64,
        got: PortState,
        want: PortState,
    },
    /// The model side failed.
    Failed(CosimError),
    /// The consumer stopped the run after this many cycles.
    Stopped(u64),
}

/// Runs `records` through both sides until the output has drained; `progress` is called
/// every [`PROGRESS_PERIOD`] cycles with (cycles, blocks presented).
///
/// The hart's records and the cycle model run in a second thread, batches of cycles ahead
/// of the RTL (the stimulus never depends on the outputs); the RTL side runs each batch in
/// one call into the verilated model ([`Rtl::run`]) and compares the ports.
/// On a mismatch the run is repeated in one thread to write the report and the waveform.
pub fn run<I>(
    config: &CosimConfig,
    records: I,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Outcome, CosimError>
where
    I: Iterator<Item = IngressRecord> + Clone + Send,
{
    let mut taken = Taken::default();
    let stats = run_streaming(config, || records.clone(), progress, &mut |items| {
        taken.extend(items);
        ControlFlow::Continue(())
    })?;
    Ok(taken.outcome(config.variant.is_atb(), stats))
}

/// The items the consumer took in a batch of cycles, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakenItems<'a> {
    /// Bytes of the byte stream.
    Bytes(&'a [u8]),
    /// ATB beats.
    Beats(&'a [AtbBeat]),
}

impl TakenItems<'_> {
    /// Bytes taken (for ATB: valid bytes of the beats).
    pub fn byte_count(&self) -> u64 {
        match self {
            TakenItems::Bytes(b) => b.len() as u64,
            TakenItems::Beats(b) => b.iter().map(|x| u64::from(x.atbytes) + 1).sum(),
        }
    }
}

/// [`run`] as a pipeline of bounded buffers (issue 27, "streaming everywhere"): the
/// records come from `records()` (called once for the run and once more for a mismatch's
/// report, which repeats the run from reset), and what the consumer takes goes to `taken`
/// after each batch of cycles whose ports agreed, instead of being kept; nothing grows with
/// the length of the run. The statistics of the run, or the first difference as
/// [`run`] reports it; [`CosimError::ConsumerStopped`] as soon as `taken` breaks.
pub fn run_streaming<I, R>(
    config: &CosimConfig,
    records: R,
    progress: &mut dyn FnMut(u64, u64),
    taken: &mut dyn FnMut(TakenItems<'_>) -> ControlFlow<()>,
) -> Result<CosimStats, CosimError>
where
    I: Iterator<Item = IngressRecord> + Send,
    R: Fn() -> I,
{
    let side = ModelSide::new(config, records())?;
    // The fast build unless a waveform of the whole run is asked for.
    let mut rtl = match &config.wave {
        Some(path) => {
            let mut rtl = Rtl::traced(config.variant);
            rtl.open_vcd(path)?;
            rtl
        }
        None => Rtl::new(config.variant),
    };
    rtl.reset(RESET_CYCLES);
    let atb = config.variant.is_atb();
    let mut batch_taken = Taken::default();
    let mut bytes = 0u64;
    let mut outputs = Vec::with_capacity(BATCH);
    let start = Instant::now();
    let mut cycle = 0u64;
    let (to_rtl, from_model) = mpsc::sync_channel(BATCHES_AHEAD);
    let checked = std::thread::scope(|scope| {
        // Owned by this closure: dropped when it returns (before the scope joins the model
        // side), so that a model side blocked on a full channel stops.
        let from_model = from_model;
        scope.spawn(move || prepare_batches(side, &to_rtl));
        loop {
            let batch = match from_model.recv() {
                Ok(Ok(batch)) => batch,
                Ok(Err(e)) => return Checked::Failed(e),
                // The model side ends after its last batch or an error, so it panicked.
                Err(_) => return Checked::Failed(CosimError::ModelStopped),
            };
            // The whole batch in one call into the RTL; compared cycle by cycle after it
            // (a mismatch is reported at its own cycle: the RTL's later cycles are unused).
            rtl.run(&batch.inputs, &mut outputs);
            let mut differ = None;
            for ((out, want), inputs) in outputs.iter().zip(&batch.wants).zip(&batch.inputs) {
                let got = PortState::of_rtl(out, atb);
                if got != *want {
                    differ = Some((got, *want));
                    break;
                }
                batch_taken.take(inputs.ready, want);
                cycle += 1;
            }
            // What was taken before a difference is handed on too (it agreed).
            let (handed, flow) = batch_taken.hand_on(taken);
            bytes += handed;
            if flow.is_break() {
                return Checked::Stopped(cycle);
            }
            if let Some((got, want)) = differ {
                return Checked::Differ { cycle, got, want };
            }
            if cycle % PROGRESS_PERIOD < BATCH as u64 {
                progress(cycle, batch.presented);
            }
            if let Some(totals) = batch.end {
                return Checked::Done(totals);
            }
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    let totals = match checked {
        Checked::Done(totals) => totals,
        Checked::Failed(e) => return Err(e),
        Checked::Stopped(cycle) => return Err(CosimError::ConsumerStopped(cycle)),
        Checked::Differ { cycle, got, want } => {
            drop(rtl);
            return Err(CosimError::Mismatch(Box::new(report::mismatch(
                config,
                records(),
                cycle,
                got,
                want,
                seconds,
            )?)));
        }
    };
    Ok(totals.stats(cycle, seconds, bytes))
}

/// What the consumer took so far (equal on both sides once the ports agree).
#[derive(Default)]
struct Taken {
    bytes: Vec<u8>,
    beats: Vec<AtbBeat>,
}

impl Taken {
    /// The item the port presents in a cycle, if the consumer is `ready`.
    fn take(&mut self, ready: bool, port: &PortState) {
        if ready {
            if let Some((data, _)) = port.byte {
                self.bytes.push(data);
            }
            if let Some(beat) = port.beat {
                self.beats.push(beat);
            }
        }
    }

    /// Appends the items of a batch.
    fn extend(&mut self, items: TakenItems<'_>) {
        match items {
            TakenItems::Bytes(b) => self.bytes.extend_from_slice(b),
            TakenItems::Beats(b) => self.beats.extend_from_slice(b),
        }
    }

    /// Bytes taken (for ATB: valid bytes of the beats).
    fn byte_count(&self) -> u64 {
        TakenItems::Bytes(&self.bytes).byte_count() + TakenItems::Beats(&self.beats).byte_count()
    }

    /// Hands the items taken so far to `to` and forgets them; their byte count, and
    /// whether `to` wants more.
    fn hand_on(
        &mut self,
        to: &mut dyn FnMut(TakenItems<'_>) -> ControlFlow<()>,
    ) -> (u64, ControlFlow<()>) {
        let count = self.byte_count();
        let mut flow = ControlFlow::Continue(());
        if !self.bytes.is_empty() {
            flow = to(TakenItems::Bytes(&self.bytes));
        }
        if !self.beats.is_empty() && flow.is_continue() {
            flow = to(TakenItems::Beats(&self.beats));
        }
        self.bytes.clear();
        self.beats.clear();
        (count, flow)
    }

    /// The outcome of a matching run with these statistics.
    fn outcome(self, atb: bool, stats: CosimStats) -> Outcome {
        let stream = if atb {
            TakenStream::Beats(self.beats)
        } else {
            TakenStream::Bytes(self.bytes)
        };
        Outcome { stats, stream }
    }
}
