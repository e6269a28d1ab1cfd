//! The MCP endpoint (`mcp` feature), in process: the transport's rules,
//! the tools' schemas, calls through every kind of input, refusals with
//! their paths in the arguments, choosing routes, and the endpoint's
//! request checked as the app's other unsafe requests are.

use framework::{BuildError, CrossOrigin, Mcp, TestResponse, prelude::*};
use serde_json::{Value, json};

#[dto]
struct Listing {
    #[tags(minimum = 1)]
    page: u32,
    #[optional]
    search: Option<Search>,
}

#[dto]
struct Search {
    #[tags(min_length = 1)]
    writer: String,
}

#[dto]
struct Label {
    #[serde(rename = "x-label")]
    #[tags(max_length = 8)]
    label: String,
}

#[dto]
struct Note {
    #[tags(min_length = 1)]
    text: String,
}

#[dto]
struct Found {
    page: u32,
    writer: Option<String>,
    label: String,
}

struct Notes;

#[controller("notes")]
impl Notes {
    /// Find notes.
    ///
    /// By page, and optionally by writer.
    #[typed_route::get(":folder")]
    async fn find(
        &self,
        #[param] folder: String,
        query: TypedQuery<Listing>,
        headers: TypedHeaders<Label>,
    ) -> Json<Found> {
        let Listing { page, search } = query.into_inner();
        Json(Found {
            page,
            writer: search.map(|search| format!("{folder}/{}", search.writer)),
            label: headers.into_inner().label,
        })
    }

    /// Keep a note sent as a form; answers its text.
    #[typed_route::post("form")]
    async fn post_form(&self, form: TypedForm<Note>) -> String {
        form.into_inner().text
    }

    /// Keep a note, for a signed-in caller.
    #[typed_route::post("")]
    async fn create(&self, _token: Bearer, note: TypedBody<Note>) -> Json<Note> {
        Json(note.into_inner())
    }

    /// Erase every note: for people only.
    #[typed_route::delete("", mcp = false)]
    async fn clear(&self) {}
}

struct Other;

#[controller("other")]
impl Other {
    #[typed_route::get("")]
    async fn other(&self) -> &'static str {
        "other"
    }
}

fn app(mcp: Mcp) -> App {
    App::builder()
        .controller(Notes)
        .controller(Other)
        .mcp(mcp)
        .build()
        .unwrap()
}

async fn rpc(app: &App, message: Value) -> TestResponse {
    app.test_client().post("/mcp").json(&message).send().await
}

async fn result(app: &App, method: &str, params: Value) -> Value {
    let response = rpc(
        app,
        json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}),
    )
    .await;
    assert_eq!(response.status(), 200, "{}", response.text());
    assert_eq!(response.header("content-type"), Some("application/json"));
    let answer: Value = response.json();
    assert_eq!(answer["id"], 7, "{answer}");
    answer["result"].clone()
}

