//! An in-process client: drives an [`App`] without sockets, for tests.

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use http_body_util::Full;
use serde::{Serialize, de::DeserializeOwned};

use crate::{app::App, error::Problem};

/// Sends requests straight to an [`App`]'s router, with no sockets, so
/// handlers are tested as they are served. Get one from
/// [`App::test_client`].
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Note { text: String }
///
/// struct Notes;
///
/// #[controller("notes")]
/// impl Notes {
///     #[typed_route::post("")]
///     async fn create(&self, body: TypedBody<Note>) -> Note { body.into_inner() }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let client = App::builder().controller(Notes).build().unwrap().test_client();
/// let response = client.post("/notes").json(&Note { text: "hi".into() }).send().await;
/// assert_eq!(response.status(), 201);
/// assert_eq!(response.json::<Note>().text, "hi");
///
/// let bad = client.post("/notes").body("text/plain", "hi").send().await;
/// assert_eq!(bad.status(), 415);
/// assert_eq!(bad.problem().code, "unsupported_media_type");
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct TestClient {
    app: App,
}

impl App {
    /// An in-process client for this app.
    pub fn test_client(&self) -> TestClient {
        TestClient { app: self.clone() }
    }
}

impl TestClient {
    /// A request with any method.
    pub fn request(&self, method: Method, path: &str) -> TestRequest {
        TestRequest {
            app: self.app.clone(),
            method,
            path: path.to_owned(),
            headers: HeaderMap::new(),
            body: Bytes::new(),
        }
    }

    /// A `GET` request.
    pub fn get(&self, path: &str) -> TestRequest {
        self.request(Method::GET, path)
    }

    /// A `POST` request.
    pub fn post(&self, path: &str) -> TestRequest {
        self.request(Method::POST, path)
    }

    /// A `PUT` request.
    pub fn put(&self, path: &str) -> TestRequest {
        self.request(Method::PUT, path)
    }

    /// A `PATCH` request.
    pub fn patch(&self, path: &str) -> TestRequest {
        self.request(Method::PATCH, path)
    }

    /// A `DELETE` request.
    pub fn delete(&self, path: &str) -> TestRequest {
        self.request(Method::DELETE, path)
    }
}

/// A request being built by a [`TestClient`].
#[derive(Debug)]
#[must_use = "a request does nothing until `.send().await`"]
pub struct TestRequest {
    app: App,
    method: Method,
    path: String,
    headers: HeaderMap,
    body: Bytes,
}

impl TestRequest {
    /// Sets a header.
    ///
    /// # Panics
    /// If the name or value is not valid in HTTP: a bug in the test.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        let name =
            HeaderName::try_from(name).unwrap_or_else(|err| panic!("header name {name:?}: {err}"));
        let value = HeaderValue::try_from(value)
            .unwrap_or_else(|err| panic!("header value {value:?}: {err}"));
        self.headers.append(name, value);
        self
    }

    /// Sends `value` as a JSON body.
    ///
    /// # Panics
    /// If `value` cannot be serialized as JSON: a bug in the test.
    pub fn json<T: Serialize + ?Sized>(mut self, value: &T) -> Self {
        let bytes =
            serde_json::to_vec(value).unwrap_or_else(|err| panic!("serializing the body: {err}"));
        self.headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        self.body = Bytes::from(bytes);
        self
    }

    /// Sends `text` as an HTML form body
    /// (`application/x-www-form-urlencoded`), e.g. `"title=hi&body=x"`.
    pub fn form(self, text: &str) -> Self {
        self.body(
            "application/x-www-form-urlencoded",
            Bytes::copy_from_slice(text.as_bytes()),
        )
    }

    /// Sends `text` as a `text/plain; charset=utf-8` body.
    pub fn text(self, text: &str) -> Self {
        self.body(
            "text/plain; charset=utf-8",
            Bytes::copy_from_slice(text.as_bytes()),
        )
    }

    /// Sends raw bytes with a content type.
    pub fn body(self, content_type: &str, body: impl Into<Bytes>) -> Self {
        let mut this = self.header(header::CONTENT_TYPE.as_str(), content_type);
        this.body = body.into();
        this
    }

    /// A `multipart/form-data` body.
    pub fn multipart(self, form: &crate::testing::MultipartBody) -> Self {
        self.body(&form.content_type(), form.to_bytes())
    }

    /// Sends the request through the app.
    ///
    /// # Panics
    /// If the method and path do not form a valid request (a bug in the
    /// test), or a streamed answer's body fails.
    pub async fn send(self) -> TestResponse {
        let mut request = http::Request::builder()
            .method(self.method)
            .uri(&self.path)
            .body(Full::new(self.body))
            .unwrap_or_else(|err| panic!("request to {:?}: {err}", self.path));
        *request.headers_mut() = self.headers;
        let response = self.app.handle(request).await;
        let (parts, body) = response.into_parts();
        let body = match http_body_util::BodyExt::collect(body).await {
            Ok(collected) => collected.to_bytes(),
            Err(err) => panic!("the answer's body failed: {err}"),
        };
        TestResponse {
            status: parts.status,
            headers: parts.headers,
            body,
        }
    }
}

/// The answer to a [`TestRequest`].
#[derive(Clone, Debug)]
pub struct TestResponse {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl TestResponse {
    /// The status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// One header's value as text, if present and text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// The raw body.
    pub fn bytes(&self) -> &Bytes {
        &self.body
    }

    /// The body as text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body parsed from JSON, or why it could not be.
    pub fn try_json<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_slice(&self.body)
    }

    /// The body parsed from JSON.
    ///
    /// # Panics
    /// If the body is not a JSON `T`, with the status and body in the message.
    pub fn json<T: DeserializeOwned>(&self) -> T {
        self.try_json().unwrap_or_else(|err| {
            panic!(
                "response {} is not the JSON expected: {err}; body: {}",
                self.status,
                self.text()
            )
        })
    }

    /// The body parsed as an `application/problem+json` error.
    ///
    /// # Panics
    /// If the answer is not a problem document.
    pub fn problem(&self) -> Problem {
        assert_eq!(
            self.header("content-type"),
            Some(crate::error::PROBLEM_JSON),
            "response {} is not a problem: {}",
            self.status,
            self.text()
        );
        self.json()
    }
}
