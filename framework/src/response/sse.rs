//! Server-sent events: [`Sse`], a stream of typed [`Event`]s.

use std::{
    fmt::Write as _,
    future::Future,
    pin::Pin,
    task::{Context, Poll},
    time::Duration,
};

use bytes::{BufMut, Bytes, BytesMut};
use futures_util::Stream;
use http::{HeaderValue, StatusCode, header};
use http_body::Frame;
use serde::Serialize;
use tokio::time::Sleep;

use super::IntoResponse;
use crate::{
    body::{Body, Response},
    describe::{ContentKind, ContentManifest, ResponseManifest},
    schema::{Registry, ToSchema},
    shutdown::Shutdown,
};

/// The media type of server-sent events.
pub const EVENT_STREAM: &str = "text/event-stream";

/// How long a stream may be silent before a keep-alive comment is sent,
/// unless [`Sse::keep_alive`] says otherwise.
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);

/// One server-sent event: `data` sent as one line of JSON, with an
/// optional event name, id (what a reconnecting client sends back as
/// `Last-Event-ID`) and reconnection delay.
///
/// A name or id containing a line break (or an id containing NUL) cannot be
/// framed: such an event is not sent, and the error is logged; the stream
/// goes on with the next one. So is an event whose data does not serialize.
///
/// ```
/// use framework::sse::Event;
/// use std::time::Duration;
///
/// let event = Event::new(vec![1, 2]).name("numbers").id("7").retry(Duration::from_secs(3));
/// assert_eq!(event.encode().unwrap(), "event: numbers\nid: 7\nretry: 3000\ndata: [1,2]\n\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event<T> {
    data: T,
    name: Option<String>,
    id: Option<String>,
    retry: Option<Duration>,
}

impl<T> Event<T> {
    /// An event carrying `data`, of the default type (`message`).
    pub fn new(data: T) -> Self {
        Event {
            data,
            name: None,
            id: None,
            retry: None,
        }
    }

    /// The event's name (`event:`), which clients listen for.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The event's id (`id:`): a client that reconnects sends the last one
    /// it saw as `Last-Event-ID`.
    #[must_use]
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// How long a client waits before reconnecting (`retry:`).
    #[must_use]
    pub fn retry(mut self, retry: Duration) -> Self {
        self.retry = Some(retry);
        self
    }

    /// The data.
    pub fn data(&self) -> &T {
        &self.data
    }
}

/// Why an event could not be framed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EventError {
    /// The name or id would break the event's lines.
    #[error("the event's {0} contains a line break or NUL")]
    Unframable(&'static str),
    /// The data is not JSON.
    #[error("the event's data cannot be serialized: {0}")]
    Data(#[from] serde_json::Error),
}

impl<T: Serialize> Event<T> {
    /// The event as it goes on the wire.
    ///
    /// # Errors
    /// A name or id with a line break (an id with NUL), or data that does
    /// not serialize.
    pub fn encode(&self) -> Result<Bytes, EventError> {
        let mut out = BytesMut::with_capacity(64);
        let breaks = |text: &str| text.contains(['\n', '\r']);
        if let Some(name) = &self.name {
            if breaks(name) {
                return Err(EventError::Unframable("name"));
            }
            field(&mut out, "event", name);
        }
        if let Some(id) = &self.id {
            if breaks(id) || id.contains('\0') {
                return Err(EventError::Unframable("id"));
            }
            field(&mut out, "id", id);
        }
        if let Some(retry) = self.retry {
            let mut millis = String::new();
            let _ = write!(millis, "{}", retry.as_millis());
            field(&mut out, "retry", &millis);
        }
        out.put_slice(b"data: ");
        // Compact JSON has no raw line breaks: one `data:` line.
        serde_json::to_writer((&mut out).writer(), &self.data)?;
        out.put_slice(b"\n\n");
        Ok(out.freeze())
    }
}

fn field(out: &mut BytesMut, name: &str, value: &str) {
    out.put_slice(name.as_bytes());
    out.put_slice(b": ");
    out.put_slice(value.as_bytes());
    out.put_u8(b'\n');
}

/// A `text/event-stream` answer: each [`Event`] of a stream is sent as it
/// comes, with its data as JSON of the event type `T` (a `#[dto]` type),
/// which the route documents as the stream's schema.
///
/// - **Keep-alive**: after [`DEFAULT_KEEP_ALIVE`] (15 s, or
///   [`keep_alive`](Sse::keep_alive)) without an event, a comment line
///   (`:`) is sent so proxies keep the connection open.
/// - **Backpressure**: the stream is polled only when the connection has
///   room for more; a client that stops reading stops the stream once the
///   socket's buffers are full (the kernel's, plus at most 64 KiB of the
///   server's). Nothing is queued in between, so a slow consumer costs at
///   most those buffers. A stream fed by a broadcast channel decides what
///   lagging means: with `tokio::sync::broadcast`, a receiver that falls
///   more than the channel's capacity behind gets `RecvError::Lagged(n)`
///   (the oldest `n` events are gone). End the stream there (as below): the
///   client reconnects with `Last-Event-ID` and the handler replays what it
///   missed from its store.
/// - **Shutdown**: with [`until`](Sse::until), the stream ends (the
///   response completes normally) as soon as the server's graceful
///   shutdown begins, so open streams do not hold the shutdown back.
/// - **Resumption**: take [`LastEventId`](crate::sse::LastEventId) to
///   start after the last event a reconnecting client saw.
///
/// ```
/// use framework::prelude::*;
/// use framework::Shutdown;
/// use framework::sse::{Event, LastEventId, Sse};
/// use futures_util::stream;
/// use tokio::sync::broadcast;
///
/// #[dto]
/// #[derive(Clone)]
/// struct Posted { id: u64, title: String }
///
/// struct Feed { posts: broadcast::Sender<Posted> }
///
/// #[controller("feed")]
/// impl Feed {
///     /// New posts as they are made.
///     #[typed_route::get("")]
///     async fn live(&self, last: LastEventId, shutdown: Shutdown) -> Sse<Posted> {
///         let _resume_after = last.get(); // replay from a store here
///         let events = stream::unfold(self.posts.subscribe(), |mut posts| async move {
///             // A lagging client (or a closed channel) ends its stream.
///             let post = posts.recv().await.ok()?;
///             let event = Event::new(post.clone()).name("posted").id(post.id.to_string());
///             Some((event, posts))
///         });
///         Sse::new(events).until(&shutdown)
///     }
/// }
/// ```
#[must_use]
pub struct Sse<T> {
    events: EventStream<T>,
    keep_alive: Option<Duration>,
    until: Option<Shutdown>,
}

/// The events of an [`Sse`], boxed so that the handler's return type can be
/// written (`Sse<Note>`), as a handler's answer type must be.
type EventStream<T> = Pin<Box<dyn Stream<Item = Event<T>> + Send>>;

impl<T> Sse<T> {
    /// Sends `events`, with a keep-alive comment after 15 s of silence.
    pub fn new<S>(events: S) -> Self
    where
        S: Stream<Item = Event<T>> + Send + 'static,
    {
        Sse {
            events: Box::pin(events),
            keep_alive: Some(DEFAULT_KEEP_ALIVE),
            until: None,
        }
    }

    /// Sends a keep-alive comment after `silence` without an event.
    pub fn keep_alive(mut self, silence: Duration) -> Self {
        self.keep_alive = Some(silence);
        self
    }

    /// Sends no keep-alive comments.
    pub fn without_keep_alive(mut self) -> Self {
        self.keep_alive = None;
        self
    }

    /// Ends the stream when `shutdown` begins (take [`Shutdown`] as a
    /// handler argument).
    pub fn until(mut self, shutdown: &Shutdown) -> Self {
        self.until = Some(shutdown.clone());
        self
    }
}

impl<T> std::fmt::Debug for Sse<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sse")
            .field("keep_alive", &self.keep_alive)
            .field("until", &self.until)
            .finish_non_exhaustive()
    }
}

