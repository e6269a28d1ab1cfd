//! Errors a client can see: RFC 9457 `application/problem+json` bodies with a
//! status, a stable machine-readable `code` and a human message.

use std::borrow::Cow;

use http::{HeaderName, HeaderValue, StatusCode, header};
use serde::{Deserialize, Serialize};

use bytes::Bytes;

use crate::body::{Body, DeferredError, Response};

mod contract;
pub mod refusal;

pub use contract::ErrorContract;
pub(crate) use contract::{AnswersErrors, ErrorAnswers, answer_error};

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// One reason an input was refused, in typia's shape.
///
/// `path` starts at the input's root: `$input` for the JSON body, `$query`
/// for the query string, `$headers` for headers and `$path` for path
/// parameters, e.g. `$input.files[2].url` or `$path.id`.
///
/// ```
/// use framework::ValidationIssue;
/// let issue = ValidationIssue::new("$path.id", "string & Format<\"uuid\">", "abc");
/// assert_eq!(issue.path, "$path.id");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValidationIssue {
    /// Where the bad value is.
    pub path: String,
    /// What was expected there, as a typia type expression:
    /// `string & Format<"uri">`, `(number & Type<"uint32">) | null`.
    pub expected: String,
    /// The value found; absent when the property was missing (typia's
    /// `undefined`), which is not the same as `null`. A large value is
    /// abridged (see [`ValidationIssue::new`]) so a report never echoes a
    /// huge input back.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::dto::present"
    )]
    pub value: Option<serde_json::Value>,
}

impl ValidationIssue {
    /// An issue at `path`, expecting `expected`, with the value found.
    /// Strings longer than 256 characters keep their first 256 and an
    /// ellipsis; arrays and objects keep their first 16 entries.
    ///
    /// ```
    /// use framework::ValidationIssue;
    /// let issue = ValidationIssue::new("$input.title", "string & MaxLength<50>", "t".repeat(10_000));
    /// let shown = issue.value.unwrap();
    /// assert!(shown.as_str().unwrap().len() < 300);
    /// ```
    pub fn new(
        path: impl Into<String>,
        expected: impl Into<String>,
        value: impl Into<serde_json::Value>,
    ) -> Self {
        ValidationIssue {
            path: path.into(),
            expected: expected.into(),
            value: Some(abridged(&value.into(), 0)),
        }
    }

    /// An issue with the value found, abridged as [`ValidationIssue::new`] does.
    pub(crate) fn found(path: String, expected: String, value: &serde_json::Value) -> Self {
        ValidationIssue {
            path,
            expected,
            value: Some(abridged(value, 0)),
        }
    }

    /// A required property that is missing.
    pub fn missing(path: impl Into<String>, expected: impl Into<String>) -> Self {
        ValidationIssue {
            path: path.into(),
            expected: expected.into(),
            value: None,
        }
    }
}

/// Characters of a string, and entries of an array or object, that a report
/// shows of a value.
const SHOWN_CHARS: usize = 256;
const SHOWN_ENTRIES: usize = 16;

/// `value`, cut down to what a report shows.
fn abridged(value: &serde_json::Value, depth: usize) -> serde_json::Value {
    use serde_json::Value;
    if depth > 4 {
        return Value::from("…");
    }
    match value {
        Value::String(text) => match text.char_indices().nth(SHOWN_CHARS) {
            Some((cut, _)) => Value::from(format!(
                "{}… ({} characters in all)",
                &text[..cut],
                text.chars().count()
            )),
            None => value.clone(),
        },
        Value::Array(items) => Value::Array(
            items
                .iter()
                .take(SHOWN_ENTRIES)
                .map(|item| abridged(item, depth + 1))
                .chain(
                    (items.len() > SHOWN_ENTRIES)
                        .then(|| Value::from(format!("… ({} items in all)", items.len()))),
                )
                .collect(),
        ),
        Value::Object(map) => {
            let mut shown: serde_json::Map<String, Value> = map
                .iter()
                .take(SHOWN_ENTRIES)
                .map(|(key, item)| (key.clone(), abridged(item, depth + 1)))
                .collect();
            if map.len() > SHOWN_ENTRIES {
                shown.insert(
                    "…".to_owned(),
                    Value::from(format!("{} properties in all", map.len())),
                );
            }
            Value::Object(shown)
        }
        other => other.clone(),
    }
}

