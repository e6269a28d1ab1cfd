//! What the server keeps for each connection beside hyper's own state: the
//! header-read timeout, and the moment the answers [`BatchedWrites`] holds
//! must go out because hyper stopped for something other than input.
//!
//! hyper's own header-read timeout allocates a timer and registers it with
//! tokio for every request head a connection reads (measured: about 550
//! instructions per request). Here a connection has one tokio timer, which
//! ticks every quarter of the timeout, and a request costs two plain stores
//! (its answer finds the state in scope while the connection is polled:
//! `polled.rs`): the connection closes once it has waited for a
//! request head (idle, or a head arriving too slowly) for at least the
//! timeout and less than 1.25 times it.
//!
//! [`BatchedWrites`]: super::batched_io::BatchedWrites

use std::{
    future::Future,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use tokio::time::{Instant, Sleep};

use super::{polled, state::ConnectionState};
use crate::body::BoxError;

/// How many ticks a timeout is split into: a connection is closed at the
/// fifth tick in a row that finds it waiting for a request head.
const TICKS_PER_TIMEOUT: u32 = 4;

/// Why a connection's future ended.
#[derive(Debug)]
pub(crate) enum Ended {
    /// hyper finished the connection (closed by the client, by shutdown, or
    /// by an error).
    Served(Result<(), BoxError>),
    /// No request head arrived within the header-read timeout.
    HeadTimedOut,
}

/// hyper's future of one connection.
pub(crate) type Served = Pin<Box<dyn Future<Output = Result<(), BoxError>> + Send>>;

/// A connection's future: hyper's, with the header-read timeout, and the
/// release of held answers whenever hyper stops without reading.
pub(crate) struct Connection {
    inner: Served,
    state: Arc<ConnectionState>,
    head_timeout: Option<HeadTimeout>,
}

impl Connection {
    pub(crate) fn new(inner: Served, state: Arc<ConnectionState>, head_timeout: Duration) -> Self {
        Connection {
            inner,
            state,
            head_timeout: Some(HeadTimeout::new(head_timeout)),
        }
    }
}

impl Future for Connection {
    type Output = Ended;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Ended> {
        let this = self.get_mut();
        let served = polled::polling(&this.state, || this.inner.as_mut().poll(cx));
        if let Poll::Ready(result) = served {
            return Poll::Ready(Ended::Served(result));
        }
        // hyper waits: for input, a handler or a streamed body. Only a read
        // that finds nothing sends held answers, and it did not read: send
        // them at the flush of the next poll, which comes at once.
        if this.state.release_held() {
            cx.waker().wake_by_ref();
        }
        if let Some(timeout) = &mut this.head_timeout {
            match timeout.tick(&this.state, cx) {
                Tick::Waiting => {}
                Tick::Expired => return Poll::Ready(Ended::HeadTimedOut),
                Tick::Stop => this.head_timeout = None,
            }
        }
        Poll::Pending
    }
}

/// What a tick of the header-read timeout found.
enum Tick {
    Waiting,
    Expired,
    /// The connection is HTTP/2: the timer is dropped.
    Stop,
}

/// One timer per connection, ticking every quarter of the timeout.
struct HeadTimeout {
    timer: Pin<Box<Sleep>>,
    period: Duration,
    /// Whether the timer is polled since it was last set (so it wakes the
    /// connection's task when it fires).
    registered: bool,
    /// Ticks in a row that found the connection waiting for a head.
    waiting_ticks: u32,
    /// Requests started at the last tick.
    last_started: u64,
}

impl HeadTimeout {
    fn new(timeout: Duration) -> Self {
        let period = (timeout / TICKS_PER_TIMEOUT).max(Duration::from_millis(1));
        HeadTimeout {
            timer: Box::pin(tokio::time::sleep_until(Instant::now() + period)),
            period,
            registered: false,
            waiting_ticks: 0,
            last_started: 0,
        }
    }

    /// Called at every poll of the connection; does work only when the
    /// timer has fired.
    fn tick(&mut self, state: &ConnectionState, cx: &mut Context<'_>) -> Tick {
        if self.registered {
            if !self.timer.is_elapsed() {
                return Tick::Waiting;
            }
            if state.is_multiplexed() {
                return Tick::Stop;
            }
            let (awaiting, started) = state.awaiting_head();
            self.waiting_ticks = match (awaiting, started == self.last_started) {
                (false, _) => 0,
                // The wait began after the previous tick.
                (true, false) => 1,
                (true, true) => self.waiting_ticks + 1,
            };
            self.last_started = started;
            if self.waiting_ticks > TICKS_PER_TIMEOUT {
                return Tick::Expired;
            }
            // From now, not from the last deadline: a tick that comes late
            // (a busy runtime) does not make the next one come early.
            self.timer.as_mut().reset(Instant::now() + self.period);
        }
        // Registers the task's waker (the deadline is at least a
        // millisecond away).
        self.registered = true;
        if self.timer.as_mut().poll(cx).is_ready() {
            cx.waker().wake_by_ref();
        }
        Tick::Waiting
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A connection future that never ends by itself.
    fn forever() -> Served {
        Box::pin(std::future::pending())
    }

    #[tokio::test(start_paused = true)]
    async fn an_idle_connection_is_closed_after_the_timeout_and_before_a_quarter_more() {
        let state = Arc::new(ConnectionState::default());
        let start = Instant::now();
        let ended = Connection::new(forever(), Arc::clone(&state), Duration::from_secs(8)).await;
        assert!(matches!(ended, Ended::HeadTimedOut));
        let waited = start.elapsed();
        assert!(
            waited >= Duration::from_secs(8) && waited <= Duration::from_secs(10),
            "{waited:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_in_progress_is_never_timed_out() {
        let state = Arc::new(ConnectionState::default());
        state.request_started();
        let connection = Connection::new(forever(), Arc::clone(&state), Duration::from_secs(1));
        let waited = tokio::time::timeout(Duration::from_secs(60), connection).await;
        assert!(
            waited.is_err(),
            "a handler running for a minute was cut off"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_wait_counts_from_the_last_answer() {
        let state = Arc::new(ConnectionState::default());
        let start = Instant::now();
        let answering = Arc::clone(&state);
        tokio::spawn(async move {
            // A request every 3 s for 12 s, each answered in 1 s.
            for _ in 0..4 {
                tokio::time::sleep(Duration::from_secs(2)).await;
                answering.request_started();
                tokio::time::sleep(Duration::from_secs(1)).await;
                answering.request_finished();
            }
        });
        let ended = Connection::new(forever(), Arc::clone(&state), Duration::from_secs(4)).await;
        assert!(matches!(ended, Ended::HeadTimedOut));
        // The last answer was at 12 s: closed 4 to 5 s later.
        let waited = start.elapsed();
        assert!(
            waited >= Duration::from_secs(16) && waited <= Duration::from_secs(17),
            "{waited:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_http2_connection_has_no_header_timeout() {
        let state = Arc::new(ConnectionState::default());
        state.set_multiplexed();
        let connection = Connection::new(forever(), Arc::clone(&state), Duration::from_secs(1));
        let waited = tokio::time::timeout(Duration::from_secs(30), connection).await;
        assert!(waited.is_err());
    }

    #[tokio::test]
    async fn held_answers_are_released_when_the_connection_waits() {
        let state = Arc::new(ConnectionState::default());
        state.hold();
        let mut connection =
            Connection::new(forever(), Arc::clone(&state), Duration::from_secs(10));
        let polled =
            std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut connection).poll(cx))).await;
        assert!(polled.is_pending());
        assert!(state.take_release(), "the next flush sends what is held");
        assert!(!state.take_release(), "once");
    }
}
