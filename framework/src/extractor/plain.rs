//! Text and byte bodies.

use bytes::Bytes;

use super::{FromRequest, body::check_content_type};
use crate::{
    describe::{ContentKind, InputMeta},
    error::{ApiError, refusal},
    request::RequestContext,
    schema::ToSchema,
};

/// A `text/plain` body, as UTF-8 text (nestia's `@PlainBody`).
///
/// Another media type is `415`; text that is not UTF-8 is
/// `400 invalid_body`; the body limit and body timeout apply.
///
/// ```
/// use framework::prelude::*;
///
/// struct Echo;
///
/// #[controller("echo")]
/// impl Echo {
///     #[typed_route::post("")]
///     async fn echo(&self, text: PlainBody) -> String { text.0.to_uppercase() }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Echo).build().unwrap();
/// let response = app.test_client().post("/echo").text("héllo").send().await;
/// assert_eq!(response.headers()["content-type"], "text/plain; charset=utf-8");
/// assert_eq!(response.text(), "HÉLLO");
/// # });
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlainBody(pub String);

impl PlainBody {
    /// The text.
    pub fn into_inner(self) -> String {
        self.0
    }
}

impl FromRequest for PlainBody {
    const INPUT: InputMeta = InputMeta::body(
        ContentKind::Text,
        "text/plain",
        Some(<String as ToSchema>::schema),
    );

    async fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        check_content_type(cx.headers(), "text/plain", |kind, subtype| {
            kind.eq_ignore_ascii_case("text") && subtype.eq_ignore_ascii_case("plain")
        })?;
        let body = cx.collect_body().await?;
        String::from_utf8(body.into())
            .map(PlainBody)
            .map_err(|_| refusal::INVALID_BODY.error("body: the text is not UTF-8"))
    }
}

/// The body's bytes, whatever their media type (documented as
/// `application/octet-stream`); the body limit and body timeout apply.
impl FromRequest for Bytes {
    const INPUT: InputMeta = InputMeta::body(ContentKind::Bytes, "application/octet-stream", None);

    async fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        cx.collect_body().await
    }
}
