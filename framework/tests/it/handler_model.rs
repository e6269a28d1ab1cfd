//! The handler model: every input and answer kind through the in-process
//! client, and what each one tells the manifest and the OpenAPI document.

use framework::prelude::*;
use framework::{
    BuildError, ContentKind, ErrorMeta, InputMeta, RequestContext, SecurityMeta, StateMeta,
};

#[dto]
#[derive(Debug, PartialEq)]
struct Note {
    #[tags(min_length = 2, max_length = 10)]
    text: String,
    #[optional]
    #[tags(minimum = 1)]
    stars: Option<u32>,
}

#[dto]
struct Session {
    #[tags(format = "uuid")]
    session: String,
    #[optional]
    theme: Option<String>,
}

#[dto]
#[serde(rename_all = "kebab-case")]
struct Tenant {
    x_tenant: u32,
}

#[dto]
struct Paging {
    #[tags(maximum = 100)]
    limit: u32,
}

/// A slug: lower-case words joined by `-`.
#[dto]
struct Slug(#[tags(pattern = "^[a-z]+(-[a-z]+)*$")] String);

/// The tokens the guard accepts, shared as app state.
struct Tokens(Vec<&'static str>);

/// An administrator, proven by a bearer token found in [`Tokens`].
struct Admin;

static ADMIN: SecurityMeta = SecurityMeta::bearer("admin", "An administrator's token.");

impl FromRequestParts for Admin {
    const INPUT: InputMeta = InputMeta::request()
        .with_security(&ADMIN)
        .with_state(&[StateMeta::of::<Tokens>])
        .with_errors(&[ErrorMeta::new(401, "No valid admin token.")]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let bearer = Bearer::from_request_parts(cx).await?;
        // An await point, as a database lookup would have.
        tokio::task::yield_now().await;
        if cx.state::<Tokens>()?.0.contains(&bearer.token()) {
            Ok(Admin)
        } else {
            Err(Bearer::refused("the token is not an admin's"))
        }
    }
}

#[derive(IntoResponse)]
enum Outcome {
    /// Done at once.
    Done(Note),
    /// Queued for later.
    #[status(202)]
    Queued(Note),
}

struct Notes;

#[controller("notes")]
impl Notes {
    #[typed_route::post("form")]
    async fn form(&self, form: TypedForm<Note>) -> Redirect {
        Redirect::see_other(format!("/notes/{}", form.text))
    }

    #[typed_route::post("text")]
    async fn shout(&self, body: PlainBody) -> String {
        body.0.to_uppercase()
    }

    #[typed_route::put("bytes")]
    async fn bytes(&self, body: Bytes) -> Download {
        Download::new(body)
            .media_type("image/png")
            .attachment("note.png")
    }

    #[typed_route::get("raw")]
    async fn raw(&self) -> Bytes {
        Bytes::from_static(b"\x00\x01")
    }

    #[typed_route::get("me")]
    async fn me(&self, cookies: Cookies<Session>) -> Reply<String> {
        Reply::new(cookies.0.theme.unwrap_or_default()).cookie(SetCookie::new("seen", "yes"))
    }

    #[typed_route::delete("admin/:id")]
    async fn erase(&self, _admin: Admin, #[param] id: u32, body: TypedBody<Note>) -> u32 {
        let _ = body;
        id
    }

    #[typed_route::get("files/*path")]
    async fn file(&self, #[param] path: String) -> String {
        path
    }

    #[typed_route::post("jobs")]
    async fn job(&self, body: TypedBody<Note>) -> Outcome {
        let note = body.into_inner();
        if note.stars.is_some() {
            Outcome::Queued(note)
        } else {
            Outcome::Done(note)
        }
    }

    #[typed_route::post("created")]
    async fn created(&self, body: TypedBody<Note>) -> Created<Note> {
        Created::new("/notes/1", body.into_inner())
    }

    #[typed_route::get("moved", sdk = false)]
    async fn moved(&self) -> Redirect<308> {
        Redirect::permanent("/notes/new")
    }

    #[typed_route::get("check/:n/:slug")]
    async fn check(
        &self,
        #[param] n: u32,
        #[param] slug: Slug,
        query: TypedQuery<Paging>,
        headers: TypedHeaders<Tenant>,
    ) -> String {
        format!("{n} {} {} {}", slug.0, query.limit, headers.x_tenant)
    }
}

fn app() -> App {
    App::builder()
        .controller(Notes)
        .state(Tokens(vec!["root"]))
        .body_limit(1024)
        .build()
        .unwrap()
}

const SESSION: &str = "session=6f1c2a3e-8a8e-4c5b-9f0e-2d6a5b1c7e90";

#[tokio::test]
async fn a_form_is_validated_like_a_json_body() {
    let client = app().test_client();
    let response = client.post("/notes/form").form("text=hi+you").send().await;
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], "/notes/hi you");

    let refused = client
        .post("/notes/form")
        .form("text=x&stars=0")
        .send()
        .await;
    assert_eq!(refused.status(), 400);
    let paths: Vec<_> = refused
        .problem()
        .errors
        .into_iter()
        .map(|issue| issue.path)
        .collect();
    assert_eq!(paths, ["$input.text", "$input.stars"]);

    let json = client
        .post("/notes/form")
        .json(&serde_json::json!({"text": "hi"}))
        .send()
        .await;
    assert_eq!(json.status(), 415);
    assert_eq!(
        json.problem().detail,
        "body: expected `application/x-www-form-urlencoded`, got `application/json`"
    );
    let big = client
        .post("/notes/form")
        .form(&format!("text={}", "a".repeat(2000)))
        .send()
        .await;
    assert_eq!(big.status(), 413);
}

