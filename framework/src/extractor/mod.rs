//! Extractors: typed inputs of a handler, read from the request and checked
//! before the handler runs.
//!
//! Two kinds, as in axum: [`FromRequestParts`] reads the head (path, query,
//! headers, cookies, guards) and may be async; [`FromRequest`] consumes the
//! body and is the handler's last argument, so a handler reads the body at
//! most once. Every extractor also describes itself ([`InputMeta`]) so the
//! manifest, the OpenAPI document and the SDKs know what a route reads,
//! which credentials it needs and which errors it may answer.

mod authorization;
mod bearer;
mod body;
mod body_decoder;
mod cookie;
mod file_request;
mod form;
mod header;
mod last_event_id;
mod optional;
mod param;
mod plain;
mod query;
mod shutdown;
mod stream;
mod text;
mod upgrade;
mod wraps;

use std::future::Future;

pub use authorization::{AuthScheme, Authorization};
pub use bearer::Bearer;
pub use body::TypedBody;
#[cfg(feature = "multipart")]
pub(crate) use body::check_content_type;
#[doc(hidden)]
pub use body_decoder::{BodyDecoder, WithDecoder, WithoutDecoder};
pub use cookie::Cookies;
pub use file_request::{FileConditions, FileRequest};
pub(crate) use file_request::{Selection, Validators};
pub use form::TypedForm;
pub use header::TypedHeaders;
pub use last_event_id::LastEventId;
pub use plain::PlainBody;
pub use query::TypedQuery;
pub(crate) use query::parse_query;
#[cfg(feature = "multipart")]
pub(crate) use query::parse_urlencoded;
pub use stream::BodyStream;
pub use upgrade::Upgrade;

#[doc(hidden)]
pub use param::path_param_meta;
pub(crate) use param::{path_param, path_param_refused};
pub(crate) use wraps::wraps_value;

use crate::{describe::InputMeta, error::ApiError, request::RequestContext};

/// A handler argument read from the request's head, before the body:
/// [`TypedQuery`], [`TypedHeaders`], [`Cookies`], [`Bearer`], a guard of
/// your own, or the raw `http::HeaderMap` / `http::Method` / `http::Uri`.
/// Path parameters are marked `#[param]` instead.
///
/// Extraction may be async: a guard can look a token up in a database it
/// reads with [`RequestContext::state`], declaring the state's type in its
/// `INPUT` ([`InputMeta::with_state`]) so that
/// [`AppBuilder::build`](crate::AppBuilder::build) refuses an app that was
/// not given it. A refusal answers the guard's own [`ApiError`]; validation
/// refusals of several inputs are reported together in one `400`.
///
/// ```
/// use framework::prelude::*;
/// use framework::{BuildError, ErrorMeta, InputMeta, RequestContext, SecurityMeta, StateMeta};
///
/// /// The account behind `Authorization: Bearer <token>`.
/// struct CurrentUser { name: String }
///
/// struct Tokens(Vec<(&'static str, &'static str)>);
///
/// static USER_TOKEN: SecurityMeta = SecurityMeta::bearer("user_token", "A user's session token.");
///
/// impl FromRequestParts for CurrentUser {
///     const INPUT: InputMeta = InputMeta::request()
///         .with_security(&USER_TOKEN)
///         .with_state(&[StateMeta::of::<Tokens>])
///         .with_errors(&[ErrorMeta::new(401, "No valid token.")]);
///
///     async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
///         let token = Bearer::from_request_parts(cx).await?;
///         let tokens = cx.state::<Tokens>()?;
///         match tokens.0.iter().find(|(known, _)| *known == token.token()) {
///             Some((_, name)) => Ok(CurrentUser { name: (*name).to_owned() }),
///             None => Err(Bearer::refused("the token is not known")),
///         }
///     }
/// }
///
/// struct Me;
///
/// #[controller("me")]
/// impl Me {
///     #[typed_route::get("")]
///     async fn me(&self, user: CurrentUser) -> String { user.name }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder()
///     .controller(Me)
///     .state(Tokens(vec![("s3cret", "kim")]))
///     .build()
///     .unwrap();
/// let ok = app.test_client().get("/me").header("authorization", "Bearer s3cret").send().await;
/// assert_eq!(ok.text(), "kim");
/// let refused = app.test_client().get("/me").send().await;
/// assert_eq!(refused.status(), 401);
/// assert_eq!(refused.headers()["www-authenticate"], "Bearer");
/// # });
///
/// // Without the `Tokens` the guard reads, the app is not built.
/// let missing = App::builder().controller(Me).build().unwrap_err();
/// assert!(matches!(missing, BuildError::MissingState { .. }));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from the request's head",
    label = "not an extractor that runs before the body",
    note = "a body extractor (`TypedBody`, `TypedForm`, `PlainBody`, `Bytes`) must be the handler's last argument, and a handler reads at most one body",
    note = "other arguments are `TypedQuery<T>`, `TypedHeaders<T>`, `Cookies<T>`, `Bearer`, a type implementing `FromRequestParts`, or a path parameter marked `#[param]`"
)]
pub trait FromRequestParts: Sized {
    /// What this argument reads, for the route's metadata.
    const INPUT: InputMeta;

