//! HTML pages rendered from askama templates.

use http::{HeaderValue, StatusCode};

use super::{IntoResponse, html_headers, text::with_media_type};
use crate::{
    body::{Body, Response},
    describe::{ContentKind, ContentManifest, ResponseManifest},
    error::ApiError,
    schema::{Registry, ToSchema},
};

/// The media type of HTML pages.
const HTML: &str = "text/html; charset=utf-8";

/// An HTML page rendered from an askama template; askama escapes every
/// value it writes unless the template says `|safe`, so user-provided text
/// renders as text. A template that fails to render answers `500`.
///
/// A page carries security headers: a `Content-Security-Policy` that runs
/// no inline script or style the app did not allow, `X-Content-Type-Options:
/// nosniff`, `X-Frame-Options: DENY` and `Referrer-Policy:
/// strict-origin-when-cross-origin`; an app sets them with
/// [`AppBuilder::html_headers`](crate::AppBuilder::html_headers) (see
/// [`HtmlHeaders`](crate::HtmlHeaders)).
///
/// ```
/// use askama::Template;
/// use framework::{Html, IntoResponse};
/// use http::StatusCode;
///
/// #[derive(Template)]
/// #[template(source = "<h1>{{ title }}</h1>", ext = "html")]
/// struct Heading<'a> { title: &'a str }
///
/// let page = Html(Heading { title: "<script>" }).into_response(StatusCode::OK);
/// assert_eq!(page.headers()["content-type"], "text/html; charset=utf-8");
/// assert_eq!(page.headers()["x-content-type-options"], "nosniff");
/// assert!(page.headers()["content-security-policy"].to_str().unwrap().contains("script-src 'self';"));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Html<T>(pub T);

impl<T: askama::Template> IntoResponse for Html<T> {
    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        vec![
            ResponseManifest::new(status).with_content(ContentManifest::new(
                ContentKind::Html,
                HTML,
                Some(String::schema(registry)),
            )),
        ]
    }

    fn into_response(self, status: StatusCode) -> Response {
        match self.0.render() {
            Ok(page) => {
                let mut response =
                    with_media_type(Body::from(page), status, HeaderValue::from_static(HTML));
                html_headers::apply_defaults(response.headers_mut());
                response.extensions_mut().insert(html_headers::HtmlPage);
                response
            }
            Err(err) => {
                ApiError::internal(format_args!("rendering a page failed: {err}")).into_response()
            }
        }
    }
}
