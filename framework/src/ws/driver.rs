//! The task that owns a socket: it reads and checks the client's messages,
//! writes what the handler sends, pings, answers pings, and closes the
//! socket by the rules of its [`Limits`], whatever the handler is doing.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    sync::mpsc::{self, error::TrySendError},
    task::{JoinError, JoinHandle},
    time::{Instant, Interval, MissedTickBehavior},
};
use tokio_tungstenite::{
    WebSocketStream,
    tungstenite::{
        Error as WsError, Message,
        protocol::{CloseFrame, frame::coding::CloseCode},
    },
};

use super::{
    Limits,
    close::{CloseReason, close_code},
    socket::Outgoing,
    upgrade::SocketIo,
};
use crate::{
    dto::{Dto, JsonInput, decode_json_input},
    error::refusal,
    shutdown::Shutdown,
};

/// How long the server waits for the client's answer to its close frame
/// before it drops the connection.
pub(crate) const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

/// A client's message, as its refusal names it.
const MESSAGE: JsonInput = JsonInput {
    code: refusal::INVALID_MESSAGE,
    name: "message",
};

/// How a socket ends.
#[derive(Debug)]
enum End {
    /// The server closes it with this code and reason, and waits for the
    /// client's close frame.
    Close(CloseReason),
    /// A message is too large: the server closes it and reads nothing more
    /// as frames (the rest of the message is still arriving).
    TooBig(CloseReason),
    /// The client closed it, or the connection is gone.
    Gone,
}

/// What one turn of the loop leads to.
enum Step {
    Continue,
    End(End),
}

impl From<End> for Step {
    fn from(end: End) -> Self {
        Step::End(end)
    }
}

/// One socket's state.
pub(crate) struct Driver<In> {
    ws: WebSocketStream<SocketIo>,
    limits: Limits,
    /// Where the client's messages go; `None` once the handler dropped its
    /// receiver (messages are then read and dropped).
    incoming: Option<mpsc::Sender<In>>,
    /// A message the handler has not made room for yet; nothing more is
    /// read until it has.
    pending: Option<In>,
    outgoing: mpsc::Receiver<Outgoing>,
    /// Whether the handler may still send (a sender lives).
    sending: bool,
}

impl<In: Dto> Driver<In> {
    pub(crate) fn new(
        ws: WebSocketStream<SocketIo>,
        limits: Limits,
        incoming: mpsc::Sender<In>,
        outgoing: mpsc::Receiver<Outgoing>,
    ) -> Self {
        Driver {
            ws,
            limits,
            incoming: Some(incoming),
            pending: None,
            outgoing,
            sending: true,
        }
    }

    /// Serves the socket until it ends, then closes it.
    pub(crate) async fn run(mut self, shutdown: Shutdown, mut handler: JoinHandle<()>) {
        let stop = shutdown.started();
        tokio::pin!(stop);
        let idle = tokio::time::sleep(self.limits.idle_timeout);
        tokio::pin!(idle);
        let mut pings = self.limits.ping_interval.map(|every| {
            let mut pings = tokio::time::interval_at(Instant::now() + every, every);
            pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
            pings
        });
        let mut handler_running = true;
        let end = loop {
            let reading = self.pending.is_none();
            let step = tokio::select! {
                biased;
                () = &mut stop => End::Close(CloseReason::new(close_code::GOING_AWAY, "shutting_down")).into(),
                joined = &mut handler, if handler_running => {
                    handler_running = false;
                    handler_ended(joined)
                }
                outgoing = self.outgoing.recv(), if self.sending => self.send(outgoing).await,
                receiving = deliver(self.incoming.as_ref(), &mut self.pending), if !reading => {
                    if !receiving {
                        self.incoming = None;
                    }
                    idle.as_mut().reset(Instant::now() + self.limits.idle_timeout);
                    self.receiving_ended()
                }
                () = receiver_dropped(self.incoming.as_ref()), if reading && self.incoming.is_some() => {
                    self.incoming = None;
                    self.receiving_ended()
                }
                frame = self.ws.next(), if reading => {
                    idle.as_mut().reset(Instant::now() + self.limits.idle_timeout);
                    self.received(frame).await
                }
                () = &mut idle, if reading => End::Close(CloseReason::new(close_code::GOING_AWAY, "idle_timeout")).into(),
                () = tick(pings.as_mut()) => self.write(Message::Ping(Default::default())).await,
            };
            if let Step::End(end) = step {
                break end;
            }
        };
        self.finish(end).await;
    }

    /// Sends what the handler queued; a handler done sending (and
    /// receiving) closes the socket.
    async fn send(&mut self, outgoing: Option<Outgoing>) -> Step {
        match outgoing {
            Some(Outgoing::Text(text)) => self.write(Message::text(text)).await,
            Some(Outgoing::Close(reason)) => End::Close(reason).into(),
            None => {
                self.sending = false;
                self.receiving_ended()
            }
        }
    }

    /// Closes the socket (`1000`) once the handler has dropped both its
    /// receiver and every sender.
    fn receiving_ended(&mut self) -> Step {
        let receiving = self
            .incoming
            .as_ref()
            .is_some_and(|incoming| !incoming.is_closed());
        if self.sending || receiving {
            Step::Continue
        } else {
            End::Close(CloseReason::new(close_code::NORMAL, "")).into()
        }
    }

