//! Prometheus metrics (`GET /metrics`, OpenMetrics text) from a registry of
//! the app's own: requests by operation, method and status class, latency,
//! requests in flight, open connections, and what the app registers.

use std::{
    fmt,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Instant,
};

use http::{HeaderValue, StatusCode, header};
use http_body::{Frame, SizeHint};
use prometheus_client::{
    encoding::EncodeLabelSet,
    metrics::{counter::Counter, family::Family, gauge::Gauge, histogram::Histogram},
    registry::{Metric, Registry},
};

use crate::{
    body::{Body, Response},
    describe::{HttpMethod, RouteMeta},
    error::ApiError,
};

/// Where metrics are served.
pub const METRICS_PATH: &str = "/metrics";

pub(crate) static METRICS_ROUTE: RouteMeta = super::operational_route("metrics", METRICS_PATH);

/// The media type of the exposition.
const OPENMETRICS_TEXT: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Latency buckets in seconds unless configured: 0.5 ms to 10 s.
const DEFAULT_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The status classes counted: `1xx` to `5xx`.
const STATUS_CLASSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];

type SampleFn = Box<dyn Fn() -> i64 + Send + Sync>;

/// Prometheus metrics at `GET /metrics`, enabled with
/// [`AppBuilder::metrics`](crate::AppBuilder::metrics). Each app has a
/// registry of its own (no global recorder), so apps in one process keep
/// their counts apart.
///
/// The framework counts, for every route:
///
/// | metric | type | labels |
/// |---|---|---|
/// | `http_requests_total` | counter | `operation` (the OpenAPI operation id, `""` for requests no route matched), `method`, `status` (`2xx`..) |
/// | `http_request_duration_seconds` | histogram | `operation`, `method` (until the answer is complete) |
/// | `http_requests_in_flight` | gauge | |
/// | `http_open_connections` | gauge | (counted by [`Server`](crate::Server)) |
///
/// A request is counted by status as soon as its response head is ready;
/// it stays in flight, and its duration runs, until its answer is
/// complete: a complete body as soon as the handler returns it, a streamed
/// body (a file, server-sent events) when its last frame is produced or
/// the client goes away. So an open event stream counts as one request in
/// flight, and its duration is the stream's lifetime: filter such
/// operations out of latency percentiles by their `operation` label.
/// A request whose client went away before its response head was ready is
/// not counted in the first two. Label sets are made when the app is
/// built, so counting a request takes no allocation.
///
/// ```
/// use framework::{Metrics, prelude::*, prometheus_client::metrics::counter::Counter};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let logins = Counter::<u64>::default();
/// let app = App::builder()
///     .metrics(
///         Metrics::new()
///             .register("logins", "Sign-ins accepted", logins.clone())
///             .gauge_fn("pool_connections", "Open database connections", || 4),
///     )
///     .build()
///     .unwrap();
/// logins.inc();
///
/// let scrape = app.test_client().get("/metrics").send().await;
/// assert_eq!(scrape.status(), 200);
/// assert!(scrape.text().contains("logins_total 1"));
/// assert!(scrape.text().contains("pool_connections 4"));
/// # });
/// ```
#[must_use]
pub struct Metrics {
    registry: Registry,
    sampled: Vec<(Gauge, SampleFn)>,
    buckets: Vec<f64>,
}

impl Metrics {
    /// A registry with the framework's HTTP metrics only.
    pub fn new() -> Self {
        Metrics {
            registry: Registry::default(),
            sampled: Vec::new(),
            buckets: DEFAULT_BUCKETS.to_vec(),
        }
    }

    /// Registers a metric of the app's: keep a clone (metrics are handles
    /// to shared values) and update it from handlers.
    pub fn register(
        mut self,
        name: impl Into<String>,
        help: impl Into<String>,
        metric: impl Metric,
    ) -> Self {
        self.registry.register(name, help, metric);
        self
    }

