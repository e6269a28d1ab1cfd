//! `multipart/form-data` forms: text fields and files read as a `#[dto]`,
//! every problem listed, files over their limit refused as they arrive, and
//! a 100 MB upload with the server's resident memory bounded (measured in a
//! process of its own, over a real socket).

use std::{net::SocketAddr, time::Duration};

use framework::{BuildError, openapi::OpenApiError, prelude::*, testing::MultipartBody};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};

const MIB: usize = 1024 * 1024;

#[dto]
struct Author {
    #[tags(min_length = 1)]
    name: String,
    #[optional]
    age: Option<u8>,
}

#[dto]
struct Upload {
    #[tags(min_length = 1, max_length = 20)]
    title: String,
    author: Author,
    #[tags(max_items = 3)]
    tags: Vec<String>,
    /// The main file.
    #[tags(max_size = 1024, accept = ["image/png", "text/*"])]
    cover: File,
    #[optional]
    note: Option<File>,
    #[tags(max_items = 2, items(max_size = 2048))]
    attachments: Vec<File>,
}

/// A file as the handler saw it: `name|type|text`.
async fn describe(file: &File) -> Result<String, ApiError> {
    let bytes = file.bytes().await.map_err(ApiError::internal)?;
    Ok(format!(
        "{}|{}|{}",
        file.file_name().unwrap_or("-"),
        file.media_type(),
        String::from_utf8_lossy(&bytes)
    ))
}

/// What the handler saw.
#[dto]
#[derive(Debug, PartialEq)]
struct Summary {
    title: String,
    author: String,
    age: Option<u8>,
    tags: Vec<String>,
    cover: String,
    note: Option<String>,
    attachments: Vec<String>,
}

#[dto(strict)]
struct Strict {
    title: String,
}

#[dto]
struct Big {
    #[tags(max_size = 1_048_576)]
    file: File,
}

struct Forms;

#[controller("forms")]
impl Forms {
    #[typed_route::post("")]
    async fn upload(&self, form: TypedFormData<Upload>) -> Result<Summary, ApiError> {
        let form = form.into_inner();
        let mut attachments = Vec::new();
        for file in &form.attachments {
            attachments.push(describe(file).await?);
        }
        let note = match &form.note {
            Some(file) => Some(describe(file).await?),
            None => None,
        };
        Ok(Summary {
            title: form.title,
            author: form.author.name,
            age: form.author.age,
            tags: form.tags,
            cover: describe(&form.cover).await?,
            note,
            attachments,
        })
    }

    #[typed_route::post("strict")]
    async fn strict(&self, form: TypedFormData<Strict>) -> String {
        form.into_inner().title
    }

    #[typed_route::post("big")]
    async fn big(&self, form: TypedFormData<Big>) -> String {
        form.file.size().to_string()
    }
}

fn app() -> App {
    App::builder().controller(Forms).build().unwrap()
}

fn full_form() -> MultipartBody {
    MultipartBody::new()
        .text("title", "holiday")
        .text("author[name]", "kim")
        .text("author[age]", "42")
        .text("tags", "sea")
        .text("tags", "sun")
        .file("cover", "sea.png", "image/png", b"PNG!")
        .file("attachments", "a.txt", "text/plain", b"first")
        .file("attachments[1]", "b.txt", "text/plain", b"second")
}

async fn problem_of(form: &MultipartBody) -> (u16, Value) {
    let response = app()
        .test_client()
        .post("/forms")
        .multipart(form)
        .send()
        .await;
    (response.status().as_u16(), response.json::<Value>())
}

