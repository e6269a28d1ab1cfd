//! A `#[dto]` enum's parts, variant by variant: the arms of `is_valid`,
//! `write_json` and `json_len`, and the variants of its schema (a string
//! enum's values, or a union's variants in serde's representation).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{DataEnum, Fields, Ident, Variant};

use super::{
    Kind, TypeParts,
    field::FieldInfo,
    object_kind, read_fields, read_json,
    serde_attrs::{self, ContainerAttrs, MemberAttrs},
    write_json::{self, Held, Property, Repr, Writer},
};
use crate::docs;

/// The parts of the enum `data`: `is_valid`'s body, the schema's kind and
/// the JSON writer.
pub(super) fn enum_parts(
    data: &mut DataEnum,
    container: &ContainerAttrs,
    strict: bool,
) -> syn::Result<TypeParts> {
    let repr = union_repr(container)?;
    let all_unit = data
        .variants
        .iter()
        .all(|variant| matches!(variant.fields, Fields::Unit));
    let string_enum = all_unit && container.tag.is_none() && !container.untagged;
    let mut parts = Parts::new(wire_repr(container), strict);
    for variant in &mut data.variants {
        parts.variant(variant, container)?;
    }
    Ok(parts.finish(string_enum, repr))
}

/// The schema's `UnionRepr`, as serde reads the container's attributes.
fn union_repr(container: &ContainerAttrs) -> syn::Result<TokenStream> {
    Ok(
        match (&container.tag, &container.content, container.untagged) {
            (None, None, false) => quote!(::framework::__private::UnionRepr::External),
            (Some(tag), None, false) => quote!(::framework::__private::UnionRepr::Internal {
                tag: ::framework::__private::String::from(#tag),
            }),
            (Some(tag), Some(content), false) => {
                quote!(::framework::__private::UnionRepr::Adjacent {
                    tag: ::framework::__private::String::from(#tag),
                    content: ::framework::__private::String::from(#content),
                })
            }
            (None, None, true) => quote!(::framework::__private::UnionRepr::Untagged),
            _ => {
                return Err(syn::Error::new(
                    proc_macro2::Span::call_site(),
                    "use `tag`, `tag` with `content`, or `untagged`, as serde allows",
                ));
            }
        },
    )
}

/// The writer's representation (what [`union_repr`] has accepted).
fn wire_repr(container: &ContainerAttrs) -> Repr<'_> {
    match (&container.tag, &container.content, container.untagged) {
        (Some(tag), None, _) => Repr::Internal { tag },
        (Some(tag), Some(content), _) => Repr::Adjacent { tag, content },
        (None, _, true) => Repr::Untagged,
        (None, _, false) => Repr::External,
    }
}

/// What the variants give, gathered one variant at a time.
struct Parts<'a> {
    wire_repr: Repr<'a>,
    strict: bool,
    /// The arms of `is_valid`.
    checks: Vec<TokenStream>,
    write_arms: Vec<TokenStream>,
    len_arms: Vec<TokenStream>,
    /// A string enum's values.
    values: Vec<TokenStream>,
    /// A union's variants.
    variants: Vec<TokenStream>,
    /// The unit variants serde reads: name and wire name.
    units: Vec<(Ident, String)>,
}

/// One variant's names: in Rust, on the wire, and its doc.
struct Names {
    ident: Ident,
    wire: String,
    rust_name: String,
    doc: String,
    serde: MemberAttrs,
}

impl Names {
    fn read(variant: &Variant, container: &ContainerAttrs) -> syn::Result<Self> {
        let serde = serde_attrs::member(&variant.attrs)?;
        let ident = variant.ident.clone();
        let rust_name = ident.to_string();
        let wire = serde.rename.clone().unwrap_or_else(|| {
            container
                .rename_all
                .map_or_else(|| rust_name.clone(), |rule| rule.variant(&rust_name))
        });
        Ok(Names {
            ident,
            wire,
            rust_name,
            doc: docs::doc_text(&variant.attrs),
            serde,
        })
    }

    /// The schema's `VariantDef` of this variant, of kind `kind`.
    fn def(&self, kind: TokenStream) -> TokenStream {
        let Names {
            wire,
            rust_name,
            doc,
            ..
        } = self;
        quote! {
            ::framework::__private::VariantDef {
                name: ::framework::__private::String::from(#wire),
                rust_name: ::framework::__private::String::from(#rust_name),
                description: ::framework::__private::String::from(#doc),
                kind: #kind,
            }
        }
    }
}

impl<'a> Parts<'a> {
    fn new(wire_repr: Repr<'a>, strict: bool) -> Self {
        Parts {
            wire_repr,
            strict,
            checks: Vec::new(),
            write_arms: Vec::new(),
            len_arms: Vec::new(),
            values: Vec::new(),
            variants: Vec::new(),
            units: Vec::new(),
        }
    }

    fn variant(&mut self, variant: &mut Variant, container: &ContainerAttrs) -> syn::Result<()> {
        let names = Names::read(variant, container)?;
        match &mut variant.fields {
            Fields::Unit => self.unit(&names),
            fields @ Fields::Unnamed(_) => self.newtype(&names, fields)?,
            fields @ Fields::Named(_) => self.struct_variant(&names, fields)?,
        }
        Ok(())
    }

    /// The writer of a variant holding `held`; none for a skipped one.
    fn writer(&self, names: &Names, held: &Held<'_>) -> Option<Writer> {
        if names.serde.skip {
            return None;
        }
        write_json::for_variant(&self.wire_repr, &names.wire, held)
    }

    fn unit(&mut self, names: &Names) {
        let ident = &names.ident;
        self.checks.push(quote!(Self::#ident => true));
        let writer = self.writer(names, &Held::Unit);
        self.push_write_arm(quote!(Self::#ident), writer);
        if names.serde.skip {
            return;
        }
        self.units.push((ident.clone(), names.wire.clone()));
        let Names {
            wire,
            rust_name,
            doc,
            ..
        } = names;
        self.values.push(quote! {
            ::framework::__private::EnumValue {
                value: ::framework::__private::String::from(#wire),
                description: ::framework::__private::String::from(#doc),
                rust_name: ::framework::__private::String::from(#rust_name),
            }
        });
        self.variants
            .push(names.def(quote!(::framework::__private::VariantKind::Unit)));
    }

    fn newtype(&mut self, names: &Names, fields: &mut Fields) -> syn::Result<()> {
        if fields.len() != 1 {
            return Err(syn::Error::new_spanned(
                fields,
                "a `#[dto]` enum variant carries one value or named fields; use a struct variant",
            ));
        }
        let infos = read_fields(fields, None)?;
        let ident = &names.ident;
        let check = infos[0].check(&quote!(__value));
        self.checks.push(quote!(Self::#ident(__value) => #check));
        let writer = self.writer(names, &Held::Newtype);
        self.push_write_arm(quote!(Self::#ident(__value)), writer);
        if !names.serde.skip {
            let schema = infos[0].schema();
            self.variants
                .push(names.def(quote!(::framework::__private::VariantKind::Newtype(#schema))));
        }
        Ok(())
    }

    fn struct_variant(&mut self, names: &Names, fields: &mut Fields) -> syn::Result<()> {
        let infos = read_fields(fields, None)?;
        let ident = &names.ident;
        let bindings: Vec<_> = infos.iter().map(|info| &info.member).collect();
        let renamed: Vec<Ident> = (0..infos.len())
            .map(|index| format_ident!("__field{}", index))
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
        self.checks
            .push(quote!(Self::#ident { #(#bindings: #renamed),* } => #body));
        let written: Vec<(&FieldInfo, &Ident)> = infos
            .iter()
            .zip(&renamed)
            .filter(|(info, _)| !info.skip)
            .collect();
        let properties = written
            .iter()
            .map(|(info, name)| Property {
                info,
                value: quote!(#name),
            })
            .collect();
        let writer = self.writer(names, &Held::Struct(properties));
        let members = written.iter().map(|(info, _)| &info.member);
        let bound = written.iter().map(|(_, name)| name);
        self.push_write_arm(quote!(Self::#ident { #(#members: #bound,)* .. }), writer);
        if !names.serde.skip {
            let object = object_kind(&infos, self.strict);
            self.variants
                .push(names.def(quote!(::framework::__private::VariantKind::Struct(#object))));
        }
        Ok(())
    }

    /// The arms of `write_json` and `json_len` for one variant; a variant
    /// without a writer is left to serde (which also refuses what it
    /// refuses).
    fn push_write_arm(&mut self, pattern: TokenStream, writer: Option<Writer>) {
        match writer {
            Some(Writer { write, len }) => {
                self.write_arms
                    .push(quote!(#pattern => { #write ::core::result::Result::Ok(()) }));
                self.len_arms.push(quote!(#pattern => #len,));
            }
            None => {
                self.write_arms.push(quote! {
                    #[allow(unused_variables)]
                    #pattern => ::framework::__private::write_serde(self, __out),
                });
                self.len_arms.push(quote! {
                    #[allow(unused_variables)]
                    #pattern => 16,
                });
            }
        }
    }

    /// `is_valid`'s body, the schema's kind (a string enum's values, else
    /// a union in `repr`), the writer, and the decoder's body (a string
    /// enum's; unions are read by serde).
    fn finish(self, string_enum: bool, repr: TokenStream) -> TypeParts {
        let Parts {
            checks,
            write_arms,
            len_arms,
            values,
            variants,
            units,
            ..
        } = self;
        let read = string_enum.then(|| read_json::for_string_enum(&units));
        let is_valid = if checks.is_empty() {
            quote!(match *self {})
        } else {
            quote!(match self { #(#checks),* })
        };
        let writer = if write_arms.is_empty() {
            Writer {
                write: quote!(match *self {}),
                len: quote!(match *self {}),
            }
        } else {
            Writer {
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
        TypeParts {
            is_valid,
            kind: Kind::Named(kind),
            writer,
            read,
        }
    }
}
