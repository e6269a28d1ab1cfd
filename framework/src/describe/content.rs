//! How a body travels ([`ContentKind`]), for a request's body and an
//! answer's alike.

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
