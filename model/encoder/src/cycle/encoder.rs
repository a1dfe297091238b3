//! Cycle-accurate model of the whole encoder hardware (`hdl/DESIGN.md`, "Cycle contract"
//! items 0-8): the input stage, trace enable / disable sequencing, qualification
//! ([`Qualification`]), the window shift and the decision one cycle later ([`Encoder`] with
//! the queue room of that cycle), the payload packer ([`pack`]) and the output path
//! ([`OutputPath`]).
//!
//! It is what the RTL is compared with, cycle for cycle, under any pattern of idle cycles,
//! trace enable, triggers, halts and output back-pressure: the same inputs give the same
//! bytes (or ATB beats) in the same cycles.

use crate::cycle::output_path::{CycleError, OutputItem, OutputPath, OutputPathConfig};
use crate::qualification::Qualification;
use crate::{Encoder, EncoderError, EncoderOptions};
use etrace_spec::ingress::IngressRecord;
use etrace_spec::packet::{pack, PacketError, TeInst};
use etrace_spec::params::Params;

/// The inputs of one clock cycle (reset low).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CycleInput {
    /// The ingress block on the port (`iretire != 0 || itype != 0`), or none.
    pub block: Option<IngressRecord>,
    /// `trace_enable`.
    pub trace_enable: bool,
    /// `trigger[2:0]` (`encoder::qualification::TRIGGER_*`).
    pub trigger: u8,
    /// `halted`.
    pub halted: bool,
    /// `out_ready` (byte stream) or ATREADY.
    pub ready: bool,
}

/// A te_inst packet produced by the packet logic (and not dropped): it goes through the
/// packet register into the packet queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushedPacket {
    /// The cycle it was produced in (its timestamp is this cycle's counter; it enters the
    /// queue at the end of the next cycle).
    pub cycle: u64,
    /// The packet.
    pub packet: TeInst,
}

