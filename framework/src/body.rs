//! The response body type.

use std::{
    convert::Infallible,
    pin::Pin,
    task::{Context, Poll},
};

use bytes::Bytes;
use http_body::{Frame, SizeHint};

/// The response type every handler's answer is turned into.
pub type Response = http::Response<Body>;

/// A response body: a complete buffer or nothing.
///
/// ```
/// use framework::Body;
/// use http_body::Body as _;
///
/// let body = Body::from("hello");
/// assert_eq!(body.size_hint().exact(), Some(5));
/// assert!(Body::empty().is_end_stream());
/// ```
#[derive(Debug, Default)]
pub struct Body {
    data: Option<Bytes>,
}

impl Body {
    /// A body with no bytes.
    pub const fn empty() -> Self {
        Body { data: None }
    }
}

impl From<Bytes> for Body {
    fn from(bytes: Bytes) -> Self {
        Body {
            data: (!bytes.is_empty()).then_some(bytes),
        }
    }
}

impl From<Vec<u8>> for Body {
    fn from(bytes: Vec<u8>) -> Self {
        Body::from(Bytes::from(bytes))
    }
}

impl From<String> for Body {
    fn from(text: String) -> Self {
        Body::from(Bytes::from(text))
    }
}

impl From<&'static str> for Body {
    fn from(text: &'static str) -> Self {
        Body::from(Bytes::from_static(text.as_bytes()))
    }
}

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.data.take().map(|data| Ok(Frame::data(data))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.data.as_ref().map_or(0, |data| data.len() as u64))
    }
}
