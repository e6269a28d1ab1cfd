//! Path parameters: handler arguments marked `#[param]`.

use serde::de::DeserializeOwned;

use super::text::TextValues;
use crate::{
    dto::Validate,
    error::{ApiError, ValidationIssue, refusal},
    request::RequestContext,
    schema::{Tag, ToSchema, apply_tags, expected, schema_of},
};

/// The [`PathParamMeta`](crate::PathParamMeta) of the path parameter
/// `name` of type `T`, with its constraints (`tags`). Called by the code
/// `#[controller]` generates.
#[doc(hidden)]
pub const fn path_param_meta<T: ToSchema>(
    name: &'static str,
    tags: &'static [Tag],
    catch_all: bool,
) -> crate::PathParamMeta {
    crate::PathParamMeta {
        name,
        tags,
        schema: T::schema,
        catch_all,
    }
}

/// Reads the `index`-th path parameter, named `name`, as a `T`: strings,
/// integers, booleans, `Uuid`s, `#[dto]` enums (by their wire names) and
/// `#[dto]` newtypes (with their own constraints checked) work. A bad value
/// is a `400 invalid_path_parameter` that names the parameter and says
/// what it should have been.
#[doc(hidden)]
pub fn path_param<T: DeserializeOwned + ToSchema + Validate + 'static>(
    cx: &RequestContext,
    index: usize,
    name: &'static str,
) -> Result<T, ApiError> {
    let value = cx.path_value(index).ok_or_else(|| {
        ApiError::internal(format_args!(
            "route has no path value #{index} for `{name}`"
        ))
    })?;
    let values = [value];
    match T::deserialize(TextValues::new(&values)) {
        Ok(value) if value.is_valid() => Ok(value),
        _ => Err(path_param_refused::<T>(cx, index, name, &[])),
    }
}

/// The refusal of a path parameter that is not a `T`, or that breaks a
/// constraint of its `#[tags]`: names the parameter and what it should be.
#[doc(hidden)]
pub fn path_param_refused<T: ToSchema + 'static>(
    cx: &RequestContext,
    index: usize,
    name: &'static str,
    tags: &[Tag],
) -> ApiError {
    let value = cx.path_value(index).unwrap_or_default();
    let described = schema_of::<T>();
    let schema = apply_tags(described.schema.clone(), tags);
    let expected = expected(&schema, &described.registry);
    refusal::INVALID_PATH_PARAMETER
        .error(format!(
            "path parameter `{name}`: {value:?} is not {expected}"
        ))
        .with_issues([ValidationIssue::new(
            format!("$path.{name}"),
            expected,
            value,
        )])
}
