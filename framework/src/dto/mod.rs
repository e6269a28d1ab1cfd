//! DTOs: types declared once with `#[dto]`, which gives them serde, a
//! schema, compile-time generated constraint checks and random values.

mod broken;
#[doc(hidden)]
pub mod check;
mod decode;
mod fuzz;
mod presence;
mod property;
mod random;
#[doc(hidden)]
pub mod read;
mod report;
mod shape;
mod write_json;

pub use broken::{Broken, broken_variants};
pub use decode::from_json;
pub use fuzz::{fuzz_json, fuzz_query};
pub use property::{check_broken_values, check_first_draw, check_random_value};
pub use random::{Draw, Random, draw_value, random_value};
pub use read::{check_decoders, check_decoders_from_seed};
pub use write_json::{JsonError, WriteJson};
#[doc(hidden)]
pub use write_json::{write_null, write_serde, write_str};

pub use decode::MAX_JSON_DEPTH;
pub(crate) use decode::invalid;
#[doc(hidden)]
pub use decode::run_check;
#[cfg(feature = "ws")]
pub(crate) use decode::{JsonInput, decode_json_input};
pub(crate) use decode::{decode_json, decode_text_map};
#[doc(hidden)]
pub use presence::{nullable, present};
pub(crate) use report::{Report, push_key};

/// The source of the shape adapters (`shape.rs`), which sdk-gen writes
/// into the Rust SDK so that it decodes answers by the server's rules.
#[doc(hidden)]
pub const SHAPE_RS: &str = include_str!("shape.rs");

/// The source of the presence rules (`presence.rs`: absent, `null`), which
/// sdk-gen writes into the Rust SDK beside `shape.rs`.
#[doc(hidden)]
pub const PRESENCE_RS: &str = include_str!("presence.rs");

/// Whether a deserializer whose error type is `E` reads JSON (simd-json's
/// on the fast path, serde_json's for a user check): `shape.rs` reads a
/// whole float as an integer there only. Names of types known at compile
/// time: the comparison folds away.
#[inline]
fn reads_json<E>() -> bool {
    let name = std::any::type_name::<E>();
    name == std::any::type_name::<simd_json::Error>()
        || name == std::any::type_name::<serde_json::Error>()
}

use std::{
    collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque},
    sync::Arc,
};

use serde::{Serialize, de::DeserializeOwned};

use crate::schema::ToSchema;

/// A value whose constraints can be checked: `#[dto]` generates the check
/// from the declaration's tags, at compile time.
///
/// `is_valid` is the fast path: it allocates nothing and stops at the first
/// broken constraint. The list of every error is made, only for refused
/// inputs, from the type's schema.
///
/// ```
/// use framework::Validate;
/// assert!(vec![1u32, 2].is_valid());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a DTO: declare it with `#[dto]`",
    label = "declare it with `#[dto]`",
    note = "`#[dto]` on a struct or enum gives it serde, a schema and validation from one declaration"
)]
pub trait Validate {
    /// Whether every constraint holds.
    fn is_valid(&self) -> bool;

    /// The decoder `#[dto]` generated for this type, reading a body in one
    /// pass and checking as it goes; `None` (the default) where it
    /// generated none: the body is read by serde.
    #[doc(hidden)]
    #[inline]
    fn json_decoder() -> Option<fn(&mut read::Reader<'_>) -> read::Read<Self>>
    where
        Self: Sized,
    {
        None
    }
}

/// Everything an input or output type needs: serde both ways, a schema and
/// validation. Implemented for every type that has them, which `#[dto]`
/// gives.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// struct Rename {
///     #[tags(min_length = 3, max_length = 50)]
///     title: String,
/// }
///
/// fn takes<T: Dto>() {}
/// takes::<Rename>();
/// takes::<Vec<Option<u32>>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a DTO",
    label = "declare it with `#[dto]`",
    note = "`#[dto]` on a struct or enum gives it serde, a schema and validation from one declaration"
)]
// `Validate` comes first: the compiler reports a type's missing traits in
// the order of these bounds, and `Validate`'s message is the one that says
// to write `#[dto]` (serde's would suggest deriving `Serialize`).
pub trait Dto:
    Validate + ToSchema + WriteJson + Serialize + DeserializeOwned + Send + 'static
{
}

impl<T: Validate + ToSchema + WriteJson + Serialize + DeserializeOwned + Send + 'static> Dto for T {}

macro_rules! always_valid {
    ($($ty:ty),*) => {$(
        impl Validate for $ty {
            #[inline]
            fn is_valid(&self) -> bool {
                true
            }
        }
    )*};
}

always_valid!(
    bool,
    i8,
    i16,
    i32,
    i64,
    isize,
    u8,
    u16,
    u32,
    u64,
    usize,
    f64,
    char,
    (),
    String,
    str,
    uuid::Uuid,
    chrono::NaiveDate,
    serde_json::Value
);

/// An `f32` read from a number beyond its range is infinite: refused, as
/// its schema's `minimum` and `maximum` say.
impl Validate for f32 {
    #[inline]
    fn is_valid(&self) -> bool {
        self.is_finite()
    }
}

impl<Tz: chrono::TimeZone> Validate for chrono::DateTime<Tz> {
    #[inline]
    fn is_valid(&self) -> bool {
        true
    }
}

impl<T: Validate> Validate for Option<T> {
    #[inline]
    fn is_valid(&self) -> bool {
        self.as_ref().is_none_or(T::is_valid)
    }
}

impl<T: Validate> Validate for Vec<T> {
    #[inline]
    fn is_valid(&self) -> bool {
        self.iter().all(T::is_valid)
    }
}

impl<T: Validate> Validate for VecDeque<T> {
    fn is_valid(&self) -> bool {
        self.iter().all(T::is_valid)
    }
}

impl<T: Validate> Validate for [T] {
    fn is_valid(&self) -> bool {
        self.iter().all(T::is_valid)
    }
}

impl<T: Validate, S> Validate for HashSet<T, S> {
    fn is_valid(&self) -> bool {
        self.iter().all(T::is_valid)
    }
}

impl<T: Validate> Validate for BTreeSet<T> {
    fn is_valid(&self) -> bool {
        self.iter().all(T::is_valid)
    }
}

impl<V: Validate, S> Validate for HashMap<String, V, S> {
    fn is_valid(&self) -> bool {
        self.values().all(V::is_valid)
    }
}

impl<V: Validate> Validate for BTreeMap<String, V> {
    fn is_valid(&self) -> bool {
        self.values().all(V::is_valid)
    }
}

impl<T: Validate + ?Sized> Validate for Box<T> {
    #[inline]
    fn is_valid(&self) -> bool {
        T::is_valid(self)
    }
}

impl<T: Validate + ?Sized> Validate for Arc<T> {
    fn is_valid(&self) -> bool {
        T::is_valid(self)
    }
}

impl<T: Validate + ?Sized> Validate for &T {
    fn is_valid(&self) -> bool {
        T::is_valid(self)
    }
}
