//! hyper's service for one connection, and what the connection needs of
//! each answer ([`OnConnection`]): the request counted started when hyper
//! has read its head and finished when its answer is complete (the response
//! is ready and, when its body is a stream, the stream has ended), which is
//! how the connection knows it is waiting for a head (see
//! [`Connection`](super::connection::Connection)); `Connection: close`
//! while the server drains; and a `101` marking the connection upgraded.
//!
//! An [`App`] is served as it is, with no tower adapter around it: the
//! request's own [`ResponseFuture`] carries an [`OnConnection`] as its
//! [`AnswerHook`], so hyper polls it with no future of the server's around
//! it. Any other tower service (a layered app) goes through hyper-util's
//! adapter and [`LayeredFuture`], which applies the same rules.

use std::{
    any::Any,
    convert::Infallible,
    future::Future,
    pin::Pin,
    sync::{Arc, atomic::AtomicBool},
    task::{Context, Poll, ready},
};

use http::StatusCode;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;

use super::{
    draining, polled,
    state::{ConnectionState, Finished},
};
use crate::{
    app::App,
    body::{Body, Response},
    dispatch::{AnswerHook, ResponseFuture},
};

/// An [`App`] as hyper's service on one connection.
#[derive(Clone)]
pub(crate) struct AppService {
    app: App,
    state: Arc<ConnectionState>,
    draining: &'static AtomicBool,
}

impl AppService {
    pub(crate) fn new(
        app: App,
        state: Arc<ConnectionState>,
        draining: &'static AtomicBool,
    ) -> Self {
        AppService {
            app,
            state,
            draining,
        }
    }
}

impl hyper::service::Service<http::Request<Incoming>> for AppService {
    type Response = Response;
    type Error = Infallible;
    type Future = ResponseFuture<OnConnection>;

    #[inline]
    fn call(&self, request: http::Request<Incoming>) -> Self::Future {
        let hook = OnConnection::started(&request, &self.state, self.draining);
        self.app.dispatch(request, hook)
    }
}

/// What an answer served on one of the server's connections owes it: its
/// request counted finished once the answer is complete, `Connection:
/// close` while the server drains, and the connection marked upgraded by a
/// `101`. The one implementation of these rules, for the app's own service
/// and for layered ones.
pub(crate) struct OnConnection {
    protocol: Protocol,
}

/// How a request's answer reaches its connection's state.
enum Protocol {
    /// HTTP/1, with the server's draining flag: hyper polls the answer
    /// within its connection's poll, where the state is in scope
    /// (`polled.rs`), so the answer holds no reference count.
    Http1(&'static AtomicBool),
    /// HTTP/2: each request's future runs in a task of its own.
    Http2(Arc<ConnectionState>),
}

impl OnConnection {
    /// Counts `request` started on the connection of `state`.
    #[inline]
    fn started<B>(
        request: &http::Request<B>,
        state: &Arc<ConnectionState>,
        draining: &'static AtomicBool,
    ) -> Self {
        state.request_started();
        let protocol = match draining::for_request(request, draining) {
            Some(draining) => Protocol::Http1(draining),
            None => Protocol::Http2(Arc::clone(state)),
        };
        OnConnection { protocol }
    }

    /// Applies the rules to a ready answer whose body is `complete` (sent at
    /// once) or not (it may stream): for the latter, the [`Finished`] its
    /// body must hold until hyper is done with it.
    #[inline]
    fn settle<B>(self, response: &mut http::Response<B>, complete: bool) -> Option<Finished> {
        let upgraded = response.status() == StatusCode::SWITCHING_PROTOCOLS;
        let settle = |state: &Arc<ConnectionState>| {
            if upgraded {
                state.set_upgraded();
            }
            if complete {
                state.request_finished();
                None
            } else {
                Some(Finished::new(Arc::clone(state)))
            }
        };
        match self.protocol {
            Protocol::Http1(draining) => {
                draining::close_if_draining(response, Some(draining));
                polled::with(|state| {
                    debug_assert!(state.is_some(), "an HTTP/1 answer outside its connection");
                    state.and_then(settle)
                })
            }
            Protocol::Http2(state) => settle(&state),
        }
    }
}

impl AnswerHook for OnConnection {
    #[inline]
    fn answered(self, response: &mut Response) {
        let complete = !response.body().is_stream();
        if let Some(finished) = self.settle(response, complete) {
            let body = std::mem::take(response.body_mut());
            *response.body_mut() = Body::new(CountedBody::new(body, finished));
        }
    }
}

/// Any other service (a layered app) as hyper's service on one connection.
#[derive(Clone)]
pub(crate) struct LayeredService<S> {
    inner: S,
    state: Arc<ConnectionState>,
    draining: &'static AtomicBool,
}

impl<S> LayeredService<S> {
    pub(crate) fn new(
        inner: S,
        state: Arc<ConnectionState>,
        draining: &'static AtomicBool,
    ) -> Self {
        LayeredService {
            inner,
            state,
            draining,
        }
    }
}

impl<S, B> hyper::service::Service<http::Request<Incoming>> for LayeredService<S>
where
    S: hyper::service::Service<http::Request<Incoming>, Response = http::Response<B>>,
    B: http_body::Body + 'static,
{
    type Response = http::Response<CountedBody<B>>;
    type Error = S::Error;
    type Future = LayeredFuture<S::Future>;

    fn call(&self, request: http::Request<Incoming>) -> Self::Future {
        let hook = OnConnection::started(&request, &self.state, self.draining);
        LayeredFuture {
            inner: self.inner.call(request),
            hook: Some(hook),
        }
    }
}

pin_project_lite::pin_project! {
    /// A layered service's answer to one request, settled with the
    /// connection (as [`OnConnection`] does for the app's own) when ready.
    pub(crate) struct LayeredFuture<F> {
        #[pin]
        inner: F,
        hook: Option<OnConnection>,
    }
}

impl<F, B, E> Future for LayeredFuture<F>
where
    F: Future<Output = Result<http::Response<B>, E>>,
    B: http_body::Body + 'static,
{
    type Output = Result<http::Response<CountedBody<B>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut response = ready!(this.inner.poll(cx))?;
        let finished = this.hook.take().and_then(|hook| {
            // A complete buffer is sent at once; anything else may stream.
            let complete = (response.body() as &dyn Any)
                .downcast_ref::<Body>()
                .is_some_and(|body| !body.is_stream());
            hook.settle(&mut response, complete)
        });
        Poll::Ready(Ok(response.map(|body| CountedBody::new(body, finished))))
    }
}

pin_project_lite::pin_project! {
    /// A response body that counts its request finished when hyper is done
    /// with it (sent, or abandoned with the connection).
    pub(crate) struct CountedBody<B> {
        #[pin]
        inner: B,
        finished: Option<Finished>,
    }
}

impl<B> CountedBody<B> {
    fn new(inner: B, finished: impl Into<Option<Finished>>) -> Self {
        CountedBody {
            inner,
            finished: finished.into(),
        }
    }
}

impl<B: http_body::Body> http_body::Body for CountedBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        self.project().inner.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
