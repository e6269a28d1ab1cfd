//! A serde deserializer over text values (path segments, header values):
//! numbers, booleans, unit enum variants, strings and newtypes are parsed
//! from the text; a sequence takes every value given. Header values are
//! comma-separated lists (RFC 9110 section 5.3): `a, b` and two lines `a`
//! and `b` are the same sequence, as fetch joins repeated headers.

use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, SeqAccess, Visitor, value::Error,
};

/// Deserializes one or more text values. One value deserializes as a scalar;
/// any number of values deserialize as a sequence.
pub(crate) struct TextValues<'de> {
    values: std::borrow::Cow<'de, [&'de str]>,
    /// Whether each value is a comma-separated list when read as a sequence.
    lists: bool,
}

impl<'de> TextValues<'de> {
    pub(crate) fn new(values: &'de [&'de str]) -> Self {
        TextValues {
            values: std::borrow::Cow::Borrowed(values),
            lists: false,
        }
    }

    /// Header values: a sequence splits each value at its commas.
    pub(crate) fn header(values: &'de [&'de str]) -> Self {
        TextValues {
            values: std::borrow::Cow::Borrowed(values),
            lists: true,
        }
    }

    fn one(value: &'de str) -> Self {
        TextValues {
            values: std::borrow::Cow::Owned(vec![value]),
            lists: false,
        }
    }

    fn single(&self) -> Result<&'de str, Error> {
        match *self.values {
            [one] => Ok(one),
            [] => Err(de::Error::custom("expected a value, found none")),
            _ => Err(de::Error::custom(format_args!(
                "expected one value, found {}",
                self.values.len()
            ))),
        }
    }
}

macro_rules! parse_number {
    ($($method:ident => $visit:ident, $ty:ty, $expected:literal;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            let text = self.single()?;
            match text.parse::<$ty>() {
                Ok(value) => visitor.$visit(value),
                Err(_) => Err(de::Error::custom(format_args!(
                    concat!("expected ", $expected, ", found {:?}"),
                    text
                ))),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for TextValues<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.single()?)
    }

    parse_number! {
        deserialize_i8 => visit_i8, i8, "an 8-bit integer";
        deserialize_i16 => visit_i16, i16, "a 16-bit integer";
        deserialize_i32 => visit_i32, i32, "a 32-bit integer";
        deserialize_i64 => visit_i64, i64, "a 64-bit integer";
        deserialize_i128 => visit_i128, i128, "a 128-bit integer";
        deserialize_u8 => visit_u8, u8, "an unsigned 8-bit integer";
        deserialize_u16 => visit_u16, u16, "an unsigned 16-bit integer";
        deserialize_u32 => visit_u32, u32, "an unsigned 32-bit integer";
        deserialize_u64 => visit_u64, u64, "an unsigned 64-bit integer";
        deserialize_u128 => visit_u128, u128, "an unsigned 128-bit integer";
        deserialize_f32 => visit_f32, f32, "a number";
        deserialize_f64 => visit_f64, f64, "a number";
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.single()? {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            other => Err(de::Error::custom(format_args!(
                "expected `true` or `false`, found {other:?}"
            ))),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.values.is_empty() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let values: Vec<&'de str> = if self.lists {
            list_items(&self.values).collect()
        } else {
            self.values.into_owned()
        };
        visitor.visit_seq(Values {
            rest: values.into_iter(),
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_enum(de::value::BorrowedStrDeserializer::<Error>::new(
            self.single()?,
        ))
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, Error> for TextValues<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// The items of comma-separated header values: `["a, b", "c"]` is `a`, `b`, `c`.
pub(crate) fn list_items<'a, 'de: 'a>(
    values: &'a [&'de str],
) -> impl Iterator<Item = &'de str> + 'a {
    values
        .iter()
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .filter(|value| !value.is_empty())
}

struct Values<'de> {
    rest: std::vec::IntoIter<&'de str>,
}

impl<'de> SeqAccess<'de> for Values<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.rest.next() {
            Some(value) => seed.deserialize(TextValues::one(value)).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.rest.len())
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    fn parse<T: Deserialize<'static>>(values: &'static [&'static str]) -> Result<T, Error> {
        T::deserialize(TextValues::new(values))
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Section {
        Free,
        Notice,
    }

    #[test]
    fn header_values_are_comma_separated_lists() {
        let values = Vec::<String>::deserialize(TextValues::header(&["a, b", "c"])).unwrap();
        assert_eq!(values, ["a", "b", "c"]);
        let numbers = Vec::<u8>::deserialize(TextValues::header(&["1,2"])).unwrap();
        assert_eq!(numbers, [1, 2]);
        let one = String::deserialize(TextValues::header(&["a, b"])).unwrap();
        assert_eq!(one, "a, b", "a single value keeps its commas");
        let segments = Vec::<String>::deserialize(TextValues::new(&["a, b"])).unwrap();
        assert_eq!(segments, ["a, b"], "path segments are not lists");
    }

    #[test]
    fn parses_scalars_from_text() {
        assert_eq!(parse::<u32>(&["42"]).unwrap(), 42);
        assert_eq!(parse::<i64>(&["-7"]).unwrap(), -7);
        assert_eq!(parse::<f64>(&["1.5"]).unwrap(), 1.5);
        assert!(parse::<bool>(&["true"]).unwrap());
        assert_eq!(parse::<String>(&["a b"]).unwrap(), "a b");
        assert_eq!(parse::<Section>(&["notice"]).unwrap(), Section::Notice);
        assert_eq!(parse::<Option<u8>>(&["3"]).unwrap(), Some(3));
        assert_eq!(parse::<Vec<u8>>(&["1", "2"]).unwrap(), vec![1, 2]);
    }

    #[test]
    fn explains_bad_text() {
        let err = parse::<u32>(&["-1"]).unwrap_err().to_string();
        assert_eq!(err, "expected an unsigned 32-bit integer, found \"-1\"");
        let err = parse::<Section>(&["other"]).unwrap_err().to_string();
        assert!(err.contains("unknown variant `other`"), "{err}");
        let err = parse::<bool>(&["yes"]).unwrap_err().to_string();
        assert!(err.contains("`true` or `false`"), "{err}");
        assert!(parse::<u8>(&["1", "2"]).is_err());
        assert!(parse::<u8>(&[]).is_err());
    }
}
