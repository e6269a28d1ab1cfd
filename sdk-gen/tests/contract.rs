//! An app that states its own contract (`App::builder().errors(..)`, a
//! `Token` authorization scheme, an optional guard): golden SDKs whose
//! errors carry the app's body, `FieldErrors`, instead of the problem
//! document, and which send the token to the routes that need or take it.

#[path = "contract/app.rs"]
mod app;
mod fixture;

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
            chrono: false,
        }),
    }
}

/// The generated SDKs are committed under `tests/contract/`;
/// `UPDATE_GOLDEN=1` rewrites them.
#[test]
fn golden_sdks() {
    let app = app::app();
    assert!(app.manifest().error_body.is_some());
    fixture::check_golden_sdks(&app, &targets(), &fixture_dir(), "contract");
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

/// The OpenAPI document states the contract the server answers: refused
/// input is `422` with `FieldErrors` (no `400`, which the app never
/// sends), the token is an `Authorization` key with its `Token ` prefix
/// described, needed on one route and optional on the feed.
#[test]
fn the_openapi_document_states_the_contract() {
    let document: serde_json::Value = serde_json::from_str(&app::app().openapi_json()).unwrap();
    let create = &document["paths"]["/articles"]["post"];
    let responses = create["responses"].as_object().unwrap();
    assert!(!responses.contains_key("400"), "{responses:?}");
    assert_eq!(
        responses["422"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/FieldErrors"
    );
    // Described by the contract, not as a problem document.
    assert_eq!(
        responses["422"]["description"],
        "An input is invalid; `errors` lists each field's problems."
    );
    let scheme = &document["components"]["securitySchemes"]["api_token"];
    assert_eq!(
        (&scheme["type"], &scheme["in"], &scheme["name"]),
        (&"apiKey".into(), &"header".into(), &"Authorization".into())
    );
    let security = |path: &str, method: &str| document["paths"][path][method]["security"].clone();
    assert_eq!(
        security("/articles/feed", "get"),
        serde_json::json!([{ "api_token": [] }, {}])
    );
    assert_eq!(
        security("/articles/{id}/favorite", "post"),
        serde_json::json!([{ "api_token": [] }])
    );
    assert_eq!(security("/articles", "post"), serde_json::json!([]));
    // The id the route declares, and ids without stutter.
    assert_eq!(
        document["paths"]["/articles/feed"]["get"]["operationId"],
        "readFeed"
    );
    assert_eq!(
        document["paths"]["/articles/{id}/favorite"]["post"]["operationId"],
        "articles.favorite"
    );
    let unauthorized = &document["paths"]["/articles/feed"]["get"]["responses"]["401"];
    assert_eq!(
        unauthorized["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/FieldErrors"
    );
}

fn served() -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    fixture::serve(app::app())
}

/// The TypeScript SDK, compiled with `tsc --strict`, against the app in
/// node: `propagate` answers `{ success: false, status: 422, data }` with
/// the app's body, `HttpError` carries it as `data`, a documented status
/// with another body throws (`test/e2e.test.ts`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_reads_the_apps_error_body() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    fixture::compile_typescript("tests/contract/test/tsconfig.json");
    let (addr, task) = served();
    let script = workspace.join("target/contract-typescript/test/e2e.test.js");
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new("node")
            .arg("--test-force-exit")
            .arg("--test")
            .arg(script)
            .env("CONTRACT_URL", format!("http://{addr}"))
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    task.abort();
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.contains("# pass 8") && report.contains("# fail 0"),
        "{report}"
    );
}

/// The Rust SDK against the app: refused input is `Error::Api { status:
/// 422, body }` with the app's `FieldErrors`, a handler's 404 too, and
/// successes of both statuses read as before.
#[tokio::test]
async fn the_rust_sdk_reads_the_apps_error_body() {
    use contract_sdk::{
        Article, Client, Error, ErrorBody, FieldErrors, Moved, NewArticle, answers::ArticlesAt,
    };

    let (addr, task) = served();
    let client = Client::new(format!("http://{addr}"));
    let articles = client.articles();
    let refused = articles
        .create(&NewArticle {
            title: "x".to_owned(),
            body: "far too long a body".to_owned(),
        })
        .await
        .unwrap_err();
    let expected: ErrorBody = FieldErrors {
        errors: [
            (
                "body".to_owned(),
                vec!["must be string & MaxLength<10>".to_owned()],
            ),
            (
                "title".to_owned(),
                vec!["must be string & MinLength<3>".to_owned()],
            ),
        ]
        .into(),
    };
    match &refused {
        Error::Api {
            status: 422, body, ..
        } => assert_eq!(**body, expected),
        other => panic!("expected the app's 422, got {other:?}"),
    }
    assert_eq!(refused.body(), Some(&expected));
    assert_eq!(
        refused.to_string(),
        r#"HTTP 422: {"errors":{"body":["must be string & MaxLength<10>"],"title":["must be string & MinLength<3>"]}}"#
    );

    let missing = articles.at(3).await.unwrap_err();
    assert_eq!(missing.status(), Some(404));
    assert_eq!(
        missing.body().unwrap().errors["not_found"],
        ["no article 3"]
    );
    assert_eq!(
        articles.at(1).await.unwrap(),
        ArticlesAt::Here(Article {
            id: 1,
            title: "one".to_owned()
        })
    );
    assert_eq!(
        articles.at(2).await.unwrap(),
        ArticlesAt::Moved(Moved { id: 1 })
    );
    task.abort();
}

/// The Rust SDK with and without the reader's token: the optional guard's
/// route answers both (personalized with it), a wrong token is the app's
/// 401 body, and the route that needs the token is not sent without it.
#[tokio::test]
async fn the_rust_sdk_sends_the_token_when_it_has_one() {
    use contract_sdk::{Article, Client, Error};

    let (addr, task) = served();
    let base = format!("http://{addr}");
    let anonymous = Client::new(&base);
    let kim = Client::builder(&base).api_token("jwt-kim").build();
    let wrong = Client::builder(&base).api_token("guess").build();

    assert_eq!(anonymous.articles().read_feed().await.unwrap().reader, None);
    assert_eq!(
        kim.articles().read_feed().await.unwrap().reader.as_deref(),
        Some("kim")
    );
    let refused = wrong.articles().read_feed().await.unwrap_err();
    assert_eq!(refused.status(), Some(401));
    assert_eq!(
        refused.body().unwrap().errors["unauthorized"],
        ["the token is not known"]
    );

    assert!(matches!(
        anonymous.articles().favorite(7).await,
        Err(Error::MissingCredential {
            scheme: "api_token"
        })
    ));
    assert_eq!(
        kim.articles().favorite(7).await.unwrap(),
        Article {
            id: 7,
            title: "favorited by kim".to_owned()
        }
    );
    let refused = wrong.articles().favorite(7).await.unwrap_err();
    assert_eq!(refused.status(), Some(401));
    task.abort();
}