/// Why the cycle model cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncoderCycleError {
    /// The run-time options need parameters the configuration does not have.
    #[error("encoder options: {0}")]
    Options(#[from] EncoderError),
    /// The hardware has no such option.
    #[error("the encoder hardware does not implement `{0}`")]
    Unsupported(&'static str),
    /// A packet the packer cannot encode.
    #[error("cycle {cycle}: packing a packet: {source}")]
    Pack {
        /// The cycle.
        cycle: u64,
        /// The packer's error.
        source: PacketError,
    },
    /// The output path's contract was broken.
    #[error(transparent)]
    Output(#[from] CycleError),
}

/// Trace enable sequencing of `TraceControl` (`DESIGN.md` item 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Disabled; the first cycle with `trace_enable` high enables.
    Off,
    /// Tracing.
    On,
    /// The cycle after the disabling one: the second empty slot is shifted in.
    Finish1,
    /// The cycle after that: its decision is the last; enable is ignored.
    Finish2,
}

/// What was shifted into the window at the end of a cycle (decided in the next one).
#[derive(Debug, Clone, Copy)]
enum Shift {
    /// A block or a halt gap, with its qualification and trace-notify.
    Record(IngressRecord, bool, bool),
    /// One of the two empty slots of trace disable.
    Finish,
}

/// The whole encoder, cycle by cycle (`DESIGN.md` items 0-8).
#[derive(Debug)]
pub struct EncoderCycle {
    params: Params,
    options: EncoderOptions,
    path: OutputPath,
    qualification: Qualification,
    encoder: Option<Encoder>,
    phase: Phase,
    shifted: Option<Shift>,
    lost: bool,
    dropped: u64,
    pushed: u64,
    log: Option<Vec<PushedPacket>>,
    payloads: Vec<Vec<u8>>,
    /// Item 0: the inputs captured at the last [`INPUT_STAGES`] edges, newest first; `None`
    /// for the cycles after reset, which the encoder spends in reset (its reset input is
    /// registered too).
    latched: [Option<CycleInput>; INPUT_STAGES],
}

/// Item 0: the encoder acts on its inputs (all but `ready`) this many cycles after they
/// were on the pins; it is in reset for as many cycles after the reset pin falls.
pub const INPUT_STAGES: usize = 2;

impl EncoderCycle {
    /// The encoder after reset, for the hardware parameters `params`, the run-time options
    /// on its option ports and the build-time output path. Branch prediction needs
    /// `bpred_size_p` > 0 (the hardware's predictor), implicit return
    /// `return_stack_size_p` > 0 (the hardware's return stack; it has no call counter).
    pub fn new(
        params: &Params,
        options: EncoderOptions,
        output: OutputPathConfig,
    ) -> Result<EncoderCycle, EncoderCycleError> {
        if options.implicit_return && params.return_stack_size_p == 0 {
            return Err(EncoderCycleError::Unsupported(
                "implicit-return with a call counter",
            ));
        }
        // Checks the options against the parameters once, up front.
        Encoder::new(params, options)?;
        Ok(EncoderCycle {
            params: params.clone(),
            options,
            path: OutputPath::new(output)?,
            qualification: Qualification::new(),
            encoder: None,
            phase: Phase::Off,
            shifted: None,
            lost: false,
            dropped: 0,
            pushed: 0,
            log: None,
            payloads: Vec::new(),
            latched: [None; INPUT_STAGES],
        })
    }

    /// Keeps a log of every pushed packet ([`EncoderCycle::take_log`]).
    pub fn keep_log(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// Takes the pushed packets logged so far.
    pub fn take_log(&mut self) -> Vec<PushedPacket> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Cycles run since reset.
    pub fn cycles(&self) -> u64 {
        self.path.cycles()
    }

    /// What the output port presents in this cycle (`out_valid` / `out_data` / `out_last`,
    /// or the ATB beat), before [`EncoderCycle::cycle`] runs it.
    pub fn presented(&self) -> Option<OutputItem> {
        self.path.presented()
    }

    /// The `trace_lost` output in this cycle: packets were dropped and the recovery sync has
    /// not been sent.
    pub fn trace_lost(&self) -> bool {
        self.lost
    }

    /// Produced packets dropped because the packet queue was full.
    pub fn dropped(&self) -> u64 {
        self.dropped + self.encoder.as_ref().map_or(0, Encoder::dropped)
    }

    /// Packets pushed into the packet queue (each is framed and sent).
    pub fn pushed(&self) -> u64 {
        self.pushed
    }

    /// Whether trace is disabled, no enable is waiting in the input stage and nothing is
    /// left in the output path.
    pub fn is_idle(&self) -> bool {
        self.phase == Phase::Off
            && self.shifted.is_none()
            && self.latched.iter().flatten().all(|l| !l.trace_enable)
            && self.path.is_idle()
    }

    /// Runs one clock cycle with `input` on the pins; returns the byte or beat the consumer
    /// took in it.
    ///
    /// Item 0: the pins are captured at the end of the cycle and the encoder works on the
    /// values of [`INPUT_STAGES`] cycles before; only `ready` acts in the same cycle. The
    /// first cycles after reset only capture (the encoder is still in reset).
    pub fn cycle(&mut self, input: &CycleInput) -> Result<Option<OutputItem>, EncoderCycleError> {
        let oldest = self.latched[INPUT_STAGES - 1];
        self.latched.copy_within(0..INPUT_STAGES - 1, 1);
        self.latched[0] = Some(*input);
        let Some(latched) = oldest else {
            return Ok(None);
        };
        self.clock_edge(&CycleInput {
            ready: input.ready,
            ..latched
        })
    }

    /// Items 1-8: one cycle of the encoder on the registered inputs.
    fn clock_edge(&mut self, input: &CycleInput) -> Result<Option<OutputItem>, EncoderCycleError> {
        let free = self.path.free() as u8;
        let mut produced: Vec<TeInst> = Vec::new();
        // Item 2: the decision for the slot shifted in at the end of the previous cycle.
        if let Some(shift) = self.shifted.take() {
            let enc = self
                .encoder
                .as_mut()
                .expect("a shift happens only while an encoder is enabled");
            enc.set_queue_free(free);
            match shift {
                Shift::Record(rec, qualified, notify) => enc.push_with(&rec, qualified, notify),
                Shift::Finish => {
                    enc.finish_step();
                }
            }
            produced.extend(enc.take_packets().into_iter().map(|p| p.packet));
            self.lost = enc.is_lost();
            if enc.is_finished() {
                self.dropped += enc.dropped();
                self.encoder = None;
            }
        }
        // Items 1 and 3: enable / disable and the shift at the end of this cycle.
        let present = input.block.is_some();
        let rec = input.block.unwrap_or_default();
        match self.phase {
            Phase::On if !input.trace_enable => {
                self.qualification.idle(input.halted);
                self.shifted = Some(Shift::Finish);
                self.phase = Phase::Finish1;
            }
            Phase::Finish1 => {
                self.qualification.idle(input.halted);
                self.shifted = Some(Shift::Finish);
                self.phase = Phase::Finish2;
            }
            Phase::Finish2 => {
                self.qualification.idle(input.halted);
                self.phase = Phase::Off;
            }
            Phase::Off if !input.trace_enable => self.qualification.idle(input.halted),
            Phase::Off | Phase::On => {
                if self.phase == Phase::Off {
                    let mut enc = Encoder::with_queue_free(&self.params, self.options, free)?;
                    produced.extend(enc.take_packets().into_iter().map(|p| p.packet));
                    self.lost = enc.is_lost();
                    self.encoder = Some(enc);
                    self.qualification.enable();
                    self.phase = Phase::On;
                }
                let presented = self
                    .qualification
                    .cycle(present, input.trigger, input.halted);
                if let Some((r, q, n)) = presented.push_args(&rec) {
                    self.shifted = Some(Shift::Record(r, q, n));
                }
            }
        }
        // Items 4-8: pack, push, serialize, output.
        let cycle = self.path.cycles();
        self.payloads.clear();
        for packet in &produced {
            let packed = pack(packet, &self.params)
                .map_err(|source| EncoderCycleError::Pack { cycle, source })?;
            self.payloads.push(packed.bytes);
        }
        self.pushed += produced.len() as u64;
        if let Some(log) = &mut self.log {
            log.extend(
                produced
                    .into_iter()
                    .map(|packet| PushedPacket { cycle, packet }),
            );
        }
        let pushes: Vec<&[u8]> = self.payloads.iter().map(Vec::as_slice).collect();
        Ok(self.path.cycle(&pushes, input.ready)?)
    }
}
