//! `#[dto]`: one declaration gives serde, a schema, generated constraint
//! checks and (through the schema) random values.

mod case;
pub(crate) mod field;
mod impls;
mod read_json;
mod serde_attrs;
mod serde_impl;
pub(crate) mod tags;
mod variants;
mod write_json;

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, Generics, Ident};

use crate::docs;
use field::FieldInfo;
use serde_attrs::ContainerAttrs;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    match expand_inner(attr, item.clone()) {
        Ok(tokens) => tokens,
        Err(err) => {
            let error = err.to_compile_error();
            // Keep the item so the rest of the crate still type-checks.
            let item = strip_helper_attrs(item);
            quote! { #error #item }
        }
    }
}

/// Removes `#[tags]`, `#[optional]` and `#[serde]` so that an item with an
/// error in it still compiles, without the derives.
fn strip_helper_attrs(item: TokenStream) -> TokenStream {
    let Ok(mut input) = syn::parse2::<DeriveInput>(item.clone()) else {
        return item;
    };
    let helper = |attr: &syn::Attribute| {
        ["tags", "optional", "serde"]
            .iter()
            .any(|name| attr.path().is_ident(name))
    };
    let strip = |fields: &mut Fields| {
        for field in fields.iter_mut() {
            field.attrs.retain(|attr| !helper(attr));
        }
    };
    input.attrs.retain(|attr| !attr.path().is_ident("serde"));
    match &mut input.data {
        Data::Struct(data) => strip(&mut data.fields),
        Data::Enum(data) => data.variants.iter_mut().for_each(|variant| {
            variant.attrs.retain(|attr| !helper(attr));
            strip(&mut variant.fields);
        }),
        Data::Union(_) => {}
    }
    quote!(#input)
}

fn expand_inner(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let strict = parse_options(attr)?;
    let mut input: DeriveInput = syn::parse2(item)
        .map_err(|err| syn::Error::new(err.span(), "`#[dto]` goes on a struct or an enum"))?;
    let container = serde_attrs::container(&input.attrs)?;
    let strict = strict || container.deny_unknown_fields;
    let display = container
        .rename
        .clone()
        .unwrap_or_else(|| input.ident.to_string());
    let doc = docs::doc_text(&input.attrs);

    let shape = serde_impl::shape(&input.data, &container);
    let TypeParts {
        is_valid,
        kind,
        writer,
        read,
    } = match &mut input.data {
        Data::Struct(data) => struct_parts(&mut data.fields, &container, strict)?,
        Data::Enum(data) => variants::enum_parts(data, &container, strict)?,
        Data::Union(data) => {
            return Err(syn::Error::new_spanned(
                data.union_token,
                "`#[dto]` goes on a struct or an enum; unions have no JSON form",
            ));
        }
    };
    // A generic type's decoder is bounded (its parameters must have
    // decoders), which its `Validate` is not: its own bodies are read by
    // the reference decoder, and it is read in one pass as a field. Not
    // with lifetimes, const parameters or bounds of the user's own.
    let read = read.filter(|_| {
        container.bound.is_none()
            && input
                .generics
                .params
                .iter()
                .all(|param| matches!(param, syn::GenericParam::Type(_)))
    });
    let validate_impl = impls::validate(
        &input,
        &is_valid,
        read.is_some() && input.generics.params.is_empty(),
    );
    let read_impl = read.map(|read| read_json::impl_for(&input, &read));
    let schema_impl = impls::schema(&input, &display, &doc, kind);
    let write_impl = impls::write_json(&input, writer);
    let answer_impl = impls::answer(&input.ident, &input.generics);
    let deny =
        (strict && !container.deny_unknown_fields).then(|| quote!(#[serde(deny_unknown_fields)]));
    let bounds = serde_bounds(&input.generics, container.bound.is_some());
    let serde_impls = serde_impl::impls(&input, &container, &shape)?;
    Ok(quote! {
        #[derive(::framework::__private::serde::Serialize, ::framework::__private::serde::Deserialize)]
        #[serde(crate = "::framework::__private::serde", remote = "Self")]
        #deny
        #bounds
        #input
        #validate_impl
        #read_impl
        #schema_impl
        #write_impl
        #answer_impl
        #serde_impls
    })
}

/// serde infers no bounds for fields read with `deserialize_with` (as
/// `Option` fields are), so generic DTOs state them: every type parameter
/// is serializable and deserializable.
fn serde_bounds(generics: &Generics, user_bound: bool) -> Option<TokenStream> {
    let params = impls::type_params(generics);
    if params.is_empty() || user_bound {
        return None;
    }
    let serialize = params
        .iter()
        .map(|param| format!("{param}: ::framework::__private::serde::Serialize"))
        .collect::<Vec<_>>()
        .join(", ");
    let deserialize = params
        .iter()
        .map(|param| format!("{param}: ::framework::__private::serde::Deserialize<'de>"))
        .collect::<Vec<_>>()
        .join(", ");
    Some(quote!(#[serde(bound(serialize = #serialize, deserialize = #deserialize))]))
}

/// `#[dto]` or `#[dto(strict)]`.
fn parse_options(attr: TokenStream) -> syn::Result<bool> {
    if attr.is_empty() {
        return Ok(false);
    }
    let ident: Ident = syn::parse2(attr.clone()).map_err(|_| {
        syn::Error::new_spanned(
            &attr,
            "write `#[dto]`, or `#[dto(strict)]` to refuse unknown properties",
        )
    })?;
    if ident == "strict" {
        Ok(true)
    } else {
        Err(syn::Error::new_spanned(
            ident,
            "unknown option; write `#[dto]`, or `#[dto(strict)]` to refuse unknown properties",
        ))
    }
}

/// What a type's declaration gives the impls `#[dto]` writes.
struct TypeParts {
    /// The body of `is_valid`.
    is_valid: TokenStream,
    /// The schema it describes itself with.
    kind: Kind,
    /// The JSON writer's bodies.
    writer: write_json::Writer,
    /// Its generated decoder (`ReadJson`), when it has one.
    read: Option<read_json::Decoder>,
}

/// The schema a type describes itself with.
enum Kind {
    /// A newtype struct: exactly its field's schema.
    Transparent(TokenStream),
    /// A named type: the `TypeKind` of its definition.
    Named(TokenStream),
}

/// Reads fields, adds their serde attributes, and returns them.
fn read_fields(fields: &mut Fields, rule: Option<case::RenameRule>) -> syn::Result<Vec<FieldInfo>> {
    let mut infos = Vec::new();
    for (index, field) in fields.iter_mut().enumerate() {
        let info = FieldInfo::read(field, index, rule)?;
        if let Some(attrs) = info.serde_attrs() {
            field
                .attrs
                .extend(syn::Attribute::parse_outer.parse2(attrs)?);
        }
        infos.push(info);
    }
    Ok(infos)
}

use syn::parse::Parser;

fn object_kind(infos: &[FieldInfo], strict: bool) -> TokenStream {
    let defs = infos.iter().filter_map(FieldInfo::def);
    quote! {
        ::framework::__private::ObjectDef {
            fields: ::std::vec![#(#defs),*],
            strict: #strict,
        }
    }
}

fn struct_parts(
    fields: &mut Fields,
    container: &ContainerAttrs,
    strict: bool,
) -> syn::Result<TypeParts> {
    if container.tag.is_some() || container.untagged {
        return Err(syn::Error::new(
            proc_macro2::Span::call_site(),
            "`tag` and `untagged` are for enums",
        ));
    }
    match fields {
        Fields::Named(_) => {
            let infos = read_fields(fields, container.rename_all)?;
            let checks: Vec<TokenStream> = infos
                .iter()
                .map(|info| {
                    let member = &info.member;
                    let check = info.check(&quote!(__value));
                    quote! {({ let __value = &self.#member; #check })}
                })
                .collect();
            let is_valid = if checks.is_empty() {
                quote!(true)
            } else {
                quote!(#(#checks)&&*)
            };
            let object = object_kind(&infos, strict);
            Ok(TypeParts {
                is_valid,
                kind: Kind::Named(quote!(::framework::__private::TypeKind::Object(#object))),
                writer: write_json::for_struct(&infos),
                read: Some(read_json::for_struct(&infos, strict)),
            })
        }
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
            let infos = read_fields(fields, None)?;
            let info = &infos[0];
            let check = info.check(&quote!(__value));
            let is_valid = quote! {({ let __value = &self.0; #check })};
            Ok(TypeParts {
                is_valid,
                kind: Kind::Transparent(info.schema()),
                writer: write_json::for_newtype(),
                read: Some(read_json::for_newtype(info)),
            })
        }
        other => Err(syn::Error::new_spanned(
            other,
            "a `#[dto]` struct has named fields, or is a newtype `struct Name(T);`",
        )),
    }
}
