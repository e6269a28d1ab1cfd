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

use super::latency::{CallLatency, Run};

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
    /// Median latency of one request call (a batch when pipelined),
    /// microseconds; `None` when the load generator's figure is impossible.
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

/// What the script's `done()` prints: the run's summary and the latency
/// histogram wrk hands it (`value:count` pairs from its minimum up).
const DONE: &str = r#"done = function(summary, latency, requests)
  io.write(string.format("bench-summary %d %d\n", summary.duration, summary.requests))
  local pairs = {}
  for i = 1, #latency do
    local value, count = latency(i)
    pairs[i] = string.format("%d:%d", value, count)
  end
  io.write("bench-latency ", table.concat(pairs, " "), "\n")
end
"#;

/// The Lua script of a scenario sent to `host` (wrk's `Host`,
/// `127.0.0.1:8080`): its method, a browser's headers, its body and, when
/// `pipeline` is above 1, that many requests sent at once; `done()` prints
/// the latency histogram (see [`super::latency`]).
pub fn script(dir: &Path, scenario: Scenario, host: &str, pipeline: usize) -> io::Result<PathBuf> {
    let mut lua = format!("wrk.method = \"{}\"\n", scenario.method());
    for (name, value) in scenario.browser_headers(host) {
        lua.push_str(&format!("wrk.headers[\"{name}\"] = \"{value}\"\n"));
    }
    if let (Some(body), Some(media_type)) = (scenario.body(), scenario.content_type()) {
        lua.push_str(&format!(
            "wrk.headers[\"Content-Type\"] = \"{media_type}\"\n"
        ));
        lua.push_str("wrk.body = [==[");
        lua.push_str(&String::from_utf8_lossy(&body));
        lua.push_str("]==]\n");
    }
    if pipeline > 1 {
        lua.push_str(&format!(
            "init = function(args)\n  local r = {{}}\n  for i = 1, {pipeline} do r[i] = wrk.format() end\n  req = table.concat(r)\nend\nrequest = function()\n  return req\nend\n"
        ));
    }
    lua.push_str(DONE);
    let path = dir.join(format!("{}-{pipeline}.lua", scenario.name()));
    std::fs::write(&path, lua)?;
    Ok(path)
}

/// One wrk run's settings.
#[derive(Clone, Copy, Debug)]
pub struct Load<'a> {
    /// The core wrk is pinned to.
    pub core: usize,
    pub addr: SocketAddr,
    pub path: &'a str,
    /// From [`script`].
    pub script: &'a Path,
    pub connections: usize,
    /// Requests per call, as the script sends them.
    pub pipeline: usize,
    pub duration: Duration,
}

/// Runs wrk with one thread pinned to its core.
pub fn run(load: &Load<'_>) -> Result<Measured, String> {
    let Load {
        core,
        addr,
        path,
        script,
        connections,
        pipeline,
        duration,
    } = *load;
    let output = Command::new("taskset")
        .arg("-c")
        .arg(core.to_string())
        .arg("wrk")
        // A slow answer on a loaded machine is latency, not a failed run.
        .args(["-t1", "--latency", "--timeout", "10s"])
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
    parse(&report, connections as u64, pipeline as u64)
}

/// Reads wrk's report and what the script's `done()` printed; refuses runs
/// with errors or non-2xx answers.
pub fn parse(report: &str, connections: u64, pipeline: u64) -> Result<Measured, String> {
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
    let latency = call_latency(report, connections, pipeline)
        .ok_or_else(|| format!("no latency histogram in wrk's report:\n{report}"))?;
    Ok(Measured::new(
        requests_per_second,
        requests,
        latency.percentile(50.0),
        latency.percentile(99.0),
    ))
}

