//! `bench`: will run the framework side by side with raw hyper, axum and
//! actix-web. Not built yet; see the bench issue.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!(
        "bench is not built yet: see the bench issue for the scenarios and peers it will run."
    );
    ExitCode::from(2)
}
