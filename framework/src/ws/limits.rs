//! How large, how quiet and how queued a socket may get.

use std::time::Duration;

/// The largest message a client may send unless configured: 64 KiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 64 * 1024;

/// How long a socket may go without hearing from its client (a message, a
/// ping or a pong) unless configured: 60 s.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// How often the server pings a socket unless configured: 25 s, so that a
/// live client (browsers answer pings on their own) is never idle.
pub const DEFAULT_PING_INTERVAL: Duration = Duration::from_secs(25);

/// How many messages the handler may queue for sending before
/// [`send`](super::WebSocketSender::send) waits for the socket: 16.
pub const DEFAULT_SEND_QUEUE: usize = 16;

/// The limits of a WebSocket route's sockets.
///
/// - **Message size**: a message larger than
///   [`max_message_size`](Limits::max_message_size) closes the socket with
///   code `1009` as soon as its header announces the size (the rest is not
///   buffered).
/// - **Idle timeout**: a socket that hears nothing from its client (no
///   message, ping or pong) for [`idle_timeout`](Limits::idle_timeout)
///   is closed with `1001` and the reason `idle_timeout`. A client that
///   takes no data for that long (its send buffer full) is dropped.
/// - **Pings**: the server pings every
///   [`ping_interval`](Limits::ping_interval); clients answer on their own,
///   so only dead or stalled clients go idle. Pings from the client are
///   answered at once.
/// - **Send queue**: [`send`](super::WebSocketSender::send) waits once
///   [`send_queue`](Limits::send_queue) messages are queued, so a slow
///   client holds the handler back instead of growing the server's memory.
///
/// A route sets them on its [`WebSocketUpgrade`](super::WebSocketUpgrade);
/// an app gives every route its own defaults with
/// [`AppBuilder::state`](crate::AppBuilder::state):
///
/// ```
/// use std::time::Duration;
/// use framework::prelude::*;
/// use framework::ws::Limits;
///
/// let app = App::builder()
///     .state(Limits::new().max_message_size(16 * 1024).idle_timeout(Duration::from_secs(30)))
///     .build()
///     .unwrap();
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    pub(crate) max_message_size: usize,
    pub(crate) idle_timeout: Duration,
    pub(crate) ping_interval: Option<Duration>,
    pub(crate) send_queue: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            ping_interval: Some(DEFAULT_PING_INTERVAL),
            send_queue: DEFAULT_SEND_QUEUE,
        }
    }
}

impl Limits {
    /// The defaults: 64 KiB messages, 60 s idle timeout, a ping every 25 s,
    /// 16 queued messages.
    pub fn new() -> Self {
        Limits::default()
    }

    /// The largest message a client may send, in bytes (at least 1).
    #[must_use]
    pub fn max_message_size(mut self, bytes: usize) -> Self {
        self.max_message_size = bytes.max(1);
        self
    }

    /// How long a socket may go without hearing from its client.
    #[must_use]
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// How often the server pings; `None` sends no pings (a client that
    /// sends nothing is then closed after the idle timeout).
    #[must_use]
    pub fn ping_interval(mut self, every: Option<Duration>) -> Self {
        self.ping_interval = every.filter(|every| !every.is_zero());
        self
    }

    /// How many messages may wait to be sent (at least 1).
    #[must_use]
    pub fn send_queue(mut self, messages: usize) -> Self {
        self.send_queue = messages.max(1);
        self
    }
}
