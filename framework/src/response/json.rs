//! JSON answers: `#[dto]` types, collections, numbers, and [`Json<T>`].

use std::collections::{BTreeMap, HashMap, VecDeque};

use http::{HeaderValue, StatusCode, header};

use super::IntoResponse;
use crate::{
    body::{Body, Response},
    describe::{ContentKind, ContentManifest, ResponseManifest},
    dto::WriteJson,
    error::ApiError,
    schema::{Registry, ToSchema},
};

/// The media type of JSON answers: no `charset` parameter, as RFC 8259
/// defines none (see [`Json`]).
const JSON: &str = "application/json";

/// A JSON answer of any serializable type with a schema, for types that do
/// not answer JSON by themselves (`#[dto]` types, `Vec`, maps and numbers
/// do): `Json("text".to_owned())` answers the JSON string `"text"` where a
/// bare `String` would answer text.
///
/// ```
/// use framework::{IntoResponse, Json};
/// use http::StatusCode;
///
/// let response = Json("hi").into_response(StatusCode::OK);
/// assert_eq!(response.headers()["content-type"], "application/json");
/// ```
///
/// # Media type: `application/json`, without `charset`
///
/// Every JSON answer (`Json<T>`, `#[dto]` types, collections, numbers) is
/// labelled `application/json` and nothing more, deliberately:
///
/// - RFC 8259 (section 11) registers `application/json` with *no* `charset`
///   parameter ("adding one really has no effect on compliant
///   recipients"), and section 8.1 requires JSON exchanged between systems
///   to be UTF-8, which is what the framework writes.
/// - axum's `Json` and actix-web's `HttpResponseBuilder::json` send the
///   same `application/json` (`mime::APPLICATION_JSON`), so clients and
///   tests written against them see the same header here.
/// - Text answers differ: `text/plain; charset=utf-8` and `text/html;
///   charset=utf-8` say their charset because a `text/*` type without one
///   does not mean UTF-8.
///
/// A client that wants a charset to decode with should assume UTF-8 for
/// `application/json`, as the RFC says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T: WriteJson + ToSchema> IntoResponse for Json<T> {
    fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
        describe_json::<T>(status, registry)
    }

    fn into_response(self, status: StatusCode) -> Response {
        json_response(&self.0, status)
    }
}

/// The description of a JSON answer of `T`.
#[doc(hidden)]
pub fn describe_json<T: ToSchema + ?Sized>(
    status: u16,
    registry: &mut Registry,
) -> Vec<ResponseManifest> {
    vec![
        ResponseManifest::new(status).with_content(ContentManifest::new(
            ContentKind::Json,
            JSON,
            Some(T::schema(registry)),
        )),
    ]
}

/// A JSON answer with `status`, written by the value's [`WriteJson`] (the
/// bytes serde_json would write) into a buffer sized once.
#[doc(hidden)]
pub fn json_response<T: WriteJson + ?Sized>(value: &T, status: StatusCode) -> Response {
    match value.to_json() {
        Ok(bytes) => {
            let mut response = http::Response::new(Body::from(bytes));
            *response.status_mut() = status;
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(JSON));
            response
        }
        Err(err) => {
            ApiError::internal(format_args!("serializing the answer failed: {err}")).into_response()
        }
    }
}

macro_rules! json_answers {
    ($(impl[$($generics:tt)*] $ty:ty;)*) => {$(
        impl<$($generics)*> IntoResponse for $ty {
            fn describe(status: u16, registry: &mut Registry) -> Vec<ResponseManifest> {
                describe_json::<Self>(status, registry)
            }

            fn into_response(self, status: StatusCode) -> Response {
                json_response(&self, status)
            }
        }
    )*};
}

json_answers! {
    impl[T: WriteJson + ToSchema] Vec<T>;
    impl[T: WriteJson + ToSchema] VecDeque<T>;
    impl[T: WriteJson + ToSchema] Option<T>;
    impl[V: WriteJson + ToSchema, S] HashMap<String, V, S>;
    impl[V: WriteJson + ToSchema] BTreeMap<String, V>;
    impl[] serde_json::Value;
    impl[] bool;
    impl[] u8; impl[] u16; impl[] u32; impl[] u64; impl[] usize;
    impl[] i8; impl[] i16; impl[] i32; impl[] i64; impl[] isize;
    impl[] f32; impl[] f64;
    impl[] uuid::Uuid;
}
