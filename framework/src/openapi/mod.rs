#![doc = include_str!("../docs/openapi.md")]

#[cfg(feature = "openapi")]
mod build;
mod document;
#[cfg(feature = "openapi")]
mod schema;

/// Why a document could not be built: the manifest it is made from could
/// not be ([`ManifestError`](crate::manifest::ManifestError)).
pub use crate::describe::manifest::ManifestError as OpenApiError;
#[cfg(feature = "openapi")]
pub use build::WEBSOCKET_EXTENSION;
#[cfg(feature = "mcp")]
pub(crate) use build::{component_schemas, with_converter};
pub use document::OpenApiDocument;
#[cfg(feature = "mcp")]
pub(crate) use schema::Converter;
#[cfg(feature = "openapi")]
pub use schema::{ENUM_VARNAMES_EXTENSION, MAX_SIZE_EXTENSION};

/// utoipa's OpenAPI model, which the document is built with.
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub use utoipa::openapi;
#[cfg(feature = "docs-page")]
mod docs_page;
#[cfg(feature = "openapi")]
mod serve;

#[cfg(feature = "docs-page")]
#[cfg_attr(docsrs, doc(cfg(feature = "docs-page")))]
pub use docs_page::DOCS_PATH;
#[cfg(feature = "docs-page")]
pub(crate) use docs_page::{DOCS_ASSET_ROUTE, DOCS_ROUTE, DocsPage};
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub use serve::OPENAPI_PATH;
#[cfg(feature = "openapi")]
pub(crate) use serve::{Docs, OPENAPI_ROUTE, OPENAPI_VERSION_ROUTE, VersionDocs, version_path};
