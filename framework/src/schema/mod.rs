//! Schemas: what a DTO looks like on the wire, as its `#[dto]` declaration
//! says. The same model drives the error report of a refused input, random
//! values, and (later) the OpenAPI document and the SDKs.

mod documented_default;
mod expected;
mod format;
mod impls;
mod registry;
mod tags;

#[doc(hidden)]
pub use documented_default::{DefaultOf, Serialized, SerializedDefault, Undocumented};
pub use expected::bound_text;
pub use format::Format;
pub use registry::{DefId, Registry, SchemaOf, schema_of};
pub use tags::Tag;

/// `minimum` and `maximum` of an `f32`: its range, part of its schema.
pub const F32_RANGE: (f64, f64) = (f32::MIN as f64, f32::MAX as f64);

pub(crate) use expected::expected;

/// The name a schema is shown with: a named type's name, or its type
/// expression. Names generic DTOs: `Page<ArticleSummary>`.
#[doc(hidden)]
pub fn type_label(schema: &Schema, registry: &Registry) -> String {
    match schema {
        Schema::Ref(id) => registry.name(*id).to_owned(),
        other => expected(other, registry),
    }
}
pub(crate) use format::{compile_pattern, pattern_regex};
#[doc(hidden)]
pub use tags::apply_tags;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The JSON shape of a value, with its constraints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Schema {
    /// Any JSON value.
    Any,
    /// `null` only.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A whole number of a given width.
    Integer(IntegerSchema),
    /// A number.
    Number(NumberSchema),
    /// A string.
    String(StringSchema),
    /// An array.
    Array(ArraySchema),
    /// An object with string keys and values of one schema.
    Map(Box<Schema>),
    /// The schema, or `null`.
    Nullable(Box<Schema>),
    /// A named type, defined in the [`Registry`].
    Ref(DefId),
    /// A file: a part of a `multipart/form-data` body with a file name
    /// (a `framework::File`). OpenAPI writes it `string` with
    /// `format: binary`.
    File(FileSchema),
}

/// A file's constraints, from `#[tags(max_size = .., accept = [..])]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSchema {
    /// `MaxSize<n>`: the most bytes the file may have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_size: Option<u64>,
    /// `Accept<"image/png, image/*">`: the media types the file may have
    /// (`type/subtype`, `type/*` or `*/*`); empty accepts any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accept: Vec<String>,
}

impl FileSchema {
    /// Whether a file of `media_type` (parameters allowed, case ignored)
    /// may be sent: what the server checks, and the SDKs check alike.
    ///
    /// ```
    /// use framework::schema::FileSchema;
    /// let images = FileSchema { max_size: None, accept: vec!["image/*".into(), "application/pdf".into()] };
    /// assert!(images.accepts("image/PNG"));
    /// assert!(images.accepts("application/pdf; name=a.pdf"));
    /// assert!(!images.accepts("text/plain"));
    /// assert!(FileSchema::default().accepts("text/plain"));
    /// ```
    pub fn accepts(&self, media_type: &str) -> bool {
        media_type_accepted(&self.accept, media_type)
    }
}

/// Whether `media_type` is one of `accept` (`type/subtype`, `type/*` or
/// `*/*`, compared without parameters and case); an empty `accept`
/// accepts any. The one rule behind `#[tags(accept = [..])]`.
pub fn media_type_accepted<S: AsRef<str>>(accept: &[S], media_type: &str) -> bool {
    if accept.is_empty() {
        return true;
    }
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    accept.iter().any(|entry| {
        let Some((want_kind, want_subtype)) = entry.as_ref().split_once('/') else {
            return false;
        };
        (want_kind == "*" || want_kind.eq_ignore_ascii_case(kind))
            && (want_subtype == "*" || want_subtype.eq_ignore_ascii_case(subtype))
    })
}

