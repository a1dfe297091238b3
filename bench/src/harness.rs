//! The timing harness: warm-up runs, then repeated timed runs, and their median.

use std::hint::black_box;
use std::time::Instant;

/// How often each measurement runs.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// Untimed runs first (caches, allocator, page faults, CPU frequency).
    pub warmup: usize,
    /// Timed runs; the median is reported.
    pub runs: usize,
}

impl Plan {
    /// "median of N runs after W warm-up run(s)".
    pub fn describe(&self) -> String {
        format!(
            "median of {} run{} after {} warm-up run{}",
            self.runs,
            plural(self.runs),
            self.warmup,
            plural(self.warmup)
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The timed runs of one measurement.
#[derive(Debug, Clone)]
pub struct Timing {
    /// Seconds of each timed run, sorted.
    pub seconds: Vec<f64>,
}

impl Timing {
    /// The median run time in seconds (the mean of the middle two for an even count).
    pub fn median(&self) -> f64 {
        let s = &self.seconds;
        let n = s.len();
        if n == 0 {
            return f64::NAN;
        }
        if n % 2 == 1 {
            s[n / 2]
        } else {
            (s[n / 2 - 1] + s[n / 2]) / 2.0
        }
    }

    /// Work units (instructions, cycles) per second at the median.
    pub fn rate(&self, units: u64) -> f64 {
        units as f64 / self.median()
    }
}

/// Runs `f` `plan.warmup` times untimed, then `plan.runs` times timed. `f` returns a value
/// (kept from the optimiser) or an error, which ends the measurement.
pub fn measure<T, E>(plan: Plan, mut f: impl FnMut() -> Result<T, E>) -> Result<Timing, E> {
    for _ in 0..plan.warmup {
        black_box(f()?);
    }
    let mut seconds = Vec::with_capacity(plan.runs);
    for _ in 0..plan.runs.max(1) {
        let start = Instant::now();
        black_box(f()?);
        seconds.push(start.elapsed().as_secs_f64());
    }
    seconds.sort_by(f64::total_cmp);
    Ok(Timing { seconds })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        let t = Timing {
            seconds: vec![1.0, 2.0, 10.0],
        };
        assert_eq!(t.median(), 2.0);
        let t = Timing {
            seconds: vec![1.0, 2.0, 4.0, 10.0],
        };
        assert_eq!(t.median(), 3.0);
        assert_eq!(t.rate(6), 2.0);
    }

    #[test]
    fn measure_runs_warmup_and_timed_runs() {
        let mut calls = 0;
        let plan = Plan { warmup: 2, runs: 3 };
        let t = measure(plan, || {
            calls += 1;
            Ok::<_, ()>(calls)
        })
        .unwrap();
        assert_eq!(calls, 5);
        assert_eq!(t.seconds.len(), 3);
        assert!(t.seconds.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(plan.describe(), "median of 3 runs after 2 warm-up runs");
    }
}
