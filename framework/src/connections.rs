//! The connections a [`Server`](crate::Server) serves: the accept loop,
//! one task per connection, and how they end in a graceful shutdown (the
//! queued connections served, the last ones given time to send their
//! request, idle ones closed, in-flight ones awaited).

use std::{
    future::Future,
    io,
    marker::PhantomData,
    net::SocketAddr,
    sync::{Arc, atomic::AtomicBool},
    time::{Duration, Instant},
};

use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo},
    server::{conn::auto, graceful::GracefulShutdown},
    service::TowerToHyperService,
};
use prometheus_client::metrics::gauge::Gauge;
use tokio::{
    net::{TcpListener, TcpStream},
    sync::{OwnedSemaphorePermit, Semaphore},
};

use crate::app::BoxError;
use crate::batched_io::BatchedWrites;
use crate::draining::Draining;
use crate::server::LAST_REQUEST_GRACE;

/// The connections a server serves with `service`, and how they end.
pub(crate) struct Connections<S, B> {
    service: S,
    builder: Arc<auto::Builder<TokioExecutor>>,
    graceful: GracefulShutdown,
    permits: Arc<Semaphore>,
    gauges: Arc<[Gauge]>,
    /// Set once the shutdown signal has come: every HTTP/1 answer from then
    /// on closes its connection.
    draining: &'static AtomicBool,
    /// When the last connection was accepted.
    last_accepted: Option<Instant>,
    body: PhantomData<fn() -> B>,
}

impl<S, B> Connections<S, B>
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
    /// Accepts and serves connections until `signal` completes.
    /// Serves `service` on the connections it will accept, with `builder`,
    /// at most `max_connections` at once, counted in `gauges`.
    pub(crate) fn new(
        service: S,
        builder: auto::Builder<TokioExecutor>,
        max_connections: usize,
        gauges: Arc<[Gauge]>,
    ) -> Self {
        Connections {
            service,
            builder: Arc::new(builder),
            graceful: GracefulShutdown::new(),
            permits: Arc::new(Semaphore::new(max_connections)),
            gauges,
            draining: crate::draining::flag(),
            last_accepted: None,
            body: PhantomData,
        }
    }

    /// The flag that, once set, makes every HTTP/1 answer close its
    /// connection.
    pub(crate) fn draining(&self) -> &'static AtomicBool {
        self.draining
    }

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
        let builder = Arc::clone(&self.builder);
        let service = Draining::new(
            TowerToHyperService::new(self.service.clone()),
            self.draining,
        );
        let watcher = self.graceful.watcher();
        let open = OpenConnection::new(Arc::clone(&self.gauges));
        tokio::spawn(async move {
            let io = TokioIo::new(BatchedWrites::new(stream));
            let connection = builder.serve_connection(io, service);
            if let Err(err) = watcher.watch(connection).await {
                tracing::debug!(%peer, %err, "connection ended with an error");
            }
            drop(open);
            drop(permit);
        });
    }

    /// Lets connections accepted last send their request, then closes idle
    /// connections and waits for in-flight requests, at most `timeout`.
    pub(crate) async fn finish(self, timeout: Duration) {
        if let Some(accepted) = self.last_accepted {
            tokio::time::sleep(LAST_REQUEST_GRACE.saturating_sub(accepted.elapsed())).await;
        }
        tracing::info!("shutting down: waiting for in-flight requests");
        tokio::select! {
            () = self.graceful.shutdown() => tracing::info!("all connections closed"),
            () = tokio::time::sleep(timeout) => {
                tracing::warn!(timeout_ms = timeout.as_millis() as u64, "shutdown timed out; dropping connections");
            }
        }
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
