//! Typed WebSocket routes over real sockets: messages both ways with path,
//! query and guard read before the upgrade; invalid (1007) and oversized
//! (1009) messages; pings; the idle timeout; graceful shutdown with open
//! sockets (1001); a panicking handler (1011); refused upgrades; a first
//! frame that arrives with the handshake; random valid messages round-trip;
//! handshakes from pages of other origins refused.

use std::{net::SocketAddr, time::Duration};

use framework::prelude::*;
use framework::ws::{Limits, WebSocketResponse, WebSocketUpgrade, close_code};
use framework::{ErrorMeta, InputMeta, RequestContext};
use futures_util::{SinkExt, StreamExt};
use rand::{SeedableRng, rngs::SmallRng};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::oneshot,
    task::JoinHandle,
};
use tokio_tungstenite::{
    MaybeTlsStream, WebSocketStream, connect_async,
    tungstenite::{
        Message,
        client::IntoClientRequest,
        protocol::{CloseFrame, Role},
    },
};

type Client = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A line said in a room.
#[dto]
#[derive(Clone, Debug, PartialEq)]
struct Say {
    #[tags(min_length = 1, max_length = 40)]
    text: String,
    #[tags(maximum = 10)]
    volume: u8,
    /// Who is addressed.
    #[tags(max_items = 3)]
    to: Vec<Addressee>,
}

#[dto]
#[derive(Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Addressee {
    Everyone,
    Member {
        #[tags(min_length = 2, max_length = 8, pattern = "^[a-z]+$")]
        name: String,
    },
}

/// A line as the room hears it.
#[dto]
#[derive(Clone, Debug, PartialEq)]
struct Said {
    room: String,
    member: String,
    mood: String,
    text: String,
    seq: u64,
}

#[dto]
struct Mood {
    #[tags(min_length = 1)]
    mood: String,
}

/// The member named by `x-member`; `401` without it.
struct Member(String);

impl FromRequestParts for Member {
    const INPUT: InputMeta =
        InputMeta::request().with_errors(&[ErrorMeta::new(401, "No `x-member` header.")]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        cx.headers()
            .get("x-member")
            .and_then(|value| value.to_str().ok())
            .map(|name| Member(name.to_owned()))
            .ok_or_else(|| {
                ApiError::new(
                    http::StatusCode::UNAUTHORIZED,
                    "unauthorized",
                    "no `x-member` header",
                )
            })
    }
}

struct Rooms;

#[controller("rooms")]
impl Rooms {
    /// Talk in a room: each line comes back as the room hears it.
    #[typed_route::get(":room")]
    async fn talk(
        &self,
        #[param] room: String,
        mood: TypedQuery<Mood>,
        member: Member,
        ws: WebSocketUpgrade<Say, Said>,
    ) -> WebSocketResponse {
        let mood = mood.into_inner().mood;
        let limits = Limits::new().max_message_size(1024);
        ws.with_limits(limits)
            .on_upgrade(move |mut socket| async move {
                let mut seq = 0;
                while let Some(say) = socket.recv().await {
                    seq += 1;
                    let said = Said {
                        room: room.clone(),
                        member: member.0.clone(),
                        mood: mood.clone(),
                        text: say.text,
                        seq,
                    };
                    if socket.send(&said).await.is_err() {
                        break;
                    }
                }
            })
    }

    /// Echoes every message.
    #[typed_route::get("echo")]
    async fn echo(&self, ws: WebSocketUpgrade<Say, Say>) -> WebSocketResponse {
        ws.on_upgrade(|socket| async move {
            let (sender, mut receiver) = socket.split();
            while let Some(say) = receiver.next().await {
                if sender.send(&say).await.is_err() {
                    break;
                }
            }
        })
    }

    /// Says nothing and pings never: closed after 200 ms of silence.
    #[typed_route::get("quiet")]
    async fn quiet(&self, ws: WebSocketUpgrade<Say, Say>) -> WebSocketResponse {
        let limits = Limits::new()
            .idle_timeout(Duration::from_millis(200))
            .ping_interval(None);
        ws.with_limits(limits)
            .on_upgrade(|mut socket| async move { while socket.recv().await.is_some() {} })
    }