#[tokio::test]
async fn text_and_bytes_bodies_and_answers() {
    let client = app().test_client();
    let response = client.post("/notes/text").text("héllo").send().await;
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    assert_eq!(response.text(), "HÉLLO");
    let not_utf8 = client
        .post("/notes/text")
        .body("text/plain", vec![0xff, 0xfe])
        .send()
        .await;
    assert_eq!(not_utf8.problem().code, "invalid_body");
    let wrong_type = client.post("/notes/text").json(&"x").send().await;
    assert_eq!(wrong_type.status(), 415);

    let png = client
        .put("/notes/bytes")
        .body("application/whatever", vec![1, 2, 3])
        .send()
        .await;
    assert_eq!(png.headers()["content-type"], "image/png");
    assert_eq!(
        png.headers()["content-disposition"],
        "attachment; filename=\"note.png\""
    );
    assert_eq!(png.bytes().as_ref(), [1, 2, 3]);
    let raw = client.get("/notes/raw").send().await;
    assert_eq!(raw.headers()["content-type"], "application/octet-stream");
    assert_eq!(raw.bytes().as_ref(), [0, 1]);
}

#[tokio::test]
async fn cookies_are_read_and_set() {
    let client = app().test_client();
    let response = client
        .get("/notes/me")
        .header("cookie", &format!("{SESSION}; theme=dark%20blue"))
        .send()
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.text(), "dark blue");
    assert_eq!(
        response.headers()["set-cookie"],
        "seen=yes; HttpOnly; SameSite=Lax; Path=/"
    );
    let refused = client
        .get("/notes/me")
        .header("cookie", "session=nope")
        .send()
        .await;
    assert_eq!(refused.status(), 400);
    let problem = refused.problem();
    assert_eq!(problem.code, "invalid_cookie");
    assert_eq!(problem.errors[0].path, "$cookies.session");
    let missing = client.get("/notes/me").send().await;
    assert_eq!(missing.problem().errors[0].path, "$cookies.session");
}

#[tokio::test]
async fn a_guard_runs_before_the_body_is_read() {
    let client = app().test_client();
    let note = serde_json::json!({ "text": "bye" });
    let ok = client
        .delete("/notes/admin/7")
        .header("authorization", "Bearer root")
        .json(&note)
        .send()
        .await;
    assert_eq!(ok.status(), 200);
    assert_eq!(ok.json::<u32>(), 7);
    for authorization in [None, Some("Bearer guest"), Some("Basic cm9vdA==")] {
        let mut request = client.delete("/notes/admin/7");
        if let Some(value) = authorization {
            request = request.header("authorization", value);
        }
        let refused = request.json(&note).send().await;
        assert_eq!(refused.status(), 401, "{authorization:?}");
        assert_eq!(refused.headers()["www-authenticate"], "Bearer");
        assert_eq!(refused.problem().code, "unauthorized");
    }
    // A body over the limit is never read when the guard refuses.
    let big = client
        .delete("/notes/admin/7")
        .body("application/json", vec![b' '; 4096])
        .send()
        .await;
    assert_eq!(big.status(), 401);
}

