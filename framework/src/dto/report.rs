//! The slow path: every error of a refused input, with its path, found by
//! walking the input's JSON against the type's schema. Only refused inputs
//! pay for it.

use std::fmt::Write;

use serde_json::{Map, Value};

use super::{check::canonical, shape::whole_number};
use crate::{
    error::ValidationIssue,
    schema::{
        self, ArraySchema, DefId, FieldDef, IntegerSchema, ObjectDef, Registry, Schema,
        StringSchema, TypeKind, UnionDef, UnionRepr, VariantKind, expected,
    },
};

/// The most issues one report lists; the rest are summed up in one more.
pub const MAX_ISSUES: usize = 1000;

/// Walks a JSON value against a schema and collects every issue.
pub(crate) struct Report<'a> {
    registry: &'a Registry,
    /// Query strings and headers carry text: numbers and booleans may be
    /// written as strings, a single value may stand for an array.
    coerce_text: bool,
    issues: Vec<ValidationIssue>,
    dropped: usize,
}

impl<'a> Report<'a> {
    pub(crate) fn new(registry: &'a Registry, coerce_text: bool) -> Self {
        Report {
            registry,
            coerce_text,
            issues: Vec::new(),
            dropped: 0,
        }
    }

    /// Every issue of `value` against `schema`, paths starting at `root`.
    pub(crate) fn run(
        mut self,
        value: &Value,
        schema: &Schema,
        root: &str,
    ) -> Vec<ValidationIssue> {
        let mut path = root.to_owned();
        self.value(value, schema, &mut path);
        if self.dropped > 0 {
            self.issues.push(ValidationIssue {
                path: root.to_owned(),
                expected: format!("at most {MAX_ISSUES} listed issues"),
                value: Some(Value::from(format!("{} more issues", self.dropped))),
            });
        }
        self.issues
    }

    fn issue(&mut self, path: &str, schema: &Schema, value: Option<&Value>) {
        let expected = expected(schema, self.registry);
        self.push(path, expected, value);
    }

    fn push(&mut self, path: &str, expected: String, value: Option<&Value>) {
        if self.issues.len() >= MAX_ISSUES {
            self.dropped += 1;
            return;
        }
        self.issues.push(match value {
            Some(value) => ValidationIssue::found(path.to_owned(), expected, value),
            None => ValidationIssue::missing(path, expected),
        });
    }

    fn value(&mut self, value: &Value, schema: &Schema, path: &mut String) {
        match schema {
            Schema::Any => {}
            // A multipart form's files are checked as they arrive, and
            // stand for themselves here as the text that names them.
            Schema::File(_) => {
                if !value.is_string() {
                    self.issue(path, schema, Some(value));
                }
            }
            Schema::Null => {
                if !value.is_null() {
                    self.issue(path, schema, Some(value));
                }
            }
            Schema::Boolean => {
                let ok = value.is_boolean()
                    || self.coerce_text && matches!(value.as_str(), Some("true" | "false"));
                if !ok {
                    self.issue(path, schema, Some(value));
                }
            }
            Schema::Integer(int) => self.integer(value, int, schema, path),
            Schema::Number(number) => {
                let found = value.as_f64().or_else(|| {
                    self.coerce_text
                        .then(|| value.as_str().and_then(|text| text.parse::<f64>().ok()))
                        .flatten()
                        .filter(|n| n.is_finite())
                });
                if !found.is_some_and(|n| number.bounds.contains(n)) {
                    self.issue(path, schema, Some(value));
                }
            }
            Schema::String(string) => self.string(value, string, schema, path),
            Schema::Array(array) => self.array(value, array, schema, path),
            Schema::Map(values) => match value.as_object() {
                Some(map) => {
                    for (key, item) in map {
                        let len = path.len();
                        push_key(path, key);
                        self.value(item, values, path);
                        path.truncate(len);
                    }
                }
                None => self.issue(path, schema, Some(value)),
            },
            Schema::Nullable(inner) => self.nullable(value, inner, schema, path),
            Schema::Ref(id) => self.named(value, *id, schema, path),
        }
    }

