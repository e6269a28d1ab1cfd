//! `sdk-gen --check` against the committed BBS SDKs: current now, and a
//! failure naming the file once one drifts.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// The BBS app's manifest, as `bbs manifest` prints it, in a file.
fn manifest_file(dir: &Path) -> PathBuf {
    let store = bbs::ArticleStore::lazy("sqlite::memory:").unwrap();
    let app = bbs::app(store).unwrap();
    let path = dir.join("manifest.json");
    std::fs::write(&path, app.manifest().to_json()).unwrap();
    path
}

fn sdk_gen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sdk-gen"))
        .args(args)
        .current_dir(workspace())
        .output()
        .unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "node_modules" || name == "lib" || name == "lib-test" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(name));
        } else {
            std::fs::copy(entry.path(), to.join(name)).unwrap();
        }
    }
}

#[tokio::test]
async fn the_committed_sdks_are_what_the_generator_emits() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = manifest_file(dir.path());
    let output = sdk_gen(&["--check", "--manifest", manifest.to_str().unwrap()]);
    assert!(
        output.status.success(),
        "the committed SDKs are stale; run `cargo run -p sdk-gen` and commit:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test]
async fn check_fails_and_names_the_file_when_an_sdk_drifts() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = manifest_file(dir.path());
    let typescript = dir.path().join("typescript");
    let rust = dir.path().join("rust");
    copy_dir(
        &workspace().join("examples/bbs/sdk/typescript"),
        &typescript,
    );
    copy_dir(&workspace().join("examples/bbs/sdk/rust"), &rust);
    let args = |check: bool| {
        let mut args = vec![
            "--manifest",
            manifest.to_str().unwrap(),
            "--typescript-out",
            typescript.to_str().unwrap(),
            "--typescript-package",
            "@bbs/sdk",
            "--rust-out",
            rust.to_str().unwrap(),
            "--rust-package",
            "bbs-sdk",
        ];
        if check {
            args.push("--check");
        }
        args
    };
    assert!(
        sdk_gen(&args(true)).status.success(),
        "a faithful copy is current"
    );

    let structures = typescript.join("src/structures.ts");
    let edited = std::fs::read_to_string(&structures)
        .unwrap()
        .replace("title: string;", "title: number;");
    std::fs::write(&structures, edited).unwrap();
    std::fs::write(rust.join("src/extra.rs"), "// left over\n").unwrap();
    let output = sdk_gen(&args(true));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("differs: src/structures.ts"), "{stderr}");
    assert!(
        stderr.contains("no longer generated: src/extra.rs"),
        "{stderr}"
    );

    // Generating repairs both.
    assert!(sdk_gen(&args(false)).status.success());
    assert!(sdk_gen(&args(true)).status.success());
    assert!(!rust.join("src/extra.rs").exists());
}

/// `sdk-gen e2e` on a copy of the BBS's TypeScript SDK: the committed
/// suite (`e2e/`) has a test of every route, so nothing is written; an
/// edited test is kept and said so; `--force` replaces it.
#[tokio::test]
async fn e2e_writes_only_what_is_missing_and_keeps_edits() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = manifest_file(dir.path());
    let typescript = dir.path().join("typescript");
    copy_dir(
        &workspace().join("examples/bbs/sdk/typescript"),
        &typescript,
    );
    let suite = typescript.join("e2e");
    let e2e = |force: bool| {
        let mut args = vec![
            "e2e",
            suite.to_str().unwrap(),
            "--sdk",
            typescript.to_str().unwrap(),
            "--manifest",
            manifest.to_str().unwrap(),
        ];
        if force {
            args.push("--force");
        }
        let output = sdk_gen(&args);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
        stderr
    };
    let stderr = e2e(false);
    assert!(stderr.contains(": 0 written, 0 replaced"), "{stderr}");
    assert!(!stderr.contains("no route of the app"), "{stderr}");

    let at = suite.join("features/test_api_bbs_articles_at.ts");
    std::fs::write(&at, "// my own test of `at`\n").unwrap();
    std::fs::remove_file(suite.join("features/test_api_bbs_articles_index.ts")).unwrap();
    let stderr = e2e(false);
    assert!(
        stderr.contains("written: features/test_api_bbs_articles_index.ts"),
        "{stderr}"
    );
    assert!(
        stderr.contains("kept (differs from what would be written; --force replaces it): features/test_api_bbs_articles_at.ts"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&at).unwrap(),
        "// my own test of `at`\n"
    );

    let stderr = e2e(true);
    assert!(
        stderr.contains("replaced: features/test_api_bbs_articles_at.ts"),
        "{stderr}"
    );
    assert!(
        std::fs::read_to_string(&at)
            .unwrap()
            .contains("export const ROUTE")
    );
}

/// The definition of the type `name` in a manifest's JSON.
fn kind<'m>(manifest: &'m mut serde_json::Value, name: &str) -> &'m mut serde_json::Value {
    let types = manifest["types"].as_array_mut().unwrap();
    let ty = types.iter_mut().find(|ty| ty["name"] == name).unwrap();
    &mut ty["def"]["kind"]
}

/// The fields of the object `name` in a manifest's JSON.
fn fields<'m>(manifest: &'m mut serde_json::Value, name: &str) -> &'m mut Vec<serde_json::Value> {
    kind(manifest, name)["object"]["fields"]
        .as_array_mut()
        .unwrap()
}

