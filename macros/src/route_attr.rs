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
    /// Whether an app's MCP endpoint offers the route as a tool (`mcp =
    /// false` keeps it for people only).
    pub(crate) mcp: bool,
    /// The route's own name (`operation_id = "signIn"`), checked.
    pub(crate) operation_id: Option<String>,
    /// The versions it serves (`versions = "2.0.0"..`), as a
    /// `VersionRange` expression.
    pub(crate) versions: Option<TokenStream>,
    /// The attribute itself, for errors that point at it.
    pub(crate) attr: Attribute,
}

/// The method if `attr` is a route attribute: `#[typed_route::get(..)]`, or
/// `#[get(..)]` with the attribute imported.
pub(crate) fn route_method(attr: &Attribute) -> Option<Method> {
    Method::from_name(&typed_route_name(attr)?)
}

/// The name of `attr` if it is one of `typed_route`'s: `get` for
/// `#[typed_route::get(..)]`, or for `#[get(..)]` with it imported.
pub(crate) fn typed_route_name(attr: &Attribute) -> Option<String> {
    let segments: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect();
    match segments.as_slice() {
        [name] => Some(name.clone()),
        [.., module, name] if module == "typed_route" => Some(name.clone()),
        _ => None,
    }
}

struct Args {
    path: LitStr,
    status: Option<LitInt>,
    errors: Vec<(u16, String)>,
    sdk: bool,
    mcp: bool,
    operation_id: Option<String>,
    versions: Option<TokenStream>,
}

/// `operation_id = "signIn"`: a name made of ASCII letters, digits and
/// `_`, not beginning with a digit, since it names a function in both SDKs
/// as well as the OpenAPI operation. Refused otherwise, saying what to
/// write.
fn parse_operation_id(input: ParseStream<'_>) -> syn::Result<String> {
    let expected = "write the operation id as a string: `operation_id = \"signIn\"`";
    if !input.peek(Token![=]) {
        return Err(input.error(expected));
    }
    input.parse::<Token![=]>()?;
    let value: syn::Expr = input.parse()?;
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(lit),
        ..
    }) = &value
    else {
        let written = quote!(#value).to_string();
        let hint = if written.is_empty() {
            expected.to_owned()
        } else {
            format!("{expected}; to use `{written}`, write `operation_id = \"{written}\"`")
        };
        return Err(syn::Error::new_spanned(value, hint));
    };
    let id = lit.value();
    match check_operation_id(&id) {
        Ok(()) => Ok(id),
        Err(message) => Err(syn::Error::new(lit.span(), message)),
    }
}

/// Why `id` cannot be an operation id, and what to write instead.
fn check_operation_id(id: &str) -> Result<(), String> {
    let rule = "an operation id names a function in the SDKs: ASCII letters, digits and `_`, not beginning with a digit";
    if id.is_empty() {
        return Err(format!(
            "{rule}; write a name, e.g. `operation_id = \"signIn\"`, or leave `operation_id` out to name the route after its path and handler"
        ));
    }
    let valid = id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !id.starts_with(|c: char| c.is_ascii_digit());
    if valid {
        return Ok(());
    }
    if let Some((_, last)) = id.rsplit_once('.') {
        let instead = suggestion(last);
        return Err(format!(
            "{rule}; the SDK namespaces come from the route's path, so name the function only: `operation_id = \"{instead}\"`"
        ));
    }
    let instead = suggestion(id);
    Err(format!("{rule}; write `operation_id = \"{instead}\"`"))
}

/// `sign-in` -> `signIn`, `2fa` -> `_2fa`: the words of `id` in
/// lowerCamelCase, `_` first if it would begin with a digit.
fn suggestion(id: &str) -> String {
    let mut out = String::new();
    for (index, word) in id
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
        .enumerate()
    {
        let mut chars = word.chars();
        if let (true, Some(first)) = (index > 0, chars.next()) {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        } else {
            out.push_str(word);
        }
    }
    if out.is_empty() {
        return "signIn".to_owned();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
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
        let mut mcp = true;
        let mut operation_id = None;
        let mut versions = None;
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
            } else if key == "mcp" {
                input.parse::<Token![=]>()?;
                mcp = input.parse::<syn::LitBool>()?.value;
            } else if key == "operation_id" {
                operation_id = Some(parse_operation_id(input)?);
            } else if key == "versions" {
                input.parse::<Token![=]>()?;
                versions = Some(crate::versions::parse_range(input)?);
            } else {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown route option `{key}`; options are `status = <code>`, `errors(404 = \"when\", ...)`, `sdk = false`, `mcp = false`, `operation_id = \"name\"` and `versions = \"1.0.0\"..\"2.0.0\"`"
                    ),
                ));
            }
        }
        Ok(Args {
            path,
            status,
            errors,
            sdk,
            mcp,
            operation_id,
            versions,
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
            mcp: args.mcp,
            operation_id: args.operation_id,
            versions: args.versions,
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

#[cfg(test)]
mod tests {
    use super::{check_operation_id, suggestion};

    #[test]
    fn operation_ids_are_names() {
        for id in ["signIn", "sign_in", "_private", "v2", "x"] {
            assert_eq!(check_operation_id(id), Ok(()), "{id}");
        }
        for id in ["", "sign-in", "users.signIn", "2fa", "sign in", "é"] {
            assert!(check_operation_id(id).is_err(), "{id}");
        }
    }

    #[test]
    fn misuse_is_answered_with_a_name() {
        assert_eq!(suggestion("sign-in"), "signIn");
        assert_eq!(suggestion("get user by id"), "getUserById");
        assert_eq!(suggestion("2fa"), "_2fa");
        assert_eq!(suggestion("--"), "signIn");
        assert!(
            check_operation_id("users.sign-in")
                .unwrap_err()
                .contains("\"signIn\"")
        );
    }
}
