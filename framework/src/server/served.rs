//! A connection the server serves, with what it holds while it is open:
//! its place under the connection limit and its count in the apps'
//! open-connections gauges. Both live as long as the connection itself, so
//! a connection that becomes a WebSocket keeps them until the socket
//! closes. Its IO is the TCP stream under a lingering close
//! ([`Lingering`]) under the batching of pipelined answers
//! ([`BatchedWrites`]).

use std::{
    io,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
};

use crate::observe::ConnectionsGauge;
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::TcpStream,
    sync::OwnedSemaphorePermit,
};

use super::{batched_io::BatchedWrites, lingering::Lingering, state::ConnectionState};

/// What hyper reads and writes for one accepted connection.
#[derive(Debug)]
pub(crate) struct ServedConnection {
    io: BatchedWrites<Lingering>,
    _open: OpenConnection,
    /// `None` for a connection taken from the queue at shutdown.
    _permit: Option<OwnedSemaphorePermit>,
}

impl ServedConnection {
    pub(crate) fn new(
        stream: TcpStream,
        state: Arc<ConnectionState>,
        gauges: Arc<[ConnectionsGauge]>,
        permit: Option<OwnedSemaphorePermit>,
    ) -> Self {
        ServedConnection {
            io: BatchedWrites::new(Lingering::new(stream, Arc::clone(&state)), state),
            _open: OpenConnection::new(gauges),
            _permit: permit,
        }
    }
}

impl AsyncRead for ServedConnection {
    #[inline]
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl AsyncWrite for ServedConnection {
    #[inline]
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, data)
    }

    #[inline]
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    #[inline]
    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    #[inline]
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    #[inline]
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// Counts one connection in the apps' open-connections gauges while it
/// lives.
#[derive(Debug)]
struct OpenConnection(Arc<[ConnectionsGauge]>);

impl OpenConnection {
    fn new(gauges: Arc<[ConnectionsGauge]>) -> Self {
        for gauge in gauges.iter() {
            gauge.inc();
        }
        OpenConnection(gauges)
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        for gauge in self.0.iter() {
            gauge.dec();
        }
    }
}
