//! The N-Trace encoders (`etrace_hdl::ntrace::top`) verilated ([`NtraceRtl`], one per
//! [`NtraceVariant`]) and their co-simulation with the model's cycle encoder
//! `NtraceCycleEncoder` ([`cosim`]): the model's cycle is one *record step* of the
//! hardware (`hdl/DESIGN.md`, "N-Trace MSEO output path"), and the bytes that leave the
//! RTL while a step is the last one taken must equal the bytes the model sends in that
//! cycle, step by step, the end of the trace included.

use etrace_ntrace::encoder::cycle::{FifoConfig, NtraceCycleEncoder};
use etrace_ntrace::NtraceOptions;
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::IngressRecord;

use crate::ffi::ntrace_vtable;
use crate::io::{Inputs, Outputs};
use crate::rtl::Verilated;
use crate::variant::NtraceVariant;

/// Clocks a step may take without the RTL taking a step or sending a byte before the run
/// is declared hung: a step takes at most 2 + 9 slots + 203 bytes written + its sends.
const STALL_CLOCKS: u64 = 4_096;

/// Clocks without a byte, after the end of the trace was taken, that end the drain.
const DRAIN_CLOCKS: u64 = 300;

/// One verilated N-Trace encoder, after power-up (run [`NtraceRtl::reset`] first).
pub struct NtraceRtl {
    variant: NtraceVariant,
    model: Verilated,
}

impl NtraceRtl {
    /// A new model of `variant`.
    pub fn new(variant: NtraceVariant) -> NtraceRtl {
        NtraceRtl {
            variant,
            model: Verilated::new(ntrace_vtable(variant)),
        }
    }

    /// The variant of this model.
    pub fn variant(&self) -> NtraceVariant {
        self.variant
    }

    /// Clock cycles run so far.
    pub fn cycles(&self) -> u64 {
        self.model.cycles()
    }

    /// `n` cycles with `reset` high.
    pub fn reset(&mut self, n: u32) {
        self.model.reset(n);
    }

    /// One clock cycle: drives `inputs` (`in_valid`, `trace_enable` and the block fields),
    /// samples the outputs before the rising edge (`in_ready`: the offered step is taken in
    /// this cycle; `out_valid`: `out_data` leaves; `trace_lost`: the path's `lost`).
    pub fn step(&mut self, inputs: &Inputs) -> Outputs {
        self.model.step(inputs)
    }
}

impl NtraceVariant {
    /// The model's options for this build's generator (`etrace_ntrace::NtraceOptions`).
    pub fn model_options(self) -> NtraceOptions {
        self.generator().model_options(self.config().itype())
    }

    /// The model's FIFO for this build's.
    pub fn model_fifo(self) -> FifoConfig {
        let f = self.fifo();
        FifoConfig {
            bytes: f.bytes as usize,
            send_bytes: f.send_bytes,
            every_cycles: f.every_cycles,
        }
    }
}

/// How the records are offered to the RTL.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Offer {
    /// A step is offered in every clock.
    EveryClock,
    /// In each clock, no step is offered with probability `probability` (the hart
    /// stalls), from a generator seeded with `seed`.
    WithGaps {
        /// Seed of the gaps.
        seed: u64,
        /// Probability of a clock without a step, in [0, 1).
        probability: f64,
    },
}

/// Why a co-simulation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NtraceCosimError {
    /// The RTL took no step and sent no byte for [`STALL_CLOCKS`] clocks.
    #[error("{variant}: the RTL hung at record step {step} (clock {clock}: no step taken and no byte sent for {STALL_CLOCKS} clocks)")]
    Hung {
        /// The build.
        variant: NtraceVariant,
        /// The step offered.
        step: u64,
        /// Clock of the run.
        clock: u64,
    },
    /// `out_last` disagreed with the byte's MSEO bits.
    #[error(
        "{variant}: byte {byte:#04x} of step {step} has out_last {last} (MSEO bits {mseo:#b})"
    )]
    OutLast {
        /// The build.
        variant: NtraceVariant,
        /// The step.
        step: u64,
        /// The byte.
        byte: u8,
        /// `out_last`.
        last: bool,
        /// The byte's MSEO bits.
        mseo: u8,
    },
    /// `busy` disagreed with the step handshake: high while a step was taken, or high
    /// after the drain at the end of the trace.
    #[error("{variant}: `busy` is {busy} at clock {clock} ({when})")]
    Busy {
        /// The build.
        variant: NtraceVariant,
        /// Clock of the run.
        clock: u64,
        /// `busy`.
        busy: bool,
        /// What the clock was.
        when: &'static str,
    },
    /// The RTL's bytes of a step differ from the model's.
    #[error("{variant}: step {step} ({what}): RTL sent {rtl:02x?}, model {model:02x?}")]
    Mismatch {
        /// The build.
        variant: NtraceVariant,
        /// The step (the record's index; the number of records for the end of the trace).
        step: u64,
        /// The record of the step, or the end of the trace.
        what: String,
        /// The RTL's bytes.
        rtl: Vec<u8>,
        /// The model's bytes.
        model: Vec<u8>,
    },
}

