//! `bench-server PEER ROUTES`: serves one peer's routes on one thread on a
//! free loopback port and prints `listening on ADDR`. The runner starts it
//! pinned to its own core.

use std::{io::Write, net::TcpListener, process::ExitCode};

use bench::{peers::Peer, scenario::RouteSet};
use clap::Parser;

/// Serves one peer's routes until killed.
#[derive(Debug, Parser)]
#[command(name = "bench-server")]
struct Args {
    /// framework, framework+metrics, hyper, axum or actix-web (the node
    /// peers are started by the runner).
    peer: String,
    /// main, many or one.
    routes: String,
    /// The port (0: any free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let (Some(peer), Some(routes)) = (
        Peer::from_name(&args.peer),
        RouteSet::from_name(&args.routes),
    ) else {
        eprintln!(
            "bench-server: unknown peer `{}` or route set `{}`",
            args.peer, args.routes
        );
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
