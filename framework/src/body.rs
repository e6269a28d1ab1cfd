//! The response body type: a complete buffer (the fast path every JSON and
//! text answer takes) or a stream of frames (files, server-sent events).

use std::{
    any::Any,
    pin::Pin,
    task::{Context, Poll},
};

use bytes::Bytes;
use futures_util::{Stream, TryStreamExt};
use http_body::{Frame, SizeHint};
use http_body_util::{BodyExt, StreamBody, combinators::UnsyncBoxBody};

/// A boxed error of a body, a connection or a service, as hyper and tower
/// carry them. Defined here, at the bottom, since everything above uses it.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The response type every handler's answer is turned into.
pub type Response = http::Response<Body>;

/// A response body: a complete buffer, or a stream of frames pulled as the
/// connection can take them.
///
/// A complete buffer is not boxed: [`Body::from`] a `String`, `Vec<u8>` or
/// [`Bytes`] is one value of the same size as `Bytes`, sent with its
/// `Content-Length`. A stream ([`Body::new`], [`Body::from_stream`]) is
/// boxed once, and polled only when the connection has room for more, so a
/// slow client holds back the stream instead of making the server buffer it.
///
/// ```
/// use framework::Body;
/// use http_body::Body as _;
///
/// let body = Body::from("hello");
/// assert_eq!(body.size_hint().exact(), Some(5));
/// assert!(Body::empty().is_end_stream());
///
/// let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>("a"), Ok("b")]);
/// let streamed = Body::from_stream(chunks);
/// assert_eq!(streamed.size_hint().exact(), None);
/// ```
#[derive(Debug, Default)]
pub struct Body {
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    /// Every byte, known now; empty when sent or when there was none.
    Full(Bytes),
    /// Frames produced later, or an error whose body is written later.
    Later(Later),
}

/// A body that is not a complete buffer. Apart from [`Kind::Full`], so
/// that a body stays the size of its bytes.
#[derive(Debug)]
enum Later {
    /// Frames produced later.
    Stream(UnsyncBoxBody<Bytes, BoxError>),
    /// An error whose body the app writes as it leaves (by its error
    /// contract); written as its default body if it is sent without
    /// leaving an app.
    Error(Box<dyn DeferredError>),
}

/// An error answer's content, kept until the answer leaves the app so that
/// the app's error contract writes its body (see `dispatch.rs`).
pub(crate) trait DeferredError: std::fmt::Debug + Send + 'static {
    /// The body it has when no contract writes it.
    fn default_body(&self) -> Bytes;

    /// Itself, to be taken back by its type.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl Default for Kind {
    fn default() -> Self {
        Kind::Full(Bytes::new())
    }
}

impl Body {
    /// A body with no bytes.
    pub const fn empty() -> Self {
        Body {
            kind: Kind::Full(Bytes::new()),
        }
    }

    /// Any [`http_body::Body`] of [`Bytes`]: its frames are sent as it
    /// produces them, and its size hint is kept (an exact one becomes the
    /// `Content-Length`).
    ///
    /// ```
    /// use framework::Body;
    /// use http_body::Body as _;
    ///
    /// let body = Body::new(http_body_util::Full::new(bytes::Bytes::from("hi")));
    /// assert_eq!(body.size_hint().exact(), Some(2));
    /// ```
    pub fn new<B>(body: B) -> Self
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        Body {
            kind: Kind::Later(Later::Stream(body.map_err(Into::into).boxed_unsync())),
        }
    }

    /// A stream of chunks; the body fails (the connection is closed, as the
    /// answer cannot be completed) at the first error.
    pub fn from_stream<S, D, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<D, E>> + Send + 'static,
        D: Into<Bytes> + 'static,
        E: Into<BoxError> + 'static,
    {
        Body::new(StreamBody::new(
            stream
                .map_ok(|chunk| Frame::data(chunk.into()))
                .map_err(Into::into),
        ))
    }

    /// Whether it is a stream rather than a complete buffer.
    pub fn is_stream(&self) -> bool {
        matches!(self.kind, Kind::Later(Later::Stream(_)))
    }

    /// Whether it is an error answer whose body is not written yet.
    #[inline]
    pub(crate) fn is_deferred(&self) -> bool {
        matches!(self.kind, Kind::Later(Later::Error(_)))
    }

    /// An error answer whose body is written when it leaves the app.
    pub(crate) fn deferred(error: Box<dyn DeferredError>) -> Self {
        Body {
            kind: Kind::Later(Later::Error(error)),
        }
    }

    /// The error of an answer whose body is not written yet, taken out
    /// (the body is then empty).
    pub(crate) fn take_deferred(&mut self) -> Option<Box<dyn DeferredError>> {
        if !matches!(self.kind, Kind::Later(Later::Error(_))) {
            return None;
        }
        match std::mem::take(&mut self.kind) {
            Kind::Later(Later::Error(error)) => Some(error),
            _ => None,
        }
    }
}