/// A co-simulation that runs as the records come (memory does not grow with the run):
/// each record is pushed into the model's cycle encoder and offered to the RTL until it
/// takes it; when the RTL takes a step, the bytes it sent while the previous step was the
/// last one taken are compared with the model's bytes of that cycle.
pub struct NtraceCosim {
    variant: NtraceVariant,
    rtl: NtraceRtl,
    model: NtraceCycleEncoder,
    gaps: Option<(Rng, f64)>,
    inputs: Inputs,
    /// The model's bytes of the step being sent and of the step offered.
    expected_current: Vec<u8>,
    /// The RTL's bytes since the current step was taken.
    sent: Vec<u8>,
    /// The record of the current step (for a mismatch report).
    current_record: Option<IngressRecord>,
    /// Steps taken so far (0: none; the current one is `taken - 1`).
    taken: u64,
    clocks: u64,
    bytes: u64,
    /// `busy` in the last clock.
    busy: bool,
    /// The RTL's bytes not yet handed out ([`NtraceCosim::take_bytes`]).
    out: Vec<u8>,
}

impl NtraceCosim {
    /// A co-simulation of `variant` (a new model, reset) with steps offered as `offer`.
    pub fn new(variant: NtraceVariant, offer: Offer) -> NtraceCosim {
        let mut rtl = NtraceRtl::new(variant);
        rtl.reset(3);
        NtraceCosim {
            variant,
            rtl,
            model: NtraceCycleEncoder::new(variant.model_options(), variant.model_fifo())
                .expect("every NtraceVariant has valid model options"),
            gaps: match offer {
                Offer::EveryClock => None,
                Offer::WithGaps { seed, probability } => Some((Rng::new(seed), probability)),
            },
            inputs: Inputs::default(),
            expected_current: Vec::new(),
            sent: Vec::new(),
            current_record: None,
            taken: 0,
            clocks: 0,
            bytes: 0,
            busy: false,
            out: Vec::new(),
        }
    }

    /// One clock with `self.inputs`; a byte sent is kept; whether the step was taken.
    fn clock(&mut self) -> Result<bool, NtraceCosimError> {
        let out = self.rtl.step(&self.inputs);
        self.clocks += 1;
        self.busy = out.busy;
        if out.in_ready && out.busy {
            return Err(NtraceCosimError::Busy {
                variant: self.variant,
                clock: self.clocks,
                busy: true,
                when: "a step was taken",
            });
        }
        if out.out_valid {
            let mseo = out.out_data & 3;
            if out.out_last != (mseo == 3) {
                return Err(NtraceCosimError::OutLast {
                    variant: self.variant,
                    step: self.taken.saturating_sub(1),
                    byte: out.out_data,
                    last: out.out_last,
                    mseo,
                });
            }
            self.sent.push(out.out_data);
            self.out.push(out.out_data);
        }
        Ok(out.in_ready)
    }

    /// The current step's bytes are complete: compares them with the model's.
    fn close_step(&mut self) -> Result<(), NtraceCosimError> {
        if self.taken > 0 && self.sent != self.expected_current {
            return Err(NtraceCosimError::Mismatch {
                variant: self.variant,
                step: self.taken - 1,
                what: self
                    .current_record
                    .map_or_else(|| "end of trace".to_string(), |r| format!("{r:?}")),
                rtl: std::mem::take(&mut self.sent),
                model: std::mem::take(&mut self.expected_current),
            });
        }
        self.bytes += self.sent.len() as u64;
        self.sent.clear();
        Ok(())
    }

