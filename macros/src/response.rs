//! `#[derive(IntoResponse)]` on an enum of answers.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Data, DeriveInput, Fields, LitInt, spanned::Spanned};

use crate::docs;

/// One variant: its name, its answer type (`()` for a unit variant), the
/// status it declares and its doc comment.
struct Variant {
    ident: syn::Ident,
    answer: Option<syn::Type>,
    status: Option<u16>,
    description: String,
}

pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match derive(input) {
        Ok(tokens) => tokens,
        Err(err) => err.to_compile_error(),
    }
}

fn derive(input: TokenStream) -> syn::Result<TokenStream> {
    let input: DeriveInput = syn::parse2(input)?;
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "`#[derive(IntoResponse)]` is for an enum whose variants are answers: `enum Outcome { Done(Article), #[status(202)] Queued(Job) }`; a struct answers JSON with `#[dto]`",
        ));
    };
    let variants = data
        .variants
        .iter()
        .map(variant)
        .collect::<syn::Result<Vec<_>>>()?;
    let name = &input.ident;
    let describes = variants.iter().map(describe_variant);
    let arms = variants.iter().map(answer_arm);
    // A generic enum answers when each variant's answer does.
    let mut generics = input.generics.clone();
    if !generics.params.is_empty() {
        let where_clause = generics.make_where_clause();
        for variant in &variants {
            if let Some(ty) = &variant.answer {
                where_clause
                    .predicates
                    .push(syn::parse_quote!(#ty: ::framework::IntoResponse));
            }
        }
    }
    let (impl_generics, type_generics, where_clause) = generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics ::framework::IntoResponse for #name #type_generics #where_clause {
            fn describe(
                __status: u16,
                __registry: &mut ::framework::__private::Registry,
            ) -> ::framework::__private::Vec<::framework::ResponseManifest> {
                let mut __answers = ::framework::__private::Vec::new();
                #(#describes)*
                __answers
            }

            fn into_response(
                self,
                __status: ::framework::__private::StatusCode,
            ) -> ::framework::Response {
                match self {
                    #(#arms)*
                }
            }
        }
    })
}

/// Reads a variant: a newtype variant wraps its answer, a unit variant has
/// no body.
fn variant(variant: &syn::Variant) -> syn::Result<Variant> {
    let answer = match &variant.fields {
        Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
            fields.unnamed.first().map(|field| field.ty.clone())
        }
        Fields::Unit => None,
        other => {
            return Err(syn::Error::new_spanned(
                other,
                "each variant wraps one answer, `Done(Article)`, or is a unit variant with a `#[status(..)]`",
            ));
        }
    };
    let mut status = None;
    for attr in &variant.attrs {
        if !attr.path().is_ident("status") {
            continue;
        }
        let lit: LitInt = attr.parse_args().map_err(|err| {
            syn::Error::new(err.span(), "write the variant's status: `#[status(202)]`")
        })?;
        let code: u16 = lit.base10_parse()?;
        if !(100..=599).contains(&code) {
            return Err(syn::Error::new(
                lit.span(),
                "a status is between 100 and 599",
            ));
        }
        status = Some(code);
    }
    if answer.is_none() && status.is_none() {
        return Err(syn::Error::new_spanned(
            &variant.ident,
            "a unit variant answers no body; give it a status: `#[status(204)]`",
        ));
    }
    Ok(Variant {
        ident: variant.ident.clone(),
        answer,
        status,
        description: docs::doc_text(&variant.attrs),
    })
}

fn answer_type(variant: &Variant) -> TokenStream {
    match &variant.answer {
        Some(ty) => quote!(#ty),
        None => quote!(()),
    }
}

fn describe_variant(variant: &Variant) -> TokenStream {
    let ty = answer_type(variant);
    let span = variant
        .answer
        .as_ref()
        .map_or(variant.ident.span(), Spanned::span);
    let name = variant.ident.to_string();
    let description = &variant.description;
    let (status, declared) = match variant.status {
        Some(code) => (quote!(#code), quote!(::core::option::Option::Some(#code))),
        None => (quote!(__status), quote!(::core::option::Option::None)),
    };
    quote_spanned! {span=>
        for __answer in <#ty as ::framework::IntoResponse>::describe(#status, __registry) {
            __answers.push(__answer.for_variant(#name, #declared).described(#description));
        }
    }
}

fn answer_arm(variant: &Variant) -> TokenStream {
    let ident = &variant.ident;
    let status = match variant.status {
        Some(code) => quote!(::framework::__private::status(#code)),
        None => quote!(__status),
    };
    match &variant.answer {
        Some(_) => quote! {
            Self::#ident(__inner) => ::framework::IntoResponse::into_response(__inner, #status),
        },
        None => quote! {
            Self::#ident => ::framework::IntoResponse::into_response((), #status),
        },
    }
}