impl From<Bytes> for Body {
    fn from(bytes: Bytes) -> Self {
        Body {
            kind: Kind::Full(bytes),
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
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let kind = &mut self.get_mut().kind;
        match kind {
            Kind::Full(data) if data.is_empty() => Poll::Ready(None),
            Kind::Full(data) => Poll::Ready(Some(Ok(Frame::data(std::mem::take(data))))),
            Kind::Later(Later::Stream(stream)) => Pin::new(stream).poll_frame(cx),
            Kind::Later(Later::Error(_)) => Poll::Ready(Some(Ok(Frame::data(deferred_body(kind))))),
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.kind {
            Kind::Full(data) => data.is_empty(),
            Kind::Later(Later::Stream(stream)) => stream.is_end_stream(),
            Kind::Later(Later::Error(_)) => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full(data) => SizeHint::with_exact(data.len() as u64),
            Kind::Later(Later::Stream(stream)) => stream.size_hint(),
            Kind::Later(Later::Error(_)) => SizeHint::default(),
        }
    }
}

/// The body of a deferred error nothing answered for (the problem
/// document), the body then ended. Out of line: rare, and kept out of the
/// write path of every answer, which hyper inlines this body's
/// `poll_frame` into.
#[cold]
#[inline(never)]
fn deferred_body(kind: &mut Kind) -> Bytes {
    let data = match kind {
        Kind::Later(Later::Error(error)) => error.default_body(),
        _ => Bytes::new(),
    };
    *kind = Kind::Full(Bytes::new());
    data
}

#[cfg(test)]
mod tests {
    use http_body::Body as _;
    use http_body_util::BodyExt;

    use super::*;

    #[test]
    fn a_complete_body_is_no_larger_than_its_bytes() {
        assert_eq!(std::mem::size_of::<Body>(), std::mem::size_of::<Bytes>());
    }

    #[tokio::test]
    async fn a_full_body_is_one_frame_then_the_end() {
        let mut body = Body::from("abc");
        assert!(!body.is_stream());
        let frame = body.frame().await.unwrap().unwrap();
        assert_eq!(frame.into_data().unwrap(), "abc");
        assert!(body.is_end_stream());
        assert!(body.frame().await.is_none());
    }

    #[tokio::test]
    async fn a_stream_is_sent_chunk_by_chunk_and_fails_at_its_error() {
        let chunks = futures_util::stream::iter([
            Ok("one".to_owned()),
            Ok("two".to_owned()),
            Err(std::io::Error::other("disk gone")),
        ]);
        let mut body = Body::from_stream(chunks);
        assert!(body.is_stream());
        assert_eq!(body.size_hint().exact(), None);
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        let second = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!((&first[..], &second[..]), (&b"one"[..], &b"two"[..]));
        let err = body.frame().await.unwrap().unwrap_err();
        assert_eq!(err.to_string(), "disk gone");
    }
}
