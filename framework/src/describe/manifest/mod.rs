//! The API manifest: every route of an app with its schemas resolved into one
//! set of named types. The OpenAPI document is converted from it, and an app
//! exports it as JSON (`app manifest`) for `sdk-gen`, so the SDKs are made
//! from exactly what the router and the validators use.
//!
//! Built from routes' descriptions ([`RouteMeta`]) alone; routes that
//! cannot make one manifest are refused with a [`ManifestError`]. Where a
//! `File` may stand is checked with the multipart reader's own reading of
//! a form's schema (`multipart/layout.rs`, which names only `schema`), so
//! the check and the reader cannot disagree.
//!
#![doc = include_str!("../../docs/sdks.md")]

mod blessed;
mod diff;
mod error;
mod names;

use std::collections::BTreeMap;

use http::StatusCode;
use serde::{Deserialize, Serialize};

pub use blessed::assert_compatible;
pub use diff::{Change, ManifestDiff, RouteRef, Rule, Severity, diff};
pub use error::ManifestError;
pub(crate) use names::NamePrefix;

use super::{ContentKind, HttpMethod, InputKind, RouteMeta, SecurityKind, SecurityMeta};
pub use super::{ContentManifest, HeaderManifest, ResponseManifest};
use crate::error::{
    AnswersErrors,
    refusal::{self, Refusal},
};
use crate::{
    multipart::layout::misplaced_file,
    schema::{DefId, Registry, Schema, TypeDef, apply_tags},
};

/// The version of the manifest's JSON form; `sdk-gen` refuses others.
pub const MANIFEST_VERSION: u32 = 2;

/// The name of the framework's error body, reserved among type names.
pub const PROBLEM_TYPE: &str = "Problem";

/// Everything an SDK or a document needs to know about an app's API.
///
/// ```
/// use framework::prelude::*;
/// use framework::manifest::ApiManifest;
///
/// #[dto]
/// struct Note { #[tags(max_length = 280)] text: String }
///
/// struct Notes;
///
/// #[controller("notes")]
/// impl Notes {
///     /// Post a note.
///     #[typed_route::post("", errors(409 = "a note with this text exists"))]
///     async fn create(&self, body: TypedBody<Note>) -> Note { body.into_inner() }
/// }
///
/// let app = App::builder().controller(Notes).build().unwrap();
/// let manifest = app.manifest();
/// let create = &manifest.routes[0];
/// assert_eq!(create.accessor, ["notes", "create"]);
/// assert_eq!(manifest.types[0].name, "Note");
/// let statuses: Vec<u16> = create.errors.iter().map(|error| error.status).collect();
/// assert_eq!(statuses, [400, 403, 408, 409, 413, 415]);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiManifest {
    /// [`MANIFEST_VERSION`] when written.
    pub manifest_version: u32,
    /// The API's title.
    pub title: String,
    /// The API's version.
    pub version: String,
    /// The API's description.
    pub description: Option<String>,
    /// Every named type, indexed by [`DefId`].
    pub types: Vec<NamedType>,
    /// Every route, in the order the app serves them.
    pub routes: Vec<RouteManifest>,
    /// Every credential a route's guard checks, by name.
    pub security_schemes: Vec<SecuritySchemeManifest>,
    /// The body of every error answer when the app declares its own error
    /// contract ([`ErrorContract`](crate::ErrorContract)); `None` for the
    /// framework's problem document (`application/problem+json`,
    /// [`PROBLEM_TYPE`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_body: Option<ContentManifest>,
    /// The API version this manifest describes, when the app serves
    /// several ([`Versions`](crate::Versions)): the SDKs send it on every
    /// request. `None` for an app without versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<VersionManifest>,
}

/// The version of an app's API a manifest describes, and how a client
/// names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionManifest {
    /// The header a client names its version in: `api-version`.
    pub header: String,
    /// This version: `2.0.0`.
    pub version: String,
    /// Whether a request without the header is served this version.
    pub default: bool,
    /// Every version the app serves, oldest first.
    pub served: Vec<String>,
}

