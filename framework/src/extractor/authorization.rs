//! `Authorization: <scheme> <credentials>`, for any HTTP authentication
//! scheme; [`Bearer`](super::Bearer) is the `Bearer` case.

use std::marker::PhantomData;

use http::{HeaderMap, HeaderValue, header};

use super::FromRequestParts;
use crate::{
    describe::{ErrorMeta, InputMeta, SecurityMeta},
    error::{ApiError, refusal},
    request::RequestContext,
};

/// A security scheme whose credential travels in `Authorization`: the
/// type parameter of [`Authorization`]. Its [`SECURITY`](Self::SECURITY)
/// names the scheme, its word and its description, for the manifest,
/// OpenAPI and the SDKs.
///
/// `SECURITY` is made with [`SecurityMeta::authorization`] or
/// [`SecurityMeta::bearer`]; with an API key scheme, a route that takes
/// the extractor does not compile.
///
/// ```
/// use framework::{AuthScheme, SecurityMeta};
///
/// /// `Authorization: Token <jwt>`.
/// struct ApiToken;
///
/// impl AuthScheme for ApiToken {
///     const SECURITY: &'static SecurityMeta =
///         &SecurityMeta::authorization("api_token", "Token", "A JWT issued by the login route.");
/// }
/// ```
///
/// An API key is no `Authorization` scheme:
///
/// ```compile_fail
/// use framework::prelude::*;
/// use framework::{AuthScheme, Authorization, SecurityKind, SecurityMeta};
///
/// struct Key;
///
/// impl AuthScheme for Key {
///     const SECURITY: &'static SecurityMeta =
///         &SecurityMeta::new("key", SecurityKind::ApiKeyHeader { name: "x-key" }, "A key.");
/// }
///
/// struct Echo;
///
/// #[controller("key")]
/// impl Echo {
///     #[typed_route::get("")]
///     async fn key(&self, key: Authorization<Key>) -> String {
///         key.credentials().to_owned()
///     }
/// }
///
/// let app = App::builder().controller(Echo).build().unwrap();
/// ```
pub trait AuthScheme: Send + Sync + 'static {
    /// The scheme the extractor reads and documents.
    const SECURITY: &'static SecurityMeta;
}

/// The credentials of an `Authorization: <scheme> <credentials>` header,
/// for the scheme `S` declares (e.g. `Authorization: Token <jwt>`).
///
/// The scheme's word is matched case-insensitively (RFC 9110), then one or
/// more spaces and non-empty credentials. A missing or malformed header,
/// or another scheme, is `401 unauthorized` with `WWW-Authenticate:
/// <scheme>`. The route declares `S`'s scheme, so OpenAPI and the SDKs
/// name it, and the SDKs take the bare token and add `<scheme> `
/// themselves. Used directly it only proves credentials were sent; a guard
/// of your own checks them (see [`FromRequestParts`](crate::FromRequestParts))
/// and answers [`refused`](Self::refused) when they are wrong.
///
/// ```
/// use framework::prelude::*;
/// use framework::{AuthScheme, Authorization, SecurityMeta};
///
/// struct ApiToken;
///
/// impl AuthScheme for ApiToken {
///     const SECURITY: &'static SecurityMeta =
///         &SecurityMeta::authorization("api_token", "Token", "An API token.");
/// }
///
/// struct Echo;
///
/// #[controller("token")]
/// impl Echo {
///     #[typed_route::get("")]
///     async fn token(&self, token: Authorization<ApiToken>) -> String {
///         token.credentials().to_owned()
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Echo).build().unwrap();
/// let ok = app.test_client().get("/token").header("authorization", "Token abc").send().await;
/// assert_eq!(ok.text(), "abc");
/// let bearer = app.test_client().get("/token").header("authorization", "Bearer abc").send().await;
/// assert_eq!(bearer.status(), 401);
/// assert_eq!(bearer.problem().code, "unauthorized");
/// # });
/// ```
pub struct Authorization<S: AuthScheme> {
    credentials: String,
    scheme: PhantomData<fn() -> S>,
}

impl<S: AuthScheme> Clone for Authorization<S> {
    fn clone(&self) -> Self {
        Authorization::new(self.credentials.clone())
    }
}

impl<S: AuthScheme> PartialEq for Authorization<S> {
    fn eq(&self, other: &Self) -> bool {
        self.credentials == other.credentials
    }
}

impl<S: AuthScheme> Eq for Authorization<S> {}

/// Keeps the credentials out of logs.
impl<S: AuthScheme> std::fmt::Debug for Authorization<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Authorization({} ..)", Self::SCHEME)
    }
}