impl<T> IntoResponse for Sse<T>
where
    T: Serialize + ToSchema + 'static,
{
    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        vec![
            ResponseManifest::new(status)
                .described(
                    "Server-sent events; each event's `data` is one JSON value of the schema.",
                )
                .with_content(ContentManifest::new(
                    ContentKind::EventStream,
                    EVENT_STREAM,
                    Some(T::schema(registry)),
                )),
        ]
    }

    fn into_response(self, status: StatusCode) -> Response {
        let body = EventBody {
            events: self.events,
            keep_alive: self
                .keep_alive
                .map(|every| (every, Box::pin(tokio::time::sleep(every)))),
            shutdown: self
                .until
                .map(|shutdown| Box::pin(shutdown.started()) as ShutdownFuture),
            done: false,
        };
        let mut response = http::Response::new(Body::new(body));
        *response.status_mut() = status;
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(EVENT_STREAM));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        // Tells nginx not to buffer the stream.
        headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
        response
    }
}

type ShutdownFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

/// The body of an [`Sse`]: each poll sends at most one event or comment,
/// and polls the events only when the connection asks for more.
struct EventBody<T> {
    events: EventStream<T>,
    keep_alive: Option<(Duration, Pin<Box<Sleep>>)>,
    shutdown: Option<ShutdownFuture>,
    done: bool,
}

/// A comment line: ignored by clients, keeps proxies from closing.
const KEEP_ALIVE: &[u8] = b":\n\n";

impl<T: Serialize> http_body::Body for EventBody<T> {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        if let Some(shutdown) = this.shutdown.as_mut()
            && shutdown.as_mut().poll(cx).is_ready()
        {
            this.done = true;
            return Poll::Ready(None);
        }
        loop {
            match this.events.as_mut().poll_next(cx) {
                Poll::Ready(Some(event)) => match event.encode() {
                    Ok(bytes) => {
                        if let Some((every, sleep)) = this.keep_alive.as_mut() {
                            sleep.as_mut().reset(tokio::time::Instant::now() + *every);
                        }
                        return Poll::Ready(Some(Ok(Frame::data(bytes))));
                    }
                    Err(err) => {
                        tracing::error!(%err, "a server-sent event was not sent");
                    }
                },
                Poll::Ready(None) => {
                    this.done = true;
                    return Poll::Ready(None);
                }
                Poll::Pending => break,
            }
        }
        if let Some((every, sleep)) = this.keep_alive.as_mut()
            && sleep.as_mut().poll(cx).is_ready()
        {
            sleep.as_mut().reset(tokio::time::Instant::now() + *every);
            return Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(KEEP_ALIVE)))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_framed_as_lines() {
        assert_eq!(
            Event::new("a\nb").encode().unwrap(),
            "data: \"a\\nb\"\n\n",
            "JSON escapes line breaks in the data"
        );
        assert!(matches!(
            Event::new(1).name("two\nlines").encode(),
            Err(EventError::Unframable("name"))
        ));
        assert!(matches!(
            Event::new(1).id("a\rb").encode(),
            Err(EventError::Unframable("id"))
        ));
        assert!(matches!(
            Event::new(1).id("a\0b").encode(),
            Err(EventError::Unframable("id"))
        ));
    }
}