async fn call(app: &App, name: &str, arguments: Value) -> Value {
    result(
        app,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
    .await
}

/// The JSON of a tool error's text.
fn refused(result: &Value) -> Value {
    assert_eq!(result["isError"], true, "{result}");
    serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap()
}

fn paths(detail: &Value) -> Vec<String> {
    detail["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|issue| issue["path"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn initialize_agrees_on_a_version_and_the_transport_answers_as_the_spec_says() {
    let app = app(Mcp::new().instructions("Notes."));
    let init = result(
        &app,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    )
    .await;
    assert_eq!(init["protocolVersion"], "2025-06-18");
    assert_eq!(init["capabilities"]["tools"]["listChanged"], false);
    assert_eq!(init["serverInfo"]["name"], "API");
    assert_eq!(init["instructions"], "Notes.");
    let unknown = result(&app, "initialize", json!({"protocolVersion": "1999-01-01"})).await;
    assert_eq!(unknown["protocolVersion"], "2025-11-25");
    assert_eq!(result(&app, "ping", Value::Null).await, json!({}));

    // A notification, or a client's answer, is accepted with no body.
    let notified = rpc(
        &app,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(notified.status(), 202);
    assert!(notified.text().is_empty());
    let answered = rpc(&app, json!({"jsonrpc": "2.0", "id": 3, "result": {}})).await;
    assert_eq!(answered.status(), 202);

    // The server offers no stream of its own, and keeps no sessions.
    assert_eq!(app.test_client().get("/mcp").send().await.status(), 405);
    assert_eq!(
        app.test_client()
            .request(http::Method::DELETE, "/mcp")
            .send()
            .await
            .status(),
        405
    );

    let unknown_method = rpc(
        &app,
        json!({"jsonrpc": "2.0", "id": 1, "method": "resources/list"}),
    )
    .await;
    assert_eq!(unknown_method.json::<Value>()["error"]["code"], -32601);
    for (body, code) in [
        ("{not json", -32700),
        (
            "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]",
            -32600,
        ),
        (
            "{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}",
            -32600,
        ),
    ] {
        let response = app
            .test_client()
            .post("/mcp")
            .body("application/json", body.to_owned())
            .send()
            .await;
        assert_eq!(response.status(), 400, "{body}");
        assert_eq!(response.json::<Value>()["error"]["code"], code, "{body}");
    }
    let old = app
        .test_client()
        .post("/mcp")
        .header("mcp-protocol-version", "2024-11-05")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .send()
        .await;
    assert_eq!(old.status(), 400);
}

#[tokio::test]
async fn tools_are_described_from_the_routes() {
    let app = app(Mcp::new());
    let listed = result(&app, "tools/list", json!({})).await;
    let tools = listed["tools"].as_array().unwrap();
    let names: Vec<&str> = tools
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "notes.find",
            "notes.form.post_form",
            "notes.create",
            "other"
        ]
    );
    assert_eq!(app.mcp_left_out()[0].operation_id, "notes.clear");
    assert_eq!(app.mcp_left_out()[0].reason, "its route says `mcp = false`");

    let find = &tools[0];
    assert_eq!(find["title"], "Find notes.");
    assert_eq!(
        find["description"],
        "Find notes.\n\nBy page, and optionally by writer."
    );
    assert_eq!(find["annotations"]["readOnlyHint"], true);
    let input = &find["inputSchema"];
    assert_eq!(input["type"], "object");
    assert_eq!(input["required"], json!(["path", "query", "headers"]));
    assert_eq!(input["additionalProperties"], false);
    assert_eq!(input["properties"]["path"]["required"], json!(["folder"]));
    assert_eq!(input["properties"]["query"]["$ref"], "#/$defs/Listing");
    // The types it reaches, and only those.
    let defs: Vec<&String> = input["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(defs, ["Label", "Listing", "Search"]);
    assert_eq!(
        input["$defs"]["Listing"]["properties"]["search"]["$ref"],
        "#/$defs/Search"
    );
    assert_eq!(find["outputSchema"]["type"], "object");
    assert_eq!(find["outputSchema"]["$ref"], "#/$defs/Found");
    // A text answer has no output schema.
    assert!(tools[1].get("outputSchema").is_none());
    assert_eq!(tools[2]["annotations"]["readOnlyHint"], false);
}

#[tokio::test]
async fn a_call_is_the_request_its_arguments_make() {
    let app = app(Mcp::new());
    let found = call(
        &app,
        "notes.find",
        json!({
            "path": {"folder": "a b/c"},
            "query": {"page": 2, "search": {"writer": "kim"}},
            "headers": {"x-label": "blue"},
        }),
    )
    .await;
    assert!(found.get("isError").is_none(), "{found}");
    assert_eq!(
        found["structuredContent"],
        json!({"page": 2, "writer": "a b/c/kim", "label": "blue"})
    );
    let text: Value = serde_json::from_str(found["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, found["structuredContent"]);

    let form = call(
        &app,
        "notes.form.post_form",
        json!({"body": {"text": "hello & bye"}}),
    )
    .await;
    assert_eq!(form["content"][0]["text"], "hello & bye", "{form}");
    assert!(form.get("structuredContent").is_none());
}

#[tokio::test]
async fn a_refused_call_lists_every_problem_at_its_path_in_the_arguments() {
    let app = app(Mcp::new());
    let detail = refused(
        &call(
            &app,
            "notes.find",
            json!({
                "path": {"folder": "f"},
                "query": {"page": 0, "search": {"writer": ""}},
                "headers": {"x-label": "far too long"},
            }),
        )
        .await,
    );
    assert_eq!(detail["status"], 400);
    let mut found = paths(&detail);
    found.sort();
    assert_eq!(
        found,
        [
            "$arguments.headers[\"x-label\"]",
            "$arguments.query.page",
            "$arguments.query.search.writer",
        ]
    );

    // What cannot make a request at all is listed the same way.
    let detail = refused(&call(&app, "notes.find", json!({"path": {}, "headers": "no"})).await);
    assert_eq!(detail["code"], "invalid_arguments");
    assert_eq!(
        paths(&detail),
        ["$arguments.path.folder", "$arguments.headers"]
    );
    let detail = refused(&call(&app, "notes.find", json!([1])).await);
    assert_eq!(paths(&detail), ["$arguments"]);

    // A guard refuses a call without the credential, which the MCP
    // request's `Authorization` carries.
    let note = json!({"body": {"text": "t"}});
    assert_eq!(
        refused(&call(&app, "notes.create", note.clone()).await)["status"],
        401
    );
    let signed = app
        .test_client()
        .post("/mcp")
        .header("authorization", "Bearer token")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "notes.create", "arguments": note}}))
        .send()
        .await;
    let answer: Value = signed.json();
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({"text": "t"}),
        "{answer}"
    );

    let unknown = rpc(
        &app,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "notes.clear"}}),
    )
    .await;
    let message = unknown.json::<Value>()["error"]["message"].clone();
    assert_eq!(
        message,
        "`notes.clear` is not offered as a tool: its route says `mcp = false`"
    );
}

