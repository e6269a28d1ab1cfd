//! Extractors: typed inputs of a handler, read from the request and checked
//! before the handler runs.

mod body;
mod header;
mod param;
mod query;
mod text;

pub use body::TypedBody;
pub use header::TypedHeaders;
pub use query::TypedQuery;
pub(crate) use query::parse_query;

#[doc(hidden)]
pub use param::{path_param, path_param_refused};

use crate::{error::ApiError, request::RequestContext};

/// Which part of the request an input reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// The JSON body.
    Body,
    /// The query string.
    Query,
    /// The headers.
    Headers,
    /// Something else about the request (its head, the raw header map ...).
    Request,
}

/// What one handler argument reads, recorded in the route's metadata.
#[derive(Clone, Copy, Debug)]
pub struct InputMeta {
    /// Which part of the request it reads.
    pub kind: InputKind,
    /// Whether the body must be collected before it runs.
    pub reads_body: bool,
    /// The schema of what it reads, for the OpenAPI document and the SDKs.
    pub schema: Option<SchemaFn>,
}

/// Builds a type's schema into a registry: `<T as ToSchema>::schema`.
pub type SchemaFn = fn(&mut crate::schema::Registry) -> crate::schema::Schema;

/// A handler argument read from the request: [`TypedBody`], [`TypedQuery`],
/// [`TypedHeaders`], or the raw `http::HeaderMap` / `http::Method` /
/// `http::Uri`. Path parameters are marked `#[param]` instead.
///
/// Extraction is synchronous: the body, when a route reads one, is already
/// collected (within the app's size limit) when extractors run.
///
/// ```
/// use framework::{FromRequest, InputKind};
/// assert_eq!(<framework::TypedBody<Vec<u32>> as FromRequest>::INPUT.kind, InputKind::Body);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a handler argument",
    label = "not an extractor",
    note = "take the JSON body as `TypedBody<T>`, the query as `TypedQuery<T>`, headers as `TypedHeaders<T>`, or mark a path parameter with `#[param]`"
)]
pub trait FromRequest: Sized {
    /// What this argument reads, for the route's metadata.
    const INPUT: InputMeta;

    /// Reads the argument, or explains what is wrong with the request.
    fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError>;
}

impl FromRequest for http::HeaderMap {
    const INPUT: InputMeta = InputMeta {
        kind: InputKind::Request,
        reads_body: false,
        schema: None,
    };

    fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(cx.headers().clone())
    }
}

impl FromRequest for http::Method {
    const INPUT: InputMeta = InputMeta {
        kind: InputKind::Request,
        reads_body: false,
        schema: None,
    };

    fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(cx.parts().method.clone())
    }
}

impl FromRequest for http::Uri {
    const INPUT: InputMeta = InputMeta {
        kind: InputKind::Request,
        reads_body: false,
        schema: None,
    };

    fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(cx.parts().uri.clone())
    }
}