impl<S: AuthScheme> Authorization<S> {
    /// The scheme's word; an API key scheme fails to compile here.
    const SCHEME: &'static str = match S::SECURITY.kind.authorization_scheme() {
        Some(scheme) => scheme,
        None => {
            panic!("AuthScheme::SECURITY is SecurityMeta::authorization or SecurityMeta::bearer")
        }
    };

    fn new(credentials: String) -> Self {
        Authorization {
            credentials,
            scheme: PhantomData,
        }
    }

    /// The credentials, without the scheme's word: `abc` of `Token abc`.
    pub fn credentials(&self) -> &str {
        &self.credentials
    }

    /// `401 unauthorized` with `WWW-Authenticate: <scheme>`, as a guard
    /// answers credentials it does not accept.
    pub fn refused(message: impl Into<String>) -> ApiError {
        refused(Self::SCHEME, message)
    }

    /// The credentials of `headers`, or why there are none.
    fn parse(headers: &HeaderMap) -> Result<Self, ApiError> {
        credentials(headers, Self::SCHEME).map(|credentials| Self::new(credentials.to_owned()))
    }
}

impl<S: AuthScheme> FromRequestParts for Authorization<S> {
    const INPUT: InputMeta = InputMeta::request()
        .with_refusals(&[refusal::UNAUTHORIZED])
        .with_security(S::SECURITY)
        .with_errors(&[ErrorMeta::new(401, "No credentials were sent.")]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Self::parse(cx.headers())
    }
}

/// The credentials in `headers`' `Authorization` for `scheme`, or the
/// `401` saying why there are none: the one reader of the header, for
/// [`Authorization`] and [`Bearer`](super::Bearer).
pub(super) fn credentials<'h>(
    headers: &'h HeaderMap,
    scheme: &'static str,
) -> Result<&'h str, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(refused(
            scheme,
            format!("authorization: expected `{scheme} <credentials>`, got none"),
        ));
    };
    let text = value.to_str().unwrap_or_default();
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    // 1*SP before the credentials (RFC 9110); trailing whitespace is no
    // part of them.
    let credentials = rest.trim_start_matches(' ').trim_end();
    if !word.eq_ignore_ascii_case(scheme) || credentials.is_empty() {
        return Err(refused(
            scheme,
            format!("authorization: expected `{scheme} <credentials>`"),
        ));
    }
    Ok(credentials)
}

/// Whether `headers` carry an `Authorization` of `scheme` (its word, in
/// any case), well-formed or not: what tells an optional guard of that
/// scheme that a caller tried to sign in.
pub(super) fn scheme_sent(headers: &HeaderMap, scheme: &str) -> bool {
    headers.get_all(header::AUTHORIZATION).iter().any(|value| {
        let text = value.to_str().unwrap_or_default();
        let word = text.split_once(' ').map_or(text, |(word, _)| word);
        word.eq_ignore_ascii_case(scheme)
    })
}

/// `401 unauthorized` with `WWW-Authenticate: <scheme>`.
pub(super) fn refused(scheme: &'static str, message: impl Into<String>) -> ApiError {
    let error = refusal::UNAUTHORIZED.error(message);
    // A scheme is a token (`SecurityMeta::authorization` checks), so a
    // valid header value.
    match HeaderValue::from_str(scheme) {
        Ok(value) => error.with_header(header::WWW_AUTHENTICATE, value),
        Err(_) => error,
    }
}

#[cfg(test)]
mod tests {
    use http::StatusCode;

    use super::*;

    struct Token;

    impl AuthScheme for Token {
        const SECURITY: &'static SecurityMeta =
            &SecurityMeta::authorization("token", "Token", "A token.");
    }

    fn parse(value: Option<&str>) -> Result<Authorization<Token>, ApiError> {
        let mut headers = HeaderMap::new();
        if let Some(value) = value {
            headers.insert(header::AUTHORIZATION, value.parse().unwrap());
        }
        Authorization::parse(&headers)
    }

    #[test]
    fn reads_the_credentials_of_its_scheme_in_any_case() {
        assert_eq!(parse(Some("Token abc")).unwrap().credentials(), "abc");
        assert_eq!(parse(Some("token abc")).unwrap().credentials(), "abc");
        assert_eq!(
            parse(Some("TOKEN  a.b-c= ")).unwrap().credentials(),
            "a.b-c="
        );
    }

    #[test]
    fn refuses_other_schemes_and_empty_credentials() {
        for bad in [
            None,
            Some("Bearer abc"),
            Some("Token"),
            Some("Token "),
            Some("Tokenabc"),
        ] {
            let err = parse(bad).unwrap_err();
            assert_eq!(err.status(), StatusCode::UNAUTHORIZED, "{bad:?}");
            let response = err.into_response();
            assert_eq!(response.headers()["www-authenticate"], "Token", "{bad:?}");
        }
    }

    #[test]
    fn declares_its_scheme_and_refusal_and_hides_the_credentials() {
        let input = <Authorization<Token> as FromRequestParts>::INPUT;
        assert_eq!(input.security, Some(Token::SECURITY));
        assert_eq!(input.refusals, &[refusal::UNAUTHORIZED]);
        assert_eq!(
            format!("{:?}", parse(Some("Token secret")).unwrap()),
            "Authorization(Token ..)"
        );
    }
}
