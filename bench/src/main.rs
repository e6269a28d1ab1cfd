//! `cargo run --release -p bench`: builds the peers' servers (and with
//! `--with-node` the node peers), checks every answer, then loads each with
//! wrk from the other core, each scenario on every peer back to back in each
//! round, and reports req/s, requests per server-CPU-second, latency and
//! ratios to raw hyper, axum and nestia (the median of each round's ratio)
//! as a table, markdown, JSON and an SVG chart (in `bench/results/`).
//!
//! `--quick` runs a few seconds per scenario (CI's smoke test); the full mode
//! is for people and builds the 10,000-route servers.

mod runner;

use std::{
    path::{Path, PathBuf},
    process::{Command, ExitCode},
    time::Duration,
};

use bench::{
    peers::{Peer, Runtime},
    scenario::{RouteSet, Scenario},
};
use clap::Parser;
use runner::{
    node, oha,
    report::Results,
    server::{Launcher, Request, Server, with_idle_connections},
    wrk,
};

/// Loads the framework and its peers with wrk and compares them.
#[derive(Debug, Parser)]
#[command(name = "bench")]
struct Args {
    /// A few seconds per scenario, one round, 100 routes for the routing
    /// scenarios: a smoke test.
    #[arg(long)]
    quick: bool,
    /// Seconds of load per measurement (whole seconds, as wrk takes them).
    #[arg(long)]
    duration: Option<u64>,
    /// Rounds (the median is reported with the minimum and maximum).
    #[arg(long)]
    rounds: Option<usize>,
    /// Concurrent connections.
    #[arg(long, default_value_t = 64)]
    connections: usize,
    /// Requests in flight per connection in the pipelined runs.
    #[arg(long, default_value_t = 10)]
    pipeline: usize,
    /// Only these peers (comma-separated: framework, framework+metrics,
    /// hyper, axum, actix-web; with --with-node also nestia, nestjs,
    /// fastify).
    #[arg(long, value_delimiter = ',')]
    peers: Vec<String>,
    /// Only these scenarios (comma-separated names).
    #[arg(long, value_delimiter = ',')]
    scenarios: Vec<String>,
    /// The core the servers run on.
    #[arg(long, default_value_t = 1)]
    server_core: usize,
    /// The core wrk runs on.
    #[arg(long, default_value_t = 0)]
    client_core: usize,
    /// Where the markdown, JSON and SVG go.
    #[arg(long, default_value = "bench/results")]
    out: PathBuf,
    /// Also load plaintext, json and assert with oha (installed with cargo
    /// if missing), as a cross-check of wrk.
    #[arg(long)]
    cross_check: bool,
    /// Use this `bench-server` instead of building one (tests pass theirs).
    #[arg(long, value_name = "PATH")]
    server_binary: Option<PathBuf>,
    /// Also the node peers (nestia, NestJS with class-validator, fastify)
    /// on the main scenarios: needs node and npm; installs `bench/node`
    /// from its lockfile and compiles it.
    #[arg(long)]
    with_node: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let plan = Plan::from_args(args)?;
    wrk::ensure_installed()?;
    if args.cross_check {
        oha::ensure_installed()?;
    }
    let scripts = tempdir()?;
    let launcher = Launcher {
        binary: match &args.server_binary {
            Some(binary) => binary.clone(),
            None => build(!args.quick)?,
        },
        node: if plan
            .peers
            .iter()
            .any(|peer| peer.runtime() != Runtime::Rust)
        {
            Some(node::prepare(&scripts)?)
        } else {
            None
        },
    };
    let session = Session {
        args,
        plan: &plan,
        scripts: &scripts,
    };
    let mut results = Results::default();
    for round in 1..=plan.rounds {
        eprintln!("bench: round {round} of {}", plan.rounds);
        for set in RouteSet::ALL {
            let in_set: Vec<Scenario> = plan
                .scenarios
                .iter()
                .copied()
                .filter(|scenario| scenario.route_set() == set)
                .collect();
            if in_set.is_empty() {
                continue;
            }
            // Every peer's server at once (idle ones cost nothing): each
            // scenario is measured on every peer back to back, so the ratios
            // within a round compare runs seconds apart. Every other round
            // goes through the peers in reverse, so no peer always runs
            // first.
            let mut servers = Vec::new();
            for &peer in plan.peers.iter().filter(|peer| peer.serves(set)) {
                let server = Server::start(&launcher, peer, set, args.server_core)
                    .map_err(|err| err.to_string())?;
                servers.push((peer, server));
            }
            if round % 2 == 0 {
                servers.reverse();
            }
            for &scenario in &in_set {
                for (peer, server) in &servers {
                    check(server, *peer, scenario)?;
                    session.measure(server, *peer, scenario, &mut results)?;
                }
            }
            if round == 1 && set == RouteSet::Main {
                for (peer, server) in &servers {
                    results
                        .memory
                        .insert(peer.name().to_owned(), memory(server)?);
                }
            }
        }
    }
    report(args, &plan, &results)?;
    let _ = std::fs::remove_dir_all(&scripts);
    Ok(())
}

