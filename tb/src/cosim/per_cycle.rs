//! The co-simulation in one thread with one call into the RTL per cycle, on the traced
//! build: the loop of [`super::run`] as it was before batches, the model thread and the
//! untraced build (issue 27, item 3), kept as the reference the bench measures the batched
//! run against; same stimulus, same comparison, same outcome and mismatch report.

use std::time::Instant;

use etrace_spec::ingress::IngressRecord;

use super::{report, Bench, CosimConfig, CosimError, Outcome, Taken};

/// Runs `records` through both sides, cycle by cycle in the calling thread, until the
/// output has drained (no waveform, no progress); the outcome equals [`super::run`]'s.
pub fn run_per_cycle<I>(config: &CosimConfig, records: I) -> Result<Outcome, CosimError>
where
    I: Iterator<Item = IngressRecord> + Clone,
{
    let mut bench = Bench::new(config, records.clone(), true)?;
    let atb = config.variant.is_atb();
    let mut taken = Taken::default();
    let start = Instant::now();
    let mut cycle = 0u64;
    loop {
        let (got, want, ready) = bench.step()?;
        if got != want {
            let seconds = start.elapsed().as_secs_f64();
            drop(bench);
            return Err(CosimError::Mismatch(Box::new(report::mismatch(
                config, records, cycle, got, want, seconds,
            )?)));
        }
        taken.take(ready, &want);
        cycle += 1;
        if bench.side.finished()? {
            let seconds = start.elapsed().as_secs_f64();
            let stats = bench
                .side
                .totals()
                .stats(cycle, seconds, taken.byte_count());
            return Ok(taken.outcome(atb, stats));
        }
    }
}
