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
    /// When it happens, as the manifest and OpenAPI document say.
    pub description: &'static str,
    /// Whether the routes that can raise it document it. Refusals that any
    /// request can get whatever its route (no route, a method the path
    /// does not allow, a handler's panic) are documented once, not per
    /// route.
    pub per_route: bool,
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

    /// Whether `err` is this refusal.
    pub fn is(&self, err: &ApiError) -> bool {
        err.status().as_u16() == self.status && err.code() == self.code
    }
}

/// Declares each refusal once, and [`ALL`] of them.
macro_rules! refusals {
    ($(
        $(#[$doc:meta])*
        $name:ident = ($status:literal, $code:literal, $per_route:literal, $description:literal);
    )*) => {
        $(
            $(#[$doc])*
            pub const $name: Refusal = Refusal {
                status: $status,
                code: $code,
                description: $description,
                per_route: $per_route,
            };
        )*

        /// Every refusal the framework raises, in declaration order.
        pub const ALL: &[Refusal] = &[$($name),*];
    };
}

refusals! {
    /// A path parameter is not of its type, breaks its tags or is not
    /// UTF-8 once percent-decoded.
    INVALID_PATH_PARAMETER = (400, "invalid_path_parameter", true,
        "An input is invalid; `errors` lists every problem with its path.");
    /// The query string does not hold the route's query type.
    INVALID_QUERY = (400, "invalid_query", true,
        "An input is invalid; `errors` lists every problem with its path.");
    /// The headers do not hold the route's header type, or a header the
    /// framework reads (`Last-Event-ID`) is malformed.
    INVALID_HEADER = (400, "invalid_header", true,
        "An input is invalid; `errors` lists every problem with its path.");
    /// The cookies do not hold the route's cookie type.
    INVALID_COOKIE = (400, "invalid_cookie", true,
        "An input is invalid; `errors` lists every problem with its path.");
    /// The body does not hold the route's body type.
    INVALID_BODY = (400, "invalid_body", true,
        "An input is invalid; `errors` lists every problem with its path.");
    /// Several inputs were refused; every issue is listed.
    INVALID_REQUEST = (400, "invalid_request", true,
        "An input is invalid; `errors` lists every problem with its path.");
    /// The body could not be read (the connection failed while it arrived).
    BODY_READ_FAILED = (400, "body_read_failed", true,
        "The body could not be read.");
    /// A guard found no valid credential.
    UNAUTHORIZED = (401, "unauthorized", true,
        "The credential is missing or not valid.");
    /// No route has the request's path.
    NOT_FOUND = (404, "not_found", false,
        "No route has this path.");
    /// The path's routes do not take the request's method (`Allow` lists
    /// those they do).
    METHOD_NOT_ALLOWED = (405, "method_not_allowed", false,
        "The path does not take this method; `Allow` lists those it does.");
    /// The body did not arrive within the body timeout.
    REQUEST_TIMEOUT = (408, "request_timeout", true,
        "The body did not arrive within the time allowed.");
    /// The body is larger than the body limit.
    PAYLOAD_TOO_LARGE = (413, "payload_too_large", true,
        "The body is larger than the limit.");
    /// A file of a multipart form is larger than its `max_size`.
    FILE_TOO_LARGE = (413, "file_too_large", true,
        "A file is larger than its `max_size`.");
    /// A multipart form has more parts than the framework reads.
    TOO_MANY_PARTS = (413, "too_many_parts", true,
        "The form has too many parts.");
    /// The body's media type is not the route's.
    UNSUPPORTED_MEDIA_TYPE = (415, "unsupported_media_type", true,
        "The body is not of the media type the route reads.");
    /// A `Range` the file answered cannot satisfy.
    RANGE_NOT_SATISFIABLE = (416, "range_not_satisfiable", true,
        "The range is outside the file; `Content-Range` gives its length.");
    /// A WebSocket route was asked without a handshake, or over another
    /// protocol than HTTP/1.1.
    UPGRADE_REQUIRED = (426, "upgrade_required", true,
        "The request is not a WebSocket handshake over HTTP/1.1 (or asks for a version other than 13).");
    /// A WebSocket handshake asked for another version than 13.
    UNSUPPORTED_WEBSOCKET_VERSION = (426, "unsupported_websocket_version", true,
        "The request is not a WebSocket handshake over HTTP/1.1 (or asks for a version other than 13).");
    /// A WebSocket handshake is malformed (its key).
    INVALID_WEBSOCKET_HANDSHAKE = (400, "invalid_websocket_handshake", true,
        "The WebSocket handshake is malformed.");
    /// A WebSocket message is not the route's message type. Never an HTTP
    /// answer: the socket closes with `1007` and this refusal's message.
    INVALID_MESSAGE = (400, "invalid_message", false,
        "A WebSocket message is refused: the socket closes with 1007.");
    /// The server failed (a handler panicked, or returned
    /// [`ApiError::internal`]); the detail is logged, not sent.
    INTERNAL_ERROR = (500, "internal_error", false,
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
