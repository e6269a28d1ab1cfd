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

/// Copies the files of `from` into `to`, folders too.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The version-2 SDK (`sdk/v2/typescript`), compiled strictly with the
/// version-1 package's toolchain, writes an AsciiDoc article (it sends
/// `api-version: 2.0.0`), which a client without the header (version
/// 1.0.0) reads as plain text.
#[tokio::test]
async fn the_version_2_typescript_sdk_speaks_version_2() {
    let tsc = toolchain();
    let package = tempfile::tempdir().unwrap();
    let dir = package.path();
    let v2 = Path::new(env!("CARGO_MANIFEST_DIR")).join("sdk/v2/typescript");
    for file in ["package.json", "tsconfig.json"] {
        std::fs::copy(v2.join(file), dir.join(file)).unwrap();
    }
    copy_tree(&v2.join("src"), &dir.join("src"));
    std::os::unix::fs::symlink(sdk_dir().join("node_modules"), dir.join("node_modules")).unwrap();
    run(
        Command::new("node")
            .arg(&tsc)
            .args(["-p", "tsconfig.json"])
            .current_dir(dir),
        "",
    );
    let script = r#"
import assert from "node:assert/strict";
import api from "./lib/index.js";
const connection = { host: process.env.BBS_URL };
const article = await api.functional.bbs.articles.create(connection, "v2", {
  writer: "ada", title: "AsciiDoc", body: "= Title", format: "adoc", files: [], password: "pw",
});
assert.equal(article.snapshots[0].format, "adoc");
const read = await api.functional.bbs.articles.at(connection, "v2", article.id);
assert.equal(read.snapshots[0].format, "adoc");
const old = await (await fetch(`${process.env.BBS_URL}/bbs/articles/v2/${article.id}`)).json();
assert.equal(old.snapshots[0].format, "txt");
console.log("version 2 spoken");
"#;
    std::fs::write(dir.join("check.mjs"), script).unwrap();
    let server = Served::start().await;
    let mut node = Command::new("node");
    node.arg("check.mjs")
        .env("BBS_URL", server.url())
        .current_dir(dir);
    let output = tokio::task::spawn_blocking(move || run(&mut node, ""))
        .await
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        "version 2 spoken"
    );
}