/// Inclusive and exclusive bounds and a divisor, for numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    /// `Minimum<n>`: value >= n.
    pub minimum: Option<f64>,
    /// `Maximum<n>`: value <= n.
    pub maximum: Option<f64>,
    /// `ExclusiveMinimum<n>`: value > n.
    pub exclusive_minimum: Option<f64>,
    /// `ExclusiveMaximum<n>`: value < n.
    pub exclusive_maximum: Option<f64>,
    /// `MultipleOf<n>`: value / n is whole.
    pub multiple_of: Option<f64>,
}

impl Bounds {
    /// Whether the number `value` is within every bound.
    pub fn contains(&self, value: f64) -> bool {
        self.minimum.is_none_or(|min| value >= min)
            && self.maximum.is_none_or(|max| value <= max)
            && self.exclusive_minimum.is_none_or(|min| value > min)
            && self.exclusive_maximum.is_none_or(|max| value < max)
            && self
                .multiple_of
                .is_none_or(|step| is_multiple_of(value, step))
    }

    /// Whether the integer `value` is within every bound, compared exactly
    /// (no rounding to `f64`, whatever the size of `value`).
    pub fn contains_integer(&self, value: i128) -> bool {
        use std::cmp::Ordering::{Greater, Less};
        let compare = |bound: f64| compare_integer(value, bound);
        self.minimum.is_none_or(|min| compare(min) != Less)
            && self.maximum.is_none_or(|max| compare(max) != Greater)
            && self
                .exclusive_minimum
                .is_none_or(|min| compare(min) == Greater)
            && self
                .exclusive_maximum
                .is_none_or(|max| compare(max) == Less)
            && self
                .multiple_of
                .is_none_or(|step| integer_period(step).is_some_and(|period| value % period == 0))
    }
}

/// Whether `value` is a whole multiple of `step`, allowing for binary
/// floating point (`0.3` is a multiple of `0.1`). For numbers; integers
/// use [`integer_period`], which is exact.
pub(crate) fn is_multiple_of(value: f64, step: f64) -> bool {
    if step <= 0.0 || !step.is_finite() {
        return false;
    }
    let quotient = value / step;
    let nearest = quotient.round();
    (quotient - nearest).abs() <= 1e-9 * nearest.abs().max(1.0)
}

/// The integers that are whole multiples of `step` are exactly the
/// multiples of this period. A whole `step` is its own period; otherwise
/// `step` is read as the shortest decimal that gives it (`0.1` is 1/10,
/// not the binary fraction nearest to it), `p / 10^d` in lowest terms, and
/// `n / step = n * 10^d / p` is whole exactly when `p / gcd(p, 10^d)`
/// divides `n`. `None` when the step is not positive, or when no integer
/// but 0 is a multiple (a step of 2^127 or more).
///
/// ```
/// use framework::schema::integer_period;
/// assert_eq!(integer_period(2.0), Some(2));
/// assert_eq!(integer_period(0.5), Some(1));
/// assert_eq!(integer_period(1.5), Some(3));
/// assert_eq!(integer_period(0.1), Some(1));
/// assert_eq!(integer_period(0.0), None);
/// ```
pub fn integer_period(step: f64) -> Option<i128> {
    if !(step > 0.0 && step.is_finite()) {
        return None;
    }
    if step.fract() == 0.0 {
        // Whole and below 2^127: exact as an i128.
        #[allow(clippy::cast_possible_truncation)]
        return (step < 2f64.powi(127)).then_some(step as i128);
    }
    let mut scale: i128 = 1;
    for _ in 1..=22 {
        scale *= 10;
        #[allow(clippy::cast_precision_loss)]
        let power = scale as f64;
        let numerator = (step * power).round();
        // The decimal `numerator / 10^digits` reads back as `step`: both
        // are exact below 2^53, so the division rounds as parsing does.
        if numerator < 2f64.powi(53) && numerator / power == step {
            #[allow(clippy::cast_possible_truncation)]
            let numerator = numerator as i128;
            return Some(numerator / gcd(numerator, scale));
        }
    }
    // Smaller than any decimal of 22 digits: every integer is a multiple.
    Some(1)
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

/// `value` against `bound`, exactly.
fn compare_integer(value: i128, bound: f64) -> std::cmp::Ordering {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let limit = 2f64.powi(127);
    if bound >= limit {
        return Less;
    }
    if bound < -limit {
        return Greater;
    }
    let floor = bound.floor();
    // Whole and within i128: exact.
    #[allow(clippy::cast_possible_truncation)]
    let whole = floor as i128;
    match value.cmp(&whole) {
        Equal if floor < bound => Less,
        order => order,
    }
}

/// The width of an integer, from its Rust type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntegerFormat {
    /// `i8`
    Int8,
    /// `i16`
    Int16,
    /// `i32`
    Int32,
    /// `i64`, `isize`
    Int64,
    /// `u8`
    Uint8,
    /// `u16`
    Uint16,
    /// `u32`
    Uint32,
    /// `u64`, `usize`
    Uint64,
}

