//! Serving the document (`GET /openapi.json`); the docs page that reads it
//! is `docs_page.rs`, with the `docs-page` feature.

use bytes::Bytes;
use http::{HeaderValue, header};

use crate::{
    body::{Body, Response},
    describe::RouteMeta,
};

/// Where the document is served.
pub const OPENAPI_PATH: &str = "/openapi.json";

pub(super) const fn builtin(
    handler: &'static str,
    path: &'static str,
    router_path: &'static str,
) -> RouteMeta {
    RouteMeta::framework_get(handler, path, router_path)
}

pub(crate) static OPENAPI_ROUTE: RouteMeta = builtin("openapi", OPENAPI_PATH, OPENAPI_PATH);

/// Where the document of each version is served, for an app that serves
/// versions: `/openapi/2.0.0.json`.
pub(crate) static OPENAPI_VERSION_ROUTE: RouteMeta =
    builtin("openapi_version", "/openapi/:file", "/openapi/{file}");

/// The path of a version's document.
pub(crate) fn version_path(version: &str) -> String {
    format!("/openapi/{version}.json")
}

/// The documents of an app's versions, by version.
#[derive(Clone)]
pub(crate) struct VersionDocs(pub(crate) std::sync::Arc<[(String, Docs)]>);

impl VersionDocs {
    /// `GET /openapi/<version>.json`: that version's document, or `404`.
    pub(crate) fn answer(&self, file: &str) -> Response {
        let version = file.strip_suffix(".json").unwrap_or(file);
        match self.0.iter().find(|(known, _)| known == version) {
            Some((_, docs)) => docs.document(),
            None => crate::error::refusal::NOT_FOUND
                .error(format!(
                    "no document of version {version:?}; there are {}",
                    self.0
                        .iter()
                        .map(|(known, _)| version_path(known))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .into_response(),
        }
    }
}

/// The built document, served as it is.
#[derive(Clone)]
pub(crate) struct Docs {
    json: Bytes,
}

impl Docs {
    pub(crate) fn new(json: String) -> Self {
        Docs {
            json: Bytes::from(json),
        }
    }

    /// The document as JSON.
    pub(crate) fn json(&self) -> &Bytes {
        &self.json
    }

    /// `GET /openapi.json`.
    pub(crate) fn document(&self) -> Response {
        let mut response = http::Response::new(Body::from(self.json.clone()));
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    }
}
