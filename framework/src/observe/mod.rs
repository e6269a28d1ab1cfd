//! Operational endpoints an app opts into: liveness and readiness for a
//! load balancer or an orchestrator ([`Health`]), Prometheus metrics
//! ([`Metrics`]).
//!
//! They are served by the framework itself, like `/openapi.json`: they are
//! not the app's API, so they appear neither in the OpenAPI document nor in
//! the SDKs, though their paths take part in route-conflict checks.

mod health;
mod metrics;

pub use health::{Health, LIVENESS_PATH, READINESS_PATH};
pub(crate) use health::{HealthEndpoints, LIVENESS_ROUTE, READINESS_ROUTE};
pub(crate) use metrics::{HttpMetrics, METRICS_ROUTE, Observed};
pub use metrics::{METRICS_PATH, Metrics};

use crate::describe::RouteMeta;

/// The metadata of an operational `GET` route (`sdk: false`; never in a
/// document).
pub(crate) const fn operational_route(handler: &'static str, path: &'static str) -> RouteMeta {
    RouteMeta::framework_get(handler, path, path)
}
