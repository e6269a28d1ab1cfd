//! Extractors, answers and errors, through the in-process client.

use framework::{BuildError, prelude::*};
use serde_json::{Value, json};
use uuid::Uuid;

#[dto]
#[derive(Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Section {
    Free,
    Notice,
}

#[dto]
#[derive(Debug, PartialEq)]
struct Search {
    #[optional]
    writer: Option<String>,
    #[optional]
    #[tags(items(min_length = 1))]
    tags: Option<Vec<String>>,
}

#[dto]
#[derive(Debug, PartialEq)]
struct Listing {
    #[optional]
    #[tags(minimum = 1)]
    page: Option<u32>,
    #[optional]
    search: Option<Search>,
    #[optional]
    sort: Option<Vec<String>>,
}

#[dto]
#[derive(Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
struct Tenant {
    x_tenant_id: u64,
    #[optional]
    x_trace: Option<String>,
    accept_language: Vec<String>,
}

#[dto]
#[derive(Debug, PartialEq)]
struct Echo {
    #[tags(max_length = 10)]
    text: String,
    count: u8,
}

type ApiResult<T> = Result<T, ApiError>;

struct Probe {
    greeting: &'static str,
}

#[controller("probe/:section")]
impl Probe {
    #[typed_route::get("items/:id/:n")]
    async fn params(&self, #[param] section: Section, #[param] id: Uuid, #[param] n: i16) -> Value {
        json!({ "section": section, "id": id, "n": n })
    }

    #[typed_route::get("tagged/:code")]
    async fn tagged(
        &self,
        #[param] section: String,
        #[param]
        #[tags(pattern = "^[A-Z]{3}$")]
        code: String,
    ) -> String {
        format!("{section}/{code}")
    }

    #[typed_route::get("query")]
    async fn query(&self, #[param] section: String, query: TypedQuery<Listing>) -> Listing {
        let _ = section;
        query.into_inner()
    }

    #[typed_route::get("headers")]
    async fn headers(
        &self,
        #[param("section")] _s: String,
        headers: TypedHeaders<Tenant>,
    ) -> Tenant {
        headers.into_inner()
    }

    #[typed_route::post("echo")]
    async fn echo(&self, #[param] section: String, body: TypedBody<Echo>) -> ApiResult<Echo> {
        let _ = section;
        Ok(body.into_inner())
    }

    #[typed_route::post("accept", status = 202)]
    async fn accept(&self, #[param] section: String) {
        let _ = section;
    }

    #[typed_route::delete("gone")]
    async fn gone(&self, #[param] section: String) -> Result<(), ApiError> {
        if section == "notice" {
            Err(ApiError::forbidden("notices stay"))
        } else {
            Ok(())
        }
    }

    #[typed_route::get("greeting")]
    fn greeting(&self, #[param] section: String, raw: http::HeaderMap) -> String {
        format!("{} {section} {}", self.greeting, raw.len())
    }

    #[typed_route::get("static")]
    async fn no_receiver(#[param] section: String) -> String {
        section
    }

    #[typed_route::get("panic")]
    async fn panics(&self, #[param] section: String) -> String {
        panic!("handler bug in {section}")
    }
}

fn app() -> App {
    App::builder()
        .controller(Probe { greeting: "hi" })
        .body_limit(1024)
        .build()
        .unwrap()
}

