//! The typed socket a WebSocket handler is given.

use std::{
    marker::PhantomData,
    pin::Pin,
    task::{Context, Poll},
};

use futures_util::Stream;
use serde::Serialize;
use tokio::sync::mpsc;

use super::close::{self, CloseReason};

/// What the handler asks the socket's driver to send.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// A message, as JSON text.
    Text(String),
    /// The closing handshake, with a code and a reason.
    Close(CloseReason),
}

/// A WebSocket whose client sends `In` messages and whose server sends
/// `Out` messages, each one JSON text message, as the route documents them.
///
/// Every message [`recv`](WebSocket::recv) gives has passed the same checks
/// as a [`TypedBody<In>`](crate::TypedBody); a message that does not closes
/// the socket with code `1007` before it reaches the handler. The socket
/// closes (`1000`) once the handler has dropped it, and both halves of a
/// [`split`](WebSocket::split) socket.
///
/// ```
/// use framework::prelude::*;
/// use framework::ws::WebSocket;
///
/// #[dto]
/// struct Say { #[tags(min_length = 1)] text: String }
///
/// #[dto]
/// struct Said { text: String, length: u32 }
///
/// async fn echo(mut socket: WebSocket<Say, Said>) {
///     while let Some(Say { text }) = socket.recv().await {
///         let length = text.chars().count() as u32;
///         if socket.send(&Said { text, length }).await.is_err() {
///             break; // the socket is closed
///         }
///     }
/// }
/// ```
#[derive(Debug)]
pub struct WebSocket<In, Out> {
    sender: WebSocketSender<Out>,
    receiver: WebSocketReceiver<In>,
}

impl<In, Out> WebSocket<In, Out> {
    pub(crate) fn new(outgoing: mpsc::Sender<Outgoing>, incoming: mpsc::Receiver<In>) -> Self {
        WebSocket {
            sender: WebSocketSender {
                outgoing,
                messages: PhantomData,
            },
            receiver: WebSocketReceiver { incoming },
        }
    }

    /// The next message from the client, or `None` once the socket is
    /// closed (by the client, by the server's rules, or by this handler).
    /// Cancel-safe: use it in `tokio::select!`.
    pub async fn recv(&mut self) -> Option<In> {
        self.receiver.recv().await
    }

    /// Sends `message`; see [`WebSocketSender::send`].
    ///
    /// # Errors
    /// The socket is closed, or `message` does not serialize.
    pub async fn send(&self, message: &Out) -> Result<(), SendError>
    where
        Out: Serialize,
    {
        self.sender.send(message).await
    }

    /// Closes the socket with `code` and `reason`; see
    /// [`WebSocketSender::close`].
    ///
    /// # Errors
    /// The socket is closed already, or `code` cannot be sent.
    pub async fn close(self, code: u16, reason: &str) -> Result<(), SendError> {
        self.sender.close(code, reason).await
    }

    /// The two halves, to receive in one task and send from another (or
    /// from several: [`WebSocketSender`] is `Clone`).
    pub fn split(self) -> (WebSocketSender<Out>, WebSocketReceiver<In>) {
        (self.sender, self.receiver)
    }
}

/// The half of a [`WebSocket`] that sends. Clones send on the same socket,
/// which stays open while any of them (or the receiving half) lives.
#[derive(Debug)]
pub struct WebSocketSender<Out> {
    outgoing: mpsc::Sender<Outgoing>,
    messages: PhantomData<fn(Out)>,
}

impl<Out> Clone for WebSocketSender<Out> {
    fn clone(&self) -> Self {
        WebSocketSender {
            outgoing: self.outgoing.clone(),
            messages: PhantomData,
        }
    }
}

/// Why a message was not sent.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SendError {
    /// The socket is closed.
    #[error("the WebSocket is closed")]
    Closed,
    /// The message does not serialize as JSON.
    #[error("the message cannot be serialized: {0}")]
    Unserializable(#[from] serde_json::Error),
    /// A close code an endpoint may not send (see
    /// [`WebSocketSender::close`]).
    #[error("{0} is not a close code the server may send")]
    CloseCode(u16),
}

impl<Out> WebSocketSender<Out> {
    /// Sends `message` as one JSON text message. It is queued: this waits
    /// only while the socket's send queue
    /// ([`Limits::send_queue`](super::Limits::send_queue)) is full, so a
    /// slow client slows the sender down rather than filling memory.
    ///
    /// # Errors
    /// [`SendError::Closed`] once the socket is closed;
    /// [`SendError::Unserializable`] for a value JSON cannot hold (a map
    /// whose keys are not strings).
    pub async fn send(&self, message: &Out) -> Result<(), SendError>
    where
        Out: Serialize,
    {
        let text = serde_json::to_string(message)?;
        self.outgoing
            .send(Outgoing::Text(text))
            .await
            .map_err(|_| SendError::Closed)
    }

    /// Closes the socket, after the messages sent before, with `code` and
    /// `reason` (cut to the 123 bytes a close frame holds). `code` is
    /// `1000` (normal), `1001` (going away), `1003`, `1007`, `1008`
    /// (policy), `1009`, `1011` (server error), or one of the codes for
    /// applications, `3000`–`4999`.
    ///
    /// # Errors
    /// [`SendError::Closed`] when the socket is closed already;
    /// [`SendError::CloseCode`] for a code outside those.
    pub async fn close(&self, code: u16, reason: &str) -> Result<(), SendError> {
        if !close::may_send(code) {
            return Err(SendError::CloseCode(code));
        }
        self.outgoing
            .send(Outgoing::Close(CloseReason::new(code, reason)))
            .await
            .map_err(|_| SendError::Closed)
    }

    /// Whether the socket is closed: sending would fail.
    pub fn is_closed(&self) -> bool {
        self.outgoing.is_closed()
    }

    /// Completes once the socket is closed (to stop producing messages
    /// for it).
    pub async fn closed(&self) {
        self.outgoing.closed().await;
    }
}

/// The half of a [`WebSocket`] that receives; also a [`Stream`] of the
/// client's messages.
#[derive(Debug)]
pub struct WebSocketReceiver<In> {
    incoming: mpsc::Receiver<In>,
}

impl<In> WebSocketReceiver<In> {
    /// The next message from the client, or `None` once the socket is
    /// closed. Cancel-safe.
    pub async fn recv(&mut self) -> Option<In> {
        self.incoming.recv().await
    }
}

impl<In> Stream for WebSocketReceiver<In> {
    type Item = In;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<In>> {
        self.get_mut().incoming.poll_recv(cx)
    }
}
