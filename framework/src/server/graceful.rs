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
    pub(crate) fn watch<C: GracefulConnection>(
        self,
        connection: C,
    ) -> impl Future<Output = C::Output> {
        let mut began = self.began;
        // Completes once the shutdown has begun, handing back the receiver,
        // which the watched connection then holds until it is dropped.
        let signal = async move {
            // Once `true`, never `false` again. An error: the server is gone,
            // which ends the connections too.
            if !*began.borrow_and_update() {
                let _ = began.changed().await;
            }
            began
        };
        Watched {
            connection,
            signal,
            told: None,
        }
    }
}

pin_project! {
    /// A connection watched for the server's graceful shutdown.
    struct Watched<C, F: Future> {
        #[pin]
        connection: C,
        #[pin]
        signal: F,
        // The receiver, once the connection has been told to finish: the
        // server's shutdown waits until it is dropped with the connection.
        #[pin]
        told: Option<F::Output>,
    }
}

impl<C: GracefulConnection, F: Future> Future for Watched<C, F> {
    type Output = C::Output;

    // Always inlined into the connection's task: as a function of its own
    // it cost hyper's write path below its inlining (callgrind, plaintext
    // 9,099 -> 8,983 instructions per request, pipelined x10 6,428 ->
    // 6,321; `bench/README.md`).
    #[inline(always)]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<C::Output> {
        let mut this = self.project();
        if this.told.is_none()
            && let Poll::Ready(receiver) = this.signal.poll(cx)
        {
            this.told.set(Some(receiver));
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
