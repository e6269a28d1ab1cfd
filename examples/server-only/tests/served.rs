//! The server alone (`default-features = false, features = ["server"]`),
//! from an app outside the framework's workspace: HTTP/1.1 is served with
//! its promises (validation, malformed requests, pipelining, graceful
//! shutdown), HTTP/2 is not served, and the manifest is there without the
//! OpenAPI document.

use std::{net::SocketAddr, time::Duration};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::oneshot,
};

/// A served app, and the sender that stops its server.
async fn serve() -> (SocketAddr, oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = framework::Server::from_listener(listener);
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = tokio::spawn(async move {
        server
            .serve_with_shutdown(server_only_app::app(), async move {
                let _ = stopped.await;
            })
            .await
            .unwrap();
    });
    (addr, stop, serving)
}

/// Sends `request` on a new connection and reads until the server closes.
async fn exchange(addr: SocketAddr, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
        .await
        .expect("the server closes the connection")
        .unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn the_lockfile_has_no_http2_openapi_or_extras() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    for name in [
        "h2",
        "utoipa",
        "utoipa-swagger-ui",
        "clap",
        "askama",
        "prometheus-client",
        "sha2",
    ] {
        assert!(
            !lock.contains(&format!("name = \"{name}\"\n")),
            "{name} is in the lockfile"
        );
    }
    assert!(lock.contains("name = \"hyper\"\n"));
}

#[tokio::test]
async fn routes_answer_and_refuse_over_http1() {
    let (addr, _stop, _) = serve().await;
    let hello = exchange(
        addr,
        b"GET /notes/hello HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(hello.starts_with("HTTP/1.1 200 OK\r\n"), "{hello}");
    assert!(hello.ends_with("hello"), "{hello}");

    let body = r#"{"text":""}"#;
    let refused = exchange(
        addr,
        format!(
            "POST /notes HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
    .await;
    assert!(refused.starts_with("HTTP/1.1 400 "), "{refused}");
    assert!(refused.contains("$input.text"), "{refused}");
}

#[tokio::test]
async fn malformed_requests_get_their_answer() {
    let (addr, _stop, _) = serve().await;
    framework::testing::check_malformed_requests(addr, "/notes", "/notes/hello")
        .await
        .unwrap_or_else(|failures| panic!("{failures}"));
}

#[tokio::test]
async fn pipelined_requests_are_answered_in_order() {
    let (addr, _stop, _) = serve().await;
    let mut batch = String::new();
    for n in 0..10 {
        let body = format!("{{\"text\":\"note {n}\"}}");
        batch.push_str(&format!(
            "POST /notes HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        ));
    }
    batch.push_str("GET /notes/hello HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    let answer = exchange(addr, batch.as_bytes()).await;
    let mut at = 0;
    for n in 0..10 {
        let note = format!("{{\"text\":\"note {n}\"}}");
        at += answer[at..]
            .find(&note)
            .unwrap_or_else(|| panic!("note {n} in order: {answer}"));
    }
    assert!(answer.ends_with("hello"), "{answer}");
}

/// Without the `http2` feature a client that opens with HTTP/2's preface
/// gets no HTTP/2 connection: hyper's HTTP/1.1 connection closes it
/// without a byte (an HTTP/2 server sends its SETTINGS frame first), while
/// the same server still answers HTTP/1.1.
#[tokio::test]
async fn http2_is_not_served() {
    let (addr, _stop, _) = serve().await;
    let answer = exchange(addr, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").await;
    assert_eq!(answer, "");
    let hello = exchange(
        addr,
        b"GET /notes/hello HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(hello.starts_with("HTTP/1.1 200 OK\r\n"), "{hello}");
}

/// A shutdown lets the request in flight finish, closes the idle
/// connection, and then the server returns.
#[tokio::test]
async fn a_graceful_shutdown_finishes_the_request_in_flight() {
    let (addr, stop, serving) = serve().await;
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /notes/hello HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut first = [0u8; 512];
    let read = idle.read(&mut first).await.unwrap();
    assert!(first[..read].starts_with(b"HTTP/1.1 200 OK\r\n"));

    let in_flight = tokio::spawn(exchange(
        addr,
        b"GET /notes/slow/400 HTTP/1.1\r\nhost: x\r\n\r\n",
    ));
    tokio::time::sleep(Duration::from_millis(100)).await;
    stop.send(()).unwrap();

    let answer = in_flight.await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(answer.ends_with("slept 400 ms"), "{answer}");
    // The idle connection is closed, not left open.
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), idle.read_to_end(&mut rest))
        .await
        .expect("the idle connection is closed")
        .unwrap();
    tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("the server returns once its connections have ended")
        .unwrap();
}

/// The manifest (what the SDKs are generated from) needs no feature; the
/// OpenAPI document is not served.
#[tokio::test]
async fn the_manifest_is_there_without_the_openapi_document() {
    let app = server_only_app::app();
    let operations: Vec<&str> = app
        .manifest()
        .routes
        .iter()
        .map(|route| route.operation_id.as_str())
        .collect();
    assert!(operations.contains(&"notes.create"), "{operations:?}");
    let (addr, _stop, _) = serve().await;
    for path in ["/openapi.json", "/docs", "/metrics"] {
        let answer = exchange(
            addr,
            format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").as_bytes(),
        )
        .await;
        assert!(answer.starts_with("HTTP/1.1 404 "), "{path}: {answer}");
    }
}
