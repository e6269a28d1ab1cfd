//! Every refusal the framework answers, each declared once: its status, its
//! stable code and what the manifest says of it. Where a refusal is raised,
//! it is raised from its declaration ([`Refusal::error`]); the inputs that
//! can raise it list it in their [`InputMeta`](crate::InputMeta), and the
//! manifest documents a route's errors from those lists, so what a route
//! answers and what its documents say cannot drift.

use http::StatusCode;

use super::ApiError;

/// One kind of refusal: a status, a stable machine-readable code and, for
/// the manifest, when it happens.
///
/// ```
/// use framework::refusal;
///
/// let err = refusal::PAYLOAD_TOO_LARGE.error("body: larger than 2 MiB");
/// assert_eq!(err.status(), 413);
/// assert_eq!(err.code(), "payload_too_large");
/// assert!(refusal::ALL.contains(&refusal::PAYLOAD_TOO_LARGE));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Refusal {
    /// The HTTP status.
    pub status: u16,
    /// The stable code (`Problem.code`).
    pub code: &'static str,
    /// When it happens, as the manifest and OpenAPI document say,
    /// whatever the error body.
    pub description: &'static str,
    /// What the documents say of it instead when the error body is the
    /// problem document (`application/problem+json`, the default), which
    /// they can describe: empty when that is the description.
    pub in_problem: &'static str,
    /// What kind of refusal it is, which says how it is documented.
    pub kind: RefusalKind,
}

/// What kind of refusal a [`Refusal`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RefusalKind {
    /// An input is not of its type: the refusal lists every issue with
    /// its path, and the issues of several inputs are answered together
    /// (as `invalid_request`). Documented by the routes that read such an
    /// input.
    Validation,
    /// Documented by the routes whose inputs (or answers) can raise it.
    Route,
    /// Any request can get it whatever its route (no route, a method the
    /// path does not allow, a handler's panic), or it is never an HTTP
    /// answer: not documented per route.
    Any,
}

impl Refusal {
    /// The HTTP status, as `http` has it.
    pub fn status_code(&self) -> StatusCode {
        // Every status below is a literal between 400 and 599.
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST)
    }

    /// This refusal, with a message for people saying what exactly was
    /// refused.
    pub fn error(&self, message: impl Into<String>) -> ApiError {
        ApiError::new(self.status_code(), self.code, message)
    }

    /// Whether the routes that can raise it document it.
    pub fn per_route(&self) -> bool {
        self.kind != RefusalKind::Any
    }

    /// Whether it lists the issues of an input that is not of its type.
    pub fn validates(&self) -> bool {
        self.kind == RefusalKind::Validation
    }

    /// What the documents say of it when the error body is the problem
    /// document: [`in_problem`](Self::in_problem), else
    /// [`description`](Self::description).
    ///
    /// ```
    /// use framework::refusal;
    ///
    /// assert_eq!(refusal::INVALID_BODY.description, "An input is invalid.");
    /// assert_eq!(
    ///     refusal::INVALID_BODY.problem_description(),
    ///     "An input is invalid; `errors` lists every problem with its path."
    /// );
    /// assert_eq!(refusal::PAYLOAD_TOO_LARGE.problem_description(), refusal::PAYLOAD_TOO_LARGE.description);
    /// ```
    pub fn problem_description(&self) -> &'static str {
        if self.in_problem.is_empty() {
            self.description
        } else {
            self.in_problem
        }
    }

    /// Whether `err` is this refusal.
    pub fn is(&self, err: &ApiError) -> bool {
        err.status().as_u16() == self.status && err.code() == self.code
    }
}