/// A kind of credential, declared by the guards that check it
/// ([`SecurityMeta`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecuritySchemeManifest {
    /// The scheme's name; routes' [`RouteManifest::security`] name it.
    pub name: String,
    /// How the credential travels.
    pub kind: SecurityKindManifest,
    /// What it is, for people.
    pub description: String,
}

/// How a credential travels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
#[non_exhaustive]
pub enum SecurityKindManifest {
    /// `Authorization: Bearer <token>`.
    Bearer,
    /// A header named `name` carries the key.
    ApiKeyHeader {
        /// The header's name.
        name: String,
    },
    /// A cookie named `name` carries the key.
    ApiKeyCookie {
        /// The cookie's name.
        name: String,
    },
    /// `Authorization: <scheme> <credentials>` for a scheme other than
    /// `Bearer`, e.g. `Token`: the SDKs take the credentials and add the
    /// scheme's word.
    Authorization {
        /// The scheme's word: `Token`.
        scheme: String,
    },
}

impl From<&SecurityMeta> for SecuritySchemeManifest {
    fn from(meta: &SecurityMeta) -> Self {
        let kind = match meta.kind {
            SecurityKind::Bearer => SecurityKindManifest::Bearer,
            SecurityKind::ApiKeyHeader { name } => SecurityKindManifest::ApiKeyHeader {
                name: name.to_owned(),
            },
            SecurityKind::ApiKeyCookie { name } => SecurityKindManifest::ApiKeyCookie {
                name: name.to_owned(),
            },
            SecurityKind::Authorization { scheme } => SecurityKindManifest::Authorization {
                scheme: scheme.to_owned(),
            },
        };
        SecuritySchemeManifest {
            name: meta.name.to_owned(),
            kind,
            description: meta.description.to_owned(),
        }
    }
}

/// A named type with the identifier documents and SDKs call it by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NamedType {
    /// An identifier made of the type's name: `Page_ArticleSummary` for
    /// `Page<ArticleSummary>`. Unique within the manifest.
    pub name: String,
    /// The definition.
    pub def: TypeDef,
}

/// One route, resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RouteManifest {
    /// The OpenAPI `operationId`: the route's `operation_id = ".."` as
    /// written, else [`RouteManifest::accessor`] joined by dots
    /// (`bbs.articles.update`). Unique within the manifest.
    pub operation_id: String,
    /// Where SDKs put the function (`api.functional.bbs.articles.update`):
    /// the path's literal segments less the app's name prefix, then the
    /// function's name (the route's `operation_id`, else the handler's),
    /// the last segment left out when it names the handler or the function
    /// (`POST /users/login` handled by `login` is `users.login`). The
    /// rules in full: [`typed_route`](crate::typed_route#names-operation-ids-and-sdk-functions).
    pub accessor: Vec<String>,
    /// The controller's type name.
    pub controller: String,
    /// The handler's name.
    pub handler: String,
    /// The HTTP method.
    pub method: HttpMethod,
    /// The path as written: `/bbs/articles/:section/:id`.
    pub path: String,
    /// The path parameters, in path order, with their tags applied.
    pub path_params: Vec<ParamManifest>,
    /// The query's schema (a named object), if the route reads one.
    pub query: Option<Schema>,
    /// The headers' schema (a named object), if the route reads them.
    pub headers: Option<Schema>,
    /// Optional headers its extractors read by themselves
    /// ([`InputMeta::header`](crate::InputMeta::header): `Last-Event-ID`),
    /// which the SDKs send on their own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub header_params: Vec<HeaderManifest>,
    /// The cookies' schema (a named object), if the route reads them.
    pub cookies: Option<Schema>,
    /// The body, if the route reads one.
    pub body: Option<BodyManifest>,
    /// The messages of a WebSocket route: the route's `GET` is a handshake
    /// that turns the connection into a socket (`101`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub websocket: Option<WebSocketManifest>,
    /// The success status the route declares (see
    /// [`RouteMeta::status`]); [`RouteManifest::responses`] has every
    /// answer.
    pub status: u16,
    /// Every answer that is not an error document, by status.
    pub responses: Vec<ResponseManifest>,
    /// Every error response, by status: the framework's own (400 for a
    /// refused input, 413 and 415 for bodies), the guards' and the
    /// handler's. Their body is always [`crate::Problem`].
    pub errors: Vec<ErrorManifest>,
    /// The security schemes whose credential the route needs (all of them).
    pub security: Vec<String>,
    /// The security schemes of its optional guards (`Option<G>`): their
    /// credential is sent when the caller has it, and the route serves
    /// callers without it too. None of them is in
    /// [`security`](Self::security).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional_security: Vec<String>,
    /// Whether SDKs include the route.
    pub sdk: bool,
    /// First paragraph of the handler's doc comment.
    pub summary: String,
    /// The rest of the doc comment.
    pub description: String,
}

