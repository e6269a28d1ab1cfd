//! The count of an app's open sockets, which a graceful shutdown waits for.

use std::sync::Arc;

use tokio::sync::watch;

/// How many sockets of an app are open. Cheap to clone; every clone counts
/// the same sockets.
#[derive(Clone, Debug)]
pub(crate) struct OpenSockets(Arc<watch::Sender<usize>>);

impl Default for OpenSockets {
    fn default() -> Self {
        OpenSockets(Arc::new(watch::Sender::new(0)))
    }
}

impl OpenSockets {
    /// Counts one more socket until the guard is dropped.
    pub(crate) fn open(&self) -> OpenSocket {
        self.0.send_modify(|open| *open += 1);
        OpenSocket(self.clone())
    }

    /// Completes once no socket is open (the server's graceful shutdown
    /// waits for it).
    #[cfg(any(feature = "server", test))]
    pub(crate) async fn all_closed(&self) {
        let mut open = self.0.subscribe();
        // The sender is held by `self`: waiting cannot fail.
        let _ = open.wait_for(|open| *open == 0).await;
    }

    /// How many sockets are open now.
    #[cfg(test)]
    pub(crate) fn count(&self) -> usize {
        *self.0.borrow()
    }
}

/// One open socket, counted while it lives.
#[derive(Debug)]
pub(crate) struct OpenSocket(OpenSockets);

impl Drop for OpenSocket {
    fn drop(&mut self) {
        (self.0)
            .0
            .send_modify(|open| *open = open.saturating_sub(1));
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::OpenSockets;

    #[tokio::test]
    async fn all_closed_waits_for_the_last_socket() {
        let sockets = OpenSockets::default();
        sockets.all_closed().await;
        let first = sockets.open();
        let second = sockets.open();
        assert_eq!(sockets.count(), 2);
        let waiting = tokio::spawn({
            let sockets = sockets.clone();
            async move { sockets.all_closed().await }
        });
        drop(first);
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!waiting.is_finished(), "one socket is still open");
        drop(second);
        waiting.await.unwrap();
        assert_eq!(sockets.count(), 0);
    }
}
