//! The connection whose future this thread is polling, so that an HTTP/1
//! answer counts its request finished on its connection's
//! [`ConnectionState`] without holding a reference count to it.
//!
//! hyper polls an HTTP/1 request's future from inside its connection's
//! future, which [`Connection`](super::connection::Connection) polls
//! within [`polling`]: whenever such an answer becomes ready, the state in
//! scope is its own connection's. A reference count per request (an
//! `Arc` cloned for the answer and dropped with it) costs two atomic
//! read-modify-writes, each of which waits for every store before it to
//! complete: without them, 1.75% more pipelined plaintext requests per
//! server-CPU-second (the median of 10 paired runs; bench/README.md) for
//! the same instruction count. HTTP/2 runs each request's future in a task
//! of its own, outside this scope, so its answers keep a reference count.

use std::sync::Arc;

use super::state::ConnectionState;

scoped_tls::scoped_thread_local!(static POLLED: Arc<ConnectionState>);

/// Runs `poll` (the poll of a connection's future) with `state` as the
/// connection being polled.
pub(super) fn polling<R>(state: &Arc<ConnectionState>, poll: impl FnOnce() -> R) -> R {
    POLLED.set(state, poll)
}

/// The state of the connection being polled, if any.
pub(super) fn with<R>(f: impl FnOnce(Option<&Arc<ConnectionState>>) -> R) -> R {
    if POLLED.is_set() {
        POLLED.with(|state| f(Some(state)))
    } else {
        f(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_is_in_scope_only_while_polling() {
        let state = Arc::new(ConnectionState::default());
        assert!(with(|polled| polled.is_none()));
        let same = polling(&state, || {
            with(|polled| polled.is_some_and(|it| Arc::ptr_eq(it, &state)))
        });
        assert!(same);
        assert!(with(|polled| polled.is_none()));
    }
}
