//! hyper's service for one connection: each request is counted started when
//! hyper has read its head and finished when its answer is complete (the
//! response is ready and, when its body is a stream, the stream has ended),
//! which is how the connection knows it is waiting for a head (see
//! [`Connection`](crate::connection::Connection)).
//!
//! An [`App`] is served as it is, with no tower adapter around it; any other
//! tower service goes through hyper-util's.

use std::{
    any::Any,
    convert::Infallible,
    future::Future,
    pin::Pin,
    sync::{Arc, atomic::AtomicBool},
    task::{Context, Poll, ready},
};

use http_body::{Frame, SizeHint};
use hyper::body::Incoming;

use crate::{
    app::App,
    body::{Body, Response},
    connection::{ConnectionState, Finished},
    dispatch::ResponseFuture,
    draining,
};

/// An [`App`] as hyper's service on one connection; its HTTP/1 answers
/// say `Connection: close` once `draining` is set (as
/// [`Draining`](crate::draining::Draining) does for other services, without
/// a future of its own around each answer).
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
    type Future = ResponseFuture;

    fn call(&self, request: http::Request<Incoming>) -> ResponseFuture {
        self.state.request_started();
        let connection = OnConnection {
            draining: draining::for_request(&request, self.draining),
            state: Arc::clone(&self.state),
        };
        self.app.dispatch(request, Some(connection))
    }
}

/// What an answer served on one of the framework's connections owes it:
/// its request counted finished once the answer is complete, and
/// `Connection: close` while the server drains. Done by the request's own
/// [`ResponseFuture`], so that hyper gets no other future around it.
pub(crate) struct OnConnection {
    state: Arc<ConnectionState>,
    /// `None` for HTTP/2.
    draining: Option<&'static AtomicBool>,
}

impl OnConnection {
    /// Called with the answer once it is ready.
    pub(crate) fn answered(self, response: &mut Response) {
        draining::close_if_draining(response, self.draining);
        if response.body().is_stream() {
            let body = std::mem::take(response.body_mut());
            *response.body_mut() = Body::new(CountedBody::new(body, Finished::new(self.state)));
        } else {
            self.state.request_finished();
        }
    }
}

/// Any other service (a layered app) as hyper's service on one connection.
#[derive(Clone)]
pub(crate) struct CountedService<S> {
    inner: S,
    state: Arc<ConnectionState>,
}

impl<S> CountedService<S> {
    pub(crate) fn new(inner: S, state: Arc<ConnectionState>) -> Self {
        CountedService { inner, state }
    }
}

impl<S, B> hyper::service::Service<http::Request<Incoming>> for CountedService<S>
where
    S: hyper::service::Service<http::Request<Incoming>, Response = http::Response<B>>,
    B: http_body::Body + 'static,
{
    type Response = http::Response<CountedBody<B>>;
    type Error = S::Error;
    type Future = CountedFuture<S::Future>;

    fn call(&self, request: http::Request<Incoming>) -> Self::Future {
        self.state.request_started();
        CountedFuture {
            inner: self.inner.call(request),
            state: Some(Arc::clone(&self.state)),
        }
    }
}

pin_project_lite::pin_project! {
    /// A service's answer to one request, counted finished when it is
    /// complete.
    pub(crate) struct CountedFuture<F> {
        #[pin]
        inner: F,
        state: Option<Arc<ConnectionState>>,
    }
}

impl<F, B, E> Future for CountedFuture<F>
where
    F: Future<Output = Result<http::Response<B>, E>>,
    B: http_body::Body + 'static,
{
    type Output = Result<http::Response<CountedBody<B>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = ready!(this.inner.poll(cx))?;
        let finished = this.state.take().and_then(|state| {
            // A complete buffer is sent at once; anything else may stream.
            let complete = (response.body() as &dyn Any)
                .downcast_ref::<Body>()
                .is_some_and(|body| !body.is_stream());
            if complete {
                state.request_finished();
                None
            } else {
                Some(Finished::new(state))
            }
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
