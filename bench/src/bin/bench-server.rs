//! `bench-server PEER ROUTES`: serves one peer's routes on one thread on a
//! free loopback port and prints `listening on ADDR`. The runner starts it
//! pinned to its own core.
//!
//! `bench-server --request SCENARIO [--host HOST]` prints the scenario's
//! HTTP/1.1 request, headers and body, as the load runner sends it, after
//! a line with its route set and the right answer's status
//! (`bench/callgrind/requests.py` sends it under callgrind).

use std::{io::Write, net::TcpListener, process::ExitCode};

use bench::{
    peers::Peer,
    scenario::{RouteSet, Scenario},
};
use clap::Parser;

/// Serves one peer's routes until killed.
#[derive(Debug, Parser)]
#[command(name = "bench-server")]
struct Args {
    /// framework, framework+metrics, hyper, axum or actix-web (the node
    /// peers are started by the runner).
    #[arg(required_unless_present = "request")]
    peer: Option<String>,
    /// main, many, one, form or form-cross-origin-off.
    #[arg(required_unless_present = "request")]
    routes: Option<String>,
    /// The port (0: any free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Prints this scenario's route set and answer status on one line,
    /// then its request, and serves nothing.
    #[arg(long, value_name = "SCENARIO", conflicts_with_all = ["peer", "routes"])]
    request: Option<String>,
    /// The `Host` of the printed request.
    #[arg(long, default_value = "localhost", requires = "request")]
    host: String,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(name) = &args.request {
        return print_request(name, &args.host);
    }
    let peer_name = args.peer.as_deref().unwrap_or_default();
    let routes_name = args.routes.as_deref().unwrap_or_default();
    let (Some(peer), Some(routes)) = (Peer::from_name(peer_name), RouteSet::from_name(routes_name))
    else {
        eprintln!("bench-server: unknown peer `{peer_name}` or route set `{routes_name}`");
        return ExitCode::from(2);
    };
    let listener = match TcpListener::bind(("127.0.0.1", args.port)) {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("bench-server: binding: {err}");
            return ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        Ok(addr) => println!(
            "listening on {addr} routes={}",
            bench::scenario::MANY_ROUTES
        ),
        Err(err) => {
            eprintln!("bench-server: {err}");
            return ExitCode::FAILURE;
        }
    }
    let _ = std::io::stdout().flush();
    match peer.serve(routes, listener) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("bench-server: {peer}: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `--request`: the route set and the right answer's status on one line,
/// then the request's bytes.
fn print_request(name: &str, host: &str) -> ExitCode {
    let Some(scenario) = Scenario::from_name(name) else {
        eprintln!("bench-server: unknown scenario `{name}`");
        return ExitCode::from(2);
    };
    let mut out = std::io::stdout().lock();
    let written = writeln!(out, "{} {}", scenario.route_set().name(), scenario.status())
        .and_then(|()| out.write_all(&scenario.request(host, bench::scenario::MANY_ROUTES)))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("bench-server: {err}");
            ExitCode::FAILURE
        }
    }
}
