//! `bbs`: serves the BBS articles app on `HOST`:`PORT` (default
//! 127.0.0.1:3000), storing into `DATABASE_URL` (default `sqlite://bbs.db`).
//! `bbs openapi` prints its OpenAPI document instead, touching no database.

use std::{io::Write, process::ExitCode};

use framework::cli::{Command, print_openapi};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
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
    if Command::from_args() == Command::PrintOpenApi {
        return match bbs::ArticleStore::lazy(&config.database_url)
            .map_err(bbs::RunError::from)
            .and_then(|store| bbs::app(store).map_err(bbs::RunError::from))
        {
            Ok(app) => print_openapi(&app),
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
