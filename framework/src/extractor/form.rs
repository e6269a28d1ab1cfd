//! HTML form bodies: `application/x-www-form-urlencoded`.

use super::{FromRequest, body::check_content_type, query::parse_urlencoded, wraps_value};
use crate::{
    describe::{ContentKind, InputMeta},
    dto::Dto,
    error::{ApiError, refusal},
    request::RequestContext,
};

/// The media type of HTML forms.
pub(crate) const FORM: &str = "application/x-www-form-urlencoded";

/// A form body (`application/x-www-form-urlencoded`, what an HTML `<form>`
/// posts) read as the fields of a `T` and validated exactly like a JSON
/// [`TypedBody`](crate::TypedBody): the same `#[dto]`, the same issue paths
/// (`$input.title`), so a page can show each problem next to its field.
///
/// Nested fields are written `author[name]=kim`, lists `tags[0]=a`. Another
/// media type is `415`; the body limit and body timeout apply.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Login {
///     #[tags(min_length = 1)]
///     name: String,
/// }
///
/// struct Sessions;
///
/// #[controller("sessions")]
/// impl Sessions {
///     #[typed_route::post("")]
///     async fn create(&self, form: TypedForm<Login>) -> String {
///         form.into_inner().name
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let app = App::builder().controller(Sessions).build().unwrap();
/// let response = app.test_client().post("/sessions").form("name=kim+lee").send().await;
/// assert_eq!(response.text(), "kim lee");
/// let refused = app.test_client().post("/sessions").form("name=").send().await;
/// assert_eq!(refused.problem().errors[0].path, "$input.name");
/// # });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TypedForm<T>(pub T);

wraps_value!(TypedForm, "The parsed form.");

impl<T: Dto> FromRequest for TypedForm<T> {
    const INPUT: InputMeta = InputMeta::body(
        ContentKind::Form,
        FORM,
        Some(<T as crate::schema::ToSchema>::schema),
    );

    async fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        check_content_type(cx.headers(), FORM, |kind, subtype| {
            kind.eq_ignore_ascii_case("application")
                && subtype.eq_ignore_ascii_case("x-www-form-urlencoded")
        })?;
        let body = cx.collect_body().await?;
        let text = std::str::from_utf8(&body)
            .map_err(|_| refusal::INVALID_BODY.error("body: the form is not UTF-8"))?;
        parse_urlencoded(text, "$input", refusal::INVALID_BODY, "body").map(TypedForm)
    }
}
