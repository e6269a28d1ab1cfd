//! The security headers of HTML pages ([`Html<T>`](crate::Html) answers):
//! a `Content-Security-Policy` that runs no script and applies no style
//! but the app's own, `X-Content-Type-Options: nosniff`, no framing and a
//! `Referrer-Policy` that sends other sites no path.

use base64::Engine;
use http::{HeaderMap, HeaderValue, header};
use sha2::{Digest, Sha256};

use super::insert_nosniff;

/// The policy of a page that allows no inline script or style.
pub(crate) const DEFAULT_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The default `Referrer-Policy`.
const DEFAULT_REFERRER_POLICY: &str = "strict-origin-when-cross-origin";

/// The security headers an app's HTML pages ([`Html<T>`](crate::Html)
/// answers) carry, set with
/// [`AppBuilder::html_headers`](crate::AppBuilder::html_headers). Without
/// it a page carries these defaults:
///
/// | header | default |
/// |---|---|
/// | `Content-Security-Policy` | `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'` |
/// | `X-Content-Type-Options` | `nosniff` |
/// | `X-Frame-Options` | `DENY` |
/// | `Referrer-Policy` | `strict-origin-when-cross-origin` |
///
/// So a script or style written in the page itself does not run until
/// the app allows it by its exact text ([`allow_script`](Self::allow_script),
/// [`allow_style`](Self::allow_style)): the policy then lists its SHA-256
/// hash, and a script injected into the page (text that escaped escaping)
/// is still refused by the browser.
///
/// ```
/// use askama::Template;
/// use framework::{HtmlHeaders, prelude::*};
///
/// /// The page's script, written into the page with `|safe`.
/// const CLOCK: &str = "document.getElementById('now').textContent = new Date();";
///
/// #[derive(Template)]
/// #[template(source = "<p id=now></p><script>{{ script|safe }}</script>", ext = "html")]
/// struct Clock { script: &'static str }
///
/// struct Pages;
///
/// #[controller("")]
/// impl Pages {
///     #[typed_route::get("clock")]
///     async fn clock(&self) -> Html<Clock> { Html(Clock { script: CLOCK }) }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder()
///     .controller(Pages)
///     .html_headers(HtmlHeaders::new().allow_script(CLOCK))
///     .build()
///     .unwrap();
/// let page = app.test_client().get("/clock").send().await;
/// let policy = page.header("content-security-policy").unwrap();
/// assert!(policy.contains("script-src 'self' 'sha256-"), "{policy}");
/// assert!(policy.contains("frame-ancestors 'none'"));
/// assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
/// assert_eq!(page.header("x-frame-options"), Some("DENY"));
/// assert_eq!(page.header("referrer-policy"), Some("strict-origin-when-cross-origin"));
/// # });
/// ```
#[derive(Clone, Debug, Default)]
pub struct HtmlHeaders {
    scripts: Vec<String>,
    styles: Vec<String>,
    policy: Option<String>,
    referrer_policy: Option<String>,
}

impl HtmlHeaders {
    /// The defaults (see above).
    pub fn new() -> Self {
        HtmlHeaders::default()
    }

    /// Lets the inline script whose text (between `<script>` and
    /// `</script>`, exactly) is `text` run: its hash joins `script-src`.
    pub fn allow_script(mut self, text: &str) -> Self {
        self.scripts.push(hash(text));
        self
    }

    /// Lets the inline style whose text (between `<style>` and `</style>`,
    /// exactly) is `text` apply: its hash joins `style-src`.
    pub fn allow_style(mut self, text: &str) -> Self {
        self.styles.push(hash(text));
        self
    }

    /// Replaces the whole `Content-Security-Policy` with `policy` (the
    /// allowed scripts and styles are then not added to it).
    pub fn content_security_policy(mut self, policy: &str) -> Self {
        self.policy = Some(policy.to_owned());
        self
    }

    /// Replaces the `Referrer-Policy` (`no-referrer`, `same-origin` ...).
    pub fn referrer_policy(mut self, policy: &str) -> Self {
        self.referrer_policy = Some(policy.to_owned());
        self
    }

    /// The header values, checked once when the app is built; the text of
    /// one that is not a header value, if any.
    pub(crate) fn prepare(&self) -> Result<PageHeaders, String> {
        let policy = match &self.policy {
            Some(policy) => policy.clone(),
            None => with_sources(
                &with_sources(DEFAULT_CSP, "script-src 'self'", &self.scripts),
                "style-src 'self'",
                &self.styles,
            ),
        };
        let referrer = self
            .referrer_policy
            .as_deref()
            .unwrap_or(DEFAULT_REFERRER_POLICY);
        Ok(PageHeaders {
            policy: HeaderValue::try_from(policy.as_str()).map_err(|_| policy.clone())?,
            referrer: HeaderValue::try_from(referrer).map_err(|_| referrer.to_owned())?,
        })
    }
}

/// `'sha256-<base64>'` of `text`, as CSP writes a hash source.
fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// `policy` with `sources` added after its `directive`.
fn with_sources(policy: &str, directive: &str, sources: &[String]) -> String {
    if sources.is_empty() {
        return policy.to_owned();
    }
    let mut added = directive.to_owned();
    for source in sources {
        added.push(' ');
        added.push_str(source);
    }
    policy.replacen(directive, &added, 1)
}

/// The prepared headers of an app's pages.
#[derive(Clone, Debug)]
pub(crate) struct PageHeaders {
    policy: HeaderValue,
    referrer: HeaderValue,
}

impl PageHeaders {
    /// Sets the headers of a page.
    pub(crate) fn apply(&self, headers: &mut HeaderMap) {
        headers.insert(header::CONTENT_SECURITY_POLICY, self.policy.clone());
        headers.insert(header::REFERRER_POLICY, self.referrer.clone());
        insert_fixed(headers);
    }
}

/// Sets the default headers of a page.
pub(crate) fn apply_defaults(headers: &mut HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(DEFAULT_CSP),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static(DEFAULT_REFERRER_POLICY),
    );
    insert_fixed(headers);
}

/// The headers every page carries whatever the app says.
fn insert_fixed(headers: &mut HeaderMap) {
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    insert_nosniff(headers);
}

/// Marks a response as an HTML page, whose headers the app sets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HtmlPage;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_allowed_scripts_and_styles_into_the_policy() {
        // The CSP spec's example: `alert('Hello, world.');`.
        assert_eq!(
            hash("alert('Hello, world.');"),
            "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
        );
        let headers = HtmlHeaders::new()
            .allow_script("a")
            .allow_style("b")
            .prepare()
            .unwrap();
        let policy = headers.policy.to_str().unwrap();
        assert!(
            policy.contains(&format!("script-src 'self' {};", hash("a"))),
            "{policy}"
        );
        assert!(
            policy.contains(&format!("style-src 'self' {};", hash("b"))),
            "{policy}"
        );
        assert_eq!(
            HtmlHeaders::new()
                .prepare()
                .unwrap()
                .policy
                .to_str()
                .unwrap(),
            DEFAULT_CSP
        );
        assert!(
            HtmlHeaders::new()
                .content_security_policy("a\nb")
                .prepare()
                .is_err()
        );
    }
}
