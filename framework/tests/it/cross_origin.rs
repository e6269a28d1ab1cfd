//! Cross-origin protection of unsafe methods (as Go's
//! `http.CrossOriginProtection`): through the in-process client, over a real
//! socket, configured, documented, and answered through the error contract.

use std::net::SocketAddr;

use bytes::Bytes;
use framework::{
    BuildError, CrossOrigin, ErrorContract, HtmlHeaders, HttpMethod, TestRequest, prelude::*,
};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};

#[dto]
struct Note {
    text: String,
}

#[dto]
struct Session {
    sid: String,
}

struct Notes;

#[controller("notes")]
impl Notes {
    /// A form posted by a signed-in user (a cookie).
    #[typed_route::post("")]
    async fn post(&self, session: Cookies<Session>, form: TypedForm<Note>) -> String {
        format!("{}: {}", session.into_inner().sid, form.into_inner().text)
    }

    /// Read by anyone.
    #[typed_route::get("")]
    async fn list(&self) -> &'static str {
        "notes"
    }

    /// An API call with a token.
    #[typed_route::delete(":id")]
    async fn erase(&self, #[param] id: u32, _token: Bearer) {
        let _ = id;
    }

    /// A webhook, posted from anywhere.
    #[typed_route::post("hook")]
    async fn hook(&self) -> &'static str {
        "hooked"
    }
}

fn app(cross_origin: CrossOrigin) -> App {
    App::builder()
        .controller(Notes)
        .cross_origin(cross_origin)
        .build()
        .unwrap()
}

/// A form post of a signed-in user, to `Host: bbs.example`.
fn post(app: &App) -> TestRequest {
    app.test_client()
        .post("/notes")
        .header("host", "bbs.example")
        .header("cookie", "sid=kim")
        .form("text=hi")
}

#[tokio::test]
async fn an_unsafe_request_from_another_site_is_refused() {
    let app = app(CrossOrigin::new());
    // What browsers send.
    for (site, origin, status) in [
        ("same-origin", "https://bbs.example", 201),
        ("none", "", 201),
        ("same-site", "https://www.bbs.example", 403),
        ("cross-site", "https://evil.example", 403),
    ] {
        let mut request = post(&app).header("sec-fetch-site", site);
        if !origin.is_empty() {
            request = request.header("origin", origin);
        }
        let answer = request.send().await;
        assert_eq!(answer.status(), status, "Sec-Fetch-Site: {site}");
        if status == 403 {
            let problem = answer.problem();
            assert_eq!(problem.code, "cross_origin_request");
            assert!(problem.detail.contains(site), "{}", problem.detail);
        }
    }
    // Browsers without Sec-Fetch-Site: Origin against Host.
    let same = post(&app)
        .header("origin", "https://bbs.example")
        .send()
        .await;
    assert_eq!(same.status(), 201);
    assert_eq!(same.text(), "kim: hi");
    let other = post(&app)
        .header("origin", "https://evil.example")
        .send()
        .await;
    assert_eq!(other.status(), 403);
    assert_eq!(other.problem().code, "cross_origin_request");
    let port = post(&app)
        .header("origin", "https://bbs.example:8443")
        .send()
        .await;
    assert_eq!(port.status(), 403, "another port is another origin");
    // Not a browser: no Origin, no Sec-Fetch-Site.
    assert_eq!(post(&app).send().await.status(), 201);
    let api = app
        .test_client()
        .delete("/notes/1")
        .header("authorization", "Bearer token")
        .send()
        .await;
    assert_eq!(api.status(), 204, "a Bearer API client passes");
    // Safe methods are never checked.
    let read = app
        .test_client()
        .get("/notes")
        .header("sec-fetch-site", "cross-site")
        .header("origin", "https://evil.example")
        .send()
        .await;
    assert_eq!(read.status(), 200);
    let head = app
        .test_client()
        .request(http::Method::HEAD, "/notes")
        .header("sec-fetch-site", "cross-site")
        .send()
        .await;
    assert_eq!(head.status(), 200);
}