    /// Panics at the first message.
    #[typed_route::get("fragile")]
    async fn fragile(&self, ws: WebSocketUpgrade<Say, Say>) -> WebSocketResponse {
        ws.on_upgrade(|mut socket| async move {
            if socket.recv().await.is_some() {
                panic!("cannot take it");
            }
        })
    }

    /// Greets, then is done with the socket.
    #[typed_route::get("greeter")]
    async fn greeter(&self, ws: WebSocketUpgrade<Say, Say>) -> WebSocketResponse {
        ws.on_upgrade(|socket| async move {
            let hello = Say {
                text: "hello".to_owned(),
                volume: 1,
                to: vec![Addressee::Everyone],
            };
            let _ = socket.send(&hello).await;
        })
    }
}

struct Served {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

async fn serve() -> Served {
    serve_app(App::builder().controller(Rooms).build().unwrap()).await
}

async fn serve_app(app: App) -> Served {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener).shutdown_timeout(Duration::from_secs(10));
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.serve_with_shutdown(app, async {
        let _ = stopped.await;
    }));
    Served {
        addr,
        stop: Some(stop),
        task,
    }
}

async fn connect(addr: SocketAddr, path: &str) -> Client {
    let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
    request
        .headers_mut()
        .insert("x-member", http::HeaderValue::from_static("kim"));
    let (client, response) = connect_async(request).await.unwrap();
    assert_eq!(response.status(), 101);
    client
}

fn say(text: &str) -> Say {
    Say {
        text: text.to_owned(),
        volume: 3,
        to: vec![Addressee::Everyone],
    }
}

fn json<T: serde::Serialize>(value: &T) -> Message {
    Message::text(serde_json::to_string(value).unwrap())
}

/// The next message that is not a ping or pong, within 5 s.
async fn next(client: &mut Client) -> Option<Message> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), client.next())
            .await
            .expect("the server answers within 5 s")?
            .ok()?;
        if !matches!(message, Message::Ping(_) | Message::Pong(_)) {
            return Some(message);
        }
    }
}

/// The close frame the server sends next.
async fn closed(client: &mut Client) -> CloseFrame {
    match next(client).await {
        Some(Message::Close(Some(frame))) => frame,
        other => panic!("expected a close frame, got {other:?}"),
    }
}

/// A handshake sent with `Origin: origin`: the socket, or the status and
/// body it was refused with.
async fn connect_from(addr: SocketAddr, origin: &str) -> Result<Client, (u16, String)> {
    let mut request = format!("ws://{addr}/rooms/echo")
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("origin", http::HeaderValue::from_str(origin).unwrap());
    match connect_async(request).await {
        Ok((client, _)) => Ok(client),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => Err((
            response.status().as_u16(),
            String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).into_owned(),
        )),
        Err(err) => panic!("the handshake failed: {err}"),
    }
}

#[tokio::test]
async fn a_handshake_from_a_page_of_another_origin_is_refused() {
    let served = serve().await;
    let addr = served.addr;
    let mut same = connect_from(addr, &format!("http://{addr}"))
        .await
        .expect("the page's own origin");
    same.send(json(&say("hi"))).await.unwrap();
    let Some(Message::Text(echoed)) = next(&mut same).await else {
        panic!("expected the echo");
    };
    assert_eq!(serde_json::from_str::<Say>(&echoed).unwrap(), say("hi"));
    for origin in [
        "http://evil.example".to_owned(),
        format!("https://{}", addr.ip()),
        "null".to_owned(),
    ] {
        let (status, body) = connect_from(addr, &origin).await.err().unwrap();
        assert_eq!(status, 403, "{origin}");
        let problem: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(problem["code"], "cross_origin_websocket", "{origin}");
    }
    // No Origin (not a browser) is the other tests' handshake.
    connect(addr, "/rooms/echo").await;

    let trusting = serve_app(
        App::builder()
            .controller(Rooms)
            .cross_origin(framework::CrossOrigin::new().trust("https://chat.example"))
            .build()
            .unwrap(),
    )
    .await;
    connect_from(trusting.addr, "https://chat.example")
        .await
        .expect("a trusted origin");
    assert_eq!(
        connect_from(trusting.addr, "https://evil.example")
            .await
            .err()
            .unwrap()
            .0,
        403
    );
    let open = serve_app(
        App::builder()
            .controller(Rooms)
            .cross_origin(framework::CrossOrigin::off())
            .build()
            .unwrap(),
    )
    .await;
    connect_from(open.addr, "https://evil.example")
        .await
        .expect("no protection");
}

