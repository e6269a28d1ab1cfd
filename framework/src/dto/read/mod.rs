//! The generated decoder: `#[dto]` implements [`ReadJson`] for a type,
//! reading it from the body's bytes in one pass (no copy, no tape, no
//! `Value`, no serde visitor), each field's checks run as the field is
//! read. The checks are the ones `is_valid` runs (the same generated
//! calls), so no rule is implemented twice.
//!
//! The decoder only accepts or refuses. A body it refuses goes to the
//! reference decoder (simd-json under serde, `super::decode`), which makes
//! the report; so the fast path may refuse more than the reference (it
//! costs time, never a verdict) but must never accept what the reference
//! refuses, nor read another value: `testing::check_decoders` holds the
//! two to the same verdicts and values, in the tests and the fuzz target.

mod decimal;
mod fallback;
mod impls;
mod number;
mod parity;
mod reader;

pub use fallback::{Field, ViaReadJson, ViaSerde};
pub(crate) use parity::check_if_generated;
pub use parity::{check_decoders, check_decoders_from_seed};
pub use reader::{FieldKey, Reader};

/// Why the one pass stopped: the body is refused, and the reference
/// decoder will say why.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

/// What a read gives.
#[doc(hidden)]
pub type Read<T> = Result<T, Refused>;

/// A type's generated decoder, as its [`ReadJson::read_json`].
pub(crate) type Decoder<T> = fn(&mut Reader<'_>) -> Read<T>;

/// A [`Decoder`] of some type, found where the type is concrete
/// (`extractor/body_decoder.rs`), to be downcast where the type is named.
#[doc(hidden)]
pub type AnyDecoder = &'static (dyn std::any::Any + Send + Sync);

/// The decoder of `T` in `decoder`, if that is what it holds.
pub(crate) fn decoder_of<T: 'static>(decoder: Option<AnyDecoder>) -> Option<Decoder<T>> {
    decoder?.downcast_ref::<Decoder<T>>().copied()
}

/// A type `#[dto]` generated a decoder for (and the primitives and
/// containers the framework implements it for). A value it returns is
/// valid: `is_valid` holds for it.
#[doc(hidden)]
pub trait ReadJson: Sized {
    /// Reads one value at the reader's position, checked.
    fn read_json(reader: &mut Reader<'_>) -> Read<Self>;
}

/// A whole body as a `T` by `read` (a [`ReadJson::read_json`]): the value,
/// and only whitespace after it.
pub(crate) fn read_body<T>(body: &[u8], read: fn(&mut Reader<'_>) -> Read<T>) -> Read<T> {
    let mut reader = Reader::new(body);
    let value = read(&mut reader)?;
    reader.end()?;
    Ok(value)
}