/// What to run: peers, scenarios, rounds and each run's duration.
struct Plan {
    peers: Vec<Peer>,
    scenarios: Vec<Scenario>,
    rounds: usize,
    duration: Duration,
}

impl Plan {
    fn from_args(args: &Args) -> Result<Plan, String> {
        let peers: Vec<Peer> = if args.peers.is_empty() {
            Peer::ALL
                .into_iter()
                .filter(|peer| args.with_node || peer.runtime() == Runtime::Rust)
                .collect()
        } else {
            args.peers
                .iter()
                .map(|name| Peer::from_name(name).ok_or_else(|| format!("unknown peer `{name}`")))
                .collect::<Result<_, _>>()?
        };
        let node = peers.iter().find(|peer| peer.runtime() != Runtime::Rust);
        if let (Some(peer), false) = (node, args.with_node) {
            return Err(format!("{peer} runs on node: add --with-node"));
        }
        let scenarios: Vec<Scenario> = if args.scenarios.is_empty() {
            Scenario::ALL.to_vec()
        } else {
            args.scenarios
                .iter()
                .map(|name| {
                    Scenario::from_name(name).ok_or_else(|| format!("unknown scenario `{name}`"))
                })
                .collect::<Result<_, _>>()?
        };
        Ok(Plan {
            peers,
            scenarios,
            rounds: args.rounds.unwrap_or(if args.quick { 1 } else { 5 }),
            duration: Duration::from_secs(args.duration.unwrap_or(if args.quick { 2 } else { 10 })),
        })
    }
}

/// What every load of a run shares.
struct Session<'a> {
    args: &'a Args,
    plan: &'a Plan,
    /// Where wrk's scripts and oha's bodies are written.
    scripts: &'a Path,
}

impl Session<'_> {
    /// Loads one scenario on a running server (and its pipelined variant for
    /// plaintext and json), warming up first outside the quick mode.
    fn measure(
        &self,
        server: &Server,
        peer: Peer,
        scenario: Scenario,
        results: &mut Results,
    ) -> Result<(), String> {
        let Session {
            args,
            plan,
            scripts,
        } = *self;
        let mut modes = vec![1];
        if matches!(scenario, Scenario::Plaintext | Scenario::Json) && args.pipeline > 1 {
            modes.push(args.pipeline);
        }
        let path = scenario.path(server.many);
        for pipeline in modes {
            let label = if pipeline > 1 {
                format!("{scenario} pipelined x{pipeline}")
            } else {
                scenario.name().to_owned()
            };
            let script = wrk::script(scripts, scenario, &server.addr.to_string(), pipeline)
                .map_err(|err| err.to_string())?;
            let load = |duration| wrk::Load {
                core: args.client_core,
                addr: server.addr,
                path: &path,
                script: &script,
                connections: args.connections,
                pipeline,
                duration,
            };
            if !args.quick {
                wrk::run(&load(Duration::from_secs(1)))
                    .map_err(|err| format!("{peer} {label}: {err}"))?;
            }
            let measured = with_server_cpu(server, || wrk::run(&load(plan.duration)))
                .map_err(|err| format!("{peer} {label}: {err}"))?;
            eprintln!(
                "  {label:<34} {peer:<17} {:>10.0} req/s {:>10.0} per server-CPU-s",
                measured.requests_per_second,
                measured.per_cpu_second().unwrap_or(0.0)
            );
            results.add(&label, peer, measured);
            let cross_checked = matches!(
                scenario,
                Scenario::Plaintext | Scenario::Json | Scenario::Assert
            );
            if args.cross_check && pipeline == 1 && cross_checked {
                self.cross_check(server, peer, scenario, results)?;
            }
        }
        Ok(())
    }

    /// Loads `scenario` with oha too.
    fn cross_check(
        &self,
        server: &Server,
        peer: Peer,
        scenario: Scenario,
        results: &mut Results,
    ) -> Result<(), String> {
        let Session {
            args,
            plan,
            scripts,
        } = *self;
        let body = match scenario.body() {
            Some(body) => {
                let file = scripts.join(format!("{scenario}.json"));
                std::fs::write(&file, body).map_err(|err| err.to_string())?;
                Some(file)
            }
            None => None,
        };
        let measured = with_server_cpu(server, || {
            oha::run(
                args.client_core,
                server.addr,
                scenario.method(),
                &scenario.path(server.many),
                body.as_deref(),
                args.connections,
                plan.duration,
            )
        })
        .map_err(|err| format!("{peer} {scenario} (oha): {err}"))?;
        eprintln!(
            "  {:<34} {peer:<17} {:>10.0} req/s",
            format!("{scenario} (oha)"),
            measured.requests_per_second
        );
        results.add(&format!("{scenario} (oha)"), peer, measured);
        Ok(())
    }
}

