//! The generated TypeScript SDK: compiled with `tsc --strict` (and
//! `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`), its
//! `@ts-expect-error` type tests checked, then driven by node against the
//! server over a socket, its TanStack Query bindings too (`query.test.ts`,
//! with `@tanstack/query-core`). Values it simulates are decoded here with
//! the server's own validators.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use bbs::dto::{ArticleEvent, ArticleSnapshot, ArticleSummary, BbsArticle, Page};
use framework::Dto;
use serde_json::Value;

use crate::support::Served;

fn sdk_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sdk/typescript")
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
        "{shown} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Node 18+ and the package's pinned TypeScript, or a failure that says how
/// to install them.
fn toolchain() -> PathBuf {
    let version = run(
        Command::new("node").arg("--version"),
        "Install Node.js 18 or newer (Debian: `apt-get install nodejs npm`).",
    );
    let version = String::from_utf8_lossy(&version.stdout);
    let major: u32 = version
        .trim()
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|major| major.parse().ok())
        .unwrap_or(0);
    assert!(
        major >= 18,
        "Node.js {version} is too old: the SDK needs 18+"
    );
    let tsc = sdk_dir().join("node_modules/typescript/bin/tsc");
    assert!(
        tsc.exists(),
        "TypeScript is not installed: run `npm ci` in {} (.ci/run does)",
        sdk_dir().display()
    );
    tsc
}

fn decode_all<T: Dto>(values: &Value, route: &str) -> usize {
    let values = values[route]
        .as_array()
        .unwrap_or_else(|| panic!("no simulated values of `{route}`"));
    for value in values {
        let json = serde_json::to_vec(value).unwrap();
        if let Err(err) = framework::from_json::<T>(&json) {
            panic!(
                "simulated `{route}` answer refused by the server's validator: {err:?}\n{value}"
            );
        }
    }
    values.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_compiles_strictly_and_drives_every_route() {
    let tsc = toolchain();
    let dir = sdk_dir();
    // The package as users build it, then the tests and type tests.
    run(
        Command::new("node")
            .arg(&tsc)
            .args(["-p", "tsconfig.json"])
            .current_dir(&dir),
        "",
    );
    run(
        Command::new("node")
            .arg(&tsc)
            .args(["-p", "test/tsconfig.json"])
            .current_dir(&dir),
        "",
    );

    let server = Served::start().await;
    let unavailable = Served::unavailable().await;
    let out = tempfile::tempdir().unwrap();
    let simulated = out.path().join("simulated.json");
    let mut node = Command::new("node");
    node.arg("--test")
        .arg("lib-test/test/e2e.test.js")
        .arg("lib-test/test/simulate.test.js")
        .arg("lib-test/test/query.test.js")
        .env("BBS_URL", server.url())
        .env("BBS_MODERATOR_TOKEN", crate::support::MODERATOR_TOKEN)
        .env("BBS_UNAVAILABLE_URL", unavailable.url())
        .env("SIMULATED_OUT", &simulated)
        .current_dir(&dir);
    let output = tokio::task::spawn_blocking(move || run(&mut node, ""))
        .await
        .unwrap();
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(report.contains("# fail 0"), "{report}");
    assert!(!report.contains("# pass 0"), "{report}");
    // The end-to-end suite `sdk-gen e2e` generated (`e2e/`), compiled with
    // the tests above, against the same server.
    let url = server.url();
    tokio::task::spawn_blocking(move || {
        crate::sdk_e2e::generated_suite_passes(&sdk_dir(), &url, crate::support::MODERATOR_TOKEN);
    })
    .await
    .unwrap();

    let values: Value = serde_json::from_slice(&std::fs::read(&simulated).unwrap()).unwrap();
    assert_eq!(decode_all::<Page<ArticleSummary>>(&values, "index"), 25);
    assert_eq!(decode_all::<BbsArticle>(&values, "at"), 25);
    assert_eq!(decode_all::<BbsArticle>(&values, "create"), 25);
    assert_eq!(decode_all::<ArticleSnapshot>(&values, "update"), 25);
    // Simulated streams yield a few events each.
    assert!(decode_all::<ArticleEvent>(&values, "follow") >= 25);
}
