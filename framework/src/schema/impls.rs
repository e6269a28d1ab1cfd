//! Schemas of the types the framework knows.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque},
    sync::Arc,
};

use super::{
    ArraySchema, Bounds, F32_RANGE, Format, IntegerFormat, IntegerSchema, NumberFormat,
    NumberSchema, Registry, Schema, StringSchema, ToSchema,
};

macro_rules! integer {
    ($($ty:ty => $format:ident),*) => {$(
        impl ToSchema for $ty {
            fn schema(_: &mut Registry) -> Schema {
                Schema::Integer(IntegerSchema { format: IntegerFormat::$format, bounds: Bounds::default() })
            }
        }
    )*};
}

integer!(i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64, isize => Int64,
         u8 => Uint8, u16 => Uint16, u32 => Uint32, u64 => Uint64, usize => Uint64);

/// An `f32` holds numbers within its range only (`1e39` would be
/// infinity, which JSON cannot write): the range is part of its schema.
impl ToSchema for f32 {
    fn schema(_: &mut Registry) -> Schema {
        Schema::Number(NumberSchema {
            format: NumberFormat::Float,
            bounds: Bounds {
                minimum: Some(F32_RANGE.0),
                maximum: Some(F32_RANGE.1),
                ..Bounds::default()
            },
        })
    }
}

impl ToSchema for f64 {
    fn schema(_: &mut Registry) -> Schema {
        Schema::Number(NumberSchema {
            format: NumberFormat::Double,
            bounds: Bounds::default(),
        })
    }
}

impl ToSchema for bool {
    fn schema(_: &mut Registry) -> Schema {
        Schema::Boolean
    }
}

impl ToSchema for () {
    fn schema(_: &mut Registry) -> Schema {
        Schema::Null
    }
}

fn string(format: Option<Format>) -> Schema {
    Schema::String(StringSchema {
        format,
        ..StringSchema::default()
    })
}

impl ToSchema for String {
    fn schema(_: &mut Registry) -> Schema {
        string(None)
    }
}

impl ToSchema for str {
    fn schema(_: &mut Registry) -> Schema {
        string(None)
    }
}

impl ToSchema for char {
    fn schema(_: &mut Registry) -> Schema {
        Schema::String(StringSchema {
            min_length: Some(1),
            max_length: Some(1),
            ..StringSchema::default()
        })
    }
}

impl ToSchema for uuid::Uuid {
    fn schema(_: &mut Registry) -> Schema {
        string(Some(Format::Uuid))
    }
}

impl<Tz: chrono::TimeZone> ToSchema for chrono::DateTime<Tz> {
    fn schema(_: &mut Registry) -> Schema {
        string(Some(Format::DateTime))
    }
}

impl ToSchema for chrono::NaiveDate {
    fn schema(_: &mut Registry) -> Schema {
        string(Some(Format::Date))
    }
}

impl ToSchema for serde_json::Value {
    fn schema(_: &mut Registry) -> Schema {
        Schema::Any
    }
}

impl<T: ToSchema> ToSchema for Option<T> {
    fn schema(registry: &mut Registry) -> Schema {
        match T::schema(registry) {
            nullable @ Schema::Nullable(_) => nullable,
            inner => Schema::Nullable(Box::new(inner)),
        }
    }
}

fn array(items: Schema, unique_items: bool) -> Schema {
    Schema::Array(ArraySchema {
        items: Box::new(items),
        min_items: None,
        max_items: None,
        unique_items,
    })
}

impl<T: ToSchema> ToSchema for Vec<T> {
    fn schema(registry: &mut Registry) -> Schema {
        array(T::schema(registry), false)
    }
}

impl<T: ToSchema> ToSchema for VecDeque<T> {
    fn schema(registry: &mut Registry) -> Schema {
        array(T::schema(registry), false)
    }
}

impl<T: ToSchema> ToSchema for [T] {
    fn schema(registry: &mut Registry) -> Schema {
        array(T::schema(registry), false)
    }
}

impl<T: ToSchema, S> ToSchema for HashSet<T, S> {
    fn schema(registry: &mut Registry) -> Schema {
        array(T::schema(registry), true)
    }
}

impl<T: ToSchema> ToSchema for BTreeSet<T> {
    fn schema(registry: &mut Registry) -> Schema {
        array(T::schema(registry), true)
    }
}

impl<V: ToSchema, S> ToSchema for HashMap<String, V, S> {
    fn schema(registry: &mut Registry) -> Schema {
        Schema::Map(Box::new(V::schema(registry)))
    }
}

impl<V: ToSchema> ToSchema for BTreeMap<String, V> {
    fn schema(registry: &mut Registry) -> Schema {
        Schema::Map(Box::new(V::schema(registry)))
    }
}

impl<T: ToSchema + ?Sized> ToSchema for Box<T> {
    fn schema(registry: &mut Registry) -> Schema {
        T::schema(registry)
    }
}

impl<T: ToSchema + ?Sized> ToSchema for Arc<T> {
    fn schema(registry: &mut Registry) -> Schema {
        T::schema(registry)
    }
}

impl<T: ToSchema + ?Sized> ToSchema for &T {
    fn schema(registry: &mut Registry) -> Schema {
        T::schema(registry)
    }
}
