//! The server over real sockets: keep-alive, pipelining, HTTP/2, limits,
//! timeouts, panics and graceful shutdown.

use std::{net::SocketAddr, time::Duration};

use framework::prelude::*;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::oneshot,
    task::JoinHandle,
};

struct Timing;

#[controller("")]
impl Timing {
    #[typed_route::get("sleep/:ms")]
    async fn sleep(&self, #[param] ms: u64) -> u64 {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        ms
    }

    #[typed_route::post("upload")]
    async fn upload(&self, body: TypedBody<Vec<u8>>) -> usize {
        body.len()
    }

    #[typed_route::get("panic")]
    async fn panics(&self) -> u64 {
        panic!("boom")
    }
}

struct Running {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

async fn start(configure: impl FnOnce(Server) -> Server) -> Running {
    let app = App::builder()
        .controller(Timing)
        .body_limit(64 * 1024)
        .body_timeout(Duration::from_millis(600))
        .build()
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server =
        configure(Server::from_listener(listener).shutdown_timeout(Duration::from_secs(5)));
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.serve_with_shutdown(app, async {
        let _ = stopped.await;
    }));
    Running {
        addr,
        stop: Some(stop),
        task,
    }
}

/// Another client gets an answer: one bad connection did not stop the server.
async fn assert_still_serving(addr: SocketAddr) {
    let mut other = TcpStream::connect(addr).await.unwrap();
    other
        .write_all(b"GET /sleep/0 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(read_responses(&mut other, 1).await[0].0, 200);
}

/// Reads until `count` complete responses (each with content-length) arrived.
async fn read_responses(stream: &mut TcpStream, count: usize) -> Vec<(u16, String)> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let parsed = parse_all(&raw);
        if parsed.len() >= count {
            return parsed;
        }
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf))
            .await
            .expect("responses within 10 s")
            .unwrap();
        assert!(
            n > 0,
            "connection closed after {:?}",
            String::from_utf8_lossy(&raw)
        );
        raw.extend_from_slice(&buf[..n]);
    }
}

fn parse_all(mut raw: &[u8]) -> Vec<(u16, String)> {
    let mut out = Vec::new();
    while let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
        let head = String::from_utf8_lossy(&raw[..end]).to_string();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        let length: usize = head
            .lines()
            .find_map(|line| {
                line.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse().unwrap())
            })
            .unwrap_or(0);
        if raw.len() < end + 4 + length {
            break;
        }
        out.push((
            status,
            String::from_utf8_lossy(&raw[end + 4..end + 4 + length]).to_string(),
        ));
        raw = &raw[end + 4 + length..];
    }
    out
}

#[tokio::test]
async fn pipelined_requests_are_answered_in_order() {
    let server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    // The first request is the slowest: answers must still come in order.
    let mut requests = String::new();
    for ms in [80, 40, 0, 20, 1] {
        requests.push_str(&format!("GET /sleep/{ms} HTTP/1.1\r\nhost: x\r\n\r\n"));
    }
    stream.write_all(requests.as_bytes()).await.unwrap();
    let responses = read_responses(&mut stream, 5).await;
    let bodies: Vec<_> = responses
        .iter()
        .map(|(status, body)| (*status, body.as_str()))
        .collect();
    assert_eq!(
        bodies,
        [
            (200, "80"),
            (200, "40"),
            (200, "0"),
            (200, "20"),
            (200, "1")
        ]
    );
}

#[tokio::test]
async fn keep_alive_serves_many_requests_on_one_connection() {
    let server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    for ms in 0..20 {
        stream
            .write_all(format!("GET /sleep/{ms} HTTP/1.1\r\nhost: x\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let responses = read_responses(&mut stream, 1).await;
        assert_eq!(responses[0], (200, ms.to_string()));
    }
}

#[tokio::test]
async fn http2_with_prior_knowledge_is_served() {
    let server = start(|s| s).await;
    let stream = TcpStream::connect(server.addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(stream),
    )
    .await
    .unwrap();
    tokio::spawn(connection);
    let mut answers = Vec::new();
    for ms in [30, 0, 10] {
        let request = http::Request::builder()
            .uri(format!("http://{}/sleep/{ms}", server.addr))
            .body(http_body_util::Empty::<bytes::Bytes>::new())
            .unwrap();
        answers.push(sender.send_request(request));
    }
    for (answer, ms) in answers.into_iter().zip([30, 0, 10]) {
        let response = answer.await.unwrap();
        assert_eq!(response.version(), http::Version::HTTP_2);
        assert_eq!(response.status(), 200);
        let body = http_body_util::BodyExt::collect(response.into_body())
            .await
            .unwrap()
            .to_bytes();
        assert_eq!(body, ms.to_string());
    }
}

#[tokio::test]
async fn a_slow_request_head_is_cut_off() {
    let server = start(|s| s.header_read_timeout(Duration::from_millis(300))).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"GET /sleep/0 HTTP/1.1\r\nhost: x\r\n")
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the connection was closed");
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(2), "closed after {waited:?}");
    // Other clients are still served.
    assert_still_serving(server.addr).await;
}

