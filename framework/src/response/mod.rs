//! Answers: what a handler returns, turned into a response and described
//! to the manifest.
//!
//! Every answer type implements [`IntoResponse`], which does two things: it
//! builds the response, and it says which statuses, media types, schemas
//! and headers it can answer with, so the OpenAPI document and the SDKs
//! list exactly what the server sends.

mod cookie;
mod file;
#[cfg(feature = "askama")]
mod html;
mod json;
mod redirect;
mod reply;
pub(crate) mod sse;
mod streamed_file;
mod text;

pub use cookie::{SameSite, SetCookie};
pub use file::Download;
#[cfg(feature = "askama")]
pub use html::Html;
pub use json::Json;
pub use redirect::{Created, Redirect};
pub use reply::Reply;
pub use streamed_file::StreamedFile;

#[doc(hidden)]
pub use json::{describe_json, json_response};

use http::StatusCode;

use crate::{body::Response, describe::ResponseManifest, error::ApiError, schema::Registry};

/// A handler's answer.
///
/// Built in: `#[dto]` types, `Vec<T>`, `Option<T>`, maps, numbers, `bool`
/// and [`Json<T>`] answer JSON; `String` and `&'static str` answer
/// `text/plain; charset=utf-8`; [`Html<T>`] renders an askama template;
/// `bytes::Bytes` and [`Download`] answer bytes; [`StreamedFile`] streams a
/// file from disk (ranges, `304`); [`Sse<T>`](crate::sse::Sse) streams
/// server-sent events; [`Redirect`] and
/// [`Created<T>`] set `Location`; `()` answers `204 No Content`;
/// [`Reply<T>`] adds headers and cookies to any answer; `Result<T, E>`
/// answers `T` or the error (`E: Into<ApiError>`). An enum whose variants
/// answer different statuses derives it: `#[derive(IntoResponse)]`.
///
/// `status` is the route's success status (`201` for `post`, `200`
/// otherwise, or the route's `status = ..`); types with a status of their
/// own ([`Redirect`], [`Created`]) keep theirs.
///
/// ```
/// use framework::prelude::*;
/// use framework::IntoResponse;
/// use http::StatusCode;
///
/// let response = "pong".into_response(StatusCode::OK);
/// assert_eq!(response.headers()["content-type"], "text/plain; charset=utf-8");
/// let none = ().into_response(StatusCode::NO_CONTENT);
/// assert_eq!(none.status(), 204);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a handler's answer",
    label = "does not implement `IntoResponse`",
    note = "answer a `#[dto]` type (JSON), `String` (text), `Html<T>`, `Redirect`, `Created<T>`, `Bytes`, `Download`, `()` or `Result<T, ApiError>`; derive `IntoResponse` for an enum of answers"
)]
pub trait IntoResponse {
    /// The status a route answering this type has unless it says otherwise
    /// (`204` for `()`); `None` for the method's default.
    const DEFAULT_STATUS: Option<u16> = None;

    /// Every answer this type can give on a route whose success status is
    /// `status`.
    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest>;

    /// The response, using `status` unless the type has its own.
    fn into_response(self, status: StatusCode) -> Response;
}

impl IntoResponse for () {
    const DEFAULT_STATUS: Option<u16> = Some(204);

    fn describe(status: u16, _: &mut Registry) -> Vec<ResponseManifest> {
        vec![ResponseManifest::new(status)]
    }

    fn into_response(self, status: StatusCode) -> Response {
        let mut response = http::Response::new(crate::Body::empty());
        *response.status_mut() = status;
        response
    }
}

impl<T: IntoResponse, E: Into<ApiError>> IntoResponse for Result<T, E> {
    const DEFAULT_STATUS: Option<u16> = T::DEFAULT_STATUS;

    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        T::describe(status, registry)
    }

    fn into_response(self, status: StatusCode) -> Response {
        match self {
            Ok(value) => value.into_response(status),
            Err(err) => err.into().into_response(),
        }
    }
}

impl IntoResponse for Response {
    fn describe(status: u16, _: &mut Registry) -> Vec<ResponseManifest> {
        vec![ResponseManifest::new(status).described("Any response the handler builds.")]
    }

    fn into_response(self, _: StatusCode) -> Response {
        self
    }
}

/// The success status of a route: its `status = ..`, else its answer's
/// own, else `201` for `POST` and `200` for the other methods.
#[doc(hidden)]
pub const fn route_status(
    declared: Option<u16>,
    answer: Option<u16>,
    method: crate::HttpMethod,
) -> u16 {
    match (declared, answer) {
        (Some(status), _) | (None, Some(status)) => status,
        (None, None) => match method {
            crate::HttpMethod::Post => 201,
            _ => 200,
        },
    }
}

/// The status the macro checked to be a success status.
#[doc(hidden)]
pub fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::OK)
}
