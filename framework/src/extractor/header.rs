//! Typed request headers.

use serde::de::{IntoDeserializer, value::MapDeserializer};
use serde_json::{Map, Value};

use super::{
    FromRequestParts,
    text::{self, TextValues},
    wraps_value,
};
use crate::error::refusal::{self, Refusal};
use crate::{
    describe::{InputKind, InputMeta},
    dto::{Dto, decode_text_map},
    error::{ApiError, ValidationIssue},
    request::RequestContext,
};

/// Request headers, read as the fields of a `T` and validated.
///
/// Field names are matched against lower-case header names, so name fields
/// with `#[serde(rename_all = "kebab-case")]` (`x_request_id` reads
/// `X-Request-Id`). A `Vec` field takes every value of a repeated header
/// and every item of a comma-separated one (RFC 9110: `a, b` is `a` and `b`,
/// and browsers' `fetch` joins repeated headers so);
/// an `#[optional]` field may be absent. A missing or bad header is
/// `400 invalid_header` listing every problem (`$headers["x-tenant-id"]`).
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// #[serde(rename_all = "kebab-case")]
/// struct Tenant {
///     x_tenant_id: u64,
///     #[optional]
///     #[tags(format = "uuid")]
///     x_trace: Option<String>,
/// }
///
/// struct Billing;
///
/// #[controller("billing")]
/// impl Billing {
///     #[typed_route::get("")]
///     async fn tenant(&self, headers: TypedHeaders<Tenant>) -> u64 {
///         headers.x_tenant_id
///     }
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TypedHeaders<T>(pub T);

wraps_value!(TypedHeaders, "The parsed headers.");

impl<T: Dto> FromRequestParts for TypedHeaders<T> {
    const INPUT: InputMeta =
        InputMeta::typed(InputKind::Headers, <T as crate::schema::ToSchema>::schema);

    async fn from_request_parts(cx: &mut RequestContext) -> Result<Self, ApiError> {
        let headers = cx.headers();
        // Header names come lower-case from `http`; group repeated headers.
        let mut grouped: Vec<(&str, Vec<&str>)> = Vec::with_capacity(headers.keys_len());
        for name in headers.keys() {
            let mut values = Vec::new();
            for value in headers.get_all(name) {
                let text = value.to_str().map_err(|_| {
                    invalid_header(
                        name.as_str(),
                        "string (visible ASCII text)".to_owned(),
                        Value::from(String::from_utf8_lossy(value.as_bytes()).into_owned()),
                    )
                })?;
                values.push(text);
            }
            grouped.push((name.as_str(), values));
        }
        decode_named(
            &grouped,
            true,
            "$headers",
            refusal::INVALID_HEADER,
            "headers",
        )
        .map(TypedHeaders)
    }
}

/// Decodes named text values (headers, cookies) as the fields of a `T`,
/// listing every problem under `root` when they are not one. With `lists`,
/// array fields split each value at its commas (RFC 9110 header lists).
pub(super) fn decode_named<T: Dto>(
    grouped: &[(&str, Vec<&str>)],
    lists: bool,
    root: &'static str,
    code: Refusal,
    what: &'static str,
) -> Result<T, ApiError> {
    decode_text_map(
        || {
            let map = MapDeserializer::new(grouped.iter().map(|(name, values)| {
                let values = if lists {
                    TextValues::header(values.as_slice())
                } else {
                    TextValues::new(values.as_slice())
                };
                (name.into_deserializer(), values)
            }));
            T::deserialize(map).map_err(|err: serde::de::value::Error| err.to_string())
        },
        || {
            let list_names = if lists {
                list_fields::<T>()
            } else {
                Vec::new()
            };
            let object: Map<String, Value> = grouped
                .iter()
                .map(|(name, values)| {
                    let value = if list_names.iter().any(|list| list == name) {
                        text::list_items(values).map(Value::from).collect()
                    } else {
                        match values.as_slice() {
                            [one] => Value::from(*one),
                            many => Value::from(many.to_vec()),
                        }
                    };
                    ((*name).to_owned(), value)
                })
                .collect();
            Value::Object(object)
        },
        root,
        code,
        what,
    )
}

/// The fields of `T` that are arrays: their headers are comma-separated lists.
fn list_fields<T: Dto>() -> Vec<String> {
    let schema = crate::schema::schema_of::<T>();
    let crate::schema::Schema::Ref(id) = schema.schema else {
        return Vec::new();
    };
    let crate::schema::TypeKind::Object(object) = &schema.registry.get(id).kind else {
        return Vec::new();
    };
    object
        .fields
        .iter()
        .filter(|field| {
            let mut schema = &field.schema;
            while let crate::schema::Schema::Nullable(inner) = schema {
                schema = inner;
            }
            matches!(schema, crate::schema::Schema::Array(_))
        })
        .map(|field| field.name.clone())
        .collect()
}

fn invalid_header(name: &str, reason: String, value: Value) -> ApiError {
    refusal::INVALID_HEADER
        .error(format!("header `{name}`: {reason}"))
        .with_issues([ValidationIssue::new(
            format!("$headers[{name:?}]"),
            reason,
            value,
        )])
}
