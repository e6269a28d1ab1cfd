//! `bbs`: serves the BBS articles app on `HOST`:`PORT` (default
//! 127.0.0.1:3000), storing into `DATABASE_URL` (default `sqlite://bbs.db`).
//! `bbs openapi` prints its OpenAPI document instead, `bbs manifest` the API
//! manifest that `sdk-gen` reads; neither touches the database.

use std::{io::Write, process::ExitCode};

use framework::cli::{Command, describe};
use tracing_subscriber::EnvFilter;

/// Argon2 fills a 19 MiB block per password hashed. After the first such
/// block is freed, glibc raises its mmap threshold and keeps every later one
/// in its heaps: measured here, resident memory grew by 19 MiB per hash
/// until it reached 1.2 GB in a 30 s soak. A fixed threshold keeps large
/// blocks mmap'd, so they go back to the system when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn return_large_blocks_to_the_system() {
    // SAFETY: `mallopt` only tunes the allocator; it is called once, first
    // thing in `main`, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_large_blocks_to_the_system() {}

fn main() -> ExitCode {
    return_large_blocks_to_the_system();
    match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime.block_on(serve()),
        Err(err) => {
            eprintln!("bbs: starting the runtime: {err}");
            ExitCode::FAILURE
        }
    }
}

async fn serve() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let config = match bbs::Config::from_env() {
        Ok(config) => config,
        Err(err) => {
            eprintln!("bbs: {err}");
            return ExitCode::FAILURE;
        }
    };
    let command = Command::from_args();
    if command.describes() {
        return match bbs::ArticleStore::lazy(&config.database_url)
            .map_err(bbs::RunError::from)
            .and_then(|store| bbs::app(store).map_err(bbs::RunError::from))
        {
            Ok(app) => describe(&app, command),
            Err(err) => {
                eprintln!("bbs: {err}");
                ExitCode::FAILURE
            }
        };
    }
    let result = bbs::run(config, |addr| {
        println!("bbs listening on http://{addr}");
        // Tests and scripts read this line to find the port.
        let _ = std::io::stdout().flush();
    })
    .await;
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("bbs: {err}");
            ExitCode::FAILURE
        }
    }
}
