//! Files streamed from disk over a real socket: whole, a range, not
//! modified, a range beyond the end, `HEAD`, and how the route is
//! documented.

use std::{net::SocketAddr, path::PathBuf};

use bytes::Bytes;
use framework::prelude::*;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};

struct Files {
    dir: PathBuf,
}

#[controller("files")]
impl Files {
    /// A stored file.
    #[typed_route::get(":name")]
    async fn at(
        &self,
        #[param] name: String,
        request: FileRequest,
    ) -> Result<StreamedFile, ApiError> {
        if name.contains(['/', '\\']) || name.starts_with('.') {
            return Err(ApiError::not_found("no such file"));
        }
        Ok(StreamedFile::open(self.dir.join(&name), &request)
            .await?
            .media_type("application/x-test")
            .attachment(name))
    }
}

/// 300 KiB: several reads of the file, more than one socket write.
fn content() -> Vec<u8> {
    (0..300 * 1024).map(|index| (index % 253) as u8).collect()
}

struct Served {
    addr: SocketAddr,
    _dir: tempfile::TempDir,
    app: App,
    last_modified: String,
}

async fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.bin");
    std::fs::write(&path, content()).unwrap();
    std::fs::write(dir.path().join("empty.bin"), b"").unwrap();
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let app = App::builder()
        .controller(Files {
            dir: dir.path().to_owned(),
        })
        .build()
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener);
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.serve_with_shutdown(app.clone(), std::future::pending()));
    Served {
        addr,
        _dir: dir,
        app,
        last_modified: httpdate::fmt_http_date(modified),
    }
}

struct Answer {
    status: u16,
    headers: http::HeaderMap,
    body: Bytes,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .unwrap_or_else(|| panic!("no {name} header in {:?}", self.headers))
            .to_str()
            .unwrap()
    }
}

async fn get(addr: SocketAddr, method: &str, path: &str, headers: &[(&str, &str)]) -> Answer {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut request = http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "test");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = sender
        .send_request(request.body(Empty::<Bytes>::new()).unwrap())
        .await
        .unwrap();
    let (parts, body) = response.into_parts();
    Answer {
        status: parts.status.as_u16(),
        headers: parts.headers,
        body: body.collect().await.unwrap().to_bytes(),
    }
}

#[tokio::test]
async fn a_whole_file_has_its_length_validators_and_accepts_ranges() {
    let served = serve().await;
    let answer = get(served.addr, "GET", "/files/data.bin", &[]).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("content-length"), (300 * 1024).to_string());
    assert_eq!(answer.header("content-type"), "application/x-test");
    assert_eq!(answer.header("accept-ranges"), "bytes");
    assert_eq!(answer.header("x-content-type-options"), "nosniff");
    assert_eq!(answer.header("last-modified"), served.last_modified);
    assert_eq!(
        answer.header("content-disposition"),
        "attachment; filename=\"data.bin\""
    );
    let etag = answer.header("etag");
    assert!(
        etag.starts_with('"') && etag.ends_with('"') && etag.len() > 2,
        "{etag}"
    );
    assert!(answer.headers.get("transfer-encoding").is_none());
    assert_eq!(answer.body, content());

    let empty = get(served.addr, "GET", "/files/empty.bin", &[]).await;
    assert_eq!(empty.status, 200);
    assert_eq!(empty.header("content-length"), "0");
    assert!(empty.body.is_empty());

    let missing = get(served.addr, "GET", "/files/nothing.bin", &[]).await;
    assert_eq!(missing.status, 404);
}

#[tokio::test]
async fn a_range_is_206_with_its_content_range() {
    let served = serve().await;
    let length = 300 * 1024;
    let answer = get(
        served.addr,
        "GET",
        "/files/data.bin",
        &[("range", "bytes=1000-70999")],
    )
    .await;
    assert_eq!(answer.status, 206);
    assert_eq!(
        answer.header("content-range"),
        format!("bytes 1000-70999/{length}")
    );
    assert_eq!(answer.header("content-length"), "70000");
    assert_eq!(answer.header("accept-ranges"), "bytes");
    assert_eq!(answer.body, content()[1000..71000]);

    let suffix = get(
        served.addr,
        "GET",
        "/files/data.bin",
        &[("range", "bytes=-10")],
    )
    .await;
    assert_eq!(suffix.status, 206);
    assert_eq!(
        suffix.header("content-range"),
        format!("bytes {}-{}/{length}", length - 10, length - 1)
    );
    assert_eq!(suffix.body, content()[length - 10..]);

    // If-Range names another version: the whole file, 200.
    let stale = get(
        served.addr,
        "GET",
        "/files/data.bin",
        &[("range", "bytes=0-9"), ("if-range", "\"another\"")],
    )
    .await;
    assert_eq!(stale.status, 200);
    assert_eq!(stale.body.len(), length);
    // ... and the current one keeps the range.
    let etag = stale.header("etag").to_owned();
    let current = get(
        served.addr,
        "GET",
        "/files/data.bin",
        &[("range", "bytes=0-9"), ("if-range", &etag)],
    )
    .await;
    assert_eq!(current.status, 206);
    assert_eq!(current.body, content()[..10]);
}

