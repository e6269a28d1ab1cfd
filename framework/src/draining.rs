//! `Connection: close` on every HTTP/1 answer once the server is draining,
//! so that a client (a load balancer keeping connections to this replica)
//! stops reusing its connection after the answer it is reading, instead of
//! sending its next request on a connection the server is about to close.

use std::{
    future::Future,
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll},
};

use http::{HeaderValue, Version, header};

/// A hyper service whose HTTP/1 answers say `Connection: close` once
/// `draining` is set (HTTP/2 has no such header: its connections end with
/// `GOAWAY` when the server shuts them down).
#[derive(Clone, Debug)]
pub(crate) struct Draining<S> {
    inner: S,
    draining: Arc<AtomicBool>,
}

impl<S> Draining<S> {
    pub(crate) fn new(inner: S, draining: Arc<AtomicBool>) -> Self {
        Draining { inner, draining }
    }
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
            draining: http1.then(|| Arc::clone(&self.draining)),
        }
    }
}

pin_project_lite::pin_project! {
    /// The answer of a [`Draining`] service.
    pub(crate) struct DrainingFuture<F> {
        #[pin]
        inner: F,
        // `None` for HTTP/2.
        draining: Option<Arc<AtomicBool>>,
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
        if let (Ok(response), Some(draining)) = (&mut answer, this.draining.as_ref())
            && draining.load(Ordering::Relaxed)
        {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        Poll::Ready(answer)
    }
}
