//! The results: medians over rounds, ratios to raw hyper and axum, the
//! targets, and the table as text, markdown, JSON and an SVG chart.

use std::{collections::BTreeMap, fmt::Write};

use bench::peers::Peer;
use serde::Serialize;

use super::wrk::Measured;

/// Every measurement of one scenario (a label such as `plaintext` or
/// `plaintext pipelined x10`) by one peer.
#[derive(Debug, Default, Serialize)]
pub struct Results {
    /// Scenario label -> peer -> one measurement per round.
    pub runs: BTreeMap<String, BTreeMap<String, Vec<Measured>>>,
    /// Scenario labels in the order they ran.
    pub order: Vec<String>,
    /// Peer -> (idle RSS KiB, RSS KiB with 1,000 keep-alive connections).
    pub memory: BTreeMap<String, (u64, u64)>,
}

/// One row of the table.
#[derive(Debug, Serialize)]
pub struct Row {
    pub scenario: String,
    pub peer: String,
    /// Requests per second: the rounds' median, minimum and maximum.
    pub requests_per_second: Spread,
    /// Requests per second of the server's CPU time (median over rounds),
    /// when measured.
    pub per_cpu_second: Option<f64>,
    pub p50_us: Option<f64>,
    pub p99_us: Option<f64>,
    pub vs_hyper: Option<f64>,
    /// The ratio to raw hyper per server-CPU-second.
    pub vs_hyper_per_cpu: Option<f64>,
    pub vs_axum: Option<f64>,
    /// The ratio to nestia (requests per second), when nestia ran.
    pub vs_nestia: Option<f64>,
    /// The framework's target, and whether this run met it.
    pub target: Option<(String, bool)>,
}

/// The median, minimum and maximum of a cell's rounds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    fn of(mut values: Vec<f64>) -> Option<Spread> {
        values.sort_by(f64::total_cmp);
        Some(Spread {
            median: *values.get(values.len() / 2)?,
            min: *values.first()?,
            max: *values.last()?,
        })
    }

    /// Whether the rounds differ by more than 20% of the median.
    pub fn is_noisy(&self) -> bool {
        self.max - self.min > 0.2 * self.median
    }
}

impl Results {
    pub fn add(&mut self, scenario: &str, peer: Peer, measured: Measured) {
        if !self.order.iter().any(|known| known == scenario) {
            self.order.push(scenario.to_owned());
        }
        self.runs
            .entry(scenario.to_owned())
            .or_default()
            .entry(peer.name().to_owned())
            .or_default()
            .push(measured);
    }

    fn measurements(&self, scenario: &str, peer: &str) -> Option<&[Measured]> {
        self.runs.get(scenario)?.get(peer).map(Vec::as_slice)
    }

    /// The run with the median throughput.
    fn median(&self, scenario: &str, peer: &str) -> Option<&Measured> {
        let mut runs: Vec<&Measured> = self.measurements(scenario, peer)?.iter().collect();
        runs.sort_by(|a, b| a.requests_per_second.total_cmp(&b.requests_per_second));
        runs.get(runs.len() / 2).copied()
    }

    fn rps(&self, scenario: &str, peer: Peer) -> Option<Spread> {
        let runs = self.measurements(scenario, peer.name())?;
        Spread::of(runs.iter().map(|m| m.requests_per_second).collect())
    }

    /// The median requests per server-CPU-second, if every round measured it.
    fn per_cpu(&self, scenario: &str, peer: Peer) -> Option<f64> {
        let runs = self.measurements(scenario, peer.name())?;
        let values: Option<Vec<f64>> = runs.iter().map(Measured::per_cpu_second).collect();
        Spread::of(values?).map(|spread| spread.median)
    }

