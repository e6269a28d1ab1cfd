//! Random values that satisfy every constraint of a type (typia.random):
//! built from the type's schema, so they follow the same declaration the
//! validation does.

use rand::{Rng, seq::IndexedRandom};
use serde_json::{Map, Value};

use super::{Dto, check::canonical};
use crate::schema::{
    ArraySchema, Bounds, F32_RANGE, Format, IntegerSchema, NumberFormat, NumberSchema, Registry,
    Schema, StringSchema, TypeKind, UnionRepr, VariantKind, integer_period, schema_of,
};

/// How deep random values nest before recursion is cut short (empty arrays,
/// `null`, absent optional fields).
const MAX_DEPTH: usize = 6;
/// Attempts at a value that passes user-written checks too.
const ATTEMPTS: usize = 200;

/// Random values of a type, satisfying every constraint it declares.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Attachment {
///     #[tags(min_length = 1, max_length = 8)]
///     extension: Option<String>,
///     #[tags(format = "uri")]
///     url: String,
/// }
///
/// let attachment = Attachment::random();
/// assert!(attachment.is_valid());
/// ```
pub trait Random: Sized {
    /// A random value, from the thread's generator.
    fn random() -> Self {
        Self::random_with(&mut rand::rng())
    }

    /// A random value from `rng`.
    fn random_with<R: Rng + ?Sized>(rng: &mut R) -> Self;
}

impl<T: Dto> Random for T {
    /// # Panics
    /// When the constraints cannot be met together (say `format = "uuid"`
    /// with `max_length = 5`), or a user-written check refuses every try.
    fn random_with<R: Rng + ?Sized>(rng: &mut R) -> Self {
        let described = schema_of::<T>();
        for _ in 0..ATTEMPTS {
            let value = random_value(&described.schema, &described.registry, rng);
            if let Ok(typed) = serde_json::from_value::<T>(value)
                && typed.is_valid()
            {
                return typed;
            }
        }
        panic!(
            "no random `{}` satisfied its constraints in {ATTEMPTS} tries; are they contradictory?",
            std::any::type_name::<T>()
        )
    }
}

/// A random JSON value that fits `schema`.
pub fn random_value<R: Rng + ?Sized>(schema: &Schema, registry: &Registry, rng: &mut R) -> Value {
    Generator { registry, rng }.value(schema, 0)
}

struct Generator<'a, R: ?Sized> {
    registry: &'a Registry,
    rng: &'a mut R,
}