#[tokio::test]
async fn messages_travel_both_ways_with_the_inputs_read_before_the_upgrade() {
    let served = serve().await;
    let mut client = connect(served.addr, "/rooms/lobby?mood=sunny").await;
    for text in ["hi", "there"] {
        client.send(json(&say(text))).await.unwrap();
    }
    for (seq, text) in [(1, "hi"), (2, "there")] {
        let Some(Message::Text(answer)) = next(&mut client).await else {
            panic!("expected a text message");
        };
        let said: Said = serde_json::from_str(&answer).unwrap();
        assert_eq!(
            said,
            Said {
                room: "lobby".to_owned(),
                member: "kim".to_owned(),
                mood: "sunny".to_owned(),
                text: text.to_owned(),
                seq,
            }
        );
    }
    client.close(None).await.unwrap();
    assert!(
        matches!(next(&mut client).await, Some(Message::Close(_))),
        "the server answers the close"
    );
    assert!(next(&mut client).await.is_none(), "and ends the connection");
}

#[tokio::test]
async fn an_invalid_message_closes_with_1007_and_the_problem() {
    let served = serve().await;
    let mut client = connect(served.addr, "/rooms/lobby?mood=grim").await;
    let bad = serde_json::json!({ "text": "", "volume": 11, "to": [] });
    client.send(Message::text(bad.to_string())).await.unwrap();
    let frame = closed(&mut client).await;
    assert_eq!(u16::from(frame.code), close_code::INVALID_MESSAGE);
    assert_eq!(
        frame.reason.as_str(),
        "message: $input.text is not string & MinLength<1> & MaxLength<40> (and 1 more issues)"
    );

    let mut client = connect(served.addr, "/rooms/lobby?mood=grim").await;
    client.send(Message::text("{not json")).await.unwrap();
    let frame = closed(&mut client).await;
    assert_eq!(u16::from(frame.code), close_code::INVALID_MESSAGE);
    assert!(
        frame.reason.starts_with("message: not valid JSON"),
        "{}",
        frame.reason
    );
}

#[tokio::test]
async fn a_message_over_the_limit_closes_with_1009() {
    let served = serve().await;
    let mut client = connect(served.addr, "/rooms/lobby?mood=grim").await;
    let long = serde_json::json!({ "text": "x".repeat(2000), "volume": 1, "to": [] });
    client.send(Message::text(long.to_string())).await.unwrap();
    let frame = closed(&mut client).await;
    assert_eq!(u16::from(frame.code), close_code::MESSAGE_TOO_BIG);
    assert_eq!(
        frame.reason.as_str(),
        "message_too_large: larger than 1024 bytes"
    );
    // A message far over the limit is refused from its header, while the
    // rest of it is still being sent.
    let mut client = connect(served.addr, "/rooms/lobby?mood=grim").await;
    let huge = Message::binary(vec![b' '; 4 * 1024 * 1024]);
    let _ = client.send(huge).await;
    let frame = closed(&mut client).await;
    assert_eq!(u16::from(frame.code), close_code::MESSAGE_TOO_BIG);
}

#[tokio::test]
async fn an_apps_limits_are_its_routes_defaults() {
    let app = App::builder()
        .controller(Rooms)
        .state(Limits::new().max_message_size(64))
        .build()
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener);
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.serve_with_shutdown(app, std::future::pending()));
    let mut client = connect(addr, "/rooms/echo").await;
    client.send(json(&say("fits"))).await.unwrap();
    assert!(matches!(next(&mut client).await, Some(Message::Text(_))));
    client.send(json(&say(&"y".repeat(40)))).await.unwrap();
    let frame = closed(&mut client).await;
    assert_eq!(u16::from(frame.code), close_code::MESSAGE_TOO_BIG);
    assert_eq!(
        frame.reason.as_str(),
        "message_too_large: larger than 64 bytes"
    );
}

