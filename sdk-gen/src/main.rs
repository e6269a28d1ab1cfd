//! `sdk-gen`: will generate the TypeScript and Rust client SDKs of an app
//! from its route metadata. Not built yet; see the SDK issue.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!(
        "sdk-gen is not built yet: it will emit the TypeScript and Rust SDKs from the \
         route metadata that `#[controller]` produces (`framework::RouteMeta`)."
    );
    ExitCode::from(2)
}