impl<R: Rng + ?Sized> Generator<'_, R> {
    fn value(&mut self, schema: &Schema, depth: usize) -> Value {
        match schema {
            Schema::Any => match self.rng.random_range(0..3) {
                0 => Value::from(self.rng.random_range(-100..100)),
                1 => Value::from(self.word(1, 8)),
                _ => Value::from(self.rng.random_bool(0.5)),
            },
            Schema::Null => Value::Null,
            Schema::Boolean => Value::from(self.rng.random_bool(0.5)),
            Schema::Integer(int) => self.integer(int),
            Schema::Number(number) => self.number(number),
            Schema::String(string) => Value::from(self.string(string)),
            Schema::Array(array) => self.array(array, depth),
            Schema::Map(values) => {
                let count = if depth >= MAX_DEPTH {
                    0
                } else {
                    self.rng.random_range(0..3)
                };
                let mut map = Map::new();
                for _ in 0..count {
                    let key = self.word(1, 8);
                    let value = self.value(values, depth + 1);
                    map.insert(key, value);
                }
                Value::Object(map)
            }
            Schema::Nullable(inner) => {
                if depth >= MAX_DEPTH || self.rng.random_bool(0.2) {
                    Value::Null
                } else {
                    self.value(inner, depth)
                }
            }
            Schema::Ref(id) => {
                let def = self.registry.get(*id);
                match &def.kind {
                    TypeKind::Object(object) => Value::Object(self.fields(&object.fields, depth)),
                    TypeKind::StringEnum(values) => values
                        .choose(self.rng)
                        .map_or(Value::Null, |value| Value::from(value.value.as_str())),
                    TypeKind::Union(union) => {
                        let candidates: Vec<_> = if depth >= MAX_DEPTH {
                            let shallow: Vec<_> = union
                                .variants
                                .iter()
                                .filter(|v| v.kind == VariantKind::Unit)
                                .collect();
                            if shallow.is_empty() {
                                union.variants.iter().collect()
                            } else {
                                shallow
                            }
                        } else {
                            union.variants.iter().collect()
                        };
                        let Some(variant) = candidates.choose(self.rng) else {
                            return Value::Null;
                        };
                        let content = match &variant.kind {
                            VariantKind::Unit => None,
                            VariantKind::Newtype(schema) => Some(self.value(schema, depth + 1)),
                            VariantKind::Struct(object) => {
                                Some(Value::Object(self.fields(&object.fields, depth)))
                            }
                        };
                        let name = Value::from(variant.name.as_str());
                        match (&union.repr, content) {
                            (UnionRepr::External, None) => name,
                            (UnionRepr::External, Some(content)) => {
                                Value::Object(Map::from_iter([(variant.name.clone(), content)]))
                            }
                            (UnionRepr::Internal { tag }, content) => {
                                let mut map = match content {
                                    Some(Value::Object(map)) => map,
                                    _ => Map::new(),
                                };
                                map.insert(tag.clone(), name);
                                Value::Object(map)
                            }
                            (UnionRepr::Adjacent { tag, content: key }, content) => {
                                let mut map = Map::from_iter([(tag.clone(), name)]);
                                if let Some(content) = content {
                                    map.insert(key.clone(), content);
                                }
                                Value::Object(map)
                            }
                            (UnionRepr::Untagged, content) => content.unwrap_or(Value::Null),
                        }
                    }
                }
            }
        }
    }

    fn fields(&mut self, fields: &[crate::schema::FieldDef], depth: usize) -> Map<String, Value> {
        let mut map = Map::new();
        for field in fields {
            if !field.required && (depth >= MAX_DEPTH || self.rng.random_bool(0.3)) {
                continue;
            }
            let value = self.value(&field.schema, depth + 1);
            map.insert(field.name.clone(), value);
        }
        map
    }

    fn integer(&mut self, int: &IntegerSchema) -> Value {
        let (type_min, type_max) = int.format.range();
        let (low, high) = integer_range(type_min, type_max, &int.bounds);
        let Some(step) = int.bounds.multiple_of else {
            return integer_value(self.rng.random_range(low..=high));
        };
        // The same rule as validation: multiples of the period, exactly.
        let Some(period) = integer_period(step) else {
            return integer_value(0);
        };
        let (first, last) = (div_ceil(low, period), div_floor(high, period));
        if first > last {
            return integer_value(low);
        }
        integer_value(self.rng.random_range(first..=last) * period)
    }

    fn number(&mut self, number: &NumberSchema) -> Value {
        // An f32's own range is no reason to draw huge numbers.
        let mut range = number.bounds;
        if number.format == NumberFormat::Float {
            if range.minimum == Some(F32_RANGE.0) {
                range.minimum = None;
            }
            if range.maximum == Some(F32_RANGE.1) {
                range.maximum = None;
            }
        }
        let bounds = &range;
        let low = bounds
            .minimum
            .or(bounds.exclusive_minimum)
            .unwrap_or(-1000.0);
        let high = bounds
            .maximum
            .or(bounds.exclusive_maximum)
            .unwrap_or(low.max(0.0) + 1000.0);
        let low = low.min(high);
        for _ in 0..ATTEMPTS {
            let candidate = match bounds.multiple_of {
                Some(step) => {
                    #[allow(clippy::cast_possible_truncation)]
                    let (first, last) = ((low / step).ceil() as i64, (high / step).floor() as i64);
                    if first > last {
                        break;
                    }
                    #[allow(clippy::cast_precision_loss)]
                    let value = self.rng.random_range(first..=last) as f64 * step;
                    value
                }
                None if low < high => self.rng.random_range(low..high),
                None => low,
            };
            if number.bounds.contains(candidate) {
                return Value::from(candidate);
            }
        }
        Value::from(low)
    }

    fn string(&mut self, string: &StringSchema) -> String {
        let min = usize::try_from(string.min_length.unwrap_or(0)).unwrap_or(usize::MAX);
        let max = string
            .max_length
            .map_or(usize::MAX, |max| usize::try_from(max).unwrap_or(usize::MAX));
        let fits = |text: &str| {
            let length = text.chars().count();
            length >= min && length <= max
        };
        if let Some(pattern) = &string.pattern {
            if let Ok(generator) = rand_regex::Regex::compile(unanchored(pattern), 16) {
                for _ in 0..ATTEMPTS {
                    let text: String = self.rng.sample(&generator);
                    if fits(&text) && string.format.is_none_or(|format| format.matches(&text)) {
                        return text;
                    }
                }
            }
            return String::new();
        }
        match string.format {
            Some(format) => {
                for _ in 0..ATTEMPTS {
                    let text = self.formatted(format, min, max);
                    if fits(&text) && format.matches(&text) {
                        return text;
                    }
                }
                String::new()
            }
            None => {
                let high = max.min(min.saturating_add(24));
                self.word(min, high.max(min))
            }
        }
    }

    /// Lower-case letters and digits, `min..=max` long.
    fn word(&mut self, min: usize, max: usize) -> String {
        const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        let length = self.rng.random_range(min..=max.max(min));
        (0..length)
            .map(|_| ALPHABET[self.rng.random_range(0..ALPHABET.len())] as char)
            .collect()
    }

    fn formatted(&mut self, format: Format, min: usize, max: usize) -> String {
        let rng = &mut *self.rng;
        match format {
            Format::Uuid => uuid::Builder::from_random_bytes(rng.random())
                .into_uuid()
                .to_string(),
            Format::Email => {
                let local = self.word(1, 12);
                format!("{local}@example.com")
            }
            Format::Hostname => {
                let label = self.word(1, 12);
                format!("{label}.example.com")
            }
            Format::Ipv4 => std::net::Ipv4Addr::from(rng.random::<u32>()).to_string(),
            Format::Ipv6 => std::net::Ipv6Addr::from(rng.random::<u128>()).to_string(),
            Format::Uri | Format::Url | Format::UriReference => {
                let base = if format == Format::UriReference {
                    "/"
                } else {
                    "https://example.com/"
                };
                let room = max.saturating_sub(base.len()).min(32);
                let need = min.saturating_sub(base.len()).min(room);
                let path = self.word(need, room.max(need));
                format!("{base}{path}")
            }
            Format::DateTime => {
                let seconds = rng.random_range(0..4_102_444_800_i64);
                chrono::DateTime::from_timestamp(seconds, rng.random_range(0..1_000_000) * 1000)
                    .map_or_else(
                        || "2026-01-01T00:00:00Z".to_owned(),
                        |time| time.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true),
                    )
            }
            Format::Date => {
                let days = rng.random_range(0..47_000);
                (chrono::NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default()
                    + chrono::Days::new(days))
                .format("%Y-%m-%d")
                .to_string()
            }
            Format::Time => format!(
                "{:02}:{:02}:{:02}Z",
                rng.random_range(0..24),
                rng.random_range(0..60),
                rng.random_range(0..60)
            ),
            Format::Duration => {
                format!("P{}DT{}H", rng.random_range(0..30), rng.random_range(0..24))
            }
            Format::Byte => {
                let length = rng.random_range(0..24_usize);
                let bytes: Vec<u8> = (0..length).map(|_| rng.random()).collect();
                base64(&bytes)
            }
            Format::Password => {
                let high = max.min(min.saturating_add(24)).max(min.max(8));
                self.word(min.max(8).min(high), high)
            }
            Format::Regex => "^[a-z]+$".to_owned(),
            Format::JsonPointer => {
                let segment = self.word(1, 8);
                format!("/{segment}")
            }
        }
    }

    fn array(&mut self, array: &ArraySchema, depth: usize) -> Value {
        let min = usize::try_from(array.min_items.unwrap_or(0)).unwrap_or(usize::MAX);
        let max = usize::try_from(array.max_items.unwrap_or(min as u64 + 4)).unwrap_or(usize::MAX);
        let count = if depth >= MAX_DEPTH {
            min
        } else {
            self.rng.random_range(min..=max.min(min + 4).max(min))
        };
        let mut items = Vec::with_capacity(count);
        let mut seen = std::collections::BTreeSet::new();
        let mut attempts = 0;
        while items.len() < count && attempts < count * ATTEMPTS {
            attempts += 1;
            let item = self.value(&array.items, depth + 1);
            if !array.unique_items || seen.insert(canonical(&item)) {
                items.push(item);
            }
        }
        Value::Array(items)
    }
}