#[tokio::test]
async fn trusted_origins_bypassed_routes_and_no_protection_pass() {
    let app = app(CrossOrigin::new()
        .trust("https://Admin.example")
        .bypass(HttpMethod::Post, "/notes/hook"));
    let trusted = post(&app)
        .header("sec-fetch-site", "cross-site")
        .header("origin", "https://admin.example")
        .send()
        .await;
    assert_eq!(trusted.status(), 201);
    let hook = app
        .test_client()
        .post("/notes/hook")
        .header("sec-fetch-site", "cross-site")
        .header("origin", "https://evil.example")
        .send()
        .await;
    assert_eq!(hook.status(), 201);
    let untrusted = post(&app)
        .header("sec-fetch-site", "cross-site")
        .header("origin", "https://evil.example")
        .send()
        .await;
    assert_eq!(untrusted.status(), 403);

    let off = app_off();
    let anything = post(&off)
        .header("sec-fetch-site", "cross-site")
        .header("origin", "https://evil.example")
        .send()
        .await;
    assert_eq!(anything.status(), 201);
}

fn app_off() -> App {
    app(CrossOrigin::off())
}

#[test]
fn a_malformed_origin_or_an_unknown_bypass_is_refused_at_build() {
    for origin in ["admin.example", "https://admin.example/", "null"] {
        let refused = App::builder()
            .controller(Notes)
            .cross_origin(CrossOrigin::new().trust(origin))
            .build()
            .unwrap_err();
        assert_eq!(
            refused,
            BuildError::InvalidOrigin {
                origin: origin.to_owned()
            }
        );
    }
    let refused = App::builder()
        .controller(Notes)
        .cross_origin(CrossOrigin::new().bypass(HttpMethod::Put, "/notes/hook"))
        .build()
        .unwrap_err();
    assert_eq!(
        refused,
        BuildError::UnknownBypass {
            route: "PUT /notes/hook".to_owned()
        }
    );
    assert!(refused.to_string().contains("names no route"), "{refused}");
}

/// The statuses documented for each route, by method and path.
fn documented(app: &App) -> Vec<(String, Vec<u16>)> {
    app.manifest()
        .routes
        .iter()
        .map(|route| {
            (
                format!("{} {}", route.method, route.path),
                route.errors.iter().map(|error| error.status).collect(),
            )
        })
        .collect()
}

#[test]
fn unsafe_routes_document_the_403_unless_the_app_never_answers_it() {
    let protected = documented(&app(
        CrossOrigin::new().bypass(HttpMethod::Post, "/notes/hook")
    ));
    let expected = |hook: Vec<u16>, post: Vec<u16>, erase: Vec<u16>| {
        vec![
            ("POST /notes".to_owned(), post),
            ("GET /notes".to_owned(), vec![]),
            ("DELETE /notes/:id".to_owned(), erase),
            ("POST /notes/hook".to_owned(), hook),
        ]
    };
    assert_eq!(
        protected,
        expected(vec![], vec![400, 403, 408, 413, 415], vec![400, 401, 403])
    );
    let document: serde_json::Value =
        serde_json::from_str(&app(CrossOrigin::new()).openapi_json()).unwrap();
    let refused = &document["paths"]["/notes"]["post"]["responses"]["403"];
    assert_eq!(
        refused["description"],
        "A browser sent this request from a page of another origin."
    );
    assert_eq!(
        documented(&app_off()),
        expected(vec![], vec![400, 408, 413, 415], vec![400, 401])
    );
}

/// `{"error": "<code>"}` with the status unchanged.
struct Codes;

#[dto]
struct CodeBody {
    error: String,
}

impl ErrorContract for Codes {
    type Body = CodeBody;

    fn body(&self, err: &ApiError) -> CodeBody {
        CodeBody {
            error: err.code().to_owned(),
        }
    }
}

#[tokio::test]
async fn a_refusal_is_answered_through_the_apps_error_contract() {
    let app = App::builder()
        .controller(Notes)
        .errors(Codes)
        .build()
        .unwrap();
    let refused = post(&app)
        .header("sec-fetch-site", "cross-site")
        .send()
        .await;
    assert_eq!(refused.status(), 403);
    assert_eq!(refused.header("content-type"), Some("application/json"));
    assert_eq!(
        refused.json::<serde_json::Value>(),
        serde_json::json!({ "error": "cross_origin_request" })
    );
}

async fn serve(app: App) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener);
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.serve_with_shutdown(app, std::future::pending()));
    addr
}