    /// Registers a gauge whose value `sample` reads at every scrape, e.g.
    /// a connection pool's size.
    pub fn gauge_fn(
        mut self,
        name: impl Into<String>,
        help: impl Into<String>,
        sample: impl Fn() -> i64 + Send + Sync + 'static,
    ) -> Self {
        let gauge = Gauge::default();
        self.registry.register(name, help, gauge.clone());
        self.sampled.push((gauge, Box::new(sample)));
        self
    }

    /// The upper bounds, in seconds, of the latency histogram's buckets.
    pub fn latency_buckets(mut self, buckets: impl IntoIterator<Item = f64>) -> Self {
        self.buckets = buckets.into_iter().collect();
        self
    }

    /// Registers the HTTP metrics with a label set per route (`routes`
    /// yields each endpoint's operation id and metadata, in endpoint
    /// order) and returns what requests and the endpoint use.
    pub(crate) fn build<'a>(
        mut self,
        routes: impl IntoIterator<Item = (&'a str, &'static RouteMeta)>,
    ) -> (Arc<HttpMetrics>, MetricsEndpoint) {
        let requests = Family::<RequestLabels, Counter>::default();
        let buckets = self.buckets.clone();
        let durations = Family::<DurationLabels, Histogram, _>::new_with_constructor(move || {
            Histogram::new(buckets.iter().copied())
        });
        let method_metrics = |operation: &str, method: &'static str| MethodMetrics {
            statuses: STATUS_CLASSES.map(|status| {
                requests
                    .get_or_create(&RequestLabels {
                        operation: operation.to_owned(),
                        method,
                        status,
                    })
                    .clone()
            }),
            duration: durations
                .get_or_create(&DurationLabels {
                    operation: operation.to_owned(),
                    method,
                })
                .clone(),
        };
        let endpoints = routes
            .into_iter()
            .map(|(operation, meta)| EndpointMetrics {
                main: method_metrics(operation, meta.method.as_str()),
                head: (meta.method == HttpMethod::Get).then(|| method_metrics(operation, "HEAD")),
            })
            .collect();
        let unmatched = method_metrics("", "");
        let in_flight = Gauge::default();
        let connections: Gauge = Gauge::default();
        self.registry.register(
            "http_requests",
            "HTTP requests answered, by operation, method and status class",
            requests,
        );
        self.registry.register(
            "http_request_duration_seconds",
            "Time to a complete answer, by operation and method",
            durations,
        );
        self.registry.register(
            "http_requests_in_flight",
            "HTTP requests being answered",
            in_flight.clone(),
        );
        self.registry.register(
            "http_open_connections",
            "Connections open to the server",
            connections.clone(),
        );
        let metrics = HttpMetrics {
            endpoints,
            unmatched,
            in_flight,
            #[cfg(feature = "server")]
            connections,
        };
        let endpoint = MetricsEndpoint {
            registry: Arc::new(self.registry),
            sampled: Arc::new(self.sampled),
        };
        (Arc::new(metrics), endpoint)
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl fmt::Debug for Metrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Metrics")
            .field("registry", &self.registry)
            .field("buckets", &self.buckets)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    operation: String,
    method: &'static str,
    status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DurationLabels {
    operation: String,
    method: &'static str,
}

/// The counters of one route and method, made when the app is built.
struct MethodMetrics {
    statuses: [Counter; 5],
    duration: Histogram,
}

struct EndpointMetrics {
    main: MethodMetrics,
    /// `HEAD`, answered by a `GET` route.
    head: Option<MethodMetrics>,
}

/// The HTTP metrics requests update.
pub(crate) struct HttpMetrics {
    endpoints: Vec<EndpointMetrics>,
    unmatched: MethodMetrics,
    in_flight: Gauge,
    /// Counted by the server, so only with the `server` feature (the
    /// metric is registered either way and stays 0 without).
    #[cfg(feature = "server")]
    connections: Gauge,
}