    /// A `T | null`: a value that is not `null` is a `T`, and a wrong type
    /// is reported against the whole `T | null`.
    fn nullable(&mut self, value: &Value, inner: &Schema, schema: &Schema, path: &mut String) {
        if value.is_null() {
            return;
        }
        let before = self.issues.len();
        self.value(value, inner, path);
        if self.issues.len() == before + 1 && self.issues[before].path == *path {
            self.issues[before].expected = expected(schema, self.registry);
        }
    }

    /// A value of the named type `id`: an object, a string enum or a union.
    fn named(&mut self, value: &Value, id: DefId, schema: &Schema, path: &mut String) {
        let def = self.registry.get(id);
        match &def.kind {
            TypeKind::Object(object) => match value.as_object() {
                Some(map) => self.object(map, object, None, path),
                None => self.issue(path, schema, Some(value)),
            },
            TypeKind::StringEnum(values) => {
                let known = value
                    .as_str()
                    .is_some_and(|text| values.iter().any(|candidate| candidate.value == text));
                if !known {
                    self.issue(path, schema, Some(value));
                }
            }
            TypeKind::Union(union) => self.union(value, union, schema, path),
        }
    }

    fn integer(&mut self, value: &Value, int: &IntegerSchema, schema: &Schema, path: &str) {
        let found: Option<i128> = if let Some(n) = value.as_i64() {
            Some(i128::from(n))
        } else if let Some(n) = value.as_u64() {
            Some(i128::from(n))
        } else if let Some(x) = value.as_f64() {
            // `1.0` is 1, as the fast path reads it.
            whole_number(x).map(i128::from)
        } else if self.coerce_text {
            // As the parser reads the type: an unsigned one refuses a sign
            // (`-0`), a signed one does not.
            let (min, _) = int.format.range();
            value.as_str().and_then(|text| {
                if min >= 0 {
                    text.parse::<u64>().ok().map(i128::from)
                } else {
                    text.parse::<i128>().ok()
                }
            })
        } else {
            None
        };
        let (min, max) = int.format.range();
        let ok = found.is_some_and(|n| n >= min && n <= max && int.bounds.contains_integer(n));
        if !ok {
            self.issue(path, schema, Some(value));
        }
    }

    fn string(&mut self, value: &Value, string: &StringSchema, schema: &Schema, path: &str) {
        let Some(text) = value.as_str() else {
            self.issue(path, schema, Some(value));
            return;
        };
        let length = text.chars().count() as u64;
        let ok = string.format.is_none_or(|format| format.matches(text))
            && string.min_length.is_none_or(|n| length >= n)
            && string.max_length.is_none_or(|n| length <= n)
            && string.pattern.as_deref().is_none_or(|pattern| {
                schema::pattern_regex(pattern).is_some_and(|regex| regex.is_match(text))
            });
        if !ok {
            self.issue(path, schema, Some(value));
        }
    }

    fn array(&mut self, value: &Value, array: &ArraySchema, schema: &Schema, path: &mut String) {
        let coerced;
        let items: &[Value] = match value {
            Value::Array(items) => items,
            Value::Object(map) if self.coerce_text => match indexed(map) {
                Some(items) => {
                    coerced = items;
                    &coerced
                }
                None => {
                    self.issue(path, schema, Some(value));
                    return;
                }
            },
            // `tags=` is an empty list to serde_qs.
            Value::String(text) if self.coerce_text && text.is_empty() => &[],
            other if self.coerce_text && !other.is_null() => std::slice::from_ref(other),
            _ => {
                self.issue(path, schema, Some(value));
                return;
            }
        };
        let count = items.len() as u64;
        if array.min_items.is_some_and(|n| count < n) || array.max_items.is_some_and(|n| count > n)
        {
            self.issue(path, schema, Some(value));
        } else if let Some((first, again)) = array
            .unique_items
            .then(|| self.equal_items(items, &array.items))
            .flatten()
        {
            let expected = expected(schema, self.registry);
            let reason = format!("{expected} ([{first}] and [{again}] are equal)");
            self.push(path, reason, Some(value));
        }
        for (index, item) in items.iter().enumerate() {
            let len = path.len();
            let _ = write!(path, "[{index}]");
            self.value(item, &array.items, path);
            path.truncate(len);
        }
    }

