//! A `multipart/form-data` body written by hand, for tests.

use bytes::{BufMut, Bytes, BytesMut};

/// A `multipart/form-data` body, part by part: what a browser or an SDK
/// sends, for tests of `TypedFormData` routes (the `multipart` feature)
/// ([`TestRequest::multipart`](crate::TestRequest::multipart)) or raw
/// requests over a socket.
///
/// ```
/// use framework::testing::MultipartBody;
///
/// let body = MultipartBody::new()
///     .text("title", "hello")
///     .file("picture", "a.png", "image/png", &b"\x89PNG"[..]);
/// assert!(body.content_type().starts_with("multipart/form-data; boundary="));
/// let bytes = body.to_bytes();
/// assert!(bytes.ends_with(b"--\r\n"));
/// ```
#[derive(Clone, Debug)]
pub struct MultipartBody {
    boundary: String,
    bytes: BytesMut,
}

impl Default for MultipartBody {
    fn default() -> Self {
        Self::new()
    }
}

impl MultipartBody {
    /// An empty form.
    pub fn new() -> Self {
        MultipartBody {
            boundary: "framework-test-boundary-7MA4YWxkTrZu0gW".to_owned(),
            bytes: BytesMut::new(),
        }
    }

    /// The `Content-Type` header of the body.
    pub fn content_type(&self) -> String {
        format!("multipart/form-data; boundary={}", self.boundary)
    }

    /// Adds a text part.
    pub fn text(self, name: &str, value: &str) -> Self {
        self.part(name, None, None, value.as_bytes())
    }

    /// Adds a file part.
    pub fn file(self, name: &str, file_name: &str, media_type: &str, bytes: &[u8]) -> Self {
        self.part(name, Some(file_name), Some(media_type), bytes)
    }

    /// Adds a part with the headers given.
    pub fn part(
        mut self,
        name: &str,
        file_name: Option<&str>,
        media_type: Option<&str>,
        bytes: &[u8],
    ) -> Self {
        self.bytes
            .put_slice(self.head(name, file_name, media_type).as_bytes());
        self.bytes.put_slice(bytes);
        self.bytes.put_slice(b"\r\n");
        self
    }

    /// The headers of a part, with the boundary line before them; the
    /// part's bytes and `\r\n` follow.
    pub fn head(&self, name: &str, file_name: Option<&str>, media_type: Option<&str>) -> String {
        let mut head = format!(
            "--{}\r\nContent-Disposition: form-data; name=\"{name}\"",
            self.boundary
        );
        if let Some(file_name) = file_name {
            head.push_str(&format!("; filename=\"{file_name}\""));
        }
        head.push_str("\r\n");
        if let Some(media_type) = media_type {
            head.push_str(&format!("Content-Type: {media_type}\r\n"));
        }
        head.push_str("\r\n");
        head
    }

    /// What ends the body.
    pub fn closing(&self) -> String {
        format!("--{}--\r\n", self.boundary)
    }

    /// The whole body, closed.
    pub fn to_bytes(&self) -> Bytes {
        let mut bytes = self.bytes.clone();
        bytes.put_slice(self.closing().as_bytes());
        bytes.freeze()
    }

    /// The parts so far, not closed: a truncated body.
    pub fn unclosed(&self) -> Bytes {
        self.bytes.clone().freeze()
    }
}
