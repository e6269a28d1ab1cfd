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

    /// A scheme of `kind`.
    pub const fn new(name: &'static str, kind: SecurityKind, description: &'static str) -> Self {
        SecurityMeta {
            name,
            kind,
            description,
        }
    }
}
