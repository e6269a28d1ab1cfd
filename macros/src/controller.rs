//! `#[controller("base/path")]` on an `impl` block.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{
    ImplItem, ImplItemFn, ItemImpl, LitStr, Token, Type,
    parse::{Parse, ParseStream},
};

use crate::{converted::Conversion, handler, path, route_attr};

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let ControllerArgs { base, versions } = match controller_args(attr) {
        Ok(args) => args,
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
        match route(method, &base, &controller, versions.as_ref(), routes.len()) {
            Ok(tokens) => routes.extend(tokens),
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

/// What `#[controller(..)]` says: the base path, and the versions its
/// routes serve.
struct ControllerArgs {
    base: LitStr,
    versions: Option<TokenStream>,
}

impl Parse for ControllerArgs {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let base: LitStr = input.parse()?;
        let mut versions = None;
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            if !input.is_empty() {
                let key: syn::Ident = input.parse()?;
                if key != "versions" {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown controller option `{key}`; the one option is `versions = \"1.0.0\"..\"2.0.0\"`, the versions its routes serve"
                        ),
                    ));
                }
                input.parse::<Token![=]>()?;
                versions = Some(crate::versions::parse_range(input)?);
                input.parse::<Option<Token![,]>>()?;
            }
        }
        Ok(ControllerArgs { base, versions })
    }
}

/// The controller's base path and versions.
fn controller_args(attr: TokenStream) -> syn::Result<ControllerArgs> {
    let message = "write the controller's base path as a string: `#[controller(\"bbs/articles/:section\")]`, or `#[controller(\"\")]` for the root";
    if attr.is_empty() {
        return Err(syn::Error::new(proc_macro2::Span::call_site(), message));
    }
    syn::parse2::<ControllerArgs>(attr.clone()).map_err(|err| {
        if syn::parse2::<LitStr>(attr.clone().into_iter().take(1).collect()).is_ok() {
            err
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

/// The routes of one method, its route and `converted` attributes taken
/// off: none for a method that is not a handler, one more for each
/// `converted`. `numbered` routes come before it.
fn route(
    method: &mut ImplItemFn,
    base: &LitStr,
    controller: &str,
    versions: Option<&TokenStream>,
    numbered: usize,
) -> syn::Result<Vec<handler::RouteTokens>> {
    let mut route_attrs = Vec::new();
    let mut conversions = Vec::new();
    method.attrs.retain(|attr| {
        if crate::converted::is_converted(attr) {
            conversions.push(attr.clone());
            return false;
        }
        match route_attr::route_method(attr) {
            Some(kind) => {
                route_attrs.push((attr.clone(), kind));
                false
            }
            None => true,
        }
    });
    let param_names = handler::take_param_attrs(method)?;
    let (attr, kind) = match route_attrs.as_slice() {
        [] => {
            if let Some(conversion) = conversions.first() {
                return Err(syn::Error::new_spanned(
                    conversion,
                    "`converted` serves a route's handler to older versions; add the route's `#[typed_route::get(\"..\")]` (or post, put, patch, delete) attribute",
                ));
            }
            if param_names.iter().any(handler::ParamAttrs::is_param) {
                return Err(syn::Error::new_spanned(
                    &method.sig.ident,
                    "`#[param]` is only for route handlers; add a `#[typed_route::get(\"..\")]` (or post, put, patch, delete) attribute",
                ));
            }
            return Ok(Vec::new());
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
    let conversions = conversions
        .iter()
        .map(Conversion::parse)
        .collect::<syn::Result<Vec<_>>>()?;
    let mut routes = Vec::new();
    for conversion in std::iter::once(None).chain(conversions.iter().map(Some)) {
        let own = conversion.map_or(route.versions.as_ref(), |c| Some(&c.versions));
        let place = handler::Place {
            base,
            controller,
            meta_name: &quote::format_ident!("__ROUTE{}", numbered + routes.len()),
            versions: crate::versions::route_range(own, versions),
        };
        routes.push(handler::expand(
            method,
            param_names.clone(),
            &route,
            &place,
            conversion,
        )?);
    }
    Ok(routes)
}
