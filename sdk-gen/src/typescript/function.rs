//! One route as a TypeScript function: its parameters, its path, what it
//! answers, its doc comment and the metadata the runtime reads.

use std::fmt::Write;

use framework::{
    ContentKind,
    manifest::{RouteManifest, SecurityKindManifest, SecuritySchemeManifest},
    schema::type_label,
};
use rand::{SeedableRng, rngs::StdRng};
use serde_json::{Map, Value, json};

use super::{Doc, TypeScript, ident, indent, pretty, template_text};
use crate::{
    GenerateError,
    answer::{Answer, Content, Shape, answers, is_plain_json, statuses, streams_bytes},
    model::{Dir, refs, route_inputs, route_outputs},
};

/// What the `functional.ts` template writes for one route.
pub(super) struct Function {
    pub(super) doc: String,
    pub(super) name: String,
    /// `section: string`, `id: string`, `input: update.Input`
    pub(super) params: Vec<String>,
    /// `section, id`
    pub(super) path_params: String,
    /// `section: string, id: string`
    pub(super) path_signature: String,
    /// The template literal's text.
    pub(super) path_expr: String,
    /// `body: input`
    pub(super) inputs: String,
    /// `Input = ArticleUpdate`
    pub(super) aliases: Vec<String>,
    pub(super) output: String,
    /// `400 | 403 | 404`
    pub(super) errors: String,
    /// The type `propagate` answers.
    pub(super) propagation: String,
    pub(super) metadata: String,
    /// The structures its types name.
    pub(super) imports: Vec<String>,
    /// A WebSocket route's message types, client's and server's: the
    /// function opens a socket.
    pub(super) messages: Option<(String, String)>,
    /// The route answers a file: it gets a `stream` function, answering
    /// one of `statuses` (`200 | 206 | 304`).
    pub(super) streams: bool,
    pub(super) statuses: String,
}

/// The arguments of a call besides the connection.
struct Params {
    /// `name: type`, in call order.
    params: Vec<String>,
    /// The path parameters' bindings.
    path_names: Vec<String>,
    /// `query: query_`, what `$runtime.call` gets.
    inputs: Vec<String>,
    /// `Query = Filter`
    aliases: Vec<String>,
}

/// What a WebSocket route and a route sending cookies do that a call does
/// not, in a function's doc.
fn transport_notes(route: &RouteManifest, doc: &mut Doc) {
    if route.websocket.is_some() {
        if !doc.is_empty() {
            doc.blank();
        }
        doc.line("Opens a WebSocket: `send` a `ClientMessage`, iterate over each `ServerMessage`");
        doc.line("(checked against its type), `close()` when done. The server closes it with");
        doc.line("1007 for a message it refuses, 1009 for one over its size limit, 1001 when it");
        doc.line("is idle or shuts down: the iteration then throws `SocketClosedError`.");
    }
    if route.cookies.is_some() {
        if !doc.is_empty() {
            doc.blank();
        }
        doc.line("`cookies` are sent in a `Cookie` header. A browser's `fetch` drops that");
        doc.line("header (it is forbidden) and sends the browser's own cookies instead.");
    }
}

/// A binding name for `raw` that does not hide the function (its body
/// reads `name.METADATA`), `path` or `connection`.
fn binding(function: &str, raw: &str) -> String {
    let mut bound = ident(raw);
    if bound == function || matches!(bound.as_str(), "path" | "METADATA" | "connection") {
        bound.push('_');
    }
    bound
}

impl TypeScript<'_, '_> {
    pub(super) fn function(
        &self,
        name: &str,
        route: &RouteManifest,
    ) -> Result<Function, GenerateError> {
        let function = ident(name);
        let params = self.params(route, &function);
        let answers = answers(route);
        let error_statuses: Vec<String> = route
            .errors
            .iter()
            .map(|error| error.status.to_string())
            .collect();
        let path_signature = route
            .path_params
            .iter()
            .map(|param| {
                let ty = self.type_of(&param.schema, Dir::Input);
                format!("{}: {ty}", binding(&function, &param.name))
            })
            .collect::<Vec<_>>();
        let messages = route.websocket.as_ref().map(|websocket| {
            (
                self.type_of(&websocket.client, Dir::Input),
                self.type_of(&websocket.server, Dir::Output),
            )
        });
        let output = match &messages {
            Some(_) => "$runtime.Socket<ClientMessage, ServerMessage>".to_owned(),
            None => self.output(&answers),
        };
        Ok(Function {
            doc: self.function_doc(route)?.render(""),
            params: params.params,
            path_params: params.path_names.join(", "),
            path_signature: path_signature.join(", "),
            path_expr: path_expr(route, &function),
            inputs: params.inputs.join(", "),
            aliases: params.aliases,
            output,
            errors: if error_statuses.is_empty() {
                "never".to_owned()
            } else {
                error_statuses.join(" | ")
            },
            propagation: self.propagation(&answers),
            metadata: indent(&pretty(&self.metadata(route, &answers)?), "  "),
            imports: self.imports(route),
            name: function,
            messages,
            streams: streams_bytes(&answers),
            statuses: statuses(&answers, " | "),
        })
    }

