//! One route as a method of the Rust client: its parameters, the steps
//! that build the request, and how each answer is read.

use std::collections::BTreeSet;

use framework::{
    ContentKind,
    manifest::{RouteManifest, SecurityKindManifest, SecuritySchemeManifest},
    schema::{Schema, TypeKind},
};

use super::{RustGen, doc_comment, holds_files, may_be_absent, pascal, snake, unique};
use crate::{
    GenerateError,
    answer::{Answer, Content, Shape, answers, is_plain_json, statuses, streams_bytes},
};

/// What the `lib.rs` template writes for one route.
pub(super) struct Method {
    pub(super) doc: String,
    pub(super) name: String,
    pub(super) params: String,
    pub(super) method: String,
    pub(super) segments: String,
    pub(super) steps: Vec<String>,
    /// `None`, or the expression of the query string.
    pub(super) query: &'static str,
    pub(super) status: u16,
    pub(super) errors: String,
    pub(super) output: String,
    /// For a route answering one JSON (or empty) body: how it is read.
    pub(super) decode: &'static str,
    /// For the other routes: one `status => read,` per answer.
    pub(super) arms: Vec<String>,
    /// The enum of a route with several answers, in `mod answers`.
    pub(super) answer_enum: String,
    /// The route's one answer is server-sent events, read as they arrive.
    pub(super) events: bool,
    /// The route is a WebSocket: the method opens a `Socket`.
    pub(super) websocket: bool,
    /// The route answers a file: a `..._stream` method reads it as it
    /// arrives, for any of its success `statuses` (`200, 206, 304`).
    pub(super) streams: bool,
    pub(super) statuses: String,
}

/// The request a method builds, before it is sent.
struct Request {
    params: Vec<String>,
    steps: Vec<String>,
    query: &'static str,
}

