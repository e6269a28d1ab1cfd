//! wrk (Debian's package): installing it, writing its Lua scripts, running
//! it pinned to its core and reading its report.

use std::{
    io,
    net::SocketAddr,
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use bench::scenario::Scenario;

/// Makes sure `wrk` is on the PATH, installing it with apt-get as root.
pub fn ensure_installed() -> Result<(), String> {
    if Command::new("wrk").arg("--version").output().is_ok() {
        return Ok(());
    }
    eprintln!("bench: wrk is missing; installing it with apt-get");
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map_err(|err| format!("apt-get: {err}"))
    };
    apt(&["update", "-q"])?;
    let status = apt(&["install", "-y", "-q", "wrk"])?;
    if status.success() {
        Ok(())
    } else {
        Err("installing wrk failed: run `apt-get install wrk` as root".to_owned())
    }
}

/// One measurement.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Measured {
    /// Responses per second.
    pub requests_per_second: f64,
    /// Responses completed in the run.
    pub requests: u64,
    /// CPU time (user + system) the server spent during the run, seconds;
    /// measured by the caller around the run (0 until then).
    pub server_cpu_seconds: f64,
    /// Median latency, microseconds; `None` when the load generator's
    /// figure is impossible (wrk times a pipelined batch as one request and
    /// can print `0us`).
    pub p50_us: Option<f64>,
    /// 99th percentile latency, microseconds; `None` when impossible (zero,
    /// or below the median).
    pub p99_us: Option<f64>,
}

impl Measured {
    /// A measurement with latencies checked for plausibility.
    pub fn new(requests_per_second: f64, requests: u64, p50_us: f64, p99_us: f64) -> Measured {
        let p50_us = (p50_us > 0.0).then_some(p50_us);
        let p99_us = p50_us.and_then(|p50| (p99_us >= p50).then_some(p99_us));
        Measured {
            requests_per_second,
            requests,
            server_cpu_seconds: 0.0,
            p50_us,
            p99_us,
        }
    }

    /// Responses per second of the server's CPU time, when it was measured.
    pub fn per_cpu_second(&self) -> Option<f64> {
        (self.server_cpu_seconds > 0.0).then(|| self.requests as f64 / self.server_cpu_seconds)
    }
}

/// The Lua script of a scenario: its method, body and, when `pipeline` is
/// above 1, that many requests sent at once.
pub fn script(dir: &Path, scenario: Scenario, pipeline: usize) -> io::Result<PathBuf> {
    let mut lua = format!("wrk.method = \"{}\"\n", scenario.method());
    if let Some(body) = scenario.body() {
        lua.push_str("wrk.headers[\"Content-Type\"] = \"application/json\"\n");
        lua.push_str("wrk.body = [==[");
        lua.push_str(&String::from_utf8_lossy(&body));
        lua.push_str("]==]\n");
    }
    if pipeline > 1 {
        lua.push_str(&format!(
            "init = function(args)\n  local r = {{}}\n  for i = 1, {pipeline} do r[i] = wrk.format() end\n  req = table.concat(r)\nend\nrequest = function()\n  return req\nend\n"
        ));
    }
    let path = dir.join(format!("{}-{pipeline}.lua", scenario.name()));
    std::fs::write(&path, lua)?;
    Ok(path)
}

/// Runs wrk with one thread pinned to `core`.
pub fn run(
    core: usize,
    addr: SocketAddr,
    path: &str,
    script: &Path,
    connections: usize,
    duration: Duration,
) -> Result<Measured, String> {
    let output = Command::new("taskset")
        .arg("-c")
        .arg(core.to_string())
        .arg("wrk")
        .args(["-t1", "--latency"])
        .arg(format!("-c{connections}"))
        // wrk takes whole seconds.
        .arg(format!("-d{}s", duration.as_secs().max(1)))
        .arg("-s")
        .arg(script)
        .arg(format!("http://{addr}{path}"))
        .output()
        .map_err(|err| format!("running wrk: {err}"))?;
    let report = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "wrk failed: {report}{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    parse(&report)
}

