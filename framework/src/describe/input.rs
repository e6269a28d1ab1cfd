//! What a handler argument reads ([`InputMeta`]): which part of the
//! request, its schema, the credential it needs, the app state it reads
//! ([`StateMeta`]) and the errors it may answer. Each extractor declares its own (`FromRequestParts::INPUT`,
//! `FromRequest::INPUT`).

use std::any::TypeId;

use super::{ContentKind, ErrorMeta, SecurityMeta};
use crate::error::refusal::{self, Refusal};

/// What reading a body of each kind may be refused with.
const JSON_BODY: &[Refusal] = &[
    refusal::INVALID_BODY,
    refusal::BODY_READ_FAILED,
    refusal::REQUEST_TIMEOUT,
    refusal::PAYLOAD_TOO_LARGE,
    refusal::UNSUPPORTED_MEDIA_TYPE,
];
const BYTES_BODY: &[Refusal] = &[
    refusal::BODY_READ_FAILED,
    refusal::REQUEST_TIMEOUT,
    refusal::PAYLOAD_TOO_LARGE,
];
const MULTIPART_BODY: &[Refusal] = &[
    refusal::INVALID_BODY,
    refusal::BODY_READ_FAILED,
    refusal::REQUEST_TIMEOUT,
    refusal::PAYLOAD_TOO_LARGE,
    refusal::FILE_TOO_LARGE,
    refusal::TOO_MANY_PARTS,
    refusal::UNSUPPORTED_MEDIA_TYPE,
];
const HANDSHAKE: &[Refusal] = &[
    refusal::UPGRADE_REQUIRED,
    refusal::UNSUPPORTED_WEBSOCKET_VERSION,
    refusal::INVALID_WEBSOCKET_HANDSHAKE,
    refusal::CROSS_ORIGIN_WEBSOCKET,
];

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
    /// A header it reads by itself, outside a [`TypedHeaders`](crate::TypedHeaders)
    /// schema (`Last-Event-ID`): documented as an optional header
    /// parameter; the SDKs send it themselves, it is no argument of theirs.
    pub header: Option<HeaderMeta>,
    /// Whether the guard is optional (the handler takes `Option<G>`): a
    /// caller without [`security`](Self::security)'s credential is served
    /// too, and the documents list anonymous access as an alternative.
    pub optional: bool,
    /// The framework's refusals reading it may answer (see
    /// [`refusal`](crate::refusal)): set by the constructor from what it
    /// reads, replaced with [`InputMeta::with_refusals`]. The manifest
    /// documents a route's errors from these.
    pub refusals: &'static [Refusal],
    /// Errors it answers of its own (a guard's `401`, `403` ...), with
    /// what the documents say of each.
    pub errors: &'static [ErrorMeta],
    /// For a WebSocket handshake: the messages each side sends.
    pub messages: Option<MessagesMeta>,
    /// The app state it reads with [`RequestContext::state`](crate::RequestContext::state),
    /// which [`AppBuilder::build`](crate::AppBuilder::build) requires the
    /// app to have: set with [`InputMeta::with_state`].
    pub states: &'static [StateFn],
    /// The argument's type as the handler writes it (`TypedQuery<Listing>`),
    /// set by `#[controller]`, for build errors; empty elsewhere.
    pub(crate) argument_type: &'static str,
}

/// A request header an input reads by itself: its name and what it says.
///
/// ```
/// use framework::{HeaderMeta, InputMeta};
///
/// const INPUT: InputMeta = InputMeta::request()
///     .with_header(HeaderMeta::new("x-request-id", "The caller's id for this request."));
/// assert_eq!(INPUT.header.unwrap().name, "x-request-id");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HeaderMeta {
    /// Its name, lowercase: `last-event-id`.
    pub name: &'static str,
    /// What it says, for people.
    pub description: &'static str,
}

impl HeaderMeta {
    /// The header `name`, described by `description`.
    pub const fn new(name: &'static str, description: &'static str) -> Self {
        HeaderMeta { name, description }
    }
}

/// A type of app state an input reads: what
/// [`AppBuilder::state`](crate::AppBuilder::state) must have been given
/// for the input to work. Listed in [`InputMeta::states`] as
/// `StateMeta::of::<T>`, a function, because a type's [`TypeId`] cannot be
/// taken in `const` context.
///
/// ```
/// use framework::StateMeta;
///
/// struct Tokens;
///
/// let need = StateMeta::of::<Tokens>();
/// assert!(need.type_name.ends_with("Tokens"));
/// assert_ne!(need, StateMeta::of::<std::sync::Arc<Tokens>>());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StateMeta {
    /// The state's type, as [`RequestContext::state`](crate::RequestContext::state)
    /// looks it up.
    pub type_id: TypeId,
    /// Its name, for error messages: `std::any::type_name::<T>()`.
    pub type_name: &'static str,
    /// The type `Arc<T>`, to tell a user who gave `Arc<T>` where `T` is
    /// read (or the reverse) what differs.
    pub(crate) arc_type_id: TypeId,
}

