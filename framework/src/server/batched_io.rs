//! A connection that batches the answers to pipelined requests.
//!
//! hyper flushes after every HTTP/1 answer unless `pipeline_flush` is on,
//! and with `pipeline_flush` on, crates.io's hyper never flushes the answer
//! to a malformed request while the malformed bytes sit unread in its
//! buffer, so the client sees a bare close instead of its `400`/`431`. This
//! layer gets both right with stock hyper: hyper flushes after each answer,
//! and the flush is held back only while more input has just arrived (the
//! next pipelined requests may already be in hyper's buffer). Held bytes go
//! out as soon as a read finds nothing more to read while no request is
//! being answered (hyper also reads to check for the end of input while it
//! answers the last request of a batch: that answer then joins the batch's
//! write), when the connection
//! shuts down, when they pass [`HELD_LIMIT`] (a write of [`WRITE_THROUGH`]
//! bytes or more is not held at all), or at the next flush once the
//! connection's future finds hyper waiting without having read (a handler
//! still running, or a streamed answer such as server-sent events, which
//! hyper finishes before it reads the next pipelined request; see
//! [`Connection`](super::connection::Connection)): every pipelined batch is
//! one write, and no answer is lost or stalled.
//!
//! HTTP/2 connections (recognized by their preface) are passed through.
//!
//! What it costs: hyper writes and flushes every answer into this layer,
//! about 250 instructions an answer more than `pipeline_flush` (4.5% of a
//! pipelined plaintext answer; bench/README.md). The test
//! `server::hypers_pipeline_flush_still_loses_the_answers_before_a_malformed_request`
//! fails once hyper's `pipeline_flush` sends those answers, so that this
//! layer's batching can then be left to hyper.

use std::{
    io,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll, ready},
};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::state::ConnectionState;

/// Bytes held back before they are written anyway.
pub(crate) const HELD_LIMIT: usize = 64 * 1024;

/// Writes this large go to the socket at once (after what is held), not
/// through the held buffer: a large answer fills a write by itself.
const WRITE_THROUGH: usize = 16 * 1024;

/// The HTTP/2 connection preface's first bytes.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0";

/// A stream whose flushes wait while pipelined input is being answered.
#[derive(Debug)]
pub(crate) struct BatchedWrites<S> {
    inner: S,
    /// Answers written by hyper and not yet sent.
    held: Vec<u8>,
    /// How much of `held` is sent.
    sent: usize,
    /// The last read brought input: more requests may be waiting in
    /// hyper's buffer, so a flush can wait for the next read.
    input_pending: bool,
    /// Whether to batch at all: off once the connection is HTTP/2.
    batching: bool,
    /// Whether the first bytes were seen (to recognize HTTP/2).
    sniffed: bool,
    /// Shared with the connection's future, which asks for held answers
    /// when hyper stops without reading.
    state: Arc<ConnectionState>,
}

impl<S> BatchedWrites<S> {
    pub(crate) fn new(inner: S, state: Arc<ConnectionState>) -> Self {
        BatchedWrites {
            inner,
            held: Vec::new(),
            sent: 0,
            input_pending: false,
            batching: true,
            sniffed: false,
            state,
        }
    }

