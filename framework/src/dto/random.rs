//! Random values that satisfy every constraint of a type (typia.random):
//! built from the type's schema, so they follow the same declaration the
//! validation does.
//!
//! Values are valid by construction: each constraint is honoured when the
//! value is drawn (lengths, formats, patterns, numeric bounds with the
//! integer rule of [`Bounds::contains_integer`], array sizes and unique
//! items, nullable and optional values, enums and unions, and a depth
//! budget for recursive types), so a drawn value is valid on the first
//! try. Where a constraint cannot be constructed the draw says so
//! ([`Draw::exact`] is false) and only then does [`Random`] draw again.
//! The exceptions are:
//!
//! - a user-written check (`#[tags(check = path)]`): the generator cannot
//!   see what it accepts;
//! - a `pattern` together with a length or a format: the pattern is
//!   generated, the other constraints are checked afterwards;
//! - a `pattern` the generator does not take (look-around, anchors inside
//!   the pattern, word boundaries);
//! - a fixed-shape format (`uuid`, `date-time`, `ipv4`, ...) together with
//!   a length, or a length the format's shortest text does not fit;
//! - `unique_items` over items with fewer distinct values than `min_items`;
//! - bounds that leave no value of the field's type (`minimum = 300` on a
//!   `u8`), or an `f32` that holds no multiple of a `multiple_of` within
//!   its bounds;
//! - recursion that cannot stop (a required recursive field, or
//!   `min_items` on an array of the type itself), cut at a hard depth.
//!
//! The first is the only one a declaration the macro accepts usually
//! meets; contradictory bounds (`minimum > maximum`, exclusive bounds that
//! leave nothing, no multiple of `multiple_of` in range, `min_length >
//! max_length`, `min_items > max_items`) are compile errors.

use std::cell::RefCell;

use rand::{Rng, SeedableRng, rngs::SmallRng, seq::IndexedRandom};
use serde_json::{Map, Value};

use super::{Dto, Validate, check::canonical};
use crate::schema::{
    ArraySchema, Bounds, F32_RANGE, FieldDef, Format, IntegerSchema, NumberFormat, NumberSchema,
    Registry, Schema, StringSchema, TypeKind, UnionDef, UnionRepr, VariantKind, integer_period,
    schema_of,
};

thread_local! {
    /// Seeded once per thread from the operating system.
    static THREAD_RNG: RefCell<SmallRng> = RefCell::new(SmallRng::from_os_rng());
}

/// A generator seeded from the thread's: each call gets its own, so a
/// `random_with` that calls [`Random::random`] again borrows nothing twice.
pub(crate) fn thread_rng() -> SmallRng {
    THREAD_RNG.with_borrow_mut(SmallRng::from_rng)
}

/// How deep random values nest before recursion is cut short (empty arrays,
/// `null`, absent optional fields).
const MAX_DEPTH: usize = 6;
/// Past this depth recursion that cannot stop is cut with `null`, and the
/// draw is not exact.
const HARD_DEPTH: usize = 4 * MAX_DEPTH;
/// Draws of a value that is not valid by construction (see the module
/// docs), and tries at distinct items for `unique_items`.
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
    /// A random value, from a generator of the thread's own.
    fn random() -> Self {
        Self::random_with(&mut thread_rng())
    }

    /// A random value from `rng`.
    fn random_with<R: Rng + ?Sized>(rng: &mut R) -> Self;
}

impl<T: Dto> Random for T {
    /// One draw, valid by construction. Only a type with a constraint the
    /// generator cannot construct (see the module docs: a `check = fn`, a
    /// pattern with a length, ...) is drawn again, up to 200 times.
    ///
    /// # Panics
    /// When a draw that is valid by construction is refused (a bug, or a
    /// hand-written `Validate` stricter than the schema), or when the
    /// constraints that cannot be constructed refuse every try.
    fn random_with<R: Rng + ?Sized>(rng: &mut R) -> Self {
        let described = schema_of::<T>();
        for _ in 0..ATTEMPTS {
            let draw = draw_value(&described.schema, &described.registry, rng);
            let typed = serde_json::from_value::<T>(draw.value.clone())
                .ok()
                .filter(Validate::is_valid);
            match typed {
                Some(typed) => return typed,
                None if draw.exact => panic!(
                    "a random `{}` built to be valid was refused: {}",
                    std::any::type_name::<T>(),
                    draw.value
                ),
                None => {}
            }
        }
        panic!(
            "no random `{}` satisfied its constraints in {ATTEMPTS} tries; are they contradictory?",
            std::any::type_name::<T>()
        )
    }
}

