//! The app's shutdown signal as a handler argument.

use super::FromRequestParts;
use crate::{describe::InputMeta, error::ApiError, request::RequestContext, shutdown::Shutdown};

/// The app's [`Shutdown`] signal, for a handler whose answer lives long:
/// an [`Sse`](crate::sse::Sse) stream ends with
/// [`Sse::until`](crate::sse::Sse::until) when it begins.
impl FromRequestParts for Shutdown {
    const INPUT: InputMeta = InputMeta::request();

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        Ok(cx.shutdown().clone())
    }
}
