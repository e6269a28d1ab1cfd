//! Latency percentiles from wrk's histogram, corrected per request call.
//!
//! At the end of a run wrk "corrects" its latency histogram for coordinated
//! omission: every sample longer than twice the expected interval between
//! one connection's requests (the run's time over responses per connection)
//! adds the samples that requests sent on schedule would have seen. It
//! takes that interval per *response*, but times one sample per *request
//! call*: a pipelined call of N requests is one sample, N responses. Its
//! interval is then N times too short, the correction adds samples below
//! the histogram's minimum, which its percentile walk never reaches, and
//! wrk prints `99%  0.00us`.
//!
//! The bench's wrk script prints the histogram wrk hands to `done()` (the
//! corrected one: samples below the minimum are gone, those above are
//! mixed in); [`CallLatency::from_wrk`] undoes wrk's correction exactly
//! (the interval is known from the run's summary), applies the same
//! correction with the interval between request *calls*, and reads the
//! percentiles the way wrk does. Without pipelining this reproduces wrk's
//! own figures; with it, they are the latencies of one pipelined batch.

/// A run's summary as wrk reports it to `done()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The run's duration, microseconds.
    pub duration_us: u64,
    /// Responses completed.
    pub responses: u64,
    /// Connections (`-c`).
    pub connections: u64,
    /// Requests per call (1 unless pipelined).
    pub pipeline: u64,
}

/// Latency of one request call (one batch when pipelined), microseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallLatency {
    /// Count of samples per microsecond value, from 0 to the maximum.
    counts: Vec<u64>,
    total: u64,
}

impl CallLatency {
    /// Rebuilds the histogram wrk recorded from the corrected one it
    /// printed (`(value, count)` pairs from its minimum up), then corrects
    /// it per request call.
    pub fn from_wrk(printed: &[(u64, u64)], run: Run) -> Option<CallLatency> {
        let max = printed.iter().map(|&(value, _)| value).max()?;
        let mut counts = vec![0_u64; usize::try_from(max).ok()? + 1];
        for &(value, count) in printed {
            counts[value as usize] += count;
        }
        if let Some(interval) = interval(run.duration_us, run.responses, run.connections) {
            uncorrect(&mut counts, interval);
        }
        let calls = run.responses / run.pipeline.max(1);
        if let Some(interval) = interval(run.duration_us, calls, run.connections) {
            correct(&mut counts, interval);
        }
        let total = counts.iter().sum();
        (total > 0).then_some(CallLatency { counts, total })
    }

    /// The `p`th percentile, as wrk computes it.
    pub fn percentile(&self, p: f64) -> f64 {
        let rank = ((p / 100.0) * self.total as f64 + 0.5).round() as u64;
        let mut seen = 0;
        for (value, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return value as f64;
            }
        }
        (self.counts.len() - 1) as f64
    }
}

/// wrk's expected interval: the run's time over calls per connection.
fn interval(duration_us: u64, calls: u64, connections: u64) -> Option<u64> {
    let per_connection = calls / connections.max(1);
    (per_connection > 0)
        .then(|| duration_us / per_connection)
        .filter(|&interval| interval > 0)
}

/// wrk's `stats_correct`: each sample `n >= 2 * interval` adds one at
/// `n - interval`, `n - 2 * interval`, ... while above `interval`.
fn correct(counts: &mut [u64], interval: u64) {
    let interval = interval as usize;
    for n in (2 * interval)..counts.len() {
        let count = counts[n];
        if count == 0 {
            continue;
        }
        let mut m = n - interval;
        while m > interval {
            counts[m] += count;
            m -= interval;
        }
    }
}

