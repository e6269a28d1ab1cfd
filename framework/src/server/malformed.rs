//! Malformed HTTP/1.1 requests and the answer each must get: the checks
//! behind the promise (`docs/security.md`) that a malformed request gets
//! its `400`, `414` or `431` before the connection closes, shared by the
//! framework's tests and an app built outside this workspace with
//! crates.io's hyper.

use std::{net::SocketAddr, time::Duration};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

/// Sends each malformed request on its own connection to the server at
/// `addr` and checks that it is answered with its status before the
/// server closes the connection. `post_path` must be a route taking a JSON
/// body, `get_path` any `GET` route.
///
/// # Errors
/// Every request that got another answer, or none.
pub async fn check_malformed_requests(
    addr: SocketAddr,
    post_path: &str,
    get_path: &str,
) -> Result<(), String> {
    let mut failures = Vec::new();
    for (what, raw, statuses) in cases(post_path, get_path) {
        let answer = exchange(addr, &raw).await;
        let expected = |status: &&str| answer.starts_with(&format!("HTTP/1.1 {status} "));
        if !statuses.iter().any(expected) {
            let shown: String = answer.chars().take(200).collect();
            let statuses = statuses.join(" or ");
            failures.push(format!("{what}: expected {statuses}, answered {shown:?}"));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// Sends raw bytes and reads until the server closes the connection (at
/// most 5 s).
async fn exchange(addr: SocketAddr, raw: &[u8]) -> String {
    let Ok(mut stream) = TcpStream::connect(addr).await else {
        return "no connection".to_owned();
    };
    // The server may close before reading everything; that is its right.
    let _ = stream.write_all(raw).await;
    let mut answer = Vec::new();
    match tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await {
        Ok(_) => String::from_utf8_lossy(&answer).into_owned(),
        Err(_) => format!("(not closed) {}", String::from_utf8_lossy(&answer)),
    }
}

/// Each malformed request, and the statuses that may answer it.
fn cases(post: &str, get: &str) -> Vec<(&'static str, Vec<u8>, &'static [&'static str])> {
    let head = format!("POST {post} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n");
    let post = |rest: &str| format!("{head}{rest}").into_bytes();
    let headers: String = (0..101).map(|n| format!("x-h{n}: v\r\n")).collect();
    vec![
        (
            "duplicate Content-Length",
            post("content-length: 2\r\ncontent-length: 3\r\n\r\n[1]"),
            &["400"],
        ),
        (
            "Content-Length +5",
            post("content-length: +5\r\n\r\n[1,2]"),
            &["400"],
        ),
        (
            "Content-Length 0x10",
            post("content-length: 0x10\r\n\r\n"),
            &["400"],
        ),
        (
            "empty Content-Length",
            post("content-length: \r\n\r\n"),
            &["400"],
        ),
        (
            "space before the colon",
            post("content-length : 3\r\n\r\n[1]"),
            &["400"],
        ),
        (
            "Transfer-Encoding not ending in chunked",
            post("transfer-encoding: gzip\r\n\r\n"),
            &["400"],
        ),
        (
            "Transfer-Encoding on HTTP/1.0",
            head.replace("HTTP/1.1", "HTTP/1.0")
                .into_bytes()
                .into_iter()
                .chain(*b"transfer-encoding: chunked\r\n\r\n0\r\n\r\n")
                .collect(),
            &["400"],
        ),
        (
            "a bad chunk size",
            post("transfer-encoding: chunked\r\n\r\nzz\r\n[1]\r\n0\r\n\r\n"),
            &["400"],
        ),
        (
            "bare LF in chunk lines",
            post("transfer-encoding: chunked\r\n\r\n3\n[1]\n0\n\n"),
            &["400"],
        ),
        (
            "101 headers",
            format!("GET {get} HTTP/1.1\r\nhost: x\r\n{headers}\r\n").into_bytes(),
            &["431"],
        ),
        (
            "an oversized header",
            format!(
                "GET {get} HTTP/1.1\r\nhost: x\r\nx-big: {}\r\n\r\n",
                "a".repeat(500_000)
            )
            .into_bytes(),
            &["431"],
        ),
        (
            "an oversized request line",
            format!("GET /{} HTTP/1.1\r\nhost: x\r\n\r\n", "a".repeat(500_000)).into_bytes(),
            // 431 when hyper's buffer fills before the line ends; 414 when
            // one read brought the whole line (a client whose bytes were
            // all queued, a server slow to read): refused either way.
            &["431", "414"],
        ),
        (
            "a request smuggled after Content-Length and chunked",
            post(
                "content-length: 4\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\nGET / HTTP/1.1\r\nhost: x\r\n\r\n",
            ),
            &["400"],
        ),
    ]
}
