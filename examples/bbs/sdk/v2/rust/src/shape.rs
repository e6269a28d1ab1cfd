// Written by sdk-gen from the framework's `dto/shape.rs`: the server's own
// rules, shared with this SDK; do not edit.

//! serde's derived `Deserialize` is lenient where our schema is not: a
//! struct also reads from a sequence (`[1, 2]` for `{ x, y }`), an
//! externally tagged unit variant also reads as `{"Cash": null}`, and a map
//! takes the last of two equal keys. `#[dto]` derives serde's code as an
//! inherent function and routes it through these adapters, which refuse
//! those forms; everything else is forwarded untouched, so the fast path
//! stays one pass.
//!
//! The generated Rust SDK decodes answers with these same adapters: sdk-gen
//! writes this file into it as it is (`SHAPE_RS`), so the file uses serde
//! alone, and its host says which deserializers read JSON
//! (`super::reads_json`).

use std::{collections::HashSet, fmt};

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, IgnoredAny, IntoDeserializer,
    MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};

/// The JSON shape a `#[dto]` type reads, as its schema says.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A struct with named fields, or an adjacently tagged enum: an object
    /// only.
    Object,
    /// An internally tagged enum: an object only (serde also reads a
    /// sequence whose first item is the tag).
    Tagged,
    /// An externally tagged enum or a string enum: a unit variant is the
    /// string alone, a variant with data an object with one property.
    External,
    /// A newtype struct or an untagged enum: whatever its content reads.
    Content,
}

/// Deserializes a `#[dto]` type with serde's derived code (`derived`),
/// holding it to `shape`.
#[doc(hidden)]
#[inline]
pub fn deserialize_shaped<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    shape: Shape,
    derived: impl FnOnce(Shaped<D>) -> Result<T, D::Error>,
) -> Result<T, D::Error> {
    derived(Shaped {
        inner: deserializer,
        shape,
    })
}

/// A deserializer that refuses the forms of its type's [`Shape`] that the
/// schema does not describe.
#[doc(hidden)]
pub struct Shaped<D> {
    inner: D,
    shape: Shape,
}

/// Forwards `Deserializer` methods to `self.inner` unchanged.
macro_rules! forward_deserializer {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.inner.$method(visitor)
        }
    )*};
}

/// The `Deserializer` methods with arguments other than the visitor.
macro_rules! forward_named {
    () => {
        #[inline]
        fn deserialize_unit_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            self.inner.deserialize_unit_struct(name, visitor)
        }

        #[inline]
        fn deserialize_tuple<V: Visitor<'de>>(
            self,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            self.inner.deserialize_tuple(len, visitor)
        }

        #[inline]
        fn deserialize_tuple_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            self.inner.deserialize_tuple_struct(name, len, visitor)
        }

        fn is_human_readable(&self) -> bool {
            self.inner.is_human_readable()
        }
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Shaped<D> {
    type Error = D::Error;

    forward_deserializer!(
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any
    );
    forward_named!();

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        match self.shape {
            Shape::Tagged => self.inner.deserialize_any(ObjectOnly(visitor)),
            _ => self.inner.deserialize_any(visitor),
        }
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_newtype_struct(name, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        match self.shape {
            Shape::Object => self
                .inner
                .deserialize_struct(name, fields, ObjectOnly(visitor)),
            _ => self.inner.deserialize_struct(name, fields, visitor),
        }
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        match self.shape {
            Shape::External => self.inner.deserialize_any(External(visitor)),
            _ => self.inner.deserialize_enum(name, variants, visitor),
        }
    }
}

/// Forwards the scalar `Visitor` methods to `self.0`.
macro_rules! forward_scalars {
    ($($method:ident: $ty:ty),*) => {$(
        #[inline]
        fn $method<E: de::Error>(self, value: $ty) -> Result<Self::Value, E> {
            self.0.$method(value)
        }
    )*};
}

