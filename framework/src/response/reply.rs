//! Headers and cookies added to any answer.

use http::{HeaderName, HeaderValue, StatusCode, header};

use super::{IntoResponse, SetCookie};
use crate::{body::Response, describe::ResponseManifest, error::ApiError, schema::Registry};

/// Any answer with headers and cookies added at run time.
///
/// ```
/// use framework::{IntoResponse, Reply, SetCookie};
/// use http::StatusCode;
///
/// let reply = Reply::new("welcome")
///     .header(http::header::CACHE_CONTROL, http::HeaderValue::from_static("no-store"))
///     .cookie(SetCookie::new("session", "s3cret"));
/// let response = reply.into_response(StatusCode::OK);
/// assert_eq!(response.headers()["cache-control"], "no-store");
/// assert!(response.headers()["set-cookie"].to_str().unwrap().starts_with("session=s3cret; HttpOnly"));
/// ```
#[derive(Clone, Debug)]
pub struct Reply<T> {
    answer: T,
    headers: Vec<(HeaderName, HeaderValue)>,
    cookies: Vec<SetCookie>,
}

impl<T> Reply<T> {
    /// `answer`, with nothing added yet.
    pub fn new(answer: T) -> Self {
        Reply {
            answer,
            headers: Vec::new(),
            cookies: Vec::new(),
        }
    }

    /// Adds a header (after the answer's own: a second value of a header
    /// the answer sets is appended).
    #[must_use]
    pub fn header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.push((name, value));
        self
    }

    /// Adds a `Set-Cookie`.
    #[must_use]
    pub fn cookie(mut self, cookie: SetCookie) -> Self {
        self.cookies.push(cookie);
        self
    }
}

impl<T: IntoResponse> IntoResponse for Reply<T> {
    const DEFAULT_STATUS: Option<u16> = T::DEFAULT_STATUS;

    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        T::describe(status, registry)
    }

    fn into_response(self, status: StatusCode) -> Response {
        let mut response = self.answer.into_response(status);
        let headers = response.headers_mut();
        for (name, value) in self.headers {
            headers.append(name, value);
        }
        for cookie in &self.cookies {
            let Some(value) = cookie.to_header() else {
                return ApiError::internal("a cookie cannot be a header").into_response();
            };
            headers.append(header::SET_COOKIE, value);
        }
        response
    }

    fn errors() -> Vec<crate::describe::ErrorMeta> {
        T::errors()
    }
}
