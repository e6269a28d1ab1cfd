//! Reading a handler's arguments and answering with what it returns: the
//! request-time code every route shares, which the code `#[controller]`
//! generates calls with the route's argument types, so that a route
//! expands to its data and one short future, not to its own copy of this
//! logic. Everything is generic over the argument and answer types: no
//! dynamic dispatch and no allocation beyond what the extractors do.
//!
//! Path parameters and head extractors are read first, in argument order,
//! with every validation problem collected ([`Refusals`]); the body last. A
//! refusal that is not a validation problem (a guard's `401`, a `413`)
//! ends the request: the arguments after it are not read.

use std::future::Future;

use futures_util::future::OptionFuture;
use serde::de::DeserializeOwned;

use crate::{
    body::Response,
    describe::RouteMeta,
    dto::Validate,
    dto::read::AnyDecoder,
    error::ApiError,
    extractor::{FromRequest, FromRequestParts, path_param, path_param_refused},
    refusals::Refusals,
    request::RequestContext,
    response::{IntoResponse, status},
    schema::{Tag, ToSchema},
};

/// The arguments of one request to a route, as they are read. Used by the
/// code `#[controller]` generates:
///
/// ```text
/// let read = (param::<u32>(&mut x, 0, "id"), body::<TypedBody<Item>, _>(&mut x).await);
/// reply(&META, call(read, |(id, body)| this.update(id, body)).await, &mut x)
/// ```
#[doc(hidden)]
#[derive(Debug)]
pub struct Arguments {
    cx: RequestContext,
    /// What was refused, once something is: boxed, so that a request
    /// nothing is refused for carries one word for it, not the refusals,
    /// through every move from the router to the route's future.
    refused: Option<Box<Refused>>,
}

/// What was refused of a request's arguments.
#[derive(Debug, Default)]
struct Refused {
    refusals: Refusals,
    /// The refusal that ends the request, once there is one.
    stop: Option<ApiError>,
}

impl Arguments {
    /// Nothing read yet from the request `cx`.
    pub(crate) fn new(cx: RequestContext) -> Self {
        Arguments { cx, refused: None }
    }

    /// The request, for an endpoint that reads it itself.
    #[cfg(feature = "openapi")]
    pub(crate) fn context(&self) -> &RequestContext {
        &self.cx
    }

    /// The request, for an endpoint that reads its body itself.
    #[cfg(feature = "mcp")]
    pub(crate) fn into_context(self) -> RequestContext {
        self.cx
    }

    /// What was refused so far.
    fn refused(&mut self) -> &mut Refused {
        self.refused.get_or_insert_with(Box::default)
    }

    /// Keeps the value, or records why there is none.
    fn keep<T>(&mut self, result: Result<T, ApiError>) -> Option<T> {
        let err = match result {
            Ok(value) => return Some(value),
            Err(err) => err,
        };
        let refused = self.refused();
        if let Err(stop) = refused.refusals.keep(Err::<T, _>(err)) {
            refused.stop = Some(stop);
        }
        None
    }

    /// Whether a refusal ended the request: nothing more is read.
    fn stopped(&self) -> bool {
        self.refused
            .as_ref()
            .is_some_and(|refused| refused.stop.is_some())
    }
}

// Free functions rather than methods, so that a bound a handler's argument
// type does not meet is reported at the type as the handler writes it
// (`param::<T>(..)`), not at a method call.

/// The `index`-th path parameter, named `name`.
#[doc(hidden)]
pub fn param<T: DeserializeOwned + ToSchema + Validate + 'static>(
    arguments: &mut Arguments,
    index: usize,
    name: &'static str,
) -> Option<T> {
    if arguments.stopped() {
        return None;
    }
    let result = path_param::<T>(&arguments.cx, index, name);
    arguments.keep(result)
}

/// The `index`-th path parameter, named `name`, which must pass `check`
/// (its `#[tags]`, which `tags` describes for the refusal).
#[doc(hidden)]
pub fn checked_param<T: DeserializeOwned + ToSchema + Validate + 'static>(
    arguments: &mut Arguments,
    index: usize,
    name: &'static str,
    tags: &[Tag],
    check: impl FnOnce(&T) -> bool,
) -> Option<T> {
    let value = param::<T>(arguments, index, name)?;
    if check(&value) {
        return Some(value);
    }
    let refusal = path_param_refused::<T>(&arguments.cx, index, name, tags);
    arguments.refused().refusals.refuse(refusal);
    None
}

