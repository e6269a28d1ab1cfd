//! What each set of cargo features pulls in, from `cargo tree` (offline:
//! the lockfile says it all): an app that takes only the server compiles
//! no Swagger UI, clap, askama, prometheus-client, utoipa, h2 or sha2, and
//! a crate that takes no feature (sdk-gen, a types-only crate) compiles no
//! hyper either; whatever the features, the framework compiles none of the
//! crates it leaves out of its dependencies' defaults.
//! Whether each feature compiles alone is `.ci/run`'s clippy loop.

use std::process::Command;

/// The crates the framework's normal dependencies reach with `features`
/// (default features off), one name per crate.
fn crates_with(features: Option<&str>) -> Vec<String> {
    let workspace = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut tree = Command::new(env!("CARGO"));
    tree.current_dir(workspace).args([
        "tree",
        "--offline",
        "--package",
        "framework",
        "--edges",
        "normal",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]);
    match features {
        Some("default") => {}
        Some(features) => {
            tree.args(["--no-default-features", "--features", features]);
        }
        None => {
            tree.arg("--no-default-features");
        }
    }
    let output = tree.output().expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// Those of `unwanted` that are among `crates`.
fn found<'a>(crates: &[String], unwanted: &[&'a str]) -> Vec<&'a str> {
    unwanted
        .iter()
        .copied()
        .filter(|name| crates.iter().any(|krate| krate == name))
        .collect()
}

/// What the default features bring and the server alone does not: the docs
/// page, the CLI, templates, metrics, the OpenAPI model, HTTP/2 and the
/// hashes of pages' allowed scripts.
const EXTRAS: [&str; 7] = [
    "utoipa-swagger-ui",
    "clap",
    "askama",
    "prometheus-client",
    "utoipa",
    "h2",
    "sha2",
];

/// Crates the framework's dependencies bring with their default features
/// and the framework does not want: rand's ChaCha generator (and zerocopy
/// under it: random values are test data, `SmallRng` draws them), regex's
/// literal prefilters (aho-corasick) and tracing's `#[instrument]` macro.
const LEFT_OUT: [&str; 4] = [
    "rand_chacha",
    "zerocopy",
    "aho-corasick",
    "tracing-attributes",
];

#[test]
fn the_server_alone_brings_no_docs_page_cli_templates_metrics_openapi_or_http2() {
    let crates = crates_with(Some("server"));
    assert_eq!(found(&crates, &EXTRAS), Vec::<&str>::new());
    assert_eq!(found(&crates, &["hyper", "hyper-util"]).len(), 2);
}

#[test]
fn no_features_bring_what_the_framework_leaves_out() {
    for features in [None, Some("server"), Some("default")] {
        let crates = crates_with(features);
        assert_eq!(
            found(&crates, &LEFT_OUT),
            Vec::<&str>::new(),
            "{features:?}"
        );
    }
}

#[test]
fn no_feature_brings_no_server_either() {
    let crates = crates_with(None);
    let mut unwanted = EXTRAS.to_vec();
    unwanted.extend(["hyper", "hyper-util", "tokio-tungstenite", "multer"]);
    assert_eq!(found(&crates, &unwanted), Vec::<&str>::new());
}

/// The check above is not empty by accident (a renamed crate, a changed
/// output format): the defaults do bring every one of them.
#[test]
fn the_defaults_bring_all_of_them() {
    let crates = crates_with(Some("default"));
    assert_eq!(found(&crates, &EXTRAS), EXTRAS.to_vec());
}