    /// Handles what a read gave.
    async fn received(&mut self, frame: Option<Result<Message, WsError>>) -> Step {
        let message = match frame {
            None => return End::Gone.into(),
            Some(Ok(message)) => message,
            Some(Err(err)) => return read_failed(err, &self.limits).into(),
        };
        match message {
            Message::Text(text) => self.deliver(text.as_bytes()),
            Message::Binary(bytes) => self.deliver(&bytes),
            // The pong is queued; send it now rather than at the next read.
            Message::Ping(_) => self.flush().await,
            Message::Close(_) => {
                // Sending the queued reply completes the closing handshake.
                let _ = tokio::time::timeout(CLOSE_TIMEOUT, self.ws.flush()).await;
                End::Gone.into()
            }
            Message::Pong(_) | Message::Frame(_) => Step::Continue,
        }
    }

    /// Checks a message and hands it to the handler.
    fn deliver(&mut self, json: &[u8]) -> Step {
        let message = match decode_json_input::<In>(json, "$input", MESSAGE) {
            Ok(message) => message,
            Err(refused) => {
                tracing::debug!(
                    detail = refused.message(),
                    issues = ?refused.issues(),
                    "a WebSocket message was refused",
                );
                let reason = CloseReason::new(close_code::INVALID_MESSAGE, refused.message());
                return End::Close(reason).into();
            }
        };
        if let Some(incoming) = &self.incoming {
            match incoming.try_send(message) {
                Ok(()) => {}
                Err(TrySendError::Full(message)) => self.pending = Some(message),
                Err(TrySendError::Closed(_)) => self.incoming = None,
            }
        }
        Step::Continue
    }

    /// Writes a message, giving up on a client that takes no data for the
    /// idle timeout.
    async fn write(&mut self, message: Message) -> Step {
        match tokio::time::timeout(self.limits.idle_timeout, self.ws.send(message)).await {
            Ok(Ok(())) => Step::Continue,
            _ => End::Gone.into(),
        }
    }

    async fn flush(&mut self) -> Step {
        match tokio::time::timeout(self.limits.idle_timeout, self.ws.flush()).await {
            Ok(Ok(())) => Step::Continue,
            _ => End::Gone.into(),
        }
    }

    /// Closes the socket as `end` says.
    async fn finish(mut self, end: End) {
        let (reason, too_big) = match end {
            End::Gone => {
                tracing::debug!("WebSocket closed by the client");
                return;
            }
            End::Close(reason) => (reason, false),
            End::TooBig(reason) => (reason, true),
        };
        tracing::debug!(code = reason.code, reason = %reason.reason, "closing a WebSocket");
        let frame = CloseFrame {
            code: CloseCode::from(reason.code),
            reason: reason.reason.into(),
        };
        let closing = async {
            if self.ws.send(Message::Close(Some(frame))).await.is_err() {
                return;
            }
            if too_big {
                // The rest of the message is not read as frames: the server
                // is done writing, and drops bytes until the client closes.
                let _ = self.ws.get_mut().shutdown().await;
                let mut scratch = [0u8; 4096];
                while let Ok(1..) = self.ws.get_mut().read(&mut scratch).await {}
            } else {
                // The client answers with its close frame; anything it sent
                // before that is dropped.
                while let Some(Ok(_)) = self.ws.next().await {}
            }
        };
        let _ = tokio::time::timeout(CLOSE_TIMEOUT, closing).await;
    }
}

/// Why a read failed, as the socket's end.
fn read_failed(err: WsError, limits: &Limits) -> End {
    match err {
        WsError::Capacity(_) => End::TooBig(CloseReason::new(
            close_code::MESSAGE_TOO_BIG,
            &format!(
                "message_too_large: larger than {} bytes",
                limits.max_message_size
            ),
        )),
        WsError::Utf8(_) => End::Close(CloseReason::new(
            close_code::INVALID_MESSAGE,
            "message: not UTF-8",
        )),
        WsError::Protocol(err) => End::Close(CloseReason::new(
            close_code::PROTOCOL_ERROR,
            &err.to_string(),
        )),
        _ => End::Gone,
    }
}

/// What the end of the handler's task means for the socket: a panic
/// closes it with `1011`; otherwise the socket lives as long as the
/// handler's halves do.
fn handler_ended(joined: Result<(), JoinError>) -> Step {
    match joined {
        Err(err) if err.is_panic() => {
            tracing::error!("a WebSocket handler panicked");
            End::Close(CloseReason::new(
                close_code::INTERNAL_ERROR,
                "internal_error",
            ))
            .into()
        }
        _ => Step::Continue,
    }
}

/// Hands the pending message to the handler once its queue has room;
/// `false` (the message dropped) when the handler dropped its receiver.
/// Cancel-safe: the message is taken only once there is room.
async fn deliver<In>(incoming: Option<&mpsc::Sender<In>>, pending: &mut Option<In>) -> bool {
    let Some(incoming) = incoming else {
        *pending = None;
        return false;
    };
    match incoming.reserve().await {
        Ok(permit) => {
            if let Some(message) = pending.take() {
                permit.send(message);
            }
            true
        }
        Err(_) => {
            *pending = None;
            false
        }
    }
}

/// Completes when the handler drops its receiver.
async fn receiver_dropped<In>(incoming: Option<&mpsc::Sender<In>>) {
    match incoming {
        Some(incoming) => incoming.closed().await,
        None => std::future::pending().await,
    }
}

/// The next ping, never without pings.
async fn tick(pings: Option<&mut Interval>) {
    match pings {
        Some(pings) => {
            pings.tick().await;
        }
        None => std::future::pending().await,
    }
}