    fn params(&self, route: &RouteManifest, function: &str) -> Params {
        let mut out = Params {
            params: Vec::new(),
            path_names: Vec::new(),
            inputs: Vec::new(),
            aliases: Vec::new(),
        };
        for param in &route.path_params {
            let name = binding(function, &param.name);
            let ty = self.type_of(&param.schema, Dir::Input);
            out.params.push(format!("{name}: {ty}"));
            out.path_names.push(name);
        }
        let body = route
            .body
            .as_ref()
            .map(|body| match (body.kind, &body.schema) {
                (ContentKind::Bytes, _) | (_, None) => "Blob | Uint8Array".to_owned(),
                (ContentKind::Text | ContentKind::Html, _) => "string".to_owned(),
                (_, Some(schema)) => self.type_of(schema, Dir::Input),
            });
        let named = |schema: &Option<_>| {
            schema
                .as_ref()
                .map(|schema| self.type_of(schema, Dir::Input))
        };
        for (key, ty, alias) in [
            ("headers", named(&route.headers), "Headers"),
            ("query", named(&route.query), "Query"),
            ("cookies", named(&route.cookies), "Cookies"),
            ("body", body, "Input"),
        ] {
            if let Some(ty) = ty {
                let arg = binding(function, if key == "body" { "input" } else { key });
                out.params.push(format!("{arg}: {function}.{alias}"));
                out.inputs.push(format!("{key}: {arg}"));
                out.aliases.push(format!("{alias} = {ty}"));
            }
        }
        out
    }