/// A form post over a real socket, to `Host: <addr>`.
async fn post_over_socket(addr: SocketAddr, headers: &[(&str, String)]) -> (u16, Bytes) {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut request = http::Request::post("/notes")
        .header("host", addr.to_string())
        .header("cookie", "sid=kim")
        .header("content-type", "application/x-www-form-urlencoded");
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let response = sender
        .send_request(request.body(Full::new(Bytes::from("text=hi"))).unwrap())
        .await
        .unwrap();
    let status = response.status().as_u16();
    (
        status,
        response.into_body().collect().await.unwrap().to_bytes(),
    )
}

#[tokio::test]
async fn over_a_socket_the_origin_is_checked_against_the_host() {
    let addr = serve(app(CrossOrigin::new())).await;
    let own = format!("http://{addr}");
    assert_eq!(post_over_socket(addr, &[]).await.0, 201, "no Origin");
    assert_eq!(
        post_over_socket(addr, &[("origin", own.clone())]).await.0,
        201
    );
    assert_eq!(
        post_over_socket(
            addr,
            &[
                ("origin", own.clone()),
                ("sec-fetch-site", "same-origin".to_owned())
            ]
        )
        .await
        .0,
        201
    );
    let (status, body) = post_over_socket(
        addr,
        &[
            ("origin", "http://evil.example".to_owned()),
            ("sec-fetch-site", "cross-site".to_owned()),
        ],
    )
    .await;
    assert_eq!(status, 403);
    let problem: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(problem["code"], "cross_origin_request");
    let (status, _) = post_over_socket(addr, &[("origin", "http://evil.example".to_owned())]).await;
    assert_eq!(status, 403);
}

#[derive(askama::Template)]
#[template(
    source = "<html><head><style>{{ style|safe }}</style></head><body>{{ text }}<script>{{ script|safe }}</script></body></html>",
    ext = "html"
)]
struct Page {
    text: String,
    style: &'static str,
    script: &'static str,
}

const STYLE: &str = "body { color: black }";
const SCRIPT: &str = "document.title = 'ready';";

struct Pages;

#[controller("pages")]
impl Pages {
    #[typed_route::get("")]
    async fn page(&self) -> Html<Page> {
        Html(Page {
            text: "<script>alert(1)</script>".to_owned(),
            style: STYLE,
            script: SCRIPT,
        })
    }

    #[typed_route::get("text")]
    async fn text(&self) -> &'static str {
        "plain"
    }
}

#[tokio::test]
async fn html_pages_carry_the_apps_security_headers_and_other_answers_none() {
    let plain = App::builder().controller(Pages).build().unwrap();
    let page = plain.test_client().get("/pages").send().await;
    assert_eq!(
        page.header("content-security-policy"),
        Some(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        )
    );
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    assert_eq!(
        page.header("referrer-policy"),
        Some("strict-origin-when-cross-origin")
    );
    let text = plain.test_client().get("/pages/text").send().await;
    assert_eq!(text.header("content-security-policy"), None);

    let configured = App::builder()
        .controller(Pages)
        .html_headers(
            HtmlHeaders::new()
                .allow_script(SCRIPT)
                .allow_style(STYLE)
                .referrer_policy("no-referrer"),
        )
        .build()
        .unwrap();
    let page = configured.test_client().get("/pages").send().await;
    let policy = page.header("content-security-policy").unwrap();
    // `echo -n "document.title = 'ready';" | openssl sha256 -binary | base64`
    assert!(
        policy.contains("script-src 'self' 'sha256-lNcdaoH/6V/S+SZSE79uzJWx+VnWhWo190+bDZpZypo=';"),
        "{policy}"
    );
    assert!(policy.contains("style-src 'self' 'sha256-"), "{policy}");
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    let head = configured
        .test_client()
        .request(http::Method::HEAD, "/pages")
        .send()
        .await;
    assert_eq!(head.header("content-security-policy"), Some(policy));

    let refused = App::builder()
        .controller(Pages)
        .html_headers(HtmlHeaders::new().referrer_policy("a\r\nb"))
        .build()
        .unwrap_err();
    assert!(matches!(refused, BuildError::InvalidHtmlHeader { .. }));
}