impl IntegerFormat {
    /// typia's name: `int32`, `uint64`, ...
    pub const fn name(self) -> &'static str {
        match self {
            IntegerFormat::Int8 => "int8",
            IntegerFormat::Int16 => "int16",
            IntegerFormat::Int32 => "int32",
            IntegerFormat::Int64 => "int64",
            IntegerFormat::Uint8 => "uint8",
            IntegerFormat::Uint16 => "uint16",
            IntegerFormat::Uint32 => "uint32",
            IntegerFormat::Uint64 => "uint64",
        }
    }

    /// The smallest and largest value.
    pub const fn range(self) -> (i128, i128) {
        match self {
            IntegerFormat::Int8 => (i8::MIN as i128, i8::MAX as i128),
            IntegerFormat::Int16 => (i16::MIN as i128, i16::MAX as i128),
            IntegerFormat::Int32 => (i32::MIN as i128, i32::MAX as i128),
            IntegerFormat::Int64 => (i64::MIN as i128, i64::MAX as i128),
            IntegerFormat::Uint8 => (0, u8::MAX as i128),
            IntegerFormat::Uint16 => (0, u16::MAX as i128),
            IntegerFormat::Uint32 => (0, u32::MAX as i128),
            IntegerFormat::Uint64 => (0, u64::MAX as i128),
        }
    }
}

/// An integer schema.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct IntegerSchema {
    /// Width and signedness.
    pub format: IntegerFormat,
    /// Bounds from tags.
    pub bounds: Bounds,
}

/// The precision of a number, from its Rust type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NumberFormat {
    /// `f32`
    Float,
    /// `f64`
    Double,
}

/// A number schema.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NumberSchema {
    /// Precision.
    pub format: NumberFormat,
    /// Bounds from tags.
    pub bounds: Bounds,
}

/// A string schema.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StringSchema {
    /// `Format<"...">`.
    pub format: Option<Format>,
    /// `MinLength<n>`, in Unicode code points as JSON Schema counts.
    pub min_length: Option<u64>,
    /// `MaxLength<n>`, in Unicode code points.
    pub max_length: Option<u64>,
    /// `Pattern<"...">`: a regular expression the string must match
    /// (unanchored, as in JSON Schema).
    pub pattern: Option<String>,
}

/// An array schema.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArraySchema {
    /// Every item's schema.
    pub items: Box<Schema>,
    /// `MinItems<n>`.
    pub min_items: Option<u64>,
    /// `MaxItems<n>`.
    pub max_items: Option<u64>,
    /// `UniqueItems`: no two items are equal JSON values.
    pub unique_items: bool,
}

/// A named type: a `#[dto]` struct or enum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TypeDef {
    /// The name people read: `BbsArticle`, `Page<ArticleSummary>`.
    pub name: String,
    /// The Rust type, for reports of ambiguous names.
    #[serde(skip_deserializing)]
    pub rust_name: &'static str,
    /// The doc comment.
    pub description: String,
    /// What it is.
    pub kind: TypeKind,
}

