//! Liveness (`GET /healthz`) and readiness (`GET /readyz`): readiness runs
//! the checks the app registers, each within a timeout, and answers `503`
//! once any fails or a graceful shutdown has begun.

use std::{fmt, future::Future, sync::Arc, time::Duration};

use http::{HeaderValue, StatusCode, header};
use serde::Serialize;

use crate::{
    body::{Body, Response},
    describe::RouteMeta,
    error::{DEFAULT_RETRY_AFTER, PROBLEM_JSON},
    route::BoxFuture,
    shutdown::Shutdown,
};

/// Where liveness is served.
pub const LIVENESS_PATH: &str = "/healthz";
/// Where readiness is served.
pub const READINESS_PATH: &str = "/readyz";

pub(crate) static LIVENESS_ROUTE: RouteMeta = super::operational_route("healthz", LIVENESS_PATH);
pub(crate) static READINESS_ROUTE: RouteMeta = super::operational_route("readyz", READINESS_PATH);

/// How long one check may take unless configured.
const DEFAULT_CHECK_TIMEOUT: Duration = Duration::from_secs(2);

type CheckFn = Box<dyn Fn() -> BoxFuture<Result<(), String>> + Send + Sync>;

struct Check {
    name: String,
    run: CheckFn,
}

/// Liveness and readiness endpoints, enabled with
/// [`AppBuilder::health`](crate::AppBuilder::health).
///
/// - `GET /healthz` answers `200` while the process serves requests, also
///   during a graceful shutdown (an orchestrator must not kill a replica
///   that is draining).
/// - `GET /readyz` runs every registered check at once, each within its
///   timeout, and answers `200` when all pass. Otherwise, and as soon as the
///   app's [`Shutdown`] has begun, it answers `503` with an
///   `application/problem+json` body (code `unavailable`, a `Retry-After`
///   header) whose `checks` list each failed check and why
///   (`failed`, `timed_out`, `shutting_down`); the error a check returned
///   goes to the log, not to the client.
///
/// ```
/// use std::time::Duration;
/// use framework::{Health, prelude::*};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder()
///     .health(
///         Health::new()
///             .timeout(Duration::from_millis(500))
///             .check("database", || async { Ok::<(), String>(()) })
///             .check("cache", || async { Err("connection refused") }),
///     )
///     .build()
///     .unwrap();
///
/// assert_eq!(app.test_client().get("/healthz").send().await.status(), 200);
/// let ready = app.test_client().get("/readyz").send().await;
/// assert_eq!(ready.status(), 503);
/// assert_eq!(ready.problem().code, "unavailable");
/// let body: serde_json::Value = ready.json();
/// assert_eq!(body["checks"], serde_json::json!([{ "name": "cache", "status": "failed" }]));
/// # });
/// ```
///
#[doc = include_str!("../docs/operations.md")]
#[must_use]
pub struct Health {
    checks: Vec<Check>,
    timeout: Duration,
    retry_after: u32,
}

impl Health {
    /// Liveness and readiness with no checks yet: readiness is `200` until
    /// a shutdown begins.
    pub fn new() -> Self {
        Health {
            checks: Vec::new(),
            timeout: DEFAULT_CHECK_TIMEOUT,
            retry_after: DEFAULT_RETRY_AFTER,
        }
    }

    /// Adds a readiness check: `check()` makes a future that resolves to
    /// `Ok(())` when the dependency is usable (e.g. `SELECT 1` on a pool).
    /// An `Err` fails readiness; its text is logged.
    pub fn check<F, Fut, E>(mut self, name: impl Into<String>, check: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), E>> + Send + 'static,
        E: fmt::Display,
    {
        self.checks.push(Check {
            name: name.into(),
            run: Box::new(move || {
                let future = check();
                Box::pin(async move { future.await.map_err(|err| err.to_string()) })
            }),
        });
        self
    }

    /// How long each check may take; a slower one counts as failed
    /// (`timed_out`). Two seconds unless configured.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The seconds a `503` tells clients to wait (`Retry-After`); one
    /// unless configured.
    pub fn retry_after(mut self, seconds: u32) -> Self {
        self.retry_after = seconds;
        self
    }
}

