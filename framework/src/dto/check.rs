//! The constraint checks `#[dto]` generates calls to: one function per tag,
//! each bounded by what the tag applies to, so a tag on the wrong type is a
//! compile error at the field.

use std::{borrow::Cow, collections::BTreeSet, sync::Arc};

use regex::Regex;
use serde::Serialize;

use crate::schema::{Bounds, Format};

pub use super::shape::{KeysOnce, Shape, Shaped, deserialize_shaped};

/// Text that string tags (`format`, `min_length`, `max_length`, `pattern`)
/// apply to.
#[diagnostic::on_unimplemented(
    message = "string tags (`format`, `min_length`, `max_length`, `pattern`) do not apply to `{Self}`",
    label = "not a string"
)]
pub trait TextValue {
    /// The text.
    fn text(&self) -> &str;
}

impl TextValue for String {
    #[inline]
    fn text(&self) -> &str {
        self
    }
}

impl TextValue for str {
    #[inline]
    fn text(&self) -> &str {
        self
    }
}

impl TextValue for Box<str> {
    fn text(&self) -> &str {
        self
    }
}

impl TextValue for Arc<str> {
    fn text(&self) -> &str {
        self
    }
}

impl TextValue for Cow<'_, str> {
    fn text(&self) -> &str {
        self
    }
}

/// Numbers that number tags (`minimum`, `maximum`, `exclusive_minimum`,
/// `exclusive_maximum`, `multiple_of`) apply to.
#[diagnostic::on_unimplemented(
    message = "number tags (`minimum`, `maximum`, `exclusive_*`, `multiple_of`) do not apply to `{Self}`",
    label = "not a number"
)]
pub trait NumberValue {
    /// The value as `f64`.
    fn number(&self) -> f64;

    /// The value of an integer type, exactly; `None` for `f32` and `f64`.
    #[inline]
    fn integer(&self) -> Option<i128> {
        None
    }
}

macro_rules! integer_value {
    ($($ty:ty),*) => {$(
        impl NumberValue for $ty {
            #[inline]
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            fn number(&self) -> f64 {
                *self as f64
            }

            #[inline]
            #[allow(clippy::cast_lossless)]
            fn integer(&self) -> Option<i128> {
                Some(*self as i128)
            }
        }
    )*};
}

integer_value!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl NumberValue for f32 {
    #[inline]
    fn number(&self) -> f64 {
        f64::from(*self)
    }
}

impl NumberValue for f64 {
    #[inline]
    fn number(&self) -> f64 {
        *self
    }
}

/// Numbers that may lie between two integers: bounds that leave no
/// integer (`minimum = 1.2, maximum = 1.8`) compile only on these.
#[diagnostic::on_unimplemented(
    message = "these bounds leave no integer, so no `{Self}` can ever be valid",
    label = "no integer is within the bounds",
    note = "widen the bounds to include an integer (e.g. `minimum = 1, maximum = 2`), or make the field `f64`"
)]
pub trait FractionalNumber {}

impl FractionalNumber for f32 {}
impl FractionalNumber for f64 {}

/// Compiles only for [`FractionalNumber`]s; always `true`.
#[inline]
pub fn fractional_bounds<T: FractionalNumber + ?Sized>(_value: &T) -> bool {
    true
}

/// Collections that array tags (`min_items`, `max_items`, `unique_items`,
/// `items(...)`) apply to.
#[diagnostic::on_unimplemented(
    message = "array tags (`min_items`, `max_items`, `unique_items`, `items`) do not apply to `{Self}`",
    label = "not an array"
)]
pub trait ArrayValue {
    /// The item type.
    type Item;
    /// How many items.
    fn count(&self) -> usize;
    /// The items in order.
    fn each(&self) -> impl Iterator<Item = &Self::Item>;
}

impl<T> ArrayValue for Vec<T> {
    type Item = T;
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }
    fn each(&self) -> impl Iterator<Item = &T> {
        self.iter()
    }
}

impl<T> ArrayValue for [T] {
    type Item = T;
    fn count(&self) -> usize {
        self.len()
    }
    fn each(&self) -> impl Iterator<Item = &T> {
        self.iter()
    }
}

impl<T> ArrayValue for std::collections::VecDeque<T> {
    type Item = T;
    fn count(&self) -> usize {
        self.len()
    }
    fn each(&self) -> impl Iterator<Item = &T> {
        self.iter()
    }
}

/// Files that file tags (`max_size`, `accept`) apply to: `framework::File`.
#[diagnostic::on_unimplemented(
    message = "file tags (`max_size`, `accept`) do not apply to `{Self}`",
    label = "not a `framework::File`",
    note = "on a list of files, tag its items: `#[tags(max_items = 4, items(max_size = 1048576))]`"
)]
pub trait FileValue {
    /// The size in bytes.
    fn size(&self) -> u64;
    /// The media type the client gave.
    fn media_type(&self) -> &str;
}

/// `max_size = n`.
#[inline]
pub fn max_size<T: FileValue + ?Sized>(value: &T, n: u64) -> bool {
    value.size() <= n
}

