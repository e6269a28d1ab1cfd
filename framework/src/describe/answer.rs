//! What an answer is ([`ResponseManifest`]): its status, body and headers.
//! Each answer type says it in `IntoResponse::describe`.

use serde::{Deserialize, Serialize};

use super::ContentKind;
use crate::schema::Schema;

/// One answer a route can give: its status, body and headers.
///
/// ```
/// use framework::{ContentKind, ContentManifest, HeaderManifest, ResponseManifest};
///
/// let created = ResponseManifest::new(201)
///     .with_content(ContentManifest::new(ContentKind::Text, "text/plain", None))
///     .with_header(HeaderManifest::new("Location", "Where the new resource is.", true));
/// assert_eq!(created.headers[0].name, "Location");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ResponseManifest {
    /// The HTTP status.
    pub status: u16,
    /// When it is given; empty for the status's reason phrase.
    pub description: String,
    /// The variant of a `#[derive(IntoResponse)]` enum that gives it.
    pub variant: Option<String>,
    /// Its body; `None` when it has none.
    pub content: Option<ContentManifest>,
    /// The headers it sets that a client may read.
    pub headers: Vec<HeaderManifest>,
}

impl ResponseManifest {
    /// An answer with `status`, no body and no headers.
    pub fn new(status: u16) -> Self {
        ResponseManifest {
            status,
            description: String::new(),
            variant: None,
            content: None,
            headers: Vec::new(),
        }
    }

    /// With a body.
    #[must_use]
    pub fn with_content(mut self, content: ContentManifest) -> Self {
        self.content = Some(content);
        self
    }

    /// With a header.
    #[must_use]
    pub fn with_header(mut self, header: HeaderManifest) -> Self {
        self.headers.push(header);
        self
    }

    /// With a description.
    #[must_use]
    pub fn described(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }

    /// Given by the enum variant `variant`, with `status`.
    #[must_use]
    pub fn for_variant(mut self, variant: &str, status: Option<u16>) -> Self {
        self.variant = Some(variant.to_owned());
        if let Some(status) = status {
            self.status = status;
        }
        self
    }
}

/// The body of an answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ContentManifest {
    /// How it is encoded.
    pub kind: ContentKind,
    /// Its media type.
    pub media_type: String,
    /// Its schema, for JSON, text and HTML; `None` for bytes.
    pub schema: Option<Schema>,
}

impl ContentManifest {
    /// A body encoded as `kind`, with `media_type` and `schema`.
    pub fn new(kind: ContentKind, media_type: &str, schema: Option<Schema>) -> Self {
        ContentManifest {
            kind,
            media_type: media_type.to_owned(),
            schema,
        }
    }
}

/// A response header an answer sets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct HeaderManifest {
    /// Its name, as written: `Location`.
    pub name: String,
    /// What it says.
    pub description: String,
    /// Whether every such answer has it.
    pub required: bool,
}

impl HeaderManifest {
    /// A header named `name`.
    pub fn new(name: &str, description: &str, required: bool) -> Self {
        HeaderManifest {
            name: name.to_owned(),
            description: description.to_owned(),
            required,
        }
    }
}