#[tokio::test]
async fn a_range_beyond_the_end_is_416_with_the_length() {
    let served = serve().await;
    let answer = get(
        served.addr,
        "GET",
        "/files/data.bin",
        &[("range", "bytes=307200-")],
    )
    .await;
    assert_eq!(answer.status, 416);
    assert_eq!(answer.header("content-range"), "bytes */307200");
    let problem: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(problem["code"], "range_not_satisfiable");
}

#[tokio::test]
async fn a_current_copy_is_304_without_a_body() {
    let served = serve().await;
    let first = get(served.addr, "GET", "/files/data.bin", &[]).await;
    let etag = first.header("etag").to_owned();

    let by_tag = get(
        served.addr,
        "GET",
        "/files/data.bin",
        &[("if-none-match", &format!("\"x\", {etag}"))],
    )
    .await;
    assert_eq!(by_tag.status, 304);
    assert_eq!(by_tag.header("etag"), etag);
    assert_eq!(by_tag.header("last-modified"), served.last_modified);
    assert!(by_tag.body.is_empty());

    let by_date = get(
        served.addr,
        "GET",
        "/files/data.bin",
        &[("if-modified-since", &served.last_modified)],
    )
    .await;
    assert_eq!(by_date.status, 304);

    let older = get(
        served.addr,
        "GET",
        "/files/data.bin",
        &[("if-modified-since", "Sat, 01 Jan 2000 00:00:00 GMT")],
    )
    .await;
    assert_eq!(older.status, 200);
    assert_eq!(older.body.len(), 300 * 1024);

    let other_tag = get(
        served.addr,
        "GET",
        "/files/data.bin",
        &[("if-none-match", "\"x\"")],
    )
    .await;
    assert_eq!(other_tag.status, 200);
}

#[tokio::test]
async fn head_has_the_heads_of_get_and_no_body() {
    let served = serve().await;
    let get_answer = get(served.addr, "GET", "/files/data.bin", &[]).await;
    let head = get(served.addr, "HEAD", "/files/data.bin", &[]).await;
    assert_eq!(head.status, 200);
    for name in [
        "content-length",
        "content-type",
        "etag",
        "last-modified",
        "accept-ranges",
        "content-disposition",
    ] {
        assert_eq!(head.header(name), get_answer.header(name), "{name}");
    }
    assert!(head.body.is_empty());

    let ranged = get(
        served.addr,
        "HEAD",
        "/files/data.bin",
        &[("range", "bytes=0-99")],
    )
    .await;
    assert_eq!(ranged.status, 206);
    assert_eq!(ranged.header("content-length"), "100");
    assert_eq!(ranged.header("content-range"), "bytes 0-99/307200");
    assert!(ranged.body.is_empty());
}

#[tokio::test]
async fn the_route_documents_binary_bodies_206_304_and_416() {
    let served = serve().await;
    let route = &served.app.manifest().routes[0];
    let statuses: Vec<u16> = route.responses.iter().map(|answer| answer.status).collect();
    assert_eq!(statuses, [200, 206, 304]);
    assert!(route.errors.iter().any(|error| error.status == 416));
    let partial = &route.responses[1];
    assert!(
        partial
            .headers
            .iter()
            .any(|header| header.name == "Content-Range" && header.required)
    );
    assert!(route.responses[2].content.is_none());

    let document: serde_json::Value = serde_json::from_str(&served.app.openapi_json()).unwrap();
    let responses = &document["paths"]["/files/{name}"]["get"]["responses"];
    for status in ["200", "206"] {
        assert_eq!(
            responses[status]["content"]["application/octet-stream"]["schema"],
            serde_json::json!({ "type": "string", "format": "binary" }),
            "{status}"
        );
    }
    assert!(responses["304"].is_object());
    assert!(responses["416"].is_object());
}