#[tokio::test]
async fn pings_are_answered() {
    let served = serve().await;
    let mut client = connect(served.addr, "/rooms/lobby?mood=ok").await;
    client
        .send(Message::Ping(b"are you there".to_vec().into()))
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(5), client.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(answer, Message::Pong(b"are you there".to_vec().into()));
}

#[tokio::test]
async fn a_silent_client_is_closed_after_the_idle_timeout() {
    let served = serve().await;
    let mut client = connect(served.addr, "/rooms/quiet").await;
    let started = std::time::Instant::now();
    let frame = closed(&mut client).await;
    assert_eq!(u16::from(frame.code), close_code::GOING_AWAY);
    assert_eq!(frame.reason.as_str(), "idle_timeout");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(150) && waited < Duration::from_secs(3),
        "{waited:?}"
    );
}

#[tokio::test]
async fn graceful_shutdown_closes_open_sockets_with_1001() {
    let mut served = serve().await;
    let mut first = connect(served.addr, "/rooms/a?mood=ok").await;
    let mut second = connect(served.addr, "/rooms/echo").await;
    // Both are served.
    first.send(json(&say("one"))).await.unwrap();
    assert!(matches!(next(&mut first).await, Some(Message::Text(_))));
    second.send(json(&say("two"))).await.unwrap();
    assert!(matches!(next(&mut second).await, Some(Message::Text(_))));

    served.stop.take().unwrap().send(()).unwrap();
    for client in [&mut first, &mut second] {
        let frame = closed(client).await;
        assert_eq!(u16::from(frame.code), close_code::GOING_AWAY);
        assert_eq!(frame.reason.as_str(), "shutting_down");
        assert!(next(client).await.is_none());
    }
    let stopped = tokio::time::timeout(Duration::from_secs(5), served.task).await;
    assert!(
        matches!(stopped, Ok(Ok(Ok(())))),
        "the server stops once the sockets are closed: {stopped:?}"
    );
}

/// An upgraded connection keeps its place under the server's connection
/// limit (and in the open-connections gauge) until the socket closes.
#[tokio::test]
async fn a_socket_counts_under_the_connection_limit_until_it_closes() {
    let app = App::builder()
        .controller(Rooms)
        .metrics(framework::Metrics::new())
        .build()
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener).max_connections(1);
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.serve_with_shutdown(app.clone(), std::future::pending()));
    let mut socket = connect(addr, "/rooms/echo").await;
    let scrape = || async {
        let text = app.test_client().get("/metrics").send().await.text();
        text.lines()
            .find(|line| line.starts_with("http_open_connections "))
            .map(str::to_owned)
    };
    assert_eq!(scrape().await.as_deref(), Some("http_open_connections 1"));
    let request = "GET /metrics HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n";
    let mut waiting = TcpStream::connect(addr).await.unwrap();
    waiting.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let early =
        tokio::time::timeout(Duration::from_millis(300), waiting.read_to_end(&mut answer)).await;
    assert!(
        early.is_err(),
        "served while the socket holds the only place"
    );
    socket.close(None).await.unwrap();
    while next(&mut socket).await.is_some() {}
    tokio::time::timeout(Duration::from_secs(5), waiting.read_to_end(&mut answer))
        .await
        .expect("served once the socket is closed")
        .unwrap();
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
}

#[tokio::test]
async fn a_panicking_handler_closes_with_1011_and_a_finished_one_with_1000() {
    let served = serve().await;
    let mut client = connect(served.addr, "/rooms/fragile").await;
    client.send(json(&say("boo"))).await.unwrap();
    let frame = closed(&mut client).await;
    assert_eq!(u16::from(frame.code), close_code::INTERNAL_ERROR);
    assert_eq!(frame.reason.as_str(), "internal_error");

    let mut client = connect(served.addr, "/rooms/greeter").await;
    let Some(Message::Text(hello)) = next(&mut client).await else {
        panic!("expected the greeting");
    };
    assert_eq!(serde_json::from_str::<Say>(&hello).unwrap().text, "hello");
    let frame = closed(&mut client).await;
    assert_eq!(u16::from(frame.code), close_code::NORMAL);
}