    /// Turns batching off for an HTTP/2 connection, from its first bytes
    /// (without the `http2` feature, its preface is a malformed HTTP/1.1
    /// request, refused as any other).
    fn sniff(&mut self, first: &[u8]) {
        if !self.sniffed && !first.is_empty() {
            self.sniffed = true;
            let length = first.len().min(H2_PREFACE.len());
            if cfg!(feature = "http2") && first[..length] == H2_PREFACE[..length] {
                self.batching = false;
                self.state.set_multiplexed();
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> BatchedWrites<S> {
    /// Sends every held byte.
    #[inline]
    fn poll_send_held(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // No longer held for a read: if the socket is full, its readiness
        // wakes the connection.
        self.state.clear_hold();
        while self.sent < self.held.len() {
            let written =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.held[self.sent..]))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += written;
        }
        self.held.clear();
        self.sent = 0;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for BatchedWrites<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let arrived = &buf.filled()[before..];
                this.sniff(arrived);
                // End of input: nothing more will come to batch with.
                this.input_pending = !arrived.is_empty();
                Poll::Ready(Ok(()))
            }
            Poll::Pending => {
                this.input_pending = false;
                // While the last request read is still being answered, this
                // read is hyper checking for the end of input: its answer
                // is written and flushed next (at once, as nothing more is
                // pending), with what is held, in one write; if hyper stops
                // for it instead, `Connection` releases what is held.
                // Otherwise every request is answered: send what is held
                // before waiting for more.
                if !this.state.answering()
                    && let Poll::Ready(Err(err)) = this.poll_send_held(cx)
                {
                    return Poll::Ready(Err(err));
                }
                Poll::Pending
            }
            Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for BatchedWrites<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if !this.batching {
            ready!(this.poll_send_held(cx))?;
            return Pin::new(&mut this.inner).poll_write(cx, data);
        }
        if data.len() >= WRITE_THROUGH {
            // Nothing to gain from batching it, and a copy to lose.
            ready!(this.poll_send_held(cx))?;
            return Pin::new(&mut this.inner).poll_write(cx, data);
        }
        if this.held.len() + data.len() > HELD_LIMIT {
            ready!(this.poll_send_held(cx))?;
        }
        this.held.extend_from_slice(data);
        Poll::Ready(Ok(data.len()))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let total: usize = bufs.iter().map(|buf| buf.len()).sum();
        if !this.batching {
            ready!(this.poll_send_held(cx))?;
            return Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        }
        if total >= WRITE_THROUGH {
            ready!(this.poll_send_held(cx))?;
            return Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        }
        if this.held.len() + total > HELD_LIMIT {
            ready!(this.poll_send_held(cx))?;
        }
        for buf in bufs {
            this.held.extend_from_slice(buf);
        }
        Poll::Ready(Ok(total))
    }

    fn is_write_vectored(&self) -> bool {
        // hyper then copies an answer into one buffer and writes it with
        // one call, instead of filling an array of 64 `IoSlice`s per answer
        // (measured: the vectored path cost 250 instructions per request).
        false
    }

    #[inline]
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.batching && this.state.is_upgraded() {
            // The connection becomes a WebSocket's once this flush has sent
            // the `101`: its frames must not wait for a read that may never
            // come. Batching stops for good.
            this.batching = false;
            this.input_pending = false;
        }
        if this.batching && this.input_pending {
            if !this.state.take_release() {
                // The next read sends it, or finds the next pipelined
                // request.
                this.state.hold();
                return Poll::Ready(Ok(()));
            }
            // hyper waited without reading: until a read brings more, what
            // is written now goes out at once.
            this.input_pending = false;
        }
        ready!(this.poll_send_held(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_send_held(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt, duplex};

    use super::*;

    #[tokio::test]
    async fn holds_answers_while_input_arrives_and_sends_them_at_the_next_empty_read() {
        let (client, server) = duplex(1024);
        let mut server = BatchedWrites::new(server, Arc::default());
        let (mut client_read, mut client_write) = tokio::io::split(client);
        client_write
            .write_all(b"GET / HTTP/1.1\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 64];
        let read = server.read(&mut buf).await.unwrap();
        assert_eq!(read, 18);
        server.write_all(b"first").await.unwrap();
        server.flush().await.unwrap();
        server.write_all(b"second").await.unwrap();
        server.flush().await.unwrap();
        assert_eq!(server.held, b"firstsecond");
        // A read that finds nothing sends what is held, in one write.
        let pending =
            tokio::time::timeout(std::time::Duration::from_millis(20), server.read(&mut buf)).await;
        assert!(pending.is_err(), "no input: the read waits");
        let mut answer = [0u8; 11];
        client_read.read_exact(&mut answer).await.unwrap();
        assert_eq!(&answer, b"firstsecond");
        // Nothing pending now: a flush sends at once.
        server.write_all(b"third").await.unwrap();
        server.flush().await.unwrap();
        let mut third = [0u8; 5];
        client_read.read_exact(&mut third).await.unwrap();
        assert_eq!(&third, b"third");
    }

    #[tokio::test]
    async fn a_large_write_goes_out_at_once_after_what_is_held() {
        let (client, server) = duplex(1 << 20);
        let mut server = BatchedWrites::new(server, Arc::default());
        let (mut client_read, mut client_write) = tokio::io::split(client);
        client_write
            .write_all(b"GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 64];
        assert!(server.read(&mut buf).await.unwrap() > 0);
        server.write_all(b"small").await.unwrap();
        server.flush().await.unwrap();
        assert_eq!(server.held, b"small", "held while input is pending");
        let large = vec![b'x'; WRITE_THROUGH];
        server.write_all(&large).await.unwrap();
        assert!(server.held.is_empty(), "the large write was not copied");
        let mut answer = vec![0u8; 5 + WRITE_THROUGH];
        tokio::time::timeout(
            std::time::Duration::from_secs(2),
            client_read.read_exact(&mut answer),
        )
        .await
        .expect("sent without waiting for a read")
        .unwrap();
        assert_eq!(&answer[..5], b"small");
        assert!(answer[5..].iter().all(|&byte| byte == b'x'));
    }

    #[tokio::test]
    async fn shutdown_sends_what_is_held() {
        let (mut client, server) = duplex(1024);
        let mut server = BatchedWrites::new(server, Arc::default());
        client.write_all(b"BAD\r\n").await.unwrap();
        let mut buf = [0u8; 16];
        assert_eq!(server.read(&mut buf).await.unwrap(), 5);
        server
            .write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n")
            .await
            .unwrap();
        server.flush().await.unwrap();
        server.shutdown().await.unwrap();
        drop(server);
        let mut answer = Vec::new();
        client.read_to_end(&mut answer).await.unwrap();
        assert_eq!(answer, b"HTTP/1.1 400 Bad Request\r\n\r\n");
    }

    /// A connection answered `101` sends it at its flush, even right after
    /// a read brought input (a pipelined answer before it goes first, in
    /// the same write), and from then on writes each frame at its flush.
    #[tokio::test]
    async fn an_upgraded_connection_passes_its_frames_through() {
        let (mut client, server) = duplex(1024);
        let state = Arc::new(ConnectionState::default());
        let mut server = BatchedWrites::new(server, Arc::clone(&state));
        client
            .write_all(b"GET /chat HTTP/1.1\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 64];
        assert_eq!(server.read(&mut buf).await.unwrap(), 22);
        server.write_all(b"200 ").await.unwrap();
        server.flush().await.unwrap();
        assert_eq!(server.held, b"200 ", "held for batching");
        state.set_upgraded();
        server.write_all(b"101 ").await.unwrap();
        server.flush().await.unwrap();
        assert!(server.held.is_empty(), "the 101 is not held");
        client.write_all(b"frame in").await.unwrap();
        assert_eq!(server.read(&mut buf).await.unwrap(), 8);
        server.write_all(b"frame out").await.unwrap();
        server.flush().await.unwrap();
        let mut answer = [0u8; 17];
        tokio::time::timeout(
            std::time::Duration::from_millis(500),
            client.read_exact(&mut answer),
        )
        .await
        .expect("sent at the flush, with no read to release it")
        .unwrap();
        assert_eq!(&answer, b"200 101 frame out");
    }

    /// hyper reads (checking for the end of input) while it answers the
    /// last request of a pipelined batch: the answers before it stay held,
    /// and the batch goes out in one write with that last answer.
    #[tokio::test]
    async fn a_read_while_the_last_request_is_answered_keeps_the_batch() {
        let (mut client, server) = duplex(1024);
        let state = Arc::new(ConnectionState::default());
        let mut server = BatchedWrites::new(server, Arc::clone(&state));
        client.write_all(b"GET /a\nGET /b\n").await.unwrap();
        let mut buf = [0u8; 64];
        assert_eq!(server.read(&mut buf).await.unwrap(), 14);
        state.request_started();
        server.write_all(b"a;").await.unwrap();
        server.flush().await.unwrap();
        state.request_finished();
        state.request_started();
        let probed = std::future::poll_fn(|cx| {
            Poll::Ready(Pin::new(&mut server).poll_read(cx, &mut ReadBuf::new(&mut buf)))
        })
        .await;
        assert!(probed.is_pending());
        assert_eq!(server.held, b"a;", "held while /b is answered");
        server.write_all(b"b;").await.unwrap();
        server.flush().await.unwrap();
        state.request_finished();
        assert!(server.held.is_empty(), "sent at the flush");
        let mut answer = [0u8; 4];
        client.read_exact(&mut answer).await.unwrap();
        assert_eq!(&answer, b"a;b;");
    }

    #[tokio::test]
    async fn http2_is_passed_through() {
        let (mut client, server) = duplex(1024);
        let mut server = BatchedWrites::new(server, Arc::default());
        client
            .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 64];
        assert_eq!(server.read(&mut buf).await.unwrap(), 24);
        server.write_all(b"frame").await.unwrap();
        server.flush().await.unwrap();
        let mut frame = [0u8; 5];
        client.read_exact(&mut frame).await.unwrap();
        assert_eq!(&frame, b"frame");
    }
}