#[tokio::test]
async fn a_request_head_trickling_in_is_cut_off_at_the_timeout() {
    let server = start(|s| s.header_read_timeout(Duration::from_millis(300))).await;
    let stream = TcpStream::connect(server.addr).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    // A byte every 20 ms: each read brings something, the head never ends
    // in time (it would take about 2 s).
    let trickle = tokio::spawn(async move {
        let head = format!(
            "GET /sleep/0 HTTP/1.1\r\nhost: x\r\nx-pad: {}\r\n\r\n",
            "a".repeat(64)
        );
        for byte in head.bytes() {
            if write.write_all(&[byte]).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    let started = std::time::Instant::now();
    let mut answer = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), read.read_to_end(&mut answer)).await;
    let waited = started.elapsed();
    assert!(closed.is_ok(), "the connection was not closed");
    assert!(answer.is_empty(), "{:?}", String::from_utf8_lossy(&answer));
    assert!(
        waited >= Duration::from_millis(290) && waited < Duration::from_secs(1),
        "closed after {waited:?}"
    );
    trickle.abort();
}

#[tokio::test]
async fn a_slow_handler_is_not_cut_off_and_the_idle_wait_after_it_is() {
    let server = start(|s| s.header_read_timeout(Duration::from_millis(300))).await;
    slow_answer_then_idle_close(server.addr).await;
}

#[tokio::test]
async fn a_layered_app_gets_the_same_header_read_timeout() {
    let app = App::builder().controller(Timing).build().unwrap();
    let layered = tower::ServiceBuilder::new()
        .layer(tower_http::cors::CorsLayer::permissive())
        .service(app.clone());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener)
        .header_read_timeout(Duration::from_millis(300))
        .for_app(&app);
    let addr = server.local_addr().unwrap();
    let task = tokio::spawn(server.serve_with_shutdown(layered, std::future::pending()));
    slow_answer_then_idle_close(addr).await;
    task.abort();
}

/// A handler running longer than the header-read timeout answers; the
/// connection is then closed once it has waited the timeout for the next
/// head.
async fn slow_answer_then_idle_close(addr: SocketAddr) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /sleep/900 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(
        read_responses(&mut stream, 1).await[0],
        (200, "900".to_owned())
    );
    let answered = std::time::Instant::now();
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest)).await;
    let waited = answered.elapsed();
    assert!(closed.is_ok(), "the idle connection was not closed");
    assert!(
        waited >= Duration::from_millis(250) && waited < Duration::from_secs(1),
        "closed {waited:?} after the answer"
    );
}

#[tokio::test]
async fn an_answer_is_not_held_behind_a_slow_pipelined_request() {
    let server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(
            b"GET /sleep/0 HTTP/1.1\r\nhost: x\r\n\r\nGET /sleep/1500 HTTP/1.1\r\nhost: x\r\n\r\n",
        )
        .await
        .unwrap();
    let started = std::time::Instant::now();
    assert_eq!(
        read_responses(&mut stream, 1).await[0],
        (200, "0".to_owned())
    );
    let waited = started.elapsed();
    assert!(waited < Duration::from_millis(700), "held for {waited:?}");
}

#[tokio::test]
async fn an_oversized_body_is_refused_before_it_is_sent() {
    let server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(
            b"POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 10000000\r\nexpect: 100-continue\r\n\r\n",
        )
        .await
        .unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut raw))
        .await
        .expect("answered and closed without the body")
        .unwrap();
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(!text.contains("100 Continue"), "{text}");
    assert!(text.contains("payload_too_large"), "{text}");
}

#[tokio::test]
async fn a_chunked_body_crossing_the_limit_is_413() {
    let server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n")
        .await
        .unwrap();
    let chunk = format!("{:x}\r\n{}\r\n", 32 * 1024, "1".repeat(32 * 1024));
    for _ in 0..3 {
        if stream.write_all(chunk.as_bytes()).await.is_err() {
            break;
        }
    }
    let responses = read_responses(&mut stream, 1).await;
    assert_eq!(responses[0].0, 413);
}

