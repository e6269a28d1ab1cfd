//! Clients made from the committed OpenAPI document by other generators,
//! as users of other languages make them: openapi-typescript +
//! openapi-fetch (compiled with `tsc --strict`) and openapi-python-client
//! (checked with `mypy --strict`), each then driving the server: create,
//! list and read an article, and a refused input read back as a typed
//! problem. The tools are the pinned ones of
//! `examples/bbs/generators/typescript/package-lock.json` and
//! `scripts/python-tools.txt`; a missing tool fails the test.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use crate::support::Served;

const DOCUMENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");

fn generators_dir(language: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("generators")
        .join(language)
}

/// Runs a command, failing the test with its output (and `hint`) when it
/// cannot start or does not succeed.
fn run(command: &mut Command, hint: &str) -> Output {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .unwrap_or_else(|err| panic!("cannot run {shown}: {err}. {hint}"));
    assert!(
        output.status.success(),
        "{shown} failed ({}):\n{}\n{}\n{hint}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_typescript_and_openapi_python_client_generate_type_checked_clients_that_drive_the_server()
 {
    let server = Served::start().await;
    let url = server.url();
    let typescript = {
        let url = url.clone();
        tokio::task::spawn_blocking(move || typescript_client(&url))
    };
    let python = tokio::task::spawn_blocking(move || python_client(&url));
    let typescript = typescript.await.unwrap();
    let python = python.await.unwrap();
    assert!(typescript.contains("6 calls as documented"), "{typescript}");
    assert!(python.contains("4 calls as documented"), "{python}");
}

/// openapi-typescript's types, openapi-fetch's calls: the report of
/// `drive.ts`.
fn typescript_client(url: &str) -> String {
    let dir = generators_dir("typescript");
    let bin = dir.join("node_modules/.bin");
    let hint = format!(
        "Install Node.js and the pinned tools: `npm ci` in {} (scripts/test does)",
        dir.display()
    );
    for tool in ["openapi-typescript", "tsc"] {
        assert!(bin.join(tool).exists(), "{tool} is not installed. {hint}");
    }
    // `--default-non-nullable=false`: by default a property with a
    // `default` is required, in request bodies too ("Other generators" in
    // framework/src/docs/openapi.md).
    run(
        Command::new(bin.join("openapi-typescript"))
            .arg(DOCUMENT)
            .args([
                "--default-non-nullable=false",
                "-o",
                "generated/schema.d.ts",
            ])
            .current_dir(&dir),
        &hint,
    );
    run(
        Command::new(bin.join("tsc"))
            .args(["-p", "tsconfig.json"])
            .current_dir(&dir),
        &hint,
    );
    let output = run(
        Command::new("node")
            .arg("generated/out/drive.js")
            .env("BBS_URL", url)
            .current_dir(&dir),
        &hint,
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// openapi-python-client's package, checked by mypy: the report of
/// `drive.py`.
fn python_client(url: &str) -> String {
    let dir = generators_dir("python");
    let hint = "Install the pinned Python tools: `pip install --no-deps -r scripts/python-tools.txt` in a virtual environment first on PATH (scripts/test does)";
    let out = tempfile::tempdir().unwrap();
    // The venv's ruff formats the package after generating it.
    run(
        Command::new("openapi-python-client")
            .args([
                "generate",
                "--meta",
                "none",
                "--path",
                DOCUMENT,
                "--output-path",
            ])
            .arg(out.path().join("bbs_client"))
            .current_dir(out.path()),
        hint,
    );
    std::fs::copy(dir.join("drive.py"), out.path().join("drive.py")).unwrap();
    run(
        Command::new("python3")
            .args(["-m", "mypy", "--config-file"])
            .arg(dir.join("mypy.ini"))
            .args(["bbs_client", "drive.py"])
            .current_dir(out.path()),
        hint,
    );
    let output = run(
        Command::new("python3")
            .arg("drive.py")
            .env("BBS_URL", url)
            .current_dir(out.path()),
        hint,
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}