    /// `peer`'s `value` over `base`'s: the median over rounds of the two
    /// runs' ratio in each round. Within a round every peer runs a scenario
    /// back to back, so a round the machine slows down (a noisy neighbour
    /// on a VM) slows both sides of its ratio. Where the two did not run
    /// the same rounds, the ratio of their medians.
    fn ratio(
        &self,
        scenario: &str,
        peer: Peer,
        base: Peer,
        value: impl Fn(&Measured) -> Option<f64>,
    ) -> Option<f64> {
        let mine = self.measurements(scenario, peer.name())?;
        let theirs = self.measurements(scenario, base.name())?;
        let ratios: Option<Vec<f64>> = if mine.len() == theirs.len() {
            mine.iter()
                .zip(theirs)
                .map(|(mine, theirs)| Some(value(mine)? / value(theirs)?))
                .collect()
        } else {
            let median = |runs: &[Measured]| {
                let values: Option<Vec<f64>> = runs.iter().map(&value).collect();
                Spread::of(values?).map(|spread| spread.median)
            };
            Some(vec![median(mine)? / median(theirs)?])
        };
        Spread::of(ratios?).map(|spread| spread.median)
    }

    /// Requests per second, as [`Results::ratio`] takes it.
    fn throughput(measured: &Measured) -> Option<f64> {
        Some(measured.requests_per_second)
    }

    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        for scenario in &self.order {
            for peer in Peer::ALL {
                let (Some(measured), Some(rps)) =
                    (self.median(scenario, peer.name()), self.rps(scenario, peer))
                else {
                    continue;
                };
                let ratio = |other: Peer| self.ratio(scenario, peer, other, Self::throughput);
                let per_cpu = self.per_cpu(scenario, peer);
                let vs_hyper_per_cpu =
                    self.ratio(scenario, peer, Peer::Hyper, Measured::per_cpu_second);
                rows.push(Row {
                    scenario: scenario.clone(),
                    peer: peer.name().to_owned(),
                    requests_per_second: rps,
                    per_cpu_second: per_cpu,
                    p50_us: measured.p50_us,
                    p99_us: measured.p99_us,
                    vs_hyper: ratio(Peer::Hyper),
                    vs_hyper_per_cpu,
                    vs_axum: ratio(Peer::Axum),
                    vs_nestia: ratio(Peer::Nestia),
                    target: (peer == Peer::Framework)
                        .then(|| self.target(scenario))
                        .flatten(),
                });
            }
        }
        rows
    }

    /// The framework's ratio to `peer` in `scenario`: per server-CPU-second
    /// where both were measured, else per second.
    fn framework_vs(&self, scenario: &str, peer: Peer) -> Option<f64> {
        self.ratio(scenario, Peer::Framework, peer, Measured::per_cpu_second)
            .or_else(|| self.ratio(scenario, Peer::Framework, peer, Self::throughput))
    }

    /// The target for the framework in `scenario`.
    fn target(&self, scenario: &str) -> Option<(String, bool)> {
        let base = scenario.split(' ').next().unwrap_or(scenario);
        let pipelined = scenario.contains("pipelined");
        match base {
            "plaintext" if pipelined => {
                let hyper = self.framework_vs(scenario, Peer::Hyper)?;
                Some((">= 0.95x hyper per CPU-s".to_owned(), hyper >= 0.95))
            }
            "plaintext" | "json" => {
                let hyper = self.framework_vs(scenario, Peer::Hyper)?;
                Some((">= 0.97x hyper per CPU-s".to_owned(), hyper >= 0.97))
            }
            // Issue 25's targets: a body parsed and checked in one pass.
            "assert" | "performance" => {
                let hyper = self.framework_vs(scenario, Peer::Hyper)?;
                match self.framework_vs(scenario, Peer::Nestia) {
                    Some(nestia) => Some((
                        ">= 1.9x hyper + serde_json + validator, >= 7x nestia per CPU-s".to_owned(),
                        hyper >= 1.9 && nestia >= 7.0,
                    )),
                    None => Some((
                        ">= 1.9x hyper + serde_json + validator per CPU-s".to_owned(),
                        hyper >= 1.9,
                    )),
                }
            }
            "assert-no-constraints" | "performance-no-constraints" => {
                let hyper = self.framework_vs(scenario, Peer::Hyper)?;
                Some((
                    ">= 1.6x hyper + serde_json per CPU-s".to_owned(),
                    hyper >= 1.6,
                ))
            }
            "stringify" => {
                let hyper = self.framework_vs(scenario, Peer::Hyper)?;
                Some((
                    ">= 1.3x hyper + serde_json per CPU-s".to_owned(),
                    hyper >= 1.3,
                ))
            }
            "routes-many-static" | "routes-many-dynamic" => {
                let one = scenario.replace("many", "one");
                let mine = self.rps(scenario, Peer::Framework)?.median;
                let alone = self.rps(&one, Peer::Framework)?.median;
                Some((
                    ">= 0.98x the one-route app".to_owned(),
                    mine / alone >= 0.98,
                ))
            }
            _ => None,
        }
    }

    /// The table for a terminal.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{:<34} {:<17} {:>10} {:>19} {:>10} {:>9} {:>9} {:>7} {:>8} {:>7} {:>7}  target\n",
            "scenario",
            "peer",
            "req/s",
            "min-max",
            "per CPU-s",
            "p50",
            "p99",
            "xhyper",
            "xhyper/c",
            "xaxum",
            "xnestia"
        );
        for row in self.rows() {
            let _ = writeln!(
                out,
                "{:<34} {:<17} {:>10.0} {:>19} {:>10} {:>9} {:>9} {:>7} {:>8} {:>7} {:>7}  {}",
                row.scenario,
                row.peer,
                row.requests_per_second.median,
                range(&row.requests_per_second),
                count(row.per_cpu_second),
                micros(row.p50_us),
                micros(row.p99_us),
                ratio(row.vs_hyper),
                ratio(row.vs_hyper_per_cpu),
                ratio(row.vs_axum),
                ratio(row.vs_nestia),
                target_text(&row.target)
            );
        }
        out.push_str(&self.memory_text());
        out
    }

    fn memory_text(&self) -> String {
        if self.memory.is_empty() {
            return String::new();
        }
        let mut out = String::from("\nresident memory: idle / with 1,000 keep-alive connections\n");
        for peer in Peer::ALL {
            if let Some((idle, busy)) = self.memory.get(peer.name()) {
                let _ = writeln!(
                    out,
                    "  {:<17} {:>7.1} MB / {:>7.1} MB",
                    peer.name(),
                    *idle as f64 / 1024.0,
                    *busy as f64 / 1024.0
                );
            }
        }
        out
    }

    /// The table as markdown.
    pub fn markdown(&self, context: &str) -> String {
        let mut out = format!(
            "{context}\n\n| scenario | peer | req/s | min - max | per CPU-s | p50 | p99 | x hyper | x hyper per CPU-s | x axum | x nestia | framework's target |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
        );
        for row in self.rows() {
            let _ = writeln!(
                out,
                "| {} | {} | {:.0} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                row.scenario,
                row.peer,
                row.requests_per_second.median,
                range(&row.requests_per_second),
                count(row.per_cpu_second),
                micros(row.p50_us),
                micros(row.p99_us),
                ratio(row.vs_hyper),
                ratio(row.vs_hyper_per_cpu),
                ratio(row.vs_axum),
                ratio(row.vs_nestia),
                target_text(&row.target)
            );
        }
        if !self.memory.is_empty() {
            out.push_str("\n| peer | resident memory, idle | with 1,000 keep-alive connections |\n|---|---:|---:|\n");
            for peer in Peer::ALL {
                if let Some((idle, busy)) = self.memory.get(peer.name()) {
                    let _ = writeln!(
                        out,
                        "| {} | {:.1} MB | {:.1} MB |",
                        peer.name(),
                        *idle as f64 / 1024.0,
                        *busy as f64 / 1024.0
                    );
                }
            }
        }
        out
    }

    /// A bar chart of each peer's throughput relative to raw hyper.
    pub fn svg(&self, title: &str) -> String {
        const COLORS: [&str; Peer::ALL.len()] = [
            "#d9480f", "#f59f00", "#495057", "#1971c2", "#2f9e44", "#e03131", "#9c36b5", "#0c8599",
        ];
        let rows = self.rows();
        // Scenarios raw hyper does not serve (the form scenarios, the
        // framework's alone) have no ratio to draw.
        let scenarios: Vec<&String> = self
            .order
            .iter()
            .filter(|scenario| {
                rows.iter()
                    .any(|row| &row.scenario == *scenario && row.vs_hyper.is_some())
            })
            .collect();
        // The peers that ran, each keeping its colour.
        let peers: Vec<(&str, Peer)> = COLORS
            .into_iter()
            .zip(Peer::ALL)
            .filter(|(_, peer)| rows.iter().any(|row| row.peer == peer.name()))
            .collect();
        let bar = 14.0;
        let group = bar * peers.len() as f64 + 12.0;
        let left = 250.0;
        let width = (20.0 + 140.0 * peers.len() as f64).max(900.0);
        let plot = width - left - 70.0;
        let top = 60.0;
        let height = top + group * scenarios.len() as f64 + 30.0;
        let max = rows
            .iter()
            .filter_map(|row| row.vs_hyper)
            .fold(1.2_f64, f64::max);
        let x = |ratio: f64| left + plot * ratio / max;
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
            escape(title)
        );
        for (index, (color, peer)) in peers.iter().enumerate() {
            let lx = 10.0 + 140.0 * index as f64;
            let _ = writeln!(
                svg,
                "<rect x=\"{lx}\" y=\"32\" width=\"12\" height=\"12\" fill=\"{color}\"/><text x=\"{}\" y=\"43\">{}</text>",
                lx + 16.0,
                peer.name()
            );
        }
        let _ = writeln!(
            svg,
            "<line x1=\"{0}\" y1=\"{top}\" x2=\"{0}\" y2=\"{1}\" stroke=\"#868e96\" stroke-dasharray=\"4 3\"/><text x=\"{0}\" y=\"{2}\" text-anchor=\"middle\">1.0x raw hyper</text>",
            x(1.0),
            height - 25.0,
            height - 10.0
        );
        for (group_index, scenario) in scenarios.iter().enumerate() {
            let gy = top + group * group_index as f64;
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                left - 8.0,
                gy + group / 2.0,
                escape(scenario)
            );
            for (index, (color, peer)) in peers.iter().enumerate() {
                let Some(row) = rows
                    .iter()
                    .find(|row| &row.scenario == *scenario && row.peer == peer.name())
                else {
                    continue;
                };
                let Some(value) = row.vs_hyper else { continue };
                let y = gy + bar * index as f64;
                let _ = writeln!(
                    svg,
                    "<rect x=\"{left}\" y=\"{y}\" width=\"{:.1}\" height=\"{}\" fill=\"{color}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\">{value:.2}x</text>",
                    (x(value) - left).max(1.0),
                    bar - 2.0,
                    x(value) + 4.0,
                    y + bar - 4.0
                );
            }
        }
        svg.push_str("</svg>\n");
        svg
    }
}