#[tokio::test]
async fn a_guard_without_its_state_is_not_built() {
    let err = App::builder().controller(Notes).build().unwrap_err();
    let BuildError::MissingState {
        route,
        input,
        type_name,
        registered,
    } = &err
    else {
        panic!("expected a missing state, got {err}");
    };
    assert_eq!(route, "DELETE /notes/admin/:id (Notes::erase)");
    assert_eq!(input, "Admin");
    assert_eq!(type_name, std::any::type_name::<Tokens>());
    assert_eq!(registered, &None);
    assert!(err.to_string().contains(".state(value)"), "{err}");
}

#[tokio::test]
async fn every_refused_input_is_reported_in_one_400() {
    let client = app().test_client();
    let response = client
        .get("/notes/check/1.5/Not_A_Slug?limit=1000")
        .header("x-tenant", "many")
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    assert_eq!(problem.code, "invalid_request");
    let paths: Vec<_> = problem
        .errors
        .iter()
        .map(|issue| issue.path.as_str())
        .collect();
    assert_eq!(
        paths,
        [
            "$path.n",
            "$path.slug",
            "$query.limit",
            "$headers[\"x-tenant\"]"
        ]
    );

    let one = client
        .get("/notes/check/1/a-slug?limit=1000")
        .header("x-tenant", "2")
        .send()
        .await;
    assert_eq!(one.problem().code, "invalid_query");
    let ok = client
        .get("/notes/check/1/a-slug?limit=10")
        .header("x-tenant", "2")
        .send()
        .await;
    assert_eq!(ok.text(), "1 a-slug 10 2");
}

#[tokio::test]
async fn a_path_parameter_type_keeps_its_own_constraints() {
    let client = app().test_client();
    let response = client
        .get("/notes/check/1/UPPER?limit=1")
        .header("x-tenant", "2")
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.problem();
    assert_eq!(problem.code, "invalid_path_parameter");
    assert_eq!(problem.errors[0].path, "$path.slug");
    assert!(
        problem.errors[0].expected.contains("Pattern"),
        "{:?}",
        problem.errors[0]
    );
}

#[tokio::test]
async fn statuses_chosen_at_run_time_and_created() {
    let client = app().test_client();
    let done = client
        .post("/notes/jobs")
        .json(&serde_json::json!({"text": "hi"}))
        .send()
        .await;
    assert_eq!(done.status(), 201);
    let queued = client
        .post("/notes/jobs")
        .json(&serde_json::json!({"text": "hi", "stars": 3}))
        .send()
        .await;
    assert_eq!(queued.status(), 202);
    assert_eq!(queued.json::<serde_json::Value>()["stars"], 3);

    let created = client
        .post("/notes/created")
        .json(&serde_json::json!({"text": "hi"}))
        .send()
        .await;
    assert_eq!(created.status(), 201);
    assert_eq!(created.headers()["location"], "/notes/1");
    assert_eq!(created.json::<serde_json::Value>()["text"], "hi");
    let moved = client.get("/notes/moved").send().await;
    assert_eq!(moved.status(), 308);
    assert_eq!(moved.headers()["location"], "/notes/new");
}

#[tokio::test]
async fn catch_all_head_and_options() {
    let client = app().test_client();
    let file = client.get("/notes/files/a/b%20c/d.txt").send().await;
    assert_eq!(file.text(), "a/b c/d.txt");

    let head = client
        .request(http::Method::HEAD, "/notes/files/abc")
        .send()
        .await;
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-length"], "3");
    assert_eq!(head.headers()["content-type"], "text/plain; charset=utf-8");
    assert!(head.bytes().is_empty());

    let options = client
        .request(http::Method::OPTIONS, "/notes/admin/1")
        .send()
        .await;
    assert_eq!(options.status(), 204);
    assert_eq!(options.headers()["allow"], "DELETE, OPTIONS");
    let options = client
        .request(http::Method::OPTIONS, "/notes/files/x")
        .send()
        .await;
    assert_eq!(options.headers()["allow"], "GET, HEAD, OPTIONS");
    let nowhere = client
        .request(http::Method::OPTIONS, "/nowhere")
        .send()
        .await;
    assert_eq!(nowhere.status(), 404);
}

fn route<'m>(
    manifest: &'m framework::manifest::ApiManifest,
    handler: &str,
) -> &'m framework::manifest::RouteManifest {
    manifest
        .routes
        .iter()
        .find(|route| route.handler == handler)
        .unwrap()
}

