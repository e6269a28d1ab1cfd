//! Credentials a route needs, declared by the guards that check them.

/// How a credential travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SecurityKind {
    /// `Authorization: Bearer <token>`.
    Bearer,
    /// A header carrying a key: `X-Api-Key: <key>`.
    ApiKeyHeader {
        /// The header's name.
        name: &'static str,
    },
    /// A cookie carrying a session id.
    ApiKeyCookie {
        /// The cookie's name.
        name: &'static str,
    },
    /// `Authorization: <scheme> <credentials>` for an HTTP authentication
    /// scheme other than `Bearer`, e.g. `Token` for `Authorization: Token
    /// <jwt>`. The scheme's word is matched case-insensitively (RFC 9110).
    Authorization {
        /// The scheme's word as the specification spells it: `Token`.
        scheme: &'static str,
    },
}

impl SecurityKind {
    /// The word before the credentials in `Authorization`: `Bearer` for
    /// [`Bearer`](SecurityKind::Bearer), the scheme of
    /// [`Authorization`](SecurityKind::Authorization); `None` for API keys.
    ///
    /// ```
    /// use framework::SecurityKind;
    ///
    /// assert_eq!(SecurityKind::Bearer.authorization_scheme(), Some("Bearer"));
    /// assert_eq!(SecurityKind::Authorization { scheme: "Token" }.authorization_scheme(), Some("Token"));
    /// assert_eq!(SecurityKind::ApiKeyHeader { name: "x-api-key" }.authorization_scheme(), None);
    /// ```
    pub const fn authorization_scheme(&self) -> Option<&'static str> {
        match self {
            SecurityKind::Bearer => Some("Bearer"),
            SecurityKind::Authorization { scheme } => Some(scheme),
            SecurityKind::ApiKeyHeader { .. } | SecurityKind::ApiKeyCookie { .. } => None,
        }
    }
}

/// A security scheme: a named kind of credential. A guard names the scheme
/// it checks in its [`InputMeta`](crate::InputMeta); the manifest collects
/// them, OpenAPI lists them under `securitySchemes` with a `security`
/// requirement on each operation, and the SDKs take the credential by the
/// scheme's name.
///
/// ```
/// use framework::{SecurityKind, SecurityMeta};
///
/// static MODERATOR: SecurityMeta = SecurityMeta::bearer("moderator", "The moderators' token.");
/// assert_eq!(MODERATOR.kind, SecurityKind::Bearer);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SecurityMeta {
    /// The scheme's name: an identifier, unique within the app.
    pub name: &'static str,
    /// How the credential travels.
    pub kind: SecurityKind,
    /// What the credential is, for people.
    pub description: &'static str,
}

impl SecurityMeta {
    /// A bearer token scheme.
    pub const fn bearer(name: &'static str, description: &'static str) -> Self {
        SecurityMeta {
            name,
            kind: SecurityKind::Bearer,
            description,
        }
    }

    /// An HTTP authentication scheme other than `Bearer`: the credential
    /// travels as `Authorization: <scheme> <credentials>`. A `scheme` that
    /// is no token (RFC 9110), e.g. empty or with a space, does not compile
    /// in a `static`.
    ///
    /// ```
    /// use framework::{SecurityKind, SecurityMeta};
    ///
    /// static API_TOKEN: SecurityMeta = SecurityMeta::authorization("api_token", "Token", "An API token.");
    /// assert_eq!(API_TOKEN.kind, SecurityKind::Authorization { scheme: "Token" });
    /// ```
    pub const fn authorization(
        name: &'static str,
        scheme: &'static str,
        description: &'static str,
    ) -> Self {
        assert!(
            is_token(scheme),
            "an authorization scheme is a token (RFC 9110): letters, digits, `!#$%&'*+-.^_`|~`"
        );
        SecurityMeta {
            name,
            kind: SecurityKind::Authorization { scheme },
            description,
        }
    }

    /// A scheme of `kind`.
    pub const fn new(name: &'static str, kind: SecurityKind, description: &'static str) -> Self {
        SecurityMeta {
            name,
            kind,
            description,
        }
    }
}

/// Whether `text` is an RFC 9110 token, as an authentication scheme is.
const fn is_token(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if !(byte.is_ascii_alphanumeric()
            || matches!(
                byte,
                b'!' | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'-'
                    | b'.'
                    | b'^'
                    | b'_'
                    | b'`'
                    | b'|'
                    | b'~'
            ))
        {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scheme_is_a_token() {
        assert!(is_token("Token"));
        assert!(is_token("SCRAM-SHA-256"));
        for bad in ["", "To ken", "Tok\u{e9}n", "a,b"] {
            assert!(!is_token(bad), "{bad:?}");
        }
    }
}
