//! What the app and the server count with when the `metrics` feature is
//! off: types with no values, so that `Option<Observed>` and the other
//! slots that hold them are always `None`, take no space, and the code
//! that would count compiles to nothing. The app and the server are the
//! same with and without the feature; only this file and `metrics.rs`
//! differ.

use http::StatusCode;

use crate::body::Response;

/// The HTTP metrics requests update: none without the `metrics` feature.
pub(crate) enum HttpMetrics {}

impl HttpMetrics {
    pub(crate) fn start(&self, _endpoint: Option<usize>, _head: bool) -> Observed {
        match *self {}
    }

    /// The gauge of open connections, which the server counts.
    #[cfg(feature = "server")]
    pub(crate) fn connections(&self) -> &ConnectionsGauge {
        match *self {}
    }
}

/// One request being counted: none without the `metrics` feature.
pub(crate) enum Observed {}

impl Observed {
    pub(crate) fn finish(self, _status: StatusCode) {
        match self {}
    }

    pub(crate) fn finish_streamed(self, _response: Response) -> Response {
        match self {}
    }
}

/// A gauge of open connections: none without the `metrics` feature.
#[cfg(feature = "server")]
#[derive(Clone, Debug)]
pub(crate) enum ConnectionsGauge {}

#[cfg(feature = "server")]
impl ConnectionsGauge {
    pub(crate) fn inc(&self) -> i64 {
        match *self {}
    }

    pub(crate) fn dec(&self) -> i64 {
        match *self {}
    }
}