#[test]
fn the_manifest_describes_every_input_and_answer() {
    let app = app();
    let manifest = app.manifest();
    let form = route(manifest, "form");
    let body = form.body.as_ref().unwrap();
    assert_eq!(
        (body.kind, body.media_type.as_str()),
        (ContentKind::Form, "application/x-www-form-urlencoded")
    );
    assert_eq!(form.responses[0].status, 303);
    assert_eq!(form.responses[0].headers[0].name, "Location");
    let statuses: Vec<u16> = form.errors.iter().map(|error| error.status).collect();
    assert_eq!(statuses, [400, 403, 408, 413, 415]);

    let bytes = route(manifest, "bytes");
    assert_eq!(bytes.body.as_ref().unwrap().kind, ContentKind::Bytes);
    assert!(bytes.body.as_ref().unwrap().schema.is_none());
    let answer = bytes.responses[0].content.as_ref().unwrap();
    assert_eq!(answer.kind, ContentKind::Bytes);

    let shout = route(manifest, "shout");
    assert_eq!(
        shout.responses[0].content.as_ref().unwrap().kind,
        ContentKind::Text
    );
    assert!(route(manifest, "me").cookies.is_some());

    let erase = route(manifest, "erase");
    assert_eq!(erase.security, ["admin"]);
    assert!(erase.errors.iter().any(|error| error.status == 401));
    assert_eq!(manifest.security_schemes.len(), 1);
    assert_eq!(manifest.security_schemes[0].name, "admin");

    let job = route(manifest, "job");
    let answers: Vec<(u16, Option<&str>)> = job
        .responses
        .iter()
        .map(|answer| (answer.status, answer.variant.as_deref()))
        .collect();
    assert_eq!(answers, [(201, Some("Done")), (202, Some("Queued"))]);
    assert_eq!(job.responses[1].description, "Queued for later.");

    let file = route(manifest, "file");
    assert!(file.path_params[0].catch_all);
    assert_eq!(file.accessor, ["notes", "files", "file"]);
    assert!(!route(manifest, "moved").sdk);
    assert!(route(manifest, "raw").sdk);
}

#[test]
fn the_document_shows_schemes_media_types_and_headers() {
    let document: serde_json::Value = serde_json::from_str(&app().openapi_json()).unwrap();
    let scheme = &document["components"]["securitySchemes"]["admin"];
    assert_eq!(scheme["type"], "http");
    assert_eq!(scheme["scheme"], "bearer");
    let erase = &document["paths"]["/notes/admin/{id}"]["delete"];
    assert_eq!(erase["security"][0]["admin"], serde_json::json!([]));
    assert!(erase["responses"]["401"].is_object());
    let form = &document["paths"]["/notes/form"]["post"];
    assert!(form["requestBody"]["content"]["application/x-www-form-urlencoded"].is_object());
    assert!(form["responses"]["303"]["headers"]["Location"].is_object());
    let bytes = &document["paths"]["/notes/bytes"]["put"];
    assert_eq!(
        bytes["requestBody"]["content"]["application/octet-stream"]["schema"]["format"],
        "binary"
    );
    let job = &document["paths"]["/notes/jobs"]["post"]["responses"];
    assert!(job["201"]["content"]["application/json"].is_object());
    assert!(job["202"]["content"]["application/json"].is_object());
    let me = &document["paths"]["/notes/me"]["get"]["parameters"];
    assert_eq!(me[0]["in"], "cookie");
    assert!(document["paths"]["/notes/files/{path}"]["get"].is_object());
}

#[tokio::test]
async fn without_docs_no_document_is_served() {
    let app = App::builder()
        .controller(Notes)
        .state(Tokens(vec!["root"]))
        .without_docs()
        .build()
        .unwrap();
    let response = app.test_client().get("/openapi.json").send().await;
    assert_eq!(response.status(), 404);
    assert!(app.openapi_json().contains("\"/notes/form\""));
}

/// A handler of more arguments than the generated code reads into one
/// tuple (12), with the body before the path parameters.
struct Wide;

#[controller("wide")]
impl Wide {
    #[typed_route::put(":a/:b/:c/:d/:e/:f/:g/:h/:i/:j/:k/:l/:m")]
    #[allow(clippy::too_many_arguments)]
    async fn sum(
        &self,
        body: TypedBody<Note>,
        #[param] a: u32,
        #[param] b: u32,
        #[param] c: u32,
        #[param] d: u32,
        #[param] e: u32,
        #[param] f: u32,
        #[param] g: u32,
        #[param] h: u32,
        #[param] i: u32,
        #[param] j: u32,
        #[param] k: u32,
        #[param] l: u32,
        #[param]
        #[tags(maximum = 100)]
        m: u32,
    ) -> String {
        let digits = [a, b, c, d, e, f, g, h, i, j, k, l, m].map(|n| n.to_string());
        format!("{} {}", body.into_inner().text, digits.join(""))
    }
}

