//! The OpenAPI document: committed as a golden file, served at
//! `/openapi.json`, printed by `bbs openapi`, valid OpenAPI 3.1, and the
//! docs page is served from embedded assets.

use std::process::Command;

use crate::support::app;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");
const GOLDEN_V2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi-2.0.0.json");

/// Compares with the golden file; `UPDATE_GOLDEN=1` rewrites it.
fn assert_golden(actual: &str) {
    assert_golden_at(GOLDEN, actual);
}

/// `actual` is what the committed `golden` file holds (written instead
/// with `UPDATE_GOLDEN=1`).
fn assert_golden_at(golden: &str, actual: &str) {
    let actual = format!("{}\n", actual.trim_end());
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(golden, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(golden).unwrap_or_default();
    assert!(
        expected == actual,
        "{golden} is out of date with the routes and DTOs; regenerate it with \
         `cargo run -p bbs -- openapi [--version V] > {golden}` (or UPDATE_GOLDEN=1 cargo test -p bbs) \
         and commit it"
    );
}

/// Version 2.0.0's document, served at `/openapi/2.0.0.json`: committed
/// beside the default version's (`openapi.json`, version 1.0.0).
#[tokio::test]
async fn each_version_serves_its_golden_document() {
    let (app, _dir) = app().await;
    let response = app.test_client().get("/openapi/2.0.0.json").send().await;
    assert_eq!(response.status(), 200);
    let served = response.text();
    assert_eq!(
        Some(served.as_str()),
        app.openapi_json_for(bbs::V2).as_deref()
    );
    assert_golden_at(GOLDEN_V2, &served);
    assert_eq!(app.openapi_json_for(bbs::V1), Some(app.openapi_json()));
}

#[tokio::test]
async fn the_served_document_matches_the_golden_file() {
    let (app, _dir) = app().await;
    let response = app.test_client().get("/openapi.json").send().await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.header("content-type"), Some("application/json"));
    assert_eq!(response.text(), app.openapi_json());
    assert_golden(&app.openapi_json());
}

#[test]
fn bbs_openapi_prints_the_golden_file_without_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("never-created.db");
    let output = Command::new(env!("CARGO_BIN_EXE_bbs"))
        .arg("openapi")
        .env("DATABASE_URL", format!("sqlite://{}", database.display()))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_golden(&String::from_utf8(output.stdout).unwrap());
    assert!(
        !database.exists(),
        "printing the document touches no database"
    );
}

/// `bbs openapi | head`: a reader that stops early is no failure, and no
/// panic.
#[test]
fn bbs_openapi_into_a_closed_pipe_exits_quietly() {
    use std::io::Read;

    for command in ["openapi", "manifest"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bbs"))
            .arg(command)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 1];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // The pipe's reading end is closed here, with most still unwritten.
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{command}: {stderr}");
        assert!(!stderr.contains("panicked"), "{command}: {stderr}");
    }
}

#[test]
fn the_document_is_valid_openapi_3_1() {
    let output = Command::new("python3")
        .args(["-m", "openapi_spec_validator", GOLDEN])
        .output()
        .unwrap_or_else(|err| panic!("python3 is needed to validate the document: {err}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("No module named"),
        "openapi-spec-validator is not installed: run `pip install openapi-spec-validator` (scripts/test does)"
    );
    assert!(
        output.status.success(),
        "the document is not valid OpenAPI: {}{stderr}",
        String::from_utf8_lossy(&output.stdout)
    );
    let document: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(GOLDEN).unwrap()).unwrap();
    assert_eq!(document["openapi"], "3.1.0");
}

