//! Serving over TCP with hyper: HTTP/1.1 (keep-alive, pipelining) and
//! HTTP/2 (prior knowledge), safe limits, graceful shutdown.

use std::{future::Future, io, net::SocketAddr, pin::Pin, sync::Arc, time::Duration};

use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::{
        conn::auto,
        graceful::{GracefulShutdown, Watcher},
    },
    service::TowerToHyperService,
};
use prometheus_client::metrics::gauge::Gauge;
use tokio::{
    net::{TcpListener, ToSocketAddrs},
    sync::Semaphore,
};

use crate::{
    app::{App, BoxError},
    connection::{Connection, ConnectionState, Ended, Served},
    counted::{AppService, CountedService},
    served::ServedConnection,
};

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
/// order, in batches); HTTP/2 is served to clients that open with its
/// preface. A header-read timeout, a connection limit and graceful shutdown
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
    pub async fn serve<S, B>(self, service: S) -> io::Result<()>
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
        self.serve_with_shutdown(service, shutdown_signal()).await
    }

    /// Serves until `signal` completes, then begins the app's
    /// [`Shutdown`](crate::Shutdown) (readiness answers `503`), keeps accepting for the
    /// [drain delay](Self::drain_delay), stops accepting connections and
    /// lets in-flight requests finish within the shutdown timeout.
    pub async fn serve_with_shutdown<S, B, F>(mut self, service: S, signal: F) -> io::Result<()>
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
        F: Future<Output = ()> + Send,
    {
        let builder = Arc::new(self.connection_builder());
        // The served service is an `App` unless it is layered: then the
        // app's signal and gauges come from `for_app`. An app is served
        // without a tower adapter, by code compiled once in this crate.
        let connections = match (&service as &dyn std::any::Any).downcast_ref::<App>() {
            Some(app) => {
                self.add_app(app);
                app_connections(app.clone(), builder)
            }
            None => service_connections(service, builder),
        };
        self.accept_until(connections, Box::pin(signal)).await
    }

    /// Accepts connections and serves each until `signal`, then shuts down.
    async fn accept_until(
        mut self,
        serve: ServeConnection,
        signal: Pin<Box<dyn Future<Output = ()> + Send + '_>>,
    ) -> io::Result<()> {
        let connections: Arc<[Gauge]> = self
            .apps
            .iter()
            .filter_map(App::connections_gauge)
            .collect();
        let graceful = GracefulShutdown::new();
        let permits = Arc::new(Semaphore::new(self.max_connections));
        #[cfg(feature = "ws")]
        let sockets: Vec<crate::ws::OpenSockets> =
            self.apps.iter().map(App::open_sockets).collect();
        let apps = std::mem::take(&mut self.apps);
        let drain_delay = self.drain_delay;
        let signal = async move {
            signal.await;
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
        let mut signal = std::pin::pin!(signal);
        loop {
            let permit = tokio::select! {
                permit = Arc::clone(&permits).acquire_owned() => match permit {
                    Ok(permit) => permit,
                    Err(_closed) => break,
                },
                () = &mut signal => break,
            };
            let (stream, peer) = tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(err) => {
                        accept_error(err).await;
                        continue;
                    }
                },
                () = &mut signal => break,
            };
            if let Err(err) = stream.set_nodelay(true) {
                tracing::debug!(%peer, %err, "could not set TCP_NODELAY");
            }
            let state = Arc::new(ConnectionState::default());
            let served =
                ServedConnection::new(stream, Arc::clone(&state), Arc::clone(&connections), permit);
            let served = serve(TokioIo::new(served), Arc::clone(&state), graceful.watcher());
            let connection = Connection::new(served, state, self.header_read_timeout);
            tokio::spawn(async move {
                match connection.await {
                    Ended::Served(Ok(())) => {}
                    Ended::Served(Err(err)) => {
                        tracing::debug!(%peer, %err, "connection ended with an error");
                    }
                    Ended::HeadTimedOut => {
                        tracing::debug!(%peer, "no request head within the header-read timeout");
                    }
                }
            });
        }
        drop(self.listener);
        tracing::info!("shutting down: waiting for in-flight requests");
        let drained = async {
            graceful.shutdown().await;
            // Upgraded connections are not hyper's any more: each socket
            // closes itself (1001) once the app's shutdown has begun.
            #[cfg(feature = "ws")]
            for open in &sockets {
                open.all_closed().await;
            }
        };
        tokio::select! {
            () = drained => tracing::info!("all connections closed"),
            () = tokio::time::sleep(self.shutdown_timeout) => {
                tracing::warn!(timeout_ms = self.shutdown_timeout.as_millis() as u64, "shutdown timed out; dropping connections");
            }
        }
        Ok(())
    }

    fn connection_builder(&self) -> auto::Builder<TokioExecutor> {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        // The header-read timeout is the server's own (`Connection`):
        // hyper's allocates and registers a timer for every request head.
        builder.http1().header_read_timeout(None).keep_alive(true);
        // Pipelined answers are batched into one write by `BatchedWrites`,
        // not by hyper's `pipeline_flush`, which in crates.io's hyper drops
        // the answer to a malformed request (see `batched_io.rs`).
        // hyper's own limit is the same 100 headers, parsed into stack
        // space; setting it explicitly makes hyper fill two 100-entry
        // buffers for every request (measured: 3% of a plaintext server).
        if self.max_headers != DEFAULT_MAX_HEADERS {
            builder.http1().max_headers(self.max_headers);
        }
        builder.http2().timer(TokioTimer::new());
        builder
    }
}

/// The IO of an accepted connection.
type ConnectionIo = TokioIo<ServedConnection>;

/// Serves one accepted connection until it ends: hyper's connection for the
/// app or service, watched for graceful shutdown.
type ServeConnection = Box<dyn Fn(ConnectionIo, Arc<ConnectionState>, Watcher) -> Served + Send>;

/// Connections to an [`App`], served without a tower adapter. Upgrades are
/// served: a WebSocket route answers `101` and takes the connection over,
/// its permit and its count in the gauges included.
fn app_connections(app: App, builder: Arc<auto::Builder<TokioExecutor>>) -> ServeConnection {
    Box::new(move |io, state, watcher| {
        let service = AppService::new(app.clone(), state);
        let builder = Arc::clone(&builder);
        Box::pin(async move {
            watcher
                .watch(builder.serve_connection_with_upgrades(io, service))
                .await
        })
    })
}

/// Connections to any other tower service (an app wrapped in layers).
fn service_connections<S, B>(
    service: S,
    builder: Arc<auto::Builder<TokioExecutor>>,
) -> ServeConnection
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
    Box::new(move |io, state, watcher| {
        let service = CountedService::new(TowerToHyperService::new(service.clone()), state);
        let builder = Arc::clone(&builder);
        Box::pin(async move {
            watcher
                .watch(builder.serve_connection_with_upgrades(io, service))
                .await
        })
    })
}

/// Logs an accept error; backs off when out of file descriptors so the
/// loop does not spin while connections drain.
async fn accept_error(err: io::Error) {
    let out_of_descriptors = matches!(err.raw_os_error(), Some(23 | 24)); // ENFILE, EMFILE
    tracing::warn!(%err, "accept failed");
    if out_of_descriptors {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
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