/// A path parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamManifest {
    /// Its name in the path.
    pub name: String,
    /// Its schema, constraints included.
    pub schema: Schema,
    /// Whether it takes the rest of the path, slashes included (`*path`);
    /// SDKs leave its slashes unencoded.
    pub catch_all: bool,
}

/// A request body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyManifest {
    /// How it is encoded.
    pub kind: ContentKind,
    /// Its media type.
    pub media_type: String,
    /// Its schema; `None` for bytes.
    pub schema: Option<Schema>,
}

/// The messages a WebSocket route carries: each is one JSON text message
/// of its schema.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WebSocketManifest {
    /// What the client sends.
    pub client: Schema,
    /// What the server sends.
    pub server: Schema,
}

/// An error response a route documents. Its body is always the
/// framework's problem document ([`crate::Problem`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorManifest {
    /// The HTTP status.
    pub status: u16,
    /// When it happens.
    pub description: String,
}

/// Which of a route's refusals its app never answers (by its settings).
pub(crate) type Unanswered<'a> = &'a dyn Fn(&RouteMeta, &Refusal) -> bool;

impl ApiManifest {
    /// Resolves routes' metadata into a manifest, naming every type once.
    ///
    /// # Errors
    /// Two different types whose names make the same identifier.
    pub fn build<'a>(
        title: &str,
        version: &str,
        description: Option<&str>,
        routes: impl IntoIterator<Item = &'a RouteMeta>,
    ) -> Result<ApiManifest, ManifestError> {
        Self::answering(
            title,
            version,
            description,
            routes,
            None,
            &NamePrefix::default(),
            &|_, _| false,
        )
    }

    /// [`ApiManifest::build`] for an app whose errors are answered by
    /// `errors`, its error contract: statuses and the error body as
    /// answered; routes' names leave out `name_prefix`; and which never
    /// answers a route the refusals `unanswered` names (a bypassed route's
    /// `cross_origin_request`).
    pub(crate) fn answering<'a>(
        title: &str,
        version: &str,
        description: Option<&str>,
        routes: impl IntoIterator<Item = &'a RouteMeta>,
        errors: Option<&dyn AnswersErrors>,
        name_prefix: &NamePrefix,
        unanswered: Unanswered<'_>,
    ) -> Result<ApiManifest, ManifestError> {
        let mut registry = Registry::default();
        let mut security_schemes: Vec<SecuritySchemeManifest> = Vec::new();
        let mut routes_out = Vec::new();
        for meta in routes {
            for scheme in meta.inputs.iter().filter_map(|input| input.security) {
                add_scheme(&mut security_schemes, scheme)?;
            }
            let route = RouteManifest::new(meta, &mut registry, errors, name_prefix, unanswered);
            check_files(&route, &registry)?;
            routes_out.push(route);
        }
        names::check_unique(&routes_out)?;
        let error_body = errors.map(|errors| {
            let (media_type, schema) = errors.describe(&mut registry);
            ContentManifest::new(ContentKind::Json, media_type, Some(schema))
        });
        let types = named_types(&registry)?;
        Ok(ApiManifest {
            manifest_version: MANIFEST_VERSION,
            title: title.to_owned(),
            version: version.to_owned(),
            description: description.map(str::to_owned),
            types,
            routes: routes_out,
            security_schemes,
            error_body,
            api_version: None,
        })
    }

    /// The definition of a named type.
    ///
    /// # Panics
    /// If `id` is not from this manifest.
    pub fn get(&self, id: DefId) -> &NamedType {
        &self.types[id.0]
    }

    /// The manifest as pretty JSON, deterministic for the same routes.
    pub fn to_json(&self) -> String {
        // Only strings, numbers, booleans, maps and arrays: cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The named types as a [`Registry`], for walking schemas and labelling
    /// them as the server's error reports do.
    pub fn registry(&self) -> Registry {
        Registry::from_defs(self.types.iter().map(|named| named.def.clone()))
    }
}

