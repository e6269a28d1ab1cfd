//! serde's impls of a DTO. serde's derive writes its code as inherent
//! functions (`#[serde(remote = "Self")]`); the trait impls here call them
//! through `framework`'s shape adapters, which refuse what serde alone
//! would also take but the schema does not describe: a struct written as
//! an array, `{"Unit": null}` for a unit variant, a map key written twice.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{
    Data, DeriveInput, Fields, GenericParam, Generics, Token, WherePredicate,
    punctuated::Punctuated,
};

use super::serde_attrs::ContainerAttrs;

/// The `framework::__private::tags::Shape` a type reads as.
pub(crate) fn shape(data: &Data, container: &ContainerAttrs) -> TokenStream {
    let shape = quote!(::framework::__private::tags::Shape);
    match data {
        Data::Struct(data) if matches!(data.fields, Fields::Named(_)) => quote!(#shape::Object),
        Data::Enum(_) if container.untagged => quote!(#shape::Content),
        Data::Enum(_) => match (&container.tag, &container.content) {
            (Some(_), Some(_)) => quote!(#shape::Object),
            (Some(_), None) => quote!(#shape::Tagged),
            _ => quote!(#shape::External),
        },
        _ => quote!(#shape::Content),
    }
}

/// `impl Serialize` and `impl Deserialize` over serde's inherent functions.
pub(crate) fn impls(
    input: &DeriveInput,
    container: &ContainerAttrs,
    shape: &TokenStream,
) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let serde = quote!(::framework::__private::serde);
    let (_, ty_generics, _) = input.generics.split_for_impl();

    let serialize_generics = bounded(&input.generics, container, quote!(#serde::Serialize))?;
    let (impl_generics, _, where_clause) = serialize_generics.split_for_impl();
    let serialize = quote! {
        #[automatically_derived]
        impl #impl_generics #serde::Serialize for #name #ty_generics #where_clause {
            #[inline]
            fn serialize<__S: #serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error> {
                Self::serialize(self, serializer)
            }
        }
    };

    let mut deserialize_generics =
        bounded(&input.generics, container, quote!(#serde::Deserialize<'de>))?;
    deserialize_generics
        .params
        .insert(0, syn::parse_quote!('de));
    let (impl_generics, _, where_clause) = deserialize_generics.split_for_impl();
    let deserialize = quote! {
        #[automatically_derived]
        impl #impl_generics #serde::Deserialize<'de> for #name #ty_generics #where_clause {
            #[inline]
            fn deserialize<__D: #serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                ::framework::__private::tags::deserialize_shaped(
                    deserializer,
                    #shape,
                    |shaped| Self::deserialize(shaped),
                )
            }
        }
    };
    Ok(quote!(#serialize #deserialize))
}

/// The type's generics with the user's `#[serde(bound = "...")]`, or else
/// `bound` on every type parameter.
fn bounded(
    generics: &Generics,
    container: &ContainerAttrs,
    bound: TokenStream,
) -> syn::Result<Generics> {
    let mut generics = generics.clone();
    let predicates: Vec<WherePredicate> = match &container.bound {
        Some(user) => user
            .parse_with(Punctuated::<WherePredicate, Token![,]>::parse_terminated)?
            .into_iter()
            .collect(),
        None => generics
            .params
            .iter()
            .filter_map(|param| match param {
                GenericParam::Type(ty) => {
                    let ident = &ty.ident;
                    Some(syn::parse_quote!(#ident: #bound))
                }
                _ => None,
            })
            .collect(),
    };
    generics.make_where_clause().predicates.extend(predicates);
    Ok(generics)
}
