//! The connections a [`Server`](super::Server) serves: the accept loop,
//! one task per connection, and how they end in a graceful shutdown (the
//! queued connections served, the last ones given time to send their
//! request, idle ones closed, in-flight ones awaited).

use std::{
    future::Future,
    io,
    net::SocketAddr,
    sync::{Arc, atomic::AtomicBool},
    time::{Duration, Instant},
};

use crate::observe::ConnectionsGauge;
use hyper_util::{rt::TokioIo, service::TowerToHyperService};
use tokio::{
    net::{TcpListener, TcpStream},
    sync::{OwnedSemaphorePermit, Semaphore},
};

use super::ServeService;
use super::{
    connection::{Connection, Ended, Served},
    graceful::{GracefulShutdown, Watcher},
    protocol::{Builder, ConnectionService},
    served::ServedConnection,
    service::{AppService, LayeredService},
    state::ConnectionState,
};
use crate::app::App;

/// How long, once a shutting-down server has closed its listener, the
/// connections it accepted last have to send their request before idle
/// connections are closed: the request of a client that connected last is
/// served rather than cut off. A graceful shutdown takes at most the
/// [drain delay](super::Server::drain_delay), this, and the [shutdown
/// timeout](super::Server::shutdown_timeout).
pub const LAST_REQUEST_GRACE: Duration = Duration::from_millis(250);

/// The connections a server serves, and how they end.
pub(crate) struct Connections {
    serve: ServeConnection,
    header_read_timeout: Duration,
    graceful: GracefulShutdown,
    permits: Arc<Semaphore>,
    gauges: Arc<[ConnectionsGauge]>,
    /// When the last connection was accepted.
    last_accepted: Option<Instant>,
    /// The apps' open WebSockets, which outlive hyper's connections.
    #[cfg(feature = "ws")]
    sockets: Vec<crate::ws::OpenSockets>,
}

impl Connections {
    /// Serves each accepted connection with `serve`, at most
    /// `max_connections` at once, counted in `gauges`.
    pub(crate) fn new(
        serve: ServeConnection,
        header_read_timeout: Duration,
        max_connections: usize,
        gauges: Arc<[ConnectionsGauge]>,
    ) -> Self {
        Connections {
            serve,
            header_read_timeout,
            graceful: GracefulShutdown::new(),
            permits: Arc::new(Semaphore::new(max_connections)),
            gauges,
            last_accepted: None,
            #[cfg(feature = "ws")]
            sockets: Vec::new(),
        }
    }

    /// Waits for these sockets too when the server shuts down.
    #[cfg(feature = "ws")]
    pub(crate) fn wait_for_sockets(&mut self, sockets: Vec<crate::ws::OpenSockets>) {
        self.sockets = sockets;
    }