#[tokio::test]
async fn a_handler_of_many_arguments_gets_each_in_its_place() {
    let app = App::builder().controller(Wide).build().unwrap();
    let meta = app
        .routes()
        .into_iter()
        .find(|meta| meta.handler == "sum")
        .unwrap();
    let names: Vec<_> = meta.path_params.iter().map(|param| param.name).collect();
    assert_eq!(names.concat(), "abcdefghijklm");
    assert_eq!(meta.inputs.len(), 1);
    let client = app.test_client();
    let response = client
        .put("/wide/1/2/3/4/5/6/7/8/9/0/1/2/3")
        .json(&serde_json::json!({ "text": "sum" }))
        .send()
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.text(), "sum 1234567890123");
    let refused = client
        .put("/wide/x/2/3/4/5/6/7/8/9/0/1/2/300")
        .json(&serde_json::json!({ "text": "s" }))
        .send()
        .await;
    assert_eq!(refused.status(), 400);
    let problem: serde_json::Value = refused.json();
    let paths: Vec<_> = problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|issue| issue["path"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(paths, ["$path.a", "$path.m", "$input.text"]);
}

/// Set when the request it is an extension of is dropped.
#[derive(Clone)]
struct Watched(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for Watched {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

struct Released(std::sync::Arc<std::sync::atomic::AtomicBool>);

#[controller("released")]
impl Released {
    /// Whether the request was let go of when this handler ran.
    #[typed_route::get("")]
    async fn without_inputs(&self) -> String {
        self.0.load(std::sync::atomic::Ordering::SeqCst).to_string()
    }

    #[typed_route::get("with/:id")]
    async fn with_an_input(&self, #[param] id: u32) -> String {
        format!("{id} {}", self.0.load(std::sync::atomic::Ordering::SeqCst))
    }
}

/// A handler without inputs runs after the request is let go of (hyper,
/// which reads on while an answer is awaited, can then reuse its buffer),
/// and one that reads the request still has it.
#[tokio::test]
async fn a_handler_without_inputs_runs_after_the_request_is_let_go_of() {
    let dropped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let app = App::builder()
        .controller(Released(std::sync::Arc::clone(&dropped)))
        .build()
        .unwrap();
    for (path, answer) in [("/released", "true"), ("/released/with/7", "7 false")] {
        dropped.store(false, std::sync::atomic::Ordering::SeqCst);
        let request = http::Request::get(path)
            .extension(Watched(std::sync::Arc::clone(&dropped)))
            .body(http_body_util::Empty::<bytes::Bytes>::new())
            .unwrap();
        let response = app.handle(request).await;
        assert_eq!(response.status(), 200, "{path}");
        let body = http_body_util::BodyExt::collect(response.into_body())
            .await
            .unwrap()
            .to_bytes();
        assert_eq!(body, answer, "{path}");
        assert!(dropped.load(std::sync::atomic::Ordering::SeqCst), "{path}");
    }
}

struct Panics;

#[controller("panics")]
impl Panics {
    /// A small future, kept in the request's own.
    #[typed_route::get("")]
    async fn without_inputs(&self) -> String {
        panic!("boom without inputs")
    }

    /// A larger one, boxed.
    #[typed_route::get("with/:id")]
    async fn with_an_input(&self, #[param] id: u32) -> String {
        if id > 0 {
            panic!("boom with {id}");
        }
        id.to_string()
    }
}

/// A handler that panics is answered `500 internal_error`, whether its
/// future is kept inline or boxed, and the app answers the next request.
#[tokio::test]
async fn a_panicking_handler_is_answered_500_and_the_app_goes_on() {
    let app = App::builder().controller(Panics).build().unwrap();
    let client = app.test_client();
    for path in ["/panics", "/panics/with/3"] {
        let answer = client.get(path).send().await;
        assert_eq!(answer.status(), 500, "{path}");
        let problem: serde_json::Value = answer.json();
        assert_eq!(problem["code"], "internal_error", "{path}: {problem}");
    }
    let answer = client.get("/panics/with/0").send().await;
    assert_eq!(
        (answer.status().as_u16(), answer.text()),
        (200, "0".to_owned())
    );
}
