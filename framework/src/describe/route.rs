//! What a typed route is ([`RouteMeta`]): its method, path, parameters,
//! inputs, answers and documented errors, produced by `#[controller]` at
//! compile time. The single description of a route that the router, the
//! extractors, the OpenAPI document and the SDK generator all read.

use std::fmt;

use super::{InputMeta, ResponseManifest, SchemaFn, VersionRange};
use crate::error::refusal::{self, Refusal};

/// The HTTP method of a typed route.
///
/// ```
/// use framework::HttpMethod;
/// assert_eq!(HttpMethod::Put.as_str(), "PUT");
/// assert_eq!(HttpMethod::from_http(&http::Method::PATCH), Some(HttpMethod::Patch));
/// assert_eq!(HttpMethod::Patch.to_http(), http::Method::PATCH);
/// ```
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum HttpMethod {
    /// `GET`
    Get,
    /// `POST`
    Post,
    /// `PUT`
    Put,
    /// `PATCH`
    Patch,
    /// `DELETE`
    Delete,
}

impl HttpMethod {
    /// Every method a typed route can have, in a stable order.
    pub const ALL: [HttpMethod; 5] = [
        HttpMethod::Get,
        HttpMethod::Post,
        HttpMethod::Put,
        HttpMethod::Patch,
        HttpMethod::Delete,
    ];

