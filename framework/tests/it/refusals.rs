//! Each refusal is declared once (`framework::refusal`), and what a route
//! documents follows from it: every refusal a request can get is among
//! its route's documented errors, and every refusal documented per route is
//! declared by some extractor.

use std::time::Duration;

use bytes::Bytes;
use framework::{
    FromRequest, FromRequestParts, InputMeta, TestRequest,
    manifest::RouteManifest,
    prelude::*,
    refusal::{self, Refusal},
    sse::LastEventId,
    testing::MultipartBody,
    ws::WebSocketUpgrade,
};
use http::Method;

#[dto]
struct Search {
    #[tags(minimum = 1)]
    page: u32,
}

#[dto]
#[serde(rename_all = "kebab-case")]
struct Trace {
    #[tags(min_length = 3)]
    x_trace: String,
}

#[dto]
struct Session {
    #[tags(min_length = 3)]
    sid: String,
}

#[dto]
struct Note {
    #[tags(max_length = 5)]
    text: String,
}

#[dto]
struct Upload {
    #[tags(max_size = 4)]
    file: File,
}

struct Kitchen {
    file: std::path::PathBuf,
}

#[controller("kitchen")]
impl Kitchen {
    #[typed_route::post("json/:id")]
    async fn json(
        &self,
        #[param] id: u32,
        query: TypedQuery<Search>,
        headers: TypedHeaders<Trace>,
        cookies: Cookies<Session>,
        body: TypedBody<Note>,
    ) -> String {
        let _ = (id, query, headers, cookies);
        body.into_inner().text
    }

    #[typed_route::post("form")]
    async fn form(&self, body: TypedForm<Note>) -> String {
        body.into_inner().text
    }

    #[typed_route::post("text")]
    async fn text(&self, body: PlainBody) -> String {
        body.into_inner()
    }

    #[typed_route::post("bytes")]
    async fn bytes(&self, body: Bytes) -> usize {
        body.len()
    }

    #[typed_route::post("upload")]
    async fn upload(&self, form: TypedFormData<Upload>) -> u64 {
        form.into_inner().file.size()
    }

    #[typed_route::get("guarded")]
    async fn guarded(&self, token: Bearer) -> String {
        token.token().to_owned()
    }

    #[typed_route::get("events")]
    async fn events(&self, last: LastEventId) -> String {
        last.into_inner().unwrap_or_default()
    }

    #[typed_route::get("file")]
    async fn file(&self, request: FileRequest) -> Result<StreamedFile, ApiError> {
        StreamedFile::open(&self.file, &request).await
    }

    #[typed_route::get("socket")]
    async fn socket(
        &self,
        upgrade: WebSocketUpgrade<String, String>,
    ) -> framework::ws::WebSocketResponse {
        upgrade.on_upgrade(|_socket| async {})
    }
}

fn app(file: &std::path::Path) -> App {
    App::builder()
        .controller(Kitchen {
            file: file.to_owned(),
        })
        .body_limit(64)
        .body_timeout(Duration::from_millis(200))
        .build()
        .expect("routes")
}

/// A refused request: what it shows, its method and path, and the request.
type Refused = (&'static str, Method, &'static str, TestRequest);

