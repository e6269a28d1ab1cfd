//! `impl ReadJson`: the decoder `#[dto]` generates for a type, reading it
//! from the body's bytes in one pass. Each field's value is read by its
//! type's own decoder (or by serde, for a type that has none: the choice
//! is made by method lookup, see `framework::__private::json::Field`) and
//! checked with the same generated checks as `is_valid`, as it is read.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{DeriveInput, Ident, Type};

use super::{
    field::{FieldInfo, option_inner, peeled_check},
    impls::{type_params, with_bound},
};

/// The path of the decoder's support in `framework`.
fn json() -> TokenStream {
    quote!(::framework::__private::json)
}

/// A type's generated decoder: the body of its `read_json`, and the types
/// of the fields it defaults (which a generic type's impl bounds by
/// `Default`, as serde's does).
pub(super) struct Decoder {
    body: TokenStream,
    defaulted: Vec<Type>,
}

impl Decoder {
    fn new(body: TokenStream) -> Self {
        Decoder {
            body,
            defaulted: Vec::new(),
        }
    }
}

/// `impl ReadJson for #name`. A generic type's reads its parameters by
/// their decoders: the impl holds where each type parameter has one (and
/// is a checked, serde-readable type, for the fields serde reads), so
/// `Page<Article>` inside another DTO is read in the same pass; elsewhere
/// the field is read by serde.
pub(super) fn impl_for(input: &DeriveInput, decoder: &Decoder) -> TokenStream {
    let name = &input.ident;
    let json = json();
    let mut generics = with_bound(
        &input.generics,
        quote!(#json::ReadJson + ::framework::Validate + ::framework::__private::serde::de::DeserializeOwned),
    );
    let params = type_params(&input.generics);
    let mentions = |ty: &Type| {
        quote!(#ty).into_iter().any(|token| {
            matches!(&token, proc_macro2::TokenTree::Ident(ident) if params.contains(&ident))
        })
    };
    for ty in decoder.defaulted.iter().filter(|ty| mentions(ty)) {
        generics
            .make_where_clause()
            .predicates
            .push(syn::parse_quote!(#ty: ::core::default::Default));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let read = &decoder.body;
    quote! {
        #[automatically_derived]
        impl #impl_generics #json::ReadJson for #name #ty_generics #where_clause {
            fn read_json(
                __reader: &mut #json::Reader<'_>,
            ) -> ::core::result::Result<Self, #json::Refused> {
                #[allow(unused_imports)]
                use #json::{ViaReadJson as _, ViaSerde as _};
                #read
            }
        }
    }
}

/// Reads a value of type `ty` (a `Result` to `?`).
fn read_value(ty: &Type) -> TokenStream {
    let json = json();
    quote!((&#json::Field::<#ty>::NEW).read(__reader))
}

/// Refuses unless the tag checks of `value` (a `ty`) hold.
fn check_tags(info: &FieldInfo, value: &TokenStream) -> TokenStream {
    if !info.tags.constrains() {
        return TokenStream::new();
    }
    let json = json();
    let check = peeled_check(&quote!(__checked), Some(&info.ty), &info.tags);
    quote! {{
        let __checked = &#value;
        if !(#check) {
            return ::core::result::Result::Err(#json::Refused);
        }
    }}
}

/// The body of a named struct's decoder: its object as serializers write
/// it (every field in declaration order: [`in_order`]), then, from where
/// the body differs, its other members in any order, each field read once
/// and checked, unknown properties skipped (or refused when `strict`);
/// then absent fields defaulted or refused. Nothing is read twice.
pub(super) fn for_struct(infos: &[FieldInfo], strict: bool) -> Decoder {
    let json = json();
    let read: Vec<&FieldInfo> = infos.iter().filter(|info| !info.skip).collect();
    let slots: Vec<Ident> = (0..read.len()).map(|i| format_ident!("__f{}", i)).collect();
    let readers: Vec<Ident> = (0..read.len()).map(|i| format_ident!("__r{}", i)).collect();
    let keys = read.iter().map(|info| {
        let quoted = syn::LitByteStr::new(
            format!("\"{}\":", info.wire).as_bytes(),
            proc_macro2::Span::call_site(),
        );
        quote!(#json::FieldKey::new(#quoted))
    });
    let field_readers = read
        .iter()
        .zip(&readers)
        .map(|(info, reader)| field_reader(info, reader));
    let declare = read.iter().zip(&slots).map(|(info, slot)| {
        let ty = &info.ty;
        quote!(let mut #slot: ::core::option::Option<#ty> = ::core::option::Option::None;)
    });
    let arms = (0..read.len()).map(|index| field_arm(index, &slots[index], &readers[index]));
    let mut slot_of = slots.iter();
    let members = infos.iter().map(|info| {
        let member = &info.member;
        let slot = if info.skip { None } else { slot_of.next() };
        let value = match slot {
            Some(slot) => finish(info, slot),
            None => default_value(info),
        };
        quote!(#member: #value)
    });
    let defaulted = infos
        .iter()
        .filter(|info| {
            (info.skip || info.serde_default.is_some())
                && !matches!(info.serde_default, Some(Some(_)))
        })
        .map(|info| info.ty.clone())
        .collect();
    let in_order = in_order(&slots, &readers);
    let body = quote! {
        const __FIELDS: &[#json::FieldKey] = &[#(#keys),*];
        #(#field_readers)*
        #(#declare)*
        __reader.open_object()?;
        let __in_order: ::core::primitive::usize = #in_order;
        if __in_order != ::core::primitive::usize::MAX {
            __reader.members(__FIELDS, #strict, __in_order, |__reader, __index| {
                match __index {
                    #(#arms)*
                    _ => ::core::result::Result::Err(#json::Refused),
                }
            })?;
        }
        ::core::result::Result::Ok(Self { #(#members),* })
    };
    Decoder { body, defaulted }
}

/// After the object's `{`: each field's key and value in declaration
/// order, then its `}`, as straight-line code. Its value is `usize::MAX`
/// when the object is read whole, else how many fields were read before
/// the body differs (the rest is read by `Reader::members`, from there).
fn in_order(slots: &[Ident], readers: &[Ident]) -> TokenStream {
    let steps = readers
        .iter()
        .zip(slots)
        .enumerate()
        .map(|(index, (reader, slot))| {
            let first = index == 0;
            quote! {
                if !__reader.key(&__FIELDS[#index], #first) {
                    break 'in_order #index;
                }
                #slot = ::core::option::Option::Some(#reader(__reader)?);
            }
        });
    let count = readers.len();
    quote! {
        'in_order: {
            #(#steps)*
            if __reader.close_object() {
                break 'in_order ::core::primitive::usize::MAX;
            }
            #count
        }
    }
}

/// `let #reader = |reader| ..`: reads a field's value and checks it.
fn field_reader(info: &FieldInfo, reader: &Ident) -> TokenStream {
    let json = json();
    let ty = &info.ty;
    let value = if info.optional {
        // `#[optional] x: Option<T>`: a present property is a `T`.
        let inner = option_inner(&info.ty).unwrap_or(&info.ty);
        let read = read_value(inner);
        quote!(::core::option::Option::Some(#read?))
    } else {
        let read = read_value(&info.ty);
        quote!(#read?)
    };
    let check = check_tags(info, &quote!(__value));
    quote! {
        let #reader = |__reader: &mut #json::Reader<'_>|
            -> ::core::result::Result<#ty, #json::Refused> {
            let __value = #value;
            #check
            ::core::result::Result::Ok(__value)
        };
    }
}

/// The arm reading the field of `index` into `slot` with `reader`.
fn field_arm(index: usize, slot: &Ident, reader: &Ident) -> TokenStream {
    let json = json();
    quote! {
        #index => {
            if #slot.is_some() {
                return ::core::result::Result::Err(#json::Refused);
            }
            #slot = ::core::option::Option::Some(#reader(__reader)?);
            ::core::result::Result::Ok(())
        }
    }
}

/// A field's value once the object is read: what was read, or for an
/// absent property `None` (`#[optional]`), its default (checked, as
/// `is_valid` checks it), or a refusal.
fn finish(info: &FieldInfo, slot: &Ident) -> TokenStream {
    let json = json();
    if info.optional {
        return quote!(#slot.unwrap_or(::core::option::Option::None));
    }
    if info.serde_default.is_none() {
        return quote!(#slot.ok_or(#json::Refused)?);
    }
    let default = default_value(info);
    let check = info.check(&quote!(__checked));
    quote! {
        match #slot {
            ::core::option::Option::Some(__value) => __value,
            ::core::option::Option::None => {
                let __value = #default;
                let __checked = &__value;
                if !(#check) {
                    return ::core::result::Result::Err(#json::Refused);
                }
                __value
            }
        }
    }
}

/// The value serde gives a field it does not read: `default = "path"` or
/// `Default`.
fn default_value(info: &FieldInfo) -> TokenStream {
    match &info.serde_default {
        Some(Some(path)) => quote!(#path()),
        _ => quote!(::core::default::Default::default()),
    }
}

/// The body of a newtype's decoder: its field's, checked.
pub(super) fn for_newtype(info: &FieldInfo) -> Decoder {
    let read = read_value(&info.ty);
    let check = check_tags(info, &quote!(__value));
    Decoder::new(quote! {
        let __value = #read?;
        #check
        ::core::result::Result::Ok(Self(__value))
    })
}

/// The body of a string enum's decoder: `variants` are each unit
/// variant's name and wire name.
pub(super) fn for_string_enum(variants: &[(Ident, String)]) -> Decoder {
    let json = json();
    let arms = variants
        .iter()
        .map(|(ident, wire)| quote!(#wire => ::core::result::Result::Ok(Self::#ident),));
    Decoder::new(quote! {
        match &*__reader.string()? {
            #(#arms)*
            _ => ::core::result::Result::Err(#json::Refused),
        }
    })
}