impl Default for Health {
    fn default() -> Self {
        Health::new()
    }
}

impl fmt::Debug for Health {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Health")
            .field(
                "checks",
                &self
                    .checks
                    .iter()
                    .map(|check| &check.name)
                    .collect::<Vec<_>>(),
            )
            .field("timeout", &self.timeout)
            .field("retry_after", &self.retry_after)
            .finish()
    }
}

/// What the two endpoints need at request time.
#[derive(Clone)]
pub(crate) struct HealthEndpoints {
    health: Arc<Health>,
    shutdown: Shutdown,
}

#[derive(Clone, Serialize)]
struct CheckReport<'a> {
    name: &'a str,
    status: &'static str,
}

#[derive(Serialize)]
struct Ready<'a> {
    status: &'static str,
    checks: Vec<CheckReport<'a>>,
}

#[derive(Serialize)]
struct NotReady<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    title: &'static str,
    status: u16,
    code: &'static str,
    detail: String,
    checks: Vec<CheckReport<'a>>,
}

impl HealthEndpoints {
    pub(crate) fn new(health: Health, shutdown: Shutdown) -> Self {
        HealthEndpoints {
            health: Arc::new(health),
            shutdown,
        }
    }

    /// `GET /healthz`.
    pub(crate) fn liveness() -> Response {
        json(
            StatusCode::OK,
            br#"{"status":"live"}"#.to_vec(),
            "application/json",
        )
    }

    /// `GET /readyz`.
    pub(crate) async fn readiness(self) -> Response {
        let health = &self.health;
        if self.shutdown.is_started() {
            return self.shutting_down();
        }
        let outcomes = futures_util::future::join_all(health.checks.iter().map(|check| async {
            match tokio::time::timeout(health.timeout, (check.run)()).await {
                Ok(Ok(())) => "passed",
                Ok(Err(err)) => {
                    tracing::warn!(check = %check.name, %err, "readiness check failed");
                    "failed"
                }
                Err(_elapsed) => {
                    tracing::warn!(
                        check = %check.name,
                        timeout_ms = health.timeout.as_millis() as u64,
                        "readiness check timed out"
                    );
                    "timed_out"
                }
            }
        }))
        .await;
        let reports: Vec<CheckReport<'_>> = health
            .checks
            .iter()
            .zip(outcomes)
            .map(|(check, status)| CheckReport {
                name: &check.name,
                status,
            })
            .collect();
        // A shutdown that began while the checks ran wins.
        if self.shutdown.is_started() {
            return self.shutting_down();
        }
        let failed: Vec<CheckReport<'_>> = reports
            .iter()
            .filter(|report| report.status != "passed")
            .cloned()
            .collect();
        if failed.is_empty() {
            let ready = Ready {
                status: "ready",
                checks: reports,
            };
            // Strings only: serializing cannot fail.
            let body = serde_json::to_vec(&ready).unwrap_or_default();
            return json(StatusCode::OK, body, "application/json");
        }
        let names: Vec<String> = failed
            .iter()
            .map(|report| format!("{} ({})", report.name, report.status))
            .collect();
        self.not_ready(format!("not ready: {}", names.join(", ")), failed)
    }

    fn shutting_down(&self) -> Response {
        let checks = vec![CheckReport {
            name: "shutdown",
            status: "shutting_down",
        }];
        self.not_ready("shutting down".to_owned(), checks)
    }

    fn not_ready(&self, detail: String, checks: Vec<CheckReport<'_>>) -> Response {
        let problem = NotReady {
            kind: "about:blank",
            title: "Service Unavailable",
            status: 503,
            code: "unavailable",
            detail,
            checks,
        };
        // Strings and numbers only: serializing cannot fail.
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        let mut response = json(StatusCode::SERVICE_UNAVAILABLE, body, PROBLEM_JSON);
        response.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from(self.health.retry_after),
        );
        response
    }
}

/// A JSON answer that no cache keeps.
fn json(status: StatusCode, body: Vec<u8>, media_type: &'static str) -> Response {
    let mut response = http::Response::new(Body::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(media_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