    /// Reads the argument, or explains what is wrong with the request.
    fn from_request_parts(
        cx: &mut RequestContext,
    ) -> impl Future<Output = Result<Self, ApiError>> + Send;
}

/// Marks the [`FromRequest`] impl that every [`FromRequestParts`] type gets.
#[doc(hidden)]
#[derive(Debug)]
pub enum ViaParts {}

/// Marks a [`FromRequest`] impl that reads the body.
#[doc(hidden)]
#[derive(Debug)]
pub enum ViaBody {}

/// The handler's last argument: reads the body ([`TypedBody`],
/// [`TypedForm`], [`PlainBody`], `bytes::Bytes`, or your own), or is any
/// [`FromRequestParts`] extractor.
///
/// `M` only keeps the two kinds of impls apart; implement
/// `FromRequest` (with the default `M`) for a body extractor of your own.
///
/// ```
/// use framework::{FromRequest, InputKind};
/// assert_eq!(<framework::TypedBody<Vec<u32>> as FromRequest>::INPUT.kind, InputKind::Body);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a handler argument",
    label = "not an extractor",
    note = "take the JSON body as `TypedBody<T>`, a form as `TypedForm<T>`, text as `PlainBody`, bytes as `Bytes`, the query as `TypedQuery<T>`, headers as `TypedHeaders<T>`, or mark a path parameter with `#[param]`"
)]
pub trait FromRequest<M = ViaBody>: Sized {
    /// What this argument reads, for the route's metadata.
    const INPUT: InputMeta;

    /// Reads the argument, or explains what is wrong with the request.
    fn from_request(cx: &mut RequestContext)
    -> impl Future<Output = Result<Self, ApiError>> + Send;
}

impl<T: FromRequestParts> FromRequest<ViaParts> for T {
    const INPUT: InputMeta = T::INPUT;

    fn from_request(
        cx: &mut RequestContext,
    ) -> impl Future<Output = Result<Self, ApiError>> + Send {
        T::from_request_parts(cx)
    }
}

/// The [`InputMeta`] of a handler argument of type `T` read from the
/// head, recorded as written (`argument_type`). Called by the code
/// `#[controller]` generates.
#[doc(hidden)]
pub const fn part_input<T: FromRequestParts>(argument_type: &'static str) -> InputMeta {
    crate::describe::named_input(T::INPUT, argument_type)
}

/// The [`InputMeta`] of a handler's last extractor, of type `T`, recorded
/// as written (`argument_type`). Called by the code `#[controller]`
/// generates.
#[doc(hidden)]
pub const fn body_input<T: FromRequest<M>, M>(argument_type: &'static str) -> InputMeta {
    crate::describe::named_input(T::INPUT, argument_type)
}

/// The outcome of an extractor, for a handler that answers a refusal its
/// own way (e.g. a page that re-renders a refused form with each problem
/// next to its field). The route documents the same inputs and errors.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Login { #[tags(min_length = 1)] name: String }
///
/// struct Sessions;
///
/// #[controller("sessions")]
/// impl Sessions {
///     #[typed_route::post("", sdk = false)]
///     async fn create(&self, form: Result<TypedForm<Login>, ApiError>) -> String {
///         match form {
///             Ok(form) => format!("welcome {}", form.name),
///             Err(refused) => format!("{} problem(s)", refused.issues().len()),
///         }
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Sessions).build().unwrap();
/// let refused = app.test_client().post("/sessions").form("name=").send().await;
/// assert_eq!(refused.text(), "1 problem(s)");
/// # });
/// ```
impl<T: FromRequest<ViaBody>> FromRequest<ViaBody> for Result<T, ApiError> {
    const INPUT: InputMeta = T::INPUT;

    async fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(T::from_request(cx).await)
    }
}

/// The outcome of a head extractor, for a handler that answers a refusal
/// its own way.
impl<T: FromRequestParts + Send> FromRequestParts for Result<T, ApiError> {
    const INPUT: InputMeta = T::INPUT;

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(T::from_request_parts(cx).await)
    }
}

impl FromRequestParts for http::HeaderMap {
    const INPUT: InputMeta = InputMeta::request();

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(cx.headers().clone())
    }
}

impl FromRequestParts for http::Method {
    const INPUT: InputMeta = InputMeta::request();

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(cx.parts().method.clone())
    }
}

impl FromRequestParts for http::Uri {
    const INPUT: InputMeta = InputMeta::request();

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(cx.parts().uri.clone())
    }
}