/// `accept = ["image/png", "image/*"]`.
#[inline]
pub fn accept<T: FileValue + ?Sized>(value: &T, types: &[&str]) -> bool {
    crate::schema::media_type_accepted(types, value.media_type())
}

/// `format = "..."`.
#[inline]
pub fn format<T: TextValue + ?Sized>(value: &T, format: Format) -> bool {
    format.matches(value.text())
}

/// Length in Unicode code points, counting no further than `limit + 1`.
fn length_up_to(text: &str, limit: u64) -> u64 {
    if text.is_ascii() {
        return text.len() as u64;
    }
    let cap = usize::try_from(limit.saturating_add(1)).unwrap_or(usize::MAX);
    text.chars().take(cap).count() as u64
}

/// `min_length = n`.
#[inline]
pub fn min_length<T: TextValue + ?Sized>(value: &T, n: u64) -> bool {
    let text = value.text();
    (text.len() as u64) >= n && length_up_to(text, n) >= n
}

/// `max_length = n`.
#[inline]
pub fn max_length<T: TextValue + ?Sized>(value: &T, n: u64) -> bool {
    let text = value.text();
    // A string has at least as many bytes as code points.
    (text.len() as u64) <= n || length_up_to(text, n) <= n
}

/// `pattern = "..."`.
#[inline]
pub fn pattern<T: TextValue + ?Sized>(value: &T, regex: &Regex) -> bool {
    regex.is_match(value.text())
}

/// Number tags, all at once.
#[inline]
pub fn bounds<T: NumberValue + ?Sized>(value: &T, bounds: &Bounds) -> bool {
    match value.integer() {
        Some(integer) => bounds.contains_integer(integer),
        None => bounds.contains(value.number()),
    }
}

/// `min_items = n`.
#[inline]
pub fn min_items<T: ArrayValue + ?Sized>(value: &T, n: u64) -> bool {
    value.count() as u64 >= n
}

/// `max_items = n`.
#[inline]
pub fn max_items<T: ArrayValue + ?Sized>(value: &T, n: u64) -> bool {
    value.count() as u64 <= n
}

/// `unique_items`: no two items are the same JSON value.
pub fn unique_items<T: ArrayValue + ?Sized>(value: &T) -> bool
where
    T::Item: Serialize,
{
    let mut seen = BTreeSet::new();
    value
        .each()
        .all(|item| serde_json::to_value(item).is_ok_and(|json| seen.insert(canonical(&json))))
}

/// `items(...)`: every item passes `check`.
#[inline]
pub fn all_items<T: ArrayValue + ?Sized>(value: &T, check: impl Fn(&T::Item) -> bool) -> bool {
    value.each().all(check)
}

/// `check = path`: the user's function accepts the value.
#[inline]
pub fn custom<T: ?Sized>(value: &T, check: fn(&T) -> Result<(), String>) -> bool {
    check(value).is_ok()
}

/// A JSON value's text with object keys sorted, so equal values are equal
/// strings.
pub(crate) fn canonical(value: &serde_json::Value) -> String {
    fn write(out: &mut String, value: &serde_json::Value) {
        match value {
            serde_json::Value::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    write(out, item);
                }
                out.push(']');
            }
            serde_json::Value::Object(map) => {
                // Sorted whatever the map's own order (`preserve_order`).
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                out.push('{');
                for (index, (key, item)) in entries.into_iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::from(key.as_str()).to_string());
                    out.push(':');
                    write(out, item);
                }
                out.push('}');
            }
            scalar => out.push_str(&scalar.to_string()),
        }
    }
    let mut out = String::new();
    write(&mut out, value);
    out
}

/// A tag's regular expression, compiled once where the macro puts it.
///
/// The pattern keeps ECMAScript's meaning (`\d` is `[0-9]`, ...), as the
/// OpenAPI document and the TypeScript SDK read it: see [`framework_pattern`].
///
/// # Panics
/// Never for patterns the macro accepted: it checks them at compile time.
pub fn regex(pattern: &str) -> Regex {
    crate::schema::compile_pattern(pattern)
        .unwrap_or_else(|| panic!("pattern {pattern:?} is outside the shared dialect"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_count_code_points() {
        assert!(min_length("세계", 2));
        assert!(!min_length("세계", 3));
        assert!(max_length("세계", 2));
        assert!(!max_length("세계!", 2));
        assert!(max_length("abc", 3));
        assert!(!max_length("abcd", 3));
    }

    #[test]
    fn unique_items_compares_json_values() {
        assert!(unique_items(&vec![1, 2, 3]));
        assert!(!unique_items(&vec!["a", "b", "a"]));
        assert!(all_items(&vec![2, 4], |n| n % 2 == 0));
        let a: serde_json::Value = serde_json::json!({ "b": 1, "a": [1, { "d": 2, "c": 3 }] });
        assert_eq!(canonical(&a), r#"{"a":[1,{"c":3,"d":2}],"b":1}"#);
    }
}
