//! `Authorization: Bearer <token>`.

use super::{FromRequestParts, authorization};
use crate::{
    describe::{ErrorMeta, InputMeta, SecurityMeta},
    error::{ApiError, refusal},
    request::RequestContext,
};

/// The scheme [`Bearer`] documents when used directly.
static BEARER: SecurityMeta = SecurityMeta::bearer("bearer", "A bearer token.");

/// The token of an `Authorization: Bearer <token>` header (RFC 6750): the
/// `Bearer` case of [`Authorization`](crate::Authorization), read by the
/// same code. For another scheme (`Authorization: Token <jwt>`), use
/// `Authorization` with a scheme of
/// [`SecurityMeta::authorization`](crate::SecurityMeta::authorization).
///
/// A missing or malformed header is `401 unauthorized` with
/// `WWW-Authenticate: Bearer`. Used directly it only proves a token was
/// sent; a guard of your own checks it (see
/// [`FromRequestParts`](crate::FromRequestParts)) and declares its own
/// scheme, so the document and SDKs name it.
///
/// ```
/// use framework::prelude::*;
///
/// struct Echo;
///
/// #[controller("token")]
/// impl Echo {
///     #[typed_route::get("")]
///     async fn token(&self, bearer: Bearer) -> String { bearer.token().to_owned() }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Echo).build().unwrap();
/// let ok = app.test_client().get("/token").header("authorization", "Bearer abc").send().await;
/// assert_eq!(ok.text(), "abc");
/// let missing = app.test_client().get("/token").send().await;
/// assert_eq!(missing.status(), 401);
/// assert_eq!(missing.problem().code, "unauthorized");
/// # });
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Bearer(String);

impl std::fmt::Debug for Bearer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Bearer(..)")
    }
}

impl Bearer {
    /// The token.
    pub fn token(&self) -> &str {
        &self.0
    }

    /// `401 unauthorized` with `WWW-Authenticate: Bearer`, as a guard
    /// answers a token it does not accept.
    pub fn refused(message: impl Into<String>) -> ApiError {
        authorization::refused("Bearer", message)
    }

    /// The token of `headers`, or why there is none.
    fn parse(headers: &http::HeaderMap) -> Result<Bearer, ApiError> {
        authorization::credentials(headers, "Bearer").map(|token| Bearer(token.to_owned()))
    }
}

impl FromRequestParts for Bearer {
    const INPUT: InputMeta = InputMeta::request()
        .with_refusals(&[refusal::UNAUTHORIZED])
        .with_security(&BEARER)
        .with_errors(&[ErrorMeta::new(401, "No bearer token was sent.")]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Bearer::parse(cx.headers())
    }
}

#[cfg(test)]
mod tests {
    use http::{StatusCode, header};

    use super::*;

    fn parse(value: &str) -> Result<Bearer, ApiError> {
        let mut headers = http::HeaderMap::new();
        headers.insert(header::AUTHORIZATION, value.parse().unwrap());
        Bearer::parse(&headers)
    }

    #[test]
    fn reads_the_token() {
        assert_eq!(parse("Bearer abc.def").unwrap().token(), "abc.def");
        assert_eq!(parse("bearer  x ").unwrap().token(), "x");
    }

    #[test]
    fn refuses_other_schemes() {
        for bad in ["Basic abc", "Bearer", "Bearer ", "abc"] {
            let err = parse(bad).unwrap_err();
            assert_eq!(err.status(), StatusCode::UNAUTHORIZED, "{bad}");
        }
        let err = Bearer::parse(&http::HeaderMap::new()).unwrap_err();
        assert_eq!(err.into_response().headers()["www-authenticate"], "Bearer");
    }
}