/// One random JSON value drawn from a schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Draw {
    /// The value.
    pub value: Value,
    /// Whether the value is valid by construction. False when the schema
    /// has a constraint the generator cannot construct (listed in the
    /// module docs); the value may then be refused.
    pub exact: bool,
}

/// A random JSON value that fits `schema`.
///
/// ```
/// use framework::schema::{Registry, Schema};
/// use rand::{SeedableRng, rngs::SmallRng};
/// let mut rng = SmallRng::seed_from_u64(7);
/// let value = framework::random_value(&Schema::Boolean, &Registry::default(), &mut rng);
/// assert!(value.is_boolean());
/// ```
pub fn random_value<R: Rng + ?Sized>(schema: &Schema, registry: &Registry, rng: &mut R) -> Value {
    draw_value(schema, registry, rng).value
}

/// A random JSON value that fits `schema`, and whether it is valid by
/// construction.
///
/// ```
/// use framework::schema::{Registry, Schema, StringSchema};
/// use rand::{SeedableRng, rngs::SmallRng};
/// let schema = Schema::String(StringSchema { max_length: Some(3), ..StringSchema::default() });
/// let mut rng = SmallRng::seed_from_u64(7);
/// let draw = framework::testing::draw_value(&schema, &Registry::default(), &mut rng);
/// assert!(draw.exact && draw.value.as_str().unwrap().len() <= 3);
/// ```
pub fn draw_value<R: Rng + ?Sized>(schema: &Schema, registry: &Registry, rng: &mut R) -> Draw {
    let mut generator = Generator {
        registry,
        rng,
        exact: true,
    };
    let value = generator.value(schema, 0);
    Draw {
        value,
        exact: generator.exact,
    }
}

struct Generator<'a, R: ?Sized> {
    registry: &'a Registry,
    rng: &'a mut R,
    /// Cleared when a constraint could not be constructed.
    exact: bool,
}