    /// The first two items that are equal as the values they decode to
    /// (what `unique_items` compares on the fast path: the decoded items,
    /// written back as JSON), by their index.
    fn equal_items(&self, items: &[Value], schema: &Schema) -> Option<(usize, usize)> {
        let mut seen = std::collections::BTreeMap::new();
        for (index, item) in items.iter().enumerate() {
            let decoded = canonical(&as_decoded(item, schema, self.registry));
            if let Some(first) = seen.insert(decoded, index) {
                return Some((first, index));
            }
        }
        None
    }

    /// Checks an object's fields; `skip` is a union's tag property.
    fn object(
        &mut self,
        map: &Map<String, Value>,
        object: &ObjectDef,
        skip: Option<&str>,
        path: &mut String,
    ) {
        for field in &object.fields {
            let len = path.len();
            push_key(path, &field.name);
            match map.get(&field.name) {
                Some(item) => self.field(item, field, path),
                None if field.required => {
                    let expected = expected(&field.schema, self.registry);
                    self.push(path, expected, None);
                }
                None => {}
            }
            path.truncate(len);
        }
        if object.strict {
            for (key, item) in map {
                if Some(key.as_str()) == skip
                    || object.fields.iter().any(|field| field.name == *key)
                {
                    continue;
                }
                let len = path.len();
                push_key(path, key);
                self.push(path, "undefined".to_owned(), Some(item));
                path.truncate(len);
            }
        }
    }

    fn field(&mut self, value: &Value, field: &FieldDef, path: &mut String) {
        let before = self.issues.len();
        self.value(value, &field.schema, path);
        if self.issues.len() == before
            && !value.is_null()
            && let Some(check) = &field.check
            && let Err(reason) = (check.run)(value)
        {
            let expected = format!(
                "{} & Check<{}>: {reason}",
                expected(&field.schema, self.registry),
                check.name
            );
            self.push(path, expected, Some(value));
        }
    }

    fn union(&mut self, value: &Value, union: &UnionDef, schema: &Schema, path: &mut String) {
        let variant_named = |name: &str| union.variants.iter().find(|variant| variant.name == name);
        match &union.repr {
            UnionRepr::External => self.external(value, union, schema, path),
            UnionRepr::Internal { tag } => {
                let Some(map) = value.as_object() else {
                    self.issue(path, schema, Some(value));
                    return;
                };
                match map.get(tag).and_then(Value::as_str).and_then(variant_named) {
                    Some(variant) => self.variant(value, &variant.kind, Some(tag), path),
                    None => self.issue(path, schema, Some(value)),
                }
            }
            UnionRepr::Adjacent { tag, content } => {
                self.adjacent(value, union, (tag, content), schema, path);
            }
            UnionRepr::Untagged => {
                let fits = union.variants.iter().any(|variant| {
                    let mut trial = Report::new(self.registry, self.coerce_text);
                    let mut scratch = path.clone();
                    trial.variant(value, &variant.kind, None, &mut scratch);
                    trial.issues.is_empty()
                });
                if !fits {
                    self.issue(path, schema, Some(value));
                }
            }
        }
    }

    /// An externally tagged variant: its name, or `{ name: content }`.
    fn external(&mut self, value: &Value, union: &UnionDef, schema: &Schema, path: &mut String) {
        let (name, content) = match value {
            Value::String(name) => (name.as_str(), None),
            Value::Object(map) if map.len() == 1 => match map.iter().next() {
                Some((name, content)) => (name.as_str(), Some(content)),
                None => ("", None),
            },
            _ => ("", None),
        };
        let variant = union.variants.iter().find(|variant| variant.name == name);
        match (variant, content) {
            (Some(variant), None) if variant.kind == VariantKind::Unit => {}
            (Some(variant), Some(content)) if variant.kind != VariantKind::Unit => {
                let len = path.len();
                push_key(path, name);
                self.variant(content, &variant.kind, None, path);
                path.truncate(len);
            }
            _ => self.issue(path, schema, Some(value)),
        }
    }

