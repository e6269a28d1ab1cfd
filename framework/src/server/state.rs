//! What a connection's parts tell each other: one [`ConnectionState`] per
//! accepted connection, shared by hyper's service, the IO layers and the
//! connection's future (all in `server/`; the app never sees it). Who sets
//! and reads each flag is drawn in `docs/server.md`.

use std::sync::{
    Arc,
    atomic::{AtomicBool, AtomicU64, Ordering::Relaxed},
};

/// What a connection's parts tell each other: hyper's service (requests
/// started and answered, an upgrade), the IO layers (answers held, HTTP/2)
/// and the connection's future (the release of held answers, the
/// header-read timeout).
///
/// HTTP/1 answers one request at a time on a connection, so each counter has
/// one writer at a time and plain loads and stores suffice; under HTTP/2,
/// where requests run concurrently, the counters are not read.
#[derive(Debug, Default)]
pub(crate) struct ConnectionState {
    /// Requests whose head was read (hyper called the service).
    started: AtomicU64,
    /// Requests answered in full: the response is ready and, when its body
    /// is a stream, the stream has ended.
    finished: AtomicU64,
    /// `BatchedWrites` holds answers until the next read.
    held: AtomicBool,
    /// `BatchedWrites` must send what it holds at the next flush.
    release: AtomicBool,
    /// The connection speaks HTTP/2: no header-read timeout applies.
    multiplexed: AtomicBool,
    /// A request was answered `101 Switching Protocols`: the connection
    /// becomes a WebSocket's once hyper has sent the answer, and its writes
    /// are no longer batched.
    upgraded: AtomicBool,
}

impl ConnectionState {
    pub(crate) fn request_started(&self) {
        self.started.store(self.started.load(Relaxed) + 1, Relaxed);
    }

    pub(crate) fn request_finished(&self) {
        self.finished
            .store(self.finished.load(Relaxed) + 1, Relaxed);
    }

    /// Whether every request read so far is answered: hyper waits for the
    /// next head.
    pub(crate) fn awaiting_head(&self) -> (bool, u64) {
        let started = self.started.load(Relaxed);
        (started == self.finished.load(Relaxed), started)
    }

    /// Whether a request read so far is still being answered: a read then
    /// is hyper checking for the end of input, not waiting for a request.
    pub(crate) fn answering(&self) -> bool {
        !self.awaiting_head().0
    }

    /// Answers are held back waiting for the next read.
    pub(crate) fn hold(&self) {
        self.held.store(true, Relaxed);
    }

    /// Nothing is held back any more (what was is being sent).
    pub(crate) fn clear_hold(&self) {
        self.held.store(false, Relaxed);
        self.release.store(false, Relaxed);
    }

    /// Called when hyper stops without reading: whatever is held must go
    /// at the next flush. Whether anything was held.
    pub(crate) fn release_held(&self) -> bool {
        if self.held.load(Relaxed) {
            self.held.store(false, Relaxed);
            self.release.store(true, Relaxed);
            true
        } else {
            false
        }
    }

    /// Whether held answers must be sent now; clears the request.
    pub(crate) fn take_release(&self) -> bool {
        if self.release.load(Relaxed) {
            self.release.store(false, Relaxed);
            true
        } else {
            false
        }
    }

    /// The connection turned out to be HTTP/2.
    pub(crate) fn set_multiplexed(&self) {
        self.multiplexed.store(true, Relaxed);
    }

    /// Whether the connection speaks HTTP/2.
    pub(crate) fn is_multiplexed(&self) -> bool {
        self.multiplexed.load(Relaxed)
    }

    /// A request was answered `101 Switching Protocols`.
    pub(crate) fn set_upgraded(&self) {
        self.upgraded.store(true, Relaxed);
    }

    /// Whether the connection is being handed over to an upgrade.
    pub(crate) fn is_upgraded(&self) -> bool {
        self.upgraded.load(Relaxed)
    }
}

/// Marks the request it belongs to as answered when dropped: held by a
/// streamed response body until hyper has sent (or abandoned) it.
#[derive(Debug)]
pub(crate) struct Finished(Arc<ConnectionState>);

impl Finished {
    pub(crate) fn new(state: Arc<ConnectionState>) -> Self {
        Finished(state)
    }
}

impl Drop for Finished {
    fn drop(&mut self) {
        self.0.request_finished();
    }
}
