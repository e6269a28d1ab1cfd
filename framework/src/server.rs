//! Serving over TCP with hyper: HTTP/1.1 (keep-alive, pipelining) and
//! HTTP/2 (prior knowledge), safe limits, graceful shutdown.

use std::{future::Future, io, net::SocketAddr, sync::Arc, time::Duration};

use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::{conn::auto, graceful::GracefulShutdown},
    service::TowerToHyperService,
};
use prometheus_client::metrics::gauge::Gauge;
use tokio::{
    net::{TcpListener, ToSocketAddrs},
    sync::Semaphore,
};

use crate::app::{App, BoxError};
use crate::timer::LazyTimer;
use crate::{batched_io::BatchedWrites, lingering::Lingering};

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

    /// How long a client may take to send a request's head; slower
    /// connections are closed.
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
        // The served service is an `App` unless it is layered: then the
        // app's signal and gauges come from `for_app`.
        if let Some(app) = (&service as &dyn std::any::Any).downcast_ref::<App>() {
            self.add_app(app);
        }
        let connections: Arc<[Gauge]> = self
            .apps
            .iter()
            .filter_map(App::connections_gauge)
            .collect();
        let builder = Arc::new(self.connection_builder());
        let graceful = GracefulShutdown::new();
        let permits = Arc::new(Semaphore::new(self.max_connections));
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
            let builder = Arc::clone(&builder);
            let service = TowerToHyperService::new(service.clone());
            let watcher = graceful.watcher();
            let open = OpenConnection::new(Arc::clone(&connections));
            tokio::spawn(async move {
                let io = TokioIo::new(BatchedWrites::new(Lingering::new(stream)));
                let connection = builder.serve_connection(io, service);
                if let Err(err) = watcher.watch(connection).await {
                    tracing::debug!(%peer, %err, "connection ended with an error");
                }
                drop(open);
                drop(permit);
            });
        }
        drop(self.listener);
        tracing::info!("shutting down: waiting for in-flight requests");
        tokio::select! {
            () = graceful.shutdown() => tracing::info!("all connections closed"),
            () = tokio::time::sleep(self.shutdown_timeout) => {
                tracing::warn!(timeout_ms = self.shutdown_timeout.as_millis() as u64, "shutdown timed out; dropping connections");
            }
        }
        Ok(())
    }

    fn connection_builder(&self) -> auto::Builder<TokioExecutor> {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(LazyTimer)
            .header_read_timeout(self.header_read_timeout)
            .keep_alive(true);
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

/// Counts one connection in the apps' open-connections gauges while it
/// lives.
struct OpenConnection(Arc<[Gauge]>);

impl OpenConnection {
    fn new(gauges: Arc<[Gauge]>) -> Self {
        for gauge in gauges.iter() {
            gauge.inc();
        }
        OpenConnection(gauges)
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        for gauge in self.0.iter() {
            gauge.dec();
        }
    }
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
