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
