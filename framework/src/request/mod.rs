//! The request as extractors see it: head, body, path values and the app's
//! shared state.

use std::{
    any::{Any, TypeId},
    collections::HashMap,
    sync::Arc,
    time::Duration,
};

use bytes::Bytes;
use http::{header, request::Parts};
use http_body_util::{BodyExt, combinators::UnsyncBoxBody};

use crate::{
    body::BoxError,
    dto::read::{AnyDecoder, Decoder, decoder_of},
    error::{ApiError, refusal},
    shutdown::Shutdown,
};

mod limited;

pub(crate) use limited::{LimitedBody, too_large, too_slow};

/// A request body not read yet: a stream of byte chunks.
pub type RequestBody = UnsyncBoxBody<Bytes, BoxError>;

/// What every request of an app shares: body limits and the values given to
/// [`AppBuilder::state`](crate::AppBuilder::state).
#[derive(Debug, Default)]
pub(crate) struct Shared {
    pub(crate) body_limit: usize,
    pub(crate) body_timeout: Duration,
    pub(crate) states: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
    pub(crate) shutdown: Shutdown,
    /// How requests from other origins are checked.
    pub(crate) origins: crate::cross_origin::OriginPolicy,
    /// The app's open WebSockets, which a graceful shutdown waits for.
    #[cfg(feature = "ws")]
    pub(crate) sockets: crate::ws::OpenSockets,
}

/// One request after routing: its head, its body (present only for routes
/// with a body extractor, until that extractor takes it), the
/// percent-decoded values of its path parameters in the order of
/// [`RouteMeta::path_params`](crate::RouteMeta::path_params), and the app's
/// shared state.
///
/// Extractors ([`FromRequestParts`](crate::FromRequestParts),
/// [`FromRequest`](crate::FromRequest)) read from it.
#[derive(Debug)]
pub struct RequestContext {
    parts: Parts,
    body: Option<RequestBody>,
    path_values: Vec<String>,
    shared: Arc<Shared>,
    /// The generated decoder of the body's type, as the route found it
    /// (`extractor/body_decoder.rs`).
    json_decoder: Option<AnyDecoder>,
}

impl RequestContext {
    pub(crate) fn new(
        parts: Parts,
        body: Option<RequestBody>,
        path_values: Vec<String>,
        shared: Arc<Shared>,
    ) -> Self {
        RequestContext {
            parts,
            body,
            path_values,
            shared,
            json_decoder: None,
        }
    }