    /// The type of one answer's data; `alone` when it is the route's only
    /// answer (no body is then `void`).
    fn data_type(&self, answer: &Answer<'_>, alone: bool) -> String {
        let content = |content: Content<'_>, alone: bool| match content {
            Content::Empty if alone => "void".to_owned(),
            Content::Empty => "undefined".to_owned(),
            Content::Json(schema) => self.type_of(schema, Dir::Output),
            Content::Text => "string".to_owned(),
            Content::Bytes => "Uint8Array".to_owned(),
            Content::Events(schema) => {
                format!(
                    "$runtime.EventStream<{}>",
                    self.type_of(schema, Dir::Output)
                )
            }
        };
        match answer.shape {
            Shape::Plain(body) => content(body, alone),
            Shape::Redirect => format!("$runtime.Redirect<{}>", answer.status),
            Shape::Created(body) => format!("$runtime.Created<{}>", content(body, false)),
        }
    }

    /// What the plain function answers: the union of every answer's data.
    fn output(&self, answers: &[Answer<'_>]) -> String {
        if let [only] = answers {
            return self.data_type(only, true);
        }
        let mut members: Vec<String> = Vec::new();
        for answer in answers {
            let member = self.data_type(answer, false);
            if !members.contains(&member) {
                members.push(member);
            }
        }
        members.join(" | ")
    }

    /// The TypeScript type of the app's error body, when it declares an
    /// error contract.
    fn error_body(&self) -> Option<String> {
        self.model
            .error_body()
            .map(|schema| self.type_of(schema, Dir::Output))
    }

    /// What `propagate` answers: one success member per status (with the
    /// space or line break after `=`); its failures carry the app's error
    /// body when it declares one.
    fn propagation(&self, answers: &[Answer<'_>]) -> String {
        let body = self
            .error_body()
            .map(|body| format!(", {body}"))
            .unwrap_or_default();
        if let [only] = answers {
            return format!(
                " $runtime.Propagation<{}, Output, ErrorStatus{body}>",
                only.status
            );
        }
        let mut members: Vec<String> = answers
            .iter()
            .map(|answer| {
                let data = self.data_type(answer, false);
                format!("$runtime.Success<{}, {data}>", answer.status)
            })
            .collect();
        members.push(format!("$runtime.Failure<ErrorStatus{body}>"));
        format!("\n    | {}", members.join("\n    | "))
    }

    fn function_doc(&self, route: &RouteManifest) -> Result<Doc, GenerateError> {
        let mut doc = Doc::new(&route.summary);
        if !route.description.is_empty() {
            doc.blank();
            for line in route.description.lines() {
                doc.line(line);
            }
        }
        transport_notes(route, &mut doc);
        if !doc.is_empty() {
            doc.blank();
        }
        self.doc_tags(route, &mut doc)?;
        Ok(doc)
    }

    /// The tags of a function's doc: its path parameters, credentials,
    /// documented errors, controller and path.
    fn doc_tags(&self, route: &RouteManifest, doc: &mut Doc) -> Result<(), GenerateError> {
        for param in &route.path_params {
            let label = type_label(&param.schema, &self.registry);
            let rest = if param.catch_all {
                ", slashes kept"
            } else {
                ""
            };
            doc.tag("param", &format!("{} `{label}`{rest}", ident(&param.name)));
        }
        for (scheme, optional) in self.model.schemes(route)? {
            let (set, sent) = if optional {
                (
                    " (optional: the route answers without it too)",
                    "When set, sent",
                )
            } else {
                ("", "Sent")
            };
            doc.tag(
                "security",
                &format!(
                    "`connection.security.{}`{set}: {} {sent} as {}.",
                    scheme.name,
                    scheme.description,
                    carrier(&scheme.kind)
                ),
            );
        }
        // The app's own error body is the thrown error's `data` (and the
        // `data` of `propagate`'s failures, see its type).
        let body = self.error_body().map(|body| format!(" (`data`: `{body}`)"));
        for error in &route.errors {
            doc.tag(
                "throws",
                &format!(
                    "{{HttpError}} {} {}{}",
                    error.status,
                    error.description,
                    body.as_deref().unwrap_or_default()
                ),
            );
        }
        doc.tag(
            "controller",
            &format!("{}.{}", route.controller, route.handler),
        );
        doc.tag("path", &format!("{} {}", route.method, route.path));
        Ok(())
    }

    /// What the runtime reads: the keys every route has, and the others
    /// only where a route needs them, so JSON routes read as they did.
    fn metadata(
        &self,
        route: &RouteManifest,
        answers: &[Answer<'_>],
    ) -> Result<Value, GenerateError> {
        let schema = |schema: &framework::schema::Schema, seed: u64| {
            self.runtime_schema(schema, &mut StdRng::seed_from_u64(seed))
        };
        let plain = is_plain_json(route);
        let response = match answers {
            [
                Answer {
                    shape: Shape::Plain(Content::Json(response)),
                    ..
                },
            ] if plain => schema(response, 5),
            _ => Value::Null,
        };
        let mut metadata = json!({
            "method": route.method.as_str(),
            "path": route.path,
            "status": route.status,
            "errors": route.errors.iter().map(|error| error.status).collect::<Vec<_>>(),
            "params": route.path_params.iter().map(|param| json!({
                "name": param.name,
                "schema": schema(&param.schema, 1),
            })).collect::<Vec<_>>(),
            "headers": route.headers.as_ref().map(|headers| schema(headers, 2)),
            "query": route.query.as_ref().map(|query| schema(query, 3)),
            "body": route.body.as_ref().and_then(|body| body.schema.as_ref()).map(|body| schema(body, 4)),
            "response": response,
        });
        let Value::Object(keys) = &mut metadata else {
            return Ok(metadata);
        };
        if let Some(body) = route
            .body
            .as_ref()
            .filter(|body| body.kind != ContentKind::Json)
        {
            keys.insert("encoding".into(), encoding(body.kind).into());
        }
        if let Some(cookies) = &route.cookies {
            keys.insert("cookies".into(), schema(cookies, 6));
        }
        if let Some(security) = self.security_metadata(route)? {
            keys.insert("security".into(), security);
        }
        if !plain {
            let answers = answers
                .iter()
                .map(|answer| answer_metadata(answer, |body| schema(body, 5)))
                .collect();
            keys.insert("answers".into(), Value::Array(answers));
        }
        if let Some(websocket) = &route.websocket {
            let messages = json!({
                "client": schema(&websocket.client, 7),
                "server": schema(&websocket.server, 8),
            });
            keys.insert("websocket".into(), messages);
        }
        if let Some(body) = self.model.error_body() {
            keys.insert("error".into(), schema(body, 9));
        }
        Ok(metadata)
    }

    /// The schemes whose credentials a route sends, each marked when it is
    /// optional; `None` when it sends none.
    fn security_metadata(&self, route: &RouteManifest) -> Result<Option<Value>, GenerateError> {
        let schemes = self.model.schemes(route)?;
        if schemes.is_empty() {
            return Ok(None);
        }
        let schemes = schemes
            .into_iter()
            .map(|(scheme, optional)| {
                let mut scheme = security_metadata(scheme);
                if optional {
                    scheme["optional"] = Value::Bool(true);
                }
                scheme
            })
            .collect();
        Ok(Some(Value::Array(schemes)))
    }

    fn imports(&self, route: &RouteManifest) -> Vec<String> {
        let mut imports: Vec<String> = route_inputs(route)
            .flat_map(refs)
            .map(|id| self.model.type_name(id, Dir::Input))
            .collect();
        imports.extend(
            route_outputs(route)
                .flat_map(refs)
                .map(|id| self.model.type_name(id, Dir::Output)),
        );
        // `propagate`'s failures name the app's error body.
        if let Some(body) = self
            .model
            .error_body()
            .filter(|_| route.websocket.is_none())
        {
            imports.extend(
                refs(body)
                    .into_iter()
                    .map(|id| self.model.type_name(id, Dir::Output)),
            );
        }
        imports
    }
}

/// The template literal of a route's path: parameters URI-encoded, a
/// catch-all's slashes kept.
fn path_expr(route: &RouteManifest, function: &str) -> String {
    let mut path_expr = String::new();
    for segment in route.path.split('/').filter(|segment| !segment.is_empty()) {
        path_expr.push('/');
        if let Some(param) = segment.strip_prefix(':') {
            let name = binding(function, param);
            let _ = write!(path_expr, "${{encodeURIComponent(String({name}))}}");
        } else if let Some(param) = segment.strip_prefix('*') {
            let name = binding(function, param);
            let _ = write!(path_expr, "${{$runtime.encodePath(String({name}))}}");
        } else {
            path_expr.push_str(&template_text(segment));
        }
    }
    if path_expr.is_empty() {
        path_expr.push('/');
    }
    path_expr
}

/// How a body is encoded, as the runtime names it.
fn encoding(kind: ContentKind) -> &'static str {
    match kind {
        ContentKind::Form => "form",
        ContentKind::Multipart => "multipart",
        ContentKind::Text | ContentKind::Html => "text",
        _ => "bytes",
    }
}

/// How a scheme's credential travels, for people.
pub(super) fn carrier(kind: &SecurityKindManifest) -> String {
    match kind {
        SecurityKindManifest::ApiKeyHeader { name } => format!("the `{name}` header"),
        SecurityKindManifest::ApiKeyCookie { name } => format!("the `{name}` cookie"),
        SecurityKindManifest::Authorization { scheme } => format!(
            "`Authorization: {scheme} <token>`: give the bare token, the SDK adds `{scheme} `"
        ),
        _ => "`Authorization: Bearer <token>`".to_owned(),
    }
}

fn security_metadata(scheme: &SecuritySchemeManifest) -> Value {
    match &scheme.kind {
        SecurityKindManifest::ApiKeyHeader { name } => {
            json!({ "name": scheme.name, "in": "header", "key": name })
        }
        SecurityKindManifest::ApiKeyCookie { name } => {
            json!({ "name": scheme.name, "in": "cookie", "key": name })
        }
        SecurityKindManifest::Authorization { scheme: word } => {
            json!({ "name": scheme.name, "in": "authorization", "authScheme": word })
        }
        _ => json!({ "name": scheme.name, "in": "bearer" }),
    }
}

fn answer_metadata(
    answer: &Answer<'_>,
    schema: impl Fn(&framework::schema::Schema) -> Value,
) -> Value {
    let mut out = Map::new();
    out.insert("status".into(), answer.status.into());
    let content = match answer.shape {
        Shape::Redirect => {
            out.insert("kind".into(), "redirect".into());
            return Value::Object(out);
        }
        Shape::Created(content) => {
            out.insert("location".into(), true.into());
            content
        }
        Shape::Plain(content) => content,
    };
    let kind = match content {
        Content::Empty => "empty",
        Content::Json(body) => {
            out.insert("schema".into(), schema(body));
            "json"
        }
        Content::Text => "text",
        Content::Bytes => "bytes",
        Content::Events(data) => {
            out.insert("schema".into(), schema(data));
            "events"
        }
    };
    out.insert("kind".into(), kind.into());
    Value::Object(out)
}