fn issues(problem: &Value) -> Vec<(String, String)> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|issue| {
            (
                issue["path"].as_str().unwrap().to_owned(),
                issue["expected"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_form_of_text_and_files_is_read_as_its_type() {
    let response = app()
        .test_client()
        .post("/forms")
        .multipart(&full_form())
        .send()
        .await;
    assert_eq!(response.status(), 201, "{}", response.text());
    assert_eq!(
        response.json::<Summary>(),
        Summary {
            title: "holiday".into(),
            author: "kim".into(),
            age: Some(42),
            tags: vec!["sea".into(), "sun".into()],
            cover: "sea.png|image/png|PNG!".into(),
            note: None,
            attachments: vec![
                "a.txt|text/plain|first".into(),
                "b.txt|text/plain|second".into()
            ],
        }
    );
}

#[tokio::test]
async fn empty_lists_optional_files_and_empty_file_inputs() {
    // No `tags` and no `attachments` part: both lists are empty. A file
    // input left empty (no name, no bytes) is no file.
    let form = MultipartBody::new()
        .text("title", "t")
        .text("author[name]", "kim")
        .file("cover", "c.txt", "text/plain; charset=utf-8", b"c")
        .file("note", "", "application/octet-stream", b"");
    let response = app()
        .test_client()
        .post("/forms")
        .multipart(&form)
        .send()
        .await;
    assert_eq!(response.status(), 201, "{}", response.text());
    let summary = response.json::<Summary>();
    assert!(summary.tags.is_empty());
    assert!(summary.attachments.is_empty());
    assert_eq!(summary.note, None);
    assert_eq!(summary.cover, "c.txt|text/plain; charset=utf-8|c");
}

#[tokio::test]
async fn every_problem_of_a_form_is_listed_with_its_path() {
    let form = MultipartBody::new()
        // A text field twice.
        .text("title", "one")
        .text("title", "two")
        // Text that is not UTF-8.
        .part("author[name]", None, None, b"\xff\xfe")
        // A file where the form has text.
        .file("tags", "t.txt", "text/plain", b"x")
        // A file of a type `accept` leaves out.
        .file("cover", "c.gif", "image/gif", b"GIF")
        // Text where the form has a file.
        .text("note", "not a file")
        // Three files where two may be.
        .file("attachments", "1", "text/plain", b"1")
        .file("attachments", "2", "text/plain", b"2")
        .file("attachments", "3", "text/plain", b"3");
    let (status, problem) = problem_of(&form).await;
    assert_eq!(status, 400, "{problem}");
    assert_eq!(problem["code"], "invalid_body");
    assert_eq!(
        issues(&problem),
        [
            (
                "$input.title".into(),
                "string & MinLength<1> & MaxLength<20> (sent once)".into()
            ),
            (
                "$input.author.name".into(),
                "string & MinLength<1> (as UTF-8 text)".into()
            ),
            ("$input.tags".into(), "Array<string> & MaxItems<3>".into()),
            (
                "$input.cover".into(),
                "File & MaxSize<1024> & Accept<\"image/png, text/*\">".into()
            ),
            ("$input.note".into(), "File".into()),
            (
                "$input.attachments".into(),
                "Array<File & MaxSize<2048>> & MaxItems<2>".into()
            ),
        ]
    );
    let values: Vec<&Value> = problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|issue| &issue["value"])
        .collect();
    assert_eq!(values[0], "two");
    assert_eq!(*values[2], json!({ "name": "t.txt", "type": "text/plain" }));
    assert_eq!(*values[3], json!({ "name": "c.gif", "type": "image/gif" }));
    assert_eq!(values[4], "not a file");
    assert_eq!(*values[5], json!(3));
}

#[tokio::test]
async fn missing_and_invalid_text_fields_are_reported_as_in_a_json_body() {
    let form = MultipartBody::new()
        .text("title", "")
        .text("author[age]", "300")
        .text("tags", "a")
        .text("tags", "b")
        .text("tags", "c")
        .text("tags", "d");
    let (status, problem) = problem_of(&form).await;
    assert_eq!(status, 400, "{problem}");
    assert_eq!(
        issues(&problem),
        [
            (
                "$input.title".into(),
                "string & MinLength<1> & MaxLength<20>".into()
            ),
            ("$input.author.name".into(), "string & MinLength<1>".into()),
            (
                "$input.author.age".into(),
                "number & Type<\"uint8\">".into()
            ),
            ("$input.tags".into(), "Array<string> & MaxItems<3>".into()),
            (
                "$input.cover".into(),
                "File & MaxSize<1024> & Accept<\"image/png, text/*\">".into()
            ),
        ]
    );
}

#[tokio::test]
async fn a_strict_form_refuses_unknown_parts() {
    let form = MultipartBody::new()
        .text("title", "t")
        .text("extra", "x")
        .file("upload", "u.bin", "application/octet-stream", b"u");
    let response = app()
        .test_client()
        .post("/forms/strict")
        .multipart(&form)
        .send()
        .await;
    assert_eq!(response.status(), 400);
    let problem = response.json::<Value>();
    assert_eq!(
        issues(&problem),
        [
            ("$input.upload".into(), "undefined".into()),
            ("$input.extra".into(), "undefined".into()),
        ]
    );
}

#[tokio::test]
async fn malformed_bodies_are_refused() {
    let client = app().test_client();
    let form = full_form();

    let no_boundary = client
        .post("/forms")
        .body("multipart/form-data", form.to_bytes())
        .send()
        .await;
    assert_eq!(no_boundary.status(), 400);
    assert_eq!(no_boundary.problem().code, "invalid_body");
    assert_eq!(no_boundary.problem().errors[0].path, "$input");

    // The body ends in the middle of a part.
    let mut truncated = form.unclosed().to_vec();
    truncated.truncate(truncated.len() - 4);
    let cut = client
        .post("/forms")
        .body(&form.content_type(), truncated)
        .send()
        .await;
    assert_eq!(cut.status(), 400);
    let problem = cut.problem();
    assert_eq!(problem.code, "invalid_body");
    assert!(
        problem.detail.contains("closing boundary"),
        "{}",
        problem.detail
    );
    assert_eq!(problem.errors[0].path, "$input.attachments[1]");

    // Parts, but no closing boundary.
    let unclosed = client
        .post("/forms")
        .body(&form.content_type(), form.unclosed())
        .send()
        .await;
    assert_eq!(unclosed.status(), 400);
    assert_eq!(unclosed.problem().code, "invalid_body");

    let garbage = client
        .post("/forms")
        .body(&form.content_type(), "not multipart at all")
        .send()
        .await;
    assert_eq!(garbage.status(), 400);
    assert_eq!(garbage.problem().code, "invalid_body");

    let json = client
        .post("/forms")
        .json(&json!({ "title": "x" }))
        .send()
        .await;
    assert_eq!(json.status(), 415);
    assert_eq!(json.problem().code, "unsupported_media_type");
}

#[tokio::test]
async fn a_file_over_its_limit_is_413_with_its_path() {
    let form = MultipartBody::new()
        .text("title", "t")
        .text("author[name]", "kim")
        .file("cover", "c.txt", "text/plain", &[b'x'; 1025]);
    let (status, problem) = problem_of(&form).await;
    assert_eq!(status, 413);
    assert_eq!(problem["code"], "file_too_large");
    assert_eq!(
        issues(&problem),
        [("$input.cover".into(), "File & MaxSize<1024>".into())]
    );
    let form = full_form().file("attachments", "big", "text/plain", &[b'x'; 4096]);
    let (status, problem) = problem_of(&form).await;
    assert_eq!(status, 413);
    assert_eq!(problem["errors"][0]["path"], "$input.attachments[2]");
}

#[tokio::test]
async fn text_past_the_body_limit_is_413() {
    let app = App::builder()
        .controller(Forms)
        .body_limit(4096)
        .build()
        .unwrap();
    let form = MultipartBody::new().text("title", &"t".repeat(64 * 1024));
    let response = app
        .test_client()
        .post("/forms/strict")
        .multipart(&form)
        .send()
        .await;
    assert_eq!(response.status(), 413);
    assert_eq!(response.problem().code, "payload_too_large");
    // Files are not held to the body limit, but to their own.
    let form = MultipartBody::new().file("file", "f", "application/octet-stream", &[0; 100_000]);
    let response = app
        .test_client()
        .post("/forms/big")
        .multipart(&form)
        .send()
        .await;
    assert_eq!(response.text(), "100000");
}

#[test]
fn files_stand_only_as_fields_of_a_multipart_form() {
    #[dto]
    struct WithFile {
        file: File,
    }
    #[dto]
    struct Nullable {
        file: Option<File>,
    }
    #[dto]
    struct Nested {
        inner: WithFile,
    }
    struct InJson;
    #[controller("json")]
    impl InJson {
        #[typed_route::post("")]
        async fn create(&self, body: TypedBody<WithFile>) -> String {
            body.file.size().to_string()
        }
    }
    struct NullableFile;
    #[controller("nullable")]
    impl NullableFile {
        #[typed_route::post("")]
        async fn create(&self, _form: TypedFormData<Nullable>) {}
    }
    struct NestedFile;
    #[controller("nested")]
    impl NestedFile {
        #[typed_route::post("")]
        async fn create(&self, _form: TypedFormData<Nested>) {}
    }
    let reason = |result: Result<App, BuildError>| match result {
        Err(BuildError::Manifest(OpenApiError::MisplacedFile { reason, .. })) => reason,
        Err(other) => panic!("another error: {other}"),
        Ok(_) => panic!("built"),
    };
    let json = reason(App::builder().controller(InJson).build());
    assert!(json.contains("`TypedFormData<T>`"), "{json}");
    let nullable = reason(App::builder().controller(NullableFile).build());
    assert!(
        nullable.contains("#[optional] file: Option<File>"),
        "{nullable}"
    );
    let nested = reason(App::builder().controller(NestedFile).build());
    assert!(nested.starts_with("field `inner`"), "{nested}");
}

#[test]
fn the_form_is_documented_as_multipart_with_its_limits() {
    let app = app();
    let document: Value = serde_json::from_str(&app.openapi_json()).unwrap();
    let body =
        &document["paths"]["/forms"]["post"]["requestBody"]["content"]["multipart/form-data"];
    assert_eq!(body["schema"]["$ref"], "#/components/schemas/Upload");
    assert_eq!(
        body["encoding"],
        json!({ "cover": { "contentType": "image/png, text/*" } })
    );
    let upload = &document["components"]["schemas"]["Upload"]["properties"];
    assert_eq!(
        upload["cover"],
        json!({ "type": "string", "format": "binary", "x-max-size": 1024, "description": "The main file." })
    );
    assert_eq!(
        upload["attachments"],
        json!({
            "type": "array",
            "items": { "type": "string", "format": "binary", "x-max-size": 2048 },
            "maxItems": 2
        })
    );
    let route = app
        .manifest()
        .routes
        .iter()
        .find(|route| route.path == "/forms")
        .unwrap()
        .clone();
    let body = route.body.unwrap();
    assert_eq!(body.kind, framework::ContentKind::Multipart);
    assert_eq!(body.media_type, "multipart/form-data");
    let statuses: Vec<u16> = route.errors.iter().map(|error| error.status).collect();
    assert_eq!(statuses, [400, 403, 408, 413, 415]);
}

async fn serve(app: App) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener);
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.serve_with_shutdown(app, std::future::pending()));
    addr
}

