//! The `#[typed_route::get("path", status = 201)]` attributes.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{
    Attribute, LitInt, LitStr, Token,
    parse::{Parse, ParseStream},
};

/// The method named by a route attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    fn from_name(name: &str) -> Option<Method> {
        Some(match name {
            "get" => Method::Get,
            "post" => Method::Post,
            "put" => Method::Put,
            "patch" => Method::Patch,
            "delete" => Method::Delete,
            _ => return None,
        })
    }

    /// The `framework::HttpMethod` variant.
    pub(crate) fn variant(self) -> TokenStream {
        match self {
            Method::Get => quote!(Get),
            Method::Post => quote!(Post),
            Method::Put => quote!(Put),
            Method::Patch => quote!(Patch),
            Method::Delete => quote!(Delete),
        }
    }
}

/// A parsed route attribute.
pub(crate) struct RouteAttr {
    pub(crate) method: Method,
    pub(crate) path: LitStr,
    pub(crate) status: Option<u16>,
    /// Documented error statuses and when they happen.
    pub(crate) errors: Vec<(u16, String)>,
    /// Whether the SDKs include the route (`sdk = false` leaves it out).
    pub(crate) sdk: bool,
    /// The attribute itself, for errors that point at it.
    pub(crate) attr: Attribute,
}

/// The method if `attr` is a route attribute: `#[typed_route::get(..)]`, or
/// `#[get(..)]` with the attribute imported.
pub(crate) fn route_method(attr: &Attribute) -> Option<Method> {
    let segments: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect();
    let method = Method::from_name(segments.last()?)?;
    match segments.as_slice() {
        [_] => Some(method),
        [.., module, _] if module == "typed_route" => Some(method),
        _ => None,
    }
}

struct Args {
    path: LitStr,
    status: Option<LitInt>,
    errors: Vec<(u16, String)>,
    sdk: bool,
}

/// `errors(403 = "wrong password", 404)`.
fn parse_errors(input: ParseStream<'_>) -> syn::Result<Vec<(u16, String)>> {
    let content;
    syn::parenthesized!(content in input);
    let mut errors = Vec::new();
    while !content.is_empty() {
        let status: LitInt = content.parse()?;
        let code: u16 = status.base10_parse()?;
        if !(400..=599).contains(&code) {
            return Err(syn::Error::new(
                status.span(),
                "documented errors are 4xx or 5xx statuses",
            ));
        }
        let description = if content.peek(Token![=]) {
            content.parse::<Token![=]>()?;
            content.parse::<LitStr>()?.value()
        } else {
            String::new()
        };
        errors.push((code, description));
        if content.peek(Token![,]) {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(errors)
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let path: LitStr = input.parse().map_err(|err| {
            syn::Error::new(
                err.span(),
                "expected the route path as a string, e.g. `(\":id\")`, or `(\"\")` for the base path",
            )
        })?;
        let mut status = None;
        let mut errors = Vec::new();
        let mut sdk = true;
        while input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            if key == "status" {
                input.parse::<Token![=]>()?;
                status = Some(input.parse::<LitInt>()?);
            } else if key == "errors" {
                errors = parse_errors(input)?;
            } else if key == "sdk" {
                input.parse::<Token![=]>()?;
                sdk = input.parse::<syn::LitBool>()?.value;
            } else {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown route option `{key}`; options are `status = <code>`, `errors(404 = \"when\", ...)` and `sdk = false`"
                    ),
                ));
            }
        }
        Ok(Args {
            path,
            status,
            errors,
            sdk,
        })
    }
}

impl RouteAttr {
    /// Parses a route attribute already known to name `method`.
    pub(crate) fn parse(attr: &Attribute, method: Method) -> syn::Result<RouteAttr> {
        let args: Args = match &attr.meta {
            syn::Meta::List(list) => list.parse_args()?,
            _ => {
                return Err(syn::Error::new_spanned(
                    attr,
                    "a route needs a path: write `#[typed_route::get(\":id\")]`, or `(\"\")` for the base path",
                ));
            }
        };
        let status = match args.status {
            None => None,
            Some(lit) => {
                let code: u16 = lit.base10_parse()?;
                if !(200..=299).contains(&code) {
                    return Err(syn::Error::new(
                        lit.span(),
                        "`status` is the success status and must be 2xx; return `Err(ApiError)` for errors, or a `Redirect` for 3xx",
                    ));
                }
                Some(code)
            }
        };
        Ok(RouteAttr {
            method,
            path: args.path,
            status,
            errors: args.errors,
            sdk: args.sdk,
            attr: attr.clone(),
        })
    }
}

/// A route attribute used outside a controller: an error that says where it
/// belongs, with the item kept so the rest of the code still checks.
pub(crate) fn outside_controller(name: &str, item: TokenStream) -> TokenStream {
    let message = format!(
        "`#[typed_route::{name}]` only works on a method inside an `impl` block marked `#[controller(\"base/path\")]`"
    );
    let error = syn::Error::new(Span::call_site(), message).to_compile_error();
    quote! { #error #item }
}
