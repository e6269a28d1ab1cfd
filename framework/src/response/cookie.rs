//! `Set-Cookie` with secure defaults.

use std::time::Duration;

use http::HeaderValue;

pub use cookie::SameSite;

/// A cookie to set, with the defaults a session cookie wants: `HttpOnly`
/// (scripts cannot read it), `SameSite=Lax` (not sent on cross-site
/// posts), `Path=/`. Add `Secure` for HTTPS sites with [`SetCookie::secure`].
/// Values are percent-encoded.
///
/// ```
/// use framework::SetCookie;
/// use std::time::Duration;
///
/// let cookie = SetCookie::new("session", "a b").secure().max_age(Duration::from_secs(3600));
/// assert_eq!(
///     cookie.to_header().unwrap(),
///     "session=a%20b; HttpOnly; SameSite=Lax; Secure; Path=/; Max-Age=3600"
/// );
/// assert_eq!(
///     SetCookie::removal("session").to_header().unwrap(),
///     "session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct SetCookie {
    cookie: cookie::Cookie<'static>,
}

impl SetCookie {
    /// `name=value` with the secure defaults.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        let cookie = cookie::Cookie::build((name.into(), value.into()))
            .http_only(true)
            .same_site(SameSite::Lax)
            .path("/")
            .build();
        SetCookie { cookie }
    }

    /// A cookie that removes `name` from the browser.
    pub fn removal(name: impl Into<String>) -> Self {
        SetCookie::new(name, "").max_age(Duration::ZERO)
    }

    /// Sent over HTTPS only.
    #[must_use]
    pub fn secure(mut self) -> Self {
        self.cookie.set_secure(true);
        self
    }

    /// Readable by scripts (not `HttpOnly`): only for values that are not
    /// secrets.
    #[must_use]
    pub fn readable_by_scripts(mut self) -> Self {
        self.cookie.set_http_only(false);
        self
    }

    /// The `SameSite` policy.
    #[must_use]
    pub fn same_site(mut self, same_site: SameSite) -> Self {
        self.cookie.set_same_site(same_site);
        self
    }

    /// The path it is sent for.
    #[must_use]
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.cookie.set_path(path.into());
        self
    }

    /// How long it lives; without one it lasts the browser session.
    #[must_use]
    pub fn max_age(mut self, max_age: Duration) -> Self {
        let seconds = i64::try_from(max_age.as_secs()).unwrap_or(i64::MAX);
        self.cookie
            .set_max_age(cookie::time::Duration::seconds(seconds));
        self
    }

    /// The `Set-Cookie` header value; `None` when the name or value holds
    /// characters a header cannot.
    pub fn to_header(&self) -> Option<HeaderValue> {
        HeaderValue::try_from(self.cookie.encoded().to_string()).ok()
    }
}