/// Declares each refusal once, and [`ALL`] of them.
macro_rules! refusals {
    ($(
        $(#[$doc:meta])*
        $name:ident = ($status:literal, $code:literal, $kind:ident, $description:literal $(, $in_problem:literal)?);
    )*) => {
        $(
            $(#[$doc])*
            pub const $name: Refusal = Refusal {
                status: $status,
                code: $code,
                description: $description,
                in_problem: concat!("" $(, $in_problem)?),
                kind: RefusalKind::$kind,
            };
        )*

        /// Every refusal the framework raises, in declaration order.
        pub const ALL: &[Refusal] = &[$($name),*];
    };
}

refusals! {
    /// A path parameter is not of its type, breaks its tags or is not
    /// UTF-8 once percent-decoded.
    INVALID_PATH_PARAMETER = (400, "invalid_path_parameter", Validation,
        "An input is invalid.", "An input is invalid; `errors` lists every problem with its path.");
    /// The query string does not hold the route's query type.
    INVALID_QUERY = (400, "invalid_query", Validation,
        "An input is invalid.", "An input is invalid; `errors` lists every problem with its path.");
    /// The headers do not hold the route's header type, or a header the
    /// framework reads (`Last-Event-ID`) is malformed.
    INVALID_HEADER = (400, "invalid_header", Validation,
        "An input is invalid.", "An input is invalid; `errors` lists every problem with its path.");
    /// The cookies do not hold the route's cookie type.
    INVALID_COOKIE = (400, "invalid_cookie", Validation,
        "An input is invalid.", "An input is invalid; `errors` lists every problem with its path.");
    /// The body does not hold the route's body type.
    INVALID_BODY = (400, "invalid_body", Validation,
        "An input is invalid.", "An input is invalid; `errors` lists every problem with its path.");
    /// Several inputs were refused; every issue is listed.
    INVALID_REQUEST = (400, "invalid_request", Route,
        "An input is invalid.", "An input is invalid; `errors` lists every problem with its path.");
    /// The body could not be read (the connection failed while it arrived).
    /// Not documented per route: the client's own connection failed while
    /// it sent, and the answer rarely reaches it.
    BODY_READ_FAILED = (400, "body_read_failed", Any,
        "The body could not be read.");
    /// The request names an API version (its version header, `api-version`
    /// unless the app says otherwise) that is malformed or that the app
    /// does not serve (see [`Versions`](crate::Versions)). Decided before
    /// routing, as `not_found` is: not documented per route.
    UNSUPPORTED_API_VERSION = (400, "unsupported_api_version", Any,
        "The request names an API version the server does not serve.");
    /// A guard found no valid credential.
    UNAUTHORIZED = (401, "unauthorized", Route,
        "The credential is missing or not valid.");
    /// A browser sent an unsafe request (`POST`, `PUT`, `PATCH`, `DELETE`)
    /// from a page of another origin (see
    /// [`CrossOrigin`](crate::CrossOrigin)).
    CROSS_ORIGIN_REQUEST = (403, "cross_origin_request", Route,
        "A browser sent this request from a page of another origin.");
    /// A browser opened a WebSocket from a page of another origin (see
    /// [`CrossOrigin`](crate::CrossOrigin)).
    CROSS_ORIGIN_WEBSOCKET = (403, "cross_origin_websocket", Route,
        "A browser opened this WebSocket from a page of another origin.");
    /// No route has the request's path.
    NOT_FOUND = (404, "not_found", Any,
        "No route has this path.");
    /// The path's routes do not take the request's method (`Allow` lists
    /// those they do).
    METHOD_NOT_ALLOWED = (405, "method_not_allowed", Any,
        "The path does not take this method; `Allow` lists those it does.");
    /// The body did not arrive within the body timeout.
    REQUEST_TIMEOUT = (408, "request_timeout", Route,
        "The body did not arrive within the time allowed.");
    /// The body is larger than the body limit.
    PAYLOAD_TOO_LARGE = (413, "payload_too_large", Route,
        "The body is larger than the limit.");
    /// A file of a multipart form is larger than its `max_size`.
    FILE_TOO_LARGE = (413, "file_too_large", Route,
        "A file is larger than its `max_size`.");
    /// A multipart form has more parts than the framework reads.
    TOO_MANY_PARTS = (413, "too_many_parts", Route,
        "The form has too many parts.");
    /// The body's media type is not the route's.
    UNSUPPORTED_MEDIA_TYPE = (415, "unsupported_media_type", Route,
        "The body is not of the media type the route reads.");
    /// A `Range` the file answered cannot satisfy.
    RANGE_NOT_SATISFIABLE = (416, "range_not_satisfiable", Route,
        "The `Range` starts beyond the file's end; `Content-Range: bytes */<length>` gives the length.");
    /// A WebSocket route was asked without a handshake, or over another
    /// protocol than HTTP/1.1.
    UPGRADE_REQUIRED = (426, "upgrade_required", Route,
        "The request is not a WebSocket handshake over HTTP/1.1 (or asks for a version other than 13).");
    /// A WebSocket handshake asked for another version than 13.
    UNSUPPORTED_WEBSOCKET_VERSION = (426, "unsupported_websocket_version", Route,
        "The request is not a WebSocket handshake over HTTP/1.1 (or asks for a version other than 13).");
    /// A WebSocket handshake is malformed (its key).
    INVALID_WEBSOCKET_HANDSHAKE = (400, "invalid_websocket_handshake", Route,
        "The WebSocket handshake is malformed.");
    /// A WebSocket message is not the route's message type. Never an HTTP
    /// answer: the socket closes with `1007` and this refusal's message.
    INVALID_MESSAGE = (400, "invalid_message", Any,
        "A WebSocket message is refused: the socket closes with 1007.");
    /// The server failed (a handler panicked, or returned
    /// [`ApiError::internal`]); the detail is logged, not sent.
    INTERNAL_ERROR = (500, "internal_error", Any,
        "The server failed to handle the request.");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_statuses_are_errors() {
        for (index, refusal) in ALL.iter().enumerate() {
            assert!(
                (400..600).contains(&refusal.status),
                "{}: {}",
                refusal.code,
                refusal.status
            );
            assert_eq!(refusal.status_code().as_u16(), refusal.status);
            assert!(
                ALL[..index].iter().all(|other| other.code != refusal.code),
                "{} is declared twice",
                refusal.code
            );
        }
    }
}
