//! The MCP endpoint (`BBS_MCP=1`, `bbs::app_with_mcp`): driven by the
//! official MCP TypeScript SDK client over a socket
//! (`mcp-client/mcp.test.mjs`), and what the endpoint offers, in process.

use std::{path::Path, process::Command};

use serde_json::{Value, json};

use crate::support::{MODERATOR_TOKEN, Served, database_url};

/// The app with its MCP endpoint on, on a fresh database.
async fn app() -> (framework::App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = bbs::ArticleStore::open(&database_url(&dir)).await.unwrap();
    let token = bbs::ModeratorToken::new(MODERATOR_TOKEN).unwrap();
    let attachments = bbs::Attachments::new(dir.path().join("attachments"), Default::default());
    (bbs::app_with_mcp(store, token, attachments).unwrap(), dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_mcp_client_lists_calls_and_is_refused_as_http_is() {
    let client_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp-client");
    assert!(
        client_dir
            .join("node_modules/@modelcontextprotocol/sdk")
            .exists(),
        "the MCP TypeScript SDK is not installed: run `npm ci` in {} (scripts/test does)",
        client_dir.display()
    );
    let (app, _dir) = app().await;
    let served = Served::serving(app).await;
    let mut node = Command::new("node");
    node.args(["--test", "mcp.test.mjs"])
        .env("BBS_MCP_URL", format!("{}/mcp", served.url()))
        .env("BBS_MODERATOR_TOKEN", MODERATOR_TOKEN)
        .current_dir(&client_dir);
    let output = tokio::task::spawn_blocking(move || node.output())
        .await
        .unwrap()
        .expect("cannot run node: install Node.js 18+ (scripts/test does)");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(report.contains("# pass 4"), "{report}");
    assert!(report.contains("# fail 0"), "{report}");
}

#[tokio::test]
async fn streams_uploads_and_downloads_are_left_out_and_said_why() {
    let (app, _dir) = app().await;
    let tools: Vec<&str> = app.mcp_tools().collect();
    assert!(tools.contains(&"bbs.articles.create"), "{tools:?}");
    let left: Vec<(&str, &str)> = app
        .mcp_left_out()
        .iter()
        .map(|left| (left.operation_id.as_str(), left.reason.as_str()))
        .collect();
    let reason = |name: &str| {
        left.iter()
            .find(|(id, _)| id.ends_with(name))
            .map(|(_, reason)| *reason)
            .unwrap_or_else(|| panic!("{name} not left out: {left:?}"))
    };
    assert_eq!(
        reason("follow"),
        "it answers a stream of server-sent events"
    );
    assert_eq!(
        reason("files.upload"),
        "it takes uploads (multipart/form-data)"
    );
    assert_eq!(reason("files.download"), "it answers bytes (a download)");
    assert_eq!(
        reason("sections_page"),
        "it is not in the app's SDKs (`sdk = false`)"
    );
    // Every route is a tool or left out with its reason.
    let routes = app.manifest().routes.len();
    assert_eq!(tools.len() + left.len(), routes, "{tools:?} {left:?}");

    // Calling one is an error that says why.
    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": left[0].0, "arguments": {}},
    });
    let response = app.test_client().post("/mcp").json(&call).send().await;
    let answer: Value = response.json();
    assert_eq!(answer["error"]["code"], -32602);
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains(left[0].1),
        "{answer}"
    );
}

#[tokio::test]
async fn without_the_setting_there_is_no_endpoint() {
    let dir = tempfile::tempdir().unwrap();
    let store = bbs::ArticleStore::open(&database_url(&dir)).await.unwrap();
    let app = bbs::app(store).unwrap();
    assert_eq!(app.mcp_tools().count(), 0);
    let response = app
        .test_client()
        .post("/mcp")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .send()
        .await;
    assert_eq!(response.status(), 404);
}
