//! `#[controller("base/path")]` on an `impl` block.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{ImplItem, ImplItemFn, ItemImpl, LitStr, Type};

use crate::{handler, path, route_attr};

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let base = match base_path(attr) {
        Ok(base) => base,
        Err(error) => {
            let error = error.to_compile_error();
            return quote! { #error #item };
        }
    };
    let mut imp: ItemImpl = match syn::parse2(item.clone()) {
        Ok(imp) => imp,
        Err(_) => {
            let error = syn::Error::new(
                proc_macro2::Span::call_site(),
                "`#[controller]` goes on an `impl` block: `#[controller(\"articles\")] impl ArticlesController { .. }`",
            )
            .to_compile_error();
            return quote! { #error #item };
        }
    };
    let mut errors = impl_errors(&imp);
    let Some(controller) = controller_name(&imp.self_ty) else {
        let error =
            syn::Error::new_spanned(&imp.self_ty, "a controller is a named struct or enum type")
                .to_compile_error();
        return quote! { #error #imp };
    };
    if let Err(message) = path::join(&base.value(), "") {
        errors.push(path::error(base.span(), message));
    }
    let mut routes = Vec::new();
    for item in &mut imp.items {
        let ImplItem::Fn(method) = item else { continue };
        let meta_name = quote::format_ident!("__ROUTE{}", routes.len());
        match route(method, &base, &controller, &meta_name) {
            Ok(Some(tokens)) => routes.push(tokens),
            Ok(None) => {}
            Err(err) => errors.push(err),
        }
    }
    let errors = errors.iter().map(syn::Error::to_compile_error);
    let self_ty = &imp.self_ty;
    let metas = routes.iter().map(|route| &route.meta);
    let routes = routes.iter().map(|route| &route.route);
    quote! {
        #imp
        #(#errors)*
        impl ::framework::Controller for #self_ty {
            fn routes() -> ::framework::__private::Vec<::framework::__private::Route<Self>> {
                use ::framework::__private as __p;
                #(#metas)*
                __p::Vec::from([#(#routes),*])
            }
        }
    }
}

/// The controller's base path, the attribute's one string.
fn base_path(attr: TokenStream) -> syn::Result<LitStr> {
    syn::parse2(attr.clone()).map_err(|_| {
        let message = "write the controller's base path as a string: `#[controller(\"bbs/articles/:section\")]`, or `#[controller(\"\")]` for the root";
        if attr.is_empty() {
            syn::Error::new(proc_macro2::Span::call_site(), message)
        } else {
            syn::Error::new_spanned(attr, message)
        }
    })
}

/// What the `impl` block may not be: a trait impl, or generic.
fn impl_errors(imp: &ItemImpl) -> Vec<syn::Error> {
    let mut errors = Vec::new();
    if let Some((_, trait_path, _)) = &imp.trait_ {
        errors.push(syn::Error::new_spanned(
            trait_path,
            "`#[controller]` goes on the type's own `impl` block, not on a trait impl",
        ));
    }
    if !imp.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &imp.generics,
            "generic controllers are not supported; make a concrete controller type that holds the generic part",
        ));
    }
    errors
}

/// The controller's name: the last segment of its type's path.
fn controller_name(self_ty: &Type) -> Option<String> {
    match self_ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .map(|segment| segment.ident.to_string()),
        _ => None,
    }
}

/// The route of one method, its route attribute taken off; `None` for a
/// method that is not a handler.
fn route(
    method: &mut ImplItemFn,
    base: &LitStr,
    controller: &str,
    meta_name: &syn::Ident,
) -> syn::Result<Option<handler::RouteTokens>> {
    let mut route_attrs = Vec::new();
    method
        .attrs
        .retain(|attr| match route_attr::route_method(attr) {
            Some(kind) => {
                route_attrs.push((attr.clone(), kind));
                false
            }
            None => true,
        });
    let param_names = handler::take_param_attrs(method)?;
    let (attr, kind) = match route_attrs.as_slice() {
        [] => {
            if param_names.iter().any(handler::ParamAttrs::is_param) {
                return Err(syn::Error::new_spanned(
                    &method.sig.ident,
                    "`#[param]` is only for route handlers; add a `#[typed_route::get(\"..\")]` (or post, put, patch, delete) attribute",
                ));
            }
            return Ok(None);
        }
        [(attr, kind)] => (attr, *kind),
        [_, (second, _), ..] => {
            return Err(syn::Error::new_spanned(
                second,
                "a handler has one route; write a second method for the second route",
            ));
        }
    };
    let route = route_attr::RouteAttr::parse(attr, kind)?;
    handler::expand(method, param_names, &route, base, controller, meta_name).map(Some)
}
