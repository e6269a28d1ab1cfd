//! The `default` a field's schema documents: the field's default value as
//! JSON, where its type can be serialized (and, for `#[serde(default)]`,
//! made by `Default`). Chosen at compile time by method lookup
//! (`(&DefaultOf::<T>::NEW).json(..)`): [`Serialized`] is implemented on
//! `DefaultOf<T>` for a serializable `T` ([`SerializedDefault`] for one
//! that is also `Default`), [`Undocumented`] on
//! `&DefaultOf<T>`, which the lookup reaches only when the first does not
//! apply. A generic DTO's field of its parameter's type is the case: its
//! impl has no `Serialize` bound on the parameter to serialize with, so
//! the document leaves that default out rather than the type not compile.

use std::marker::PhantomData;

use serde::Serialize;
use serde_json::Value;

/// The type of a field whose default is documented.
#[doc(hidden)]
pub struct DefaultOf<T>(PhantomData<T>);

impl<T> DefaultOf<T> {
    /// The field's type, as a value to look methods up on.
    pub const NEW: Self = DefaultOf(PhantomData);
}

/// A default the document states, from a function's value.
#[doc(hidden)]
pub trait Serialized<T> {
    /// `value()` as JSON.
    fn json(&self, value: impl FnOnce() -> T) -> Option<Value>;
}

impl<T: Serialize> Serialized<T> for DefaultOf<T> {
    fn json(&self, value: impl FnOnce() -> T) -> Option<Value> {
        serde_json::to_value(value()).ok()
    }
}

/// A default the document states, made by `Default`.
#[doc(hidden)]
pub trait SerializedDefault<T> {
    /// `T::default()` as JSON.
    fn default_json(&self) -> Option<Value>;
}

impl<T: Serialize + Default> SerializedDefault<T> for DefaultOf<T> {
    fn default_json(&self) -> Option<Value> {
        serde_json::to_value(T::default()).ok()
    }
}

/// A default the document leaves out: its type cannot be serialized (or
/// made) here.
#[doc(hidden)]
pub trait Undocumented<T> {
    /// Nothing.
    fn json(&self, value: impl FnOnce() -> T) -> Option<Value>;
    /// Nothing.
    fn default_json(&self) -> Option<Value>;
}

impl<T> Undocumented<T> for &DefaultOf<T> {
    fn json(&self, _: impl FnOnce() -> T) -> Option<Value> {
        None
    }

    fn default_json(&self) -> Option<Value> {
        None
    }
}
