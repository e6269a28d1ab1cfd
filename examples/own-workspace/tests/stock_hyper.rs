//! The framework's promises (`framework/src/docs/security.md`) hold for an
//! app outside the framework's workspace, built with crates.io's hyper:
//! malformed requests get their 400/431, pipelined requests are answered in
//! order, a WebSocket route (the `ws` feature) echoes valid notes and
//! closes with 1007 on an invalid one, the MCP endpoint (the `mcp`
//! feature) calls a route as a tool, refusals listed at their paths, and
//! a route serves each API version its own answer.

use std::time::Duration;

use framework::Server;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};

async fn serve() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener);
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.serve_with_shutdown(own_workspace_app::app(), std::future::pending()));
    addr
}

#[test]
fn hyper_comes_from_crates_io() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    let hyper = lock
        .split("[[package]]")
        .find(|package| package.contains("name = \"hyper\"\n"))
        .expect("hyper is a dependency");
    assert!(
        hyper.contains("source = \"registry+https://github.com/rust-lang/crates.io-index\""),
        "hyper is not the crates.io package: {hyper}"
    );
}

#[tokio::test]
async fn malformed_requests_get_their_answer() {
    let addr = serve().await;
    framework::testing::check_malformed_requests(addr, "/notes", "/notes/hello")
        .await
        .unwrap_or_else(|failures| panic!("{failures}"));
}

#[tokio::test]
async fn pipelined_requests_are_answered_in_order_in_one_batch() {
    let addr = serve().await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut batch = String::new();
    for n in 0..10 {
        let body = format!("{{\"text\":\"note {n}\"}}");
        batch.push_str(&format!(
            "POST /notes HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        ));
    }
    batch.push_str("GET /notes/hello HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    stream.write_all(batch.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer))
        .await
        .expect("answered and closed")
        .unwrap();
    let positions: Vec<usize> = (0..10)
        .map(|n| {
            answer
                .find(&format!("note {n}"))
                .expect("every note answered")
        })
        .collect();
    assert!(
        positions.windows(2).all(|pair| pair[0] < pair[1]),
        "{answer}"
    );
    assert_eq!(answer.matches("HTTP/1.1 201").count(), 10, "{answer}");
    assert!(answer.ends_with("hello"), "{answer}");
}

#[tokio::test]
async fn a_websocket_route_echoes_notes_and_refuses_invalid_ones() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let addr = serve().await;
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/notes/live"))
        .await
        .unwrap();
    socket
        .send(Message::text(r#"{"text":"hello"}"#))
        .await
        .unwrap();
    let echoed = tokio::time::timeout(Duration::from_secs(5), socket.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(echoed, Message::text(r#"{"text":"hello"}"#));
    socket.send(Message::text(r#"{"text":""}"#)).await.unwrap();
    let closed = tokio::time::timeout(Duration::from_secs(5), socket.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let Message::Close(Some(frame)) = closed else {
        panic!("expected a close, got {closed:?}");
    };
    assert_eq!(u16::from(frame.code), 1007);
    assert!(
        frame.reason.starts_with("message: $input.text"),
        "{}",
        frame.reason
    );
}

/// The `multipart` feature works from a user's workspace: a form with a
/// file over a real socket, and a file over its limit refused with 413.
#[tokio::test]
async fn a_multipart_form_is_read_with_its_file() {
    use framework::testing::MultipartBody;

    let addr = serve().await;
    let form = MultipartBody::new().text("text", "a note").file(
        "file",
        "note.txt",
        "text/plain",
        b"its file",
    );
    let answer = post_form(addr, &form).await;
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    assert!(answer.ends_with("a note: its file"), "{answer}");
    let big = MultipartBody::new().text("text", "a note").file(
        "file",
        "big.txt",
        "text/plain",
        &vec![b'x'; 2 * 1024 * 1024],
    );
    let answer = post_form(addr, &big).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("file_too_large"), "{answer}");
}

async fn post_form(addr: std::net::SocketAddr, form: &framework::testing::MultipartBody) -> String {
    let body = form.to_bytes();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /notes/attached HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: {}\r\ncontent-length: {}\r\n\r\n",
        form.content_type(),
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // The server may answer (and close) before the whole body is sent.
    let _ = stream.write_all(&body).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn a_route_is_called_as_an_mcp_tool_and_refused_at_its_argument_paths() {
    let addr = serve().await;
    let app = own_workspace_app::app();
    let tools: Vec<&str> = app.mcp_tools().collect();
    assert_eq!(tools, ["notes.hello", "notes.create", "notes.latest"]);
    let left: Vec<&str> = app
        .mcp_left_out()
        .iter()
        .map(|left| left.operation_id.as_str())
        .collect();
    assert_eq!(left, ["notes.live", "notes.attached.attach"]);

    let call = |text: &str| {
        serde_json::json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "notes.create", "arguments": {"body": {"text": text}}},
        })
        .to_string()
    };
    let created = mcp(addr, &call("kept")).await;
    assert_eq!(
        created["result"]["structuredContent"]["text"], "kept",
        "{created}"
    );
    let refused = mcp(addr, &call("")).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let detail: serde_json::Value =
        serde_json::from_str(refused["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        detail["errors"][0]["path"], "$arguments.body.text",
        "{detail}"
    );
}

/// Posts a JSON-RPC message to `/mcp` and reads the answer's JSON.
async fn mcp(addr: std::net::SocketAddr, message: &str) -> serde_json::Value {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        message.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(message.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .unwrap()
        .unwrap();
    let answer = String::from_utf8(answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap()
}

/// The body of `GET path` with `headers`, over a socket, the connection
/// closed after it.
async fn get(addr: std::net::SocketAddr, path: &str, headers: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{headers}\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer))
        .await
        .unwrap()
        .unwrap();
    answer
}

#[tokio::test]
async fn each_api_version_gets_its_own_answer() {
    let addr = serve().await;
    let old = get(addr, "/notes/latest", "").await;
    assert!(old.ends_with("\r\n\r\n{\"text\":\"hello\"}"), "{old}");
    let new = get(addr, "/notes/latest", "api-version: 2.0.0\r\n").await;
    assert!(new.ends_with("{\"text\":\"hello\",\"length\":5}"), "{new}");
    let unknown = get(addr, "/notes/latest", "api-version: 9.0.0\r\n").await;
    assert!(unknown.starts_with("HTTP/1.1 400"), "{unknown}");
    assert!(unknown.contains("unsupported_api_version"), "{unknown}");
}