/// Reads an answer until its JSON body ends or the server closes.
async fn read_answer(stream: &mut TcpStream) -> String {
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

#[tokio::test]
async fn a_file_over_its_limit_is_refused_while_the_client_is_still_sending() {
    let addr = serve(app()).await;
    let form = MultipartBody::new();
    let head = form.head("file", Some("big.bin"), Some("application/octet-stream"));
    let declared = 64 * MIB;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            format!(
                "POST /forms/big HTTP/1.1\r\nhost: x\r\ncontent-type: {}\r\ncontent-length: {declared}\r\n\r\n{head}",
                form.content_type()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    // 2 MiB of a 64 MiB body, over the 1 MiB limit; the rest is never sent.
    let chunk = vec![b'x'; 256 * 1024];
    for _ in 0..8 {
        stream.write_all(&chunk).await.unwrap();
    }
    let answer = tokio::time::timeout(Duration::from_secs(10), read_answer(&mut stream))
        .await
        .expect("answered while most of the body was unsent");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"code\":\"file_too_large\""), "{answer}");
    assert!(answer.contains("\"path\":\"$input.file\""), "{answer}");
}

/// Set in the child process that measures a 100 MB upload alone.
const MEASURE: &str = "FRAMEWORK_MEASURE_UPLOAD";

