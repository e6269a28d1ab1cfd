//! Fields whose type has no generated decoder (a `serde_json::Value`, a
//! foreign type, a union, a generic DTO whose type arguments lack one):
//! their value's extent is found by the
//! reader, then the reference decoder reads that value alone, so such a
//! field reads exactly as it does today.
//!
//! Which way a field goes is decided at compile time by method lookup
//! (`(&Field::<T>::NEW).read(reader)`): [`ViaReadJson`] is implemented on
//! `Field<T>` for a `T: ReadJson`, [`ViaSerde`] on `&Field<T>`, which the
//! lookup reaches only when the first does not apply.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;

use super::{Read, ReadJson, Reader, Refused};
use crate::{Validate, dto::decode::reference};

/// The type of a field being read.
#[doc(hidden)]
pub struct Field<T>(PhantomData<T>);

impl<T> Field<T> {
    /// The field's type, as a value to look methods up on.
    pub const NEW: Self = Field(PhantomData);
}

/// A field read by its type's generated decoder.
#[doc(hidden)]
pub trait ViaReadJson<T> {
    /// Reads the field's value, checked.
    fn read(&self, reader: &mut Reader<'_>) -> Read<T>;
}

impl<T: ReadJson> ViaReadJson<T> for Field<T> {
    #[inline]
    fn read(&self, reader: &mut Reader<'_>) -> Read<T> {
        T::read_json(reader)
    }
}

/// A field read by serde, through the reference decoder.
#[doc(hidden)]
pub trait ViaSerde<T> {
    /// Reads the field's value, checked.
    fn read(&self, reader: &mut Reader<'_>) -> Read<T>;
}

impl<T: DeserializeOwned + Validate> ViaSerde<T> for &Field<T> {
    fn read(&self, reader: &mut Reader<'_>) -> Read<T> {
        serde_value(reader)
    }
}

/// The next value, read by the reference decoder, checked.
pub(super) fn serde_value<T: DeserializeOwned + Validate>(reader: &mut Reader<'_>) -> Read<T> {
    reader.skip_whitespace();
    let start = reader.position();
    // Skipping checks the value's grammar and depth (counted from the
    // body's root) before the reference decoder reads it alone.
    reader.skip()?;
    let value: T = reference(reader.since(start)).map_err(|_| Refused)?;
    if value.is_valid() {
        Ok(value)
    } else {
        Err(Refused)
    }
}