impl StateMeta {
    /// The state of type `T`; `StateMeta::of::<T>` is what
    /// [`InputMeta::with_state`] lists.
    pub fn of<T: Send + Sync + 'static>() -> Self {
        StateMeta {
            type_id: TypeId::of::<T>(),
            type_name: std::any::type_name::<T>(),
            arc_type_id: TypeId::of::<std::sync::Arc<T>>(),
        }
    }
}

/// Describes a state type an input reads: `StateMeta::of::<T>`.
pub type StateFn = fn() -> StateMeta;

/// `input`, recorded as the argument of type `argument_type` (as the
/// handler writes it), for the code `#[controller]` generates.
pub(crate) const fn named_input(mut input: InputMeta, argument_type: &'static str) -> InputMeta {
    input.argument_type = argument_type;
    input
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
            header: None,
            optional: false,
            refusals: &[],
            errors: &[],
            messages: None,
            states: &[],
            argument_type: "",
        }
    }

    /// An input of `kind` whose value has the schema `schema`, refused as
    /// `invalid_query`, `invalid_header`, `invalid_cookie` or
    /// `invalid_body` when it is not one.
    pub const fn typed(kind: InputKind, schema: SchemaFn) -> Self {
        let refusals: &'static [Refusal] = match kind {
            InputKind::Query => &[refusal::INVALID_QUERY],
            InputKind::Headers => &[refusal::INVALID_HEADER],
            InputKind::Cookies => &[refusal::INVALID_COOKIE],
            InputKind::Body => &[refusal::INVALID_BODY],
            InputKind::Request | InputKind::WebSocket => &[],
        };
        InputMeta {
            kind,
            schema: Some(schema),
            refusals,
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
        let refusals = match content {
            ContentKind::Bytes => BYTES_BODY,
            ContentKind::Multipart => MULTIPART_BODY,
            _ => JSON_BODY,
        };
        InputMeta {
            kind: InputKind::Body,
            reads_body: true,
            schema,
            content: Some((content, media_type)),
            refusals,
            ..Self::request()
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
            refusals: HANDSHAKE,
            ..Self::request()
        }
    }

    /// Adds the credential this input needs (see [`SecurityMeta`]).
    pub const fn with_security(mut self, security: &'static SecurityMeta) -> Self {
        self.security = Some(security);
        self
    }

    /// Documents a header this input reads by itself (see [`HeaderMeta`]).
    pub const fn with_header(mut self, header: HeaderMeta) -> Self {
        self.header = Some(header);
        self
    }

    /// This guard, made optional: what `Option<G>` reads. Only a guard that
    /// declares its credential ([`with_security`](Self::with_security)) can
    /// be optional, since its absence is what makes the value `None`; any
    /// other input does not compile as `Option<_>`.
    ///
    /// ```
    /// use framework::{InputMeta, SecurityMeta};
    ///
    /// static TOKEN: SecurityMeta = SecurityMeta::bearer("token", "A token.");
    /// const INPUT: InputMeta = InputMeta::request().with_security(&TOKEN).optional();
    /// assert!(INPUT.optional);
    /// ```
    pub const fn optional(mut self) -> Self {
        assert!(
            self.security.is_some(),
            "`Option<G>` is a guard that may be absent, and `G` declares no credential (`InputMeta::with_security`): for a query, headers or a body whose parts may be absent, make their fields `Option` instead"
        );
        self.optional = true;
        self
    }

    /// The framework's refusals reading this input may answer, in place of
    /// those its constructor set: for an extractor that reads a part of the
    /// request its own way.
    ///
    /// ```
    /// use framework::{InputMeta, refusal};
    ///
    /// const INPUT: InputMeta = InputMeta::request().with_refusals(&[refusal::UNAUTHORIZED]);
    /// assert_eq!(INPUT.refusals, [refusal::UNAUTHORIZED]);
    /// ```
    pub const fn with_refusals(mut self, refusals: &'static [Refusal]) -> Self {
        self.refusals = refusals;
        self
    }

    /// Adds errors this input may answer (a guard's `401`, `403` ...).
    pub const fn with_errors(mut self, errors: &'static [ErrorMeta]) -> Self {
        self.errors = errors;
        self
    }

    /// The app state this input reads with
    /// [`RequestContext::state`](crate::RequestContext::state): an app
    /// whose routes take this input builds only when it was given each of
    /// these types with [`AppBuilder::state`](crate::AppBuilder::state),
    /// exactly (`Arc<T>` and `T` are different types).
    ///
    /// ```
    /// use framework::{InputMeta, StateMeta};
    ///
    /// struct Tokens;
    ///
    /// const INPUT: InputMeta = InputMeta::request().with_state(&[StateMeta::of::<Tokens>]);
    /// assert_eq!((INPUT.states[0])(), StateMeta::of::<Tokens>());
    /// ```
    pub const fn with_state(mut self, states: &'static [StateFn]) -> Self {
        self.states = states;
        self
    }
}

/// Builds a type's schema into a registry: `<T as ToSchema>::schema`.
pub type SchemaFn = fn(&mut crate::schema::Registry) -> crate::schema::Schema;
