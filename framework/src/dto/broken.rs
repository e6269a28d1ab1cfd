//! Values with exactly one constraint broken, for property tests of DTOs:
//! each must be refused, with the issue at the path given.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{Dto, report::push_key};
use crate::schema::{
    ArraySchema, DefId, Format, IntegerSchema, Registry, Schema, StringSchema, TypeKind, schema_of,
};

/// A document with one thing wrong, and where the report must point.
#[derive(Clone, Debug, PartialEq)]
pub struct Broken {
    /// The path of the issue the report must list: `$input.files[0].url`.
    pub path: String,
    /// What was broken, for failure messages.
    pub what: String,
    /// The whole document with that one thing broken.
    pub value: Value,
}

/// Every single-constraint break of `value` (a valid `T`) that this module
/// knows how to make: wrong JSON types, missing required properties,
/// strings too short or long or off-format, numbers out of bounds, arrays
/// with too few, too many or repeated items, unknown enum values, and
/// unknown properties of strict objects. Patterns and user-written checks
/// are not broken here.
///
/// ```
/// use framework::prelude::*;
/// use framework::testing::broken_variants;
///
/// #[dto]
/// #[derive(Debug)]
/// struct Tag {
///     #[tags(min_length = 1, max_length = 8)]
///     name: String,
/// }
///
/// let broken = broken_variants(&Tag { name: "rust".into() });
/// assert!(broken.iter().any(|b| b.path == "$input.name" && b.value["name"] == ""));
/// for case in broken {
///     let err = framework::from_json::<Tag>(case.value.to_string().as_bytes()).unwrap_err();
///     assert!(err.issues().iter().any(|issue| issue.path == case.path), "{}", case.what);
/// }
/// ```
pub fn broken_variants<T: Dto + Serialize>(value: &T) -> Vec<Broken> {
    let described = schema_of::<T>();
    let Ok(root) = serde_json::to_value(value) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut breaker = Breaker {
        registry: &described.registry,
        root: &root,
        out: &mut out,
    };
    breaker.node(&root, &described.schema, &mut Vec::new(), "$input");
    out
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

struct Breaker<'a> {
    registry: &'a Registry,
    root: &'a Value,
    out: &'a mut Vec<Broken>,
}

fn replace_at(root: &Value, pointer: &[Step], replacement: Option<Value>) -> Value {
    let mut doc = root.clone();
    let Some((last, parents)) = pointer.split_last() else {
        return replacement.unwrap_or(Value::Null);
    };
    let mut node = &mut doc;
    for step in parents {
        node = match (step, node) {
            (Step::Key(key), Value::Object(map)) => match map.get_mut(key) {
                Some(next) => next,
                None => return doc,
            },
            (Step::Index(index), Value::Array(items)) => match items.get_mut(*index) {
                Some(next) => next,
                None => return doc,
            },
            _ => return doc,
        };
    }
    match (last, node, replacement) {
        (Step::Key(key), Value::Object(map), Some(value)) => {
            map.insert(key.clone(), value);
        }
        (Step::Key(key), Value::Object(map), None) => {
            map.remove(key);
        }
        (Step::Index(index), Value::Array(items), Some(value)) => {
            if let Some(slot) = items.get_mut(*index) {
                *slot = value;
            }
        }
        _ => {}
    }
    doc
}

fn child_path(path: &str, key: &str) -> String {
    let mut child = path.to_owned();
    push_key(&mut child, key);
    child
}

/// A string no format accepts, except `password` which accepts all.
fn off_format(format: Format) -> Option<&'static str> {
    match format {
        Format::Password => None,
        Format::Regex => Some("(unclosed"),
        _ => Some("not a valid value %"),
    }
}

/// A string `pattern` refuses, from a few unlike ones (`None` when it
/// takes them all, as `.*` does): read as the checks read it.
fn off_pattern(pattern: &str) -> Option<&'static str> {
    let regex = crate::schema::pattern_regex(pattern)?;
    [
        "",
        "!",
        " ",
        "a",
        "0",
        "\n",
        "ZZZZ",
        "-",
        "é",
        "a b c d e f g h",
    ]
    .into_iter()
    .find(|candidate| !regex.is_match(candidate))
}

