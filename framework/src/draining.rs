//! `Connection: close` on every HTTP/1 answer once the server is draining,
//! so that a client (a load balancer keeping connections to this replica)
//! stops reusing its connection after the answer it is reading, instead of
//! sending its next request on a connection the server is about to close.

use std::{
    future::Future,
    pin::Pin,
    sync::atomic::{AtomicBool, Ordering},
    task::{Context, Poll},
};

use http::{HeaderValue, Version, header};

/// A hyper service whose HTTP/1 answers say `Connection: close` once
/// `draining` is set (HTTP/2 has no such header: its connections end with
/// `GOAWAY` when the server shuts them down). The flag is `'static` (one
/// leaked per served listener, see [`flag`]) so that a request's future
/// holds it without a reference count to update.
#[derive(Clone, Debug)]
pub(crate) struct Draining<S> {
    inner: S,
    draining: &'static AtomicBool,
}

impl<S> Draining<S> {
    pub(crate) fn new(inner: S, draining: &'static AtomicBool) -> Self {
        Draining { inner, draining }
    }
}

/// A new, unset flag for a server's connections; it lives as long as the
/// process (one byte per `Server::serve` call).
pub(crate) fn flag() -> &'static AtomicBool {
    Box::leak(Box::new(AtomicBool::new(false)))
}

impl<S, Req, B> hyper::service::Service<http::Request<Req>> for Draining<S>
where
    S: hyper::service::Service<http::Request<Req>, Response = http::Response<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = DrainingFuture<S::Future>;

    fn call(&self, request: http::Request<Req>) -> Self::Future {
        let draining = for_request(&request, self.draining);
        DrainingFuture {
            inner: self.inner.call(request),
            draining,
        }
    }
}

pin_project_lite::pin_project! {
    /// The answer of a [`Draining`] service.
    pub(crate) struct DrainingFuture<F> {
        #[pin]
        inner: F,
        // `None` for HTTP/2.
        draining: Option<&'static AtomicBool>,
    }
}

impl<F, B, E> Future for DrainingFuture<F>
where
    F: Future<Output = Result<http::Response<B>, E>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut answer = std::task::ready!(this.inner.poll(cx));
        if let Ok(response) = &mut answer {
            close_if_draining(response, *this.draining);
        }
        Poll::Ready(answer)
    }
}

/// The draining flag a request's answer checks: `None` for HTTP/2.
pub(crate) fn for_request<Req>(
    request: &http::Request<Req>,
    draining: &'static AtomicBool,
) -> Option<&'static AtomicBool> {
    (request.version() < Version::HTTP_2).then_some(draining)
}

/// Adds `Connection: close` to an HTTP/1 answer once the server is
/// draining (the rule of [`Draining`], also applied by the app's own
/// service, which does it without a future of its own).
pub(crate) fn close_if_draining<B>(
    response: &mut http::Response<B>,
    draining: Option<&'static AtomicBool>,
) {
    if draining.is_some_and(|draining| draining.load(Ordering::Relaxed)) {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
}