/// The inverse of [`correct`] on what survives of it (values at or above
/// the recorded minimum): from the top, a value's own samples are its count
/// less those added by the values `interval`, `2 * interval`, ... above it.
fn uncorrect(counts: &mut [u64], interval: u64) {
    let interval = interval as usize;
    // above[n]: original samples at n, n + interval, n + 2 * interval, ...
    let mut above = vec![0_u64; counts.len()];
    for n in (0..counts.len()).rev() {
        let carried = above.get(n + interval).copied().unwrap_or(0);
        if n > interval {
            counts[n] = counts[n].saturating_sub(carried);
        }
        above[n] = counts[n] + carried;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What wrk prints: its correction applied, values below the recorded
    /// minimum left out.
    fn as_wrk_prints(samples: &[u64], interval: u64) -> Vec<(u64, u64)> {
        let max = *samples.iter().max().unwrap() as usize;
        let min = *samples.iter().min().unwrap() as usize;
        let mut counts = vec![0; max + 1];
        for &sample in samples {
            counts[sample as usize] += 1;
        }
        correct(&mut counts, interval);
        (min..=max)
            .filter(|&value| counts[value] > 0)
            .map(|value| (value as u64, counts[value]))
            .collect()
    }

    fn samples() -> Vec<u64> {
        // Batches of 10 taking 900-1,500 us, a slow tail up to 9 ms.
        let mut samples: Vec<u64> = (0..2000).map(|i| 900 + (i * 7919) % 600).collect();
        samples.extend([4000, 6000, 9000, 9000]);
        samples
    }

    #[test]
    fn undoing_wrk_s_correction_gives_back_the_recorded_histogram() {
        let samples = samples();
        for interval in [100, 120, 1000, 1200] {
            let printed = as_wrk_prints(&samples, interval);
            let mut counts = vec![0; 9001];
            for &(value, count) in &printed {
                counts[value as usize] += count;
            }
            uncorrect(&mut counts, interval);
            let mut recorded = vec![0; 9001];
            for &sample in &samples {
                recorded[sample as usize] += 1;
            }
            assert_eq!(counts, recorded, "interval {interval}");
        }
    }

    #[test]
    fn a_pipelined_run_is_corrected_per_batch_not_per_response() {
        let samples = samples();
        // 64 connections x 2,004 batches of 10 in 2.6 s.
        let run = Run {
            duration_us: 2_600_000,
            responses: 64 * 2004 * 10,
            connections: 64,
            pipeline: 10,
        };
        let wrk_interval = interval(run.duration_us, run.responses, 64).unwrap();
        assert_eq!(wrk_interval, 129, "a tenth of a batch's time");
        let printed = as_wrk_prints(&samples, wrk_interval);
        // wrk's own walk from its minimum never reaches the 99th rank.
        let count: u64 = {
            let mut counts = vec![0; 9001];
            for &sample in &samples {
                counts[sample as usize] += 1;
            }
            correct(&mut counts, wrk_interval);
            counts.iter().sum()
        };
        let reachable: u64 = printed.iter().map(|&(_, count)| count).sum();
        assert!(reachable < count * 99 / 100, "why wrk prints 0us");

        let latency = CallLatency::from_wrk(&printed, run).unwrap();
        let p50 = latency.percentile(50.0);
        let p99 = latency.percentile(99.0);
        assert!((900.0..1500.0).contains(&p50), "p50 {p50}");
        assert!(p99 >= p50 && p99 <= 9000.0, "p99 {p99}");
    }

    #[test]
    fn without_pipelining_wrk_s_own_percentiles_come_back() {
        let samples = samples();
        let run = Run {
            duration_us: 2_600_000,
            responses: 64 * 2004,
            connections: 64,
            pipeline: 1,
        };
        let wrk_interval = interval(run.duration_us, run.responses, 64).unwrap();
        let printed = as_wrk_prints(&samples, wrk_interval);
        let latency = CallLatency::from_wrk(&printed, run).unwrap();
        // wrk's walk over its corrected histogram.
        let total: u64 = printed.iter().map(|&(_, count)| count).sum();
        for p in [50.0, 75.0, 90.0, 99.0] {
            let rank = ((p / 100.0) * total as f64 + 0.5).round() as u64;
            let mut seen = 0;
            let wrk = printed
                .iter()
                .find(|&&(_, count)| {
                    seen += count;
                    seen >= rank
                })
                .unwrap()
                .0;
            assert_eq!(latency.percentile(p), wrk as f64, "p{p}");
        }
    }
}