    /// The upper-case name, as on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
            HttpMethod::Put => "PUT",
            HttpMethod::Patch => "PATCH",
            HttpMethod::Delete => "DELETE",
        }
    }

    /// The method of an incoming request, if a typed route can have it.
    /// `HEAD` is answered by the `GET` route of the same path.
    pub fn from_http(method: &http::Method) -> Option<Self> {
        Some(match *method {
            http::Method::GET | http::Method::HEAD => HttpMethod::Get,
            http::Method::POST => HttpMethod::Post,
            http::Method::PUT => HttpMethod::Put,
            http::Method::PATCH => HttpMethod::Patch,
            http::Method::DELETE => HttpMethod::Delete,
            _ => return None,
        })
    }

    /// The method as `http` names it.
    pub fn to_http(self) -> http::Method {
        match self {
            HttpMethod::Get => http::Method::GET,
            HttpMethod::Post => http::Method::POST,
            HttpMethod::Put => http::Method::PUT,
            HttpMethod::Patch => http::Method::PATCH,
            HttpMethod::Delete => http::Method::DELETE,
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for HttpMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A path parameter of a route, in the order it appears in the path.
#[derive(Clone, Copy, Debug)]
pub struct PathParamMeta {
    /// The name written after `:` in the path.
    pub name: &'static str,
    /// Its constraints: `#[param] #[tags(min_length = 3)] section: String`.
    pub tags: &'static [crate::schema::Tag],
    /// Its type's schema.
    pub schema: SchemaFn,
    /// Whether it is a catch-all (`*path`): the rest of the path, slashes
    /// included.
    pub catch_all: bool,
}

/// An error a route documents: `errors(403 = "wrong password", 404)` in its
/// route attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorMeta {
    /// The HTTP status.
    pub status: u16,
    /// When it happens; empty for the status's reason phrase.
    pub description: &'static str,
}

impl ErrorMeta {
    /// An error with `status`, happening when `description` says.
    pub const fn new(status: u16, description: &'static str) -> Self {
        ErrorMeta {
            status,
            description,
        }
    }
}

/// Everything known about one typed route, produced by `#[controller]` at
/// compile time and never written by hand.
///
/// ```
/// use framework::prelude::*;
///
/// struct Greeter;
///
/// #[controller("greetings")]
/// impl Greeter {
///     /// Say hello.
///     ///
///     /// Answers with the name it was given.
///     #[typed_route::get(":name")]
///     async fn hello(&self, #[param] name: String) -> String {
///         format!("hello {name}")
///     }
/// }
///
/// let routes = <Greeter as Controller>::routes();
/// let meta = routes[0].meta();
/// assert_eq!(meta.path, "/greetings/:name");
/// assert_eq!(meta.router_path, "/greetings/{name}");
/// assert_eq!(meta.method, HttpMethod::Get);
/// assert_eq!(meta.summary, "Say hello.");
/// assert_eq!(meta.description, "Answers with the name it was given.");
/// ```
#[derive(Debug)]
pub struct RouteMeta {
    /// The controller's type name, e.g. `BbsArticlesController`.
    pub controller: &'static str,
    /// The handler's name; the SDKs name their functions after it unless
    /// the route sets [`RouteMeta::operation_id`].
    pub handler: &'static str,
    /// The name the route attribute gives the route
    /// (`operation_id = "signIn"`): its OpenAPI `operationId`, as written,
    /// and its SDK function's name in place of the handler's (see
    /// [`RouteManifest::accessor`](crate::manifest::RouteManifest::accessor)).
    /// `None` names the route after its path and handler.
    pub operation_id: Option<&'static str>,
    /// The HTTP method.
    pub method: HttpMethod,
    /// The path as written, nestia style: `/bbs/articles/:section/:id`.
    pub path: &'static str,
    /// The same path in the router's syntax: `/bbs/articles/{section}/{id}`.
    pub router_path: &'static str,
    /// The path parameters, in path order.
    pub path_params: &'static [PathParamMeta],
    /// What the handler's other arguments read from the request.
    pub inputs: &'static [InputMeta],
    /// The success status: the route's `status = ..`, else its answer's own
    /// (`204` for `()`), else `201` for `post` and `200` otherwise.
    pub status: u16,
    /// Describes every answer of the handler's return type
    /// (`<R as IntoResponse>::describe`), given [`RouteMeta::status`].
    pub responses: ResponsesFn,
    /// The errors the route attribute documents (`errors(409 = "..")`; the
    /// framework's refusals come from [`RouteMeta::refusals`]).
    pub errors: &'static [ErrorMeta],
    /// The errors the handler's answer type documents of its own (a
    /// `Result<T, E>`'s [`HandlerError`](crate::HandlerError)):
    /// `<R as IntoResponse>::errors`.
    pub answer_errors: fn() -> Vec<ErrorMeta>,
    /// First paragraph of the handler's doc comment.
    pub summary: &'static str,
    /// The rest of the handler's doc comment.
    pub description: &'static str,
    /// Whether the SDKs include this route (`sdk = false` leaves out, e.g.,
    /// HTML pages).
    pub sdk: bool,
    /// Whether an app's MCP endpoint may offer this route as a tool
    /// (`mcp = false` keeps it for people only, as nestia's `HumanRoute`;
    /// see `framework::Mcp`, with the `mcp` feature).
    pub mcp: bool,
    /// The API versions the route serves: its `versions = ..` within its
    /// controller's ([`VersionRange::ALL`] when neither says). An app that
    /// serves versions ([`Versions`](crate::Versions)) routes a request to
    /// the route of its path and method whose range holds the request's
    /// version.
    pub versions: VersionRange,
}

/// Describes a route's answers: `<R as IntoResponse>::describe`.
pub type ResponsesFn = fn(u16, &mut crate::schema::Registry) -> Vec<ResponseManifest>;

impl RouteMeta {
    /// A `GET` route the framework serves itself (the OpenAPI document, the
    /// docs page, health, metrics): no inputs, described by nothing, in no
    /// SDK.
    pub(crate) const fn framework_get(
        handler: &'static str,
        path: &'static str,
        router_path: &'static str,
    ) -> RouteMeta {
        RouteMeta {
            controller: "framework",
            handler,
            operation_id: None,
            method: HttpMethod::Get,
            path,
            router_path,
            path_params: &[],
            inputs: &[],
            status: 200,
            responses: |_, _| Vec::new(),
            errors: &[],
            answer_errors: Vec::new,
            summary: "",
            description: "",
            sdk: false,
            mcp: false,
            versions: VersionRange::ALL,
        }
    }

    /// Whether any input of this route reads the request body.
    pub fn reads_body(&self) -> bool {
        self.inputs.iter().any(|input| input.reads_body)
    }

    /// `Controller::handler`, the name used in logs and conflict reports.
    pub fn qualified_name(&self) -> String {
        format!("{}::{}", self.controller, self.handler)
    }

    /// Every refusal of the framework's that this route may answer, each
    /// once, in declaration order: its path parameters' (`invalid_path_parameter`),
    /// its inputs' ([`InputMeta::refusals`]), `invalid_request` when
    /// two or more of them validate (their issues are then reported
    /// together), and `cross_origin_request` when its method is unsafe
    /// (not `GET`; see [`CrossOrigin`](crate::CrossOrigin)). The manifest
    /// documents these (those that are [`per_route`](Refusal::per_route)),
    /// except those the app never answers on this route (a bypassed
    /// route's `cross_origin_request`).
    ///
    /// ```
    /// use framework::{prelude::*, refusal};
    ///
    /// struct Articles;
    ///
    /// #[controller("articles")]
    /// impl Articles {
    ///     #[typed_route::get(":id")]
    ///     async fn at(&self, #[param] id: u64) -> u64 { id }
    /// }
    ///
    /// let routes = <Articles as Controller>::routes();
    /// assert_eq!(routes[0].meta().refusals(), [refusal::INVALID_PATH_PARAMETER]);
    /// ```
    pub fn refusals(&self) -> Vec<Refusal> {
        let params: &[Refusal] = if self.path_params.is_empty() {
            &[]
        } else {
            &[refusal::INVALID_PATH_PARAMETER]
        };
        let validating = self.path_params.len()
            + self
                .inputs
                .iter()
                .filter(|input| input.refusals.iter().any(Refusal::validates))
                .count();
        let combined: &[Refusal] = if validating > 1 {
            &[refusal::INVALID_REQUEST]
        } else {
            &[]
        };
        let unsafe_method: &[Refusal] = if self.method == HttpMethod::Get {
            &[]
        } else {
            &[refusal::CROSS_ORIGIN_REQUEST]
        };
        let raised: Vec<Refusal> = params
            .iter()
            .chain(self.inputs.iter().flat_map(|input| input.refusals))
            .chain(combined)
            .chain(unsafe_method)
            .copied()
            .collect();
        refusal::ALL
            .iter()
            .filter(|declared| raised.contains(declared))
            .copied()
            .collect()
    }
}

/// What a route's metadata takes from its handler's answer type `R`:
/// `R::DEFAULT_STATUS`, `R::describe` and `R::errors` (see
/// `IntoResponse`). Built by `answer_meta::<R>()` in the code
/// `#[controller]` generates.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct AnswerMeta {
    /// The answer type's own success status, if it has one.
    pub status: Option<u16>,
    /// Describes its answers.
    pub responses: ResponsesFn,
    /// The errors it documents of its own.
    pub errors: fn() -> Vec<ErrorMeta>,
}

