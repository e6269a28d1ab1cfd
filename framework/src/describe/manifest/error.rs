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
    /// Two routes have one operation id: the OpenAPI document's
    /// `operationId`, unique by its definition.
    #[error(
        "two routes have the operation id `{operation_id}`: {first} and {second}; name one of them with `operation_id = \"...\"` in its route attribute"
    )]
    DuplicateOperationId {
        /// The operation id.
        operation_id: String,
        /// The first route: `POST /users/login (Users::login)`.
        first: String,
        /// The second.
        second: String,
    },
    /// Two routes in the SDKs would be one function
    /// ([`RouteManifest::accessor`](super::RouteManifest::accessor)).
    #[error(
        "two routes would be the SDK function `{name}`: {first} and {second}; name one of them with `operation_id = \"...\"` in its route attribute"
    )]
    DuplicateSdkName {
        /// The function's accessor joined by dots: `users.login`.
        name: String,
        /// The first route.
        first: String,
        /// The second.
        second: String,
    },
    /// A route's SDK function would have the name of a namespace holding
    /// another route's: `users.login` and `users.login.refresh`.
    #[error(
        "route {function} would be the SDK function `{name}`, but `{name}` is also the namespace of {inside} (`{inside_name}`); name one of them with `operation_id = \"...\"` in its route attribute"
    )]
    SdkNameIsNamespace {
        /// The function's accessor joined by dots: `users.login`.
        name: String,
        /// The route whose function it is.
        function: String,
        /// The route inside the namespace.
        inside: String,
        /// That route's accessor joined by dots: `users.login.refresh`.
        inside_name: String,
    },
}
