//! A lingering close: once hyper has sent its last answer and shut the
//! connection's write half, what the client is still sending is read and
//! dropped for a moment before the socket closes. Closing a socket with
//! unread input sends a reset, which can make the client lose the answer
//! it was sent (a `413` sent while an upload is still arriving).

use std::{
    io,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf},
    net::TcpStream,
};

use super::state::ConnectionState;

/// How long input is read and dropped after the connection is shut.
const LINGER: Duration = Duration::from_secs(2);

/// The most input read and dropped after the connection is shut: enough
/// for a client that sends a body of several megabytes before it reads the
/// `413` answered at its head (fetch does); at most [`LINGER`] either way,
/// as nginx bounds its lingering close by time.
const LINGER_BYTES: usize = 32 * 1024 * 1024;

/// A TCP stream that lingers when dropped after a shutdown of its write
/// half, on a task of its own. An HTTP/2 connection does not: its peer
/// learns of refusals from frames (`RST_STREAM`, `GOAWAY`), and what it
/// still sends after the server gave up on it (a flood) is not read.
#[derive(Debug)]
pub(crate) struct Lingering {
    stream: Option<TcpStream>,
    shut: bool,
    state: Arc<ConnectionState>,
}

impl Lingering {
    pub(crate) fn new(stream: TcpStream, state: Arc<ConnectionState>) -> Self {
        Lingering {
            stream: Some(stream),
            shut: false,
            state,
        }
    }

    fn stream(&mut self) -> io::Result<&mut TcpStream> {
        self.stream
            .as_mut()
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotConnected))
    }
}

impl AsyncRead for Lingering {
    #[inline]
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(self.get_mut().stream()?).poll_read(cx, buf)
    }
}

impl AsyncWrite for Lingering {
    #[inline]
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(self.get_mut().stream()?).poll_write(cx, buf)
    }

    #[inline]
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(self.get_mut().stream()?).poll_write_vectored(cx, bufs)
    }

    #[inline]
    fn is_write_vectored(&self) -> bool {
        true
    }

    #[inline]
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(self.get_mut().stream()?).poll_flush(cx)
    }

    #[inline]
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let done = Pin::new(this.stream()?).poll_shutdown(cx);
        if let Poll::Ready(Ok(())) = done {
            this.shut = true;
        }
        done
    }
}

impl Drop for Lingering {
    fn drop(&mut self) {
        let Some(mut stream) = self.stream.take() else {
            return;
        };
        if !self.shut || self.state.is_multiplexed() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let mut buf = vec![0u8; 16 * 1024];
            let mut read = 0;
            let drain = async {
                while read < LINGER_BYTES {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => read += n,
                    }
                }
            };
            let _ = tokio::time::timeout(LINGER, drain).await;
        });
    }
}