impl RustGen<'_, '_> {
    pub(super) fn method(
        &self,
        function: &str,
        route: &RouteManifest,
    ) -> Result<Method, GenerateError> {
        let request = self.request(route)?;
        let answers = answers(route);
        let plain = is_plain_json(route);
        let enum_name = pascal(&route.operation_id);
        let events = match answers.as_slice() {
            [only] if only.status == route.status => match only.shape {
                Shape::Plain(Content::Events(schema)) => Some(schema),
                _ => None,
            },
            _ => None,
        };
        let (output, arms, answer_enum) = if let Some(websocket) = &route.websocket {
            let output = format!(
                "crate::Socket<{}, {}>",
                self.type_of(&websocket.client, None),
                self.type_of(&websocket.server, None)
            );
            (output, Vec::new(), String::new())
        } else if let Some(schema) = events {
            let output = format!("crate::EventStream<{}>", self.type_of(schema, None));
            (output, Vec::new(), String::new())
        } else if plain {
            let output = match answers.first().map(|answer| answer.shape) {
                Some(Shape::Plain(Content::Json(schema))) => self.type_of(schema, None),
                _ => "()".to_owned(),
            };
            (output, Vec::new(), String::new())
        } else if let [only] = answers.as_slice() {
            let arm = format!("{} => {},", only.status, read(only));
            (self.answer_type(only), vec![arm], String::new())
        } else {
            let (decl, arms) = self.answer_enum(route, &enum_name, &answers);
            (format!("answers::{enum_name}"), arms, decl)
        };
        Ok(Method {
            doc: doc_comment(&self.method_doc(route, &answers)?, "    "),
            name: snake(function),
            params: request.params.join(", "),
            method: route.method.as_str().to_owned(),
            segments: segments(route),
            steps: request.steps,
            query: request.query,
            status: route.status,
            errors: route
                .errors
                .iter()
                .map(|error| error.status.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            output,
            decode: match answers.first().map(|answer| answer.shape) {
                Some(Shape::Plain(Content::Json(_))) => "crate::decode",
                _ => "crate::empty",
            },
            arms,
            answer_enum,
            events: events.is_some() && route.websocket.is_none(),
            websocket: route.websocket.is_some(),
            streams: streams_bytes(&answers),
            statuses: statuses(&answers, ", "),
        })
    }

    /// The parameters and the steps that put them in the request.
    fn request(&self, route: &RouteManifest) -> Result<Request, GenerateError> {
        let mut params = Vec::new();
        for param in &route.path_params {
            let ty = self.param_type(&param.schema);
            params.push(format!("{}: {ty}", snake(&param.name)));
        }
        let mut steps = Vec::new();
        if let Some(schema) = &route.headers {
            params.push(format!("headers: &{}", self.type_of(schema, None)));
            steps.push("let request = crate::headers(request, headers)?;".to_owned());
        }
        let mut query = "None";
        if let Some(schema) = &route.query {
            params.push(format!("query: &{}", self.type_of(schema, None)));
            query = "Some(&crate::query(query)?)";
        }
        if let Some(schema) = &route.cookies {
            params.push(format!("cookies: &{}", self.type_of(schema, None)));
        }
        for header in &route.header_params {
            let ident = snake(&header.name);
            params.push(format!("{ident}: Option<&str>"));
            steps.push(format!(
                "let request = crate::header_param(request, {:?}, {ident})?;",
                header.name
            ));
        }
        steps.extend(self.credential_steps(route)?);
        if let Some(body) = &route.body {
            let (param, step) = match (body.kind, &body.schema) {
                (ContentKind::Json, Some(schema)) => (
                    format!("input: &{}", self.type_of(schema, None)),
                    "crate::body(request, input)?",
                ),
                (ContentKind::Form, Some(schema)) => (
                    format!("input: &{}", self.type_of(schema, None)),
                    "crate::form(request, input)?",
                ),
                (ContentKind::Multipart, Some(schema)) => {
                    params.push(format!("input: &{}", self.type_of(schema, None)));
                    steps.extend(self.multipart_steps(schema));
                    return Ok(Request {
                        params,
                        steps,
                        query,
                    });
                }
                (ContentKind::Text | ContentKind::Html, _) => {
                    ("input: &str".to_owned(), "crate::text(request, input)")
                }
                _ => (
                    "input: impl Into<crate::Bytes>".to_owned(),
                    "crate::octets(request, input.into())",
                ),
            };
            params.push(param);
            steps.push(format!("let request = {step};"));
        }
        Ok(Request {
            params,
            steps,
            query,
        })
    }

    /// The steps that send a multipart form: each file a part, each text
    /// value a part named as serde_qs names it (`author[name]`, `tags[0]`).
    fn multipart_steps(&self, schema: &Schema) -> Vec<String> {
        let mut steps = vec!["let mut form = reqwest::multipart::Form::new();".to_owned()];
        let object = match schema {
            Schema::Ref(id) => match &self.model.manifest.types[id.0].def.kind {
                TypeKind::Object(object) => Some(object),
                _ => None,
            },
            _ => None,
        };
        let mut taken = BTreeSet::new();
        for field in object
            .map(|object| object.fields.as_slice())
            .unwrap_or_default()
        {
            // The struct's field, as `fields` names it.
            let ident = unique(snake(&field.name), &mut taken);
            let name = &field.name;
            let optional = may_be_absent(field);
            let step = match (&field.schema, optional) {
                (Schema::File(_), false) => {
                    format!("form = crate::form_file(form, {name:?}, &input.{ident}).await?;")
                }
                (Schema::File(_), true) => format!(
                    "if let Some(file) = &input.{ident} {{ form = crate::form_file(form, {name:?}, file).await?; }}"
                ),
                (Schema::Array(_), _) if holds_files(&field.schema) => {
                    let files = if optional {
                        format!("input.{ident}.iter().flatten()")
                    } else {
                        format!("&input.{ident}")
                    };
                    format!(
                        "for file in {files} {{ form = crate::form_file(form, {name:?}, file).await?; }}"
                    )
                }
                (_, false) => format!("form = crate::form_text(form, {name:?}, &input.{ident})?;"),
                (_, true) => format!(
                    "if let Some(value) = &input.{ident} {{ form = crate::form_text(form, {name:?}, value)?; }}"
                ),
            };
            steps.push(step);
        }
        steps.push("let request = request.multipart(form);".to_owned());
        steps
    }

    /// The steps that send the route's credentials and cookies: those it
    /// needs (`Error::MissingCredential` without them), then those of its
    /// optional guards when the client has them.
    fn credential_steps(&self, route: &RouteManifest) -> Result<Vec<String>, GenerateError> {
        let mut steps = Vec::new();
        let mut cookies = Vec::new();
        if route.cookies.is_some() {
            cookies.push("crate::cookie_pairs(cookies)?".to_owned());
        }
        for (scheme, optional) in self.model.schemes(route)? {
            let field = format!("client.credentials.{}", snake(&scheme.name));
            let (mut send, is_cookie) = send_credential(scheme, &field);
            if optional {
                let skipped = if is_cookie { "Vec::new()" } else { "request" };
                send = format!("if {field}.is_some() {{ {send} }} else {{ {skipped} }}");
            }
            if is_cookie {
                cookies.push(send);
            } else {
                steps.push(format!("let request = {send};"));
            }
        }
        if !cookies.is_empty() {
            steps.push(format!(
                "let request = crate::cookie_header(request, &[{}].concat());",
                cookies.join(", ")
            ));
        }
        Ok(steps)
    }

    /// The type a method answers for one answer.
    fn answer_type(&self, answer: &Answer<'_>) -> String {
        let content = |content: Content<'_>| match content {
            Content::Empty => "()".to_owned(),
            Content::Json(schema) => self.type_of(schema, None),
            Content::Text => "String".to_owned(),
            Content::Bytes if answer.headers => "crate::Download".to_owned(),
            Content::Bytes | Content::Events(_) => "crate::Bytes".to_owned(),
        };
        match answer.shape {
            Shape::Plain(body) => content(body),
            Shape::Redirect => "crate::Redirect".to_owned(),
            Shape::Created(body) => format!("crate::Created<{}>", content(body)),
        }
    }

