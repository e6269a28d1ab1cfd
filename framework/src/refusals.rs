//! Every refused input of a request, reported in one `400`.

use http::StatusCode;

use crate::{
    body::Response,
    error::{ApiError, refusal},
};

/// Collects what the extractors of one request refused, so a request whose
/// path, query and headers are all wrong hears of every problem at once.
/// A refusal that is not a validation problem (a guard's `401`, a `413`)
/// stops the request at once. A `426` (a WebSocket route asked without a
/// handshake) is answered only when nothing else was refused, so a plain
/// `GET` to such a route learns what its handshake would be refused for.
/// Kept by a request's [`Arguments`](crate::arguments::Arguments) once
/// something is refused.
#[derive(Debug, Default)]
pub(crate) struct Refusals {
    refused: Vec<ApiError>,
    /// The first `426`, answered if nothing else is refused.
    upgrade: Option<ApiError>,
}

impl Refusals {
    /// The value, `None` after a validation refusal (kept for the report)
    /// or a `426` (answered if nothing else is refused), or the refusal
    /// that ends the request.
    pub(crate) fn keep<T>(&mut self, result: Result<T, ApiError>) -> Result<Option<T>, ApiError> {
        match result {
            Ok(value) => Ok(Some(value)),
            Err(err) if is_validation(&err) => {
                self.refused.push(err);
                Ok(None)
            }
            Err(err) if err.status() == StatusCode::UPGRADE_REQUIRED => {
                self.upgrade.get_or_insert(err);
                Ok(None)
            }
            Err(err) => Err(err),
        }
    }

    /// Records a validation refusal found after extraction (a path
    /// parameter's `#[tags]`).
    pub(crate) fn refuse(&mut self, err: ApiError) {
        self.refused.push(err);
    }

    /// The `400` for what was refused: one refusal as it is, several as one
    /// `invalid_request` listing every issue.
    pub(crate) fn into_response(mut self) -> Response {
        if self.refused.is_empty()
            && let Some(upgrade) = self.upgrade.take()
        {
            return upgrade.into_response();
        }
        if self.refused.len() == 1
            && let Some(only) = self.refused.pop()
        {
            return only.into_response();
        }
        let message = self
            .refused
            .iter()
            .map(ApiError::message)
            .collect::<Vec<_>>()
            .join("; ");
        let issues: Vec<_> = self
            .refused
            .iter()
            .flat_map(|err| err.issues().iter().cloned())
            .collect();
        refusal::INVALID_REQUEST
            .error(message)
            .with_issues(issues)
            .into_response()
    }
}

/// A `400` listing what is wrong with an input.
fn is_validation(err: &ApiError) -> bool {
    err.status() == StatusCode::BAD_REQUEST && !err.issues().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ValidationIssue;

    fn refused(path: &str) -> ApiError {
        refusal::INVALID_QUERY
            .error(format!("{path} is bad"))
            .with_issues([ValidationIssue::new(path, "string", 1)])
    }

    #[test]
    fn reports_every_refusal_together() {
        let mut refusals = Refusals::default();
        assert!(matches!(
            refusals.keep(Err::<(), _>(refused("$query.a"))),
            Ok(None)
        ));
        assert!(matches!(refusals.keep(Ok(1)), Ok(Some(1))));
        assert!(matches!(
            refusals.keep(Err::<(), _>(refused("$headers.b"))),
            Ok(None)
        ));
        assert_eq!(refusals.refused.len(), 2);
        let response = refusals.into_response();
        assert_eq!(response.status(), 400);
    }

    #[test]
    fn upgrade_required_is_answered_when_nothing_else_is_refused() {
        let upgrade = || refusal::UPGRADE_REQUIRED.error("no");
        let mut refusals = Refusals::default();
        assert!(matches!(refusals.keep(Err::<(), _>(upgrade())), Ok(None)));
        assert_eq!(refusals.into_response().status(), 426);
        let mut refusals = Refusals::default();
        let _ = refusals.keep(Err::<(), _>(upgrade()));
        let _ = refusals.keep(Err::<(), _>(refused("$query.a")));
        assert_eq!(refusals.into_response().status(), 400);
        let mut refusals = Refusals::default();
        let _ = refusals.keep(Err::<(), _>(upgrade()));
        let unauthorized = refusal::UNAUTHORIZED.error("no");
        assert!(refusals.keep(Err::<(), _>(unauthorized)).is_err());
    }

    #[test]
    fn a_guard_refusal_ends_the_request() {
        let mut refusals = Refusals::default();
        let unauthorized = refusal::UNAUTHORIZED.error("no");
        let Err(stop) = refusals.keep(Err::<(), _>(unauthorized)) else {
            panic!("a 401 must end the request");
        };
        assert_eq!(stop.into_response().status(), 401);
    }
}
