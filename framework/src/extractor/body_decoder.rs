//! The generated decoder of a body's type, found where the route names the
//! type. A generic `#[dto]` (`Page<T>`) has a decoder only for arguments
//! that have one (`impl<T: ReadJson ..> ReadJson for Page<T>`), which its
//! generic `Validate` impl cannot name; the route's code, where the type is
//! concrete (`TypedBody<Page<Article>>`), looks it up by method resolution
//! (as a field's decoder is chosen, `dto/read/fallback.rs`) and hands it to
//! the extractor through the request (`RequestContext::json_decoder`).
//! Containers and primitives at the top of a body (`Vec<Article>`, `u32`)
//! are found the same way.

use std::marker::PhantomData;

use super::TypedBody;
use crate::{
    dto::read::{AnyDecoder, Decoder, ReadJson},
    error::ApiError,
};

/// A route's body extractor type, as a value to look methods up on.
#[doc(hidden)]
pub struct BodyDecoder<P>(PhantomData<fn() -> P>);

impl<P> BodyDecoder<P> {
    /// The extractor's type.
    pub const NEW: Self = BodyDecoder(PhantomData);
}

/// A JSON body whose type has a generated decoder: the decoder.
#[doc(hidden)]
pub trait WithDecoder {
    fn decoder(&self) -> Option<AnyDecoder>;
}

impl<T: ReadJson + 'static> WithDecoder for BodyDecoder<TypedBody<T>> {
    #[inline]
    fn decoder(&self) -> Option<AnyDecoder> {
        Some(&(T::read_json as Decoder<T>))
    }
}

/// The same, for a handler that answers a refused body its own way.
impl<T: ReadJson + 'static> WithDecoder for BodyDecoder<Result<TypedBody<T>, ApiError>> {
    #[inline]
    fn decoder(&self) -> Option<AnyDecoder> {
        Some(&(T::read_json as Decoder<T>))
    }
}

/// Any other body extractor: none.
#[doc(hidden)]
pub trait WithoutDecoder {
    fn decoder(&self) -> Option<AnyDecoder>;
}

impl<P> WithoutDecoder for &BodyDecoder<P> {
    #[inline]
    fn decoder(&self) -> Option<AnyDecoder> {
        None
    }
}
