//! Why routes' descriptions cannot make one manifest.

/// Why a manifest (and so an OpenAPI document) could not be built from
/// routes' descriptions. Also named `framework::openapi::OpenApiError`.
///
/// ```
/// use framework::manifest::{ApiManifest, ManifestError};
/// use framework::prelude::*;
///
/// mod first { #[framework::dto] pub struct Note { pub text: String } }
/// mod second { #[framework::dto] pub struct Note { pub id: u64 } }
///
/// struct Notes;
///
/// #[controller("notes")]
/// impl Notes {
///     #[typed_route::post("")]
///     async fn create(&self, body: TypedBody<first::Note>) -> second::Note {
///         second::Note { id: body.text.len() as u64 }
///     }
/// }
///
/// let routes = <Notes as Controller>::routes();
/// let refused = ApiManifest::build("Notes", "1.0.0", None, routes.iter().map(|route| route.meta()));
/// assert!(matches!(refused, Err(ManifestError::AmbiguousName { .. })));
/// ```
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ManifestError {
    /// Two different types would get the same component name.
    #[error(
        "two types are named `{name}` in the OpenAPI document: `{first}` and `{second}`; rename one with #[serde(rename = \"...\")]"
    )]
    AmbiguousName {
        /// The component name.
        name: String,
        /// One Rust type.
        first: &'static str,
        /// The other.
        second: &'static str,
    },
    /// Two guards declare different security schemes with one name.
    #[error(
        "two different security schemes are named `{name}`; give each `SecurityMeta` its own name"
    )]
    AmbiguousScheme {
        /// The scheme's name.
        name: String,
    },
    /// A route reads or answers a `File` where none can travel.
    #[error("route {route}: {reason}")]
    MisplacedFile {
        /// The route: `POST /avatars (Avatars::upload)`.
        route: String,
        /// Where the file is and what to write instead.
        reason: String,
    },
}
