//! The signal that a graceful shutdown has begun: the server sets it when
//! its shutdown signal completes, readiness answers 503 from then on, and
//! anything long-lived (a stream, a background task) can watch it to end in
//! time.

use std::{future::Future, sync::Arc};

use tokio::sync::watch;

/// Whether a graceful shutdown of the app has begun. Cheap to clone; every
/// clone observes the same signal, which goes from "serving" to "shutting
/// down" once and never back.
///
/// Each [`App`](crate::App) has one ([`App::shutdown`](crate::App::shutdown),
/// [`RequestContext::shutdown`](crate::RequestContext::shutdown)). The
/// [`Server`](crate::Server) serving an app begins it when its shutdown
/// signal completes, before it stops accepting connections; an app used
/// in-process (the [test client](crate::App::test_client)) never shuts down
/// unless [`App::begin_shutdown`](crate::App::begin_shutdown) is called.
///
/// ```
/// use framework::prelude::*;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().build().unwrap();
/// let shutdown = app.shutdown().clone();
/// assert!(!shutdown.is_started());
///
/// let waiter = tokio::spawn({
///     let shutdown = shutdown.clone();
///     async move { shutdown.started().await }
/// });
/// app.begin_shutdown();
/// waiter.await.unwrap();
/// assert!(shutdown.is_started());
/// # });
/// ```
#[derive(Clone)]
pub struct Shutdown {
    started: Arc<watch::Sender<bool>>,
}

impl Shutdown {
    /// A signal that has not started.
    pub(crate) fn new() -> Self {
        Shutdown {
            started: Arc::new(watch::Sender::new(false)),
        }
    }

    /// Begins the shutdown; later calls do nothing.
    pub(crate) fn begin(&self) {
        self.started
            .send_if_modified(|started| !std::mem::replace(started, true));
    }

    /// Whether the shutdown has begun.
    pub fn is_started(&self) -> bool {
        *self.started.borrow()
    }

    /// Completes once the shutdown has begun (at once if it has). The
    /// future owns what it needs, so it can be moved into a spawned task or
    /// a stream.
    ///
    /// ```
    /// # use framework::prelude::*;
    /// # async fn tick() {}
    /// // Ends a loop when the server starts shutting down.
    /// async fn pump(shutdown: framework::Shutdown) {
    ///     let stop = shutdown.started();
    ///     tokio::pin!(stop);
    ///     loop {
    ///         tokio::select! {
    ///             () = &mut stop => break,
    ///             () = tick() => {}
    ///         }
    ///     }
    /// }
    /// ```
    pub fn started(&self) -> impl Future<Output = ()> + Send + 'static {
        // The future keeps the sender alive, so `wait_for` cannot see it
        // dropped: it returns only once the value is `true`.
        let started = Arc::clone(&self.started);
        let mut receiver = started.subscribe();
        async move {
            let _started = started;
            // An error would mean the sender is gone; it is held above.
            let _ = receiver.wait_for(|started| *started).await;
        }
    }
}

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown::new()
    }
}

impl std::fmt::Debug for Shutdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shutdown")
            .field("started", &self.is_started())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Shutdown;

    #[tokio::test]
    async fn started_completes_for_every_clone_once_begun() {
        let shutdown = Shutdown::new();
        let clone = shutdown.clone();
        let waiting = tokio::spawn(clone.started());
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        assert!(!clone.is_started());

        shutdown.begin();
        waiting.await.unwrap();
        assert!(clone.is_started());
        // Already begun: completes at once; a second begin changes nothing.
        shutdown.begin();
        clone.started().await;
        assert!(shutdown.is_started());
    }

    #[tokio::test]
    async fn never_begun_never_completes() {
        let shutdown = Shutdown::new();
        let started = shutdown.started();
        drop(shutdown);
        let outcome = tokio::time::timeout(std::time::Duration::from_millis(20), started).await;
        assert!(
            outcome.is_err(),
            "a shutdown that never began must not complete"
        );
    }
}