#[tokio::test]
async fn an_app_chooses_its_controllers_and_its_path() {
    let app = app(Mcp::at("/api/mcp").controller::<Other>());
    assert_eq!(app.mcp_tools().collect::<Vec<_>>(), ["other"]);
    let answer = app
        .test_client()
        .post("/api/mcp")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "other"}}))
        .send()
        .await
        .json::<Value>();
    assert_eq!(answer["result"]["content"][0]["text"], "other");
    // The endpoint is no route of the app's: not in its manifest or SDKs.
    assert!(
        app.manifest()
            .routes
            .iter()
            .all(|route| !route.path.contains("mcp"))
    );

    for path in ["mcp", "/mcp/:id"] {
        let refused = App::builder()
            .controller(Other)
            .mcp(Mcp::at(path))
            .build()
            .unwrap_err();
        assert!(
            matches!(refused, BuildError::InvalidPath { .. }),
            "{refused}"
        );
    }
    // `POST /notes` is a route of the app's.
    let taken = App::builder()
        .controller(Notes)
        .mcp(Mcp::at("/notes"))
        .build()
        .unwrap_err();
    assert!(matches!(taken, BuildError::RouteConflict { .. }), "{taken}");
}

#[tokio::test]
async fn a_post_from_a_page_of_another_origin_is_refused() {
    let app = app(Mcp::new());
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let foreign = app
        .test_client()
        .post("/mcp")
        .header("origin", "https://evil.example")
        .header("sec-fetch-site", "cross-site")
        .json(&ping)
        .send()
        .await;
    assert_eq!(foreign.status(), 403);
    // DNS rebinding: a page of another site reaching this server under its
    // own host name is same-origin to the browser, and refused all the same.
    let rebound = app
        .test_client()
        .post("/mcp")
        .header("host", "evil.example:3000")
        .header("origin", "http://evil.example:3000")
        .header("sec-fetch-site", "same-origin")
        .json(&ping)
        .send()
        .await;
    assert_eq!(rebound.status(), 403);
    assert_eq!(rebound.json::<Value>()["code"], "cross_origin_request");
    let trusted = App::builder()
        .controller(Other)
        .cross_origin(CrossOrigin::new().trust("https://chat.example"))
        .mcp(Mcp::new())
        .build()
        .unwrap();
    let allowed = trusted
        .test_client()
        .post("/mcp")
        .header("origin", "https://chat.example")
        .header("sec-fetch-site", "cross-site")
        .json(&ping)
        .send()
        .await;
    assert_eq!(allowed.status(), 200);
}