/// A request's head and body, read until the server closes or the body's
/// `Content-Length` is in.
async fn exchange(addr: SocketAddr, request: &str) -> (String, serde_json::Value) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        raw.extend_from_slice(&buf[..read]);
        let text = String::from_utf8_lossy(&raw).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n")
            && let Ok(problem) = serde_json::from_str(body)
        {
            return (head.to_ascii_lowercase(), problem);
        }
        assert!(read > 0, "closed before the answer: {text}");
    }
}

const HANDSHAKE: &str = "connection: Upgrade\r\nupgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n";

#[tokio::test]
async fn refused_upgrades_answer_their_error_before_any_socket() {
    let served = serve().await;
    // A guard's refusal comes first.
    let request = format!("GET /rooms/lobby?mood=ok HTTP/1.1\r\nhost: x\r\n{HANDSHAKE}\r\n");
    let (head, problem) = exchange(served.addr, &request).await;
    assert!(head.starts_with("http/1.1 401"), "{head}");
    assert_eq!(problem["code"], "unauthorized");
    // So do the inputs' problems.
    let request =
        format!("GET /rooms/lobby?mood= HTTP/1.1\r\nhost: x\r\nx-member: kim\r\n{HANDSHAKE}\r\n");
    let (head, problem) = exchange(served.addr, &request).await;
    assert!(head.starts_with("http/1.1 400"), "{head}");
    assert_eq!(problem["errors"][0]["path"], "$query.mood");
    // A request that is not a handshake.
    let request = "GET /rooms/lobby?mood=ok HTTP/1.1\r\nhost: x\r\nx-member: kim\r\n\r\n";
    let (head, problem) = exchange(served.addr, request).await;
    assert!(head.starts_with("http/1.1 426"), "{head}");
    assert!(head.contains("upgrade: websocket"), "{head}");
    assert_eq!(problem["code"], "upgrade_required");
    // Without a handshake, the inputs' problems still come first: a client
    // that cannot read a refused handshake's status asks this way.
    let request = "GET /rooms/lobby?mood= HTTP/1.1\r\nhost: x\r\nx-member: kim\r\n\r\n";
    let (head, problem) = exchange(served.addr, request).await;
    assert!(head.starts_with("http/1.1 400"), "{head}");
    assert_eq!(problem["errors"][0]["path"], "$query.mood");
    // A version the server does not speak.
    let request = format!(
        "GET /rooms/echo HTTP/1.1\r\nhost: x\r\n{}\r\n",
        HANDSHAKE.replace("version: 13", "version: 8")
    );
    let (head, problem) = exchange(served.addr, &request).await;
    assert!(head.starts_with("http/1.1 426"), "{head}");
    assert!(head.contains("sec-websocket-version: 13"), "{head}");
    assert_eq!(problem["code"], "unsupported_websocket_version");
    // A malformed key.
    let request = format!(
        "GET /rooms/echo HTTP/1.1\r\nhost: x\r\n{}\r\n",
        HANDSHAKE.replace("dGhlIHNhbXBsZSBub25jZQ==", "nonce")
    );
    let (head, problem) = exchange(served.addr, &request).await;
    assert!(head.starts_with("http/1.1 400"), "{head}");
    assert_eq!(problem["code"], "invalid_websocket_handshake");
}

#[tokio::test]
async fn http2_requests_are_refused_with_426() {
    let served = serve().await;
    let stream = TcpStream::connect(served.addr).await.unwrap();
    let (mut client, connection) = h2::client::handshake(stream).await.unwrap();
    tokio::spawn(connection);
    let request = http::Request::get(format!("http://{}/rooms/echo", served.addr))
        .body(())
        .unwrap();
    let (response, _) = client.send_request(request, true).unwrap();
    let response = response.await.unwrap();
    assert_eq!(response.status(), 426);
    let mut body = response.into_body();
    let mut raw = Vec::new();
    while let Some(chunk) = body.data().await {
        raw.extend_from_slice(&chunk.unwrap());
    }
    let problem: serde_json::Value = serde_json::from_slice(&raw).unwrap();
    assert_eq!(problem["code"], "upgrade_required");
    assert!(
        problem["detail"].as_str().unwrap().contains("RFC 8441"),
        "{problem}"
    );
}