/// An error answered to the client as `application/problem+json`.
///
/// Handlers return `Result<T, ApiError>` (or any error type that converts
/// into it). The `code` is stable and meant for programs; the message is for
/// people. Internal detail given to [`ApiError::internal`] is logged, never
/// sent.
///
/// ```
/// use framework::ApiError;
/// use http::StatusCode;
///
/// let err = ApiError::new(StatusCode::FORBIDDEN, "wrong_password", "the password does not match");
/// assert_eq!(err.status(), StatusCode::FORBIDDEN);
/// assert_eq!(err.code(), "wrong_password");
/// let response = err.into_response();
/// assert_eq!(response.headers()["content-type"], "application/problem+json");
/// ```
///
/// # Errors of other crates (`sqlx::Error`, ...)
///
/// `impl From<sqlx::Error> for ApiError` cannot be written in an app: both
/// the trait's type and the error are foreign (the orphan rule). Give the
/// app an error type of its own that converts from the foreign error and
/// into `ApiError`; handlers return `Result<T, AppError>` and use `?`. The
/// conversion decides what a client sees; typically, for a database:
///
/// - row not found (`sqlx::Error::RowNotFound`) -> `404`
///   ([`ApiError::not_found`]),
/// - a unique or foreign-key violation (`sqlx::Error::Database` whose
///   `kind()` is `UniqueViolation` / `ForeignKeyViolation`) -> `409`
///   ([`ApiError::conflict`]),
/// - the pool timed out or is closed, an I/O error
///   (`PoolTimedOut`, `PoolClosed`, `Io`) -> `503` with `Retry-After`
///   ([`ApiError::unavailable`]),
/// - anything else -> `500` ([`ApiError::internal`], whose detail is
///   logged, never sent).
///
/// Here `DbError` stands in for `sqlx::Error`:
///
/// ```
/// use framework::prelude::*;
///
/// /// Stands in for `sqlx::Error`, an error type of another crate.
/// #[derive(Debug)]
/// enum DbError { RowNotFound, UniqueViolation(&'static str), PoolTimedOut, Protocol(String) }
///
/// impl std::fmt::Display for DbError {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         write!(f, "{self:?}")
///     }
/// }
///
/// /// The app's own error: converts from the database's, into `ApiError`.
/// struct AppError(ApiError);
///
/// impl From<DbError> for AppError {
///     fn from(err: DbError) -> Self {
///         AppError(match err {
///             DbError::RowNotFound => ApiError::not_found("no such article"),
///             DbError::UniqueViolation(what) => ApiError::conflict(format!("{what} is taken")),
///             DbError::PoolTimedOut => ApiError::unavailable("the database is busy"),
///             other => ApiError::internal(other),
///         })
///     }
/// }
///
/// impl From<AppError> for ApiError {
///     fn from(err: AppError) -> Self { err.0 }
/// }
///
/// fn find_article(id: u64) -> Result<String, DbError> {
///     match id {
///         1 => Ok("hello".to_owned()),
///         2 => Err(DbError::PoolTimedOut),
///         _ => Err(DbError::RowNotFound),
///     }
/// }
///
/// struct Articles;
///
/// #[controller("articles")]
/// impl Articles {
///     #[typed_route::get(":id")]
///     async fn at(&self, #[param] id: u64) -> Result<String, AppError> {
///         Ok(find_article(id)?)
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Articles).build().unwrap();
/// assert_eq!(app.test_client().get("/articles/1").send().await.text(), "hello");
/// assert_eq!(app.test_client().get("/articles/2").send().await.status(), 503);
/// assert_eq!(app.test_client().get("/articles/3").send().await.status(), 404);
/// # });
/// ```
///
/// Where one call needs no mapping of its own, `.map_err(ApiError::internal)?`
/// answers `500` and logs the error; an extension trait in the app
/// (`trait OrApiError<T> { fn or_api(self) -> Result<T, ApiError>; }`
/// implemented for `Result<T, sqlx::Error>`) does the same as `AppError`
/// for handlers that return `Result<T, ApiError>`.
///
#[doc = include_str!("../docs/errors.md")]
#[derive(Clone, Debug, thiserror::Error)]
#[error("{status} {code}: {message}")]
pub struct ApiError {
    status: StatusCode,
    code: Cow<'static, str>,
    message: String,
    /// Rarely present; boxed so that `Result<T, ApiError>` stays small.
    extra: Option<Box<Extra>>,
}

#[derive(Clone, Debug, Default)]
struct Extra {
    errors: Vec<ValidationIssue>,
    headers: Vec<(HeaderName, HeaderValue)>,
}

/// What `Retry-After` says on a `503 unavailable` unless set otherwise, in
/// seconds.
pub(crate) const DEFAULT_RETRY_AFTER: u32 = 1;

