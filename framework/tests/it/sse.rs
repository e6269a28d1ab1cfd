//! Server-sent events over a real socket: framing and prompt delivery,
//! keep-alive comments, resumption with `Last-Event-ID`, a client that
//! stops reading, and graceful shutdown ending open streams.

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use framework::Shutdown;
use framework::prelude::*;
use framework::sse::{Event, LastEventId, Sse};
use futures_util::{StreamExt, stream};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpSocket, TcpStream},
    sync::{broadcast, oneshot},
    task::JoinHandle,
};

#[dto]
#[derive(Clone, Debug)]
struct Note {
    seq: u64,
    text: String,
}

struct Events {
    notes: broadcast::Sender<Note>,
    /// Events the endless stream produced.
    pulled: Arc<AtomicUsize>,
}

#[controller("events")]
impl Events {
    /// Notes as they are posted.
    #[typed_route::get("live")]
    async fn live(&self, shutdown: Shutdown) -> Sse<Note> {
        let events = stream::unfold(self.notes.subscribe(), |mut notes| async move {
            let note = notes.recv().await.ok()?;
            let event = Event::new(note.clone())
                .name("note")
                .id(note.seq.to_string());
            Some((event, notes))
        });
        Sse::new(events).until(&shutdown)
    }

    /// Nothing but keep-alive comments, every 100 ms.
    #[typed_route::get("quiet")]
    async fn quiet(&self) -> Sse<Note> {
        Sse::new(stream::pending()).keep_alive(Duration::from_millis(100))
    }

    /// Notes 1 to 5, after the last one the client saw.
    #[typed_route::get("replay")]
    async fn replay(&self, last: LastEventId) -> Sse<Note> {
        let after: u64 = last.get().and_then(|id| id.parse().ok()).unwrap_or(0);
        let events = stream::iter(after + 1..=5).map(|seq| {
            Event::new(Note {
                seq,
                text: format!("note {seq}"),
            })
            .id(seq.to_string())
        });
        Sse::new(events).without_keep_alive()
    }

    /// An endless stream of 1 KiB events, counting how many were pulled.
    #[typed_route::get("flood")]
    async fn flood(&self) -> Sse<Note> {
        let pulled = Arc::clone(&self.pulled);
        let events = stream::repeat_with(move || {
            let seq = pulled.fetch_add(1, Ordering::SeqCst) as u64;
            Event::new(Note {
                seq,
                text: "x".repeat(1024),
            })
        });
        Sse::new(events)
    }
}

struct Served {
    addr: SocketAddr,
    notes: broadcast::Sender<Note>,
    pulled: Arc<AtomicUsize>,
    app: App,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

async fn serve() -> Served {
    serve_with(|server| server).await
}

async fn serve_with(configure: impl FnOnce(Server) -> Server) -> Served {
    let (notes, _) = broadcast::channel(16);
    let pulled = Arc::new(AtomicUsize::new(0));
    let app = App::builder()
        .controller(Events {
            notes: notes.clone(),
            pulled: Arc::clone(&pulled),
        })
        .build()
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server =
        configure(Server::from_listener(listener).shutdown_timeout(Duration::from_secs(20)));
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.serve_with_shutdown(app.clone(), async {
        let _ = stopped.await;
    }));
    Served {
        addr,
        notes,
        pulled,
        app,
        stop: Some(stop),
        task,
    }
}

/// Sends a GET and reads until the response head is complete; returns the
/// head and whatever of the body came with it.
async fn open(stream: &mut TcpStream, path: &str, headers: &str) -> (String, Vec<u8>) {
    stream
        .write_all(format!("GET {path} HTTP/1.1\r\nhost: x\r\n{headers}\r\n").as_bytes())
        .await
        .unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if let Some(end) = raw.windows(4).position(|window| window == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).into_owned();
            return (head, raw[end + 4..].to_vec());
        }
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf))
            .await
            .expect("the head arrives without waiting for an event")
            .unwrap();
        assert!(read > 0, "closed before the head");
        raw.extend_from_slice(&buf[..read]);
    }
}

/// Reads until `needle` is among what arrived (kept in `raw`), within
/// `within`.
async fn read_until(stream: &mut TcpStream, raw: &mut Vec<u8>, needle: &str, within: Duration) {
    let deadline = Instant::now() + within;
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(raw).contains(needle) {
        let left = deadline.saturating_duration_since(Instant::now());
        let read = tokio::time::timeout(left, stream.read(&mut buf))
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "{needle:?} did not arrive within {within:?}; got {:?}",
                    String::from_utf8_lossy(raw)
                )
            })
            .unwrap();
        assert!(read > 0, "closed before {needle:?}");
        raw.extend_from_slice(&buf[..read]);
    }
}

