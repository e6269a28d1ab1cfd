//! typia's tags as data: what `#[tags(...)]` adds to a field's schema.

use super::{Format, Schema};

/// One constraint from `#[tags(...)]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tag {
    /// `format = "uri"`
    Format(Format),
    /// `min_length = n`
    MinLength(u64),
    /// `max_length = n`
    MaxLength(u64),
    /// `pattern = "regex"`
    Pattern(&'static str),
    /// `minimum = n`
    Minimum(f64),
    /// `maximum = n`
    Maximum(f64),
    /// `exclusive_minimum = n`
    ExclusiveMinimum(f64),
    /// `exclusive_maximum = n`
    ExclusiveMaximum(f64),
    /// `multiple_of = n`
    MultipleOf(f64),
    /// `min_items = n`
    MinItems(u64),
    /// `max_items = n`
    MaxItems(u64),
    /// `unique_items`
    UniqueItems,
    /// `items(...)`: tags of every item of an array.
    Items(&'static [Tag]),
    /// `max_size = n`: a file's largest size in bytes.
    MaxSize(u64),
    /// `accept = ["image/png", "image/*"]`: a file's media types.
    Accept(&'static [&'static str]),
}

/// Adds tags to a schema. Tags apply to the value under any `null`
/// alternative; `items(...)` applies to an array's items. The macro has
/// already checked (through the fast-path checks it generates) that each
/// tag fits the field's type.
pub fn apply_tags(schema: Schema, tags: &[Tag]) -> Schema {
    match schema {
        Schema::Nullable(inner) => Schema::Nullable(Box::new(apply_tags(*inner, tags))),
        mut schema => {
            for tag in tags {
                apply(&mut schema, *tag);
            }
            schema
        }
    }
}

fn apply(schema: &mut Schema, tag: Tag) {
    match (schema, tag) {
        (Schema::String(string), Tag::Format(format)) => string.format = Some(format),
        (Schema::String(string), Tag::MinLength(n)) => string.min_length = Some(n),
        (Schema::String(string), Tag::MaxLength(n)) => string.max_length = Some(n),
        (Schema::String(string), Tag::Pattern(pattern)) => {
            string.pattern = Some(pattern.to_owned())
        }
        (Schema::File(file), Tag::MaxSize(n)) => file.max_size = Some(n),
        (Schema::File(file), Tag::Accept(types)) => {
            file.accept = types
                .iter()
                .map(|media_type| (*media_type).to_owned())
                .collect();
        }
        (Schema::Integer(int), tag) => apply_bound(&mut int.bounds, tag),
        (Schema::Number(number), tag) => apply_bound(&mut number.bounds, tag),
        (Schema::Array(array), Tag::MinItems(n)) => array.min_items = Some(n),
        (Schema::Array(array), Tag::MaxItems(n)) => array.max_items = Some(n),
        (Schema::Array(array), Tag::UniqueItems) => array.unique_items = true,
        (Schema::Array(array), Tag::Items(tags)) => {
            let items = std::mem::replace(&mut *array.items, Schema::Any);
            *array.items = apply_tags(items, tags);
        }
        (schema, tag) => debug_assert!(false, "tag {tag:?} does not fit {schema:?}"),
    }
}

fn apply_bound(bounds: &mut super::Bounds, tag: Tag) {
    match tag {
        Tag::Minimum(n) => bounds.minimum = Some(n),
        Tag::Maximum(n) => bounds.maximum = Some(n),
        Tag::ExclusiveMinimum(n) => bounds.exclusive_minimum = Some(n),
        Tag::ExclusiveMaximum(n) => bounds.exclusive_maximum = Some(n),
        Tag::MultipleOf(n) => bounds.multiple_of = Some(n),
        other => debug_assert!(false, "tag {other:?} does not fit a number"),
    }
}
