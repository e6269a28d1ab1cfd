//! Procedural macros of `framework`. Use them through `framework::prelude`:
//! `#[controller("base/path")]` on an `impl` block, and
//! `#[typed_route::get(":id")]` (or `post`, `put`, `patch`, `delete`) on its
//! handler methods. The generated code calls into `framework::__private`.

use proc_macro::TokenStream;

mod controller;
mod converted;
mod docs;
mod dto;
mod handler;
mod path;
mod response;
mod route_attr;
mod versions;

/// Marks an `impl` block as a controller: `#[controller("bbs/articles/:section")]`.
///
/// Every method with a `#[typed_route::*]` attribute becomes a route under
/// the base path; other methods are left alone. See `framework`'s docs.
#[proc_macro_attribute]
pub fn controller(attr: TokenStream, item: TokenStream) -> TokenStream {
    controller::expand(attr.into(), item.into()).into()
}

/// Declares a DTO: `#[dto]` or `#[dto(strict)]` on a struct or enum. See
/// `framework::dto`.
#[proc_macro_attribute]
pub fn dto(attr: TokenStream, item: TokenStream) -> TokenStream {
    dto::expand(attr.into(), item.into()).into()
}

/// Derives `framework::IntoResponse` for an enum of answers:
/// `#[status(202)]` on a variant sets its status; doc comments describe it.
#[proc_macro_derive(IntoResponse, attributes(status))]
pub fn into_response(item: TokenStream) -> TokenStream {
    response::expand(item.into()).into()
}

macro_rules! route_attribute {
    ($($name:ident),*) => {$(
        #[doc = concat!(
            "`#[typed_route::", stringify!($name), "(\"path\")]`: a `", stringify!($name),
            "` route, on a method inside a `#[controller]` block."
        )]
        #[proc_macro_attribute]
        pub fn $name(_attr: TokenStream, item: TokenStream) -> TokenStream {
            route_attr::outside_controller(stringify!($name), item.into()).into()
        }
    )*};
}

route_attribute!(get, post, put, patch, delete);

/// `#[typed_route::converted(versions = .."2.0.0", answer = v1::Article)]`:
/// the route of the handler it is on, served to older API versions through
/// `From` conversions, on a method inside a `#[controller]` block.
#[proc_macro_attribute]
pub fn converted(_attr: TokenStream, item: TokenStream) -> TokenStream {
    route_attr::outside_controller("converted", item.into()).into()
}