    /// An adjacently tagged variant: `{ tag: name, content: .. }`.
    fn adjacent(
        &mut self,
        value: &Value,
        union: &UnionDef,
        (tag, content): (&str, &str),
        schema: &Schema,
        path: &mut String,
    ) {
        let Some(map) = value.as_object() else {
            self.issue(path, schema, Some(value));
            return;
        };
        let named = map
            .get(tag)
            .and_then(Value::as_str)
            .and_then(|name| union.variants.iter().find(|variant| variant.name == name));
        let Some(variant) = named else {
            self.issue(path, schema, Some(value));
            return;
        };
        match (&variant.kind, map.get(content)) {
            (VariantKind::Unit, None | Some(Value::Null)) => {}
            (VariantKind::Unit, Some(inner)) => {
                // serde reads the content of a unit variant as `()`.
                let len = path.len();
                push_key(path, content);
                self.push(path, "null".to_owned(), Some(inner));
                path.truncate(len);
            }
            (kind, Some(inner)) => {
                let len = path.len();
                push_key(path, content);
                self.variant(inner, kind, None, path);
                path.truncate(len);
            }
            (_, None) => self.issue(path, schema, Some(value)),
        }
    }

    fn variant(&mut self, value: &Value, kind: &VariantKind, tag: Option<&str>, path: &mut String) {
        match kind {
            VariantKind::Unit => {
                if tag.is_none() && !value.is_null() {
                    self.push(path, "null".to_owned(), Some(value));
                }
            }
            VariantKind::Newtype(schema) => match (tag, schema) {
                (Some(tag), Schema::Ref(id)) => {
                    match (&self.registry.get(*id).kind, value.as_object()) {
                        (TypeKind::Object(object), Some(map)) => {
                            self.object(map, object, Some(tag), path)
                        }
                        _ => self.value(value, schema, path),
                    }
                }
                _ => self.value(value, schema, path),
            },
            VariantKind::Struct(object) => match value.as_object() {
                Some(map) => self.object(map, object, tag, path),
                None => self.push(path, "object".to_owned(), Some(value)),
            },
        }
    }
}

/// `$input.name`, or `$input["odd key"]` when the key is not an identifier.
pub(crate) fn push_key(path: &mut String, key: &str) {
    let identifier = key
        .chars()
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_' || first == '$')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier {
        path.push('.');
        path.push_str(key);
    } else {
        let _ = write!(path, "[{}]", Value::from(key));
    }
}

/// `{ "0": a, "1": b }` (an indexed query array) as `[a, b]`.
fn indexed(map: &Map<String, Value>) -> Option<Vec<Value>> {
    let mut entries: Vec<(usize, &Value)> = map
        .iter()
        .map(|(key, value)| key.parse::<usize>().ok().map(|index| (index, value)))
        .collect::<Option<_>>()?;
    entries.sort_by_key(|(index, _)| *index);
    Some(
        entries
            .into_iter()
            .map(|(_, value)| value.clone())
            .collect(),
    )
}

/// `value` as the value of `schema` it decodes to would be written back:
/// an object's declared fields only, an absent one as its default or
/// `null`, a number of a float type as a float (`1` is `1.0`). Values of
/// other schemas are kept as they are.
fn as_decoded(value: &Value, schema: &Schema, registry: &Registry) -> Value {
    match (schema, value) {
        (Schema::Nullable(inner), _) => as_decoded(value, inner, registry),
        (Schema::Number(_), Value::Number(number)) => number
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| value.clone(), Value::Number),
        (Schema::Array(array), Value::Array(items)) => Value::Array(
            items
                .iter()
                .map(|item| as_decoded(item, &array.items, registry))
                .collect(),
        ),
        (Schema::Map(values), Value::Object(map)) => Value::Object(
            map.iter()
                .map(|(key, item)| (key.clone(), as_decoded(item, values, registry)))
                .collect(),
        ),
        (Schema::Ref(id), Value::Object(map)) => match &registry.get(*id).kind {
            TypeKind::Object(object) => Value::Object(
                object
                    .fields
                    .iter()
                    .map(|field| {
                        let item = match map.get(&field.name) {
                            Some(item) => as_decoded(item, &field.schema, registry),
                            None => field.default.clone().unwrap_or(Value::Null),
                        };
                        (field.name.clone(), item)
                    })
                    .collect(),
            ),
            _ => value.clone(),
        },
        _ => value.clone(),
    }
}
