//! Which HTTP a connection is served with. With the `http2` feature (a
//! default), hyper-util's `auto` connection, which reads a connection's
//! first bytes and serves HTTP/2 to a client that opens with its preface
//! (prior knowledge) and HTTP/1.1 to every other; without it, hyper's
//! HTTP/1.1 connection directly, and neither h2 nor the version sniffing
//! is compiled.

use hyper::body::Incoming;
#[cfg(not(feature = "http2"))]
use hyper::server::conn::http1;
#[cfg(feature = "http2")]
use hyper_util::{
    rt::{TokioExecutor, TokioTimer},
    server::conn::auto,
};

use super::{DEFAULT_MAX_HEADERS, connections::ConnectionIo, graceful::GracefulConnection};
use crate::body::BoxError;

/// How the server's connections are built.
#[cfg(feature = "http2")]
pub(crate) type Builder = auto::Builder<TokioExecutor>;
/// How the server's connections are built.
#[cfg(not(feature = "http2"))]
pub(crate) type Builder = http1::Builder;

/// The builder of every connection of a server whose requests may have
/// `max_headers` headers.
pub(crate) fn builder(max_headers: usize) -> Builder {
    #[cfg(feature = "http2")]
    let mut builder = auto::Builder::new(TokioExecutor::new());
    #[cfg(feature = "http2")]
    let mut http1 = builder.http1();
    #[cfg(not(feature = "http2"))]
    let mut builder = http1::Builder::new();
    #[cfg(not(feature = "http2"))]
    let http1 = &mut builder;
    // The header-read timeout is the server's own (`Connection`): hyper's
    // allocates and registers a timer for every request head.
    http1.header_read_timeout(None).keep_alive(true);
    // Pipelined answers are batched into one write by `BatchedWrites`, not
    // by hyper's `pipeline_flush`, which in crates.io's hyper drops the
    // answer to a malformed request and every answer buffered before it
    // (see `batched_io.rs`; a test says when that changes). hyper's own
    // limit is the same 100 headers, parsed into stack space; setting it
    // explicitly makes hyper fill two 100-entry buffers for every request
    // (measured: 3% of a plaintext server).
    if max_headers != DEFAULT_MAX_HEADERS {
        http1.max_headers(max_headers);
    }
    #[cfg(feature = "http2")]
    builder.http2().timer(TokioTimer::new());
    builder
}

/// A hyper service a connection is served with: the app's
/// (`AppService`) or a layered app's (`LayeredService`).
pub(crate) trait ConnectionService:
    hyper::service::Service<
        http::Request<Incoming>,
        Response = http::Response<Self::Body>,
        Error: Into<BoxError>,
        Future: Send + 'static,
    > + Send
    + 'static
{
    /// The body of its answers.
    type Body: http_body::Body<Data: Send, Error: Into<BoxError>> + Send + 'static;
}

impl<S, B> ConnectionService for S
where
    S: hyper::service::Service<http::Request<Incoming>, Response = http::Response<B>>
        + Send
        + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: http_body::Body<Data: Send, Error: Into<BoxError>> + Send + 'static,
{
    type Body = B;
}

#[cfg(feature = "http2")]
impl<S: ConnectionService> GracefulConnection
    for auto::UpgradeableConnection<'_, ConnectionIo, S, TokioExecutor>
{
    fn graceful_shutdown(self: std::pin::Pin<&mut Self>) {
        auto::UpgradeableConnection::graceful_shutdown(self);
    }
}

#[cfg(not(feature = "http2"))]
impl<S: ConnectionService> GracefulConnection for http1::UpgradeableConnection<ConnectionIo, S> {
    fn graceful_shutdown(self: std::pin::Pin<&mut Self>) {
        http1::UpgradeableConnection::graceful_shutdown(self);
    }
}
