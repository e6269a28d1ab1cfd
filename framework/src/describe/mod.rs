//! Descriptions: what a route is, apart from how it runs, as dropshot keeps
//! its `api_description.rs` apart from serving.
//!
//! A route is described by its [`RouteMeta`] (method, path, path
//! parameters, documented errors), the [`InputMeta`] of each handler
//! argument (which part of the request it reads, the [`SecurityMeta`] of
//! the credential it needs, the [`StateMeta`] of the app state it reads), and the [`ResponseManifest`]s of its answers.
//! `#[controller]` builds them at compile time from the extractors'
//! `INPUT` and the return type's `IntoResponse::describe`; nobody writes
//! them by hand.
//!
//! Who reads them: the router (method, path, whether a route reads the
//! body), `observe` (a route's name and path in logs and metrics), the
//! OpenAPI document, and `sdk-gen` (through the JSON of the manifest
//! built from them).
//!
//! These files name only each other, `schema` and external crates, never
//! the request, the body, the app or the server: descriptions sit below
//! run time, so anything may read them.

mod answer;
mod content;
mod input;
pub mod manifest;
mod route;
mod security;
mod version;

pub use answer::{ContentManifest, HeaderManifest, ResponseManifest};
pub use content::ContentKind;
pub(crate) use input::named_input;
pub use input::{HeaderMeta, InputKind, InputMeta, MessagesMeta, SchemaFn, StateFn, StateMeta};
pub use route::{
    AnswerMeta, ErrorMeta, HttpMethod, PathParamMeta, ResponsesFn, RouteMeta, route_meta,
};
pub use security::{SecurityKind, SecurityMeta};
pub use version::{ApiVersion, InvalidVersion, VersionRange, version};
