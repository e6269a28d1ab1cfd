//! Serving over TCP with hyper: HTTP/1.1 (keep-alive, pipelining) and,
//! with the `http2` feature, HTTP/2 (prior knowledge); safe limits,
//! graceful shutdown.
//!
//! - [`Server`] (this file): the configuration, and `serve`'s steps;
//! - `connections.rs`: the accept loop, one task per connection, the
//!   graceful shutdown's steps;
//! - `connection.rs`: a connection's future (header-read timeout, release
//!   of held answers);
//! - `protocol.rs`: which HTTP a connection is served with (hyper's
//!   HTTP/1.1 connection, or hyper-util's `auto` with `http2`);
//! - `graceful.rs`: telling connections to finish, and waiting for them;
//! - `state.rs`: what a connection's parts tell each other;
//! - `service.rs`: hyper's service for a connection, and what each answer
//!   owes it (the server's door into the app);
//! - `served.rs`, `batched_io.rs`, `lingering.rs`: the IO stack;
//! - `draining.rs`: `Connection: close` while draining;
//! - `malformed.rs`: the malformed-request check tests run against a
//!   server.
//!
#![doc = include_str!("../docs/server.md")]

mod batched_io;
mod connection;
mod connections;
mod draining;
mod graceful;
mod lingering;
mod malformed;
mod polled;
mod protocol;
mod served;
mod service;
mod state;

use std::{future::Future, io, net::SocketAddr, sync::atomic::Ordering, time::Duration};

use hyper::body::Incoming;
use tokio::net::{TcpListener, ToSocketAddrs};

use crate::{app::App, body::BoxError};
pub use connections::LAST_REQUEST_GRACE;
use connections::{Connections, app_connections, service_connections};
pub use malformed::check_malformed_requests;

/// How long a client may take to send a request's head unless configured.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long in-flight requests may take to finish after a shutdown signal.
pub const DEFAULT_SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(30);
/// How many connections are served at once unless configured; further
/// connections wait in the listen backlog.
pub const DEFAULT_MAX_CONNECTIONS: usize = 8192;
/// How many headers a request may have unless configured (more get `431`).
pub const DEFAULT_MAX_HEADERS: usize = 100;

/// Serves an [`App`](crate::App) (or any tower service, layers included)
/// on a TCP listener.
///
/// HTTP/1.1 is served with keep-alive and pipelining (responses flushed in
/// order, in batches); with the `http2` feature (a default), HTTP/2 is
/// served to clients that open with its preface. A header-read timeout, a connection limit and graceful shutdown
/// are on by default.
///
/// ```no_run
/// use framework::prelude::*;
///
/// struct Ping;
///
/// #[controller("ping")]
/// impl Ping {
///     #[typed_route::get("")]
///     async fn ping(&self) -> &'static str { "pong" }
/// }
///
/// #[tokio::main]
/// async fn main() -> std::io::Result<()> {
///     let app = App::builder().controller(Ping).build().expect("routes");
///     let server = Server::bind("127.0.0.1:3000").await?;
///     println!("listening on http://{}", server.local_addr()?);
///     server.serve(app).await // until SIGINT or SIGTERM
/// }
/// ```
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    header_read_timeout: Duration,
    shutdown_timeout: Duration,
    max_connections: usize,
    max_headers: usize,
    drain_delay: Duration,
    /// The apps whose shutdown signal the server begins and whose
    /// connections it counts: the served app, or those given to
    /// [`Server::for_app`].
    apps: Vec<App>,
}

impl Server {
    /// Binds a TCP listener.
    pub async fn bind(addr: impl ToSocketAddrs) -> io::Result<Server> {
        Ok(Server::from_listener(TcpListener::bind(addr).await?))
    }

    /// Serves on a listener bound elsewhere.
    pub fn from_listener(listener: TcpListener) -> Server {
        Server {
            listener,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            shutdown_timeout: DEFAULT_SHUTDOWN_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_headers: DEFAULT_MAX_HEADERS,
            drain_delay: Duration::ZERO,
            apps: Vec::new(),
        }
    }

