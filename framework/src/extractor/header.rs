//! Typed request headers.

use std::ops::{Deref, DerefMut};

use http::StatusCode;
use serde::de::{IntoDeserializer, value::MapDeserializer};
use serde_json::{Map, Value};

use super::{
    FromRequest, InputKind, InputMeta,
    text::{self, TextValues},
};
use crate::{
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

impl<T> TypedHeaders<T> {
    /// The parsed headers.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for TypedHeaders<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for TypedHeaders<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T: Dto> FromRequest for TypedHeaders<T> {
    const INPUT: InputMeta = InputMeta {
        kind: InputKind::Headers,
        reads_body: false,
        schema: Some(<T as crate::schema::ToSchema>::schema),
    };

    fn from_request(cx: &mut RequestContext) -> Result<Self, ApiError> {
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
        decode_text_map(
            || {
                let map = MapDeserializer::new(grouped.iter().map(|(name, values)| {
                    (
                        name.into_deserializer(),
                        TextValues::header(values.as_slice()),
                    )
                }));
                T::deserialize(map).map_err(|err: serde::de::value::Error| err.to_string())
            },
            || {
                let lists = list_fields::<T>();
                let object: Map<String, Value> = grouped
                    .iter()
                    .map(|(name, values)| {
                        let value = if lists.iter().any(|list| list == name) {
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
            "$headers",
            "invalid_header",
            "headers",
        )
        .map(TypedHeaders)
    }
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
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "invalid_header",
        format!("header `{name}`: {reason}"),
    )
    .with_issues([ValidationIssue::new(
        format!("$headers[{name:?}]"),
        reason,
        value,
    )])
}
