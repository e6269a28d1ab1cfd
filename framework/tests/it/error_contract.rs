//! An app's own error contract: every error, the framework's refusals and
//! the handlers' own, answered with the app's status and body, through the
//! in-process client and real sockets, and documented as answered.

use std::collections::BTreeMap;

use framework::{
    ErrorContract,
    prelude::*,
    refusal::{Refusal, RefusalKind},
};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};

/// `{"errors": {"<field>": ["<message>", ...]}}`, as a public blogging
/// API's contract answers refused input.
#[dto]
struct FieldErrors {
    errors: BTreeMap<String, Vec<String>>,
}

struct Contract;

impl ErrorContract for Contract {
    type Body = FieldErrors;

    fn status(&self, status: http::StatusCode, refusal: Option<&Refusal>) -> http::StatusCode {
        match refusal {
            Some(refusal)
                if refusal.kind == RefusalKind::Validation || refusal.code == "invalid_request" =>
            {
                http::StatusCode::UNPROCESSABLE_ENTITY
            }
            _ => status,
        }
    }

    fn body(&self, err: &ApiError) -> FieldErrors {
        let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for issue in err.issues() {
            let field = issue
                .path
                .split_once('.')
                .map_or("body", |(_, field)| field)
                .to_owned();
            errors
                .entry(field)
                .or_default()
                .push(format!("must be {}", issue.expected));
        }
        if errors.is_empty() {
            errors.insert(err.code().to_owned(), vec![err.message().to_owned()]);
        }
        FieldErrors { errors }
    }
}

#[dto]
struct NewArticle {
    #[tags(min_length = 3)]
    title: String,
    #[tags(max_length = 10)]
    body: String,
}

#[dto]
struct Article {
    id: u32,
    title: String,
}

struct Articles;

#[controller("articles")]
impl Articles {
    #[typed_route::post("")]
    async fn create(&self, body: TypedBody<NewArticle>) -> Article {
        Article {
            id: 1,
            title: body.into_inner().title,
        }
    }

    #[typed_route::get(":id", errors(404 = "No such article."))]
    async fn at(&self, #[param] id: u32) -> Result<Article, ApiError> {
        if id == 1 {
            Ok(Article {
                id,
                title: "one".to_owned(),
            })
        } else {
            Err(ApiError::not_found(format!("no article {id}")))
        }
    }

    #[typed_route::get("boom/now")]
    async fn boom(&self) -> u32 {
        panic!("boom")
    }
}

fn app() -> App {
    App::builder()
        .controller(Articles)
        .errors(Contract)
        .body_limit(256)
        .build()
        .expect("routes")
}

#[tokio::test]
async fn refused_input_is_answered_with_the_apps_status_and_body() {
    let refused = app()
        .test_client()
        .post("/articles")
        .json(&json!({ "title": "x", "body": "far too long a body" }))
        .send()
        .await;
    assert_eq!(refused.status(), 422);
    assert_eq!(refused.headers()["content-type"], "application/json");
    let body: Value = refused.json();
    assert_eq!(
        body,
        json!({ "errors": {
            "title": ["must be string & MinLength<3>"],
            "body": ["must be string & MaxLength<10>"],
        }})
    );
}

#[tokio::test]
async fn every_error_goes_through_the_contract() {
    let app = app();
    let client = app.test_client();
    let cases = [
        // The handler's own error.
        (client.get("/articles/2").send().await, 404, "not_found"),
        // No route, a method the path does not take.
        (client.get("/nothing").send().await, 404, "not_found"),
        (
            client.delete("/articles/1").send().await,
            405,
            "method_not_allowed",
        ),
        // A path parameter: validation, so 422.
        (client.get("/articles/x").send().await, 422, "id"),
        // Not the media type, too large: their own statuses.
        (
            client.post("/articles").text("hi").send().await,
            415,
            "unsupported_media_type",
        ),
        (
            client
                .post("/articles")
                .body("application/json", vec![b' '; 1000])
                .send()
                .await,
            413,
            "payload_too_large",
        ),
        // A handler's panic.
        (
            client.get("/articles/boom/now").send().await,
            500,
            "internal_error",
        ),
    ];
    for (response, status, key) in cases {
        assert_eq!(response.status(), status, "{key}");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{key}"
        );
        let body: Value = response.json();
        assert!(body["errors"][key].is_array(), "{key}: {body}");
    }
    // `Allow` is kept on the 405.
    let not_allowed = client.delete("/articles/1").send().await;
    assert_eq!(not_allowed.headers()["allow"], "GET, HEAD, OPTIONS");
}

#[tokio::test]
async fn a_real_socket_sees_the_contract_with_its_length() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener);
    let addr = server.local_addr().unwrap();
    let served = tokio::spawn(server.serve_with_shutdown(app(), std::future::pending()));
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = r#"{"title":"x","body":""}"#;
    let request = format!(
        "POST /articles HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    served.abort();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 422"), "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert!(
        head.contains(&format!("content-length: {}", body.len())),
        "{head}"
    );
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["errors"]["title"][0], "must be string & MinLength<3>");
}

#[tokio::test]
async fn head_keeps_the_length_of_the_contracts_body() {
    let app = app();
    let got = app.test_client().get("/articles/2").send().await;
    let head = app
        .test_client()
        .request(http::Method::HEAD, "/articles/2")
        .send()
        .await;
    assert_eq!(head.status(), 404);
    assert!(head.bytes().is_empty());
    assert_eq!(
        head.headers()["content-length"],
        got.bytes().len().to_string().as_str()
    );
}

#[test]
fn the_documents_state_the_apps_statuses_and_body() {
    let app = app();
    let manifest = app.manifest();
    let create = manifest
        .routes
        .iter()
        .find(|route| route.handler == "create")
        .unwrap();
    let statuses: Vec<u16> = create.errors.iter().map(|error| error.status).collect();
    assert_eq!(
        statuses,
        [403, 408, 413, 415, 422],
        "no 400 the app never sends"
    );
    let body = manifest.error_body.as_ref().expect("the app's error body");
    assert_eq!(body.media_type, "application/json");

    let document: Value = serde_json::from_str(&app.openapi_json()).unwrap();
    let responses = &document["paths"]["/articles"]["post"]["responses"];
    assert!(responses.get("400").is_none());
    let refused = &responses["422"]["content"];
    assert_eq!(
        refused["application/json"]["schema"]["$ref"],
        "#/components/schemas/FieldErrors"
    );
    assert!(refused.get("application/problem+json").is_none());
    // Nothing said of the problem document's `errors`, which is not sent.
    assert_eq!(responses["422"]["description"], "An input is invalid.");
    assert!(
        document["components"]["schemas"].get("Problem").is_none(),
        "the problem document is not answered, so not described"
    );
    let found = &document["paths"]["/articles/{id}"]["get"]["responses"];
    assert_eq!(
        found["404"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/FieldErrors"
    );
    assert_eq!(found["404"]["description"], "No such article.");
    // The path parameter's refusal is answered 422 too.
    assert!(found["422"].is_object());
}

#[tokio::test]
async fn without_a_contract_errors_are_problem_documents() {
    let app = App::builder().controller(Articles).build().unwrap();
    let refused = app
        .test_client()
        .post("/articles")
        .json(&json!({ "title": "x", "body": "" }))
        .send()
        .await;
    assert_eq!(refused.status(), 400);
    assert_eq!(
        refused.headers()["content-type"],
        "application/problem+json"
    );
    assert_eq!(refused.problem().code, "invalid_body");
    assert!(app.manifest().error_body.is_none());
}
