//! The cycle-by-cycle stimulus of a co-simulation: ingress records with optional random
//! idle cycles between them, trace enabled while records last and disabled after the last
//! one, and random back-pressure on the output (`hdl/DESIGN.md`, "Cycle contract").

use etrace_encoder::cycle::encoder::CycleInput;
use etrace_spec::ingress::random::Rng;
use etrace_spec::ingress::IngressRecord;

/// Random idle cycles and output stalls; the same seed gives the same cycles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StallConfig {
    /// Probability that the output is not ready in a cycle (0 = never stalls).
    pub stall_probability: f64,
    /// Probability of an idle cycle (no block) before each block.
    pub idle_probability: f64,
    /// Seed of the random choices.
    pub seed: u64,
}

impl Default for StallConfig {
    /// No stalls, no idle cycles.
    fn default() -> Self {
        StallConfig {
            stall_probability: 0.0,
            idle_probability: 0.0,
            seed: 1,
        }
    }
}

/// Cycles presenting `records` (an iterator, so streams need not be held in memory).
#[derive(Debug, Clone)]
pub struct Stimulus<I> {
    records: I,
    config: StallConfig,
    rng: Rng,
    /// Records are exhausted: trace is disabled from now on.
    ended: bool,
    /// Blocks presented.
    presented: u64,
    /// Retired instructions presented.
    retired: u64,
}

impl<I: Iterator<Item = IngressRecord>> Stimulus<I> {
    /// The stimulus for `records` under `config`.
    pub fn new(records: I, config: StallConfig) -> Stimulus<I> {
        Stimulus {
            records,
            config,
            rng: etrace_spec::ingress::random::Rng::new(config.seed ^ 0x5717),
            ended: false,
            presented: 0,
            retired: 0,
        }
    }

    /// Whether every record has been presented (trace is now disabled).
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Blocks presented so far.
    pub fn presented(&self) -> u64 {
        self.presented
    }

    /// Retired instructions presented so far.
    pub fn retired(&self) -> u64 {
        self.retired
    }

    /// The next cycle's inputs (after the records end: trace disabled, output still
    /// stalling at random).
    pub fn next_cycle(&mut self) -> CycleInput {
        let ready = !(self.config.stall_probability > 0.0
            && self.rng.chance(self.config.stall_probability));
        if self.ended {
            return CycleInput {
                ready,
                ..CycleInput::default()
            };
        }
        if self.config.idle_probability > 0.0 && self.rng.chance(self.config.idle_probability) {
            return CycleInput {
                trace_enable: true,
                ready,
                ..CycleInput::default()
            };
        }
        match self.records.next() {
            Some(rec) => {
                self.presented += 1;
                self.retired += u64::from(rec.iretire);
                CycleInput {
                    block: Some(rec),
                    trace_enable: true,
                    ready,
                    ..CycleInput::default()
                }
            }
            None => {
                self.ended = true;
                CycleInput {
                    ready,
                    ..CycleInput::default()
                }
            }
        }
    }
}