/// The refused requests: one or more for every refusal a route can raise.
fn refused_requests(app: &App) -> Vec<Refused> {
    let client = app.test_client();
    let json = "/kitchen/json/1";
    let good = |path: &str, trace: &str, sid: &str| {
        client
            .post(path)
            .header("x-trace", trace)
            .header("cookie", &format!("sid={sid}"))
    };
    let note = serde_json::json!({ "text": "hi" });
    let upload = |form: MultipartBody| client.post("/kitchen/upload").multipart(&form);
    vec![
        (
            "path",
            Method::POST,
            json,
            good("/kitchen/json/x?page=1", "abcd", "abcd").json(&note),
        ),
        (
            "query",
            Method::POST,
            json,
            good("/kitchen/json/1?page=0", "abcd", "abcd").json(&note),
        ),
        (
            "query and path",
            Method::POST,
            json,
            good("/kitchen/json/x?page=0", "abcd", "abcd").json(&note),
        ),
        (
            "header",
            Method::POST,
            json,
            good("/kitchen/json/1?page=1", "a", "abcd").json(&note),
        ),
        (
            "cookie",
            Method::POST,
            json,
            good("/kitchen/json/1?page=1", "abcd", "a").json(&note),
        ),
        (
            "json body",
            Method::POST,
            json,
            good("/kitchen/json/1?page=1", "abcd", "abcd")
                .json(&serde_json::json!({ "text": "too long" })),
        ),
        (
            "json media type",
            Method::POST,
            json,
            good("/kitchen/json/1?page=1", "abcd", "abcd").text("hi"),
        ),
        (
            "json too large",
            Method::POST,
            json,
            good("/kitchen/json/1?page=1", "abcd", "abcd")
                .body("application/json", vec![b' '; 100]),
        ),
        (
            "form",
            Method::POST,
            "/kitchen/form",
            client.post("/kitchen/form").form("text=toolong"),
        ),
        (
            "form posted from another site",
            Method::POST,
            "/kitchen/form",
            client
                .post("/kitchen/form")
                .header("sec-fetch-site", "cross-site")
                .form("text=hi"),
        ),
        (
            "form media type",
            Method::POST,
            "/kitchen/form",
            client.post("/kitchen/form").text("x"),
        ),
        (
            "text not utf-8",
            Method::POST,
            "/kitchen/text",
            client.post("/kitchen/text").body("text/plain", vec![0xff]),
        ),
        (
            "bytes too large",
            Method::POST,
            "/kitchen/bytes",
            client
                .post("/kitchen/bytes")
                .body("application/octet-stream", vec![0; 100]),
        ),
        (
            "file too large",
            Method::POST,
            "/kitchen/upload",
            upload(MultipartBody::new().file("file", "a.txt", "text/plain", b"12345")),
        ),
        (
            "form data without its file",
            Method::POST,
            "/kitchen/upload",
            upload(MultipartBody::new().text("other", "x")),
        ),
        (
            "no token",
            Method::GET,
            "/kitchen/guarded",
            client.get("/kitchen/guarded"),
        ),
        (
            "range beyond the file",
            Method::GET,
            "/kitchen/file",
            client.get("/kitchen/file").header("range", "bytes=50-"),
        ),
        (
            "no handshake",
            Method::GET,
            "/kitchen/socket",
            client.get("/kitchen/socket"),
        ),
        (
            "handshake of another version",
            Method::GET,
            "/kitchen/socket",
            handshake(client.get("/kitchen/socket")).header("sec-websocket-version", "8"),
        ),
        (
            "handshake without a key",
            Method::GET,
            "/kitchen/socket",
            client
                .get("/kitchen/socket")
                .header("connection", "upgrade")
                .header("upgrade", "websocket")
                .header("sec-websocket-version", "13"),
        ),
        (
            "handshake from another origin",
            Method::GET,
            "/kitchen/socket",
            handshake(client.get("/kitchen/socket"))
                .header("sec-websocket-version", "13")
                .header("host", "kitchen.example")
                .header("origin", "https://evil.example"),
        ),
    ]
}

fn handshake(request: TestRequest) -> TestRequest {
    request
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
}

fn documented<'a>(app: &'a App, method: &Method, path: &str) -> &'a RouteManifest {
    let meta = app.route_for(method, path).expect("a route");
    app.manifest()
        .routes
        .iter()
        .find(|route| route.method == meta.method && route.path == meta.path)
        .expect("the route is in the manifest")
}

