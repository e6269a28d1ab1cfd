//! A request body read within the app's size limit and body timeout, chunk
//! by chunk: what [`BodyStream`](crate::BodyStream) and
//! [`RequestContext::take_body_stream`](super::RequestContext::take_body_stream)
//! are made of.

use std::{
    pin::Pin,
    task::{Context, Poll, ready},
    time::Duration,
};

use bytes::Bytes;
use futures_util::{Stream, TryStreamExt};
use http_body::Body as _;
use http_body_util::BodyExt as _;
use tokio::time::Sleep;

use super::RequestBody;
use crate::error::{ApiError, refusal};

/// A request body refused past its limit or after its timeout; its chunks
/// (or the refusal that ends it) as a stream.
#[derive(Debug)]
pub(crate) struct LimitedBody {
    /// `None` once the body ended or failed.
    body: Option<RequestBody>,
    limit: usize,
    read: usize,
    timeout: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl LimitedBody {
    /// `body`, refused past `limit` bytes or after `timeout`.
    pub(crate) fn new(body: RequestBody, limit: usize, timeout: Duration) -> Self {
        LimitedBody {
            body: Some(body),
            limit,
            read: 0,
            timeout,
            deadline: Box::pin(tokio::time::sleep(timeout)),
        }
    }

    /// The same chunks as a request body, whose errors are [`ApiError`]s.
    pub(crate) fn into_body(self) -> RequestBody {
        http_body_util::StreamBody::new(
            self.map_ok(http_body::Frame::data)
                .map_err(crate::BoxError::from),
        )
        .boxed_unsync()
    }

    /// How many bytes were read so far.
    pub(crate) fn bytes_read(&self) -> usize {
        self.read
    }

    /// Ends the stream after `err`: nothing more is read.
    fn fail(&mut self, err: ApiError) -> Poll<Option<Result<Bytes, ApiError>>> {
        self.body = None;
        Poll::Ready(Some(Err(err)))
    }
}

impl Stream for LimitedBody {
    type Item = Result<Bytes, ApiError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            let Some(body) = this.body.as_mut() else {
                return Poll::Ready(None);
            };
            let frame = match Pin::new(body).poll_frame(cx) {
                Poll::Ready(frame) => frame,
                Poll::Pending => {
                    ready!(this.deadline.as_mut().poll(cx));
                    return this.fail(too_slow(this.timeout));
                }
            };
            match frame {
                None => {
                    this.body = None;
                    return Poll::Ready(None);
                }
                Some(Err(err)) => {
                    return this.fail(
                        refusal::BODY_READ_FAILED.error(format!("body: could not be read: {err}")),
                    );
                }
                Some(Ok(frame)) => {
                    // Trailers carry no bytes: read on.
                    let Ok(data) = frame.into_data() else {
                        continue;
                    };
                    this.read = this.read.saturating_add(data.len());
                    if this.read > this.limit {
                        return this.fail(too_large(this.limit));
                    }
                    return Poll::Ready(Some(Ok(data)));
                }
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.body {
            Some(body) if !body.is_end_stream() => (0, None),
            _ => (0, Some(0)),
        }
    }
}

/// `408 request_timeout`: the body did not arrive within `timeout`.
pub(crate) fn too_slow(timeout: Duration) -> ApiError {
    refusal::REQUEST_TIMEOUT.error(format!(
        "body: did not arrive within {} ms",
        timeout.as_millis()
    ))
}

/// `413 payload_too_large`: the body is larger than `limit` bytes.
pub(crate) fn too_large(limit: usize) -> ApiError {
    refusal::PAYLOAD_TOO_LARGE.error(format!("body: larger than the limit of {limit} bytes"))
}

#[cfg(test)]
mod tests {
    use http::StatusCode;

    use futures_util::StreamExt;
    use http_body_util::BodyExt;

    use super::*;

    fn streamed(chunks: Vec<&'static str>, limit: usize, timeout: Duration) -> LimitedBody {
        let body = http_body_util::StreamBody::new(futures_util::stream::iter(
            chunks
                .into_iter()
                .map(|chunk| Ok(http_body::Frame::data(Bytes::from(chunk)))),
        ));
        LimitedBody::new(body.boxed_unsync(), limit, timeout)
    }

    #[tokio::test]
    async fn yields_chunks_then_refuses_the_one_past_the_limit_and_stops() {
        let mut body = streamed(vec!["abc", "def", "ghi", "jkl"], 7, Duration::from_secs(5));
        assert_eq!(body.next().await.unwrap().unwrap(), "abc");
        assert_eq!(body.next().await.unwrap().unwrap(), "def");
        let refused = body.next().await.unwrap().unwrap_err();
        assert_eq!(refused.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert!(
            body.next().await.is_none(),
            "nothing is read past the limit"
        );
        assert_eq!(body.bytes_read(), 9);
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_stalls_past_the_timeout_is_408() {
        let body = http_body_util::StreamBody::new(
            futures_util::stream::iter([Ok::<_, crate::BoxError>(http_body::Frame::data(
                Bytes::from("first"),
            ))])
            .chain(futures_util::stream::pending()),
        );
        let timeout = Duration::from_secs(2);
        let mut body = LimitedBody::new(body.boxed_unsync(), 100, timeout);
        assert_eq!(body.next().await.unwrap().unwrap(), "first");
        let refused = body.next().await.unwrap().unwrap_err();
        assert_eq!(refused.status(), StatusCode::REQUEST_TIMEOUT);
        assert_eq!(refused.code(), "request_timeout");
        assert!(body.next().await.is_none());
    }

    #[tokio::test]
    async fn as_a_body_its_refusal_is_an_api_error() {
        let mut body = streamed(vec!["abc", "def"], 4, Duration::from_secs(5)).into_body();
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first, "abc");
        let err = body.frame().await.unwrap().unwrap_err();
        let refused = err.downcast::<ApiError>().unwrap();
        assert_eq!(refused.status(), StatusCode::PAYLOAD_TOO_LARGE);
    }
}