#[tokio::test]
async fn events_are_framed_and_each_is_sent_as_soon_as_it_is_made() {
    let served = serve().await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let (head, mut raw) = open(&mut stream, "/events/live", "").await;
    let head = head.to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    assert!(head.contains("cache-control: no-cache"), "{head}");
    assert!(head.contains("transfer-encoding: chunked"), "{head}");
    assert!(!head.contains("content-length"), "{head}");
    // One event at a time: each must arrive before the next is made, so
    // nothing (the server's write batching included) may hold it back.
    for seq in 1..=3 {
        served
            .notes
            .send(Note {
                seq,
                text: format!("hello {seq}"),
            })
            .unwrap();
        let expected =
            format!("event: note\nid: {seq}\ndata: {{\"seq\":{seq},\"text\":\"hello {seq}\"}}\n\n");
        read_until(&mut stream, &mut raw, &expected, Duration::from_secs(2)).await;
    }
}

#[tokio::test]
async fn a_silent_stream_sends_keep_alive_comments() {
    let served = serve().await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let started = Instant::now();
    let (_, mut raw) = open(&mut stream, "/events/quiet", "").await;
    read_until(&mut stream, &mut raw, ":\n\n", Duration::from_secs(2)).await;
    let first = started.elapsed();
    assert!(first >= Duration::from_millis(90), "{first:?}");
    // Another one comes after the same silence.
    let count = |raw: &[u8]| String::from_utf8_lossy(raw).matches(":\n\n").count();
    let seen = count(&raw);
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut buf = [0u8; 256];
    while count(&raw) == seen {
        assert!(Instant::now() < deadline, "no second keep-alive");
        let read = stream.read(&mut buf).await.unwrap();
        raw.extend_from_slice(&buf[..read]);
    }
    let _ = served.notes.send(Note {
        seq: 0,
        text: String::new(),
    });
}

#[tokio::test]
async fn last_event_id_resumes_after_the_last_event_seen() {
    let served = serve().await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let (_, mut raw) = open(&mut stream, "/events/replay", "last-event-id: 3\r\n").await;
    // The stream ends: the chunked body's last chunk.
    read_until(&mut stream, &mut raw, "0\r\n\r\n", Duration::from_secs(2)).await;
    let text = String::from_utf8_lossy(&raw);
    let ids: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("id: "))
        .collect();
    assert_eq!(ids, ["4", "5"], "{text}");
    assert!(text.contains("data: {\"seq\":4,\"text\":\"note 4\"}\n\n"));

    let mut fresh = TcpStream::connect(served.addr).await.unwrap();
    let (_, mut raw) = open(&mut fresh, "/events/replay", "").await;
    read_until(&mut fresh, &mut raw, "0\r\n\r\n", Duration::from_secs(2)).await;
    let text = String::from_utf8_lossy(&raw);
    assert_eq!(text.matches("id: ").count(), 5, "{text}");
}

#[tokio::test]
async fn a_client_that_stops_reading_stops_the_stream() {
    let served = serve().await;
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(served.addr).await.unwrap();
    let _ = open(&mut stream, "/events/flood", "").await;
    // The client reads nothing more. Once the socket's buffers are full,
    // the server must stop pulling events.
    let mut samples = Vec::new();
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        samples.push(served.pulled.load(Ordering::SeqCst));
        if samples.len() >= 3
            && samples[samples.len() - 3..]
                .windows(2)
                .all(|w| w[0] == w[1])
        {
            break;
        }
    }
    let settled = *samples.last().unwrap();
    assert!(
        samples.len() < 20,
        "the stream kept being pulled: {samples:?}"
    );
    // Each event is about 1.05 KiB on the wire: what the server produced
    // for a client that reads nothing is the sockets' buffers, no more.
    let buffered = settled * 1060;
    println!("events pulled for a client that stopped reading: {settled} (~{buffered} bytes)");
    assert!(
        buffered < 16 * 1024 * 1024,
        "{buffered} bytes were produced for a client that reads nothing"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(served.pulled.load(Ordering::SeqCst), settled);
    drop(stream);
}

#[tokio::test]
async fn graceful_shutdown_ends_open_streams() {
    let mut served = serve().await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let (_, mut raw) = open(&mut stream, "/events/live", "").await;
    served
        .notes
        .send(Note {
            seq: 1,
            text: "before".to_owned(),
        })
        .unwrap();
    read_until(&mut stream, &mut raw, "\"before\"", Duration::from_secs(2)).await;

    let started = Instant::now();
    served.stop.take().unwrap().send(()).unwrap();
    // The stream ends cleanly: the chunked body's last chunk, then close.
    read_until(&mut stream, &mut raw, "0\r\n\r\n", Duration::from_secs(3)).await;
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(3), stream.read_to_end(&mut rest)).await;
    assert!(
        closed.is_ok(),
        "the connection closes after the stream ends"
    );
    let served_until = tokio::time::timeout(Duration::from_secs(5), &mut served.task)
        .await
        .expect("the server stops long before its 20 s shutdown timeout");
    served_until.unwrap().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(served.app.shutdown().is_started());
}