/// What a route reads, described: its query, headers, cookies, body and
/// WebSocket messages.
#[derive(Default)]
struct Inputs {
    query: Option<Schema>,
    headers: Option<Schema>,
    cookies: Option<Schema>,
    body: Option<BodyManifest>,
    websocket: Option<WebSocketManifest>,
}

impl Inputs {
    /// The inputs of `meta`, their types defined in `registry` in the
    /// order the route reads them.
    fn read(meta: &RouteMeta, registry: &mut Registry) -> Self {
        let mut inputs = Inputs::default();
        for input in meta.inputs {
            if let Some(messages) = input.messages {
                inputs.websocket = Some(WebSocketManifest {
                    client: (messages.client)(registry),
                    server: (messages.server)(registry),
                });
            }
            let schema = input.schema.map(|schema| schema(registry));
            match input.kind {
                InputKind::Body => {
                    inputs.body = input.content.map(|(kind, media_type)| BodyManifest {
                        kind,
                        media_type: media_type.to_owned(),
                        schema,
                    });
                }
                InputKind::Query => inputs.query = schema,
                InputKind::Headers => inputs.headers = schema,
                InputKind::Cookies => inputs.cookies = schema,
                _ => {}
            }
        }
        inputs
    }
}

impl RouteManifest {
    fn new(
        meta: &RouteMeta,
        registry: &mut Registry,
        answers: Option<&dyn AnswersErrors>,
        name_prefix: &NamePrefix,
        unanswered: Unanswered<'_>,
    ) -> Self {
        let path_params = meta
            .path_params
            .iter()
            .map(|param| ParamManifest {
                name: param.name.to_owned(),
                schema: apply_tags((param.schema)(registry), param.tags),
                catch_all: param.catch_all,
            })
            .collect::<Vec<_>>();
        let Inputs {
            query,
            headers,
            cookies,
            body,
            websocket,
        } = Inputs::read(meta, registry);
        let errors = errors(meta, body.as_ref(), answers, unanswered);
        let accessor = names::accessor(meta, name_prefix);
        let (security, optional_security) = security(meta);
        RouteManifest {
            operation_id: names::operation_id(meta, &accessor),
            accessor,
            controller: meta.controller.to_owned(),
            handler: meta.handler.to_owned(),
            method: meta.method,
            path: meta.path.to_owned(),
            path_params,
            query,
            headers,
            header_params: meta
                .inputs
                .iter()
                .filter_map(|input| input.header)
                .map(|header| HeaderManifest::new(header.name, header.description, false))
                .collect(),
            cookies,
            body,
            websocket,
            status: meta.status,
            responses: responses(meta, registry),
            errors,
            security,
            optional_security,
            sdk: meta.sdk,
            summary: meta.summary.to_owned(),
            description: meta.description.to_owned(),
        }
    }

    /// The route in errors: `POST /avatars (Avatars::upload)`.
    fn label(&self) -> String {
        format!(
            "{} {} ({}::{})",
            self.method, self.path, self.controller, self.handler
        )
    }

