//! Typed routes, validation, OpenAPI and SDKs from one declaration, on hyper.
//!
//! Write a controller once; the framework serves it, checks its inputs and
//! describes it:
//!
//! ```
//! use framework::prelude::*;
//!
//! #[dto]
//! struct Rename {
//!     #[tags(min_length = 3, max_length = 50)]
//!     title: String,
//! }
//!
//! #[dto]
//! struct Article { id: u64, section: String, title: String }
//!
//! struct ArticlesController;
//!
//! #[controller("bbs/articles/:section")]
//! impl ArticlesController {
//!     /// Rename an article.
//!     #[typed_route::put(":id")]
//!     async fn rename(
//!         &self,
//!         #[param] section: String,
//!         #[param] id: u64,
//!         body: TypedBody<Rename>,
//!     ) -> Result<Article, ApiError> {
//!         if id == 0 {
//!             return Err(ApiError::not_found("no article 0"));
//!         }
//!         Ok(Article { id, section, title: body.into_inner().title })
//!     }
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let app = App::builder().controller(ArticlesController).build().unwrap();
//! let response = app
//!     .test_client()
//!     .put("/bbs/articles/free/7")
//!     .json(&serde_json::json!({ "title": "hello" }))
//!     .send()
//!     .await;
//! assert_eq!(response.status(), 200);
//! assert_eq!(response.json::<serde_json::Value>()["title"], "hello");
//!
//! let bad = app
//!     .test_client()
//!     .put("/bbs/articles/free/seven")
//!     .json(&serde_json::json!({ "title": "hello" }))
//!     .send()
//!     .await;
//! assert_eq!(bad.status(), 400);
//! assert_eq!(bad.problem().code, "invalid_path_parameter");
//!
//! let short = app
//!     .test_client()
//!     .put("/bbs/articles/free/7")
//!     .json(&serde_json::json!({ "title": "hi" }))
//!     .send()
//!     .await;
//! assert_eq!(short.status(), 400);
//! let issue = &short.problem().errors[0];
//! assert_eq!(issue.path, "$input.title");
//! assert_eq!(issue.expected, "string & MinLength<3> & MaxLength<50>");
//! # });
//! ```
//!
//! A request travels: accept ([`Server`]) -> route ([`App`], matchit) ->
//! extract ([`FromRequestParts`], `#[param]`, then one [`FromRequest`] for
//! the body) -> handler -> respond ([`IntoResponse`]).
//!
//! # Cargo features
//!
//! The heavy and optional parts are behind cargo features, as in axum. The
//! defaults are what a served app with a docs page, a command line,
//! templates and metrics needs; `default-features = false` with only what
//! is used makes a smaller build (`features = ["server"]` for an app
//! served without the extras; no feature at all for a crate that only
//! reads or declares the API, as `sdk-gen` does).
//!
//! | feature | what it brings | default |
//! |---|---|---|
//! | `server` | `Server`, `ServeService`, `shutdown_signal`, `testing::check_malformed_requests`: serving over TCP, HTTP/1.1 (hyper's server side) | yes |
//! | `http2` | HTTP/2 beside HTTP/1.1 on the same port, to a client that opens with its preface (hyper-util's `auto` connection, h2); implies `server` | yes |
//! | `openapi` | the OpenAPI 3.1 document: `/openapi.json`, `App::openapi_json`, `OpenApiDocument::build` (utoipa's model) | yes |
//! | `docs-page` | the interactive docs page at `/docs` (Swagger UI, embedded at build time); implies `openapi` | yes |
//! | `cli` | `framework::cli`: the `serve` / `openapi` / `manifest` command line every app gets (clap); implies `openapi` | yes |
//! | `metrics` | `Metrics`, `AppBuilder::metrics` and `/metrics` (prometheus-client); without it nothing is counted and no counting code is compiled | yes |
//! | `askama` | `Html<T>` and `HtmlHeaders`: answers rendered from askama templates, and their pages' security headers | yes |
//! | `multipart` | `TypedFormData<T>` and `File`: `multipart/form-data` uploads (multer) | no |
//! | `ws` | `framework::ws`: typed WebSocket routes (tokio-tungstenite); a socket is opened by `server` | no |
//! | `mcp` | `framework::mcp`: routes as tools for language models, a Model Context Protocol endpoint (`AppBuilder::mcp`); implies `openapi` | no |
//!
//! Always there, with no feature: routing, extractors, answers, DTO
//! validation, the in-process [`TestClient`] (it needs no socket, so a
//! crate without `server` tests its routes with it), health and readiness
//! ([`Health`], no dependency of its own), and the API manifest
//! ([`App::manifest`], what the SDKs are generated from; its title and
//! version come from [`OpenApiDocument`](openapi::OpenApiDocument), which
//! is there without the `openapi` feature too, as the API's description).
//!
//! A route the framework serves itself is registered only with its
//! feature: without `docs-page`, `/docs` is an ordinary `404` (while
//! `/openapi.json` is still served); without `openapi`, neither is
//! served; without `metrics`, there is no `AppBuilder::metrics` and no
//! `/metrics`.
#![doc = include_str!("docs/layout.md")]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used))]

