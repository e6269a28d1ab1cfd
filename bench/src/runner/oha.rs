//! oha, as a cross-check of wrk's figures: a second load generator built
//! differently (Rust, tokio). It saturates a server core less than wrk does,
//! so its absolute numbers are lower; the ratios between peers are what to
//! compare.

use std::{net::SocketAddr, path::Path, process::Command, time::Duration};

use super::wrk::Measured;

/// Makes sure `oha` is on the PATH, installing it with cargo.
pub fn ensure_installed() -> Result<(), String> {
    if Command::new("oha").arg("--version").output().is_ok() {
        return Ok(());
    }
    eprintln!("bench: oha is missing; installing it with `cargo install oha --locked`");
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["install", "oha", "--locked"])
        .status()
        .map_err(|err| format!("cargo install oha: {err}"))?;
    if status.success() {
        Ok(())
    } else {
        Err("installing oha failed: run `cargo install oha --locked`".to_owned())
    }
}

/// Loads `path` with oha pinned to `core`; `body` is sent as JSON.
pub fn run(
    core: usize,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Path>,
    connections: usize,
    duration: Duration,
) -> Result<Measured, String> {
    let mut command = Command::new("taskset");
    command
        .arg("-c")
        .arg(core.to_string())
        .arg("oha")
        .arg("--no-tui")
        .args(["--output-format", "json"])
        .arg("-z")
        .arg(format!("{}s", duration.as_secs().max(1)))
        .arg("-c")
        .arg(connections.to_string())
        .args(["-m", method]);
    if let Some(body) = body {
        command
            .arg("-D")
            .arg(body)
            .args(["-H", "content-type: application/json"]);
    }
    let output = command
        .arg(format!("http://{addr}{path}"))
        .output()
        .map_err(|err| format!("running oha: {err}"))?;
    if !output.status.success() {
        return Err(format!(
            "oha failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    parse(&output.stdout)
}

/// Reads oha's JSON report; refuses runs with failed requests.
pub fn parse(json: &[u8]) -> Result<Measured, String> {
    let report: serde_json::Value =
        serde_json::from_slice(json).map_err(|err| format!("oha's report: {err}"))?;
    let summary = &report["summary"];
    let rps = summary["requestsPerSec"]
        .as_f64()
        .ok_or("no requestsPerSec in oha's report")?;
    let success = summary["successRate"].as_f64().unwrap_or(1.0);
    if success < 1.0 {
        return Err(format!("oha saw failed requests (success rate {success})"));
    }
    let seconds = summary["total"]
        .as_f64()
        .ok_or("no total time in oha's report")?;
    let percentile = |name: &str| {
        report["latencyPercentiles"][name]
            .as_f64()
            .map(|seconds| seconds * 1e6)
            .unwrap_or(0.0)
    };
    Ok(Measured::new(
        rps,
        (rps * seconds).round() as u64,
        percentile("p50"),
        percentile("p99"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_throughput_and_refuses_failures() {
        let report = br#"{"summary":{"successRate":1.0,"requestsPerSec":51234.5,"total":2.0},
            "latencyPercentiles":{"p50":0.0011,"p99":0.0042}}"#;
        let measured = parse(report).unwrap();
        assert_eq!(measured.requests_per_second, 51234.5);
        assert_eq!(measured.p50_us.map(f64::round), Some(1100.0));
        assert_eq!(measured.requests, 102469);
        let failed = br#"{"summary":{"successRate":0.9,"requestsPerSec":1.0}}"#;
        assert!(parse(failed).is_err());
    }
}
