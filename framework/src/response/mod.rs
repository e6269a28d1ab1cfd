//! Answers: what a handler returns, turned into a response and described
//! to the manifest.
//!
//! Every answer type implements [`IntoResponse`], which does two things: it
//! builds the response, and it says which statuses, media types, schemas
//! and headers it can answer with, so the OpenAPI document and the SDKs
//! list exactly what the server sends.

mod cookie;
mod file;
mod file_naming;
#[cfg(feature = "askama")]
mod html;
#[cfg(feature = "askama")]
pub(crate) mod html_headers;
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
#[cfg(feature = "askama")]
pub use html_headers::HtmlHeaders;
pub use json::Json;
pub use redirect::{Created, Redirect};
pub use reply::Reply;
pub use streamed_file::StreamedFile;

#[doc(hidden)]
pub use json::{describe_json, json_response};

use http::{HeaderMap, HeaderValue, StatusCode, header};

use crate::{
    body::Response,
    describe::{ErrorMeta, ResponseManifest},
    error::ApiError,
    schema::Registry,
};

/// A handler's answer.
///
/// Built in: `#[dto]` types, `Vec<T>`, `Option<T>`, maps, numbers, `bool`
/// and [`Json<T>`] answer JSON; `String` and `&'static str` answer
/// `text/plain; charset=utf-8`; `Html<T>` (the `askama` feature) renders
/// an askama template; `bytes::Bytes` and [`Download`] answer bytes;
/// [`StreamedFile`] streams a file from disk (ranges, `304`);
/// [`Sse<T>`](crate::sse::Sse) streams server-sent events; [`Redirect`] and
/// [`Created<T>`] set `Location`; `()` answers `204 No Content`;
/// [`Reply<T>`] adds headers and cookies to any answer; `Result<T, E>`
/// answers `T` or the error (`E: Into<ApiError>`, or a [`HandlerError`]
/// that documents its own statuses). An enum whose variants answer
/// different statuses derives it: `#[derive(IntoResponse)]`.
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

    /// The errors this type answers of its own, for the route's documents
    /// (a `Result<T, E>`'s [`HandlerError::ERRORS`]); none unless it says.
    fn errors() -> Vec<ErrorMeta> {
        Vec::new()
    }
}

/// The error type of a handler's `Result<T, E>`: what it answers, and the
/// errors it documents, so a route's documents list them without the
/// route repeating them (`errors(...)` on the route attribute stays for
/// errors of other kinds). Every `E: Into<ApiError>` is one, documenting
/// nothing; implement it for an error type of your own instead of
/// `From<YourError> for ApiError`, and `?` converts into your type as
/// usual.
///
/// ```
/// use framework::{ErrorMeta, HandlerError, prelude::*};
///
/// /// What the store can fail with.
/// enum StoreError { Missing, Busy }
///
/// /// What the article routes answer when they fail.
/// enum ArticleError { NotFound(u32), Unavailable }
///
/// impl From<StoreError> for ArticleError {
///     fn from(err: StoreError) -> Self {
///         match err {
///             StoreError::Missing => ArticleError::NotFound(0),
///             StoreError::Busy => ArticleError::Unavailable,
///         }
///     }
/// }
///
/// impl HandlerError for ArticleError {
///     const ERRORS: &'static [ErrorMeta] = &[
///         ErrorMeta::new(404, "No such article."),
///         ErrorMeta::new(503, "The store is busy; retry."),
///     ];
///
///     fn into_api_error(self) -> ApiError {
///         match self {
///             ArticleError::NotFound(id) => ApiError::not_found(format!("no article {id}")),
///             ArticleError::Unavailable => ApiError::unavailable("the store is busy"),
///         }
///     }
/// }
///
/// fn load(id: u32) -> Result<String, StoreError> {
///     if id == 1 { Ok("one".to_owned()) } else { Err(StoreError::Missing) }
/// }
///
/// struct Articles;
///
/// #[controller("articles")]
/// impl Articles {
///     #[typed_route::get(":id")]
///     async fn at(&self, #[param] id: u32) -> Result<String, ArticleError> {
///         Ok(load(id)?)
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Articles).build().unwrap();
/// assert_eq!(app.test_client().get("/articles/2").send().await.status(), 404);
/// let documented: Vec<u16> = app.manifest().routes[0].errors.iter().map(|error| error.status).collect();
/// assert_eq!(documented, [400, 404, 503]);
/// # });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a handler's error",
    label = "neither `Into<ApiError>` nor a `HandlerError`",
    note = "implement `HandlerError` for it (its answer, and the errors it documents), or `From<{Self}> for ApiError`"
)]
pub trait HandlerError: Sized {
    /// The errors it answers, for the documents of every route returning
    /// it.
    const ERRORS: &'static [ErrorMeta] = &[];

    /// The error answered.
    fn into_api_error(self) -> ApiError;
}

impl<E: Into<ApiError>> HandlerError for E {
    fn into_api_error(self) -> ApiError {
        self.into()
    }
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

impl<T: IntoResponse, E: HandlerError> IntoResponse for Result<T, E> {
    const DEFAULT_STATUS: Option<u16> = T::DEFAULT_STATUS;

    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        T::describe(status, registry)
    }

    fn into_response(self, status: StatusCode) -> Response {
        match self {
            Ok(value) => value.into_response(status),
            Err(err) => err.into_api_error().into_response(),
        }
    }

    fn errors() -> Vec<ErrorMeta> {
        let mut errors = T::errors();
        errors.extend_from_slice(E::ERRORS);
        errors
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

/// What a route's metadata takes from its answer type `R`. Called by the
/// code `#[controller]` generates.
#[doc(hidden)]
pub const fn answer_meta<R: IntoResponse>() -> crate::describe::AnswerMeta {
    crate::describe::AnswerMeta {
        status: R::DEFAULT_STATUS,
        responses: R::describe,
        errors: R::errors,
    }
}

/// The status the macro checked to be a success status.
#[doc(hidden)]
pub fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::OK)
}

/// `X-Content-Type-Options: nosniff`: the browser takes the
/// `Content-Type` as it is, and never runs a file as a script or a page.
pub(crate) fn insert_nosniff(headers: &mut HeaderMap) {
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
}
