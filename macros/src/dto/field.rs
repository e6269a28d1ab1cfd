//! One field of a DTO: its wire name, its checks, its schema entry, and the
//! serde attributes that give it its presence rules.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Field, GenericArgument, PathArguments, Type};

use super::{case::RenameRule, serde_attrs, tags::Tags};
use crate::docs;

/// `Option<T>` -> `T`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    single_generic(ty, &["Option"])
}

/// `Vec<T>`, `VecDeque<T>`, `[T]`, `HashSet<T>`, `BTreeSet<T>` -> `T`.
pub(crate) fn element(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Slice(slice) => Some(&slice.elem),
        Type::Array(array) => Some(&array.elem),
        Type::Reference(reference) => element(&reference.elem),
        other => single_generic(other, &["Vec", "VecDeque", "HashSet", "BTreeSet"]),
    }
}

fn single_generic<'a>(ty: &'a Type, names: &[&str]) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if !names.iter().any(|name| last.ident == name) {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(inner)) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// The tag checks of `value` (a reference to a `ty`), through any `Option`
/// layers: `None` passes, `Some` is checked.
pub(crate) fn peeled_check(value: &TokenStream, ty: Option<&Type>, tags: &Tags) -> TokenStream {
    peeled(value, ty, tags, 0)
}

fn peeled(value: &TokenStream, ty: Option<&Type>, tags: &Tags, depth: usize) -> TokenStream {
    if let Some(inner) = ty.and_then(option_inner) {
        let binding = format_ident!("__some{}", depth);
        let body = peeled(&quote!(#binding), Some(inner), tags, depth + 1);
        return quote! {
            match #value {
                ::core::option::Option::Some(#binding) => #body,
                ::core::option::Option::None => true,
            }
        };
    }
    let element = ty.and_then(element);
    let checks = tags.check(value, element);
    if checks.is_empty() {
        quote!(true)
    } else {
        quote!(#(#checks)&&*)
    }
}

/// What the macro knows of one field.
pub(crate) struct FieldInfo {
    /// The Rust name (or index of a tuple field).
    pub(crate) member: syn::Member,
    pub(crate) ty: Type,
    pub(crate) wire: String,
    pub(crate) tags: Tags,
    pub(crate) optional: bool,
    pub(crate) serde_default: Option<Option<syn::ExprPath>>,
    pub(crate) skip: bool,
    /// `#[serde(skip_serializing_if = "...")]`.
    pub(crate) skip_serializing_if: Option<syn::ExprPath>,
    pub(crate) doc: String,
}

impl FieldInfo {
    /// Reads a field and strips the attributes only `#[dto]` understands.
    pub(crate) fn read(
        field: &mut Field,
        index: usize,
        rule: Option<RenameRule>,
    ) -> syn::Result<FieldInfo> {
        let tags = Tags::parse(&field.attrs)?;
        let optional_attr = field
            .attrs
            .iter()
            .find(|attr| attr.path().is_ident("optional"))
            .cloned();
        field
            .attrs
            .retain(|attr| !attr.path().is_ident("tags") && !attr.path().is_ident("optional"));
        let serde = serde_attrs::member(&field.attrs)?;
        let member = match &field.ident {
            Some(ident) => syn::Member::Named(ident.clone()),
            None => syn::Member::Unnamed(index.into()),
        };
        let rust_name = field
            .ident
            .as_ref()
            .map(|ident| ident.to_string().trim_start_matches("r#").to_owned())
            .unwrap_or_default();
        let wire = serde.rename.clone().unwrap_or_else(|| {
            rule.map_or_else(|| rust_name.clone(), |rule| rule.field(&rust_name))
        });
        if let Some(attr) = &optional_attr {
            if option_inner(&field.ty).is_none() {
                return Err(syn::Error::new_spanned(
                    &field.ty,
                    "an `#[optional]` field is an `Option<T>`: absent is `None`; for `T | null` that may be absent write `Option<Option<T>>`",
                ));
            }
            if serde.default.is_some() {
                return Err(syn::Error::new_spanned(
                    attr,
                    "`#[optional]` already defaults to `None`; remove `#[serde(default)]`",
                ));
            }
        }
        Ok(FieldInfo {
            member,
            ty: field.ty.clone(),
            wire,
            tags,
            optional: optional_attr.is_some(),
            serde_default: serde.default,
            skip: serde.skip,
            skip_serializing_if: serde.skip_serializing_if,
            doc: docs::doc_text(&field.attrs),
        })
    }

    /// serde attributes that make presence and `null` behave as documented.
    pub(crate) fn serde_attrs(&self) -> Option<TokenStream> {
        if self.skip {
            return None;
        }
        if self.optional {
            return Some(quote! {
                #[serde(
                    default,
                    skip_serializing_if = "::core::option::Option::is_none",
                    deserialize_with = "::framework::__private::present"
                )]
            });
        }
        if self.serde_default.is_none() && option_inner(&self.ty).is_some() {
            return Some(
                quote! { #[serde(deserialize_with = "::framework::__private::nullable")] },
            );
        }
        None
    }

    /// The type the schema describes: without the `Option` of `#[optional]`.
    fn schema_ty(&self) -> &Type {
        if self.optional {
            option_inner(&self.ty).unwrap_or(&self.ty)
        } else {
            &self.ty
        }
    }

    /// The fast check of this field, given a reference to it in `value`.
    pub(crate) fn check(&self, value: &TokenStream) -> TokenStream {
        if self.skip {
            return quote!(true);
        }
        let ty = &self.ty;
        let tags = if self.tags.constrains() {
            let peeled = peeled_check(value, Some(ty), &self.tags);
            quote!(&& #peeled)
        } else {
            TokenStream::new()
        };
        quote! { <#ty as ::framework::Validate>::is_valid(#value) #tags }
    }

    /// The schema of the field's value, with its tags.
    pub(crate) fn schema(&self) -> TokenStream {
        let ty = self.schema_ty();
        let tags = self.tags.schema_tags();
        quote! {
            ::framework::__private::apply_tags(
                <#ty as ::framework::__private::ToSchema>::schema(registry),
                &[#(#tags),*],
            )
        }
    }

    /// The `FieldDef` of this field, or nothing when serde skips it.
    pub(crate) fn def(&self) -> Option<TokenStream> {
        if self.skip {
            return None;
        }
        let wire = &self.wire;
        let schema = self.schema();
        let required = !self.optional && self.serde_default.is_none();
        let always_present = !self.optional && self.skip_serializing_if.is_none();
        let description = &self.doc;
        let schema_ty = self.schema_ty();
        let json = quote!(::framework::__private::serde_json);
        let default = match (&self.tags.default, &self.serde_default) {
            (Some(literal), _) => quote!(::core::option::Option::Some(#json::json!(#literal))),
            // Documented where the type can be serialized (see
            // `framework::schema::DefaultOf`).
            (None, Some(Some(path))) => {
                let ty = &self.ty;
                quote! {{
                    use ::framework::__private::{Serialized as _, Undocumented as _};
                    (&::framework::__private::DefaultOf::<#ty>::NEW).json(|| #path())
                }}
            }
            (None, Some(None)) => quote! {{
                use ::framework::__private::{SerializedDefault as _, Undocumented as _};
                (&::framework::__private::DefaultOf::<#schema_ty>::NEW).default_json()
            }},
            (None, None) => quote!(::core::option::Option::None),
        };
        let example = match &self.tags.example {
            Some(literal) => quote!(::core::option::Option::Some(#json::json!(#literal))),
            None => quote!(::core::option::Option::None),
        };
        let server_check = match &self.tags.check {
            Some(path) => {
                let name = quote!(#path).to_string().replace(' ', "");
                quote!(::core::option::Option::Some(::framework::__private::String::from(#name)))
            }
            None => quote!(::core::option::Option::None),
        };
        let check = match &self.tags.check {
            Some(path) => {
                let mut checked = schema_ty;
                while let Some(inner) = option_inner(checked) {
                    checked = inner;
                }
                let name = quote!(#path).to_string().replace(' ', "");
                quote! {
                    ::core::option::Option::Some(::framework::__private::CustomCheck {
                        name: #name,
                        run: |value| ::framework::__private::run_check::<#checked>(value, #path),
                    })
                }
            }
            None => quote!(::core::option::Option::None),
        };
        Some(quote! {
            ::framework::__private::FieldDef {
                name: ::framework::__private::String::from(#wire),
                schema: #schema,
                required: #required,
                always_present: #always_present,
                description: ::framework::__private::String::from(#description),
                default: #default,
                example: #example,
                check: #check,
                server_check: #server_check,
            }
        })
    }
}