impl ApiError {
    /// An error with a status, a stable code and a message for people.
    pub fn new(
        status: StatusCode,
        code: impl Into<Cow<'static, str>>,
        message: impl Into<String>,
    ) -> Self {
        ApiError {
            status,
            code: code.into(),
            message: message.into(),
            extra: None,
        }
    }

    /// `400 bad_request`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// `403 forbidden`.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// `404 not_found`.
    pub fn not_found(message: impl Into<String>) -> Self {
        refusal::NOT_FOUND.error(message)
    }

    /// `409 conflict`.
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "conflict", message)
    }

    /// `503 unavailable`: a dependency (database, disk) is failing; retry
    /// later. The answer says when, in a `Retry-After` header: after one
    /// second unless [`retry_after`](Self::retry_after) says otherwise.
    ///
    /// ```
    /// use framework::ApiError;
    ///
    /// let response = ApiError::unavailable("the database is restarting").into_response();
    /// assert_eq!(response.status(), 503);
    /// assert_eq!(response.headers()["retry-after"], "1");
    ///
    /// let later = ApiError::unavailable("maintenance").retry_after(30).into_response();
    /// assert_eq!(later.headers()["retry-after"], "30");
    /// ```
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", message)
            .retry_after(DEFAULT_RETRY_AFTER)
    }

    /// Tells the client to retry after `seconds` (a `Retry-After` header),
    /// as fits a `503` or a `429`.
    pub fn retry_after(self, seconds: u32) -> Self {
        self.with_header(header::RETRY_AFTER, HeaderValue::from(seconds))
    }

    /// `500 internal_error`. `detail` is logged with `tracing` and never
    /// sent to the client, who sees a generic message.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!(%detail, "internal error");
        refusal::INTERNAL_ERROR.error("the server failed to handle this request")
    }

    /// Adds the issues that made an input invalid.
    pub fn with_issues(mut self, issues: impl IntoIterator<Item = ValidationIssue>) -> Self {
        self.extra.get_or_insert_default().errors.extend(issues);
        self
    }

    /// Adds a header to the error response (e.g. `Allow` on a 405); a
    /// header of the same name given before is replaced.
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        let headers = &mut self.extra.get_or_insert_default().headers;
        headers.retain(|(known, _)| *known != name);
        headers.push((name, value));
        self
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The stable, machine-readable code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The message for people.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The validation issues, empty unless an input was refused.
    pub fn issues(&self) -> &[ValidationIssue] {
        self.extra
            .as_ref()
            .map_or(&[], |extra| extra.errors.as_slice())
    }

    /// The error answer: its status and headers now, and its body, an
    /// `application/problem+json` problem document unless the app that
    /// answers it declares its own error contract
    /// ([`AppBuilder::errors`](crate::AppBuilder::errors)), written when
    /// the answer leaves the app.
    pub fn into_response(mut self) -> Response {
        let headers = self
            .extra
            .as_mut()
            .map(|extra| std::mem::take(&mut extra.headers))
            .unwrap_or_default();
        let status = self.status;
        let mut response = http::Response::new(Body::deferred(Box::new(self)));
        *response.status_mut() = status;
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        for (name, value) in headers {
            response.headers_mut().insert(name, value);
        }
        response
    }

    /// The problem document.
    pub(crate) fn problem_json(&self) -> Bytes {
        let problem = ProblemRef {
            kind: "about:blank",
            title: self.status.canonical_reason().unwrap_or("Error"),
            status: self.status.as_u16(),
            code: &self.code,
            detail: &self.message,
            errors: self.issues(),
        };
        // Serializing strings, numbers and `serde_json::Value`s cannot fail.
        Bytes::from(serde_json::to_vec(&problem).unwrap_or_default())
    }
}

impl DeferredError for ApiError {
    fn default_body(&self) -> Bytes {
        self.problem_json()
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

#[derive(Serialize)]
struct ProblemRef<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    title: &'a str,
    status: u16,
    code: &'a str,
    detail: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    errors: &'a [ValidationIssue],
}

/// An `application/problem+json` body as a client reads it.
///
/// ```
/// use framework::Problem;
/// let problem: Problem = serde_json::from_str(
///     r#"{"type":"about:blank","title":"Not Found","status":404,"code":"not_found","detail":"no such article"}"#,
/// ).unwrap();
/// assert_eq!(problem.code, "not_found");
/// assert!(problem.errors.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// A URI naming the problem type; `about:blank` here.
    #[serde(rename = "type")]
    pub kind: String,
    /// The status's reason phrase.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// The stable, machine-readable code.
    pub code: String,
    /// The message for people.
    pub detail: String,
    /// Validation issues, when an input was refused.
    #[serde(default)]
    pub errors: Vec<ValidationIssue>,
}
