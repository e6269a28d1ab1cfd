//! [`ReadJson`] for the primitives and containers, as the reference
//! decoder reads them (simd-json under serde, through the shape adapters).

use std::{
    collections::{BTreeMap, HashMap},
    hash::BuildHasher,
};

use super::{Read, ReadJson, Reader, Refused, number::Number};
use crate::dto::shape::whole_number;

impl ReadJson for bool {
    #[inline]
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        match reader.peek()? {
            b't' => reader.literal(b"true").map(|()| true),
            b'f' => reader.literal(b"false").map(|()| false),
            _ => Err(Refused),
        }
    }
}

impl ReadJson for String {
    #[inline]
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        reader.string().map(std::borrow::Cow::into_owned)
    }
}

impl ReadJson for f64 {
    #[inline]
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        let value = reader.float_number()?;
        if value.is_finite() {
            Ok(value)
        } else {
            Err(Refused)
        }
    }
}

impl ReadJson for f32 {
    /// Rounded from the `f64` the number reads as; beyond `f32`'s range it
    /// is infinite, which `is_valid` refuses.
    #[inline]
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        let value = reader.float_number()? as f32;
        if value.is_finite() {
            Ok(value)
        } else {
            Err(Refused)
        }
    }
}

/// Integers: exact, in their type's range; a whole number written as a
/// float (`1.0`, `1e2`) is the integer it is (`shape::whole_number`, the
/// one rule for it).
macro_rules! integers {
    ($($ty:ty),*) => {$(
        impl ReadJson for $ty {
            #[inline]
            fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
                match reader.number()? {
                    Number::Unsigned(value) => <$ty>::try_from(value).map_err(|_| Refused),
                    Number::Negative(value) => <$ty>::try_from(value).map_err(|_| Refused),
                    Number::Float(value) => {
                        let whole = whole_number(value).ok_or(Refused)?;
                        <$ty>::try_from(whole).map_err(|_| Refused)
                    }
                }
            }
        }
    )*};
}

integers!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl<T: ReadJson> ReadJson for Option<T> {
    #[inline]
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        if reader.null()? {
            Ok(None)
        } else {
            T::read_json(reader).map(Some)
        }
    }
}

impl<T: ReadJson> ReadJson for Box<T> {
    #[inline]
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        T::read_json(reader).map(Box::new)
    }
}

/// The items in order; after the first, the vector reserves room for as
/// many as the rest of the body likely holds ([`Reader::capacity_for`]).
impl<T: ReadJson> ReadJson for Vec<T> {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        let mut items = Vec::new();
        reader.array(|reader| {
            let start = reader.position();
            let item = T::read_json(reader)?;
            if items.capacity() == 0 {
                let more = reader.capacity_for(reader.position() - start, size_of::<T>());
                items.reserve_exact(more + 1);
            }
            items.push(item);
            Ok(())
        })?;
        Ok(items)
    }
}

/// A map's members; a key written twice is refused (the shape adapters'
/// rule for every map).
fn members<V: ReadJson>(
    reader: &mut Reader<'_>,
    mut insert: impl FnMut(String, V) -> bool,
) -> Read<()> {
    reader.object(|reader, key| {
        let value = V::read_json(reader)?;
        if insert(key.into_owned(), value) {
            Ok(())
        } else {
            Err(Refused)
        }
    })
}

impl<V: ReadJson> ReadJson for BTreeMap<String, V> {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        let mut map = BTreeMap::new();
        members(reader, |key, value| map.insert(key, value).is_none())?;
        Ok(map)
    }
}

impl<V: ReadJson, S: BuildHasher + Default> ReadJson for HashMap<String, V, S> {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        let mut map = HashMap::default();
        members(reader, |key, value| map.insert(key, value).is_none())?;
        Ok(map)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ReadJson, read_body};

    #[test]
    fn the_vector_of_an_array_of_like_items_is_allocated_once() {
        let body = format!(
            "[{}]",
            (1000..1100)
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        let items = read_body(body.as_bytes(), Vec::<u32>::read_json).unwrap();
        assert_eq!(items.len(), 100);
        assert_eq!(items.capacity(), 100);
    }

    /// `[[1],[2],..]`: each inner array sees the whole rest of the body,
    /// which would hold a million of its items; the first reserves what
    /// the body's length allows, the others nothing ahead.
    #[test]
    fn what_arrays_reserve_ahead_adds_up_to_at_most_the_bodys_length() {
        let count = 100_000;
        let body = format!(
            "[{}]",
            (0..count)
                .map(|n| format!("[{}]", n % 10))
                .collect::<Vec<_>>()
                .join(",")
        );
        let arrays = read_body(body.as_bytes(), Vec::<Vec<u64>>::read_json).unwrap();
        assert_eq!(arrays.len(), count);
        let reserved: usize = arrays.iter().map(|items| items.capacity() * 8).sum();
        assert!(
            reserved <= body.len() + 8 * count,
            "{reserved} bytes reserved for a body of {}",
            body.len()
        );
    }
}