fn micros(us: Option<f64>) -> String {
    match us {
        None => "-".to_owned(),
        Some(us) if us >= 1000.0 => format!("{:.2}ms", us / 1000.0),
        Some(us) => format!("{us:.0}us"),
    }
}

fn count(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |value| format!("{value:.0}"))
}

/// `min - max`, flagged when the spread exceeds 20% of the median.
fn range(spread: &Spread) -> String {
    let flag = if spread.is_noisy() { " (noisy)" } else { "" };
    format!("{:.0} - {:.0}{flag}", spread.min, spread.max)
}

fn ratio(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |value| format!("{value:.2}"))
}

fn target_text(target: &Option<(String, bool)>) -> String {
    match target {
        Some((what, true)) => format!("met ({what})"),
        Some((what, false)) => format!("MISSED ({what})"),
        None => String::new(),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(rps: f64) -> Measured {
        let mut measured = Measured::new(rps, (rps * 10.0) as u64, 100.0, 900.0);
        measured.server_cpu_seconds = 10.0;
        measured
    }

    #[test]
    fn medians_ratios_and_targets() {
        let mut results = Results::default();
        for rps in [90.0, 100.0, 95.0] {
            results.add("plaintext", Peer::Framework, measured(rps));
        }
        results.add("plaintext", Peer::Hyper, measured(100.0));
        results.add("plaintext", Peer::Axum, measured(50.0));
        results.add("assert", Peer::Framework, measured(120.0));
        results.add("assert", Peer::Hyper, measured(100.0));
        let rows = results.rows();
        let framework = &rows[0];
        assert_eq!(
            framework.requests_per_second,
            Spread {
                median: 95.0,
                min: 90.0,
                max: 100.0
            },
            "the median of three, with its range"
        );
        assert!(!framework.requests_per_second.is_noisy());
        assert_eq!(framework.vs_hyper, Some(0.95));
        assert_eq!(framework.per_cpu_second, Some(95.0));
        assert_eq!(framework.vs_hyper_per_cpu, Some(0.95));
        assert_eq!(framework.vs_axum, Some(1.9));
        assert_eq!(
            framework.target.as_ref().map(|t| t.1),
            Some(false),
            "0.95 < 0.97"
        );
        let assert_row = rows.iter().find(|row| row.scenario == "assert").unwrap();
        assert_eq!(
            assert_row.target.as_ref().map(|t| t.1),
            Some(false),
            "1.2 < 1.3"
        );
        assert!(
            results
                .markdown("ctx")
                .contains("| plaintext | framework | 95 | 90 - 100 | 95 |")
        );
        assert!(results.svg("t").contains("0.95x"));
    }

    #[test]
    fn targets_compare_cpu_time_where_the_load_generator_saturates() {
        let mut results = Results::default();
        // Same throughput (wrk-bound), but the framework spends half the CPU.
        let mut cheap = measured(100.0);
        cheap.server_cpu_seconds = 5.0;
        results.add("json", Peer::Framework, cheap);
        results.add("json", Peer::Hyper, measured(100.0));
        let row = &results.rows()[0];
        assert_eq!(row.vs_hyper, Some(1.0));
        assert_eq!(row.vs_hyper_per_cpu, Some(2.0));
        assert_eq!(row.target.as_ref().map(|t| t.1), Some(true));
    }

    #[test]
    fn ratios_pair_the_runs_of_each_round() {
        let mut results = Results::default();
        // The machine slows down by half in the second round, for both.
        for (mine, theirs) in [(200.0, 100.0), (100.0, 50.0), (190.0, 100.0)] {
            results.add("assert", Peer::Framework, measured(mine));
            results.add("assert", Peer::Hyper, measured(theirs));
        }
        let row = &results.rows()[0];
        assert_eq!(row.requests_per_second.median, 190.0);
        // Medians alone would give 190 / 100 = 1.9; the rounds say 1.9, 2, 2.
        assert_eq!(row.vs_hyper, Some(2.0));
        assert_eq!(row.vs_hyper_per_cpu, Some(2.0));
    }

    #[test]
    fn a_spread_over_a_fifth_of_the_median_is_flagged() {
        let mut results = Results::default();
        for rps in [60.0, 100.0, 101.0] {
            results.add("json", Peer::Hyper, measured(rps));
        }
        let row = &results.rows()[0];
        assert!(row.requests_per_second.is_noisy());
        assert!(results.text().contains("60 - 101 (noisy)"));
    }
}
