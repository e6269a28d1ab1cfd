//! `multipart/form-data` bodies: text fields and files, read as a `#[dto]`.

use super::{
    FormLimits,
    file::File,
    file::{lend, token},
    layout::{FormField, Layout, top_name},
    receive::{Limits, Received, receive},
};
use crate::{
    describe::{ContentKind, InputMeta},
    dto::{Dto, invalid},
    error::{ApiError, ValidationIssue, refusal},
    extractor::wraps_value,
    extractor::{FromRequest, check_content_type, parse_urlencoded},
    request::RequestContext,
    schema::{Schema, schema_of},
};

/// The media type of multipart forms.
pub(crate) const MULTIPART: &str = "multipart/form-data";

#[doc = include_str!("../docs/multipart.md")]
#[derive(Debug, Default)]
pub struct TypedFormData<T>(pub T);

wraps_value!(TypedFormData, "The parsed form.");

impl<T: Dto> FromRequest for TypedFormData<T> {
    const INPUT: InputMeta = InputMeta::body(
        ContentKind::Multipart,
        MULTIPART,
        Some(<T as crate::schema::ToSchema>::schema),
    );

    async fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
        check_content_type(cx.headers(), MULTIPART, |kind, subtype| {
            kind.eq_ignore_ascii_case("multipart") && subtype.eq_ignore_ascii_case("form-data")
        })?;
        let boundary = cx
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| multer::parse_boundary(value).ok())
            .ok_or_else(|| {
                refusal::INVALID_BODY.error("body: `multipart/form-data` needs a `boundary` parameter",
                )
                .with_issues([ValidationIssue::missing(
                    "$input",
                    "multipart/form-data parts between boundaries (the content type names none)",
                )])
            })?;
        let described = schema_of::<T>();
        let layout = Layout::new(&described.schema, &described.registry).ok_or_else(|| {
            ApiError::internal(format_args!(
                "TypedFormData<{}> reads the fields of a struct",
                std::any::type_name::<T>()
            ))
        })?;
        let limits = Limits {
            body: cx.body_limit(),
            timeout: cx.body_timeout(),
            files: cx.try_state::<FormLimits<T>>().map(FormLimits::fields),
        };
        let body = cx
            .take_raw_body()
            .ok_or_else(|| ApiError::internal("the request body was already taken"))?;
        let received = receive(body, boundary, layout, limits).await?;
        decode(received, layout).map(TypedFormData)
    }
}

/// The form as a `T`: its text values and files decoded as a form's text is
/// (`TypedForm`), each file standing in as a token that `File`'s
/// `Deserialize` claims; every problem of the parts and of the values in
/// one `400`.
fn decode<T: Dto>(received: Received, layout: Layout<'_>) -> Result<T, ApiError> {
    let Received {
        text,
        files,
        issues,
    } = received;
    let mut query = String::new();
    for (name, value) in &text {
        push_pair(&mut query, name, value);
    }
    let mut files: Vec<(String, Option<File>)> = files
        .into_iter()
        .map(|(field, file)| (field, Some(file)))
        .collect();
    let mut lent = Vec::with_capacity(files.len());
    for field in layout.fields() {
        let def = field.def();
        let list = match field {
            FormField::File { list, .. } => list.is_some(),
            FormField::Text(def) => matches!(def.schema, Schema::Array(_)),
        };
        let mut sent = text.iter().any(|(name, _)| top_name(name) == def.name);
        let of_field = files.iter_mut().filter(|(name, _)| *name == def.name);
        for (position, (_, file)) in of_field.enumerate() {
            let name = if list {
                format!("{}[{position}]", def.name)
            } else {
                def.name.clone()
            };
            push_pair(&mut query, &name, &token(lent.len()));
            lent.push(file.take());
            sent = true;
        }
        if list && def.required && !sent {
            // No part is an empty list, as `tags=` is to serde_qs.
            push_pair(&mut query, &def.name, "");
        }
    }
    let decoded = lend(&mut lent, || {
        parse_urlencoded::<T>(&query, "$input", refusal::INVALID_BODY, "body")
    });
    if issues.is_empty() {
        return decoded;
    }
    let mut all = issues;
    if let Err(refused) = decoded {
        // The value report also misses what the parts' problems left out:
        // a refused file, the list or object it was the only part of.
        let covered: Vec<String> = all.iter().map(|issue| issue.path.clone()).collect();
        let new = refused.issues().iter().filter(|issue| {
            !covered
                .iter()
                .any(|path| within(&issue.path, path) || within(path, &issue.path))
        });
        all.extend(new.cloned());
    }
    Err(invalid(refusal::INVALID_BODY, "body", all))
}

/// Whether `path` is `outer` or inside it.
fn within(path: &str, outer: &str) -> bool {
    path.strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// Appends `name=value`, percent-encoded as serde_qs reads it (the name's
/// brackets kept).
fn push_pair(query: &mut String, name: &str, value: &str) {
    use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
    const NAME: &percent_encoding::AsciiSet = &NON_ALPHANUMERIC.remove(b'[').remove(b']');
    if !query.is_empty() {
        query.push('&');
    }
    query.extend(utf8_percent_encode(name, NAME));
    query.push('=');
    query.extend(utf8_percent_encode(value, NON_ALPHANUMERIC));
}
