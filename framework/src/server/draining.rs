//! `Connection: close` on every HTTP/1 answer once the server is draining,
//! so that a client (a load balancer keeping connections to this replica)
//! stops reusing its connection after the answer it is reading, instead of
//! sending its next request on a connection the server is about to close.

use std::sync::atomic::{AtomicBool, Ordering};

use http::{HeaderValue, Version, header};

/// A new, unset flag for a server's connections; it lives as long as the
/// process (one byte per `Server::serve` call), so that a request's answer
/// holds it without a reference count to update. HTTP/2 has no
/// `Connection` header: its connections end with `GOAWAY` when the server
/// shuts them down.
pub(crate) fn flag() -> &'static AtomicBool {
    Box::leak(Box::new(AtomicBool::new(false)))
}

/// The draining flag a request's answer checks: `None` for HTTP/2.
pub(crate) fn for_request<Req>(
    request: &http::Request<Req>,
    draining: &'static AtomicBool,
) -> Option<&'static AtomicBool> {
    (request.version() < Version::HTTP_2).then_some(draining)
}

/// Adds `Connection: close` to an HTTP/1 answer once the server is
/// draining (applied to every answer by
/// [`OnConnection`](super::service::OnConnection)).
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