    /// The generated decoder of the body's type `T` the route found, if
    /// any.
    pub(crate) fn json_decoder<T: 'static>(&self) -> Option<Decoder<T>> {
        decoder_of(self.json_decoder)
    }

    /// Sets what [`RequestContext::json_decoder`] finds.
    pub(crate) fn set_json_decoder(&mut self, decoder: Option<AnyDecoder>) {
        self.json_decoder = decoder;
    }

    /// The request line and headers.
    pub fn parts(&self) -> &Parts {
        &self.parts
    }

    /// The request line and headers, to change for later extractors (e.g.
    /// a guard that stores what it found in [`Parts::extensions`]).
    pub fn parts_mut(&mut self) -> &mut Parts {
        &mut self.parts
    }

    /// The request headers.
    pub fn headers(&self) -> &http::HeaderMap {
        &self.parts.headers
    }

    /// The decoded value of the `index`-th path parameter.
    pub fn path_value(&self, index: usize) -> Option<&str> {
        self.path_values.get(index).map(String::as_str)
    }

    /// A value given to [`AppBuilder::state`](crate::AppBuilder::state),
    /// e.g. the store a guard looks tokens up in. `T` is the exact type
    /// given: a value given as `Arc<T>` is read as `Arc<T>`.
    ///
    /// An extractor declares the types it reads here in its `INPUT`
    /// ([`InputMeta::with_state`](crate::InputMeta::with_state)), and
    /// [`AppBuilder::build`](crate::AppBuilder::build) then refuses an app
    /// that lacks one, naming the route, the extractor and the type.
    ///
    /// # Errors
    /// `500 internal_error` when the app was built without such a value (the
    /// detail, naming the type, goes to the log): only for a type the
    /// extractor did not declare.
    pub fn state<T: Send + Sync + 'static>(&self) -> Result<&T, ApiError> {
        self.find_state::<T>().ok_or_else(|| {
            ApiError::internal(format_args!(
                "no state of type `{}`: add it with `App::builder().state(..)`",
                std::any::type_name::<T>()
            ))
        })
    }

    /// A value given to [`AppBuilder::state`](crate::AppBuilder::state), if
    /// there is one (an optional setting, say).
    pub(crate) fn find_state<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.shared
            .states
            .get(&TypeId::of::<T>())
            .and_then(|state| state.downcast_ref::<T>())
    }

    /// How the app checks requests from other origins.
    #[cfg(any(feature = "ws", feature = "mcp"))]
    pub(crate) fn origins(&self) -> &crate::cross_origin::OriginPolicy {
        &self.shared.origins
    }

    /// The app's open WebSockets.
    #[cfg(feature = "ws")]
    pub(crate) fn open_sockets(&self) -> &crate::ws::OpenSockets {
        &self.shared.sockets
    }

    /// A value given to [`AppBuilder::state`](crate::AppBuilder::state), if
    /// there is one; for settings that may be left out.
    #[cfg(feature = "multipart")]
    pub(crate) fn try_state<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.shared
            .states
            .get(&TypeId::of::<T>())
            .and_then(|state| state.downcast_ref::<T>())
    }

    /// The app's shutdown signal: whether a graceful shutdown has begun, and
    /// a future that completes when it does (to end a long stream in time).
    pub fn shutdown(&self) -> &Shutdown {
        &self.shared.shutdown
    }

    /// The body limit in bytes of this app.
    pub fn body_limit(&self) -> usize {
        self.shared.body_limit
    }

    /// How long this app lets a request body take to arrive.
    pub fn body_timeout(&self) -> Duration {
        self.shared.body_timeout
    }

    /// Takes the body, with no limit applied: for the framework's own
    /// streaming extractor, which applies both limits itself.
    pub(crate) fn take_raw_body(&mut self) -> Option<RequestBody> {
        self.body.take()
    }

    /// The request's `Content-Length`, when it has a valid one.
    pub(crate) fn declared_length(&self) -> Option<u64> {
        self.parts
            .headers
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok())
    }

    /// Takes the body as a stream, for an extractor that reads it chunk by
    /// chunk. The app's size limit and body timeout apply as they do to
    /// [`BodyStream`](crate::BodyStream): reading past the limit, or
    /// beyond the timeout, gets an error that is an [`ApiError`]
    /// (`413 payload_too_large`, `408 request_timeout`; recover it with
    /// `err.downcast::<ApiError>()`). `None` once taken.
    pub fn take_body_stream(&mut self) -> Option<RequestBody> {
        let (limit, timeout) = (self.shared.body_limit, self.shared.body_timeout);
        self.body
            .take()
            .map(|body| LimitedBody::new(body, limit, timeout).into_body())
    }

    /// Reads the whole body within the app's size limit (a larger
    /// `Content-Length` is refused with `413` before anything is read) and
    /// its body timeout (`408`).
    ///
    /// # Errors
    /// `413 payload_too_large`, `408 request_timeout`, `400 body_read_failed`,
    /// or `500` when an earlier extractor took the body.
    pub async fn collect_body(&mut self) -> Result<Bytes, ApiError> {
        let limit = self.shared.body_limit;
        let declared = self.declared_length();
        if declared.is_some_and(|length| length > limit as u64) {
            return Err(too_large(limit));
        }
        let body = self
            .body
            .take()
            .ok_or_else(|| ApiError::internal("the request body was already taken"))?;
        let timeout = self.shared.body_timeout;
        match tokio::time::timeout(timeout, collect_within(body, limit)).await {
            Ok(collected) => collected,
            Err(_elapsed) => Err(too_slow(timeout)),
        }
    }
}

/// Reads every data frame of `body`, refusing it once it passes `limit`
/// bytes (the rest is not read).
async fn collect_within(mut body: RequestBody, limit: usize) -> Result<Bytes, ApiError> {
    let mut first: Option<Bytes> = None;
    let mut more: Vec<u8> = Vec::new();
    let mut length = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|err| {
            refusal::BODY_READ_FAILED.error(format!("body: could not be read: {err}"))
        })?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        length = length.saturating_add(data.len());
        if length > limit {
            return Err(too_large(limit));
        }
        match &first {
            None if more.is_empty() => first = Some(data),
            _ => {
                if let Some(bytes) = first.take() {
                    more.extend_from_slice(&bytes);
                }
                more.extend_from_slice(&data);
            }
        }
    }
    Ok(first.unwrap_or_else(|| Bytes::from(more)))
}