/// Reads wrk's report; refuses runs with errors or non-2xx answers.
pub fn parse(report: &str) -> Result<Measured, String> {
    if let Some(line) = report
        .lines()
        .find(|line| line.contains("Non-2xx or 3xx responses"))
    {
        return Err(format!("wrong answers under load: {}", line.trim()));
    }
    if let Some(line) = report.lines().find(|line| line.contains("Socket errors")) {
        let errors: u64 = line
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse::<u64>().ok())
            .sum();
        if errors > 0 {
            return Err(format!("socket errors under load: {}", line.trim()));
        }
    }
    let requests_per_second = report
        .lines()
        .find_map(|line| line.trim().strip_prefix("Requests/sec:"))
        .and_then(|value| value.trim().parse().ok())
        .ok_or_else(|| format!("no Requests/sec in wrk's report:\n{report}"))?;
    let requests = report
        .lines()
        .find_map(|line| line.trim().split_once(" requests in "))
        .and_then(|(count, _)| count.trim().parse().ok())
        .ok_or_else(|| format!("no request count in wrk's report:\n{report}"))?;
    let percentile = |name: &str| {
        report
            .lines()
            .map(str::trim)
            .find_map(|line| line.strip_prefix(name))
            .and_then(|value| duration_us(value.trim()))
            .ok_or_else(|| format!("no {name} latency in wrk's report:\n{report}"))
    };
    Ok(Measured::new(
        requests_per_second,
        requests,
        percentile("50%")?,
        percentile("99%")?,
    ))
}

/// `385.00us`, `1.02ms`, `2.00s` in microseconds.
fn duration_us(text: &str) -> Option<f64> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    Some(match unit {
        "us" => number,
        "ms" => number * 1e3,
        "s" => number * 1e6,
        "m" => number * 60e6,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "Running 2s test @ http://127.0.0.1:1/plaintext
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.02ms  200.00us   5.00ms   90.00%
    Req/Sec    61.73k     1.00k   63.00k    80.00%
  Latency Distribution
     50%  985.00us
     75%    1.10ms
     90%    1.20ms
     99%    1.50ms
  123456 requests in 2.00s, 15.07MB read
Requests/sec:  61728.00
Transfer/sec:      7.53MB
";

    #[test]
    fn reads_throughput_and_percentiles() {
        let measured = parse(REPORT).unwrap();
        assert_eq!(measured.requests_per_second, 61728.0);
        assert_eq!(measured.requests, 123456);
        assert_eq!(measured.p50_us, Some(985.0));
        assert_eq!(measured.p99_us, Some(1500.0));
        assert_eq!(measured.per_cpu_second(), None, "not measured yet");
    }

    #[test]
    fn impossible_percentiles_are_not_reported() {
        let zero = parse(&REPORT.replace("99%    1.50ms", "99%    0.00us")).unwrap();
        assert_eq!((zero.p50_us, zero.p99_us), (Some(985.0), None));
        let below = parse(&REPORT.replace("99%    1.50ms", "99%  500.00us")).unwrap();
        assert_eq!(below.p99_us, None, "a p99 below the median");
        let none = parse(&REPORT.replace("50%  985.00us", "50%    0.00us")).unwrap();
        assert_eq!((none.p50_us, none.p99_us), (None, None));
    }

    #[test]
    fn wrong_answers_and_socket_errors_fail_the_run() {
        let wrong = REPORT.replace(
            "Requests/sec",
            "  Non-2xx or 3xx responses: 3\nRequests/sec",
        );
        assert!(parse(&wrong).unwrap_err().contains("wrong answers"));
        let errors = REPORT.replace(
            "Requests/sec",
            "  Socket errors: connect 0, read 2, write 0, timeout 0\nRequests/sec",
        );
        assert!(parse(&errors).unwrap_err().contains("socket errors"));
        let clean = REPORT.replace(
            "Requests/sec",
            "  Socket errors: connect 0, read 0, write 0, timeout 0\nRequests/sec",
        );
        assert!(parse(&clean).is_ok());
    }
}
