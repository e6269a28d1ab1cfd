//! `versions = "1.0.0".."2.0.0"`: the API versions a route or a controller
//! serves, read into a `framework::VersionRange` expression.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Expr, RangeLimits, parse::ParseStream, spanned::Spanned};

/// What to write, said by every refusal of a range.
const WRITE: &str = "write the versions as a range: `versions = \"1.0.0\"..\"2.0.0\"`, `\"2.0.0\"..` (from 2.0.0 on) or `..\"2.0.0\"` (before 2.0.0); a bound may also name a `const` `ApiVersion`";

/// Parses the range after `versions =` into a `VersionRange` expression
/// (through `__p`). Each bound is a string, read at compile time by
/// `framework::__private::version`, or an expression naming a `const`
/// `ApiVersion`.
pub(crate) fn parse_range(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    let expr: Expr = input
        .parse()
        .map_err(|err| syn::Error::new(err.span(), WRITE))?;
    let Expr::Range(range) = &expr else {
        let hint = match &expr {
            Expr::Lit(_) => format!(
                "{WRITE}; for this version only, write `{v}..` up to the next version",
                v = quote!(#expr)
            ),
            _ => WRITE.to_owned(),
        };
        return Err(syn::Error::new_spanned(&expr, hint));
    };
    if let RangeLimits::Closed(dots) = range.limits {
        return Err(syn::Error::new_spanned(
            dots,
            "a range of versions excludes its end, as dropshot's do: write `..` and the first version no longer served",
        ));
    }
    let from = bound(range.start.as_deref());
    let until = bound(range.end.as_deref());
    Ok(quote_spanned! {expr.span()=> __p::VersionRange::new(#from, #until) })
}

/// One bound: `__p::Some(version)` or `__p::None`.
fn bound(expr: Option<&Expr>) -> TokenStream {
    match expr {
        None => quote!(__p::None),
        Some(Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            ..
        })) => quote_spanned! {lit.span()=> __p::Some(__p::version(#lit)) },
        Some(other) => quote_spanned! {other.span()=> __p::Some(#other) },
    }
}

/// The range a route serves: its own `versions`, narrowed by its
/// controller's.
pub(crate) fn route_range(
    route: Option<&TokenStream>,
    controller: Option<&TokenStream>,
) -> TokenStream {
    match (route, controller) {
        (Some(route), Some(controller)) => quote!(#route.within(#controller)),
        (Some(only), None) | (None, Some(only)) => only.clone(),
        (None, None) => quote!(__p::VersionRange::ALL),
    }
}