// Lets `#[dto]` and `#[controller]` (which name `::framework`) be used in
// this crate's own tests and docs.
extern crate self as framework;

// A handler's panic answers 500 and the server goes on (`dispatch.rs`);
// that needs panics to unwind, in every profile.
#[cfg(not(panic = "unwind"))]
compile_error!(
    "the framework turns handler panics into `500 internal_error` and needs `panic = \"unwind\"`; remove `panic = \"abort\"` from this profile"
);

mod app;
mod arguments;
mod body;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod cli;
mod cross_origin;
mod describe;
mod description;
mod dispatch;
mod dto;
mod error;
mod extractor;
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub mod mcp;
mod multipart;
mod observe;
pub mod openapi;
mod refusals;
mod request;
mod response;
mod route;
mod router;
pub mod schema;
#[cfg(feature = "server")]
mod server;
mod shutdown;
mod test_client;
mod versions;
#[cfg(feature = "ws")]
#[cfg_attr(docsrs, doc(cfg(feature = "ws")))]
pub mod ws;

pub use app::{App, AppBuilder, DEFAULT_BODY_LIMIT, DEFAULT_BODY_TIMEOUT};
pub use body::{Body, BoxError, Response};
pub use cross_origin::CrossOrigin;
pub use describe::manifest;
pub use describe::{
    ApiVersion, ContentKind, ContentManifest, ErrorMeta, HeaderManifest, HeaderMeta, HttpMethod,
    InputKind, InputMeta, InvalidVersion, MessagesMeta, PathParamMeta, ResponseManifest,
    ResponsesFn, RouteMeta, SchemaFn, SecurityKind, SecurityMeta, StateFn, StateMeta, VersionRange,
};
pub use dispatch::ResponseFuture;
pub use dto::{
    Dto, JsonError, MAX_JSON_DEPTH, Random, Validate, WriteJson, from_json, random_value,
};
pub use error::{ApiError, ErrorContract, PROBLEM_JSON, Problem, ValidationIssue, refusal};
pub use extractor::{
    AuthScheme, Authorization, Bearer, BodyStream, Cookies, FileConditions, FileRequest,
    FromRequest, FromRequestParts, PlainBody, TypedBody, TypedForm, TypedHeaders, TypedQuery,
    Upgrade,
};
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use mcp::Mcp;
#[cfg(feature = "multipart")]
#[cfg_attr(docsrs, doc(cfg(feature = "multipart")))]
pub use multipart::{FILE_MEMORY_THRESHOLD, File, FormLimits, MAX_FORM_PARTS, TypedFormData};
pub use observe::{Health, LIVENESS_PATH, READINESS_PATH};
#[cfg(feature = "metrics")]
#[cfg_attr(docsrs, doc(cfg(feature = "metrics")))]
pub use observe::{METRICS_PATH, Metrics};
/// The Prometheus client the [`Metrics`] registry is made of, for the
/// metrics an app registers itself.
#[cfg(feature = "metrics")]
#[cfg_attr(docsrs, doc(cfg(feature = "metrics")))]
pub use prometheus_client;
pub use request::{RequestBody, RequestContext};
#[cfg(feature = "askama")]
#[cfg_attr(docsrs, doc(cfg(feature = "askama")))]
pub use response::Html;
#[cfg(feature = "askama")]
#[cfg_attr(docsrs, doc(cfg(feature = "askama")))]
pub use response::HtmlHeaders;
pub use response::{
    Created, Download, HandlerError, IntoResponse, Json, Redirect, Reply, SameSite, SetCookie,
    StreamedFile,
};
pub use route::{Controller, Route};
pub use router::BuildError;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub use server::{
    DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_HEADERS,
    DEFAULT_SHUTDOWN_TIMEOUT, LAST_REQUEST_GRACE, ServeService, Server, shutdown_signal,
};
pub use shutdown::Shutdown;
pub use test_client::{TestClient, TestRequest, TestResponse};
pub use versions::Versions;

