//! `Option<G>`: a guard that may be absent, for routes that serve anyone
//! and personalize the answer for a signed-in caller.

use super::{FromRequestParts, authorization, cookie};
use crate::{
    describe::{InputMeta, SecurityKind, SecurityMeta},
    error::ApiError,
    request::RequestContext,
};

/// An optional guard: `None` when the request carries no credential of the
/// scheme `G` declares, else what `G` reads, so credentials that are sent
/// but wrong are still refused with `G`'s own error (a caller who signed in
/// is never served as anonymous by mistake).
///
/// "Carries a credential" is decided by the scheme's kind: an
/// `Authorization` header of the scheme's word (in any case) for
/// [`Bearer`](SecurityKind::Bearer) and
/// [`Authorization`](SecurityKind::Authorization) schemes, the header for
/// an API key header, the cookie for an API key cookie. The route
/// documents the scheme as optional (OpenAPI `security: [{scheme: []},
/// {}]`) and both SDKs send the credential when they have one.
///
/// `G` must declare its credential ([`InputMeta::with_security`]);
/// `Option<_>` of another extractor does not compile.
///
/// ```
/// use framework::prelude::*;
/// use framework::{InputMeta, RequestContext, SecurityMeta};
///
/// static USER_TOKEN: SecurityMeta = SecurityMeta::bearer("user_token", "A user's token.");
///
/// struct User(String);
///
/// impl FromRequestParts for User {
///     const INPUT: InputMeta = <Bearer as FromRequestParts>::INPUT.with_security(&USER_TOKEN);
///
///     async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
///         match Bearer::from_request_parts(cx).await?.token() {
///             "s3cret" => Ok(User("kim".to_owned())),
///             _ => Err(Bearer::refused("the token is not known")),
///         }
///     }
/// }
///
/// struct Greeting;
///
/// #[controller("greeting")]
/// impl Greeting {
///     #[typed_route::get("")]
///     async fn greet(&self, user: Option<User>) -> String {
///         match user {
///             Some(User(name)) => format!("hello {name}"),
///             None => "hello stranger".to_owned(),
///         }
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Greeting).build().unwrap();
/// let client = app.test_client();
/// assert_eq!(client.get("/greeting").send().await.text(), "hello stranger");
/// let kim = client.get("/greeting").header("authorization", "Bearer s3cret").send().await;
/// assert_eq!(kim.text(), "hello kim");
/// let wrong = client.get("/greeting").header("authorization", "Bearer guess").send().await;
/// assert_eq!(wrong.status(), 401);
/// # });
/// ```
impl<G: FromRequestParts + Send> FromRequestParts for Option<G> {
    const INPUT: InputMeta = G::INPUT.optional();

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        match G::INPUT.security {
            Some(security) if !credential_sent(security, cx.headers()) => Ok(None),
            _ => G::from_request_parts(cx).await.map(Some),
        }
    }
}

/// Whether `headers` carry a credential of `security`'s scheme, valid or
/// not.
fn credential_sent(security: &SecurityMeta, headers: &http::HeaderMap) -> bool {
    match security.kind {
        SecurityKind::ApiKeyHeader { name } => headers.contains_key(name),
        SecurityKind::ApiKeyCookie { name } => cookie::cookie_sent(headers, name),
        // `Bearer`, `Authorization { scheme }` and kinds to come that
        // travel in `Authorization`.
        kind => kind
            .authorization_scheme()
            .is_some_and(|scheme| authorization::scheme_sent(headers, scheme)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> http::HeaderMap {
        let mut headers = http::HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, http::HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn an_authorization_of_the_scheme_is_a_credential_sent() {
        let token = SecurityMeta::authorization("token", "Token", "A token.");
        assert!(credential_sent(
            &token,
            &headers(&[("authorization", "token abc")])
        ));
        assert!(credential_sent(
            &token,
            &headers(&[("authorization", "Token")])
        ));
        assert!(!credential_sent(
            &token,
            &headers(&[("authorization", "Bearer abc")])
        ));
        assert!(!credential_sent(&token, &headers(&[])));
        let bearer = SecurityMeta::bearer("bearer", "A token.");
        assert!(credential_sent(
            &bearer,
            &headers(&[("authorization", "Bearer x")])
        ));
    }

    #[test]
    fn a_key_header_or_cookie_is_a_credential_sent() {
        let header = SecurityMeta::new("key", SecurityKind::ApiKeyHeader { name: "x-key" }, "");
        assert!(credential_sent(&header, &headers(&[("x-key", "")])));
        assert!(!credential_sent(&header, &headers(&[("x-other", "k")])));
        let cookie = SecurityMeta::new("sid", SecurityKind::ApiKeyCookie { name: "sid" }, "");
        assert!(credential_sent(
            &cookie,
            &headers(&[("cookie", "a=1; sid=x")])
        ));
        assert!(!credential_sent(&cookie, &headers(&[("cookie", "sidx=1")])));
    }
}
