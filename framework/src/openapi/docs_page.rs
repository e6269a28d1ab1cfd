//! The interactive docs page (`GET /docs`): Swagger UI, embedded at build
//! time so it works offline, reading the document at `/openapi.json`.
//! Compiled with the `docs-page` feature only.

use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};

use super::serve::{OPENAPI_PATH, builtin};
use crate::{
    body::{Body, Response},
    describe::RouteMeta,
    error::ApiError,
};

/// Where the docs page is served (with the `docs-page` feature).
pub const DOCS_PATH: &str = "/docs";

pub(crate) static DOCS_ROUTE: RouteMeta = builtin("docs", DOCS_PATH, DOCS_PATH);
pub(crate) static DOCS_ASSET_ROUTE: RouteMeta =
    builtin("docs_asset", "/docs/*file", "/docs/{*file}");

/// Swagger UI's configuration: where it finds the document.
#[derive(Clone)]
pub(crate) struct DocsPage {
    config: Arc<utoipa_swagger_ui::Config<'static>>,
}

impl DocsPage {
    /// The page of the document at `/openapi.json`; with `versions` (each
    /// version's name and document path, the default's first), a choice
    /// of them, the default's shown first.
    pub(crate) fn new(versions: &[(String, String)]) -> Self {
        if versions.is_empty() {
            return DocsPage {
                config: Arc::new(utoipa_swagger_ui::Config::from(OPENAPI_PATH)),
            };
        }
        // Built once per app; Swagger UI's configuration borrows its URLs
        // for as long as the page is served.
        let leak = |text: &str| -> &'static str { Box::leak(text.to_owned().into_boxed_str()) };
        let urls = versions.iter().enumerate().map(|(index, (name, path))| {
            utoipa_swagger_ui::Url::with_primary(leak(name), leak(path), index == 0)
        });
        DocsPage {
            config: Arc::new(utoipa_swagger_ui::Config::new(urls)),
        }
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