/// The integers within a type's range and a tag's bounds; unbounded sides
/// are kept within a thousand of the other side or of zero.
fn integer_range(type_min: i128, type_max: i128, bounds: &Bounds) -> (i128, i128) {
    #[allow(clippy::cast_possible_truncation)]
    let mut low = bounds
        .minimum
        .map_or(type_min, |min| min.ceil() as i128)
        .max(type_min);
    #[allow(clippy::cast_possible_truncation)]
    let mut high = bounds
        .maximum
        .map_or(type_max, |max| max.floor() as i128)
        .min(type_max);
    if let Some(min) = bounds.exclusive_minimum {
        #[allow(clippy::cast_possible_truncation)]
        let above = min.floor() as i128 + 1;
        low = low.max(above);
    }
    if let Some(max) = bounds.exclusive_maximum {
        #[allow(clippy::cast_possible_truncation)]
        let below = max.ceil() as i128 - 1;
        high = high.min(below);
    }
    if bounds.minimum.is_none() && bounds.exclusive_minimum.is_none() {
        low = low.max(high.min(0) - 1000).max(type_min);
    }
    if bounds.maximum.is_none() && bounds.exclusive_maximum.is_none() {
        high = high.min(low.max(0) + 1000);
    }
    (low, high.max(low))
}

