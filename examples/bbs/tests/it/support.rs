//! Shared test fixtures.

use std::{net::SocketAddr, time::Duration};

use bbs::{ArticleStore, store::Backend};
use framework::App;
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

/// An app on a fresh SQLite database in a temporary directory.
pub async fn app() -> (App, TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = ArticleStore::open(&database_url(&dir)).await.unwrap();
    (bbs::app(store).unwrap(), dir)
}

/// A fresh, empty database on one backend; it lasts while this does (a
/// PostgreSQL database, until the test cluster is removed at exit).
pub struct TestDatabase {
    pub url: String,
    _dir: Option<TempDir>,
}

impl TestDatabase {
    pub async fn new(backend: Backend) -> TestDatabase {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().unwrap();
                TestDatabase {
                    url: database_url(&dir),
                    _dir: Some(dir),
                }
            }
            Backend::Postgres => TestDatabase {
                url: crate::postgres::cluster().create_database().await,
                _dir: None,
            },
        }
    }
}

/// An app on a fresh database on `backend`.
pub async fn app_on(backend: Backend) -> (App, TestDatabase) {
    let database = TestDatabase::new(backend).await;
    let store = ArticleStore::open(&database.url).await.unwrap();
    assert_eq!(store.backend(), backend);
    (bbs::app(store).unwrap(), database)
}

/// An app on a fresh database on `backend` that keeps uploads in a
/// temporary directory (returned) with `config`'s limits.
pub async fn app_with_uploads(
    backend: Backend,
    config: bbs::AttachmentConfig,
) -> (App, TestDatabase, TempDir) {
    let database = TestDatabase::new(backend).await;
    let store = ArticleStore::open(&database.url).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let attachments = bbs::Attachments::new(dir.path(), config);
    let app = bbs::app_with_attachments(store, bbs::ModeratorToken::unset(), attachments).unwrap();
    (app, database, dir)
}

/// Runs each named test, an `async fn(Backend)` of the calling module, on
/// both backends: `on_both_backends!(a, b)` defines the tests `sqlite::a`,
/// `postgres::a`, `sqlite::b` and `postgres::b`.
macro_rules! on_both_backends {
    ($($test:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $test() {
                    super::$test(bbs::store::Backend::Sqlite).await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $test() {
                    super::$test(bbs::store::Backend::Postgres).await;
                }
            )+
        }
    };
}
pub(crate) use on_both_backends;

pub fn database_url(dir: &TempDir) -> String {
    format!("sqlite://{}", dir.path().join("bbs.db").display())
}

pub fn create_input(title: &str) -> Value {
    json!({
        "writer": "Robert",
        "title": title,
        "body": "Hello, 世界! 👋",
        "format": "md",
        "files": [
            { "name": "logo", "extension": "png", "url": "https://example.com/logo.png" },
            { "name": null, "extension": null, "url": "https://example.com/README" }
        ],
        "password": "correct horse"
    })
}

/// A response read off a socket.
#[derive(Debug)]
pub struct RawResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawResponse {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// Sends one HTTP/1.1 request on a new connection and reads the answer.
pub async fn send(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> RawResponse {
    send_with(addr, method, path, &[], body).await
}

/// [`send`] with `headers` added.
pub async fn send_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> RawResponse {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.map(|value| serde_json::to_vec(value).unwrap());
    let mut request = format!("{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = &body {
        request.push_str(&format!(
            "content-type: application/json\r\ncontent-length: {}\r\n",
            body.len()
        ));
    }
    request.push_str("\r\n");
    let mut bytes = request.into_bytes();
    bytes.extend(body.unwrap_or_default());
    stream.write_all(&bytes).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut raw))
        .await
        .expect("response within 30 s")
        .unwrap();
    parse_response(&raw)
}

/// Parses one response with a `content-length` body.
pub fn parse_response(raw: &[u8]) -> RawResponse {
    let end = raw
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = std::str::from_utf8(&raw[..end]).unwrap();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line.split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .map(|line| {
            let (name, value) = line.split_once(':').unwrap();
            (name.trim().to_owned(), value.trim().to_owned())
        })
        .collect();
    let length: usize = headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .map_or(0, |(_, value)| value.parse().unwrap());
    let body = raw[end + 4..end + 4 + length].to_vec();
    RawResponse {
        status,
        headers,
        body,
    }
}

/// An app served on a loopback socket by this process; stops when dropped.
pub struct Served {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
    _dir: Option<TempDir>,
}

/// The moderators' token of the servers [`Served::start`] starts.
pub const MODERATOR_TOKEN: &str = "moderator s3cret token";

impl Served {
    /// The BBS app on a fresh database, with moderation on
    /// ([`MODERATOR_TOKEN`]).
    pub async fn start() -> Served {
        let dir = tempfile::tempdir().unwrap();
        let store = ArticleStore::open(&database_url(&dir)).await.unwrap();
        let token = bbs::ModeratorToken::new(MODERATOR_TOKEN).unwrap();
        let attachments = bbs::Attachments::new(dir.path().join("attachments"), Default::default());
        let app = bbs::app_with_attachments(store, token, attachments).unwrap();
        Served::app(app, Some(dir)).await
    }

