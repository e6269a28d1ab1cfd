//! `#[typed_route::converted(versions = .."2.0.0", answer = v1::Article,
//! input = TypedBody<v1::ArticleCreate>)]`: the same handler serving older
//! API versions, its older inputs converted into the handler's
//! (`framework::Upgrade`, from `From<Old> for New`) and its answer into
//! the older one (`From<New> for Old`).

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;
use syn::{
    Attribute, Ident, Token, Type,
    parse::{Parse, ParseStream},
};

/// One `converted` attribute, read.
pub(crate) struct Conversion {
    /// The versions served this way, a `VersionRange` expression.
    pub(crate) versions: TokenStream,
    /// The older answer type, converted from the handler's success value.
    pub(crate) answer: Option<Type>,
    /// Arguments read as an older extractor type, by argument name.
    pub(crate) inputs: Vec<(Ident, Type)>,
}

/// Whether `attr` is `#[typed_route::converted(..)]` (or `#[converted(..)]`
/// with the attribute imported).
pub(crate) fn is_converted(attr: &Attribute) -> bool {
    crate::route_attr::typed_route_name(attr).is_some_and(|name| name == "converted")
}

const WRITE: &str = "write `#[typed_route::converted(versions = ..\"2.0.0\", answer = OldAnswer, argument = OldExtractor<OldInput>)]`";

struct Args {
    versions: Option<TokenStream>,
    answer: Option<Type>,
    inputs: Vec<(Ident, Type)>,
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut args = Args {
            versions: None,
            answer: None,
            inputs: Vec::new(),
        };
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            if key == "versions" {
                args.versions = Some(crate::versions::parse_range(input)?);
            } else if key == "answer" {
                args.answer = Some(input.parse()?);
            } else {
                let ty: Type = input.parse()?;
                if args.inputs.iter().any(|(known, _)| *known == key) {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("`{key}` is converted twice; keep one"),
                    ));
                }
                args.inputs.push((key, ty));
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(args)
    }
}

impl Conversion {
    /// Reads a `converted` attribute.
    pub(crate) fn parse(attr: &Attribute) -> syn::Result<Conversion> {
        let syn::Meta::List(list) = &attr.meta else {
            return Err(syn::Error::new_spanned(attr, WRITE));
        };
        let args: Args = list.parse_args()?;
        let Some(versions) = args.versions else {
            return Err(syn::Error::new_spanned(
                attr,
                format!("say which versions are served converted: {WRITE}"),
            ));
        };
        if args.answer.is_none() && args.inputs.is_empty() {
            return Err(syn::Error::new_spanned(
                attr,
                format!(
                    "nothing is converted: name the older answer or inputs ({WRITE}), or widen the route's own `versions`"
                ),
            ));
        }
        Ok(Conversion {
            versions,
            answer: args.answer,
            inputs: args.inputs,
        })
    }
}

/// The older answer type and the conversion of the handler's output
/// (`__o`) into it: `Result<Old, E>` and `__o.map(..)` when the handler
/// returns a `Result<T, E>`, else `Old` and `From::from(__o)`; the
/// conversion names `From<T> for Old`, so a missing one is reported as
/// such, at `old`.
pub(crate) fn answer(handler: &Type, old: &Type) -> (Type, TokenStream) {
    if let Type::Path(path) = handler
        && let Some(last) = path.path.segments.last()
        && last.ident == "Result"
        && let syn::PathArguments::AngleBracketed(generics) = &last.arguments
        && let [
            syn::GenericArgument::Type(value),
            syn::GenericArgument::Type(error),
        ] = generics.args.iter().collect::<Vec<_>>().as_slice()
    {
        let mut older = path.clone();
        if let Some(segment) = older.path.segments.last_mut() {
            segment.arguments =
                syn::PathArguments::AngleBracketed(syn::parse_quote!(<#old, #error>));
        }
        let convert = quote_spanned! {old.span()=>
            __o.map(<#old as ::core::convert::From<#value>>::from)
        };
        return (Type::Path(older), convert);
    }
    let convert = quote_spanned! {old.span()=>
        <#old as ::core::convert::From<#handler>>::from(__o)
    };
    (old.clone(), convert)
}
