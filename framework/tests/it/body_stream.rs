//! Request bodies read as a stream over a real socket: an upload copied to
//! a file while it is still arriving, the body limit crossed mid-stream,
//! and a body that stalls.

use std::{
    net::SocketAddr,
    path::PathBuf,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use bytes::Bytes;
use framework::prelude::*;
use futures_util::StreamExt;
use http_body_util::{BodyExt, StreamBody};
use hyper::body::Frame;
use hyper_util::rt::TokioIo;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::{mpsc, watch},
};

const MIB: usize = 1024 * 1024;

struct Uploads {
    dir: PathBuf,
    /// Bytes written to disk so far by the running upload.
    written: watch::Sender<usize>,
    /// Handlers that started.
    started: Arc<AtomicUsize>,
}

#[controller("uploads")]
impl Uploads {
    /// Copies the body to a file chunk by chunk; answers its length.
    #[typed_route::post("")]
    async fn copy(&self, mut body: BodyStream) -> Result<String, ApiError> {
        self.started.fetch_add(1, Ordering::SeqCst);
        let path = self.dir.join("upload.bin");
        let mut file = tokio::fs::File::create(&path)
            .await
            .map_err(ApiError::internal)?;
        let mut written = 0;
        while let Some(chunk) = body.next().await {
            let chunk = chunk?;
            file.write_all(&chunk).await.map_err(ApiError::internal)?;
            written += chunk.len();
            self.written.send_replace(written);
        }
        file.flush().await.map_err(ApiError::internal)?;
        Ok(written.to_string())
    }
}

struct Served {
    addr: SocketAddr,
    dir: tempfile::TempDir,
    written: watch::Receiver<usize>,
    started: Arc<AtomicUsize>,
}

async fn serve(limit: usize, timeout: Duration) -> Served {
    let dir = tempfile::tempdir().unwrap();
    let (written, watching) = watch::channel(0);
    let started = Arc::new(AtomicUsize::new(0));
    let app = App::builder()
        .controller(Uploads {
            dir: dir.path().to_owned(),
            written,
            started: Arc::clone(&started),
        })
        .body_limit(limit)
        .body_timeout(timeout)
        .build()
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener);
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.serve_with_shutdown(app, std::future::pending()));
    Served {
        addr,
        dir,
        written: watching,
        started,
    }
}

type Chunks = mpsc::Sender<Result<Frame<Bytes>, std::io::Error>>;

/// Starts a POST whose body is what is sent on the returned channel; the
/// answer arrives on the returned task.
async fn post_streamed(
    addr: SocketAddr,
) -> (
    Chunks,
    tokio::task::JoinHandle<(http::StatusCode, serde_json::Value)>,
) {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let (chunks, receiver) = mpsc::channel(4);
    let body = StreamBody::new(tokio_stream_of(receiver));
    let request = http::Request::post("/uploads")
        .header("host", "test")
        .header("content-type", "application/octet-stream")
        .body(body)
        .unwrap();
    let answer = tokio::spawn(async move {
        let response = sender.send_request(request).await.unwrap();
        let status = response.status();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
        (status, value)
    });
    (chunks, answer)
}

fn tokio_stream_of<T: Send + 'static>(
    receiver: mpsc::Receiver<T>,
) -> impl futures_util::Stream<Item = T> + Send {
    futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|item| (item, receiver))
    })
}

fn chunk(index: usize) -> Bytes {
    Bytes::from(vec![(index % 251) as u8; MIB])
}

#[tokio::test]
async fn an_upload_is_written_to_disk_while_it_is_still_arriving() {
    let mut served = serve(64 * MIB, Duration::from_secs(20)).await;
    let (chunks, answer) = post_streamed(served.addr).await;
    for index in 0..4 {
        chunks.send(Ok(Frame::data(chunk(index)))).await.unwrap();
    }
    // Half of the upload is sent and the rest held back: the handler must
    // have written what it got, or it would be waiting for the whole body.
    tokio::time::timeout(
        Duration::from_secs(10),
        served.written.wait_for(|written| *written >= 3 * MIB),
    )
    .await
    .expect("the handler wrote chunks before the body was complete")
    .unwrap();
    assert!(!answer.is_finished());
    for index in 4..12 {
        chunks.send(Ok(Frame::data(chunk(index)))).await.unwrap();
    }
    drop(chunks);
    let (status, value) = answer.await.unwrap();
    assert_eq!(status, 201);
    // A text answer parses as a JSON number here.
    assert_eq!(value, serde_json::json!(12 * MIB));
    let copied = tokio::fs::read(served.dir.path().join("upload.bin"))
        .await
        .unwrap();
    assert_eq!(copied.len(), 12 * MIB);
    for index in 0..12 {
        assert!(
            copied[index * MIB..(index + 1) * MIB]
                .iter()
                .all(|byte| *byte == (index % 251) as u8),
            "chunk {index} copied intact"
        );
    }
}

#[tokio::test]
async fn a_chunked_upload_crossing_the_limit_is_refused_without_reading_the_rest() {
    let served = serve(2 * MIB, Duration::from_secs(20)).await;
    let (chunks, answer) = post_streamed(served.addr).await;
    for index in 0..3 {
        chunks.send(Ok(Frame::data(chunk(index)))).await.unwrap();
    }
    // The client keeps its body open: the 413 comes as soon as the limit
    // is crossed, not at the end of the body.
    let (status, problem) = tokio::time::timeout(Duration::from_secs(10), answer)
        .await
        .expect("refused before the body ended")
        .unwrap();
    assert_eq!(status, 413);
    assert_eq!(problem["code"], "payload_too_large");
    assert_eq!(problem["status"], 413);
    drop(chunks);
}

#[tokio::test]
async fn a_declared_length_over_the_limit_is_refused_before_the_handler_runs() {
    let served = serve(MIB, Duration::from_secs(20)).await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    stream
        .write_all(
            b"POST /uploads HTTP/1.1\r\nhost: x\r\ncontent-type: application/octet-stream\r\ncontent-length: 5000000\r\n\r\n",
        )
        .await
        .unwrap();
    let head = read_head(&mut stream).await;
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    assert_eq!(served.started.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_body_that_stalls_is_refused_with_408() {
    let served = serve(MIB, Duration::from_millis(300)).await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    stream
        .write_all(
            b"POST /uploads HTTP/1.1\r\nhost: x\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n",
        )
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(5), read_until_closed(&mut stream))
        .await
        .expect("answered while the body was still open");
    assert!(started.elapsed() >= Duration::from_millis(250));
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"request_timeout\""), "{answer}");
    assert_eq!(served.started.load(Ordering::SeqCst), 1);
}

async fn read_head(stream: &mut TcpStream) -> String {
    let mut raw = Vec::new();
    let mut buf = [0u8; 1024];
    while !raw.windows(4).any(|window| window == b"\r\n\r\n") {
        let read = stream.read(&mut buf).await.unwrap();
        assert!(read > 0, "closed before the head");
        raw.extend_from_slice(&buf[..read]);
    }
    String::from_utf8_lossy(&raw).into_owned()
}

/// Reads the answer to a request whose body the server stops reading: the
/// server closes the connection after it.
async fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(read) => raw.extend_from_slice(&buf[..read]),
        }
        let text = String::from_utf8_lossy(&raw);
        if text.contains("\r\n\r\n") && text.trim_end().ends_with('}') {
            break;
        }
    }
    String::from_utf8_lossy(&raw).into_owned()
}
