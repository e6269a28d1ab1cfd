//! The run-time half of a route: the function that serves it
//! ([`Route`]) and the controllers that own them ([`Controller`]). What a
//! route is ([`RouteMeta`]) lives in `describe/route.rs`.

use std::{fmt, future::Future, pin::Pin, sync::Arc};

use crate::{arguments::Arguments, body::Response, describe::RouteMeta};

/// A boxed, sendable future.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// The bytes of a route's future kept in the request's own future, which
/// hyper keeps for the connection: a future this small (a handler without
/// inputs that awaits little) costs no allocation per request.
const ROUTE_FUTURE_INLINE: usize = 64;

/// A route's future, as the function `#[controller]` generates for it
/// returns it: kept inline when it is at most [`ROUTE_FUTURE_INLINE`]
/// bytes, boxed otherwise (`RouteFuture::from_or_box`). Named by
/// generated code.
#[doc(hidden)]
pub type RouteFuture = stackfuture::StackFuture<'static, Response, ROUTE_FUTURE_INLINE>;

/// The function `#[controller]` generates for each route: reads the
/// handler's arguments from the request and answers.
pub(crate) type HandlerFn<C> = fn(Arc<C>, Arguments) -> RouteFuture;

/// The function `#[controller]` generates for a route whose handler takes
/// no inputs: it answers without the request.
pub(crate) type AnswerFn<C> = fn(Arc<C>) -> RouteFuture;

/// How a route is served: from the request's arguments, or without the
/// request (which the server then lets go of before the handler runs, and
/// builds no arguments for).
pub(crate) enum Handler<C> {
    Reading(HandlerFn<C>),
    Ignoring(AnswerFn<C>),
}

// Not derived: a function pointer is `Copy` whatever `C` is.
impl<C> Clone for Handler<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for Handler<C> {}

/// One route of a controller: its metadata and the function that serves it.
///
/// Built by the code `#[controller]` generates; users read it through
/// [`Controller::routes`] and [`Route::meta`].
pub struct Route<C> {
    meta: &'static RouteMeta,
    handler: Handler<C>,
}

impl<C> Route<C> {
    #[doc(hidden)]
    pub fn new(meta: &'static RouteMeta, handler: HandlerFn<C>) -> Self {
        Route {
            meta,
            handler: Handler::Reading(handler),
        }
    }

    /// A route whose handler reads nothing of the request.
    #[doc(hidden)]
    pub fn without_request(meta: &'static RouteMeta, handler: AnswerFn<C>) -> Self {
        Route {
            meta,
            handler: Handler::Ignoring(handler),
        }
    }

    /// The route's metadata.
    pub fn meta(&self) -> &'static RouteMeta {
        self.meta
    }

    pub(crate) fn handler(&self) -> Handler<C> {
        self.handler
    }
}

impl<C> fmt::Debug for Route<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Route").field("meta", self.meta).finish()
    }
}

/// A type whose `impl` block is marked `#[controller("base/path")]`.
///
/// The controller value is the handlers' shared state (a database pool, a
/// client, configuration), as NestJS injects dependencies into controllers:
/// handlers take `&self`. Never implement this by hand; the macro does.
///
/// ```
/// use framework::prelude::*;
///
/// struct Health { version: &'static str }
///
/// #[controller("health")]
/// impl Health {
///     #[typed_route::get("")]
///     async fn version(&self) -> String { self.version.to_owned() }
/// }
///
/// let app = App::builder().controller(Health { version: "1.0" }).build().unwrap();
/// assert_eq!(app.routes().len(), 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a controller",
    label = "mark its `impl` block with `#[controller(\"base/path\")]`"
)]
pub trait Controller: Send + Sync + Sized + 'static {
    /// The routes of this controller, one per `#[typed_route::*]` method.
    fn routes() -> Vec<Route<Self>>;
}