#[tokio::test]
async fn path_params_parse_enums_uuids_and_integers() {
    let client = app().test_client();
    let id = Uuid::new_v4();
    let response = client
        .get(&format!("/probe/notice/items/{id}/-7"))
        .send()
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>(),
        json!({ "section": "notice", "id": id, "n": -7 })
    );

    let response = client
        .get(&format!("/probe/other/items/{id}/1"))
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    assert_eq!(problem.errors[0].path, "$path.section");
    assert_eq!(problem.errors[0].expected, r#""free" | "notice""#);
    assert_eq!(
        problem.detail,
        r#"path parameter `section`: "other" is not "free" | "notice""#
    );

    let response = client
        .get(&format!("/probe/free/items/{id}/40000"))
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    assert_eq!(problem.code, "invalid_path_parameter");
    assert_eq!(problem.errors[0].expected, r#"number & Type<"int16">"#);
    assert_eq!(problem.errors[0].value, Some(json!("40000")));

    let response = client.get("/probe/free/items/1234/1").send().await;
    assert_eq!(
        response.problem().errors[0].expected,
        r#"string & Format<"uuid">"#
    );

    let response = client
        .get(&format!("/probe/free/items/{id}/%FF"))
        .send()
        .await;
    assert_eq!(response.status(), 400);
    assert!(response.problem().detail.contains("not UTF-8"));
}

#[tokio::test]
async fn path_params_are_checked_against_their_tags() {
    let client = app().test_client();
    let response = client.get("/probe/free/tagged/ABC").send().await;
    assert_eq!(response.text(), "free/ABC");
    let response = client.get("/probe/free/tagged/abcd").send().await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    assert_eq!(problem.code, "invalid_path_parameter");
    assert_eq!(problem.errors[0].path, "$path.code");
    assert_eq!(
        problem.errors[0].expected,
        r#"string & Pattern<"^[A-Z]{3}$">"#
    );
    let meta = app()
        .routes()
        .into_iter()
        .find(|meta| meta.handler == "tagged")
        .unwrap();
    assert_eq!(
        meta.path_params[1].tags,
        [framework::schema::Tag::Pattern("^[A-Z]{3}$")]
    );
}

#[tokio::test]
async fn queries_take_nested_objects_and_arrays() {
    let client = app().test_client();
    let response = client
        .get("/probe/free/query?page=3&search[writer]=kim&search%5Btags%5D%5B0%5D=a&search[tags][1]=b+c&sort[0]=-created_at")
        .send()
        .await;
    assert_eq!(response.status(), 200, "{}", response.text());
    assert_eq!(
        response.json::<Listing>(),
        Listing {
            page: Some(3),
            search: Some(Search {
                writer: Some("kim".into()),
                tags: Some(vec!["a".into(), "b c".into()]),
            }),
            sort: Some(vec!["-created_at".into()]),
        }
    );
    let response = client.get("/probe/free/query").send().await;
    assert_eq!(
        response.json::<Listing>(),
        Listing {
            page: None,
            search: None,
            sort: None
        }
    );

    let response = client.get("/probe/free/query?page=-1").send().await;
    assert_eq!(response.status(), 400);
    assert_eq!(response.problem().code, "invalid_query");

    // Every problem is listed, constraint and type errors alike.
    let response = client
        .get("/probe/free/query?page=0&search[tags][0]=&search[tags][1]=ok")
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    let issues: Vec<_> = problem
        .errors
        .iter()
        .map(|issue| (issue.path.as_str(), issue.expected.as_str()))
        .collect();
    assert_eq!(
        issues,
        [
            ("$query.page", r#"number & Type<"uint32"> & Minimum<1>"#),
            ("$query.search.tags[0]", "string & MinLength<1>"),
        ]
    );
}

#[tokio::test]
async fn headers_are_read_by_name() {
    let client = app().test_client();
    let response = client
        .get("/probe/free/headers")
        .header("X-Tenant-Id", "42")
        .header("accept-language", "ko")
        .header("accept-language", "en")
        .send()
        .await;
    assert_eq!(response.status(), 200, "{}", response.text());
    assert_eq!(
        response.json::<Tenant>(),
        Tenant {
            x_tenant_id: 42,
            x_trace: None,
            accept_language: vec!["ko".into(), "en".into()]
        }
    );
    let response = client
        .get("/probe/free/headers")
        .header("accept-language", "ko")
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    assert_eq!(problem.code, "invalid_header");
    assert_eq!(problem.errors[0].path, r#"$headers["x-tenant-id"]"#);
    assert_eq!(problem.errors[0].value, None, "missing, not null");
    let response = client
        .get("/probe/free/headers")
        .header("x-tenant-id", "many")
        .header("accept-language", "ko")
        .send()
        .await;
    assert_eq!(response.status(), 400);
}

#[tokio::test]
async fn bodies_are_json_within_the_limit() {
    let client = app().test_client();
    let response = client
        .post("/probe/free/echo")
        .json(&Echo {
            text: "héllo".into(),
            count: 3,
        })
        .send()
        .await;
    assert_eq!(response.status(), 201);
    assert_eq!(
        response.json::<Echo>(),
        Echo {
            text: "héllo".into(),
            count: 3
        }
    );

    let response = client
        .post("/probe/free/echo")
        .body(
            "application/json; charset=utf-8",
            r#"{"text":"a","count":300}"#,
        )
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    assert_eq!(problem.code, "invalid_body");
    assert_eq!(problem.errors.len(), 1);
    assert_eq!(problem.errors[0].path, "$input.count");
    assert_eq!(problem.errors[0].expected, r#"number & Type<"uint8">"#);

    let response = client
        .post("/probe/free/echo")
        .body(
            "application/json",
            r#"{"text":"much too long","count":-1,"extra":true}"#,
        )
        .send()
        .await;
    let problem = response.problem();
    let paths: Vec<_> = problem
        .errors
        .iter()
        .map(|issue| issue.path.as_str())
        .collect();
    assert_eq!(
        paths,
        ["$input.text", "$input.count"],
        "lenient: extra properties are ignored"
    );

    let response = client
        .post("/probe/free/echo")
        .body("application/json", "{\"text\": ")
        .send()
        .await;
    assert_eq!(response.status(), 400);
    assert!(
        response.problem().detail.contains("not valid JSON"),
        "{}",
        response.text()
    );

    let big = json!({ "text": "x".repeat(2000), "count": 1 });
    let response = client.post("/probe/free/echo").json(&big).send().await;
    assert_eq!(response.status(), 413);
    assert_eq!(response.problem().code, "payload_too_large");

    let response = client.post("/probe/free/echo").send().await;
    assert_eq!(response.status(), 415);
}

#[tokio::test]
async fn answers_follow_the_return_type() {
    let client = app().test_client();
    let response = client.post("/probe/free/accept").send().await;
    assert_eq!(response.status(), 202);
    assert!(response.bytes().is_empty());

    let response = client.delete("/probe/free/gone").send().await;
    assert_eq!(response.status(), 204);
    let response = client.delete("/probe/notice/gone").send().await;
    assert_eq!(response.status(), 403);
    assert_eq!(response.problem().code, "forbidden");

    let response = client
        .get("/probe/free/greeting")
        .header("a", "b")
        .send()
        .await;
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    assert_eq!(response.text(), "hi free 1");
    let response = client.get("/probe/free/static").send().await;
    assert_eq!(response.text(), "free");
}

#[tokio::test]
async fn a_panicking_handler_answers_500_and_the_app_goes_on() {
    let client = app().test_client();
    let response = client.get("/probe/free/panic").send().await;
    assert_eq!(response.status(), 500);
    let problem = response.problem();
    assert_eq!(problem.code, "internal_error");
    assert!(
        !problem.detail.contains("handler bug"),
        "internal detail is not sent"
    );
    assert_eq!(client.get("/probe/free/static").send().await.status(), 200);
}

#[tokio::test]
async fn metadata_describes_each_route() {
    let app = app();
    let routes = app.routes();
    let params = routes.iter().find(|meta| meta.handler == "params").unwrap();
    assert_eq!(params.path, "/probe/:section/items/:id/:n");
    assert_eq!(params.router_path, "/probe/{section}/items/{id}/{n}");
    let names: Vec<_> = params.path_params.iter().map(|param| param.name).collect();
    assert_eq!(names, ["section", "id", "n"]);
    let echo = routes.iter().find(|meta| meta.handler == "echo").unwrap();
    assert!(echo.reads_body());
    assert_eq!(echo.inputs[0].kind, framework::InputKind::Body);
    let mut registry = framework::schema::Registry::default();
    let echo_answers = (echo.responses)(echo.status, &mut registry);
    assert_eq!(
        (echo.status, echo_answers[0].content.is_some()),
        (201, true)
    );
    let accept = routes.iter().find(|meta| meta.handler == "accept").unwrap();
    let accept_answers = (accept.responses)(accept.status, &mut registry);
    assert_eq!(
        (accept.status, accept_answers[0].content.is_some()),
        (202, false)
    );
    let query = routes.iter().find(|meta| meta.handler == "query").unwrap();
    assert!(!query.reads_body());
}

struct First;

#[controller("items")]
impl First {
    #[typed_route::get(":id")]
    async fn one(&self, #[param] id: u32) -> u32 {
        id
    }
}

struct Second;

#[controller("items")]
impl Second {
    #[typed_route::get(":key")]
    async fn other(&self, #[param] key: String) -> String {
        key
    }
}

#[test]
fn conflicting_routes_are_reported_with_both_names() {
    let err = App::builder()
        .controller(First)
        .controller(Second)
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        BuildError::RouteConflict {
            route: "GET /items/:key (Second::other)".into(),
            existing: "GET /items/:id (First::one)".into(),
        }
    );
}

#[tokio::test]
async fn tower_layers_wrap_the_app() {
    use tower::{Layer, ServiceExt};
    let service = tower_http::cors::CorsLayer::permissive().layer(app());
    let request = http::Request::builder()
        .uri("/probe/free/static")
        .header("origin", "https://example.com")
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .unwrap();
    let response = service.oneshot(request).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
}