/// A client that sends its whole body before reading (as fetch does) gets
/// the `413` the server answered at the head: the server reads and drops
/// what still arrives before it closes (a lingering close), instead of
/// resetting the connection, which would discard the answer.
#[tokio::test]
async fn a_body_refused_at_its_head_is_answered_while_the_client_still_sends() {
    const SENT: usize = 12 * 1024 * 1024;
    let server = start(|s| s).await;
    let stream = TcpStream::connect(server.addr).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    let sender = tokio::spawn(async move {
        let head = format!(
            "POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {SENT}\r\n\r\n"
        );
        write.write_all(head.as_bytes()).await?;
        let chunk = vec![b'1'; 64 * 1024];
        for _ in 0..SENT / chunk.len() {
            write.write_all(&chunk).await?;
        }
        Ok::<_, std::io::Error>(write)
    });
    let sent = tokio::time::timeout(Duration::from_secs(10), sender)
        .await
        .expect("the body was read, not left unread")
        .unwrap();
    assert!(sent.is_ok(), "{sent:?}");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), read.read_to_end(&mut raw))
        .await
        .unwrap()
        .expect("the answer, not a reset");
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(text.contains("payload_too_large"), "{text}");
}

#[tokio::test]
async fn a_panic_answers_500_and_the_server_keeps_serving() {
    let server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(
            b"GET /panic HTTP/1.1\r\nhost: x\r\n\r\nGET /sleep/1 HTTP/1.1\r\nhost: x\r\n\r\n",
        )
        .await
        .unwrap();
    let responses = read_responses(&mut stream, 2).await;
    assert_eq!(responses[0].0, 500);
    assert_eq!(responses[1], (200, "1".to_owned()));
}

#[tokio::test]
async fn shutdown_lets_in_flight_requests_finish_and_refuses_new_connections() {
    let mut server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"GET /sleep/500 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    server.stop.take().unwrap().send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        TcpStream::connect(server.addr).await.is_err(),
        "the listener is closed"
    );
    let responses = read_responses(&mut stream, 1).await;
    assert_eq!(responses[0], (200, "500".to_owned()));
    let finished = tokio::time::timeout(Duration::from_secs(5), server.task).await;
    assert!(
        matches!(finished, Ok(Ok(Ok(())))),
        "the server returned after draining"
    );
}

#[tokio::test]
async fn the_connection_limit_queues_extra_clients() {
    let server = start(|s| s.max_connections(1)).await;
    let mut first = TcpStream::connect(server.addr).await.unwrap();
    first
        .write_all(b"GET /sleep/300 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut second = TcpStream::connect(server.addr).await.unwrap();
    second
        .write_all(b"GET /sleep/0 HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let answer = read_responses(&mut second, 1).await;
    assert_eq!(answer[0].0, 200);
    assert!(
        started.elapsed() >= Duration::from_millis(150),
        "served only after the first closed"
    );
    assert_eq!(
        read_responses(&mut first, 1).await[0],
        (200, "300".to_owned())
    );
}

/// Sends raw bytes and reads until the server closes the connection.
async fn exchange(addr: SocketAddr, raw: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // The server may close before reading everything; that is its right.
    let _ = stream.write_all(raw).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(
        read.is_ok(),
        "the connection was not closed: {:?}",
        String::from_utf8_lossy(&answer)
    );
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn malformed_requests_get_an_answer_before_the_connection_closes() {
    let server = start(|s| s).await;
    framework::testing::check_malformed_requests(server.addr, "/upload", "/sleep/0")
        .await
        .unwrap_or_else(|failures| panic!("{failures}"));
    // Other clients are still served.
    let answer = exchange(
        server.addr,
        b"GET /sleep/2 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(
        answer.starts_with("HTTP/1.1 200") && answer.ends_with("2"),
        "{answer}"
    );
}

/// Two pipelined requests and a malformed one, in one write.
const PIPELINED_THEN_MALFORMED: &[u8] = b"GET /sleep/0 HTTP/1.1\r\nhost: x\r\n\r\n\
GET /sleep/0 HTTP/1.1\r\nhost: x\r\n\r\n\
GET /sl eep/0 HTTP/1.1\r\nhost: x\r\n\r\n";

#[tokio::test]
async fn pipelined_answers_before_a_malformed_request_are_all_sent_with_its_400() {
    let server = start(|s| s).await;
    let answer = exchange(server.addr, PIPELINED_THEN_MALFORMED).await;
    assert_eq!(answer.matches("HTTP/1.1 200").count(), 2, "{answer}");
    assert!(answer.contains("HTTP/1.1 400"), "{answer}");
}

/// Why the server batches pipelined answers itself (`BatchedWrites`, which
/// costs hyper a write and a flush per answer: bench/README.md) instead of
/// serving with hyper's `pipeline_flush`: with it, the hyper of
/// `Cargo.lock` writes nothing while its read buffer holds bytes, and a
/// malformed request's bytes stay there until the connection closes, so the
/// `400` and every answer buffered before it are lost. This test fails once
/// a hyper sends them: then `pipeline_flush(true)` serves pipelined
/// requests correctly, and cheaper (`server/protocol.rs`).
#[tokio::test]
async fn hypers_pipeline_flush_still_loses_the_answers_before_a_malformed_request() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        let service = hyper::service::service_fn(|_| async {
            Ok::<_, std::convert::Infallible>(hyper::Response::new(String::from("hello")))
        });
        let _ = hyper::server::conn::http1::Builder::new()
            .pipeline_flush(true)
            .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
            .await;
    });
    let answer = exchange(addr, PIPELINED_THEN_MALFORMED).await;
    assert!(
        !answer.contains("HTTP/1.1 400"),
        "hyper's `pipeline_flush` now sends a malformed request's answer \
         ({answer:?}): if it sends every answer before it too, serve with it \
         instead of flushing every answer (see this test's comment)"
    );
}