#[tokio::test]
async fn every_refusal_a_request_gets_is_declared_and_documented_by_its_route() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("ten.txt");
    std::fs::write(&file, b"0123456789").expect("a file");
    let app = app(&file);
    let mut seen = Vec::new();
    for (what, method, path, request) in refused_requests(&app) {
        let response = request.send().await;
        assert!(
            response.status().is_client_error(),
            "{what}: answered {}",
            response.status()
        );
        let code = response.problem().code;
        let declared = refusal::ALL
            .iter()
            .find(|declared| declared.code == code)
            .unwrap_or_else(|| panic!("{what}: `{code}` is not declared in framework::refusal"));
        assert_eq!(declared.status, response.status().as_u16(), "{what}");
        let meta = app.route_for(&method, path).expect("a route");
        assert!(
            meta.refusals().contains(declared),
            "{what}: `{code}` is not among {}'s refusals {:?}",
            meta.qualified_name(),
            meta.refusals()
        );
        let route = documented(&app, &method, path);
        assert!(
            route
                .errors
                .iter()
                .any(|error| error.status == declared.status),
            "{what}: {} is not documented for {} {}",
            declared.status,
            route.method,
            route.path
        );
        seen.push(*declared);
    }
    // The battery above reaches every refusal routes document but those
    // that need a slow client (`request_timeout`) or a body with more parts
    // than the limit (`too_many_parts`), which have tests of their own.
    let unreached: Vec<&str> = refusal::ALL
        .iter()
        .filter(|declared| declared.per_route() && !seen.contains(declared))
        .map(|declared| declared.code)
        .collect();
    assert_eq!(unreached, ["request_timeout", "too_many_parts"]);
}

/// Every refusal documented per route is declared by an extractor that can
/// raise it (or by the path parameters and their combination), so none is
/// raised where no route documents it.
#[test]
fn every_refusal_documented_per_route_is_declared_by_an_extractor() {
    let inputs: [InputMeta; 13] = [
        <TypedQuery<Search> as FromRequestParts>::INPUT,
        <TypedHeaders<Trace> as FromRequestParts>::INPUT,
        <Cookies<Session> as FromRequestParts>::INPUT,
        <TypedBody<Note> as FromRequest>::INPUT,
        <TypedForm<Note> as FromRequest>::INPUT,
        <PlainBody as FromRequest>::INPUT,
        <Bytes as FromRequest>::INPUT,
        <BodyStream as FromRequest>::INPUT,
        <TypedFormData<Upload> as FromRequest>::INPUT,
        <Bearer as FromRequestParts>::INPUT,
        <LastEventId as FromRequestParts>::INPUT,
        <FileRequest as FromRequestParts>::INPUT,
        <WebSocketUpgrade<String, String> as FromRequestParts>::INPUT,
    ];
    // And by the route's method: an unsafe one answers cross-origin
    // requests from browsers.
    let by_routes = [
        refusal::INVALID_PATH_PARAMETER,
        refusal::INVALID_REQUEST,
        refusal::CROSS_ORIGIN_REQUEST,
    ];
    let orphans: Vec<&Refusal> = refusal::ALL
        .iter()
        .filter(|declared| declared.per_route())
        .filter(|declared| {
            !by_routes.contains(declared)
                && !inputs.iter().any(|input| input.refusals.contains(declared))
        })
        .collect();
    assert!(orphans.is_empty(), "declared by no extractor: {orphans:?}");
}

#[test]
fn a_route_documents_the_refusals_of_its_inputs_and_no_other() {
    let app = app(std::path::Path::new("unused"));
    let statuses = |path: &str, method: Method| -> Vec<u16> {
        documented(&app, &method, path)
            .errors
            .iter()
            .map(|error| error.status)
            .collect()
    };
    assert_eq!(
        statuses("/kitchen/json/1", Method::POST),
        [400, 403, 408, 413, 415]
    );
    assert_eq!(statuses("/kitchen/bytes", Method::POST), [403, 408, 413]);
    assert_eq!(statuses("/kitchen/guarded", Method::GET), [401]);
    assert_eq!(statuses("/kitchen/events", Method::GET), [400]);
    // `FileRequest` reads conditions it never refuses: no `400`.
    assert_eq!(statuses("/kitchen/file", Method::GET), [416]);
    assert_eq!(statuses("/kitchen/socket", Method::GET), [400, 403, 426]);
}
