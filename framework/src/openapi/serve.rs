//! Serving the document (`GET /openapi.json`) and an interactive docs page
//! (`GET /docs`, Swagger UI embedded at build time, so it works offline).

use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};

use crate::{
    body::{Body, Response},
    describe::RouteMeta,
    error::ApiError,
};

/// Where the document is served.
pub const OPENAPI_PATH: &str = "/openapi.json";
/// Where the docs page is served.
pub const DOCS_PATH: &str = "/docs";

const fn builtin(
    handler: &'static str,
    path: &'static str,
    router_path: &'static str,
) -> RouteMeta {
    RouteMeta::framework_get(handler, path, router_path)
}

pub(crate) static OPENAPI_ROUTE: RouteMeta = builtin("openapi", OPENAPI_PATH, OPENAPI_PATH);
pub(crate) static DOCS_ROUTE: RouteMeta = builtin("docs", DOCS_PATH, DOCS_PATH);
pub(crate) static DOCS_ASSET_ROUTE: RouteMeta =
    builtin("docs_asset", "/docs/*file", "/docs/{*file}");

/// The built document and the docs page's configuration.
#[derive(Clone)]
pub(crate) struct Docs {
    json: Bytes,
    config: Arc<utoipa_swagger_ui::Config<'static>>,
}

impl Docs {
    pub(crate) fn new(json: String) -> Self {
        Docs {
            json: Bytes::from(json),
            config: Arc::new(utoipa_swagger_ui::Config::from(OPENAPI_PATH)),
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

    /// `GET /docs`: the page lives under `/docs/`.
    pub(crate) fn redirect() -> Response {
        let mut response = http::Response::new(Body::empty());
        *response.status_mut() = StatusCode::MOVED_PERMANENTLY;
        response.headers_mut().insert(
            header::LOCATION,
            HeaderValue::from_static("/docs/index.html"),
        );
        response
    }

    /// `GET /docs/{file}`: Swagger UI's files.
    pub(crate) fn asset(&self, file: &str) -> Response {
        match utoipa_swagger_ui::serve(file, Arc::clone(&self.config)) {
            Ok(Some(found)) => {
                let mut response =
                    http::Response::new(Body::from(Bytes::from(found.bytes.into_owned())));
                if let Ok(content_type) = HeaderValue::from_str(&found.content_type) {
                    response
                        .headers_mut()
                        .insert(header::CONTENT_TYPE, content_type);
                }
                response
            }
            Ok(None) => ApiError::not_found(format!("no docs file `{file}`")).into_response(),
            Err(err) => ApiError::internal(format_args!("serving docs file `{file}`: {err}"))
                .into_response(),
        }
    }
}
