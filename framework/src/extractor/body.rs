//! The JSON request body.

use http::header;

use super::{FromRequest, wraps_value};
use crate::{
    describe::{ContentKind, InputMeta},
    dto::{Dto, decode_json},
    error::{ApiError, refusal},
    request::RequestContext,
};

/// The request body, parsed from JSON as a `T` and validated against every
/// constraint `T` declares.
///
/// The body must be `application/json` (or `application/*+json`), else the
/// answer is `415 unsupported_media_type`. JSON that is not a valid `T` is
/// `400 invalid_body` listing every problem with its path
/// (`$input.files[2].url`). Bodies over the app's limit are refused with
/// `413` before this runs. A `#[dto]` type's body is read by the decoder
/// `#[dto]` generated for it, in one pass over the body's bytes, each field
/// checked as it is read (so are generic DTOs whose arguments have
/// decoders, and containers of such types; other types by serde, through
/// simd-json); only a refused body is read a second time, to list its
/// errors.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Comment {
///     #[tags(min_length = 1, max_length = 280)]
///     text: String,
/// }
///
/// struct Comments;
///
/// #[controller("comments")]
/// impl Comments {
///     #[typed_route::post("")]
///     async fn create(&self, body: TypedBody<Comment>) -> String {
///         body.into_inner().text
///     }
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TypedBody<T>(pub T);

wraps_value!(TypedBody, "The parsed body.");

impl<T: Dto> FromRequest for TypedBody<T> {
    const INPUT: InputMeta = InputMeta::body(
        ContentKind::Json,
        "application/json",
        Some(<T as crate::schema::ToSchema>::schema),
    );

    async fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        check_json_content_type(cx.headers())?;
        let body = cx.collect_body().await?;
        if body.is_empty() {
            return Err(
                refusal::INVALID_BODY.error("body: expected a JSON value, got an empty body")
            );
        }
        decode_json(&body, "$input", cx.json_decoder::<T>()).map(TypedBody)
    }
}

/// Refuses a body that is not declared as JSON.
fn check_json_content_type(headers: &http::HeaderMap) -> Result<(), ApiError> {
    check_content_type(headers, "application/json", |kind, subtype| {
        kind.eq_ignore_ascii_case("application")
            && (subtype.eq_ignore_ascii_case("json")
                || subtype.len() > 5 && subtype[subtype.len() - 5..].eq_ignore_ascii_case("+json"))
    })
}

/// Refuses a body whose `Content-Type` essence (`type/subtype`, parameters
/// left out) does not pass `accepts`, naming `wanted` in the `415`.
pub(crate) fn check_content_type(
    headers: &http::HeaderMap,
    wanted: &str,
    accepts: impl FnOnce(&str, &str) -> bool,
) -> Result<(), ApiError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok());
    let accepted = content_type.is_some_and(|value| {
        let essence = value.split(';').next().unwrap_or_default().trim();
        essence
            .split_once('/')
            .is_some_and(|(kind, subtype)| accepts(kind, subtype))
    });
    if accepted {
        Ok(())
    } else {
        Err(refusal::UNSUPPORTED_MEDIA_TYPE.error(format!(
            "body: expected `{wanted}`, got {}",
            content_type.map_or("no content type".to_owned(), |value| format!("`{value}`"))
        )))
    }
}

#[cfg(test)]
mod tests {
    use http::StatusCode;

    use super::*;

    fn headers(content_type: &str) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        map.insert(header::CONTENT_TYPE, content_type.parse().unwrap());
        map
    }

    #[test]
    fn accepts_json_media_types() {
        for ok in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON",
            "application/merge-patch+json",
        ] {
            assert!(check_json_content_type(&headers(ok)).is_ok(), "{ok}");
        }
    }

    #[test]
    fn refuses_other_media_types() {
        for bad in [
            "text/plain",
            "application/jsonp",
            "application/+json",
            "json",
        ] {
            let err = check_json_content_type(&headers(bad)).unwrap_err();
            assert_eq!(err.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "{bad}");
        }
        let err = check_json_content_type(&http::HeaderMap::new()).unwrap_err();
        assert_eq!(
            err.message(),
            "body: expected `application/json`, got no content type"
        );
    }
}
