//! `#[dto]`: one declaration gives serde, a schema, generated constraint
//! checks and (through the schema) random values.

mod case;
pub(crate) mod field;
mod serde_attrs;
mod serde_impl;
pub(crate) mod tags;
mod write_json;

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, GenericParam, Generics, Ident};

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
    let name = input.ident.clone();
    let display = container.rename.clone().unwrap_or_else(|| name.to_string());
    let doc = docs::doc_text(&input.attrs);

    let shape = serde_impl::shape(&input.data, &container);
    let (is_valid, kind, writer) = match &mut input.data {
        Data::Struct(data) => struct_parts(&mut data.fields, &container, strict)?,
        Data::Enum(data) => enum_parts(data, &container, strict)?,
        Data::Union(data) => {
            return Err(syn::Error::new_spanned(
                data.union_token,
                "`#[dto]` goes on a struct or an enum; unions have no JSON form",
            ));
        }
    };

    let validate_impl = {
        let generics = with_bound(&input.generics, quote!(::framework::Validate));
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        quote! {
            #[automatically_derived]
            impl #impl_generics ::framework::Validate for #name #ty_generics #where_clause {
                #[inline]
                fn is_valid(&self) -> bool {
                    #is_valid
                }
            }
        }
    };
    let schema_impl = {
        let generics = with_bound(
            &input.generics,
            quote!(::framework::__private::ToSchema + 'static),
        );
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        let body = match kind {
            Kind::Transparent(schema) => schema,
            Kind::Named(kind) => {
                let params: Vec<&Ident> = input
                    .generics
                    .params
                    .iter()
                    .filter_map(|param| match param {
                        GenericParam::Type(ty) => Some(&ty.ident),
                        _ => None,
                    })
                    .collect();
                let label = if params.is_empty() {
                    quote!(::framework::__private::String::from(#display))
                } else {
                    quote! {{
                        let arguments: ::framework::__private::Vec<::framework::__private::String> = ::std::vec![
                            #(::framework::__private::type_label(
                                &<#params as ::framework::__private::ToSchema>::schema(registry),
                                registry,
                            )),*
                        ];
                        ::std::format!("{}<{}>", #display, arguments.join(", "))
                    }}
                };
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
    };
    let write_impl = {
        let generics = with_bound(&input.generics, quote!(::framework::WriteJson));
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        let write_json::Writer { write, len } = writer;
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
    };
    let answer_impl = answer_impl(&name, &input.generics);
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
        #schema_impl
        #write_impl
        #answer_impl
        #serde_impls
    })
}

/// A DTO answers JSON: `impl IntoResponse`. The bound is on `Self`, so a
/// generic DTO needs no bound of its own (and a `#[serde(bound = ..)]` is
/// respected).
fn answer_impl(name: &Ident, generics: &Generics) -> TokenStream {
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

/// serde infers no bounds for fields read with `deserialize_with` (as
/// `Option` fields are), so generic DTOs state them: every type parameter
/// is serializable and deserializable.
fn serde_bounds(generics: &Generics, user_bound: bool) -> Option<TokenStream> {
    let params: Vec<&Ident> = generics
        .params
        .iter()
        .filter_map(|param| match param {
            GenericParam::Type(ty) => Some(&ty.ident),
            _ => None,
        })
        .collect();
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

/// The schema a type describes itself with.
enum Kind {
    /// A newtype struct: exactly its field's schema.
    Transparent(TokenStream),
    /// A named type: the `TypeKind` of its definition.
    Named(TokenStream),
}

fn with_bound(generics: &Generics, bound: TokenStream) -> Generics {
    let mut generics = generics.clone();
    let params: Vec<Ident> = generics
        .params
        .iter()
        .filter_map(|param| match param {
            GenericParam::Type(ty) => Some(ty.ident.clone()),
            _ => None,
        })
        .collect();
    let where_clause = generics.make_where_clause();
    for param in params {
        where_clause
            .predicates
            .push(syn::parse_quote!(#param: #bound));
    }
    generics
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
) -> syn::Result<(TokenStream, Kind, write_json::Writer)> {
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
            Ok((
                is_valid,
                Kind::Named(quote!(::framework::__private::TypeKind::Object(#object))),
                write_json::for_struct(&infos),
            ))
        }
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
            let infos = read_fields(fields, None)?;
            let info = &infos[0];
            let check = info.check(&quote!(__value));
            let is_valid = quote! {({ let __value = &self.0; #check })};
            Ok((
                is_valid,
                Kind::Transparent(info.schema()),
                write_json::for_newtype(),
            ))
        }
        other => Err(syn::Error::new_spanned(
            other,
            "a `#[dto]` struct has named fields, or is a newtype `struct Name(T);`",
        )),
    }
}

fn enum_parts(
    data: &mut syn::DataEnum,
    container: &ContainerAttrs,
    strict: bool,
) -> syn::Result<(TokenStream, Kind, write_json::Writer)> {
    let repr = match (&container.tag, &container.content, container.untagged) {
        (None, None, false) => quote!(::framework::__private::UnionRepr::External),
        (Some(tag), None, false) => quote!(::framework::__private::UnionRepr::Internal {
            tag: ::framework::__private::String::from(#tag),
        }),
        (Some(tag), Some(content), false) => quote!(::framework::__private::UnionRepr::Adjacent {
            tag: ::framework::__private::String::from(#tag),
            content: ::framework::__private::String::from(#content),
        }),
        (None, None, true) => quote!(::framework::__private::UnionRepr::Untagged),
        _ => {
            return Err(syn::Error::new(
                proc_macro2::Span::call_site(),
                "use `tag`, `tag` with `content`, or `untagged`, as serde allows",
            ));
        }
    };
    let all_unit = data
        .variants
        .iter()
        .all(|variant| matches!(variant.fields, Fields::Unit));
    let string_enum = all_unit && container.tag.is_none() && !container.untagged;
    let wire_repr = match (&container.tag, &container.content, container.untagged) {
        (Some(tag), None, _) => write_json::Repr::Internal { tag },
        (Some(tag), Some(content), _) => write_json::Repr::Adjacent { tag, content },
        (None, _, true) => write_json::Repr::Untagged,
        (None, _, false) => write_json::Repr::External,
    };
    let mut write_arms = Vec::new();
    let mut len_arms = Vec::new();

    let mut arms = Vec::new();
    let mut values = Vec::new();
    let mut variants = Vec::new();
    for variant in &mut data.variants {
        let serde = serde_attrs::member(&variant.attrs)?;
        let ident = variant.ident.clone();
        let wire = serde.rename.clone().unwrap_or_else(|| {
            let name = ident.to_string();
            container
                .rename_all
                .map_or_else(|| name.clone(), |rule| rule.variant(&name))
        });
        let doc = docs::doc_text(&variant.attrs);
        let rust_name = ident.to_string();
        match &mut variant.fields {
            Fields::Unit => {
                arms.push(quote!(Self::#ident => true));
                let writer = if serde.skip {
                    None
                } else {
                    write_json::for_variant(&wire_repr, &wire, &write_json::Held::Unit)
                };
                push_write_arm(
                    (&mut write_arms, &mut len_arms),
                    quote!(Self::#ident),
                    writer,
                );
                if !serde.skip {
                    values.push(quote! {
                        ::framework::__private::EnumValue {
                            value: ::framework::__private::String::from(#wire),
                            description: ::framework::__private::String::from(#doc),
                            rust_name: ::framework::__private::String::from(#rust_name),
                        }
                    });
                    variants.push(variant_def(
                        &wire,
                        &rust_name,
                        &doc,
                        quote!(::framework::__private::VariantKind::Unit),
                    ));
                }
            }
            fields @ Fields::Unnamed(_) => {
                if fields.len() != 1 {
                    return Err(syn::Error::new_spanned(
                        fields,
                        "a `#[dto]` enum variant carries one value or named fields; use a struct variant",
                    ));
                }
                let infos = read_fields(fields, None)?;
                let check = infos[0].check(&quote!(__value));
                arms.push(quote!(Self::#ident(__value) => #check));
                let writer = if serde.skip {
                    None
                } else {
                    write_json::for_variant(&wire_repr, &wire, &write_json::Held::Newtype)
                };
                push_write_arm(
                    (&mut write_arms, &mut len_arms),
                    quote!(Self::#ident(__value)),
                    writer,
                );
                if !serde.skip {
                    let schema = infos[0].schema();
                    variants.push(variant_def(
                        &wire,
                        &rust_name,
                        &doc,
                        quote!(::framework::__private::VariantKind::Newtype(#schema)),
                    ));
                }
            }
            fields @ Fields::Named(_) => {
                let infos = read_fields(fields, None)?;
                let bindings: Vec<_> = infos.iter().map(|info| &info.member).collect();
                let renamed: Vec<Ident> = (0..infos.len())
                    .map(|index| quote::format_ident!("__field{}", index))
                    .collect();
                let checks: Vec<TokenStream> = infos
                    .iter()
                    .zip(&renamed)
                    .map(|(info, name)| info.check(&quote!(#name)))
                    .collect();
                let body = if checks.is_empty() {
                    quote!(true)
                } else {
                    quote!(#(#checks)&&*)
                };
                arms.push(quote!(Self::#ident { #(#bindings: #renamed),* } => #body));
                let written: Vec<(&FieldInfo, &Ident)> = infos
                    .iter()
                    .zip(&renamed)
                    .filter(|(info, _)| !info.skip)
                    .collect();
                let properties = written
                    .iter()
                    .map(|(info, name)| write_json::Property {
                        info,
                        value: quote!(#name),
                    })
                    .collect();
                let writer = if serde.skip {
                    None
                } else {
                    write_json::for_variant(
                        &wire_repr,
                        &wire,
                        &write_json::Held::Struct(properties),
                    )
                };
                let members = written.iter().map(|(info, _)| &info.member);
                let names = written.iter().map(|(_, name)| name);
                push_write_arm(
                    (&mut write_arms, &mut len_arms),
                    quote!(Self::#ident { #(#members: #names,)* .. }),
                    writer,
                );
                if !serde.skip {
                    let object = object_kind(&infos, strict);
                    variants.push(variant_def(
                        &wire,
                        &rust_name,
                        &doc,
                        quote!(::framework::__private::VariantKind::Struct(#object)),
                    ));
                }
            }
        }
    }
    let is_valid = if arms.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(#arms),* })
    };
    let writer = if write_arms.is_empty() {
        write_json::Writer {
            write: quote!(match *self {}),
            len: quote!(match *self {}),
        }
    } else {
        write_json::Writer {
            write: quote!(match self { #(#write_arms)* }),
            len: quote!(match self { #(#len_arms)* }),
        }
    };
    let kind = if string_enum {
        quote!(::framework::__private::TypeKind::StringEnum(
            ::std::vec![#(#values),*]
        ))
    } else {
        quote! {
            ::framework::__private::TypeKind::Union(::framework::__private::UnionDef {
                repr: #repr,
                variants: ::std::vec![#(#variants),*],
            })
        }
    };
    Ok((is_valid, Kind::Named(kind), writer))
}

/// The arms of `write_json` and `json_len` for one variant; a variant
/// without a writer is left to serde (which also refuses what it refuses).
fn push_write_arm(
    (write_arms, len_arms): (&mut Vec<TokenStream>, &mut Vec<TokenStream>),
    pattern: TokenStream,
    writer: Option<write_json::Writer>,
) {
    match writer {
        Some(write_json::Writer { write, len }) => {
            write_arms.push(quote!(#pattern => { #write ::core::result::Result::Ok(()) }));
            len_arms.push(quote!(#pattern => #len,));
        }
        None => {
            write_arms.push(quote! {
                #[allow(unused_variables)]
                #pattern => ::framework::__private::write_serde(self, __out),
            });
            len_arms.push(quote! {
                #[allow(unused_variables)]
                #pattern => 16,
            });
        }
    }
}

fn variant_def(wire: &str, rust_name: &str, doc: &str, kind: TokenStream) -> TokenStream {
    quote! {
        ::framework::__private::VariantDef {
            name: ::framework::__private::String::from(#wire),
            rust_name: ::framework::__private::String::from(#rust_name),
            description: ::framework::__private::String::from(#doc),
            kind: #kind,
        }
    }
}