/// The latency of a request call from the lines `done()` printed.
fn call_latency(report: &str, connections: u64, pipeline: u64) -> Option<CallLatency> {
    let line = |prefix: &str| {
        report
            .lines()
            .find_map(|line| line.strip_prefix(prefix))
            .map(str::trim)
    };
    let mut summary = line("bench-summary ")?.split(' ').map(str::parse::<u64>);
    let (Some(Ok(duration_us)), Some(Ok(responses))) = (summary.next(), summary.next()) else {
        return None;
    };
    let histogram: Option<Vec<(u64, u64)>> = line("bench-latency")?
        .split_whitespace()
        .map(|pair| {
            let (value, count) = pair.split_once(':')?;
            Some((value.parse().ok()?, count.parse().ok()?))
        })
        .collect();
    let run = Run {
        duration_us,
        responses,
        connections,
        pipeline,
    };
    CallLatency::from_wrk(&histogram?, run)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// wrk's report, then what the script's `done()` printed.
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
bench-summary 2000000 123456
bench-latency 985:70000 1100:40000 1200:10000 1500:3456
";

    #[test]
    fn reads_throughput_and_percentiles() {
        let measured = parse(REPORT, 64, 1).unwrap();
        assert_eq!(measured.requests_per_second, 61728.0);
        assert_eq!(measured.requests, 123456);
        assert_eq!(measured.p50_us, Some(985.0));
        assert_eq!(measured.p99_us, Some(1500.0));
        assert_eq!(measured.per_cpu_second(), None, "not measured yet");
    }

    #[test]
    fn percentiles_come_from_the_histogram_not_wrk_s_text() {
        // wrk's pipelined text can say 0us; the histogram is what counts.
        let broken = REPORT.replace("99%    1.50ms", "99%    0.00us");
        assert_eq!(parse(&broken, 64, 1).unwrap().p99_us, Some(1500.0));
        let none = REPORT.replace("bench-latency", "something else");
        assert!(parse(&none, 64, 1).unwrap_err().contains("histogram"));
    }

    #[test]
    fn the_script_prints_the_histogram_and_pipelines() {
        let dir = tempfile::tempdir().unwrap();
        let read = |scenario, pipeline| {
            std::fs::read_to_string(
                script(dir.path(), scenario, "127.0.0.1:8080", pipeline).unwrap(),
            )
            .unwrap()
        };
        let lua = read(Scenario::Json, 10);
        assert!(lua.contains("for i = 1, 10 do r[i] = wrk.format() end"));
        assert!(lua.contains("done = function(summary, latency, requests)"));
        assert!(lua.contains("bench-latency"));
        let post = read(Scenario::Assert, 1);
        assert!(post.starts_with("wrk.method = \"POST\""));
        assert!(post.contains("wrk.headers[\"Content-Type\"] = \"application/json\""));
        assert!(!post.contains("init = function"));
        let form = read(Scenario::Form, 1);
        assert!(form.contains("wrk.headers[\"Origin\"] = \"http://127.0.0.1:8080\""));
        assert!(form.contains("wrk.headers[\"Sec-Fetch-Site\"] = \"same-origin\""));
        assert!(
            form.contains("wrk.headers[\"Content-Type\"] = \"application/x-www-form-urlencoded\"")
        );
    }

    #[test]
    fn wrong_answers_and_socket_errors_fail_the_run() {
        let wrong = REPORT.replace(
            "Requests/sec",
            "  Non-2xx or 3xx responses: 3\nRequests/sec",
        );
        assert!(parse(&wrong, 64, 1).unwrap_err().contains("wrong answers"));
        let errors = REPORT.replace(
            "Requests/sec",
            "  Socket errors: connect 0, read 2, write 0, timeout 0\nRequests/sec",
        );
        assert!(parse(&errors, 64, 1).unwrap_err().contains("socket errors"));
        let clean = REPORT.replace(
            "Requests/sec",
            "  Socket errors: connect 0, read 0, write 0, timeout 0\nRequests/sec",
        );
        assert!(parse(&clean, 64, 1).is_ok());
    }
}