/// The most the server's resident memory may grow while it receives
/// 100 MB.
const RESIDENT_BOUND: u64 = 8 * MIB as u64;

#[test]
fn a_100_mb_upload_keeps_the_server_resident_memory_bounded() {
    if std::env::var_os(MEASURE).is_some() {
        return measure_upload();
    }
    // Alone in a process of its own, so no other test's memory counts.
    let growth = crate::alone::figure_of(
        "multipart::a_100_mb_upload_keeps_the_server_resident_memory_bounded",
        MEASURE,
        "1",
        "resident growth: ",
    );
    println!("a 100 MB upload raised the server's resident memory by {growth} bytes");
    assert!(growth < RESIDENT_BOUND, "grew by {growth} bytes");
}

/// The resident set, in bytes.
fn resident() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split(' ').nth(1).unwrap().parse().unwrap();
    pages * 4096
}

fn measure_upload() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let app = App::builder()
            .controller(Uploads)
            .body_timeout(Duration::from_secs(120))
            .build()
            .unwrap();
        let addr = serve(app).await;
        // Warm up: threads, buffers and the allocator's pools.
        let (status, _) = upload(addr, 2 * MIB).await;
        assert_eq!(status, 201);
        let before = resident();
        let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(before));
        let sampling = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let sampler = {
            let (peak, sampling) = (peak.clone(), sampling.clone());
            std::thread::spawn(move || {
                while sampling.load(std::sync::atomic::Ordering::Relaxed) {
                    peak.fetch_max(resident(), std::sync::atomic::Ordering::Relaxed);
                    std::thread::sleep(Duration::from_millis(2));
                }
            })
        };
        let size = 100 * 1000 * 1000;
        let (status, answer) = upload(addr, size).await;
        sampling.store(false, std::sync::atomic::Ordering::Relaxed);
        sampler.join().unwrap();
        assert_eq!(status, 201, "{answer}");
        assert!(answer.ends_with(&format!("{size} on disk")), "{answer}");
        let growth = peak
            .load(std::sync::atomic::Ordering::Relaxed)
            .saturating_sub(before);
        println!("resident growth: {growth} bytes (before: {before} bytes)");
    });
}

