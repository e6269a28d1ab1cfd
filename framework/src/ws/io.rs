//! The connection under a socket, taken over from hyper after the `101`.

use std::{
    io,
    pin::Pin,
    task::{Context, Poll},
};

use bytes::Bytes;
use hyper::upgrade::Upgraded;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};

use crate::served::ServedConnection;

/// What a socket reads and writes.
#[derive(Debug)]
pub(crate) enum SocketIo {
    /// A connection of the framework's [`Server`](crate::Server), with its
    /// batching turned off (a frame is written when it is sent); it keeps
    /// its place under the connection limit until the socket closes.
    Served(ServedConnection),
    /// A connection of another server, as hyper hands it over.
    Upgraded(TokioIo<Upgraded>),
}

impl SocketIo {
    /// The connection of `upgraded` and the bytes the client sent after its
    /// handshake that hyper has already read.
    pub(crate) async fn take_over(upgraded: Upgraded) -> io::Result<(SocketIo, Bytes)> {
        type Served = TokioIo<ServedConnection>;
        match hyper_util::server::conn::auto::upgrade::downcast::<Served>(upgraded) {
            Ok(parts) => {
                let mut connection = parts.io.into_inner();
                connection.pass_through();
                // The `101` may still be held back for batching.
                connection.flush().await?;
                Ok((SocketIo::Served(connection), parts.read_buf))
            }
            // hyper's `Upgraded` replays what it read itself.
            Err(upgraded) => Ok((SocketIo::Upgraded(TokioIo::new(upgraded)), Bytes::new())),
        }
    }
}

impl AsyncRead for SocketIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            SocketIo::Served(io) => Pin::new(io).poll_read(cx, buf),
            SocketIo::Upgraded(io) => Pin::new(io).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for SocketIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            SocketIo::Served(io) => Pin::new(io).poll_write(cx, data),
            SocketIo::Upgraded(io) => Pin::new(io).poll_write(cx, data),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            SocketIo::Served(io) => Pin::new(io).poll_flush(cx),
            SocketIo::Upgraded(io) => Pin::new(io).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            SocketIo::Served(io) => Pin::new(io).poll_shutdown(cx),
            SocketIo::Upgraded(io) => Pin::new(io).poll_shutdown(cx),
        }
    }
}