    /// Accepts and serves connections until `signal` completes.
    pub(crate) async fn accept_until(
        &mut self,
        listener: &TcpListener,
        signal: impl Future<Output = ()>,
    ) {
        let mut signal = std::pin::pin!(signal);
        loop {
            let permit = tokio::select! {
                permit = Arc::clone(&self.permits).acquire_owned() => match permit {
                    Ok(permit) => permit,
                    Err(_closed) => return,
                },
                () = &mut signal => return,
            };
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(err) => {
                        accept_error(err).await;
                        continue;
                    }
                },
                () = &mut signal => return,
            };
            self.serve(stream, peer, Some(permit));
        }
    }

    /// Serves the connections the kernel has queued, then closes the
    /// listener: a client whose connection was complete is served, not
    /// reset, and later ones are refused (a load balancer tries another
    /// replica).
    pub(crate) fn accept_queued(&mut self, listener: TcpListener) {
        // Out of the reactor, `accept` asks the kernel directly (the
        // listener stays non-blocking): nothing queued is missed.
        let listener = match listener.into_std() {
            Ok(listener) => listener,
            Err(err) => {
                tracing::warn!(%err, "could not take the queued connections");
                return;
            }
        };
        loop {
            match listener.accept() {
                Ok((stream, peer)) => {
                    let stream = stream
                        .set_nonblocking(true)
                        .and_then(|()| TcpStream::from_std(stream));
                    match stream {
                        Ok(stream) => {
                            let permit = Arc::clone(&self.permits).try_acquire_owned().ok();
                            self.serve(stream, peer, permit);
                        }
                        Err(err) => tracing::debug!(%peer, %err, "a queued connection failed"),
                    }
                }
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => break,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    tracing::warn!(%err, "accept failed while closing");
                    break;
                }
            }
        }
        drop(listener);
    }

    /// Serves one connection in a task of its own.
    fn serve(&mut self, stream: TcpStream, peer: SocketAddr, permit: Option<OwnedSemaphorePermit>) {
        if let Err(err) = stream.set_nodelay(true) {
            tracing::debug!(%peer, %err, "could not set TCP_NODELAY");
        }
        self.last_accepted = Some(Instant::now());
        let state = Arc::new(ConnectionState::default());
        let io =
            ServedConnection::new(stream, Arc::clone(&state), Arc::clone(&self.gauges), permit);
        let served = (self.serve)(
            TokioIo::new(io),
            Arc::clone(&state),
            self.graceful.watcher(),
        );
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

    /// Lets connections accepted last send their request, then closes idle
    /// connections and waits for in-flight requests (and open sockets), at
    /// most `timeout`.
    pub(crate) async fn finish(self, timeout: Duration) {
        if let Some(accepted) = self.last_accepted {
            tokio::time::sleep(LAST_REQUEST_GRACE.saturating_sub(accepted.elapsed())).await;
        }
        tracing::info!("shutting down: waiting for in-flight requests");
        let graceful = self.graceful;
        #[cfg(feature = "ws")]
        let sockets = self.sockets;
        let drained = async move {
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
            () = tokio::time::sleep(timeout) => {
                tracing::warn!(timeout_ms = timeout.as_millis() as u64, "shutdown timed out; dropping connections");
            }
        }
    }
}

/// The IO of an accepted connection.
pub(crate) type ConnectionIo = TokioIo<ServedConnection>;

/// Serves one accepted connection until it ends: hyper's connection for the
/// app or service, watched for graceful shutdown.
pub(crate) type ServeConnection =
    Box<dyn Fn(ConnectionIo, Arc<ConnectionState>, Watcher) -> Served + Send>;

/// Connections to an [`App`], served without a tower adapter. Upgrades are
/// served: a WebSocket route answers `101` and takes the connection over,
/// its permit and its count in the gauges included. Once `draining` is set,
/// HTTP/1 answers close their connection.
pub(crate) fn app_connections(
    app: App,
    builder: Builder,
    draining: &'static AtomicBool,
) -> ServeConnection {
    let builder = Arc::new(builder);
    Box::new(move |io, state, watcher| {
        let service = AppService::new(app.clone(), state, draining);
        serve(Arc::clone(&builder), io, service, watcher)
    })
}

/// Connections to any other tower service (an app wrapped in layers), as
/// [`app_connections`].
pub(crate) fn service_connections<S: ServeService>(
    service: S,
    builder: Builder,
    draining: &'static AtomicBool,
) -> ServeConnection {
    let builder = Arc::new(builder);
    Box::new(move |io, state, watcher| {
        let service =
            LayeredService::new(TowerToHyperService::new(service.clone()), state, draining);
        serve(Arc::clone(&builder), io, service, watcher)
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

/// Serves `io` with `service` (upgrades included) until the connection
/// ends, told to finish when `watcher`'s shutdown begins.
fn serve<S: ConnectionService>(
    builder: Arc<Builder>,
    io: ConnectionIo,
    service: S,
    watcher: Watcher,
) -> Served {
    #[cfg(feature = "http2")]
    return Box::pin(async move {
        watcher
            .watch(builder.serve_connection_with_upgrades(io, service))
            .await
    });
    #[cfg(not(feature = "http2"))]
    return Box::pin(async move {
        let connection = builder.serve_connection(io, service).with_upgrades();
        watcher
            .watch(connection)
            .await
            .map_err(crate::body::BoxError::from)
    });
}