    /// Offers the step on the inputs until the RTL takes it, then starts it with the
    /// model's bytes `expected`.
    fn offer(
        &mut self,
        record: Option<IngressRecord>,
        expected: Vec<u8>,
    ) -> Result<(), NtraceCosimError> {
        let mut quiet = 0;
        loop {
            self.inputs.in_valid = self.gaps.as_mut().is_none_or(|(g, p)| !g.chance(*p));
            let sent_before = self.sent.len();
            if self.clock()? {
                break;
            }
            quiet = if self.sent.len() > sent_before {
                0
            } else {
                quiet + 1
            };
            if quiet > STALL_CLOCKS {
                return Err(NtraceCosimError::Hung {
                    variant: self.variant,
                    step: self.taken,
                    clock: self.clocks,
                });
            }
        }
        self.inputs.in_valid = false;
        self.close_step()?;
        self.expected_current = expected;
        self.current_record = record;
        self.taken += 1;
        Ok(())
    }

    /// One record: the model's cycle, and the RTL's step.
    pub fn push(&mut self, record: &IngressRecord) -> Result<(), NtraceCosimError> {
        self.model.push(record);
        let expected = self.model.take_bytes();
        self.inputs.trace_enable = true;
        self.inputs.set_block(Some(record));
        self.offer(Some(*record), expected)
    }

    /// The end of the trace (trace enable low; the last block's fields kept, nothing
    /// retired), then the drain of the FIFO; the report of the whole run.
    pub fn finish(mut self) -> Result<NtraceCosimReport, NtraceCosimError> {
        self.model.finish();
        let expected = self.model.take_bytes();
        self.inputs.trace_enable = false;
        self.inputs.iretire = false;
        self.inputs.itype = 0;
        self.offer(None, expected)?;
        let mut idle = 0;
        while idle < DRAIN_CLOCKS {
            let before = self.sent.len();
            self.clock()?;
            idle = if self.sent.len() > before {
                0
            } else {
                idle + 1
            };
        }
        self.close_step()?;
        if self.busy {
            return Err(NtraceCosimError::Busy {
                variant: self.variant,
                clock: self.clocks,
                busy: true,
                when: "the end of the trace was sent",
            });
        }
        Ok(NtraceCosimReport {
            records: self.taken - 1,
            bytes: self.bytes,
            clocks: self.clocks,
            restarts: self.model.restarts().to_vec(),
            stream: self.out,
        })
    }

    /// The RTL's bytes sent since the last call (for a trace file or a decoder).
    pub fn take_bytes(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// Clocks run since the end of reset.
    pub fn clocks(&self) -> u64 {
        self.clocks
    }
}

/// What a co-simulation that passed measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NtraceCosimReport {
    /// Records run.
    pub records: u64,
    /// Bytes sent (equal in RTL and model).
    pub bytes: u64,
    /// RTL clocks, from the end of reset to the end of the drain.
    pub clocks: u64,
    /// Record indexes at which the trace (re)started (the model's `restarts`).
    pub restarts: Vec<u64>,
    /// The RTL's bytes not taken with [`NtraceCosim::take_bytes`], in order.
    pub stream: Vec<u8>,
}

/// Co-simulates `records` on `variant` against the model ([`NtraceCosim`]).
pub fn cosim(
    variant: NtraceVariant,
    records: &[IngressRecord],
    offer: Offer,
) -> Result<NtraceCosimReport, NtraceCosimError> {
    let mut run = NtraceCosim::new(variant, offer);
    for r in records {
        run.push(r)?;
    }
    run.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::RawOutputs;

    /// Every N-Trace build's shim lays out `Inputs` / `RawOutputs` as Rust does.
    #[test]
    fn layout_of_the_ffi_structs_matches_the_shim() {
        let want = [Inputs::layout(), RawOutputs::layout()].concat();
        for v in NtraceVariant::ALL {
            assert_eq!(NtraceRtl::new(v).model.shim_layout(), want, "{v}");
        }
    }

    /// After reset, with no step offered, nothing is taken, sent or lost.
    #[test]
    fn idle_after_reset() {
        for v in NtraceVariant::ALL {
            let mut rtl = NtraceRtl::new(v);
            rtl.reset(3);
            for _ in 0..20 {
                let out = rtl.step(&Inputs::default());
                assert!(
                    !out.in_ready && !out.out_valid && !out.trace_lost && !out.busy,
                    "{v}: {out:?}"
                );
            }
            assert_eq!(rtl.cycles(), 23);
            assert_eq!(rtl.variant(), v);
        }
    }
}
