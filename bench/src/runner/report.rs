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
    pub requests_per_second: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub vs_hyper: Option<f64>,
    pub vs_axum: Option<f64>,
    /// The framework's target, and whether this run met it.
    pub target: Option<(String, bool)>,
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

    /// The run with the median throughput.
    fn median(&self, scenario: &str, peer: &str) -> Option<&Measured> {
        let mut runs: Vec<&Measured> = self.runs.get(scenario)?.get(peer)?.iter().collect();
        runs.sort_by(|a, b| a.requests_per_second.total_cmp(&b.requests_per_second));
        runs.get(runs.len() / 2).copied()
    }

    fn rps(&self, scenario: &str, peer: Peer) -> Option<f64> {
        self.median(scenario, peer.name())
            .map(|m| m.requests_per_second)
    }

    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        for scenario in &self.order {
            for peer in Peer::ALL {
                let Some(measured) = self.median(scenario, peer.name()) else {
                    continue;
                };
                let rps = measured.requests_per_second;
                let ratio = |other: Peer| self.rps(scenario, other).map(|base| rps / base);
                rows.push(Row {
                    scenario: scenario.clone(),
                    peer: peer.name().to_owned(),
                    requests_per_second: rps,
                    p50_us: measured.p50_us,
                    p99_us: measured.p99_us,
                    vs_hyper: ratio(Peer::Hyper),
                    vs_axum: ratio(Peer::Axum),
                    target: (peer == Peer::Framework)
                        .then(|| self.target(scenario, rps))
                        .flatten(),
                });
            }
        }
        rows
    }

    /// The target for the framework in `scenario`.
    fn target(&self, scenario: &str, rps: f64) -> Option<(String, bool)> {
        let base = scenario.split(' ').next().unwrap_or(scenario);
        let vs = |peer: Peer| self.rps(scenario, peer).map(|other| rps / other);
        match base {
            "plaintext" | "json" => {
                let hyper = vs(Peer::Hyper)?;
                let axum = vs(Peer::Axum).unwrap_or(f64::INFINITY);
                let actix = vs(Peer::Actix).unwrap_or(f64::INFINITY);
                Some((
                    ">= 0.97x hyper, >= 1.0x axum and actix-web".to_owned(),
                    hyper >= 0.97 && axum >= 1.0 && actix >= 1.0,
                ))
            }
            "assert" | "stringify" | "performance" => {
                let hyper = vs(Peer::Hyper)?;
                Some((">= 1.3x hyper + serde_json".to_owned(), hyper >= 1.3))
            }
            "routes-many-static" | "routes-many-dynamic" => {
                let one = scenario.replace("many", "one");
                let alone = self.rps(&one, Peer::Framework)?;
                Some((">= 0.98x the one-route app".to_owned(), rps / alone >= 0.98))
            }
            _ => None,
        }
    }

    /// The table for a terminal.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{:<34} {:<10} {:>10} {:>9} {:>9} {:>7} {:>7}  target\n",
            "scenario", "peer", "req/s", "p50", "p99", "xhyper", "xaxum"
        );
        for row in self.rows() {
            let _ = writeln!(
                out,
                "{:<34} {:<10} {:>10.0} {:>9} {:>9} {:>7} {:>7}  {}",
                row.scenario,
                row.peer,
                row.requests_per_second,
                micros(row.p50_us),
                micros(row.p99_us),
                ratio(row.vs_hyper),
                ratio(row.vs_axum),
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
                    "  {:<10} {:>7.1} MB / {:>7.1} MB",
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
            "{context}\n\n| scenario | peer | req/s | p50 | p99 | x hyper | x axum | framework's target |\n|---|---|---:|---:|---:|---:|---:|---|\n"
        );
        for row in self.rows() {
            let _ = writeln!(
                out,
                "| {} | {} | {:.0} | {} | {} | {} | {} | {} |",
                row.scenario,
                row.peer,
                row.requests_per_second,
                micros(row.p50_us),
                micros(row.p99_us),
                ratio(row.vs_hyper),
                ratio(row.vs_axum),
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
        const COLORS: [&str; 4] = ["#d9480f", "#495057", "#1971c2", "#2f9e44"];
        let rows = self.rows();
        let scenarios = &self.order;
        let bar = 14.0;
        let group = bar * Peer::ALL.len() as f64 + 12.0;
        let left = 250.0;
        let width = 900.0;
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
        for (index, peer) in Peer::ALL.iter().enumerate() {
            let lx = 10.0 + 130.0 * index as f64;
            let _ = writeln!(
                svg,
                "<rect x=\"{lx}\" y=\"32\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"43\">{}</text>",
                COLORS[index],
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
            for (index, peer) in Peer::ALL.iter().enumerate() {
                let Some(row) = rows
                    .iter()
                    .find(|row| &row.scenario == scenario && row.peer == peer.name())
                else {
                    continue;
                };
                let Some(value) = row.vs_hyper else { continue };
                let y = gy + bar * index as f64;
                let _ = writeln!(
                    svg,
                    "<rect x=\"{left}\" y=\"{y}\" width=\"{:.1}\" height=\"{}\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\">{value:.2}x</text>",
                    (x(value) - left).max(1.0),
                    bar - 2.0,
                    COLORS[index],
                    x(value) + 4.0,
                    y + bar - 4.0
                );
            }
        }
        svg.push_str("</svg>\n");
        svg
    }
}

fn micros(us: f64) -> String {
    if us >= 1000.0 {
        format!("{:.2}ms", us / 1000.0)
    } else {
        format!("{us:.0}us")
    }
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
        Measured {
            requests_per_second: rps,
            p50_us: 100.0,
            p99_us: 900.0,
        }
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
        assert_eq!(framework.requests_per_second, 95.0, "the median of three");
        assert_eq!(framework.vs_hyper, Some(0.95));
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
                .contains("| plaintext | framework | 95 |")
        );
        assert!(results.svg("t").contains("0.95x"));
    }
}