#[tokio::test]
async fn a_request_smuggled_after_content_length_and_chunked_never_reaches_a_handler() {
    let server = start(|s| s).await;
    let raw = "POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 4\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\nGET /sleep/7 HTTP/1.1\r\nhost: x\r\n\r\n";
    let answer = exchange(server.addr, raw.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert_eq!(
        answer.matches("HTTP/1.1").count(),
        1,
        "only one answer: {answer}"
    );
    assert!(
        !answer.contains("\r\n\r\n7"),
        "the smuggled request was served: {answer}"
    );
}

#[tokio::test]
async fn a_body_that_trickles_in_is_timed_out_with_408() {
    let server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n[")
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let trickle = async {
        for _ in 0..30 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if stream.write_all(b"1,").await.is_err() {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_millis(900), trickle).await;
    let answer = read_responses(&mut stream, 1).await;
    assert_eq!(answer[0].0, 408, "{answer:?}");
    assert!(answer[0].1.contains("request_timeout"), "{answer:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// Resident memory of this process (server and clients), in KiB.
fn resident_kib() -> u64 {
    crate::alone::status_kib("VmRSS")
}

#[tokio::test]
async fn http2_rapid_reset_stays_bounded_and_others_are_served() {
    let server = start(|s| s).await;
    let before = resident_kib();
    let stream = TcpStream::connect(server.addr).await.unwrap();
    let (mut client, connection) = h2::client::handshake(stream).await.unwrap();
    let connection = tokio::spawn(connection);
    let started = std::time::Instant::now();
    let mut opened = 0;
    for _ in 0..10_000 {
        let request = http::Request::get(format!("http://{}/sleep/100", server.addr))
            .body(())
            .unwrap();
        let ready = tokio::time::timeout(Duration::from_secs(5), client.clone().ready()).await;
        let Ok(Ok(mut ready)) = ready else { break };
        match ready.send_request(request, true) {
            Ok((response, _)) => {
                drop(response);
                opened += 1;
            }
            Err(_) => break,
        }
        client = ready;
    }
    // Each dropped response future resets its stream. hyper's h2 accepts
    // streams as fast as they come, so its reset budget is never exhausted
    // (no GOAWAY here): what must hold is that the work stays bounded.
    drop(client);
    let ended = tokio::time::timeout(Duration::from_secs(10), connection).await;
    assert!(
        ended.is_ok(),
        "the connection ended ({opened} streams opened)"
    );
    assert!(started.elapsed() < Duration::from_secs(15));
    let grown = resident_kib().saturating_sub(before);
    assert!(grown < 256 * 1024, "memory grew by {grown} KiB");
    // Another client is served normally.
    assert_still_serving(server.addr).await;
}

#[tokio::test]
async fn http2_reset_flood_in_one_burst_gets_a_goaway() {
    let server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let frame = |kind: u8, flags: u8, stream_id: u32, payload: &[u8]| {
        let len = payload.len() as u32;
        let mut bytes = vec![(len >> 16) as u8, (len >> 8) as u8, len as u8, kind, flags];
        bytes.extend_from_slice(&stream_id.to_be_bytes());
        bytes.extend_from_slice(payload);
        bytes
    };
    let mut burst = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    burst.extend(frame(0x4, 0, 0, &[])); // SETTINGS
    // 10,000 requests, each reset at once (CVE-2023-44487's pattern):
    // HEADERS `GET /sleep/100` (END_STREAM | END_HEADERS), then RST_STREAM CANCEL.
    let mut headers = vec![0x82, 0x86]; // :method GET, :scheme http
    headers.extend([0x44, 10]); // :path, literal, 10 bytes
    headers.extend_from_slice(b"/sleep/100");
    for n in 0..10_000u32 {
        let id = 2 * n + 1;
        burst.extend(frame(0x1, 0x5, id, &headers));
        burst.extend(frame(0x3, 0, id, &8u32.to_be_bytes()));
    }
    let started = std::time::Instant::now();
    // The server may close the connection before it has read everything.
    let _ = stream.write_all(&burst).await;
    let mut received = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut received)).await;
    // The frames the server sent; a GOAWAY carries the last stream id and
    // an error code.
    let mut goaway = None;
    let mut frames = 0;
    let mut at = 0;
    while at + 9 <= received.len() {
        let len = (usize::from(received[at]) << 16)
            | (usize::from(received[at + 1]) << 8)
            | usize::from(received[at + 2]);
        frames += 1;
        if received[at + 3] == 0x7 && at + 17 <= received.len() {
            let code = &received[at + 13..at + 17];
            goaway = Some(u32::from_be_bytes([code[0], code[1], code[2], code[3]]));
        }
        at += 9 + len;
    }
    assert_eq!(
        goaway,
        Some(0xb),
        "a GOAWAY with ENHANCE_YOUR_CALM among {frames} frames"
    );
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_still_serving(server.addr).await;
}

#[tokio::test]
async fn http2_continuation_flood_is_refused() {
    let server = start(|s| s).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let frame = |kind: u8, flags: u8, stream_id: u32, payload: &[u8]| {
        let len = payload.len() as u32;
        let mut bytes = vec![(len >> 16) as u8, (len >> 8) as u8, len as u8, kind, flags];
        bytes.extend_from_slice(&stream_id.to_be_bytes());
        bytes.extend_from_slice(payload);
        bytes
    };
    let mut opening = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    opening.extend(frame(0x4, 0, 0, &[])); // SETTINGS
    // HEADERS without END_HEADERS: `:method: GET` (static index 2).
    opening.extend(frame(0x1, 0x1, 1, &[0x82]));
    stream.write_all(&opening).await.unwrap();
    // CONTINUATION frames that never end the header block: literal headers
    // with new names, 16 KiB at a time.
    let mut block = Vec::new();
    for n in 0..500 {
        let name = format!("x-flood-{n:05}");
        block.push(0x40);
        block.push(name.len() as u8);
        block.extend_from_slice(name.as_bytes());
        block.push(20);
        block.extend_from_slice(&[b'v'; 20]);
    }
    let continuation = frame(0x9, 0, 1, &block[..16 * 1024]);
    let started = std::time::Instant::now();
    let mut sent = 0usize;
    let flood = async {
        while sent < 64 * 1024 * 1024 {
            if stream.write_all(&continuation).await.is_err() {
                return true;
            }
            sent += continuation.len();
        }
        false
    };
    let cut = tokio::time::timeout(Duration::from_secs(20), flood).await;
    assert!(
        matches!(cut, Ok(true)),
        "the server kept reading a header block that never ends ({sent} bytes)"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(
        sent < 16 * 1024 * 1024,
        "cut off early, not after {sent} bytes"
    );
}

#[tokio::test]
async fn head_answers_like_get_without_the_body_and_options_lists_methods() {
    let running = start(|server| server).await;
    let get = exchange(
        running.addr,
        b"GET /sleep/1 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(get.contains("content-length: 1\r\n"), "{get}");
    assert!(get.ends_with("\r\n\r\n1"), "{get}");
    // A pipelined request after HEAD is answered on its own: HEAD sent no
    // body bytes the client would mistake for the next answer.
    let head = exchange(
        running.addr,
        b"HEAD /sleep/1 HTTP/1.1\r\nhost: x\r\n\r\nOPTIONS /sleep/1 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    )
    .await;
    let (head_answer, options_answer) = head.split_once("HTTP/1.1 204").expect("two answers");
    assert!(head_answer.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    assert!(head_answer.contains("content-length: 1\r\n"), "{head}");
    assert!(
        head_answer.contains("content-type: application/json\r\n"),
        "{head}"
    );
    assert!(
        head_answer.ends_with("\r\n\r\n"),
        "HEAD sent a body: {head}"
    );
    assert!(
        options_answer.contains("allow: GET, HEAD, OPTIONS\r\n"),
        "{head}"
    );
}
