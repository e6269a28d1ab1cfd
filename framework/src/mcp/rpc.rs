//! The endpoint: JSON-RPC 2.0 messages over the Streamable HTTP transport,
//! stateless. A request is answered with one `application/json` message, a
//! notification (or a client's response) with `202` and no body.

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde_json::{Value, json};

use super::{call, catalogue::Catalogue, settings::LeftOut};
use crate::{Body, RequestContext, Response, app::AppRef, manifest::ApiManifest};

/// The protocol revisions the endpoint speaks, newest first: it answers
/// `initialize` with the client's when it is one of these, else the newest.
pub(crate) const PROTOCOL_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];

/// JSON-RPC's error codes.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const INTERNAL_ERROR: i64 = -32603;

/// An app's MCP endpoint: its tools and the app that answers their calls.
#[derive(Debug)]
pub(crate) struct McpEndpoint {
    catalogue: Catalogue,
    name: String,
    version: String,
    instructions: Option<String>,
    /// The app, once built (it holds this endpoint).
    pub(crate) app: AppRef,
    /// The request headers a call passes on to its route: credentials.
    forwarded: Vec<header::HeaderName>,
}

impl McpEndpoint {
    pub(crate) fn new(
        catalogue: Catalogue,
        manifest: &ApiManifest,
        instructions: Option<String>,
    ) -> Self {
        let mut forwarded = vec![header::AUTHORIZATION, header::COOKIE];
        for scheme in &manifest.security_schemes {
            if let crate::manifest::SecurityKindManifest::ApiKeyHeader { name } = &scheme.kind
                && let Ok(name) = header::HeaderName::try_from(name.as_str())
            {
                forwarded.push(name);
            }
        }
        McpEndpoint {
            catalogue,
            name: manifest.title.clone(),
            version: manifest.version.clone(),
            instructions: instructions.or_else(|| manifest.description.clone()),
            app: AppRef::default(),
            forwarded,
        }
    }

    /// The names of the tools, in the app's route order.
    pub(crate) fn tools(&self) -> impl Iterator<Item = &str> {
        self.catalogue.tools.iter().map(|tool| tool.name.as_str())
    }

    /// The routes left out.
    pub(crate) fn left_out(&self) -> &[LeftOut] {
        &self.catalogue.left_out
    }

    /// Answers one `POST` to the endpoint.
    pub(crate) async fn answer(&self, mut cx: RequestContext) -> Response {
        if let Err(refused) = cx.origins().check_mcp(cx.parts()) {
            return refused.into_response();
        }
        if let Some(version) = cx.headers().get("mcp-protocol-version")
            && !PROTOCOL_VERSIONS.iter().any(|known| version == known)
        {
            let message = format!(
                "unsupported MCP-Protocol-Version; this server speaks {}",
                PROTOCOL_VERSIONS.join(", ")
            );
            return reply(
                StatusCode::BAD_REQUEST,
                error(Value::Null, INVALID_REQUEST, &message),
            );
        }
        let body = match cx.collect_body().await {
            Ok(body) => body,
            Err(refused) => return refused.into_response(),
        };
        let Ok(message) = serde_json::from_slice::<Value>(&body) else {
            let parse = error(Value::Null, PARSE_ERROR, "the body is not JSON");
            return reply(StatusCode::BAD_REQUEST, parse);
        };
        match Message::of(message) {
            Message::Request { id, method, params } => {
                let answer = self.request(&method, params, cx.headers()).await;
                let message = match answer {
                    Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                    Err((code, text)) => error(id, code, &text),
                };
                reply(StatusCode::OK, message)
            }
            Message::Notification => accepted(),
            Message::Invalid(why) => reply(
                StatusCode::BAD_REQUEST,
                error(Value::Null, INVALID_REQUEST, why),
            ),
        }
    }

    /// The result of a request, or its error's code and message.
    async fn request(
        &self,
        method: &str,
        params: Value,
        headers: &HeaderMap,
    ) -> Result<Value, (i64, String)> {
        match method {
            "initialize" => Ok(self.initialize(&params)),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({
                "tools": self.catalogue.tools.iter().map(|tool| &tool.definition).collect::<Vec<_>>(),
            })),
            "tools/call" => self.call(&params, headers).await,
            other => Err((METHOD_NOT_FOUND, format!("no method `{other}` here"))),
        }
    }

    fn initialize(&self, params: &Value) -> Value {
        let asked = params.get("protocolVersion").and_then(Value::as_str);
        let version = PROTOCOL_VERSIONS
            .iter()
            .find(|known| Some(**known) == asked)
            .unwrap_or(&PROTOCOL_VERSIONS[0]);
        let mut result = json!({
            "protocolVersion": version,
            "capabilities": { "tools": { "listChanged": false } },
            "serverInfo": { "name": self.name, "version": self.version },
        });
        if let Some(instructions) = &self.instructions {
            result["instructions"] = Value::String(instructions.clone());
        }
        result
    }

    async fn call(&self, params: &Value, headers: &HeaderMap) -> Result<Value, (i64, String)> {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err((INVALID_PARAMS, "`params.name` names the tool".into()));
        };
        let Some(tool) = self.catalogue.tool(name) else {
            let message = match self.catalogue.left_out(name) {
                Some(left) => format!("`{name}` is not offered as a tool: {}", left.reason),
                None => format!("Unknown tool: `{name}`"),
            };
            return Err((INVALID_PARAMS, message));
        };
        let Some(app) = self.app.get() else {
            return Err((INTERNAL_ERROR, "the app is shutting down".into()));
        };
        let mut forwarded = HeaderMap::new();
        for name in &self.forwarded {
            for value in headers.get_all(name) {
                forwarded.append(name.clone(), value.clone());
            }
        }
        Ok(call::call(&app, tool, params.get("arguments"), &forwarded).await)
    }
}

/// What a client sent.
enum Message {
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification, or a response to a request of the server's: nothing
    /// to answer.
    Notification,
    Invalid(&'static str),
}

impl Message {
    fn of(message: Value) -> Self {
        let Value::Object(mut message) = message else {
            return Message::Invalid(
                "a message is one JSON-RPC 2.0 object (batches are not taken)",
            );
        };
        if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Message::Invalid("a message says `\"jsonrpc\": \"2.0\"`");
        }
        let id = message.remove("id");
        match (message.remove("method"), id) {
            (Some(Value::String(method)), Some(id @ (Value::String(_) | Value::Number(_)))) => {
                Message::Request {
                    id,
                    method,
                    params: message.remove("params").unwrap_or(Value::Null),
                }
            }
            (Some(Value::String(_)), None) => Message::Notification,
            (None, Some(_)) if message.contains_key("result") || message.contains_key("error") => {
                Message::Notification
            }
            _ => Message::Invalid("a request has a string `method` and a string or number `id`"),
        }
    }
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn reply(status: StatusCode, message: Value) -> Response {
    let mut response = http::Response::new(Body::from(Bytes::from(message.to_string())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn accepted() -> Response {
    let mut response = http::Response::new(Body::empty());
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}