/// A masked text frame from a client.
fn client_frame(text: &str) -> Vec<u8> {
    let mask = [7u8, 1, 9, 3];
    let mut frame = vec![0x81, 0x80 | u8::try_from(text.len()).unwrap()];
    frame.extend_from_slice(&mask);
    frame.extend(
        text.bytes()
            .enumerate()
            .map(|(index, byte)| byte ^ mask[index % 4]),
    );
    frame
}

#[tokio::test]
async fn a_first_frame_sent_with_the_handshake_is_read() {
    let served = serve().await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let message = serde_json::to_string(&say("early")).unwrap();
    let mut request =
        format!("GET /rooms/echo HTTP/1.1\r\nhost: x\r\n{HANDSHAKE}\r\n").into_bytes();
    request.extend(client_frame(&message));
    // One write: hyper reads the frame along with the handshake.
    stream.write_all(&request).await.unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 1024];
    let rest = loop {
        let read = stream.read(&mut buf).await.unwrap();
        assert!(read > 0);
        raw.extend_from_slice(&buf[..read]);
        if let Some(end) = raw.windows(4).position(|window| window == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            assert!(head.starts_with("http/1.1 101"), "{head}");
            assert!(
                head.contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="),
                "{head}"
            );
            break raw[end + 4..].to_vec();
        }
    };
    let mut client = WebSocketStream::from_partially_read(stream, rest, Role::Client, None).await;
    let answer = tokio::time::timeout(Duration::from_secs(5), client.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(answer, Message::text(message));
}

/// Random valid messages (the generator that SDK simulations and property
/// tests use) come back as they were sent.
#[tokio::test]
async fn random_valid_messages_round_trip() {
    let served = serve().await;
    let mut client = connect(served.addr, "/rooms/echo").await;
    let mut rng = SmallRng::seed_from_u64(12);
    for round in 0..200 {
        let message = <Say as Random>::random_with(&mut rng);
        client.send(json(&message)).await.unwrap();
        let Some(Message::Text(echoed)) = next(&mut client).await else {
            panic!("round {round}: {message:?} was not echoed");
        };
        let echoed: Say = serde_json::from_str(&echoed).unwrap();
        assert_eq!(echoed, message, "round {round}");
    }
}

#[test]
fn the_manifest_and_the_document_describe_both_messages() {
    let app = App::builder().controller(Rooms).build().unwrap();
    let manifest = app.manifest();
    let talk = manifest
        .routes
        .iter()
        .find(|route| route.handler == "talk")
        .unwrap();
    let websocket = talk.websocket.as_ref().expect("the route is a WebSocket");
    let name = |schema: &framework::schema::Schema| match schema {
        framework::schema::Schema::Ref(id) => manifest.get(*id).name.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        (name(&websocket.client), name(&websocket.server)),
        ("Say".to_owned(), "Said".to_owned())
    );
    let statuses: Vec<u16> = talk.errors.iter().map(|error| error.status).collect();
    assert_eq!(statuses, [400, 401, 403, 426]);
    assert_eq!(talk.responses[0].status, 101);
    assert_eq!(talk.status, 101);
    let echo = manifest
        .routes
        .iter()
        .find(|route| route.handler == "echo")
        .unwrap();
    assert_eq!(
        echo.errors[0].description,
        "The WebSocket handshake is malformed."
    );

    let document: serde_json::Value = serde_json::from_str(&app.openapi_json()).unwrap();
    let operation = &document["paths"]["/rooms/{room}"]["get"];
    let extension = &operation[framework::openapi::WEBSOCKET_EXTENSION];
    assert_eq!(
        extension["clientMessage"]["$ref"],
        "#/components/schemas/Say"
    );
    assert_eq!(
        extension["serverMessage"]["$ref"],
        "#/components/schemas/Said"
    );
    assert!(document["components"]["schemas"]["Addressee"].is_object());
    assert!(operation["responses"]["101"].is_object());
    assert!(operation["responses"]["426"]["content"]["application/problem+json"].is_object());
}