/// Forwards every `Visitor` method but `visit_seq` and `visit_map`.
macro_rules! forward_visitor {
    () => {
        fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.expecting(formatter)
        }

        forward_scalars!(
            visit_bool: bool, visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64,
            visit_i128: i128, visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64,
            visit_u128: u128, visit_f32: f32, visit_f64: f64, visit_char: char,
            visit_str: &str, visit_borrowed_str: &'de str, visit_string: String,
            visit_bytes: &[u8], visit_borrowed_bytes: &'de [u8], visit_byte_buf: Vec<u8>
        );

        #[inline]
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            self.0.visit_none()
        }

        #[inline]
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.0.visit_unit()
        }

        #[inline]
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
            self.0.visit_some(d)
        }

        #[inline]
        fn visit_newtype_struct<D2: Deserializer<'de>>(
            self,
            d: D2,
        ) -> Result<Self::Value, D2::Error> {
            self.0.visit_newtype_struct(d)
        }

        #[inline]
        fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
            self.0.visit_enum(data)
        }
    };
}

/// A struct's visitor that takes an object only; the object's values are
/// read through [`KeysOnce`], so maps in them refuse repeated keys.
struct ObjectOnly<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for ObjectOnly<V> {
    type Value = V::Value;

    forward_visitor!();

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(A::Error::invalid_type(Unexpected::Seq, &self))
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(ValuesOnce(map))
    }
}

/// A map whose values are read through [`KeysOnce`].
struct ValuesOnce<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for ValuesOnce<A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(seed)
    }

    #[inline]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.0.next_value_seed(OnceSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A seed that reads its value through [`KeysOnce`].
struct OnceSeed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for OnceSeed<S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(KeysOnce(deserializer))
    }
}

/// A deserializer whose maps refuse a key written twice, in its value and
/// in the arrays, options and maps inside it. Structs and enums are
/// forwarded: a `#[dto]` type holds its own fields to the same rule.
#[doc(hidden)]
pub struct KeysOnce<D>(pub D);

/// Forwards `Deserializer` methods of a tuple wrapper to `self.0`.
macro_rules! forward_to_inner {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(visitor)
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeysOnce<D> {
    type Error = D::Error;

    forward_to_inner!(
        deserialize_bool,
        deserialize_i128,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_unit,
        deserialize_identifier,
        deserialize_ignored_any
    );

    whole_numbers!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64
    );

    /// `serde_json::Value`, and the content serde buffers for internally
    /// tagged and untagged enums, are read this way.
    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(Inside(visitor))
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_option(Inside(visitor))
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_seq(Inside(visitor))
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Inside(visitor))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Inside(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Inside(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(name, fields, visitor)
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// Reads an integer type of JSON from whatever number the input holds, so
/// that a whole number written as a float (`1.0`, `1e2`) is the integer it
/// is, as JSON Schema counts it (and JavaScript cannot tell `1.0` from
/// `1`). Text (a query, a form) keeps its own reading: `1e3` is no integer
/// there.
macro_rules! whole_numbers {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            if super::reads_json::<D::Error>() {
                self.0.deserialize_any(WholeNumber(visitor))
            } else {
                self.0.$method(visitor)
            }
        }
    )*};
}
use whole_numbers;

/// The largest magnitude up to which every whole `f64` is the integer its
/// text wrote: 2^53. A float beyond it may have been rounded on its way in.
const EXACT_FLOAT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// The integer a float stands for, if it is a whole number within
/// [`EXACT_FLOAT_INTEGERS`]: the one rule for `1.0` as an integer, used by
/// the fast path and the report alike.
pub(crate) fn whole_number(value: f64) -> Option<i64> {
    // Within ±2^53 the cast is exact.
    (value.fract() == 0.0 && value.abs() <= EXACT_FLOAT_INTEGERS).then_some(value as i64)
}

/// The visitor of an integer type: a whole float is visited as the
/// integer it is, everything else as it came.
struct WholeNumber<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for WholeNumber<V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(formatter)
    }

    forward_scalars!(
        visit_bool: bool, visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64,
        visit_i128: i128, visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64,
        visit_u128: u128, visit_f32: f32, visit_char: char,
        visit_str: &str, visit_borrowed_str: &'de str, visit_string: String,
        visit_bytes: &[u8], visit_borrowed_bytes: &'de [u8], visit_byte_buf: Vec<u8>
    );

    #[inline]
    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Self::Value, E> {
        match whole_number(value) {
            Some(whole) => match u64::try_from(whole) {
                Ok(unsigned) => self.0.visit_u64(unsigned),
                Err(_) => self.0.visit_i64(whole),
            },
            None => self.0.visit_f64(value),
        }
    }
}

