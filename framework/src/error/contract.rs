//! An app's own error contract: the status and body every error is
//! answered with, the framework's refusals and the handlers' errors alike,
//! and documented as answered.

use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};
use serde::Serialize;

use super::{ApiError, PROBLEM_JSON, refusal::Refusal};
use crate::{
    body::{Body, Response},
    schema::{Registry, Schema, ToSchema},
};

/// How an app answers errors, when it is not with the framework's
/// `application/problem+json` problem document: the status each error is
/// answered with and the body, a `#[dto]` type made from the error (its
/// status, code, message and every validation issue with its path,
/// expected type and value). Declared once with
/// [`AppBuilder::errors`](crate::AppBuilder::errors), it applies to the
/// framework's refusals (`400 invalid_body`, a guard's `401`, `404` for no
/// route, `413`, `415` ...) and to the handlers' errors alike, to what
/// [`TestClient`](crate::TestClient) and real sockets see, and the
/// manifest, the OpenAPI document and both SDKs state exactly these
/// statuses and this body.
///
/// ```
/// use std::collections::BTreeMap;
///
/// use framework::{ErrorContract, prelude::*, refusal::{Refusal, RefusalKind}};
///
/// /// `{"errors": {"title": ["is too short"]}}`
/// #[dto]
/// struct Errors {
///     errors: BTreeMap<String, Vec<String>>,
/// }
///
/// struct FieldErrors;
///
/// impl ErrorContract for FieldErrors {
///     type Body = Errors;
///
///     // Refused input is `422`; everything else keeps its status.
///     fn status(&self, status: http::StatusCode, refusal: Option<&Refusal>) -> http::StatusCode {
///         match refusal {
///             Some(refusal) if refusal.kind == RefusalKind::Validation => {
///                 http::StatusCode::UNPROCESSABLE_ENTITY
///             }
///             Some(refusal) if refusal.code == "invalid_request" => {
///                 http::StatusCode::UNPROCESSABLE_ENTITY
///             }
///             _ => status,
///         }
///     }
///
///     fn body(&self, err: &ApiError) -> Errors {
///         let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
///         for issue in err.issues() {
///             let field = issue.path.rsplit('.').next().unwrap_or("body").to_owned();
///             errors.entry(field).or_default().push(format!("must be {}", issue.expected));
///         }
///         if errors.is_empty() {
///             errors.insert("body".to_owned(), vec![err.message().to_owned()]);
///         }
///         Errors { errors }
///     }
/// }
///
/// #[dto]
/// struct Title { #[tags(min_length = 3)] title: String }
///
/// struct Articles;
///
/// #[controller("articles")]
/// impl Articles {
///     #[typed_route::post("")]
///     async fn create(&self, body: TypedBody<Title>) -> Result<Title, ApiError> {
///         Ok(body.into_inner())
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Articles).errors(FieldErrors).build().unwrap();
/// let refused = app
///     .test_client()
///     .post("/articles")
///     .json(&serde_json::json!({ "title": "x" }))
///     .send()
///     .await;
/// assert_eq!(refused.status(), 422);
/// assert_eq!(refused.headers()["content-type"], "application/json");
/// let body: serde_json::Value = refused.json();
/// assert_eq!(body["errors"]["title"][0], "must be string & MinLength<3>");
///
/// // Documented as answered: `422` with the app's body, and no `400`.
/// let route = &app.manifest().routes[0];
/// let statuses: Vec<u16> = route.errors.iter().map(|error| error.status).collect();
/// assert_eq!(statuses, [403, 408, 413, 415, 422]);
/// assert!(app.manifest().error_body.is_some());
/// # });
/// ```
pub trait ErrorContract: Send + Sync + 'static {
    /// The body of every error answer: a `#[dto]` type.
    type Body: Serialize + ToSchema;

    /// Its media type.
    const MEDIA_TYPE: &'static str = "application/json";

    /// The status an error raised with `status` is answered with;
    /// `refusal` is the declaration ([`crate::refusal`]) whose status and
    /// code the error has, whoever raised it (a handler's
    /// `ApiError::not_found` is `refusal::NOT_FOUND`, a guard's
    /// `Bearer::refused` is `refusal::UNAUTHORIZED`), and `None` for codes
    /// of the app's own. The documents use the same function: a route's
    /// refusals with their declaration, and the errors it declares by
    /// status alone (`errors(404 = ..)`, [`HandlerError::ERRORS`]) with
    /// `None`; so that what they say is what is answered, map a status
    /// the same with and without a refusal unless the refusal is one only
    /// the framework raises (the `Validation` kind, `invalid_request`,
    /// `payload_too_large` ...). The status unchanged unless overridden.
    ///
    /// [`HandlerError::ERRORS`]: crate::HandlerError::ERRORS
    fn status(&self, status: StatusCode, refusal: Option<&Refusal>) -> StatusCode {
        let _ = refusal;
        status
    }

    /// The body answered for `err`.
    fn body(&self, err: &ApiError) -> Self::Body;

    /// What the documents say of `refusal`'s answer: its
    /// [`description`](Refusal::description) unless overridden, e.g. to
    /// say how the body lists a refused input's problems.
    fn description(&self, refusal: &Refusal) -> String {
        refusal.description.to_owned()
    }
}