/// The [`RouteMeta`] of a route, from what the route attribute, the
/// handler's signature and its doc comment say: `status` is the route's
/// `status = ..` (the success status is then worked out as
/// `route_status` does), and the route is refused at compile time as
/// [`check_websocket_route`] does. Called in a `static`'s initializer by
/// the code `#[controller]` generates, one call per route; positional, so
/// that a route expands to a few lines.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub const fn route_meta(
    controller: &'static str,
    handler: &'static str,
    operation_id: Option<&'static str>,
    method: HttpMethod,
    paths: [&'static str; 2],
    path_params: &'static [PathParamMeta],
    inputs: &'static [InputMeta],
    status: Option<u16>,
    answer: AnswerMeta,
    errors: &'static [ErrorMeta],
    docs: [&'static str; 2],
    [sdk, mcp]: [bool; 2],
    versions: VersionRange,
) -> RouteMeta {
    check_websocket_route(inputs, method);
    if versions.is_empty() {
        panic!(
            "this route serves no API version: its `versions` and its controller's have none in common"
        );
    }
    let [path, router_path] = paths;
    let [summary, description] = docs;
    RouteMeta {
        controller,
        handler,
        operation_id,
        method,
        path,
        router_path,
        path_params,
        inputs,
        status: route_status(status, answer.status, method),
        responses: answer.responses,
        errors,
        answer_errors: answer.errors,
        summary,
        description,
        sdk,
        mcp,
        versions,
    }
}

/// The success status of a route: its `status = ..`, else its answer's
/// own, else `201` for `POST` and `200` for the other methods.
const fn route_status(declared: Option<u16>, answer: Option<u16>, method: HttpMethod) -> u16 {
    match (declared, answer) {
        (Some(status), _) | (None, Some(status)) => status,
        (None, None) => match method {
            HttpMethod::Post => 201,
            _ => 200,
        },
    }
}

/// Refuses, at compile time, a route that takes more than one WebSocket
/// handshake or takes one on another method than `GET`: part of
/// [`route_meta`].
const fn check_websocket_route(inputs: &[InputMeta], method: HttpMethod) {
    let mut handshakes = 0;
    let mut index = 0;
    while index < inputs.len() {
        if inputs[index].messages.is_some() {
            handshakes += 1;
        }
        index += 1;
    }
    if handshakes > 1 {
        panic!("a WebSocket route takes one `WebSocketUpgrade`; remove the others");
    }
    if handshakes == 1 && !matches!(method, HttpMethod::Get) {
        panic!(
            "a WebSocket handshake is a GET request: declare this route with `#[typed_route::get(..)]`"
        );
    }
}