/// The visitor of an option, array or map read through [`KeysOnce`]: what
/// is inside is read through it too, and a map refuses repeated keys.
struct Inside<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for Inside<V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(formatter)
    }

    forward_scalars!(
        visit_bool: bool, visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64,
        visit_i128: i128, visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64,
        visit_u128: u128, visit_f32: f32, visit_f64: f64, visit_char: char,
        visit_str: &str, visit_borrowed_str: &'de str, visit_string: String,
        visit_bytes: &[u8], visit_borrowed_bytes: &'de [u8], visit_byte_buf: Vec<u8>
    );

    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_none()
    }

    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_unit()
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.visit_some(KeysOnce(d))
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.visit_newtype_struct(KeysOnce(d))
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.0.visit_seq(ItemsOnce(seq))
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(UniqueKeys {
            map,
            seen: HashSet::new(),
        })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.0.visit_enum(data)
    }
}

/// An array whose items are read through [`KeysOnce`].
struct ItemsOnce<A>(A);

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for ItemsOnce<A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.0.next_element_seed(OnceSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A map that refuses a key it has seen.
struct UniqueKeys<A> {
    map: A,
    seen: HashSet<String>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for UniqueKeys<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let Some(key) = self.map.next_key::<String>()? else {
            return Ok(None);
        };
        if self.seen.contains(&key) {
            return Err(A::Error::custom(format_args!("duplicate key `{key}`")));
        }
        self.seen.insert(key.clone());
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    #[inline]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.map.next_value_seed(OnceSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// An externally tagged enum's visitor: a unit variant is a string, a
/// variant with data an object with exactly one property.
struct External<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for External<V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(formatter)
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
        self.0.visit_enum(name.into_deserializer())
    }

    fn visit_borrowed_str<E: de::Error>(self, name: &'de str) -> Result<Self::Value, E> {
        self.0
            .visit_enum(de::value::BorrowedStrDeserializer::new(name))
    }

    fn visit_string<E: de::Error>(self, name: String) -> Result<Self::Value, E> {
        self.0.visit_enum(name.into_deserializer())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_enum(OneProperty(map))
    }
}

/// `{ "Variant": content }` as an enum.
struct OneProperty<A>(A);

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for OneProperty<A> {
    type Error = A::Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(
        mut self,
        seed: S,
    ) -> Result<(S::Value, Self), A::Error> {
        match self.0.next_key_seed(seed)? {
            Some(variant) => Ok((variant, self)),
            None => Err(A::Error::invalid_length(0, &"an object with one property")),
        }
    }
}

impl<A> OneProperty<A> {
    /// The content has been read: no property may follow.
    fn end<'de>(mut self) -> Result<(), A::Error>
    where
        A: MapAccess<'de>,
    {
        match self.0.next_key::<IgnoredAny>()? {
            None => Ok(()),
            Some(_) => Err(A::Error::invalid_length(2, &"an object with one property")),
        }
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for OneProperty<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        Err(A::Error::invalid_type(
            Unexpected::Map,
            &"a unit variant, written as its name alone",
        ))
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(
        mut self,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        let value = self.0.next_value_seed(seed)?;
        self.end().map(|()| value)
    }

    fn tuple_variant<V: Visitor<'de>>(
        mut self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let value = self.0.next_value_seed(TupleSeed { len, visitor })?;
        self.end().map(|()| value)
    }

    fn struct_variant<V: Visitor<'de>>(
        mut self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let seed = StructSeed {
            fields,
            visitor: ObjectOnly(visitor),
        };
        let value = self.0.next_value_seed(seed)?;
        self.end().map(|()| value)
    }
}

/// A struct variant's content.
struct StructSeed<V> {
    fields: &'static [&'static str],
    visitor: V,
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for StructSeed<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        deserializer.deserialize_struct("", self.fields, self.visitor)
    }
}

/// A tuple variant's content.
struct TupleSeed<V> {
    len: usize,
    visitor: V,
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for TupleSeed<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        deserializer.deserialize_tuple(self.len, self.visitor)
    }
}

/// Deserializes a `T` from a deserializer whose maps refuse repeated keys:
/// how a body's root is read.
pub(crate) fn keys_once<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::deserialize(KeysOnce(deserializer))
}