/// An app's error contract, as the app keeps it: `None` for the problem
/// document.
pub(crate) type ErrorAnswers = Option<Arc<dyn AnswersErrors>>;

/// [`ErrorContract`] without its body type, for the app to keep.
pub(crate) trait AnswersErrors: Send + Sync {
    /// The status and body of `err`'s answer, and the body's media type.
    fn answer(&self, err: &ApiError) -> (StatusCode, Bytes, &'static str);

    /// The status an error raised with `status` (by `refusal`) is
    /// answered with.
    fn status(&self, status: StatusCode, refusal: Option<&Refusal>) -> StatusCode;

    /// The body's media type and schema, for the manifest.
    fn describe(&self, registry: &mut Registry) -> (&'static str, Schema);

    /// What the documents say of `refusal`'s answer.
    fn description(&self, refusal: &Refusal) -> String;
}

impl<C: ErrorContract> AnswersErrors for C {
    fn answer(&self, err: &ApiError) -> (StatusCode, Bytes, &'static str) {
        let status = ErrorContract::status(self, err.status(), refusal_of(err));
        // A `#[dto]` body serializes without failing; should a foreign one
        // fail, the problem document is answered instead of nothing.
        match serde_json::to_vec(&self.body(err)) {
            Ok(body) => (status, Bytes::from(body), C::MEDIA_TYPE),
            Err(failed) => {
                tracing::error!(%failed, "an error contract's body could not be written");
                (err.status(), err.problem_json(), PROBLEM_JSON)
            }
        }
    }

    fn status(&self, status: StatusCode, refusal: Option<&Refusal>) -> StatusCode {
        ErrorContract::status(self, status, refusal)
    }

    fn describe(&self, registry: &mut Registry) -> (&'static str, Schema) {
        (C::MEDIA_TYPE, <C::Body as ToSchema>::schema(registry))
    }

    fn description(&self, refusal: &Refusal) -> String {
        ErrorContract::description(self, refusal)
    }
}

/// The framework's declaration of `err`, when it is one of its refusals.
fn refusal_of(err: &ApiError) -> Option<&'static Refusal> {
    super::refusal::ALL.iter().find(|declared| declared.is(err))
}

/// Writes the body of an error answer whose body was kept for the app
/// ([`ApiError::into_response`]): the problem document, or the app's
/// contract's status and body. Any other answer is returned as it is.
pub(crate) fn answer_error(mut response: Response, errors: Option<&dyn AnswersErrors>) -> Response {
    let Some(deferred) = response.body_mut().take_deferred() else {
        return response;
    };
    let body = match (errors, deferred.into_any().downcast::<ApiError>()) {
        (Some(contract), Ok(err)) => {
            let (status, body, media_type) = contract.answer(&err);
            *response.status_mut() = status;
            let media_type = HeaderValue::from_str(media_type)
                .unwrap_or_else(|_| HeaderValue::from_static("application/json"));
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, media_type);
            body
        }
        (None, Ok(err)) => err.problem_json(),
        // Only `ApiError`s are kept: nothing else can be here.
        (_, Err(_)) => Bytes::new(),
    };
    *response.body_mut() = Body::from(body);
    response
}
