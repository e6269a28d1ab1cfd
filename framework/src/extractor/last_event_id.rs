//! The `Last-Event-ID` header of a reconnecting event-stream client.

use super::FromRequestParts;
use crate::{
    describe::{HeaderMeta, InputMeta},
    error::{ApiError, refusal},
    request::RequestContext,
};

/// The id of the last server-sent event a reconnecting client saw (its
/// `Last-Event-ID` header), so an [`Sse`](crate::sse::Sse) handler can
/// resume after it; `None` on a first connection. Event-stream clients
/// (browsers' `EventSource`, the SDKs) send it by themselves.
///
/// A value that is not UTF-8 is `400 invalid_header`.
///
/// ```
/// use framework::prelude::*;
/// use framework::sse::LastEventId;
///
/// struct Resume;
///
/// #[controller("resume")]
/// impl Resume {
///     #[typed_route::get("")]
///     async fn at(&self, last: LastEventId) -> String {
///         last.get().unwrap_or("start").to_owned()
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Resume).build().unwrap();
/// let again = app.test_client().get("/resume").header("last-event-id", "41").send().await;
/// assert_eq!(again.text(), "41");
/// assert_eq!(app.test_client().get("/resume").send().await.text(), "start");
/// # });
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LastEventId(Option<String>);

impl LastEventId {
    /// The id, if the client sent one.
    pub fn get(&self) -> Option<&str> {
        self.0.as_deref()
    }

    /// The id, owned.
    pub fn into_inner(self) -> Option<String> {
        self.0
    }
}

impl FromRequestParts for LastEventId {
    const INPUT: InputMeta = InputMeta::request()
        .with_refusals(&[refusal::INVALID_HEADER])
        .with_header(HeaderMeta::new(
            "last-event-id",
            "The id of the last event a reconnecting client saw: the stream resumes after it.",
        ));

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let Some(value) = cx.headers().get("last-event-id") else {
            return Ok(LastEventId(None));
        };
        match std::str::from_utf8(value.as_bytes()) {
            Ok(id) => Ok(LastEventId(Some(id.to_owned()))),
            Err(_) => Err(refusal::INVALID_HEADER.error("header `Last-Event-ID`: not UTF-8")),
        }
    }
}
