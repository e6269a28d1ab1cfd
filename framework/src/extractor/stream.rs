//! The request body as a stream of chunks.

use std::{
    pin::Pin,
    task::{Context, Poll},
};

use bytes::Bytes;
use futures_util::Stream;

use super::FromRequest;
use crate::{
    describe::{ContentKind, InputMeta},
    error::ApiError,
    request::{LimitedBody, RequestContext, too_large},
};

/// The request body as a stream of byte chunks, read as the handler asks
/// for them: a handler that copies an upload to disk never holds it whole.
///
/// The app's body limit and body timeout apply as they do to a collected
/// body: a `Content-Length` over the limit is refused with
/// `413 payload_too_large` before the handler runs; a body without one
/// yields that error as the chunk that crosses the limit, and nothing more
/// is read. The body timeout runs from the moment the handler gets the
/// stream: a body still arriving when it ends yields
/// `408 request_timeout`. A handler that answers a yielded error with `?`
/// gives the client that status and code.
///
/// The route documents an `application/octet-stream` body (bytes, no
/// schema), which OpenAPI shows as `format: binary`.
///
/// ```
/// use framework::prelude::*;
/// use framework::BodyStream;
/// use futures_util::StreamExt;
///
/// struct Uploads;
///
/// #[controller("uploads")]
/// impl Uploads {
///     /// Counts an upload's bytes without keeping them.
///     #[typed_route::post("")]
///     async fn count(&self, mut body: BodyStream) -> Result<String, ApiError> {
///         let mut total = 0;
///         while let Some(chunk) = body.next().await {
///             total += chunk?.len();
///         }
///         Ok(total.to_string())
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Uploads).body_limit(8).build().unwrap();
/// let ok = app.test_client().post("/uploads").body("application/octet-stream", "12345").send().await;
/// assert_eq!(ok.text(), "5");
/// let big = app.test_client().post("/uploads").body("application/octet-stream", "123456789").send().await;
/// assert_eq!(big.status(), 413);
/// assert_eq!(big.problem().code, "payload_too_large");
/// # });
/// ```
#[derive(Debug)]
pub struct BodyStream(LimitedBody);

impl BodyStream {
    /// How many bytes were read so far.
    pub fn bytes_read(&self) -> usize {
        self.0.bytes_read()
    }
}

impl Stream for BodyStream {
    type Item = Result<Bytes, ApiError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.get_mut().0).poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

/// Any bytes, whatever their media type, streamed.
impl FromRequest for BodyStream {
    const INPUT: InputMeta = InputMeta::body(ContentKind::Bytes, "application/octet-stream", None);

    async fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let limit = cx.body_limit();
        if cx
            .declared_length()
            .is_some_and(|length| length > limit as u64)
        {
            return Err(too_large(limit));
        }
        let body = cx
            .take_raw_body()
            .ok_or_else(|| ApiError::internal("the request body was already taken"))?;
        Ok(BodyStream(LimitedBody::new(body, limit, cx.body_timeout())))
    }
}