#[doc = include_str!("docs/dto.md")]
pub use macros::dto;

/// Derives [`IntoResponse`] for an enum of answers, each variant wrapping
/// one answer type, with `#[status(202)]` where a variant's status differs
/// from its answer's own:
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Job { id: u64 }
///
/// #[derive(IntoResponse)]
/// enum Outcome {
///     /// Done at once.
///     Done(Job),
///     /// Queued; poll the job.
///     #[status(202)]
///     Queued(Job),
/// }
///
/// let answer = Outcome::Queued(Job { id: 1 }).into_response(http::StatusCode::OK);
/// assert_eq!(answer.status(), 202);
/// ```
pub use macros::IntoResponse;

/// Marks an `impl` block as a controller with a base path:
/// `#[controller("bbs/articles/:section")]`. See the [crate docs](crate).
pub use macros::controller;

#[doc = include_str!("docs/handlers.md")]
pub mod typed_route {
    pub use macros::{converted, delete, get, patch, post, put};
}

#[doc = include_str!("docs/sse.md")]
pub mod sse {
    pub use crate::extractor::LastEventId;
    pub use crate::response::sse::{DEFAULT_KEEP_ALIVE, EVENT_STREAM, Event, EventError, Sse};
}

/// Helpers for testing DTOs (property checks, and values with one
/// constraint broken), servers (malformed requests) and API versions
/// (`assert_compatible`: the app breaks no blessed manifest).
pub mod testing {
    pub use crate::dto::{
        Broken, Draw, broken_variants, check_broken_values, check_decoders,
        check_decoders_from_seed, check_first_draw, check_random_value, draw_value, fuzz_json,
        fuzz_query,
    };
    pub use crate::manifest::assert_compatible;
    pub use crate::multipart::MultipartBody;
    #[cfg(feature = "server")]
    #[cfg_attr(docsrs, doc(cfg(feature = "server")))]
    pub use crate::server::check_malformed_requests;
}

/// Everything a controller needs: `use framework::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "askama")]
    pub use crate::Html;
    #[cfg(feature = "server")]
    pub use crate::Server;
    pub use crate::{
        ApiError, App, AuthScheme, Authorization, Bearer, BodyStream, Controller, Cookies, Created,
        Download, Dto, FileRequest, FromRequest, FromRequestParts, HttpMethod, IntoResponse, Json,
        PlainBody, Random, Redirect, Reply, RouteMeta, SetCookie, StreamedFile, TypedBody,
        TypedForm, TypedHeaders, TypedQuery, Validate, controller, dto, typed_route,
    };
    #[cfg(feature = "multipart")]
    pub use crate::{File, TypedFormData};
    pub use bytes::Bytes;
}

/// What code generated by the macros calls. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::arguments::{
        Arguments, Complete, answer, body, call, checked_param, param, part, reply,
    };
    pub use crate::describe::{AnswerMeta, HttpMethod, VersionRange, route_meta, version};
    pub use crate::dto::check as tags;
    pub use crate::dto::read as json;
    pub use crate::dto::{PRESENCE_RS, SHAPE_RS};
    pub use crate::dto::{nullable, present, run_check, write_null, write_serde, write_str};
    pub use crate::extractor::Upgrade;
    pub use crate::extractor::{BodyDecoder, WithDecoder, WithoutDecoder};
    pub use crate::extractor::{ViaBody, ViaParts, body_input, part_input, path_param_meta};
    pub use crate::response::{answer_meta, describe_json, json_response, status};
    pub use crate::route::{Route, RouteFuture};
    pub use crate::schema::type_label;
    pub use crate::schema::{
        Bounds, CustomCheck, EnumValue, FieldDef, Format, ObjectDef, Registry, Schema, Tag,
        ToSchema, TypeDef, TypeKind, UnionDef, UnionRepr, VariantDef, VariantKind, apply_tags,
    };
    pub use crate::schema::{DefaultOf, Serialized, SerializedDefault, Undocumented};
    pub use core::future::ready;
    pub use core::option::Option::{None, Some};
    pub use http::StatusCode;
    pub use regex::Regex;
    pub use serde;
    pub use serde_json;
    pub use std::string::String;
    pub use std::sync::LazyLock;
    pub use std::{boxed::Box, sync::Arc, vec::Vec};
}
