//! The moderator guard: `Authorization: Bearer <BBS_MODERATOR_TOKEN>`.

use std::sync::Arc;

use framework::prelude::*;
use framework::{ErrorMeta, InputMeta, RequestContext, SecurityMeta, StateMeta};
use subtle::ConstantTimeEq;

/// The environment variable that holds the moderators' token.
pub const MODERATOR_TOKEN_VAR: &str = "BBS_MODERATOR_TOKEN";

/// The moderators' token, given to the app as state. Unset, moderation is
/// off and its routes answer `404` as if they did not exist.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ModeratorToken(Option<Arc<str>>);

impl std::fmt::Debug for ModeratorToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = if self.0.is_some() { "set" } else { "unset" };
        write!(f, "ModeratorToken({shown})")
    }
}

impl ModeratorToken {
    /// No token: moderation is off.
    pub fn unset() -> Self {
        ModeratorToken(None)
    }

    /// `token` as the moderators' token.
    ///
    /// # Errors
    /// A token that is empty or starts or ends with whitespace: no bearer
    /// header can carry it, so such a setting is a mistake, not a wish to
    /// turn moderation off.
    pub fn new(token: &str) -> Result<Self, String> {
        if token.is_empty() || token.trim() != token {
            return Err(format!(
                "{MODERATOR_TOKEN_VAR} is set but empty or padded with whitespace; unset it to turn moderation off"
            ));
        }
        Ok(ModeratorToken(Some(Arc::from(token))))
    }

    /// Reads [`MODERATOR_TOKEN_VAR`]; unset means moderation is off.
    ///
    /// # Errors
    /// As [`ModeratorToken::new`], or a value that is not UTF-8.
    pub fn from_env() -> Result<Self, String> {
        match std::env::var(MODERATOR_TOKEN_VAR) {
            Ok(token) => ModeratorToken::new(&token),
            Err(std::env::VarError::NotPresent) => Ok(ModeratorToken::unset()),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(format!("{MODERATOR_TOKEN_VAR} is not UTF-8"))
            }
        }
    }

    /// Whether moderation is on.
    pub fn is_set(&self) -> bool {
        self.0.is_some()
    }
}

/// The scheme the moderator routes need.
static MODERATOR: SecurityMeta = SecurityMeta::bearer(
    "moderator",
    "The moderators' token: the server's `BBS_MODERATOR_TOKEN`.",
);

/// A request from a moderator: its bearer token is the configured
/// [`ModeratorToken`], compared in constant time. A missing or wrong token
/// is `401` with `WWW-Authenticate: Bearer`; while no token is configured
/// the guarded routes answer `404 not_found`, as if absent.
#[derive(Debug)]
pub struct Moderator(());

impl FromRequestParts for Moderator {
    const INPUT: InputMeta = InputMeta::request()
        .with_security(&MODERATOR)
        .with_state(&[StateMeta::of::<ModeratorToken>])
        .with_errors(&[
            ErrorMeta::new(401, "No moderator token, or a wrong one, was sent."),
            ErrorMeta::new(
                404,
                "Moderation is off: the server has no `BBS_MODERATOR_TOKEN`.",
            ),
        ]);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let Some(expected) = cx.state::<ModeratorToken>()?.0.clone() else {
            // The same answer as a path no route serves.
            return Err(ApiError::not_found(format!(
                "no route for {} {}",
                cx.parts().method,
                cx.parts().uri.path()
            )));
        };
        let sent = Bearer::from_request_parts(cx).await?;
        if bool::from(sent.token().as_bytes().ct_eq(expected.as_bytes())) {
            Ok(Moderator(()))
        } else {
            Err(Bearer::refused("the moderator token does not match"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_tokens_no_header_can_carry() {
        assert!(ModeratorToken::new("").is_err());
        assert!(ModeratorToken::new(" padded").is_err());
        assert!(ModeratorToken::new("padded\n").is_err());
        assert!(ModeratorToken::new("s3cret-token").unwrap().is_set());
    }

    #[test]
    fn never_prints_the_token() {
        let token = ModeratorToken::new("s3cret-token").unwrap();
        assert_eq!(format!("{token:?}"), "ModeratorToken(set)");
    }
}
