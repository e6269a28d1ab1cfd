//! Graceful shutdown of hyper's connections: once the server says so,
//! each connection finishes the request it is serving (idle ones close at
//! once), and the server waits until every connection has ended.
//!
//! The server's own rather than hyper-util's, because hyper-util's watches
//! only its `auto` connections, and a server without the `http2` feature
//! serves hyper's HTTP/1 connection directly.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
};

use pin_project_lite::pin_project;
use tokio::sync::watch;

/// A hyper connection that can be told to finish what it is serving and
/// close.
pub(crate) trait GracefulConnection: Future {
    /// Starts the connection's graceful shutdown.
    fn graceful_shutdown(self: Pin<&mut Self>);
}

/// The server's side: tells every watched connection to finish, then waits
/// for them all.
pub(crate) struct GracefulShutdown {
    /// `true` once the shutdown has begun; every watched connection holds
    /// a receiver until it ends.
    began: watch::Sender<bool>,
}

impl GracefulShutdown {
    pub(crate) fn new() -> Self {
        GracefulShutdown {
            began: watch::Sender::new(false),
        }
    }

    /// What a new connection is watched with.
    pub(crate) fn watcher(&self) -> Watcher {
        Watcher {
            began: self.began.subscribe(),
        }
    }

    /// Tells every watched connection to finish, and completes once all of
    /// them have ended.
    pub(crate) async fn shutdown(self) {
        self.began.send_replace(true);
        self.began.closed().await;
    }
}

/// A connection's side of the shutdown, until it is watching one.
pub(crate) struct Watcher {
    began: watch::Receiver<bool>,
}

impl Watcher {
    /// `connection`, told to finish once the shutdown begins; the server
    /// waits for it until it completes or is dropped.
    pub(crate) fn watch<C: GracefulConnection>(self, connection: C) -> Watched<C> {
        let mut began = self.began.clone();
        let signal: Signal = Box::pin(async move {
            // An error: the server is gone, which ends the connections too.
            let _ = began.wait_for(|began| *began).await;
        });
        Watched {
            connection,
            signal: Some(signal),
            _held: self.began,
        }
    }
}

/// Completes once the shutdown has begun.
type Signal = Pin<Box<dyn Future<Output = ()> + Send>>;

pin_project! {
    /// A connection watched for the server's graceful shutdown.
    pub(crate) struct Watched<C> {
        #[pin]
        connection: C,
        // `None` once the connection has been told to finish.
        signal: Option<Signal>,
        // Held until the connection's future is dropped: the server's
        // shutdown waits for it.
        _held: watch::Receiver<bool>,
    }
}

impl<C: GracefulConnection> Future for Watched<C> {
    type Output = C::Output;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<C::Output> {
        let mut this = self.project();
        if let Some(signal) = this.signal
            && signal.as_mut().poll(cx).is_ready()
        {
            *this.signal = None;
            this.connection.as_mut().graceful_shutdown();
        }
        this.connection.poll(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::{
        sync::{
            Arc,
            atomic::{AtomicBool, Ordering},
        },
        time::Duration,
    };

    use super::*;

    /// A connection that ends only once told to.
    struct Idle {
        told: Arc<AtomicBool>,
    }

    impl Future for Idle {
        type Output = ();

        fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
            if self.told.load(Ordering::SeqCst) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        }
    }

    impl GracefulConnection for Idle {
        fn graceful_shutdown(self: Pin<&mut Self>) {
            self.told.store(true, Ordering::SeqCst);
        }
    }

    #[tokio::test]
    async fn shutdown_tells_each_connection_and_waits_for_it() {
        let graceful = GracefulShutdown::new();
        let told = Arc::new(AtomicBool::new(false));
        let connection = tokio::spawn(graceful.watcher().watch(Idle {
            told: Arc::clone(&told),
        }));
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!told.load(Ordering::SeqCst), "told before the shutdown");
        tokio::time::timeout(Duration::from_secs(5), graceful.shutdown())
            .await
            .expect("the shutdown waits only for the connection");
        assert!(told.load(Ordering::SeqCst));
        connection.await.unwrap();
    }

    /// A connection still serving a request: told, it goes on.
    struct Busy;

    impl Future for Busy {
        type Output = ();

        fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
            Poll::Pending
        }
    }

    impl GracefulConnection for Busy {
        fn graceful_shutdown(self: Pin<&mut Self>) {}
    }

    #[tokio::test]
    async fn shutdown_waits_for_a_connection_still_serving() {
        let graceful = GracefulShutdown::new();
        let serving = tokio::spawn(graceful.watcher().watch(Busy));
        let shutdown = tokio::time::timeout(Duration::from_millis(100), graceful.shutdown());
        assert!(shutdown.await.is_err(), "the shutdown did not wait");
        serving.abort();
    }

    #[tokio::test]
    async fn without_connections_the_shutdown_is_immediate() {
        tokio::time::timeout(Duration::from_secs(1), GracefulShutdown::new().shutdown())
            .await
            .unwrap();
    }
}