impl<R: Rng + ?Sized> Generator<'_, R> {
    /// Marks the draw as not valid by construction.
    fn inexact(&mut self) {
        self.exact = false;
    }

    fn value(&mut self, schema: &Schema, depth: usize) -> Value {
        if depth > HARD_DEPTH {
            self.inexact();
            return Value::Null;
        }
        match schema {
            Schema::Any => match self.rng.random_range(0..3) {
                0 => Value::from(self.rng.random_range(-100..100)),
                1 => Value::from(self.word(1, 8)),
                _ => Value::from(self.rng.random_bool(0.5)),
            },
            Schema::Null => Value::Null,
            // A file has no JSON form: nothing drawn is one.
            Schema::File(_) => {
                self.inexact();
                Value::Null
            }
            Schema::Boolean => Value::from(self.rng.random_bool(0.5)),
            Schema::Integer(int) => self.integer(int),
            Schema::Number(number) => self.number(number),
            Schema::String(string) => Value::from(self.string(string)),
            Schema::Array(array) => self.array(array, depth),
            Schema::Map(values) => self.map(values, depth),
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
                    TypeKind::StringEnum(values) => match values.choose(self.rng) {
                        Some(value) => Value::from(value.value.as_str()),
                        None => {
                            self.inexact();
                            Value::Null
                        }
                    },
                    TypeKind::Union(union) => self.union(union, depth),
                }
            }
        }
    }

    /// A map of up to two entries (none at the depth limit).
    fn map(&mut self, values: &Schema, depth: usize) -> Value {
        let count = if depth >= MAX_DEPTH {
            0
        } else {
            self.rng.random_range(0..3)
        };
        let mut map = Map::new();
        while map.len() < count {
            let key = self.word(1, 8);
            let value = self.value(values, depth + 1);
            map.insert(key, value);
        }
        Value::Object(map)
    }

    /// A union: a variant (a unit one at the depth limit, if there is one)
    /// in the union's representation.
    fn union(&mut self, union: &UnionDef, depth: usize) -> Value {
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
            self.inexact();
            return Value::Null;
        };
        let content = match &variant.kind {
            VariantKind::Unit => None,
            VariantKind::Newtype(schema) => Some(self.value(schema, depth + 1)),
            VariantKind::Struct(object) => Some(Value::Object(self.fields(&object.fields, depth))),
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

    fn fields(&mut self, fields: &[FieldDef], depth: usize) -> Map<String, Value> {
        let mut map = Map::new();
        for field in fields {
            if !field.required && (depth >= MAX_DEPTH || self.rng.random_bool(0.3)) {
                continue;
            }
            if field.check.is_some() {
                // A user-written check: what it accepts is not in the schema.
                self.inexact();
            }
            let value = self.value(&field.schema, depth + 1);
            map.insert(field.name.clone(), value);
        }
        map
    }

    /// A whole number within the type's range and every bound, a multiple
    /// of the period of `multiple_of` (the rule of
    /// [`Bounds::contains_integer`]).
    fn integer(&mut self, int: &IntegerSchema) -> Value {
        let (type_min, type_max) = int.format.range();
        let Some((low, high)) = integer_range(type_min, type_max, &int.bounds) else {
            self.inexact();
            return integer_value(type_min);
        };
        let period = match int.bounds.multiple_of {
            None => 1,
            Some(step) => match integer_period(step) {
                Some(period) => period,
                // No integer but 0 is a multiple.
                None => {
                    if !int.bounds.contains_integer(0) || !(low..=high).contains(&0) {
                        self.inexact();
                    }
                    return integer_value(0);
                }
            },
        };
        let (first, last) = (div_ceil(low, period), div_floor(high, period));
        if first > last {
            self.inexact();
            return integer_value(low);
        }
        let value = self.rng.random_range(first..=last) * period;
        debug_assert!(int.bounds.contains_integer(value), "{value} in {int:?}");
        integer_value(value)
    }

    /// A number within every bound (inclusive or exclusive), a multiple of
    /// `multiple_of`, and exact in the field's precision.
    fn number(&mut self, number: &NumberSchema) -> Value {
        // An f32's own range is no reason to draw huge numbers.
        let mut range = number.bounds;
        let single = number.format == NumberFormat::Float;
        if single {
            if range.minimum == Some(F32_RANGE.0) {
                range.minimum = None;
            }
            if range.maximum == Some(F32_RANGE.1) {
                range.maximum = None;
            }
        }
        let bounds = &range;
        let (low, high) = drawing_range(bounds);
        // In the field's precision: an f32 holds fewer numbers.
        let round = |value: f64| {
            if single {
                f64::from(value as f32)
            } else {
                value
            }
        };
        let fits = |value: f64| number.bounds.contains(value) && value.is_finite();
        let candidate = match bounds.multiple_of {
            Some(step) => {
                #[allow(clippy::cast_possible_truncation)]
                let (mut first, mut last) =
                    ((low / step).ceil() as i64, (high / step).floor() as i64);
                // An exclusive bound on a multiple leaves it out.
                #[allow(clippy::cast_precision_loss)]
                let at = |k: i64| round(k as f64 * step);
                if first <= last && !fits(at(first)) {
                    first += 1;
                }
                if first <= last && !fits(at(last)) {
                    last -= 1;
                }
                if first > last {
                    None
                } else {
                    Some(at(self.rng.random_range(first..=last)))
                }
            }
            None if low < high => {
                let drawn = round(self.rng.random_range(low..=high));
                Some(if fits(drawn) {
                    drawn
                } else {
                    round(low / 2.0 + high / 2.0)
                })
            }
            None => Some(round(low)),
        };
        match candidate {
            Some(value) if fits(value) => Value::from(value),
            other => {
                // No number of this precision fits (see the module docs).
                self.inexact();
                Value::from(other.unwrap_or(low))
            }
        }
    }

    fn string(&mut self, string: &StringSchema) -> String {
        let min = usize::try_from(string.min_length.unwrap_or(0)).unwrap_or(usize::MAX);
        let max = string
            .max_length
            .map_or(usize::MAX, |max| usize::try_from(max).unwrap_or(usize::MAX));
        let has_length = string.min_length.is_some() || string.max_length.is_some();
        if let Some(pattern) = &string.pattern {
            // Drawn from the Rust form, which has the pattern's ECMAScript
            // meaning (`\d` is `[0-9]`, ...).
            let rust = framework_pattern::to_rust_for_drawing(pattern).unwrap_or_default();
            if framework_pattern::to_rust(pattern).is_ok_and(|exact| exact != rust) {
                // Word boundaries are left out of the draw: it may miss one.
                self.inexact();
            }
            let Ok(generator) = rand_regex::Regex::compile(unanchored(&rust), 16) else {
                // A pattern the generator does not take.
                self.inexact();
                return String::new();
            };
            if has_length || string.format.is_some() {
                // A pattern with a length or a format: generated from the
                // pattern, the rest is not constructed.
                self.inexact();
            }
            return self.rng.sample(&generator);
        }
        match string.format {
            Some(format) => match self.formatted(format, min, max) {
                Some(text) => text,
                None => {
                    // A format whose texts the lengths do not construct.
                    self.inexact();
                    String::new()
                }
            },
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

    /// A word to fill `prefix` and `suffix` (`fixed` characters together)
    /// to between `min` and `max` characters, at least `least` long and at
    /// most `most` (when the lengths allow); `None` when they do not.
    fn filler(
        &mut self,
        fixed: usize,
        min: usize,
        max: usize,
        least: usize,
        most: usize,
    ) -> Option<String> {
        let low = min.saturating_sub(fixed).max(least);
        let high = max.saturating_sub(fixed).min(low.max(most));
        (fixed.saturating_add(low) <= max && low <= high).then(|| self.word(low, high))
    }

    /// A text of `format`, `min..=max` characters long; `None` when the
    /// format's texts are not constructed to such a length.
    fn formatted(&mut self, format: Format, min: usize, max: usize) -> Option<String> {
        let any_length = min == 0 && max == usize::MAX;
        let text = match format {
            // Variable shapes, built to the length.
            Format::Email => {
                let local = self.filler("@example.com".len(), min, max, 1, 12)?;
                format!("{local}@example.com")
            }
            Format::Hostname => {
                // A label is at most 63 characters.
                let label = self.filler(".example.com".len(), min, max.min(75), 1, 12)?;
                format!("{label}.example.com")
            }
            Format::Uri | Format::Url => {
                let path = self.filler("https://example.com/".len(), min, max, 0, 32)?;
                format!("https://example.com/{path}")
            }
            Format::UriReference => {
                let path = self.filler(1, min, max, 0, 32)?;
                format!("/{path}")
            }
            Format::JsonPointer => {
                let segment = self.filler(1, min, max, 0, 8)?;
                format!("/{segment}")
            }
            Format::Password => self.filler(0, min, max, 8.min(max), 24)?,
            Format::Byte => self.base64_text(min, max)?,
            // Fixed shapes: any length tag is not constructed.
            _ if !any_length => return None,
            _ => self.fixed_shape(format)?,
        };
        debug_assert!(format.matches(&text), "{} built {text:?}", format.name());
        Some(text)
    }

    /// Base64 of random bytes, `min..=max` characters long: four characters
    /// per three bytes, padded.
    fn base64_text(&mut self, min: usize, max: usize) -> Option<String> {
        let groups_min = min.div_ceil(4);
        let groups_max = (max / 4).min(groups_min.max(8));
        if groups_min > groups_max {
            return None;
        }
        let groups = self.rng.random_range(groups_min..=groups_max);
        let length = if groups == 0 {
            0
        } else {
            self.rng.random_range(groups * 3 - 2..=groups * 3)
        };
        let bytes: Vec<u8> = (0..length).map(|_| self.rng.random()).collect();
        Some(base64(&bytes))
    }

    /// A text of a format whose texts have one shape (and so no length to
    /// build to); `None` for the formats `formatted` builds to a length.
    fn fixed_shape(&mut self, format: Format) -> Option<String> {
        Some(match format {
            Format::Uuid => uuid::Builder::from_random_bytes(self.rng.random())
                .into_uuid()
                .to_string(),
            Format::Ipv4 => std::net::Ipv4Addr::from(self.rng.random::<u32>()).to_string(),
            Format::Ipv6 => std::net::Ipv6Addr::from(self.rng.random::<u128>()).to_string(),
            Format::DateTime => {
                let seconds = self.rng.random_range(0..4_102_444_800_i64);
                let nanos = self.rng.random_range(0..1_000_000) * 1000;
                chrono::DateTime::from_timestamp(seconds, nanos).map_or_else(
                    || "2026-01-01T00:00:00Z".to_owned(),
                    |time| time.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true),
                )
            }
            Format::Date => {
                let days = self.rng.random_range(0..47_000);
                (chrono::NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default()
                    + chrono::Days::new(days))
                .format("%Y-%m-%d")
                .to_string()
            }
            Format::Time => format!(
                "{:02}:{:02}:{:02}Z",
                self.rng.random_range(0..24),
                self.rng.random_range(0..60),
                self.rng.random_range(0..60)
            ),
            Format::Duration => format!(
                "P{}DT{}H",
                self.rng.random_range(0..30),
                self.rng.random_range(0..24)
            ),
            Format::Regex => "^[a-z]+$".to_owned(),
            Format::Email
            | Format::Hostname
            | Format::Uri
            | Format::Url
            | Format::UriReference
            | Format::JsonPointer
            | Format::Password
            | Format::Byte => return None,
        })
    }

    /// Between `min_items` and `max_items` items (no more than four above
    /// the minimum, and the minimum past the depth budget), distinct when
    /// `unique_items` says so: duplicates are drawn again, and an item
    /// schema with too few distinct values is not exact.
    fn array(&mut self, array: &ArraySchema, depth: usize) -> Value {
        let min = usize::try_from(array.min_items.unwrap_or(0)).unwrap_or(usize::MAX);
        let max = array
            .max_items
            .map_or(usize::MAX, |max| usize::try_from(max).unwrap_or(usize::MAX));
        let count = if depth >= MAX_DEPTH || min > max {
            min
        } else {
            self.rng.random_range(min..=max.min(min.saturating_add(4)))
        };
        let mut items = Vec::with_capacity(count);
        let mut seen = std::collections::BTreeSet::new();
        let mut attempts = 0;
        while items.len() < count && attempts < count.saturating_mul(ATTEMPTS) {
            attempts += 1;
            let item = self.value(&array.items, depth + 1);
            if !array.unique_items || seen.insert(canonical(&item)) {
                items.push(item);
            }
        }
        if items.len() < min {
            self.inexact();
        }
        Value::Array(items)
    }
}

/// The integers within a type's range and a tag's bounds, by the rule of
/// [`Bounds::contains_integer`]; unbounded sides are kept within a
/// thousand of the other side or of zero. `None` when no integer is left.
fn integer_range(type_min: i128, type_max: i128, bounds: &Bounds) -> Option<(i128, i128)> {
    // Float-to-int casts saturate, which is right for bounds beyond i128.
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
        let above = (min.floor() as i128).saturating_add(1);
        low = low.max(above);
    }
    if let Some(max) = bounds.exclusive_maximum {
        #[allow(clippy::cast_possible_truncation)]
        let below = (max.ceil() as i128).saturating_sub(1);
        high = high.min(below);
    }
    if bounds.minimum.is_none() && bounds.exclusive_minimum.is_none() {
        low = low.max(high.min(0) - 1000).max(type_min);
    }
    if bounds.maximum.is_none() && bounds.exclusive_maximum.is_none() {
        high = high.min(low.max(0) + 1000);
    }
    (low <= high).then_some((low, high))
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

/// The range numbers are drawn from: the bounds' (the tighter of an
/// inclusive and an exclusive one), else 1,000 around the one bound there
/// is, else -1,000 to 1,000.
fn drawing_range(bounds: &Bounds) -> (f64, f64) {
    let low = match (bounds.minimum, bounds.exclusive_minimum) {
        (Some(a), Some(b)) => a.max(b),
        (a, b) => a.or(b).unwrap_or_else(|| {
            bounds
                .maximum
                .or(bounds.exclusive_maximum)
                .map_or(-1000.0, |high| high.min(0.0) - 1000.0)
        }),
    };
    let high = match (bounds.maximum, bounds.exclusive_maximum) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap_or(low.max(0.0) + 1000.0),
    };
    (low, high)
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
        let mut rng = thread_rng();
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
        let mut rng = thread_rng();
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
        assert_eq!(integer_range(0, 255, &Bounds::default()), Some((0, 255)));
        assert_eq!(
            integer_range(i64::MIN.into(), i64::MAX.into(), &Bounds::default()),
            Some((-1000, 1000))
        );
        let none = Bounds {
            minimum: Some(300.0),
            ..Bounds::default()
        };
        assert_eq!(integer_range(0, 255, &none), None);
    }

    fn draw(schema: &Schema) -> Draw {
        draw_value(schema, &Registry::default(), &mut thread_rng())
    }

    #[test]
    fn lengths_are_built_into_formats() {
        let flexible = [
            Format::Email,
            Format::Hostname,
            Format::Uri,
            Format::Url,
            Format::UriReference,
            Format::JsonPointer,
            Format::Password,
            Format::Byte,
        ];
        for format in flexible {
            for (min, max) in [(0, 40), (30, 36), (24, 24), (40, 60)] {
                let schema = Schema::String(StringSchema {
                    format: Some(format),
                    min_length: Some(min),
                    max_length: Some(max),
                    pattern: None,
                });
                for _ in 0..50 {
                    let draw = draw(&schema);
                    let text = draw.value.as_str().unwrap();
                    let length = text.chars().count() as u64;
                    assert!(draw.exact, "{} {min}..={max}", format.name());
                    assert!(
                        format.matches(text) && (min..=max).contains(&length),
                        "{} {min}..={max} built {text:?}",
                        format.name()
                    );
                }
            }
        }
        // A fixed shape with a length is the named exception.
        let uuid = Schema::String(StringSchema {
            format: Some(Format::Uuid),
            max_length: Some(5),
            ..StringSchema::default()
        });
        assert!(!draw(&uuid).exact);
    }

    #[test]
    fn numbers_keep_exclusive_bounds_and_steps() {
        let cases = [
            (NumberFormat::Double, Some(0.0), Some(1.0), None),
            (NumberFormat::Double, Some(1.5), Some(4.5), Some(1.5)),
            (NumberFormat::Float, Some(0.0), Some(1.0), Some(0.25)),
            (NumberFormat::Float, None, Some(-3.0), None),
        ];
        for (format, above, below, step) in cases {
            let schema = NumberSchema {
                format,
                bounds: Bounds {
                    exclusive_minimum: above,
                    exclusive_maximum: below,
                    multiple_of: step,
                    ..Bounds::default()
                },
            };
            for _ in 0..200 {
                let draw = draw(&Schema::Number(schema));
                let n = draw.value.as_f64().unwrap();
                assert!(draw.exact && schema.bounds.contains(n), "{n} in {schema:?}");
            }
        }
    }

    #[test]
    fn patterns_alone_are_exact_and_with_a_length_are_not() {
        let pattern = Schema::String(StringSchema {
            pattern: Some("^[a-z]{2,5}-[0-9]{3}$".to_owned()),
            ..StringSchema::default()
        });
        let regex = regex::Regex::new("^[a-z]{2,5}-[0-9]{3}$").unwrap();
        for _ in 0..100 {
            let draw = draw(&pattern);
            assert!(draw.exact && regex.is_match(draw.value.as_str().unwrap()));
        }
        let Schema::String(mut with_length) = pattern else {
            unreachable!()
        };
        with_length.max_length = Some(6);
        assert!(!draw(&Schema::String(with_length)).exact);
    }

    #[test]
    fn unique_items_are_distinct_or_not_exact() {
        let array = |min_items: u64| {
            Schema::Array(ArraySchema {
                items: Box::new(Schema::Boolean),
                min_items: Some(min_items),
                max_items: None,
                unique_items: true,
            })
        };
        for _ in 0..100 {
            let draw = draw(&array(2));
            let items = draw.value.as_array().unwrap();
            assert!(draw.exact && items.len() == 2 && items[0] != items[1]);
        }
        // Two booleans are all there are.
        assert!(!draw(&array(3)).exact);
    }
}