impl Breaker<'_> {
    fn emit(
        &mut self,
        pointer: &[Step],
        path: &str,
        what: impl Into<String>,
        replacement: Option<Value>,
    ) {
        let value = replace_at(self.root, pointer, replacement);
        self.out.push(Broken {
            path: path.to_owned(),
            what: what.into(),
            value,
        });
    }

    fn node(&mut self, value: &Value, schema: &Schema, pointer: &mut Vec<Step>, path: &str) {
        match schema {
            // A file is not a JSON value to break; multipart tests do that.
            Schema::Any | Schema::File(_) => {}
            Schema::Null => self.emit(pointer, path, "true for null", Some(Value::Bool(true))),
            Schema::Boolean => self.emit(
                pointer,
                path,
                "text for a boolean",
                Some(Value::from("yes")),
            ),
            Schema::Integer(int) => self.integer(int, pointer, path),
            Schema::Number(number) => {
                self.emit(pointer, path, "text for a number", Some(Value::from("1.5")));
                self.bounds(&number.bounds, false, pointer, path);
            }
            Schema::String(string) => self.string(string, pointer, path),
            Schema::Array(array) => self.array(value, array, pointer, path),
            Schema::Map(values) => {
                self.emit(pointer, path, "text for a map", Some(Value::from("x")));
                if let Some(map) = value.as_object() {
                    for (key, item) in map {
                        pointer.push(Step::Key(key.clone()));
                        self.node(item, values, pointer, &child_path(path, key));
                        pointer.pop();
                    }
                }
            }
            Schema::Nullable(inner) => {
                if !value.is_null() {
                    self.node(value, inner, pointer, path);
                }
            }
            Schema::Ref(id) => self.reference(value, *id, pointer, path),
        }
    }

    /// An integer: text, a fraction, beyond its type's range, its bounds.
    fn integer(&mut self, int: &IntegerSchema, pointer: &[Step], path: &str) {
        self.emit(pointer, path, "text for an integer", Some(Value::from("1")));
        self.emit(
            pointer,
            path,
            "a fraction for an integer",
            Some(Value::from(0.5)),
        );
        let (min, max) = int.format.range();
        if let Ok(above) = u64::try_from(max + 1) {
            self.emit(
                pointer,
                path,
                "above the type's range",
                Some(Value::from(above)),
            );
        }
        if let Ok(below) = i64::try_from(min - 1) {
            self.emit(
                pointer,
                path,
                "below the type's range",
                Some(Value::from(below)),
            );
        }
        self.bounds(&int.bounds, true, pointer, path);
    }

    /// A string: a number, its lengths, its format and its pattern.
    fn string(&mut self, string: &StringSchema, pointer: &[Step], path: &str) {
        self.emit(
            pointer,
            path,
            "a number for a string",
            Some(Value::from(12345)),
        );
        if let Some(n) = string.min_length.filter(|n| *n > 0) {
            let short: String = "a".repeat(usize::try_from(n - 1).unwrap_or(0));
            self.emit(
                pointer,
                path,
                format!("shorter than {n}"),
                Some(Value::from(short)),
            );
        }
        if let Some(n) = string.max_length.filter(|n| *n < 100_000) {
            let long: String = "a".repeat(usize::try_from(n + 1).unwrap_or(usize::MAX));
            self.emit(
                pointer,
                path,
                format!("longer than {n}"),
                Some(Value::from(long)),
            );
        }
        if let Some(bad) = string.format.and_then(off_format) {
            self.emit(pointer, path, "off format", Some(Value::from(bad)));
        }
        if let Some(bad) = string.pattern.as_deref().and_then(off_pattern) {
            self.emit(pointer, path, "off pattern", Some(Value::from(bad)));
        }
    }

    /// An array: text, its item counts, a repeated item, then each item.
    fn array(&mut self, value: &Value, array: &ArraySchema, pointer: &mut Vec<Step>, path: &str) {
        self.emit(pointer, path, "text for an array", Some(Value::from("x")));
        let items = value.as_array().cloned().unwrap_or_default();
        if let Some(n) = array.min_items.filter(|n| *n > 0) {
            let fewer: Vec<Value> = items
                .iter()
                .take(usize::try_from(n - 1).unwrap_or(0))
                .cloned()
                .collect();
            self.emit(
                pointer,
                path,
                format!("fewer than {n} items"),
                Some(Value::Array(fewer)),
            );
        }
        if let (Some(n), Some(first)) = (array.max_items.filter(|n| *n < 10_000), items.first()) {
            let more = vec![first.clone(); usize::try_from(n + 1).unwrap_or(usize::MAX)];
            self.emit(
                pointer,
                path,
                format!("more than {n} items"),
                Some(Value::Array(more)),
            );
        }
        if array.unique_items && !items.is_empty() {
            let mut repeated = items.clone();
            repeated.push(items[0].clone());
            self.emit(
                pointer,
                path,
                "a repeated item",
                Some(Value::Array(repeated)),
            );
        }
        for (index, item) in items.iter().enumerate() {
            pointer.push(Step::Index(index));
            self.node(item, &array.items, pointer, &format!("{path}[{index}]"));
            pointer.pop();
        }
    }

    /// A named type: an object's properties, an enum's values, a union.
    fn reference(&mut self, value: &Value, id: DefId, pointer: &mut Vec<Step>, path: &str) {
        let def = self.registry.get(id);
        match &def.kind {
            TypeKind::Object(object) => {
                self.emit(pointer, path, "text for an object", Some(Value::from("x")));
                let map = value.as_object().cloned().unwrap_or_else(Map::new);
                for field in &object.fields {
                    let field_path = child_path(path, &field.name);
                    pointer.push(Step::Key(field.name.clone()));
                    if field.required {
                        self.emit(pointer, &field_path, "a missing property", None);
                    }
                    if let Some(item) = map.get(&field.name) {
                        self.node(item, &field.schema, pointer, &field_path);
                    }
                    pointer.pop();
                }
                if object.strict {
                    let key = "__unknown_property";
                    pointer.push(Step::Key(key.to_owned()));
                    self.emit(
                        pointer,
                        &child_path(path, key),
                        "an unknown property",
                        Some(Value::Bool(true)),
                    );
                    pointer.pop();
                }
            }
            TypeKind::StringEnum(_) => {
                self.emit(
                    pointer,
                    path,
                    "an unknown enum value",
                    Some(Value::from("not-a-variant")),
                );
            }
            // A tagged union never takes a bare number; an untagged
            // one might, so it is left alone.
            TypeKind::Union(union) if union.repr != crate::schema::UnionRepr::Untagged => {
                self.emit(
                    pointer,
                    path,
                    "a number for a tagged union",
                    Some(Value::from(12345)),
                );
            }
            TypeKind::Union(_) => {}
        }
    }

    fn bounds(
        &mut self,
        bounds: &crate::schema::Bounds,
        integer: bool,
        pointer: &[Step],
        path: &str,
    ) {
        let emit = |this: &mut Self, what: &str, n: f64| {
            let value = if integer && n.fract() == 0.0 && n.abs() < 9.0e15 {
                #[allow(clippy::cast_possible_truncation)]
                Value::from(n as i64)
            } else {
                Value::from(n)
            };
            this.emit(pointer, path, what, Some(value));
        };
        // Integers step by one, exactly (beyond 2^53 too); numbers by at
        // least one and by their own size (`f32::MAX + 1.0` is `f32::MAX`).
        #[allow(clippy::cast_possible_truncation)]
        let beyond = |this: &mut Self, what: &str, bound: f64, up: bool| {
            if integer {
                let whole = if up {
                    bound.floor() as i128 + 1
                } else {
                    bound.ceil() as i128 - 1
                };
                let value = i64::try_from(whole)
                    .map(Value::from)
                    .or_else(|_| u64::try_from(whole).map(Value::from));
                if let Ok(value) = value {
                    this.emit(pointer, path, what, Some(value));
                }
            } else {
                let step = bound.abs().max(1.0);
                emit(this, what, if up { bound + step } else { bound - step });
            }
        };
        if let Some(min) = bounds.minimum {
            beyond(self, "below the minimum", min, false);
        }
        if let Some(max) = bounds.maximum {
            beyond(self, "above the maximum", max, true);
        }
        if let Some(min) = bounds.exclusive_minimum {
            emit(self, "at the exclusive minimum", min);
        }
        if let Some(max) = bounds.exclusive_maximum {
            emit(self, "at the exclusive maximum", max);
        }
        if let Some(step) = bounds.multiple_of {
            let base = bounds.minimum.map_or(0.0, |min| (min / step).ceil() * step);
            if !integer || step >= 2.0 {
                let off = if integer {
                    base + 1.0
                } else {
                    base + step / 2.0
                };
                if bounds.maximum.is_none_or(|max| off <= max) {
                    emit(self, "not a multiple", off);
                }
            }
        }
    }
}