    /// The enum of a route's answers, and the match arm of each.
    fn answer_enum(
        &self,
        route: &RouteManifest,
        name: &str,
        answers: &[Answer<'_>],
    ) -> (String, Vec<String>) {
        let mut body = String::new();
        let mut arms = Vec::new();
        let mut taken = BTreeSet::new();
        for answer in answers {
            let variant = match answer.variant {
                Some(variant) => pascal(variant),
                None => format!("Status{}", answer.status),
            };
            let variant = unique(variant, &mut taken);
            let description = route
                .responses
                .iter()
                .find(|response| response.status == answer.status)
                .map_or("", |response| response.description.as_str());
            body.push_str(&doc_comment(
                &format!("{description}\n\nHTTP {}.", answer.status),
                "    ",
            ));
            let read = read(answer);
            if answer.shape == Shape::Plain(Content::Empty) {
                body.push_str(&format!("    {variant},\n"));
                arms.push(format!(
                    "{} => {read}.map(|()| answers::{name}::{variant}),",
                    answer.status
                ));
            } else {
                let ty = self.answer_type(answer);
                body.push_str(&format!("    {variant}({ty}),\n"));
                arms.push(format!(
                    "{} => {read}.map(answers::{name}::{variant}),",
                    answer.status
                ));
            }
        }
        let doc = doc_comment(
            &format!(
                "What `{}` answers on success, by status.",
                route.operation_id
            ),
            "",
        );
        let decl =
            format!("{doc}#[derive(Clone, Debug, PartialEq)]\npub enum {name} {{\n{body}}}\n");
        (decl, arms)
    }

    fn method_doc(
        &self,
        route: &RouteManifest,
        answers: &[Answer<'_>],
    ) -> Result<String, GenerateError> {
        let mut doc = route.summary.clone();
        if !route.description.is_empty() {
            doc.push_str("\n\n");
            doc.push_str(&route.description);
        }
        doc.push_str(&format!("\n\n`{} {}`", route.method, route.path));
        if let Some(websocket) = &route.websocket {
            doc.push_str(&format!(
                "\n\nOpens a WebSocket ([`Socket`]): the client sends [`{}`] messages and receives [`{}`] ones. The server closes it with `1007` for a message it refuses, `1009` for one over its size limit, `1001` when it is idle or shuts down ([`Error::Closed`]).",
                self.type_of(&websocket.client, None),
                self.type_of(&websocket.server, None)
            ));
        }
        if answers.iter().any(|answer| answer.shape == Shape::Redirect) {
            doc.push_str("\n\nA redirect is answered, not followed.");
        }
        if route.cookies.is_some() {
            doc.push_str("\n\n`cookies` are sent in one `Cookie` header.");
        }
        for header in &route.header_params {
            doc.push_str(&format!(
                "\n\n`{}`: the `{}` header, sent when it is `Some`. {}",
                snake(&header.name),
                header.name,
                header.description
            ));
        }
        for (scheme, optional) in self.model.schemes(route)? {
            let (name, method) = (&scheme.name, credential_method(scheme));
            doc.push_str(&if optional {
                format!(
                    "\n\nSends the `{name}` credential when the client has it ([`ClientBuilder::{method}`]), and is answered without it too: {}",
                    scheme.description
                )
            } else {
                format!(
                    "\n\nNeeds the `{name}` credential ([`ClientBuilder::{method}`]): {}",
                    scheme.description
                )
            });
        }
        if !route.errors.is_empty() || !route.security.is_empty() {
            doc.push_str(&self.errors_doc(route));
        }
        Ok(doc)
    }

    /// The `# Errors` section of a method's doc.
    fn errors_doc(&self, route: &RouteManifest) -> String {
        let mut doc = String::from("\n\n# Errors\n");
        if !route.security.is_empty() {
            doc.push_str("- [`Error::MissingCredential`] before sending, without the credential\n");
        }
        // With the app's own error contract, its body is `Error::body`.
        let body = if self.model.error_body().is_some() {
            " ([`ErrorBody`])"
        } else {
            ""
        };
        for error in &route.errors {
            doc.push_str(&format!(
                "- [`Error::Api`] {}{body}: {}\n",
                error.status, error.description
            ));
        }
        if route.websocket.is_some() {
            doc.push_str(
                "- [`Error::UnexpectedStatus`], [`Error::WebSocket`], [`Error::Transport`] otherwise",
            );
        } else {
            doc.push_str(
                "- [`Error::UnexpectedStatus`], [`Error::InvalidBody`], [`Error::Transport`] otherwise",
            );
        }
        doc
    }
}

/// The method of [`ClientBuilder`] that sets a scheme's credential:
/// `moderator_token` for a token in `Authorization` (`Bearer` or another
/// scheme), `session_key` for an API key.
pub(super) fn credential_method(scheme: &SecuritySchemeManifest) -> String {
    let suffix = match scheme.kind {
        SecurityKindManifest::Bearer | SecurityKindManifest::Authorization { .. } => "_token",
        _ => "_key",
    };
    // `api_token` gives `api_token`, not `api_token_token`.
    let name = snake(&scheme.name);
    if name.ends_with(suffix) {
        name
    } else {
        name + suffix
    }
}

/// The URL's segments: literal ones quoted, parameters percent-encoded (a
/// catch-all's slashes kept).
fn segments(route: &RouteManifest) -> String {
    let mut segments = Vec::new();
    for segment in route.path.split('/').filter(|segment| !segment.is_empty()) {
        if let Some(name) = segment.strip_prefix(':') {
            segments.push(format!("crate::segment(&{}).as_str()", snake(name)));
        } else if let Some(name) = segment.strip_prefix('*') {
            segments.push(format!("crate::segments(&{}).as_str()", snake(name)));
        } else {
            segments.push(format!("{segment:?}"));
        }
    }
    segments.join(", ")
}

/// How an answer of `shape` is read from `answer`.
fn read(answer: &Answer<'_>) -> String {
    let content = |content: Content<'_>| match content {
        Content::Empty => "crate::Answer::empty",
        Content::Json(_) => "crate::Answer::json",
        Content::Text => "crate::Answer::text",
        Content::Bytes if answer.headers => "crate::Answer::download",
        // Events among other answers are read whole, as bytes.
        Content::Bytes | Content::Events(_) => "crate::Answer::bytes",
    };
    match answer.shape {
        Shape::Plain(body) => format!("{}(answer)", content(body)),
        Shape::Redirect => "answer.redirect()".to_owned(),
        Shape::Created(body) => format!("answer.created({})", content(body)),
    }
}

/// The expression that sends `scheme`'s credential (the client's `field`),
/// failing with `Error::MissingCredential` without it: a request builder,
/// or (`true`) the cookie pairs to send.
fn send_credential(scheme: &SecuritySchemeManifest, field: &str) -> (String, bool) {
    let name = &scheme.name;
    match &scheme.kind {
        SecurityKindManifest::ApiKeyHeader { name: header } => (
            format!("crate::api_key(request, {header:?}, {name:?}, &{field})?"),
            false,
        ),
        SecurityKindManifest::ApiKeyCookie { name: cookie } => (
            format!(
                "vec![({cookie:?}.to_owned(), crate::credential({name:?}, &{field})?.to_owned())]"
            ),
            true,
        ),
        // The word is an RFC 9110 token (`SecurityMeta::authorization`
        // checks): no quote, backslash or brace to escape.
        SecurityKindManifest::Authorization { scheme: word } => (
            format!("crate::authorization(request, {word:?}, {name:?}, &{field})?"),
            false,
        ),
        _ => (
            format!("crate::bearer(request, {name:?}, &{field})?"),
            false,
        ),
    }
}
