//! Operational endpoints an app opts into: liveness and readiness for a
//! load balancer or an orchestrator ([`Health`]), Prometheus metrics
//! (`Metrics`, with the `metrics` feature; without it `uncounted.rs`
//! stands in, with types that have no values, so nothing is counted and
//! nothing costs).
//!
//! They are served by the framework itself, like `/openapi.json`: they are
//! not the app's API, so they appear neither in the OpenAPI document nor in
//! the SDKs, though their paths take part in route-conflict checks.

mod health;
#[cfg(feature = "metrics")]
mod metrics;
#[cfg(not(feature = "metrics"))]
mod uncounted;

pub use health::{Health, LIVENESS_PATH, READINESS_PATH};
pub(crate) use health::{HealthEndpoints, LIVENESS_ROUTE, READINESS_ROUTE};
#[cfg(feature = "metrics")]
pub(crate) use metrics::{HttpMetrics, METRICS_ROUTE, Observed};
#[cfg(feature = "metrics")]
pub use metrics::{METRICS_PATH, Metrics};
#[cfg(all(feature = "metrics", feature = "server"))]
pub(crate) use prometheus_client::metrics::gauge::Gauge as ConnectionsGauge;
#[cfg(all(not(feature = "metrics"), feature = "server"))]
pub(crate) use uncounted::ConnectionsGauge;
#[cfg(not(feature = "metrics"))]
pub(crate) use uncounted::{HttpMetrics, Observed};

use crate::describe::RouteMeta;

/// The metadata of an operational `GET` route (`sdk: false`; never in a
/// document).
pub(crate) const fn operational_route(handler: &'static str, path: &'static str) -> RouteMeta {
    RouteMeta::framework_get(handler, path, path)
}