#[tokio::test]
async fn the_document_describes_every_route_with_its_schemas() {
    let (app, _dir) = app().await;
    let document: serde_json::Value = serde_json::from_str(&app.openapi_json()).unwrap();
    let operations: Vec<(String, String, String)> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(path, _)| path.starts_with("/bbs/"))
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .iter()
                .map(move |(method, operation)| {
                    (
                        path.clone(),
                        method.clone(),
                        operation["operationId"].as_str().unwrap().to_owned(),
                    )
                })
        })
        .collect();
    assert_eq!(
        operations,
        [
            (
                "/bbs/articles/{section}".into(),
                "patch".into(),
                "bbs.articles.index".into()
            ),
            (
                "/bbs/articles/{section}".into(),
                "post".into(),
                "bbs.articles.create".into()
            ),
            (
                "/bbs/articles/{section}/events".into(),
                "get".into(),
                "bbs.articles.events.follow".into()
            ),
            (
                "/bbs/articles/{section}/{id}".into(),
                "delete".into(),
                "bbs.articles.erase".into()
            ),
            (
                "/bbs/articles/{section}/{id}".into(),
                "get".into(),
                "bbs.articles.at".into()
            ),
            (
                "/bbs/articles/{section}/{id}".into(),
                "put".into(),
                "bbs.articles.update".into()
            ),
            (
                "/bbs/articles/{section}/{id}/files".into(),
                "post".into(),
                "bbs.articles.files.upload".into()
            ),
            (
                "/bbs/articles/{section}/{id}/files/{file}".into(),
                "get".into(),
                "bbs.articles.files.download".into()
            ),
            (
                "/bbs/moderation/articles/{section}/{id}".into(),
                "delete".into(),
                "bbs.moderation.articles.erase".into()
            ),
        ]
    );
    let upload = &document["paths"]["/bbs/articles/{section}/{id}/files"]["post"]["requestBody"]["content"]
        ["multipart/form-data"];
    assert_eq!(
        upload["schema"]["$ref"],
        "#/components/schemas/ArticleFilesUpload"
    );
    assert_eq!(
        document["components"]["schemas"]["ArticleFilesUpload"]["properties"]["files"]["items"],
        serde_json::json!({ "type": "string", "format": "binary", "x-max-size": 104857600 })
    );
    let pages: Vec<&str> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(path, _)| !path.starts_with("/bbs/"))
        .flat_map(|(_, item)| item.as_object().unwrap().values())
        .map(|operation| operation["operationId"].as_str().unwrap())
        .collect();
    assert_eq!(pages.len(), 10, "the pages are documented too: {pages:?}");
    let schemas = &document["components"]["schemas"];
    let create = &schemas["ArticleCreate"];
    assert_eq!(create["properties"]["title"]["minLength"], 3);
    assert_eq!(create["properties"]["title"]["maxLength"], 50);
    let file = &schemas["AttachmentFile"];
    assert_eq!(file["properties"]["url"]["format"], "uri-reference");
    assert_eq!(
        file["properties"]["name"]["type"],
        serde_json::json!(["string", "null"])
    );
    assert!(
        file["required"]
            .as_array()
            .unwrap()
            .contains(&"name".into()),
        "nullable, yet required"
    );
    let request = &schemas["ArticleIndexRequest"];
    assert!(
        request.get("required").is_none(),
        "optional properties are not required"
    );
    // The default document is version 1.0.0's; AsciiDoc is version 2's.
    assert_eq!(
        schemas["ArticleFormat"]["enum"],
        serde_json::json!(["md", "html", "txt"])
    );
    let v2: serde_json::Value =
        serde_json::from_str(&app.openapi_json_for(bbs::V2).unwrap()).unwrap();
    assert_eq!(
        v2["components"]["schemas"]["ArticleFormat"]["enum"],
        serde_json::json!(["md", "html", "txt", "adoc"])
    );
    let follow = &document["paths"]["/bbs/articles/{section}/events"]["get"];
    let event = &follow["responses"]["200"]["content"]["text/event-stream"]["schema"];
    assert_eq!(
        event["properties"]["data"]["contentSchema"]["$ref"],
        "#/components/schemas/ArticleEvent"
    );
    assert_eq!(
        schemas["ArticleEvent"]["discriminator"]["propertyName"],
        "type"
    );
    // A tagged union as generators resolve one: named members, a mapping.
    assert_eq!(
        schemas["ArticleEvent"]["discriminator"]["mapping"]["created"],
        "#/components/schemas/ArticleEventCreated"
    );
    assert_eq!(
        schemas["ArticleEvent"]["oneOf"][0]["$ref"],
        "#/components/schemas/ArticleEventCreated"
    );
    assert_eq!(schemas["ArticleSort"]["x-enum-varnames"][0], "PlusWriter");
    // An array in the query is `form` (`sort=-title&sort=%2Bwriter`),
    // an object `deepObject`.
    let listing = &document["paths"]["/sections/{section}"]["get"]["parameters"];
    let style = |name: &str| {
        listing
            .as_array()
            .unwrap()
            .iter()
            .find(|param| param["name"] == name)
            .unwrap()["style"]
            .clone()
    };
    assert_eq!(style("sort"), "form");
    assert_eq!(style("search"), "deepObject");
    assert_eq!(document["servers"][0]["url"], "/");
    assert_eq!(
        document["paths"]["/bbs/articles/{section}"]["post"]["security"],
        serde_json::json!([]),
        "no guard, said so"
    );
    let erase = &document["paths"]["/bbs/articles/{section}/{id}"]["delete"];
    assert!(erase["responses"]["204"].is_object());
    assert_eq!(
        erase["responses"]["403"]["content"]["application/problem+json"]["schema"]["$ref"],
        "#/components/schemas/Problem"
    );
}

#[tokio::test]
async fn the_docs_page_is_served_from_embedded_assets() {
    let (app, _dir) = app().await;
    let client = app.test_client();
    let response = client.get("/docs").send().await;
    assert_eq!(response.status(), 301);
    assert_eq!(response.header("location"), Some("/docs/index.html"));
    let page = client.get("/docs/index.html").send().await;
    assert_eq!(page.status(), 200);
    assert!(page.text().contains("swagger"), "{}", page.text());
    let script = client.get("/docs/swagger-ui-bundle.js").send().await;
    assert_eq!(script.status(), 200);
    assert!(script.bytes().len() > 100_000, "the bundle is embedded");
    let config = client.get("/docs/swagger-initializer.js").send().await;
    // A choice of the versions' documents, the default's (1.0.0) first.
    let config = config.text();
    let v1 = config.find("/openapi/1.0.0.json").expect(&config);
    let v2 = config.find("/openapi/2.0.0.json").expect(&config);
    assert!(v1 < v2, "{config}");
    assert_eq!(client.get("/docs/missing.js").send().await.status(), 404);
    assert!(
        !app.routes()
            .iter()
            .any(|meta| meta.path.starts_with("/docs")),
        "the docs routes are the framework's, not the app's"
    );
}

/// The API keeps every released version's clients working: each manifest
/// in `api/` (one per release still supported, as `sdk-gen diff` reads
/// them) is blessed, and a change that breaks one fails here, naming the
/// SDK functions and types it breaks. Retiring a version is deleting its
/// file; releasing one is adding `cargo run -p bbs -- manifest > api/<version>.json`.
#[tokio::test]
async fn the_released_api_versions_are_not_broken() {
    let (app, _dir) = crate::support::app().await;
    framework::testing::assert_compatible(
        app.manifests(),
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("api"),
    );
}
