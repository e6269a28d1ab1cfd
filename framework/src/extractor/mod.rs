//! Extractors: typed inputs of a handler, read from the request and checked
//! before the handler runs.
//!
//! Two kinds, as in axum: [`FromRequestParts`] reads the head (path, query,
//! headers, cookies, guards) and may be async; [`FromRequest`] consumes the
//! body and is the handler's last argument, so a handler reads the body at
//! most once. Every extractor also describes itself ([`InputMeta`]) so the
//! manifest, the OpenAPI document and the SDKs know what a route reads,
//! which credentials it needs and which errors it may answer.

mod bearer;
mod body;
mod cookie;
mod file_request;
mod form;
mod header;
mod last_event_id;
mod param;
mod plain;
mod query;
mod shutdown;
mod stream;
mod text;

use std::future::Future;

pub use bearer::Bearer;
pub use body::TypedBody;
#[cfg(feature = "multipart")]
pub(crate) use body::check_content_type;
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

#[doc(hidden)]
pub use param::{path_param, path_param_refused};

use crate::{error::ApiError, request::RequestContext, route::ErrorMeta, security::SecurityMeta};

/// Which part of the request an input reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputKind {
    /// The body.
    Body,
    /// The query string.
    Query,
    /// The headers.
    Headers,
    /// The `Cookie` header, as named values.
    Cookies,
    /// Something else about the request (its head, a credential ...).
    Request,
    /// The handshake of a WebSocket route: the request becomes a socket
    /// carrying [`InputMeta::messages`].
    WebSocket,
}

/// How a body travels: the media type and how SDKs encode it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContentKind {
    /// JSON (`application/json`).
    Json,
    /// An HTML form (`application/x-www-form-urlencoded`).
    Form,
    /// UTF-8 text (`text/plain`).
    Text,
    /// An HTML page (`text/html`).
    Html,
    /// Bytes of any media type.
    Bytes,
    /// Server-sent events (`text/event-stream`), an answer only: a stream
    /// of events whose `data` is one JSON value of the schema each.
    EventStream,
    /// A `multipart/form-data` form: text fields as an HTML form sends them
    /// (`author[name]`, `tags[0]`), files as parts with a file name.
    Multipart,
}

/// What one handler argument reads, recorded in the route's metadata.
///
/// Built in `const` context by chaining:
///
/// ```
/// use framework::{ErrorMeta, InputMeta};
///
/// const INPUT: InputMeta = InputMeta::request()
///     .with_errors(&[ErrorMeta::new(403, "the account is suspended")]);
/// assert_eq!(INPUT.errors[0].status, 403);
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct InputMeta {
    /// Which part of the request it reads.
    pub kind: InputKind,
    /// Whether it consumes the body.
    pub reads_body: bool,
    /// The schema of what it reads, for the OpenAPI document and the SDKs.
    pub schema: Option<SchemaFn>,
    /// For a body: how it is encoded and its media type.
    pub content: Option<(ContentKind, &'static str)>,
    /// The credential it needs, if it is a guard.
    pub security: Option<&'static SecurityMeta>,
    /// Errors it may answer besides the framework's own `400`.
    pub errors: &'static [ErrorMeta],
    /// For a WebSocket handshake: the messages each side sends.
    pub messages: Option<MessagesMeta>,
}

/// The messages of a WebSocket route: what the client sends and what the
/// server sends, each one JSON value of its schema.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct MessagesMeta {
    /// The schema of a message from the client.
    pub client: SchemaFn,
    /// The schema of a message from the server.
    pub server: SchemaFn,
}

impl InputMeta {
    /// An input that reads something of the request's head and documents
    /// nothing (e.g. the raw `http::HeaderMap`).
    pub const fn request() -> Self {
        InputMeta {
            kind: InputKind::Request,
            reads_body: false,
            schema: None,
            content: None,
            security: None,
            errors: &[],
            messages: None,
        }
    }

    /// An input of `kind` whose value has the schema `schema`.
    pub const fn typed(kind: InputKind, schema: SchemaFn) -> Self {
        InputMeta {
            kind,
            schema: Some(schema),
            ..Self::request()
        }
    }

    /// A body encoded as `content`, with media type `media_type`; `schema`
    /// is `None` for bytes.
    pub const fn body(
        content: ContentKind,
        media_type: &'static str,
        schema: Option<SchemaFn>,
    ) -> Self {
        InputMeta {
            kind: InputKind::Body,
            reads_body: true,
            schema,
            content: Some((content, media_type)),
            security: None,
            errors: &[],
            messages: None,
        }
    }

    /// The handshake of a WebSocket route whose client sends messages of
    /// the schema `client` and whose server sends messages of the schema
    /// `server`.
    ///
    /// ```
    /// use framework::{InputKind, InputMeta, schema::ToSchema};
    ///
    /// const INPUT: InputMeta = InputMeta::websocket(<String as ToSchema>::schema, <u64 as ToSchema>::schema);
    /// assert_eq!(INPUT.kind, InputKind::WebSocket);
    /// assert!(INPUT.messages.is_some());
    /// ```
    pub const fn websocket(client: SchemaFn, server: SchemaFn) -> Self {
        InputMeta {
            kind: InputKind::WebSocket,
            messages: Some(MessagesMeta { client, server }),
            ..Self::request()
        }
    }

    /// Adds the credential this input needs (see [`SecurityMeta`]).
    pub const fn with_security(mut self, security: &'static SecurityMeta) -> Self {
        self.security = Some(security);
        self
    }

    /// Adds errors this input may answer (a guard's `401`, `403` ...).
    pub const fn with_errors(mut self, errors: &'static [ErrorMeta]) -> Self {
        self.errors = errors;
        self
    }
}

/// Builds a type's schema into a registry: `<T as ToSchema>::schema`.
pub type SchemaFn = fn(&mut crate::schema::Registry) -> crate::schema::Schema;

/// A handler argument read from the request's head, before the body:
/// [`TypedQuery`], [`TypedHeaders`], [`Cookies`], [`Bearer`], a guard of
/// your own, or the raw `http::HeaderMap` / `http::Method` / `http::Uri`.
/// Path parameters are marked `#[param]` instead.
///
/// Extraction may be async: a guard can look a token up in a database it
/// reads with [`RequestContext::state`]. A refusal answers the guard's own
/// [`ApiError`]; validation refusals of several inputs are reported
/// together in one `400`.
///
/// ```
/// use framework::prelude::*;
/// use framework::{ErrorMeta, InputMeta, RequestContext, SecurityMeta};
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
