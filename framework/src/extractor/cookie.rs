//! Typed request cookies.

use http::header;

use super::{FromRequestParts, header::decode_named, wraps_value};
use crate::{
    describe::{InputKind, InputMeta},
    dto::Dto,
    error::{ApiError, refusal},
    request::RequestContext,
};

/// The request's cookies (every `Cookie` header), read as the fields of a
/// `T` and validated like [`TypedHeaders`](crate::TypedHeaders): a missing
/// or bad cookie is `400 invalid_cookie` listing every problem
/// (`$cookies.session`). Values are percent-decoded; an `#[optional]` field
/// may be absent.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Preferences {
///     #[optional]
///     theme: Option<String>,
/// }
///
/// struct Home;
///
/// #[controller("home")]
/// impl Home {
///     #[typed_route::get("")]
///     async fn home(&self, cookies: Cookies<Preferences>) -> String {
///         cookies.0.theme.unwrap_or_else(|| "light".to_owned())
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Home).build().unwrap();
/// let response = app.test_client().get("/home").header("cookie", "a=1; theme=dark").send().await;
/// assert_eq!(response.text(), "dark");
/// # });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cookies<T>(pub T);

wraps_value!(Cookies, "The parsed cookies.");

impl<T: Dto> FromRequestParts for Cookies<T> {
    const INPUT: InputMeta =
        InputMeta::typed(InputKind::Cookies, <T as crate::schema::ToSchema>::schema);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let pairs = cookie_pairs(cx.headers());
        let mut grouped: Vec<(&str, Vec<&str>)> = Vec::with_capacity(pairs.len());
        for (name, value) in &pairs {
            match grouped.iter_mut().find(|(known, _)| known == name) {
                Some((_, values)) => values.push(value),
                None => grouped.push((name, vec![value])),
            }
        }
        decode_named(
            &grouped,
            false,
            "$cookies",
            refusal::INVALID_COOKIE,
            "cookies",
        )
        .map(Cookies)
    }
}

/// Whether a cookie named `name` was sent.
pub(super) fn cookie_sent(headers: &http::HeaderMap, name: &str) -> bool {
    cookies(headers).any(|cookie| cookie.name() == name)
}

/// The `name=value` pairs of every `Cookie` header, percent-decoded;
/// pairs that are not cookies are left out, as browsers do.
fn cookie_pairs(headers: &http::HeaderMap) -> Vec<(String, String)> {
    cookies(headers)
        .map(|cookie| (cookie.name().to_owned(), cookie.value().to_owned()))
        .collect()
}

/// The cookies of every `Cookie` header, percent-decoded; what is not a
/// cookie is left out.
fn cookies(headers: &http::HeaderMap) -> impl Iterator<Item = cookie::Cookie<'_>> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(cookie::Cookie::split_parse_encoded)
        .filter_map(Result::ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_cookie_header() {
        let mut headers = http::HeaderMap::new();
        headers.append(header::COOKIE, "a=1; b=two%20words".parse().unwrap());
        headers.append(header::COOKIE, "c=3; junk".parse().unwrap());
        let pairs = cookie_pairs(&headers);
        assert_eq!(
            pairs,
            [
                ("a".into(), "1".into()),
                ("b".into(), "two words".into()),
                ("c".into(), "3".into())
            ]
        );
    }
}