/// An argument read from the request's head.
#[doc(hidden)]
pub async fn part<T: FromRequestParts>(arguments: &mut Arguments) -> Option<T> {
    if arguments.stopped() {
        return None;
    }
    let result = T::from_request_parts(&mut arguments.cx).await;
    arguments.keep(result)
}

/// The last extractor argument (the body, or one read from the head), with
/// the generated decoder the route found for its type, if any.
#[doc(hidden)]
pub async fn body<T: FromRequest<M>, M>(
    arguments: &mut Arguments,
    decoder: Option<AnyDecoder>,
) -> Option<T> {
    if arguments.stopped() {
        return None;
    }
    arguments.cx.set_json_decoder(decoder);
    let result = T::from_request(&mut arguments.cx).await;
    arguments.keep(result)
}

/// The handler's future, called with `args` (what was read, in the order
/// read) if every one was read; nothing to await otherwise. A plain
/// function and a plain future: awaited in the route's own future, so a
/// route compiles to that one state machine.
#[doc(hidden)]
pub fn call<A, F, Fut>(args: A, call: F) -> OptionFuture<Fut>
where
    A: Complete,
    F: FnOnce(A::Values) -> Fut,
    Fut: Future,
{
    OptionFuture::from(args.complete().map(call))
}

/// The answer of a route whose handler returned `output`: with the
/// route's status.
#[doc(hidden)]
pub fn answer<R: IntoResponse>(meta: &'static RouteMeta, output: R) -> Response {
    output.into_response(status(meta.status))
}

/// The answer: what the handler returned (`output`), with the route's
/// status; else the refusal that ended the request, or the `400` listing
/// what was refused.
#[doc(hidden)]
pub fn reply<R: IntoResponse>(
    meta: &'static RouteMeta,
    output: Option<R>,
    arguments: &mut Arguments,
) -> Response {
    if let Some(output) = output {
        return answer(meta, output);
    }
    match arguments.refused.take().map(|refused| *refused) {
        Some(Refused {
            stop: Some(stop), ..
        }) => stop.into_response(),
        Some(Refused { refusals, .. }) => refusals.into_response(),
        // An argument is missing only when it was refused.
        None => ApiError::internal("an argument of the route is missing").into_response(),
    }
}

/// What was read of a handler's arguments: `Option<T>` for one argument,
/// a tuple of them (nested for handlers of more than 12 arguments) for
/// all. Complete when every one was read.
#[doc(hidden)]
pub trait Complete {
    /// The arguments, when all were read.
    type Values;

    /// The arguments, if every one was read.
    fn complete(self) -> Option<Self::Values>;
}

impl<T> Complete for Option<T> {
    type Values = T;

    fn complete(self) -> Option<T> {
        self
    }
}

macro_rules! complete_tuple {
    ($($name:ident),*) => {
        impl<$($name: Complete),*> Complete for ($($name,)*) {
            type Values = ($($name::Values,)*);

            #[allow(non_snake_case)]
            fn complete(self) -> Option<Self::Values> {
                let ($($name,)*) = self;
                Some(($($name.complete()?,)*))
            }
        }
    };
}

complete_tuple!();
complete_tuple!(A);
complete_tuple!(A, B);
complete_tuple!(A, B, C);
complete_tuple!(A, B, C, D);
complete_tuple!(A, B, C, D, E);
complete_tuple!(A, B, C, D, E, F);
complete_tuple!(A, B, C, D, E, F, G);
complete_tuple!(A, B, C, D, E, F, G, H);
complete_tuple!(A, B, C, D, E, F, G, H, I);
complete_tuple!(A, B, C, D, E, F, G, H, I, J);
complete_tuple!(A, B, C, D, E, F, G, H, I, J, K);
complete_tuple!(A, B, C, D, E, F, G, H, I, J, K, L);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_when_every_argument_was_read() {
        assert_eq!(().complete(), Some(()));
        assert_eq!((Some(1),).complete(), Some((1,)));
        assert_eq!((Some(1), Some("a")).complete(), Some((1, "a")));
        assert_eq!((Some(1), None::<u8>).complete(), None);
        let nested = ((Some(1), Some(2)), (Some(3),));
        assert_eq!(nested.complete(), Some(((1, 2), (3,))));
        assert_eq!(((Some(1), None::<u8>), (Some(3),)).complete(), None);
    }
}