/// Version 2 of the BBS API as a purpose-made manifest: a new required
/// input, a title that may be `null`, a new article format, a removed
/// route; a new answer field, a wider limit; a summary reworded.
fn bbs_v2(manifest: &str) -> String {
    use serde_json::{Value, json};
    let mut manifest: Value = serde_json::from_str(manifest).unwrap();
    let create = fields(&mut manifest, "ArticleCreate");
    let mut category = create[0].clone();
    category["name"] = json!("category");
    category["description"] = json!("Where the article is filed.");
    create.push(category);
    let title = &mut fields(&mut manifest, "ArticleSnapshot")[1];
    title["schema"] = json!({ "nullable": title["schema"].clone() });
    kind(&mut manifest, "ArticleFormat")["string_enum"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "value": "rst", "rust_name": "Rst", "description": "reStructuredText." }));
    let summary = fields(&mut manifest, "ArticleSummary");
    let mut comments = summary[0].clone();
    comments["name"] = json!("comments");
    comments["schema"] = json!({ "integer": { "format": "uint32", "bounds": {
        "minimum": null, "maximum": null, "exclusive_minimum": null,
        "exclusive_maximum": null, "multiple_of": null } } });
    summary.push(comments);
    fields(&mut manifest, "ArticleIndexRequest")[1]["schema"]["integer"]["bounds"]["maximum"] =
        json!(2000.0);
    let routes = manifest["routes"].as_array_mut().unwrap();
    routes.retain(|route| route["operation_id"] != "bbs.moderation.articles.erase");
    let at = routes
        .iter_mut()
        .find(|route| route["operation_id"] == "bbs.articles.at")
        .unwrap();
    at["summary"] = json!("An article with every version of it.");
    serde_json::to_string_pretty(&manifest).unwrap()
}

/// `sdk-gen diff` on the BBS and its version 2: the report matches
/// `tests/diff/bbs.txt` (`UPDATE_GOLDEN=1` rewrites it), `--deny
/// breaking` fails, and the changelog names the next version.
#[tokio::test]
async fn diff_reports_the_bbs_v2_changes() {
    let dir = tempfile::tempdir().unwrap();
    let old = manifest_file(dir.path());
    let new = dir.path().join("v2.json");
    std::fs::write(&new, bbs_v2(&std::fs::read_to_string(&old).unwrap())).unwrap();
    let changelog = dir.path().join("CHANGELOG.md");
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let output = sdk_gen(&["diff", old, new, "--changelog", changelog.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let report = String::from_utf8(output.stdout).unwrap();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff/bbs.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &report).unwrap();
    }
    assert_eq!(
        report,
        std::fs::read_to_string(&golden).unwrap(),
        "UPDATE_GOLDEN=1 cargo test -p sdk-gen --test check diff rewrites it"
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("next version 2.0.0 (major release from 1.0.0)"),
        "{stderr}"
    );
    let entry = std::fs::read_to_string(&changelog).unwrap();
    assert!(entry.starts_with("## 2.0.0\n"), "{entry}");
    assert!(entry.contains("### Breaking"), "{entry}");

    let denied = sdk_gen(&["diff", old, new, "--deny", "breaking", "--json"]);
    assert_eq!(denied.status.code(), Some(1), "{denied:?}");
    let json: serde_json::Value = serde_json::from_slice(&denied.stdout).unwrap();
    assert_eq!(json["bump"], "major");
    assert_eq!(
        sdk_gen(&["diff", old, old, "--deny", "care"]).status.code(),
        Some(0)
    );
    assert_eq!(
        sdk_gen(&["diff", old, "missing.json"]).status.code(),
        Some(2)
    );
}

/// A route of the BBS manifest's JSON, by operation id.
fn route<'m>(manifest: &'m mut serde_json::Value, operation_id: &str) -> &'m mut serde_json::Value {
    manifest["routes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|route| route["operation_id"] == operation_id)
        .unwrap()
}

/// A credential that was optional made required, and a header the SDKs
/// send on their own made required: each breaking change names the SDK
/// functions whose calls the server may now refuse.
#[tokio::test]
async fn diff_names_the_functions_a_credential_or_header_breaks() {
    use serde_json::json;
    let dir = tempfile::tempdir().unwrap();
    let bbs = manifest_file(dir.path());
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&bbs).unwrap()).unwrap();
    route(&mut manifest, "bbs.articles.erase")["optional_security"] = json!(["moderator"]);
    let old = dir.path().join("old.json");
    std::fs::write(&old, manifest.to_string()).unwrap();
    let erase = route(&mut manifest, "bbs.articles.erase");
    erase["optional_security"] = json!([]);
    erase["security"] = json!(["moderator"]);
    route(&mut manifest, "bbs.articles.events.follow")["header_params"][0]["required"] =
        json!(true);
    let new = dir.path().join("new.json");
    std::fs::write(&new, manifest.to_string()).unwrap();
    let output = sdk_gen(&["diff", old.to_str().unwrap(), new.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "2 breaking, 0 needs care, 0 compatible\n\
         \n\
         BREAKING:\n  \
           - [security-added] DELETE /bbs/articles/:section/:id: needs the `moderator` credential, which was optional: callers without it are refused\n      \
             TypeScript: api.functional.bbs.articles.erase()\n      \
             Rust: client.bbs().articles().erase()\n  \
           - [input-required] GET /bbs/articles/:section/events header last-event-id: the header is required now\n      \
             TypeScript: api.functional.bbs.articles.events.follow()\n      \
             Rust: client.bbs().articles().events().follow()\n"
    );
}