/// The kinds of named types.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TypeKind {
    /// A struct: an object with known fields.
    Object(ObjectDef),
    /// An enum of unit variants: one of some strings.
    StringEnum(Vec<EnumValue>),
    /// An enum with data: one of some shapes.
    Union(UnionDef),
}

/// An object's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectDef {
    /// The fields in declaration order.
    pub fields: Vec<FieldDef>,
    /// Whether unknown properties are refused (`#[dto(strict)]`).
    pub strict: bool,
}

/// One field of an object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldDef {
    /// The name on the wire.
    pub name: String,
    /// The value's schema.
    pub schema: Schema,
    /// Whether the property must be present in an input.
    pub required: bool,
    /// Whether the property is present in every value the server writes:
    /// false for `#[optional]` fields and those with `skip_serializing_if`.
    pub always_present: bool,
    /// The doc comment.
    pub description: String,
    /// `Default<v>`, or the value serde fills in when absent.
    pub default: Option<Value>,
    /// `Example<v>`.
    pub example: Option<Value>,
    /// A user-written check (`#[tags(check = path::to::fn)]`). It runs on
    /// the server only: the exported metadata names it in
    /// [`server_check`](FieldDef::server_check).
    #[serde(skip)]
    pub check: Option<CustomCheck>,
    /// The name of the field's [`check`](FieldDef::check), which only the
    /// server runs: the SDKs document that their validation cannot apply it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_check: Option<String>,
}

/// A user-written check of a field, for what tags cannot say.
#[derive(Clone, Copy, Debug)]
pub struct CustomCheck {
    /// The function's path as written, shown as `Check<name>`.
    pub name: &'static str,
    /// Runs the check on the field's JSON value.
    pub run: fn(&Value) -> Result<(), String>,
}

impl PartialEq for CustomCheck {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// One value of a string enum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnumValue {
    /// The string on the wire.
    pub value: String,
    /// The Rust variant's name, for SDKs that declare the enum again.
    pub rust_name: String,
    /// The variant's doc comment.
    pub description: String,
}

/// How serde writes an enum with data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnionRepr {
    /// `{ "Variant": { ... } }` (serde's default).
    External,
    /// `{ "type": "Variant", ... }` (`#[serde(tag = "type")]`).
    Internal {
        /// The tag property.
        tag: String,
    },
    /// `{ "t": "Variant", "c": ... }` (`#[serde(tag = "t", content = "c")]`).
    Adjacent {
        /// The tag property.
        tag: String,
        /// The content property.
        content: String,
    },
    /// The variant's own shape (`#[serde(untagged)]`).
    Untagged,
}

/// An enum with data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnionDef {
    /// How the variant is told apart.
    pub repr: UnionRepr,
    /// The variants.
    pub variants: Vec<VariantDef>,
}

/// One variant of an enum with data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantDef {
    /// The name on the wire.
    pub name: String,
    /// The Rust variant's name, for SDKs that declare the enum again.
    pub rust_name: String,
    /// The doc comment.
    pub description: String,
    /// What it carries.
    pub kind: VariantKind,
}

/// What a variant carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VariantKind {
    /// Nothing.
    Unit,
    /// One value.
    Newtype(Schema),
    /// Named fields.
    Struct(ObjectDef),
}

/// A type with a schema. `#[dto]` implements it; the framework implements
/// it for strings, numbers, booleans, `Uuid`, chrono's dates, `Vec`,
/// `Option`, maps, `Box` and `serde_json::Value`.
///
/// ```
/// use framework::schema::{Registry, Schema, ToSchema};
/// let mut registry = Registry::default();
/// assert!(matches!(<Vec<u32> as ToSchema>::schema(&mut registry), Schema::Array(_)));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no schema",
    label = "declare it with `#[dto]`",
    note = "inputs and outputs are declared once with `#[dto]` on the struct or enum"
)]
pub trait ToSchema {
    /// The schema, with named types defined in `registry`.
    fn schema(registry: &mut Registry) -> Schema;
}
