//! What a handler argument reads ([`InputMeta`]): which part of the
//! request, its schema, the credential it needs and the errors it may
//! answer. Each extractor declares its own (`FromRequestParts::INPUT`,
//! `FromRequest::INPUT`).

use super::{ContentKind, ErrorMeta, SecurityMeta};

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