/// The pattern without a leading `^` and trailing `$`, which the generator
/// does not take; what it generates then matches the anchored pattern too.
fn unanchored(pattern: &str) -> &str {
    let pattern = pattern.strip_prefix('^').unwrap_or(pattern);
    match pattern.strip_suffix('$') {
        Some(rest) if !rest.ends_with('\\') => rest,
        _ => pattern,
    }
}

/// `value / period` rounded up (`period` > 0).
fn div_ceil(value: i128, period: i128) -> i128 {
    let quotient = value / period;
    if value % period > 0 {
        quotient + 1
    } else {
        quotient
    }
}

/// `value / period` rounded down (`period` > 0).
fn div_floor(value: i128, period: i128) -> i128 {
    let quotient = value / period;
    if value % period < 0 {
        quotient - 1
    } else {
        quotient
    }
}

fn integer_value(value: i128) -> Value {
    if let Ok(small) = i64::try_from(value) {
        Value::from(small)
    } else {
        u64::try_from(value).map_or(Value::Null, Value::from)
    }
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_format() {
        assert_eq!(base64(b"hello"), "aGVsbG8=");
        assert_eq!(base64(b"hi"), "aGk=");
        assert_eq!(base64(b"abc"), "YWJj");
    }

    #[test]
    fn every_format_generates_matching_text() {
        let mut rng = rand::rng();
        let registry = Registry::default();
        for format in Format::ALL {
            for _ in 0..50 {
                let schema = Schema::String(StringSchema {
                    format: Some(format),
                    ..StringSchema::default()
                });
                let value = random_value(&schema, &registry, &mut rng);
                let text = value.as_str().unwrap();
                assert!(format.matches(text), "{} generated {text:?}", format.name());
            }
        }
    }

    #[test]
    fn integers_stay_in_bounds() {
        let bounds = Bounds {
            minimum: Some(1.0),
            maximum: Some(10.0),
            multiple_of: Some(3.0),
            ..Bounds::default()
        };
        let mut rng = rand::rng();
        for _ in 0..100 {
            let schema = Schema::Integer(IntegerSchema {
                format: crate::schema::IntegerFormat::Uint32,
                bounds,
            });
            let n = random_value(&schema, &Registry::default(), &mut rng)
                .as_i64()
                .unwrap();
            assert!([3, 6, 9].contains(&n), "{n}");
        }
        assert_eq!(integer_range(0, 255, &Bounds::default()), (0, 255));
        assert_eq!(
            integer_range(i64::MIN.into(), i64::MAX.into(), &Bounds::default()),
            (-1000, 1000)
        );
    }
}
