//! Text answers: `String`, `&'static str`, `Cow<'static, str>`.

use std::borrow::Cow;

use http::{HeaderValue, StatusCode, header};

use super::IntoResponse;
use crate::{
    body::{Body, Response},
    describe::{ContentKind, ContentManifest, ResponseManifest},
    schema::{Registry, ToSchema},
};

/// The media type of text answers.
pub(super) const TEXT: &str = "text/plain; charset=utf-8";

/// A response with `body`, `status` and the media type `media_type`.
pub(super) fn with_media_type(body: Body, status: StatusCode, media_type: HeaderValue) -> Response {
    let mut response = http::Response::new(body);
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, media_type);
    response
}

/// The description of a text answer.
fn describe_text(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
    vec![
        ResponseManifest::new(status).with_content(ContentManifest::new(
            ContentKind::Text,
            TEXT,
            Some(String::schema(registry)),
        )),
    ]
}

/// `text/plain; charset=utf-8`, as every web framework answers a string.
/// Answer `Json(text)` for a JSON string.
impl IntoResponse for String {
    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        describe_text(status, registry)
    }

    fn into_response(self, status: StatusCode) -> Response {
        with_media_type(Body::from(self), status, HeaderValue::from_static(TEXT))
    }
}

impl IntoResponse for &'static str {
    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        describe_text(status, registry)
    }

    fn into_response(self, status: StatusCode) -> Response {
        with_media_type(Body::from(self), status, HeaderValue::from_static(TEXT))
    }
}

impl IntoResponse for Cow<'static, str> {
    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        describe_text(status, registry)
    }

    fn into_response(self, status: StatusCode) -> Response {
        match self {
            Cow::Borrowed(text) => text.into_response(status),
            Cow::Owned(text) => text.into_response(status),
        }
    }
}