    /// The address the listener is bound to (useful after binding port 0).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// How long a client may take to send a request's head, counted from
    /// the connection's start or its last answer (so it also ends idle
    /// keep-alive connections); slower connections are closed. The server
    /// checks every quarter of it, so a connection is closed after waiting
    /// at least this long and less than 1.25 times it. A running handler or
    /// a streamed answer (server-sent events) is never cut by it. Not applied
    /// to HTTP/2 connections once their preface arrived.
    #[must_use]
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }

    /// How long in-flight requests may take to finish after shutdown begins.
    #[must_use]
    pub fn shutdown_timeout(mut self, timeout: Duration) -> Self {
        self.shutdown_timeout = timeout;
        self
    }

    /// How long the server keeps accepting connections after its shutdown
    /// signal, with the app's readiness already answering `503`, before it
    /// stops accepting and lets in-flight requests finish: time for a load
    /// balancer's health check to take the replica out of rotation.
    /// Zero unless configured.
    ///
    /// While draining, every HTTP/1 answer carries `Connection: close`, so
    /// a balancer that keeps connections to the replica stops reusing each
    /// one after the answer it is reading. A balancer that only checks
    /// passively (nginx's `max_fails`) keeps sending new connections until
    /// the listener closes; they are served. Make the delay longer than the
    /// balancer's idle timeout for kept-alive connections (nginx's
    /// `keepalive_timeout` in the `upstream` block): then no connection
    /// that sat idle through the delay is left for the server to close
    /// under a request being sent on it.
    ///
    /// ```no_run
    /// # async fn run(app: framework::App) -> std::io::Result<()> {
    /// use std::time::Duration;
    ///
    /// framework::Server::bind("0.0.0.0:3000")
    ///     .await?
    ///     .drain_delay(Duration::from_secs(5)) // two failed probes at 2 s
    ///     .serve(app)
    ///     .await
    /// # }
    /// ```
    #[must_use]
    pub fn drain_delay(mut self, delay: Duration) -> Self {
        self.drain_delay = delay;
        self
    }

    /// Connects the server to `app` when it serves it wrapped in tower
    /// layers (another type): the server begins the app's
    /// [`Shutdown`](crate::Shutdown) when its shutdown signal completes and
    /// counts connections in the app's metrics. Serving an [`App`] itself
    /// does this without asking.
    ///
    /// ```no_run
    /// # async fn run(app: framework::App) -> std::io::Result<()> {
    /// let layered = tower::ServiceBuilder::new()
    ///     .layer(tower_http::cors::CorsLayer::permissive())
    ///     .service(app.clone());
    /// framework::Server::bind("0.0.0.0:3000")
    ///     .await?
    ///     .for_app(&app)
    ///     .serve(layered)
    ///     .await
    /// # }
    /// ```
    #[must_use]
    pub fn for_app(mut self, app: &App) -> Self {
        self.add_app(app);
        self
    }

    /// Adds `app` unless it is there already (served and given to
    /// [`Server::for_app`]), so its connections are counted once.
    fn add_app(&mut self, app: &App) {
        if !self.apps.iter().any(|known| known.is(app)) {
            self.apps.push(app.clone());
        }
    }

    /// How many connections are served at once.
    #[must_use]
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections.max(1);
        self
    }

    /// How many headers a request may have.
    #[must_use]
    pub fn max_headers(mut self, headers: usize) -> Self {
        self.max_headers = headers;
        self
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully.
    pub async fn serve<S: ServeService>(self, service: S) -> io::Result<()> {
        self.serve_with_shutdown(service, shutdown_signal()).await
    }

    /// Serves until `signal` completes, then shuts down gracefully:
    ///
    /// 1. begins the app's [`Shutdown`](crate::Shutdown): readiness answers
    ///    `503`, event streams taken with `Sse::until` end, and every HTTP/1
    ///    answer from now on closes its connection (`Connection: close`);
    /// 2. keeps accepting for the [drain delay](Self::drain_delay);
    /// 3. serves the connections the kernel has already queued, then closes
    ///    the listener (new connections are refused, so a load balancer
    ///    retries them elsewhere);
    /// 4. gives connections accepted in the last
    ///    [`LAST_REQUEST_GRACE`] (250 ms) that long to send their request,
    ///    then closes idle connections and lets in-flight requests finish
    ///    within the [shutdown timeout](Self::shutdown_timeout).
    pub async fn serve_with_shutdown<S, F>(mut self, service: S, signal: F) -> io::Result<()>
    where
        S: ServeService,
        F: Future<Output = ()> + Send,
    {
        let draining = draining::flag();
        // The served service is an `App` unless it is layered: then the
        // app's signal and gauges come from `for_app`. An app is served
        // without a tower adapter, by code compiled once in this crate.
        let serve = match (&service as &dyn std::any::Any).downcast_ref::<App>() {
            Some(app) => {
                self.add_app(app);
                app_connections(app.clone(), self.connection_builder(), draining)
            }
            None => service_connections(service, self.connection_builder(), draining),
        };
        let apps = std::mem::take(&mut self.apps);
        let mut connections = Connections::new(
            serve,
            self.header_read_timeout,
            self.max_connections,
            apps.iter().filter_map(App::connections_gauge).collect(),
        );
        #[cfg(feature = "ws")]
        connections.wait_for_sockets(apps.iter().map(App::open_sockets).collect());
        let drain_delay = self.drain_delay;
        let signal = async move {
            signal.await;
            draining.store(true, Ordering::Relaxed);
            for app in &apps {
                app.begin_shutdown();
            }
            if !drain_delay.is_zero() {
                tracing::info!(
                    delay_ms = drain_delay.as_millis() as u64,
                    "shutting down: draining (not ready, still accepting)"
                );
                tokio::time::sleep(drain_delay).await;
            }
        };
        connections.accept_until(&self.listener, signal).await;
        connections.accept_queued(self.listener);
        connections.finish(self.shutdown_timeout).await;
        Ok(())
    }

    fn connection_builder(&self) -> protocol::Builder {
        protocol::builder(self.max_headers)
    }
}

/// A tower service a [`Server`] serves: an [`App`], or an app wrapped in
/// tower layers. Every service that fits implements it; there is nothing
/// to implement by hand.
pub trait ServeService:
    tower_service::Service<
        http::Request<Incoming>,
        Response = http::Response<Self::Body>,
        Error: Into<BoxError>,
        Future: Send + 'static,
    > + Clone
    + Send
    + 'static
{
    /// The body of its answers.
    type Body: http_body::Body<Data: Send, Error: Into<BoxError>> + Send + 'static;
}

impl<S, B> ServeService for S
where
    S: tower_service::Service<http::Request<Incoming>, Response = http::Response<B>>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    type Body = B;
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut stream) => {
                stream.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("SIGINT received"),
        () = terminate => tracing::info!("SIGTERM received"),
    }
}
