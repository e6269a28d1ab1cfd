//! Health, readiness, the shutdown signal and metrics: in-process where no
//! socket is involved, over a real server where shutdown and connections
//! are.

use std::{net::SocketAddr, time::Duration};

use bytes::Bytes;
use framework::{Health, Metrics, prelude::*};
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;
use prometheus_parse::{Sample, Scrape, Value};
use tokio::{net::TcpListener, sync::oneshot};

struct Work;

#[controller("")]
impl Work {
    #[typed_route::get("ping")]
    async fn ping(&self) -> &'static str {
        "pong"
    }

    #[typed_route::get("sleep/:ms")]
    async fn sleep(&self, #[param] ms: u64) -> u64 {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        ms
    }

    #[typed_route::post("items")]
    async fn create(&self, body: TypedBody<u64>) -> u64 {
        body.into_inner()
    }
}

fn scrape(text: &str) -> Vec<Sample> {
    Scrape::parse(text.lines().map(|line| Ok(line.to_owned())))
        .expect("a well-formed exposition")
        .samples
}

/// The value of the one sample named `name` whose labels include `labels`.
fn value(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> f64 {
    let found: Vec<&Sample> = samples
        .iter()
        .filter(|sample| sample.metric == name)
        .filter(|sample| {
            labels
                .iter()
                .all(|(key, value)| sample.labels.get(key) == Some(*value))
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one sample {name} {labels:?} in {samples:#?}"
    );
    match &found[0].value {
        Value::Counter(value) | Value::Gauge(value) | Value::Untyped(value) => *value,
        Value::Histogram(_) | Value::Summary(_) => panic!("{name} is not a single number"),
    }
}

fn histogram_count(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> f64 {
    let buckets = samples
        .iter()
        .filter(|sample| sample.metric == name)
        .find(|sample| {
            labels
                .iter()
                .all(|(key, value)| sample.labels.get(key) == Some(*value))
        })
        .unwrap_or_else(|| panic!("a histogram {name} {labels:?} in {samples:#?}"));
    match &buckets.value {
        // The `+Inf` bucket counts every observation.
        Value::Histogram(counts) => counts
            .iter()
            .find(|bucket| bucket.less_than.is_infinite())
            .map(|bucket| bucket.count)
            .expect("a +Inf bucket"),
        other => panic!("{name} is not a histogram: {other:?}"),
    }
}

#[tokio::test]
async fn readiness_lists_the_failed_checks_and_liveness_stays_up() {
    let app = App::builder()
        .controller(Work)
        .health(
            Health::new()
                .retry_after(7)
                .check("database", || async { Ok::<(), String>(()) })
                .check("queue", || async { Err("connection refused") }),
        )
        .build()
        .unwrap();

    let live = app.test_client().get("/healthz").send().await;
    assert_eq!(live.status(), 200);
    assert_eq!(live.json::<serde_json::Value>()["status"], "live");

    let ready = app.test_client().get("/readyz").send().await;
    assert_eq!(ready.status(), 503);
    assert_eq!(ready.headers()["content-type"], "application/problem+json");
    assert_eq!(ready.headers()["retry-after"], "7");
    assert_eq!(ready.problem().code, "unavailable");
    assert_eq!(ready.problem().detail, "not ready: queue (failed)");
    let body: serde_json::Value = ready.json();
    assert_eq!(
        body["checks"],
        serde_json::json!([{ "name": "queue", "status": "failed" }]),
        "only the failed check is listed, without its error text"
    );
}

#[tokio::test]
async fn readiness_passes_when_every_check_does() {
    let app = App::builder()
        .health(
            Health::new()
                .check("database", || async { Ok::<(), String>(()) })
                .check("cache", || async { Ok::<(), String>(()) }),
        )
        .build()
        .unwrap();
    let ready = app.test_client().get("/readyz").send().await;
    assert_eq!(ready.status(), 200);
    assert_eq!(
        ready.json::<serde_json::Value>(),
        serde_json::json!({
            "status": "ready",
            "checks": [
                { "name": "database", "status": "passed" },
                { "name": "cache", "status": "passed" },
            ],
        })
    );
}

#[tokio::test]
async fn a_check_that_hangs_times_out() {
    let app = App::builder()
        .health(
            Health::new()
                .timeout(Duration::from_millis(100))
                .check("database", || async { Ok::<(), String>(()) })
                .check("stuck", std::future::pending::<Result<(), String>>),
        )
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let ready = tokio::time::timeout(
        Duration::from_secs(5),
        app.test_client().get("/readyz").send(),
    )
    .await
    .expect("readiness answers although a check never completes");
    assert!(started.elapsed() >= Duration::from_millis(100));
    assert_eq!(ready.status(), 503);
    let body: serde_json::Value = ready.json();
    assert_eq!(
        body["checks"],
        serde_json::json!([{ "name": "stuck", "status": "timed_out" }])
    );
}

#[tokio::test]
async fn operational_routes_stay_out_of_the_document_the_manifest_and_routes() {
    let app = App::builder()
        .controller(Work)
        .health(Health::new())
        .metrics(Metrics::new())
        .build()
        .unwrap();
    let document: serde_json::Value = serde_json::from_str(&app.openapi_json()).unwrap();
    let paths: Vec<&String> = document["paths"].as_object().unwrap().keys().collect();
    assert_eq!(paths, ["/items", "/ping", "/sleep/{ms}"]);
    assert!(
        app.manifest()
            .routes
            .iter()
            .all(|route| !["/healthz", "/readyz", "/metrics"].contains(&route.path.as_str()))
    );
    assert_eq!(app.routes().len(), 3);
    // The paths are taken: a route of the app's own there is a conflict.
    struct Mine;
    #[controller("")]
    impl Mine {
        #[typed_route::get("metrics")]
        async fn metrics(&self) -> &'static str {
            "mine"
        }
    }
    assert!(
        App::builder()
            .controller(Mine)
            .metrics(Metrics::new())
            .build()
            .is_err()
    );
    let without = App::builder().controller(Work).build().unwrap();
    assert_eq!(
        without.test_client().get("/metrics").send().await.status(),
        404
    );
    assert_eq!(
        without.test_client().get("/readyz").send().await.status(),
        404
    );
}

#[tokio::test]
async fn metrics_count_requests_by_operation_method_and_status_class() {
    let logins = framework::prometheus_client::metrics::counter::Counter::<u64>::default();
    let app = App::builder()
        .controller(Work)
        .metrics(
            Metrics::new()
                .register("logins", "Sign-ins", logins.clone())
                .gauge_fn("pool_idle", "Idle connections", || 3),
        )
        .build()
        .unwrap();
    // Another app in the same process: its counts stay its own.
    let other = App::builder()
        .controller(Work)
        .metrics(Metrics::new())
        .build()
        .unwrap();

    let client = app.test_client();
    for _ in 0..3 {
        assert_eq!(client.get("/ping").send().await.status(), 200);
    }
    assert_eq!(
        client
            .request(http::Method::HEAD, "/ping")
            .send()
            .await
            .status(),
        200
    );
    assert_eq!(client.get("/sleep/x").send().await.status(), 400);
    assert_eq!(client.post("/items").json(&5).send().await.status(), 201);
    assert_eq!(
        client.post("/items").json(&"five").send().await.status(),
        400
    );
    assert_eq!(client.get("/nothing").send().await.status(), 404);
    assert_eq!(client.delete("/ping").send().await.status(), 405);
    logins.inc_by(2);
    assert_eq!(other.test_client().get("/ping").send().await.status(), 200);

    let answer = client.get("/metrics").send().await;
    assert_eq!(answer.status(), 200);
    assert!(
        answer.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
    let samples = scrape(&answer.text());
    let requests = |operation, method, status| {
        value(
            &samples,
            "http_requests_total",
            &[
                ("operation", operation),
                ("method", method),
                ("status", status),
            ],
        )
    };
    assert_eq!(requests("ping", "GET", "2xx"), 3.0);
    assert_eq!(requests("ping", "HEAD", "2xx"), 1.0);
    assert_eq!(requests("ping", "GET", "4xx"), 0.0);
    assert_eq!(requests("sleep", "GET", "4xx"), 1.0);
    assert_eq!(requests("items.create", "POST", "2xx"), 1.0);
    assert_eq!(requests("items.create", "POST", "4xx"), 1.0);
    // No route: one label set for all of them.
    assert_eq!(requests("", "", "4xx"), 2.0);
    assert_eq!(
        histogram_count(
            &samples,
            "http_request_duration_seconds",
            &[("operation", "ping"), ("method", "GET")]
        ),
        3.0
    );
    // The scrape itself is the one request in flight.
    assert_eq!(value(&samples, "http_requests_in_flight", &[]), 1.0);
    assert_eq!(value(&samples, "logins_total", &[]), 2.0);
    assert_eq!(value(&samples, "pool_idle", &[]), 3.0);
    // In process, no connections.
    assert_eq!(value(&samples, "http_open_connections", &[]), 0.0);

    let other = scrape(&other.test_client().get("/metrics").send().await.text());
    assert_eq!(
        value(
            &other,
            "http_requests_total",
            &[("operation", "ping"), ("method", "GET"), ("status", "2xx")]
        ),
        1.0
    );
    assert!(!other.iter().any(|sample| sample.metric == "logins_total"));
}

struct Ticks;

#[controller("")]
impl Ticks {
    #[typed_route::get("ticks")]
    async fn ticks(&self) -> framework::sse::Sse<u64> {
        framework::sse::Sse::new(futures_util::stream::iter(
            (1..=3).map(framework::sse::Event::new),
        ))
    }
}

/// A streamed answer is counted by status at its head, and stays in
/// flight, its duration running, until its body has ended.
#[tokio::test]
async fn a_streamed_answer_is_in_flight_until_its_body_ends() {
    let app = App::builder()
        .controller(Ticks)
        .metrics(Metrics::new())
        .build()
        .unwrap();
    let request = || {
        http::Request::get("/ticks")
            .body(http_body_util::Empty::<Bytes>::new())
            .unwrap()
    };
    let stream = app.handle(request()).await;
    assert_eq!(stream.status(), 200);
    let labels = [("operation", "ticks"), ("method", "GET")];
    let samples = scrape(&app.test_client().get("/metrics").send().await.text());
    let counted = [labels[0], labels[1], ("status", "2xx")];
    assert_eq!(value(&samples, "http_requests_total", &counted), 1.0);
    assert_eq!(
        value(&samples, "http_requests_in_flight", &[]),
        2.0,
        "the open stream and the scrape"
    );
    assert_eq!(
        histogram_count(&samples, "http_request_duration_seconds", &labels),
        0.0
    );

    let body = stream.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body, "data: 1\n\ndata: 2\n\ndata: 3\n\n");
    let samples = scrape(&app.test_client().get("/metrics").send().await.text());
    assert_eq!(value(&samples, "http_requests_in_flight", &[]), 1.0);
    assert_eq!(
        histogram_count(&samples, "http_request_duration_seconds", &labels),
        1.0
    );

    // A client that goes away mid-stream ends it as well.
    drop(app.handle(request()).await);
    let samples = scrape(&app.test_client().get("/metrics").send().await.text());
    assert_eq!(value(&samples, "http_requests_in_flight", &[]), 1.0);
    assert_eq!(value(&samples, "http_requests_total", &counted), 2.0);
    assert_eq!(
        histogram_count(&samples, "http_request_duration_seconds", &labels),
        2.0
    );
}

/// A server on a random port, stopped when `stop` is sent.
struct Running {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

async fn serve(app: App, drain_delay: Duration) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener)
        .shutdown_timeout(Duration::from_secs(5))
        .drain_delay(drain_delay);
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

/// A keep-alive HTTP/1.1 connection.
struct Connection {
    sender: hyper::client::conn::http1::SendRequest<Empty<Bytes>>,
}

impl Connection {
    async fn open(addr: SocketAddr) -> Connection {
        let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .unwrap();
        tokio::spawn(connection);
        Connection { sender }
    }

    async fn get(&mut self, path: &str) -> (u16, http::HeaderMap, String) {
        self.sender.ready().await.unwrap();
        let request = http::Request::get(path)
            .header("host", "test")
            .body(Empty::new())
            .unwrap();
        let response = self.sender.send_request(request).await.unwrap();
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, headers, String::from_utf8(body.to_vec()).unwrap())
    }
}

async fn get(addr: SocketAddr, path: &str) -> (u16, http::HeaderMap, String) {
    Connection::open(addr).await.get(path).await
}

#[tokio::test]
async fn shutdown_turns_readiness_503_while_in_flight_requests_finish() {
    let app = App::builder()
        .controller(Work)
        .health(Health::new().check("database", || async { Ok::<(), String>(()) }))
        .build()
        .unwrap();
    let shutdown = app.shutdown().clone();
    let mut running = serve(app, Duration::from_millis(600)).await;
    let addr = running.addr;
    assert_eq!(get(addr, "/readyz").await.0, 200);
    assert!(!shutdown.is_started());

    let slow = tokio::spawn(async move { get(addr, "/sleep/900").await });
    tokio::time::sleep(Duration::from_millis(150)).await;
    running.stop.take().unwrap().send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(1), shutdown.started())
        .await
        .expect("the server begins the app's shutdown signal");

    // Draining: still accepting, no longer ready, still alive.
    let (status, headers, body) = get(addr, "/readyz").await;
    assert_eq!(status, 503);
    assert_eq!(headers["retry-after"], "1");
    let problem: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(problem["code"], "unavailable");
    assert_eq!(
        problem["checks"],
        serde_json::json!([{ "name": "shutdown", "status": "shutting_down" }])
    );
    assert_eq!(get(addr, "/healthz").await.0, 200);
    assert!(!slow.is_finished(), "the slow request is still in flight");

    let (status, _, body) = slow.await.unwrap();
    assert_eq!((status, body.as_str()), (200, "900"));
    tokio::time::timeout(Duration::from_secs(5), running.task)
        .await
        .expect("the server stops after draining")
        .unwrap()
        .unwrap();
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}

/// Once draining, every HTTP/1 answer closes its connection (so a load
/// balancer stops reusing it), and a connection the kernel had queued when
/// the listener closes is served, not reset.
#[tokio::test]
async fn draining_answers_close_their_connection_and_queued_connections_are_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let app = App::builder().controller(Work).build().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    // One connection at a time: a second one waits in the kernel's queue.
    let server = Server::from_listener(listener)
        .max_connections(1)
        .drain_delay(Duration::from_millis(200));
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.serve_with_shutdown(app, async {
        let _ = stopped.await;
    }));

    let mut first = Connection::open(addr).await;
    let (status, headers, _) = first.get("/ping").await;
    assert_eq!(status, 200);
    assert!(
        headers.get("connection").is_none(),
        "kept alive: {headers:?}"
    );
    let slow = tokio::spawn(async move { first.get("/sleep/700").await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut queued = tokio::net::TcpStream::connect(addr).await.unwrap();
    queued
        .write_all(b"GET /ping HTTP/1.1\r\nhost: test\r\n\r\n")
        .await
        .unwrap();
    stop.send(()).unwrap();

    let (status, headers, body) = slow.await.unwrap();
    assert_eq!((status, body.as_str()), (200, "700"));
    assert_eq!(headers["connection"], "close", "answered while draining");
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(5), queued.read_to_string(&mut answer))
        .await
        .expect("the queued connection is answered and closed")
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(answer.contains("\r\nconnection: close\r\n"), "{answer}");
    assert!(answer.ends_with("\r\n\r\npong"), "{answer}");
    task.await.unwrap().unwrap();
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn without_a_drain_delay_the_server_stops_accepting_at_once() {
    let app = App::builder()
        .controller(Work)
        .health(Health::new())
        .build()
        .unwrap();
    let shutdown = app.shutdown().clone();
    let mut running = serve(app, Duration::ZERO).await;
    let addr = running.addr;
    let slow = tokio::spawn(async move { get(addr, "/sleep/400").await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    running.stop.take().unwrap().send(()).unwrap();
    let (status, _, body) = slow.await.unwrap();
    assert_eq!((status, body.as_str()), (200, "400"));
    assert!(shutdown.is_started());
    running.task.await.unwrap().unwrap();
}

#[tokio::test]
async fn in_process_the_signal_never_starts_unless_begun() {
    let app = App::builder()
        .controller(Work)
        .health(Health::new())
        .build()
        .unwrap();
    let started = app.shutdown().started();
    assert!(
        tokio::time::timeout(Duration::from_millis(50), started)
            .await
            .is_err()
    );
    assert_eq!(app.test_client().get("/readyz").send().await.status(), 200);
    app.begin_shutdown();
    assert_eq!(app.test_client().get("/readyz").send().await.status(), 503);
}

#[tokio::test]
async fn the_server_counts_open_connections() {
    let app = App::builder()
        .controller(Work)
        .metrics(Metrics::new())
        .build()
        .unwrap();
    let mut running = serve(app, Duration::ZERO).await;
    let mut first = Connection::open(running.addr).await;
    let mut second = Connection::open(running.addr).await;
    assert_eq!(first.get("/ping").await.0, 200);
    assert_eq!(second.get("/ping").await.0, 200);
    let samples = scrape(&first.get("/metrics").await.2);
    assert_eq!(value(&samples, "http_open_connections", &[]), 2.0);
    drop(second);
    // The server sees the close when it next reads the connection.
    let mut open = 2.0;
    for _ in 0..50 {
        let samples = scrape(&first.get("/metrics").await.2);
        open = value(&samples, "http_open_connections", &[]);
        if open == 1.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(open, 1.0);
    running.stop.take().unwrap().send(()).unwrap();
    drop(first);
    running.task.await.unwrap().unwrap();
}

#[tokio::test]
async fn handlers_see_the_shutdown_signal() {
    struct Watcher;

    #[controller("")]
    impl Watcher {
        /// Waits for the shutdown, as a long stream would.
        #[typed_route::get("until-shutdown")]
        async fn until_shutdown(&self, shutdown: framework::Shutdown) -> &'static str {
            shutdown.started().await;
            "stopped"
        }
    }

    let app = App::builder().controller(Watcher).build().unwrap();
    let waiting = tokio::spawn({
        let app = app.clone();
        async move { app.test_client().get("/until-shutdown").send().await }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!waiting.is_finished());
    app.begin_shutdown();
    let answer = tokio::time::timeout(Duration::from_secs(2), waiting)
        .await
        .expect("the handler ends once the shutdown begins")
        .unwrap();
    assert_eq!(answer.text(), "stopped");
}

/// The fields of every span opened, as recorded.
#[derive(Clone, Default)]
struct Spans(std::sync::Arc<std::sync::Mutex<Vec<std::collections::HashMap<String, String>>>>);

struct Fields<'a>(&'a mut std::collections::HashMap<String, String>);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl tracing::Subscriber for Spans {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let mut fields = std::collections::HashMap::new();
        fields.insert("span".to_owned(), span.metadata().name().to_owned());
        span.record(&mut Fields(&mut fields));
        let mut spans = self.0.lock().unwrap();
        spans.push(fields);
        tracing::span::Id::from_u64(spans.len() as u64)
    }

    fn record(&self, span: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut spans = self.0.lock().unwrap();
        let index = usize::try_from(span.into_u64() - 1).unwrap();
        values.record(&mut Fields(&mut spans[index]));
    }

    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn every_request_span_has_its_operation_and_status() {
    let spans = Spans::default();
    let _default = tracing::subscriber::set_default(spans.clone());
    let app = App::builder().controller(Work).build().unwrap();
    assert_eq!(app.test_client().get("/ping").send().await.status(), 200);
    assert_eq!(app.test_client().get("/sleep/x").send().await.status(), 400);
    assert_eq!(app.test_client().get("/nothing").send().await.status(), 404);

    let requests: Vec<_> = spans
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|fields| fields["span"] == "request")
        .map(|fields| {
            let field = |name: &str| fields.get(name).cloned().unwrap_or_default();
            (
                field("method"),
                field("path"),
                field("operation"),
                field("status"),
            )
        })
        .collect();
    let expected = [
        ("GET", "/ping", "ping", "200"),
        ("GET", "/sleep/x", "sleep", "400"),
        ("GET", "/nothing", "", "404"),
    ]
    .map(|(method, path, operation, status)| {
        (
            method.to_owned(),
            path.to_owned(),
            operation.to_owned(),
            status.to_owned(),
        )
    });
    assert_eq!(requests, expected);
}

#[tokio::test]
async fn a_layered_app_given_to_the_server_is_connected_once() {
    let app = App::builder()
        .controller(Work)
        .health(Health::new())
        .metrics(Metrics::new())
        .build()
        .unwrap();
    let layered = tower::ServiceBuilder::new()
        .map_response(|response: framework::Response| response)
        .service(app.clone());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::from_listener(listener)
        .for_app(&app)
        .for_app(&app.clone());
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.serve_with_shutdown(layered, async {
        let _ = stopped.await;
    }));
    let mut connection = Connection::open(addr).await;
    let samples = scrape(&connection.get("/metrics").await.2);
    assert_eq!(value(&samples, "http_open_connections", &[]), 1.0);
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(1), app.shutdown().started())
        .await
        .expect("the layered app's signal begins with the server's shutdown");
    drop(connection);
    task.await.unwrap().unwrap();
}