#[tokio::test]
async fn the_route_documents_an_event_stream_of_its_event_type() {
    let served = serve().await;
    let route = served
        .app
        .manifest()
        .routes
        .iter()
        .find(|route| route.handler == "live")
        .unwrap();
    let content = route.responses[0].content.as_ref().unwrap();
    assert_eq!(content.kind, framework::ContentKind::EventStream);
    assert_eq!(content.media_type, "text/event-stream");
    let manifest = serde_json::to_value(served.app.manifest()).unwrap();
    let live = manifest["routes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|route| route["handler"] == "live")
        .unwrap();
    assert_eq!(live["responses"][0]["content"]["kind"], "event_stream");

    let document: serde_json::Value = serde_json::from_str(&served.app.openapi_json()).unwrap();
    // Each event: its fields, `data` a string of JSON of the event type.
    let schema = &document["paths"]["/events/live"]["get"]["responses"]["200"]["content"]["text/event-stream"]
        ["schema"];
    assert_eq!(schema["type"], "object", "{schema}");
    assert_eq!(schema["required"], serde_json::json!(["data"]), "{schema}");
    let data = &schema["properties"]["data"];
    assert_eq!(data["type"], "string", "{schema}");
    assert_eq!(data["contentMediaType"], "application/json", "{schema}");
    assert_eq!(
        data["contentSchema"]["$ref"], "#/components/schemas/Note",
        "{schema}"
    );
    assert_eq!(schema["properties"]["id"]["type"], "string", "{schema}");

    // `Last-Event-ID` is an optional header parameter of the route that
    // reads it (only there), and no SDK argument: the SDKs send it.
    let parameters = |path: &str| document["paths"][path]["get"]["parameters"].clone();
    assert_eq!(
        parameters("/events/replay"),
        serde_json::json!([{
            "name": "last-event-id",
            "in": "header",
            "description": "The id of the last event a reconnecting client saw: the stream resumes after it.",
            "required": false,
            "schema": { "type": "string" }
        }])
    );
    assert_eq!(parameters("/events/live"), serde_json::Value::Null);
}

/// `BatchedWrites` holds flushes while the last read brought input; a
/// request pipelined behind an event stream stays unparsed in hyper's
/// buffer, so no read comes to release them: the connection's future
/// releases them when hyper waits for the stream, and the stream's head
/// and events flow.
#[tokio::test]
async fn events_flow_with_a_request_pipelined_behind_the_stream() {
    let served = serve().await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    stream
        .write_all(
            b"GET /events/live HTTP/1.1\r\nhost: x\r\n\r\nGET /events/replay HTTP/1.1\r\nhost: x\r\n\r\n",
        )
        .await
        .unwrap();
    let mut raw = Vec::new();
    read_until(&mut stream, &mut raw, "\r\n\r\n", Duration::from_secs(2)).await;
    served
        .notes
        .send(Note {
            seq: 9,
            text: "piped".to_owned(),
        })
        .unwrap();
    read_until(&mut stream, &mut raw, "\"piped\"", Duration::from_secs(2)).await;
}

/// A stream is an answer in progress, however long it stays silent: the
/// header-read timeout counts only while no request is being answered.
#[tokio::test]
async fn a_silent_stream_outlives_the_header_read_timeout() {
    let served = serve_with(|server| server.header_read_timeout(Duration::from_millis(200))).await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    stream
        .write_all(b"GET /events/live HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut raw = Vec::new();
    read_until(&mut stream, &mut raw, "\r\n\r\n", Duration::from_secs(2)).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    served
        .notes
        .send(Note {
            seq: 1,
            text: "late".to_owned(),
        })
        .unwrap();
    read_until(&mut stream, &mut raw, "\"late\"", Duration::from_secs(2)).await;
}

#[tokio::test]
async fn head_of_an_event_stream_has_its_head_and_ends() {
    let served = serve().await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    stream
        .write_all(b"HEAD /events/live HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut raw = Vec::new();
    read_until(&mut stream, &mut raw, "\r\n\r\n", Duration::from_secs(2)).await;
    let head = String::from_utf8_lossy(&raw).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    assert!(head.ends_with("\r\n\r\n"), "no body after the head: {head}");
    // The connection is ready for the next request at once.
    stream
        .write_all(b"GET /events/replay HTTP/1.1\r\nhost: x\r\nlast-event-id: 4\r\n\r\n")
        .await
        .unwrap();
    read_until(&mut stream, &mut raw, "id: 5\n", Duration::from_secs(2)).await;
    assert_eq!(served.notes.receiver_count(), 0, "the stream was dropped");
}
