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
        let http1 = request.version() < Version::HTTP_2;
        DrainingFuture {
            inner: self.inner.call(request),
            draining: http1.then_some(self.draining),
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
        if let (Ok(response), Some(draining)) = (&mut answer, *this.draining)
            && draining.load(Ordering::Relaxed)
        {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        Poll::Ready(answer)
    }
}
