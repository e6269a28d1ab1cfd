//! Answers that point elsewhere: redirects, and `201 Created` with the new
//! resource's `Location`.

use http::{HeaderValue, StatusCode, header};

use super::IntoResponse;
use crate::{
    body::Response,
    describe::{HeaderManifest, ResponseManifest},
    error::ApiError,
    schema::Registry,
};

/// A redirect to `Location`, with its status in its type: `303 See Other`
/// (the default: after a form is posted, go and GET this), `307 Temporary
/// Redirect` or `308 Permanent Redirect` (same method, same body), so the
/// document and SDKs know which. The SDKs report a redirect, they do not
/// follow it.
///
/// ```
/// use framework::{IntoResponse, Redirect};
/// use http::StatusCode;
///
/// let response = Redirect::see_other("/articles/7").into_response(StatusCode::OK);
/// assert_eq!(response.status(), 303);
/// assert_eq!(response.headers()["location"], "/articles/7");
/// let moved: Redirect<308> = Redirect::permanent("/new");
/// assert_eq!(moved.into_response(StatusCode::OK).status(), 308);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect<const STATUS: u16 = 303> {
    location: String,
}

impl Redirect<303> {
    /// `303 See Other`: the client GETs `location` next.
    pub fn see_other(location: impl Into<String>) -> Self {
        Redirect {
            location: location.into(),
        }
    }
}

impl Redirect<307> {
    /// `307 Temporary Redirect`: the same request again at `location`.
    pub fn temporary(location: impl Into<String>) -> Self {
        Redirect {
            location: location.into(),
        }
    }
}

impl Redirect<308> {
    /// `308 Permanent Redirect`: the same request at `location`, from now on.
    pub fn permanent(location: impl Into<String>) -> Self {
        Redirect {
            location: location.into(),
        }
    }
}

impl<const STATUS: u16> Redirect<STATUS> {
    /// Where it points.
    pub fn location(&self) -> &str {
        &self.location
    }
}

/// `Location: value`, or a `500` when `value` cannot be a header.
fn with_location(mut response: Response, location: &str) -> Response {
    match HeaderValue::try_from(location) {
        Ok(value) => {
            response.headers_mut().insert(header::LOCATION, value);
            response
        }
        Err(_) => ApiError::internal(format_args!("{location:?} cannot be a Location header"))
            .into_response(),
    }
}

fn location_header(description: &str) -> HeaderManifest {
    HeaderManifest::new("Location", description, true)
}

impl<const STATUS: u16> IntoResponse for Redirect<STATUS> {
    const DEFAULT_STATUS: Option<u16> = Some(STATUS);

    fn describe(_: u16, _: &mut Registry) -> Vec<ResponseManifest> {
        vec![ResponseManifest::new(STATUS).with_header(location_header("Where to go next."))]
    }

    fn into_response(self, _: StatusCode) -> Response {
        let status = StatusCode::from_u16(STATUS).unwrap_or(StatusCode::SEE_OTHER);
        let response = ().into_response(status);
        with_location(response, &self.location)
    }
}

/// `201 Created` with the new resource's `Location` and its body.
///
/// ```
/// use framework::{Created, IntoResponse};
/// use http::StatusCode;
///
/// let response = Created::new("/articles/7", vec![7u64]).into_response(StatusCode::OK);
/// assert_eq!(response.status(), 201);
/// assert_eq!(response.headers()["location"], "/articles/7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Created<T> {
    location: String,
    body: T,
}

impl<T> Created<T> {
    /// Created at `location`, answered with `body`.
    pub fn new(location: impl Into<String>, body: T) -> Self {
        Created {
            location: location.into(),
            body,
        }
    }
}

impl<T: IntoResponse> IntoResponse for Created<T> {
    const DEFAULT_STATUS: Option<u16> = Some(201);

    fn describe(_: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        T::describe(201, registry)
            .into_iter()
            .map(|answer| answer.with_header(location_header("Where the new resource is.")))
            .collect()
    }

    fn into_response(self, _: StatusCode) -> Response {
        let response = self.body.into_response(StatusCode::CREATED);
        with_location(response, &self.location)
    }
}
