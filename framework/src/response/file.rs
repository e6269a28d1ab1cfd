//! Byte answers: `bytes::Bytes` and [`Download`].

use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};

use super::{IntoResponse, html_headers::insert_nosniff, text::with_media_type};
use crate::{
    body::Body,
    body::Response,
    describe::{ContentKind, ContentManifest, HeaderManifest, ResponseManifest},
    error::ApiError,
    schema::Registry,
};

/// The media type of bytes that say nothing of themselves.
const OCTETS: &str = "application/octet-stream";

fn describe_bytes(status: u16) -> ResponseManifest {
    ResponseManifest::new(status).with_content(ContentManifest::new(
        ContentKind::Bytes,
        OCTETS,
        None,
    ))
}

/// `application/octet-stream`.
impl IntoResponse for Bytes {
    fn describe(status: u16, _: &mut Registry) -> Vec<ResponseManifest> {
        vec![describe_bytes(status)]
    }

    fn into_response(self, status: StatusCode) -> Response {
        with_media_type(Body::from(self), status, HeaderValue::from_static(OCTETS))
    }
}

/// Bytes with a media type, and a file name for `Content-Disposition`
/// (`attachment` to save it, `inline` to show it).
///
/// ```
/// use framework::{Download, IntoResponse};
/// use http::StatusCode;
///
/// let png = Download::new(vec![0x89, b'P', b'N', b'G'])
///     .media_type("image/png")
///     .attachment("logo.png");
/// let response = png.into_response(StatusCode::OK);
/// assert_eq!(response.headers()["content-type"], "image/png");
/// assert_eq!(response.headers()["content-disposition"], "attachment; filename=\"logo.png\"");
/// assert_eq!(response.headers()["x-content-type-options"], "nosniff");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Download {
    bytes: Bytes,
    media_type: String,
    disposition: Option<(&'static str, String)>,
}

impl Download {
    /// `bytes` as `application/octet-stream`, with no file name.
    pub fn new(bytes: impl Into<Bytes>) -> Self {
        Download {
            bytes: bytes.into(),
            media_type: OCTETS.to_owned(),
            disposition: None,
        }
    }

    /// The media type, e.g. `image/png`.
    #[must_use]
    pub fn media_type(mut self, media_type: impl Into<String>) -> Self {
        self.media_type = media_type.into();
        self
    }

    /// To be saved as `filename`.
    #[must_use]
    pub fn attachment(mut self, filename: impl Into<String>) -> Self {
        self.disposition = Some(("attachment", filename.into()));
        self
    }

    /// To be shown, named `filename`.
    #[must_use]
    pub fn inline(mut self, filename: impl Into<String>) -> Self {
        self.disposition = Some(("inline", filename.into()));
        self
    }
}

/// `attachment; filename="a.txt"`, with RFC 6266's `filename*` for a name
/// that is not plain ASCII.
pub(super) fn content_disposition(kind: &str, filename: &str) -> Option<HeaderValue> {
    let plain = filename
        .chars()
        .all(|c| c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ');
    let value = if plain {
        format!("{kind}; filename=\"{filename}\"")
    } else {
        let fallback: String = filename
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let encoded =
            percent_encoding::utf8_percent_encode(filename, percent_encoding::NON_ALPHANUMERIC);
        format!("{kind}; filename=\"{fallback}\"; filename*=UTF-8''{encoded}")
    };
    HeaderValue::try_from(value).ok()
}

impl IntoResponse for Download {
    fn describe(status: u16, _: &mut Registry) -> Vec<ResponseManifest> {
        vec![describe_bytes(status).with_header(HeaderManifest::new(
            "Content-Disposition",
            "The file's name, and whether to save or show it.",
            false,
        ))]
    }

    fn into_response(self, status: StatusCode) -> Response {
        let Ok(media_type) = HeaderValue::try_from(self.media_type.as_str()) else {
            return ApiError::internal(format_args!("{:?} is not a media type", self.media_type))
                .into_response();
        };
        let mut response = with_media_type(Body::from(self.bytes), status, media_type);
        insert_nosniff(response.headers_mut());
        if let Some((kind, filename)) = &self.disposition {
            match content_disposition(kind, filename) {
                Some(value) => {
                    response
                        .headers_mut()
                        .insert(header::CONTENT_DISPOSITION, value);
                }
                None => {
                    return ApiError::internal("a file name cannot be a header").into_response();
                }
            }
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::content_disposition;

    #[test]
    fn encodes_names_that_are_not_ascii() {
        assert_eq!(
            content_disposition("attachment", "résumé 1.pdf").unwrap(),
            "attachment; filename=\"r_sum__1.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9%201%2Epdf"
        );
        assert_eq!(
            content_disposition("inline", "a\"b.txt").unwrap(),
            "inline; filename=\"a_b.txt\"; filename*=UTF-8''a%22b%2Etxt"
        );
    }
}