/// Prints the table and writes the markdown, SVG and JSON.
fn report(args: &Args, plan: &Plan, results: &Results) -> Result<(), String> {
    let context = context(args, plan);
    println!("{}", results.text());
    std::fs::create_dir_all(&args.out).map_err(|err| err.to_string())?;
    let name = if args.quick { "quick" } else { "latest" };
    let write = |ext: &str, contents: String| {
        let path = args.out.join(format!("{name}.{ext}"));
        std::fs::write(&path, contents).map_err(|err| format!("{}: {err}", path.display()))
    };
    write("md", results.markdown(&context))?;
    write(
        "svg",
        results.svg("Throughput relative to raw hyper (same run, one core each)"),
    )?;
    write(
        "json",
        serde_json::to_string_pretty(results).map_err(|err| err.to_string())?,
    )?;
    eprintln!("bench: wrote {}/{name}.{{md,svg,json}}", args.out.display());
    Ok(())
}

/// Runs one load and records the server's CPU time during it.
fn with_server_cpu(
    server: &Server,
    load: impl FnOnce() -> Result<wrk::Measured, String>,
) -> Result<wrk::Measured, String> {
    let cpu = || {
        server
            .cpu_seconds()
            .map_err(|err| format!("server CPU time: {err}"))
    };
    let before = cpu()?;
    let mut measured = load()?;
    measured.server_cpu_seconds = cpu()? - before;
    Ok(measured)
}

/// Builds `bench-server` (with 10,000 routes unless quick) and answers its path.
fn build(full: bool) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["build", "--release", "-p", "bench", "--bin", "bench-server"]);
    if full {
        command.args(["--features", "routes-10k"]);
        eprintln!("bench: building the servers with 10,000 routes (takes minutes the first time)");
    }
    let status = command.status().map_err(|err| format!("cargo: {err}"))?;
    if !status.success() {
        return Err("building bench-server failed".to_owned());
    }
    let exe = std::env::current_exe().map_err(|err| err.to_string())?;
    let binary = exe
        .parent()
        .map(|dir| dir.join("bench-server"))
        .ok_or("no target directory")?;
    if binary.exists() {
        Ok(binary)
    } else {
        Err(format!("{} was not built", binary.display()))
    }
}

/// Refuses to time a server that answers wrongly.
fn check(server: &Server, peer: Peer, scenario: Scenario) -> Result<(), String> {
    let host = server.addr.to_string();
    let send = |headers: &[(&str, String)], body: Option<&[u8]>| {
        let request = Request {
            method: scenario.method(),
            path: &scenario.path(server.many),
            headers,
            body: body.zip(scenario.content_type()),
        };
        request
            .send(server.addr)
            .map_err(|err| format!("{peer} {scenario}: {err}"))
    };
    let headers = scenario.browser_headers(&host);
    let body = scenario.body();
    let (status, answer) = send(&headers, body.as_deref())?;
    scenario
        .check(server.many, status, &answer)
        .map_err(|err| format!("{peer} answers {scenario} wrongly: {err}"))?;
    for (what, invalid) in scenario.invalid_bodies() {
        let (status, _) = send(&headers, Some(&invalid))?;
        if !matches!(status, 400 | 422) {
            return Err(format!(
                "{peer} accepts a {scenario} body with {what} (status {status})"
            ));
        }
    }
    if let Some(expected) = scenario.cross_site_status() {
        let cross_site = [
            ("Origin", "https://elsewhere.example".to_owned()),
            ("Sec-Fetch-Site", "cross-site".to_owned()),
        ];
        let (status, _) = send(&cross_site, body.as_deref())?;
        if status != expected {
            return Err(format!(
                "{peer} answers {scenario} sent from another site's page with {status}, expected {expected}"
            ));
        }
    }
    Ok(())
}

/// Resident memory idle and with 1,000 keep-alive connections, KiB.
fn memory(server: &Server) -> Result<(u64, u64), String> {
    let idle = server.rss_kib().map_err(|err| err.to_string())?;
    let busy = with_idle_connections(server.addr, 1000, || server.rss_kib())
        .map_err(|err| format!("1,000 connections: {err}"))?
        .map_err(|err| err.to_string())?;
    Ok((idle, busy))
}

/// The report's first paragraph: command, load, machine, date.
fn context(args: &Args, plan: &Plan) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("model name"))
                .map(|name| name.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let command: Vec<String> = std::env::args().skip(1).collect();
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .unwrap_or_default();
    format!(
        "Measured {date} with `cargo run --release -p bench{}{}`: wrk -t1 -c{} for {} s per run, {} round(s), median shown with the rounds' minimum and maximum (a cell whose spread exceeds 20% of its median is flagged); each scenario runs on every peer back to back in a round, and a ratio is the median of the rounds' ratios; server pinned to core {}, wrk to core {}; {cpu}, {} cores. `per CPU-s` is responses per second of the server's CPU time (user + system, `/proc/PID/stat`): where wrk saturates its core first (small answers), it compares the servers' costs, and targets use it. Latencies are of one request call: one batch of the pipelined runs, with wrk's coordinated-omission correction computed per call. Absolute numbers vary between machines and runs; compare ratios within one run.",
        if command.is_empty() { "" } else { " -- " },
        command.join(" "),
        args.connections,
        plan.duration.as_secs(),
        plan.rounds,
        args.server_core,
        args.client_core,
        std::thread::available_parallelism().map_or(0, usize::from),
    )
}

fn tempdir() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("bench-scripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|err| err.to_string())?;
    Ok(dir)
}
