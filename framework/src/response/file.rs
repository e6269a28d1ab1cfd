//! Byte answers: `bytes::Bytes` and [`Download`].

use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};

use super::{
    IntoResponse,
    file_naming::{FileNaming, OCTETS, file_naming_methods},
    insert_nosniff,
    text::with_media_type,
};
use crate::{
    body::Body,
    body::Response,
    describe::{ContentKind, ContentManifest, HeaderManifest, ResponseManifest},
    schema::Registry,
};

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
    naming: FileNaming,
}

impl Download {
    /// `bytes` as `application/octet-stream`, with no file name.
    pub fn new(bytes: impl Into<Bytes>) -> Self {
        Download {
            bytes: bytes.into(),
            naming: FileNaming::default(),
        }
    }

    file_naming_methods!();
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
        let (media_type, disposition) = match self.naming.header_values() {
            Ok(values) => values,
            Err(err) => return err.into_response(),
        };
        let mut response = with_media_type(Body::from(self.bytes), status, media_type);
        insert_nosniff(response.headers_mut());
        if let Some(disposition) = disposition {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, disposition);
        }
        response
    }
}
