//! An app with its own error contract (`App::builder().errors(..)`): golden
//! SDKs whose errors carry the app's body, `FieldErrors`, instead of the
//! problem document.

#[path = "contract/app.rs"]
mod app;

use std::path::{Path, PathBuf};

use sdk_gen::{RustOptions, Targets, TypeScriptOptions};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/contract")
}

fn targets() -> Targets {
    Targets {
        typescript: Some(TypeScriptOptions {
            package: "@contract/sdk".to_owned(),
        }),
        rust: Some(RustOptions {
            package: "contract-sdk".to_owned(),
        }),
    }
}

/// The generated SDKs are committed under `tests/contract/`;
/// `UPDATE_GOLDEN=1` rewrites them.
#[test]
fn golden_sdks() {
    let manifest = app::app().manifest().clone();
    assert!(manifest.error_body.is_some());
    let mut stale = Vec::new();
    for sdk in sdk_gen::generate(&manifest, &targets()).unwrap() {
        let dir = fixture_dir().join(sdk.dir_name);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            sdk_gen::write(&dir, &sdk.files).unwrap();
        }
        for drift in sdk_gen::check(&dir, &sdk.files).unwrap() {
            stale.push(format!("{}: {drift}", sdk.dir_name));
        }
    }
    assert!(
        stale.is_empty(),
        "golden SDKs differ (UPDATE_GOLDEN=1 cargo test -p sdk-gen --test contract rewrites them):\n{}",
        stale.join("\n")
    );
}

/// The app's body replaces the problem document in both SDKs: no
/// `Problem` is named outside the TypeScript runtime and the index that
/// re-exports it (kept for apps without a contract).
#[test]
fn the_sdks_name_the_apps_error_body() {
    let manifest = app::app().manifest().clone();
    for sdk in sdk_gen::generate(&manifest, &targets()).unwrap() {
        for file in &sdk.files {
            if matches!(file.path.to_str(), Some("src/runtime.ts" | "src/index.ts")) {
                continue;
            }
            assert!(
                !file.contents.contains("Problem"),
                "{}: {} names Problem",
                sdk.dir_name,
                file.path.display()
            );
        }
        let all: String = sdk
            .files
            .iter()
            .map(|file| file.contents.as_str())
            .collect();
        match sdk.dir_name {
            "typescript" => {
                assert!(
                    all.contains("$runtime.Propagation<201, Output, ErrorStatus, FieldErrors>")
                );
                assert!(all.contains("$runtime.Failure<ErrorStatus, FieldErrors>"));
            }
            _ => {
                assert!(all.contains("pub type ErrorBody = FieldErrors;"));
                assert!(all.contains("body: Box<ErrorBody>"));
            }
        }
    }
}
