//! Turning a handler's answer into a response.

use http::{HeaderValue, StatusCode, header};
use serde::Serialize;

use crate::{
    body::{Body, Response},
    error::ApiError,
};

/// The media type of JSON answers.
const JSON: &str = "application/json";

/// A JSON answer with `status`.
#[doc(hidden)]
pub fn reply_json<T: Serialize + ?Sized>(value: &T, status: u16) -> Response {
    match serde_json::to_vec(value) {
        Ok(bytes) => {
            let mut response = http::Response::new(Body::from(bytes));
            *response.status_mut() = success_status(status);
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(JSON));
            response
        }
        Err(err) => {
            ApiError::internal(format_args!("serializing the answer failed: {err}")).into_response()
        }
    }
}

/// An answer without a body (`204 No Content` unless told otherwise).
#[doc(hidden)]
pub fn reply_empty(status: u16) -> Response {
    let mut response = http::Response::new(Body::empty());
    *response.status_mut() = success_status(status);
    response
}

/// A fallible JSON answer.
#[doc(hidden)]
pub fn reply_json_result<T: Serialize, E: Into<ApiError>>(
    result: Result<T, E>,
    status: u16,
) -> Response {
    match result {
        Ok(value) => reply_json(&value, status),
        Err(err) => err.into().into_response(),
    }
}

/// A fallible answer without a body.
#[doc(hidden)]
pub fn reply_empty_result<E: Into<ApiError>>(result: Result<(), E>, status: u16) -> Response {
    match result {
        Ok(()) => reply_empty(status),
        Err(err) => err.into().into_response(),
    }
}

/// The status the macro checked to be 2xx.
fn success_status(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::OK)
}