impl HttpMetrics {
    /// Starts counting a request: `endpoint` is the index of the route that
    /// serves it, `None` when none does.
    pub(crate) fn start(self: &Arc<Self>, endpoint: Option<usize>, head: bool) -> Observed {
        self.in_flight.inc();
        Observed {
            metrics: Arc::clone(self),
            endpoint,
            head,
            start: Instant::now(),
        }
    }

    /// The gauge of open connections, which the server counts.
    #[cfg(feature = "server")]
    pub(crate) fn connections(&self) -> &Gauge {
        &self.connections
    }

    fn of(&self, endpoint: Option<usize>, head: bool) -> &MethodMetrics {
        match endpoint.and_then(|index| self.endpoints.get(index)) {
            Some(endpoint) if head => endpoint.head.as_ref().unwrap_or(&endpoint.main),
            Some(endpoint) => &endpoint.main,
            None => &self.unmatched,
        }
    }
}

/// One request being counted; counted out of the in-flight gauge when
/// dropped.
pub(crate) struct Observed {
    metrics: Arc<HttpMetrics>,
    endpoint: Option<usize>,
    head: bool,
    start: Instant,
}

impl Observed {
    /// Counts the answer's status, once its head is ready.
    pub(crate) fn count(&self, status: StatusCode) {
        let class = usize::from(status.as_u16() / 100).clamp(1, 5) - 1;
        self.metrics.of(self.endpoint, self.head).statuses[class].inc();
    }

    /// Counts the time the answer took, once it is complete.
    fn time(&self) {
        let metrics = self.metrics.of(self.endpoint, self.head);
        metrics.duration.observe(self.start.elapsed().as_secs_f64());
    }

    /// Counts a complete answer (status and time); the request leaves the
    /// in-flight gauge when this is dropped.
    pub(crate) fn finish(self, status: StatusCode) {
        self.count(status);
        self.time();
    }

    /// Counts the status of an answer whose body is a stream now, and its
    /// time and end once the body has ended (or the client has gone away):
    /// until then the request stays in flight.
    pub(crate) fn finish_streamed(self, response: Response) -> Response {
        self.count(response.status());
        response.map(|body| {
            Body::new(ObservedBody {
                body,
                observed: Some(self),
            })
        })
    }
}

impl Drop for Observed {
    fn drop(&mut self) {
        self.metrics.in_flight.dec();
    }
}

/// A streamed response body that counts its request's time and leaves the
/// in-flight gauge when it ends or is dropped.
struct ObservedBody {
    body: Body,
    /// `None` once counted.
    observed: Option<Observed>,
}

impl ObservedBody {
    fn done(&mut self) {
        if let Some(observed) = self.observed.take() {
            observed.time();
        }
    }
}

impl http_body::Body for ObservedBody {
    type Data = bytes::Bytes;
    type Error = crate::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<bytes::Bytes>, Self::Error>>> {
        let frame = std::task::ready!(Pin::new(&mut self.body).poll_frame(cx));
        if !matches!(frame, Some(Ok(_))) || self.body.is_end_stream() {
            self.done();
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

impl Drop for ObservedBody {
    fn drop(&mut self) {
        self.done();
    }
}

/// `GET /metrics`.
#[derive(Clone)]
pub(crate) struct MetricsEndpoint {
    registry: Arc<Registry>,
    sampled: Arc<Vec<(Gauge, SampleFn)>>,
}

impl MetricsEndpoint {
    pub(crate) fn answer(&self) -> Response {
        for (gauge, sample) in self.sampled.iter() {
            gauge.set(sample());
        }
        let mut text = String::new();
        if let Err(err) = prometheus_client::encoding::text::encode(&mut text, &self.registry) {
            return ApiError::internal(format_args!("metrics could not be encoded: {err}"))
                .into_response();
        }
        let mut response = http::Response::new(Body::from(text));
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(OPENMETRICS_TEXT),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}
