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
#![warn(missing_docs)]
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
mod body;
pub mod cli;
mod cross_origin;
mod describe;
mod dispatch;
mod dto;
mod error;
mod extractor;
mod multipart;
mod observe;
pub mod openapi;
mod refusals;
mod request;
mod response;
mod route;
mod router;
pub mod schema;
mod server;
mod shutdown;
mod test_client;
#[cfg(feature = "ws")]
pub mod ws;

pub use app::{App, AppBuilder, DEFAULT_BODY_LIMIT, DEFAULT_BODY_TIMEOUT};
pub use body::{Body, BoxError, Response};
pub use cross_origin::CrossOrigin;
pub use describe::manifest;
pub use describe::{
    ContentKind, ContentManifest, ErrorMeta, HeaderManifest, HttpMethod, InputKind, InputMeta,
    MessagesMeta, PathParamMeta, ResponseManifest, ResponsesFn, RouteMeta, SchemaFn, SecurityKind,
    SecurityMeta, StateFn, StateMeta,
};
pub use dispatch::ResponseFuture;
pub use dto::{
    Dto, JsonError, MAX_JSON_DEPTH, Random, Validate, WriteJson, from_json, random_value,
};
pub use error::{ApiError, ErrorContract, PROBLEM_JSON, Problem, ValidationIssue, refusal};
pub use extractor::{
    AuthScheme, Authorization, Bearer, BodyStream, Cookies, FileConditions, FileRequest,
    FromRequest, FromRequestParts, PlainBody, TypedBody, TypedForm, TypedHeaders, TypedQuery,
};
#[cfg(feature = "multipart")]
pub use multipart::{FILE_MEMORY_THRESHOLD, File, FormLimits, MAX_FORM_PARTS, TypedFormData};
pub use observe::{Health, LIVENESS_PATH, METRICS_PATH, Metrics, READINESS_PATH};
/// The Prometheus client the [`Metrics`] registry is made of, for the
/// metrics an app registers itself.
pub use prometheus_client;
pub use request::{RequestBody, RequestContext};
#[cfg(feature = "askama")]
pub use response::Html;
pub use response::{
    Created, Download, HandlerError, HtmlHeaders, IntoResponse, Json, Redirect, Reply, SameSite,
    SetCookie, StreamedFile,
};
pub use route::{Controller, Route};
pub use router::BuildError;
pub use server::{
    DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_HEADERS,
    DEFAULT_SHUTDOWN_TIMEOUT, LAST_REQUEST_GRACE, ServeService, Server, shutdown_signal,
};
pub use shutdown::Shutdown;
pub use test_client::{TestClient, TestRequest, TestResponse};

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
    pub use macros::{delete, get, patch, post, put};
}

#[doc = include_str!("docs/sse.md")]
pub mod sse {
    pub use crate::extractor::LastEventId;
    pub use crate::response::sse::{DEFAULT_KEEP_ALIVE, EVENT_STREAM, Event, EventError, Sse};
}

/// Helpers for testing DTOs (property checks, and values with one
/// constraint broken) and servers (malformed requests).
pub mod testing {
    pub use crate::dto::{
        Broken, Draw, broken_variants, check_broken_values, check_first_draw, check_random_value,
        draw_value, fuzz_json, fuzz_query,
    };
    pub use crate::multipart::MultipartBody;
    pub use crate::server::check_malformed_requests;
}

/// Everything a controller needs: `use framework::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "askama")]
    pub use crate::Html;
    pub use crate::{
        ApiError, App, AuthScheme, Authorization, Bearer, BodyStream, Controller, Cookies, Created,
        Download, Dto, FileRequest, FromRequest, FromRequestParts, HttpMethod, IntoResponse, Json,
        PlainBody, Random, Redirect, Reply, RouteMeta, Server, SetCookie, StreamedFile, TypedBody,
        TypedForm, TypedHeaders, TypedQuery, Validate, controller, dto, typed_route,
    };
    #[cfg(feature = "multipart")]
    pub use crate::{File, TypedFormData};
    pub use bytes::Bytes;
}

/// What code generated by the macros calls. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::describe::{check_websocket_route, named_input};
    pub use crate::dto::check as tags;
    pub use crate::dto::{nullable, present, run_check, write_null, write_serde, write_str};
    pub use crate::extractor::{ViaBody, ViaParts, path_param, path_param_refused};
    pub use crate::refusals::Refusals;
    pub use crate::request::RequestContext;
    pub use crate::response::{describe_json, json_response, route_status, status};
    pub use crate::route::{BoxFuture, Route};
    pub use crate::schema::type_label;
    pub use crate::schema::{
        Bounds, CustomCheck, EnumValue, FieldDef, Format, ObjectDef, Registry, Schema, Tag,
        ToSchema, TypeDef, TypeKind, UnionDef, UnionRepr, VariantDef, VariantKind, apply_tags,
    };
    pub use http::StatusCode;
    pub use regex::Regex;
    pub use serde;
    pub use serde_json;
    pub use std::string::String;
    pub use std::sync::LazyLock;
    pub use std::{boxed::Box, sync::Arc, vec::Vec};
}
