//! The trait impls a `#[dto]` adds beside serde's: `Validate`, `ToSchema`,
//! `WriteJson` and `IntoResponse`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, GenericParam, Generics, Ident};

use super::{Kind, write_json::Writer};

/// `impl Validate`: `is_valid` is the type's generated checks; with
/// `decoder`, the type's generated `ReadJson` reads its bodies.
pub(super) fn validate(input: &DeriveInput, is_valid: &TokenStream, decoder: bool) -> TokenStream {
    let name = &input.ident;
    let generics = with_bound(&input.generics, quote!(::framework::Validate));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let json = quote!(::framework::__private::json);
    let decoder = decoder.then(|| {
        quote! {
            #[inline]
            fn json_decoder() -> ::core::option::Option<
                fn(&mut #json::Reader<'_>) -> #json::Read<Self>,
            > {
                ::core::option::Option::Some(<Self as #json::ReadJson>::read_json)
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics ::framework::Validate for #name #ty_generics #where_clause {
            #[inline]
            fn is_valid(&self) -> bool {
                #is_valid
            }

            #decoder
        }
    }
}

/// `impl ToSchema`: a newtype's field's schema, or a named definition
/// (`display` on the wire, described by `doc`) of kind `kind`.
pub(super) fn schema(input: &DeriveInput, display: &str, doc: &str, kind: Kind) -> TokenStream {
    let name = &input.ident;
    let generics = with_bound(
        &input.generics,
        quote!(::framework::__private::ToSchema + 'static),
    );
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let body = match kind {
        Kind::Transparent(schema) => schema,
        Kind::Named(kind) => {
            let label = label(&input.generics, display);
            quote! {
                registry.define_named::<Self>(|registry| { let _ = &registry; #label }, |registry, name| ::framework::__private::TypeDef {
                    name,
                    rust_name: ::core::any::type_name::<Self>(),
                    description: ::framework::__private::String::from(#doc),
                    kind: #kind,
                })
            }
        }
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics ::framework::__private::ToSchema for #name #ty_generics #where_clause {
            fn schema(registry: &mut ::framework::__private::Registry) -> ::framework::__private::Schema {
                #body
            }
        }
    }
}

/// The name of a named definition: `display`, with its type arguments'
/// labels (`Page<Article>`) when it is generic.
fn label(generics: &Generics, display: &str) -> TokenStream {
    let params = type_params(generics);
    if params.is_empty() {
        return quote!(::framework::__private::String::from(#display));
    }
    quote! {{
        let arguments: ::framework::__private::Vec<::framework::__private::String> = ::std::vec![
            #(::framework::__private::type_label(
                &<#params as ::framework::__private::ToSchema>::schema(registry),
                registry,
            )),*
        ];
        ::std::format!("{}<{}>", #display, arguments.join(", "))
    }}
}

/// `impl WriteJson`, with the bodies `writer` holds.
pub(super) fn write_json(input: &DeriveInput, writer: Writer) -> TokenStream {
    let name = &input.ident;
    let generics = with_bound(&input.generics, quote!(::framework::WriteJson));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let Writer { write, len } = writer;
    quote! {
        #[automatically_derived]
        impl #impl_generics ::framework::WriteJson for #name #ty_generics #where_clause {
            #[inline]
            fn write_json(
                &self,
                __out: &mut ::framework::__private::Vec<u8>,
            ) -> ::core::result::Result<(), ::framework::JsonError> {
                #write
            }

            #[inline]
            fn json_len(&self) -> usize {
                #len
            }
        }
    }
}

/// A DTO answers JSON: `impl IntoResponse`. The bound is on `Self`, so a
/// generic DTO needs no bound of its own (and a `#[serde(bound = ..)]` is
/// respected).
pub(super) fn answer(name: &Ident, generics: &Generics) -> TokenStream {
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let mut predicates: Vec<TokenStream> = where_clause
        .map(|clause| clause.predicates.iter().map(|p| quote!(#p)).collect())
        .unwrap_or_default();
    predicates.push(quote!(
        Self: ::framework::WriteJson + ::framework::__private::ToSchema + 'static
    ));
    quote! {
        #[automatically_derived]
        impl #impl_generics ::framework::IntoResponse for #name #ty_generics where #(#predicates),* {
            fn describe(
                status: u16,
                registry: &mut ::framework::__private::Registry,
            ) -> ::framework::__private::Vec<::framework::ResponseManifest> {
                ::framework::__private::describe_json::<Self>(status, registry)
            }

            fn into_response(self, status: ::framework::__private::StatusCode) -> ::framework::Response {
                ::framework::__private::json_response(&self, status)
            }
        }
    }
}

/// The type parameters of `generics`.
pub(super) fn type_params(generics: &Generics) -> Vec<&Ident> {
    generics
        .params
        .iter()
        .filter_map(|param| match param {
            GenericParam::Type(ty) => Some(&ty.ident),
            _ => None,
        })
        .collect()
}

/// `generics`, each type parameter bound by `bound`.
pub(super) fn with_bound(generics: &Generics, bound: TokenStream) -> Generics {
    let params: Vec<Ident> = type_params(generics).into_iter().cloned().collect();
    let mut generics = generics.clone();
    let where_clause = generics.make_where_clause();
    for param in params {
        where_clause
            .predicates
            .push(syn::parse_quote!(#param: #bound));
    }
    generics
}