    /// The BBS app over a database that cannot be opened: every route that
    /// touches the store answers 503.
    pub async fn unavailable() -> Served {
        let store = ArticleStore::lazy("sqlite:///nonexistent-directory/for/sure/bbs.db").unwrap();
        Served::app(bbs::app(store).unwrap(), None).await
    }

    /// The BBS app over `store`.
    pub async fn over(store: ArticleStore) -> Served {
        Served::app(bbs::app(store).unwrap(), None).await
    }

    /// `app`, served.
    pub async fn serving(app: App) -> Served {
        Served::app(app, None).await
    }

    async fn app(app: App, dir: Option<TempDir>) -> Served {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = framework::Server::from_listener(listener);
        let addr = server.local_addr().unwrap();
        let task = tokio::spawn(async move {
            server.serve(app).await.unwrap();
        });
        Served {
            addr,
            task,
            _dir: dir,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A server-sent event as a client reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct SseEvent {
    /// `event:`, `message` when absent.
    pub name: String,
    /// `id:`.
    pub id: String,
    /// `data:`, as JSON.
    pub data: Value,
}

/// An event stream read off a socket as it arrives: the response head,
/// then the chunked body decoded and cut into events.
pub struct EventReader {
    stream: TcpStream,
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// Bytes read and not yet decoded.
    raw: Vec<u8>,
    /// Body bytes decoded and not yet parsed into events.
    body: Vec<u8>,
    ended: bool,
}

impl EventReader {
    /// `GET path` with `headers` on a new connection.
    pub async fn open(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> EventReader {
        EventReader::open_on(TcpStream::connect(addr).await.unwrap(), path, headers).await
    }

    /// `GET path` with `headers` on `stream`.
    pub async fn open_on(
        mut stream: TcpStream,
        path: &str,
        headers: &[(&str, &str)],
    ) -> EventReader {
        let mut request =
            format!("GET {path} HTTP/1.1\r\nhost: bbs\r\naccept: text/event-stream\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut reader = EventReader {
            stream,
            status: 0,
            headers: Vec::new(),
            raw: Vec::new(),
            body: Vec::new(),
            ended: false,
        };
        reader.read_head().await;
        reader
    }

    async fn read_head(&mut self) {
        let end = loop {
            if let Some(end) = self.raw.windows(4).position(|window| window == b"\r\n\r\n") {
                break end;
            }
            assert!(
                self.fill(Duration::from_secs(30)).await,
                "the stream closed before its head"
            );
        };
        let head = String::from_utf8(self.raw[..end].to_vec()).unwrap();
        self.raw.drain(..end + 4);
        let mut lines = head.split("\r\n");
        self.status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        self.headers = lines
            .map(|line| {
                let (name, value) = line.split_once(':').unwrap();
                (name.trim().to_ascii_lowercase(), value.trim().to_owned())
            })
            .collect();
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// Reads more bytes; `false` at the end of the connection.
    async fn fill(&mut self, within: Duration) -> bool {
        let mut chunk = [0_u8; 16 * 1024];
        let read = tokio::time::timeout(within, self.stream.read(&mut chunk))
            .await
            .unwrap_or_else(|_| panic!("nothing read within {within:?}"))
            .unwrap_or(0);
        self.raw.extend_from_slice(&chunk[..read]);
        read > 0
    }

    /// Moves whole chunks from `raw` to `body`; notes the last chunk.
    fn decode(&mut self) {
        loop {
            let Some(line) = self.raw.windows(2).position(|window| window == b"\r\n") else {
                return;
            };
            let size = std::str::from_utf8(&self.raw[..line]).unwrap();
            let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
            if self.raw.len() < line + 2 + size + 2 {
                return;
            }
            if size == 0 {
                self.ended = true;
                self.raw.clear();
                return;
            }
            self.body
                .extend_from_slice(&self.raw[line + 2..line + 2 + size]);
            self.raw.drain(..line + 2 + size + 2);
        }
    }

    /// The next event (comments skipped), or `None` once the stream has
    /// ended; fails the test when nothing comes within `within`.
    pub async fn next_within(&mut self, within: Duration) -> Option<SseEvent> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            self.decode();
            if let Some(end) = self.body.windows(2).position(|window| window == b"\n\n") {
                let block = String::from_utf8(self.body[..end].to_vec()).unwrap();
                self.body.drain(..end + 2);
                if let Some(event) = parse_event(&block) {
                    return Some(event);
                }
                continue;
            }
            if self.ended {
                return None;
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if !self.fill(left).await {
                return None;
            }
        }
    }

    /// The next event, within 10 s.
    pub async fn next(&mut self) -> Option<SseEvent> {
        self.next_within(Duration::from_secs(10)).await
    }
}

/// An event's lines; `None` for a comment.
fn parse_event(block: &str) -> Option<SseEvent> {
    let mut event = SseEvent {
        name: "message".to_owned(),
        id: String::new(),
        data: Value::Null,
    };
    let mut data = None;
    for line in block.lines() {
        if let Some(name) = line.strip_prefix("event: ") {
            event.name = name.to_owned();
        } else if let Some(id) = line.strip_prefix("id: ") {
            event.id = id.to_owned();
        } else if let Some(json) = line.strip_prefix("data: ") {
            data = Some(serde_json::from_str(json).unwrap());
        }
    }
    event.data = data?;
    Some(event)
}