#[dto]
struct Payload {
    #[tags(max_size = 200_000_000)]
    file: File,
}

struct Uploads;

#[controller("uploads")]
impl Uploads {
    /// Reads the file back from disk, as a handler that stores it would.
    #[typed_route::post("")]
    async fn upload(&self, form: TypedFormData<Payload>) -> Result<String, ApiError> {
        use futures_util::StreamExt;
        let file = &form.file;
        let mut stream = file.stream().await.map_err(ApiError::internal)?;
        let mut read = 0;
        while let Some(chunk) = stream.next().await {
            read += chunk.map_err(ApiError::internal)?.len();
        }
        let place = if file.is_in_memory() {
            "in memory"
        } else {
            "on disk"
        };
        Ok(format!("{read} {place}"))
    }
}

/// Posts a form with one file of `size` bytes, written from one reused
/// buffer; the answer's status and body.
async fn upload(addr: SocketAddr, size: usize) -> (u16, String) {
    let form = MultipartBody::new();
    let head = form.head("file", Some("big.bin"), Some("application/octet-stream"));
    let tail = format!("\r\n{}", form.closing());
    let length = head.len() + size + tail.len();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            format!(
                "POST /uploads HTTP/1.1\r\nhost: x\r\ncontent-type: {}\r\ncontent-length: {length}\r\n\r\n{head}",
                form.content_type()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let chunk = vec![b'u'; 256 * 1024];
    let mut left = size;
    while left > 0 {
        let part = left.min(chunk.len());
        stream.write_all(&chunk[..part]).await.unwrap();
        left -= part;
    }
    stream.write_all(tail.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let read = stream.read(&mut buf).await.unwrap();
        raw.extend_from_slice(&buf[..read]);
        let text = String::from_utf8_lossy(&raw);
        if read == 0 || text.contains("on disk") || text.contains("in memory") || text.contains('}')
        {
            break;
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text[9..12].parse().unwrap_or(0);
    let body = text.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned();
    (status, body)
}

#[tokio::test]
async fn a_part_header_that_never_ends_is_refused_at_the_body_limit() {
    let app = App::builder()
        .controller(Forms)
        .body_limit(64 * 1024)
        .build()
        .unwrap();
    let addr = serve(app).await;
    let form = MultipartBody::new();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            format!(
                "POST /forms/big HTTP/1.1\r\nhost: x\r\ncontent-type: {}\r\ncontent-length: {}\r\n\r\n--framework-test-boundary-7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name=\"file\"\r\nX-Long: ",
                form.content_type(),
                64 * MIB
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let chunk = vec![b'a'; 64 * 1024];
    for _ in 0..8 {
        if stream.write_all(&chunk).await.is_err() {
            break;
        }
    }
    let answer = tokio::time::timeout(Duration::from_secs(10), read_answer(&mut stream))
        .await
        .expect("refused while the header was still arriving");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains("\"code\":\"payload_too_large\""),
        "{answer}"
    );
}