    /// The path in the router's syntax: `/bbs/articles/{section}/{id}`.
    pub fn router_path(&self) -> String {
        self.path
            .split('/')
            .map(|segment| match segment.strip_prefix([':', '*']) {
                Some(name) => format!("{{{name}}}"),
                None => segment.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The schemes of a route's guards: those it needs, and those of its
/// optional guards that it does not also need; each once, in input order.
fn security(meta: &RouteMeta) -> (Vec<String>, Vec<String>) {
    let (mut required, mut optional) = (Vec::<String>::new(), Vec::<String>::new());
    for input in meta.inputs {
        let Some(scheme) = input.security else {
            continue;
        };
        let list = if input.optional {
            &mut optional
        } else {
            &mut required
        };
        if !list.iter().any(|known| known == scheme.name) {
            list.push(scheme.name.to_owned());
        }
    }
    optional.retain(|name| !required.contains(name));
    (required, optional)
}

/// The handler's answers, by status, with reason phrases where they say
/// nothing; one answer per status (an enum's variants with one status
/// share it: the first is kept).
fn responses(meta: &RouteMeta, registry: &mut Registry) -> Vec<ResponseManifest> {
    let mut answers: Vec<ResponseManifest> = Vec::new();
    for mut answer in (meta.responses)(meta.status, registry) {
        if answers.iter().any(|known| known.status == answer.status) {
            continue;
        }
        if answer.description.is_empty() {
            answer.description = reason(answer.status, "Success").to_owned();
        }
        answers.push(answer);
    }
    answers.sort_by_key(|answer| answer.status);
    answers
}

fn reason(status: u16, otherwise: &'static str) -> &'static str {
    StatusCode::from_u16(status)
        .ok()
        .and_then(|status| status.canonical_reason())
        .unwrap_or(otherwise)
}

/// The framework's refusals the route may answer ([`RouteMeta::refusals`]),
/// then the errors its inputs and handler declare, by status: a declared
/// error's description replaces the refusals' at its status.
fn errors(
    meta: &RouteMeta,
    body: Option<&BodyManifest>,
    answers: Option<&dyn AnswersErrors>,
    unanswered: Unanswered<'_>,
) -> Vec<ErrorManifest> {
    // The status each error is answered with, by the app's contract.
    let answered = |status: u16, refusal: Option<&Refusal>| match answers {
        Some(answers) => StatusCode::from_u16(status)
            .map_or(status, |raised| answers.status(raised, refusal).as_u16()),
        None => status,
    };
    let mut errors: BTreeMap<u16, String> = BTreeMap::new();
    for refused in meta
        .refusals()
        .iter()
        .filter(|refused| refused.per_route() && !unanswered(meta, refused))
    {
        let description = match body {
            // Which media type is the route's own.
            Some(body) if *refused == refusal::UNSUPPORTED_MEDIA_TYPE => {
                let essence = body.media_type.split(';').next().unwrap_or_default();
                format!("The body is not `{essence}`.")
            }
            _ => match answers {
                Some(answers) => answers.description(refused),
                None => refused.problem_description().to_owned(),
            },
        };
        let said = errors
            .entry(answered(refused.status, Some(refused)))
            .or_default();
        if !said.contains(&description) {
            if !said.is_empty() {
                said.push(' ');
            }
            said.push_str(&description);
        }
    }
    let declared = meta
        .inputs
        .iter()
        .flat_map(|input| input.errors.iter().copied())
        .chain((meta.answer_errors)())
        .chain(meta.errors.iter().copied());
    for error in declared {
        let description = if error.description.is_empty() {
            reason(error.status, "Error").to_owned()
        } else {
            error.description.to_owned()
        };
        errors.insert(answered(error.status, None), description);
    }
    errors
        .into_iter()
        .map(|(status, description)| ErrorManifest {
            status,
            description,
        })
        .collect()
}

/// Refuses a route whose inputs or answers hold a `File` where none can
/// travel: files are fields of a `multipart/form-data` body only.
fn check_files(route: &RouteManifest, registry: &Registry) -> Result<(), ManifestError> {
    let inputs = route
        .path_params
        .iter()
        .map(|param| (&param.schema, false))
        .chain(route.query.iter().map(|schema| (schema, false)))
        .chain(route.headers.iter().map(|schema| (schema, false)))
        .chain(route.cookies.iter().map(|schema| (schema, false)))
        .chain(route.body.iter().filter_map(|body| {
            let multipart = body.kind == ContentKind::Multipart;
            body.schema.as_ref().map(|schema| (schema, multipart))
        }));
    let answers = route
        .responses
        .iter()
        .filter_map(|answer| answer.content.as_ref()?.schema.as_ref())
        .map(|schema| (schema, false));
    for (schema, multipart) in inputs.chain(answers) {
        if let Some(reason) = misplaced_file(schema, registry, multipart) {
            return Err(ManifestError::MisplacedFile {
                route: route.label(),
                reason,
            });
        }
    }
    Ok(())
}

/// Adds `scheme`, refusing a second, different scheme with its name.
fn add_scheme(
    schemes: &mut Vec<SecuritySchemeManifest>,
    scheme: &SecurityMeta,
) -> Result<(), ManifestError> {
    let described = SecuritySchemeManifest::from(scheme);
    match schemes.iter().find(|known| known.name == described.name) {
        Some(known) if *known != described => Err(ManifestError::AmbiguousScheme {
            name: described.name,
        }),
        Some(_) => Ok(()),
        None => {
            schemes.push(described);
            Ok(())
        }
    }
}

/// An identifier for every definition, refusing two types with one.
fn named_types(registry: &Registry) -> Result<Vec<NamedType>, ManifestError> {
    let mut taken: BTreeMap<String, &'static str> =
        BTreeMap::from([(PROBLEM_TYPE.to_owned(), "framework::Problem")]);
    let mut types = Vec::new();
    for (_, def) in registry.defs() {
        let name = identifier(&def.name);
        if let Some(first) = taken.get(&name) {
            return Err(ManifestError::AmbiguousName {
                name,
                first,
                second: def.rust_name,
            });
        }
        taken.insert(name.clone(), def.rust_name);
        types.push(NamedType {
            name,
            def: def.clone(),
        });
    }
    Ok(types)
}

/// `Page<ArticleSummary>` -> `Page_ArticleSummary`.
fn identifier(name: &str) -> String {
    let mut identifier = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' => identifier.push(c),
            '<' | ',' => identifier.push('_'),
            _ => {}
        }
    }
    identifier
}

#[cfg(test)]
mod tests {
    use super::{SecurityKindManifest, SecurityMeta, SecuritySchemeManifest, identifier};

    /// The JSON of every kind: those before `authorization` keep theirs.
    #[test]
    fn security_kinds_keep_their_json() {
        let json = |meta: &SecurityMeta| {
            serde_json::to_value(SecuritySchemeManifest::from(meta).kind).unwrap()
        };
        assert_eq!(
            json(&SecurityMeta::bearer("b", "")),
            serde_json::json!({ "type": "bearer" })
        );
        assert_eq!(
            json(&SecurityMeta::new(
                "k",
                super::SecurityKind::ApiKeyHeader { name: "x-key" },
                ""
            )),
            serde_json::json!({ "type": "api_key_header", "name": "x-key" })
        );
        let token = json(&SecurityMeta::authorization("t", "Token", ""));
        assert_eq!(
            token,
            serde_json::json!({ "type": "authorization", "scheme": "Token" })
        );
        assert_eq!(
            serde_json::from_value::<SecurityKindManifest>(token).unwrap(),
            SecurityKindManifest::Authorization {
                scheme: "Token".to_owned()
            }
        );
    }

    #[test]
    fn identifiers_are_made_of_names() {
        assert_eq!(identifier("Page<ArticleSummary>"), "Page_ArticleSummary");
        assert_eq!(identifier("Pair<u32, Vec<String>>"), "Pair_u32_Vec_String");
    }
}
