//! The `#[serde(...)]` attributes a DTO may carry, read so that the schema
//! says what serde does. Attributes that would make the wire shape unknown
//! to the schema are refused with a message.

use syn::{Attribute, LitStr, spanned::Spanned};

use super::case::RenameRule;

/// Container attributes.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    pub(crate) rename: Option<String>,
    pub(crate) rename_all: Option<RenameRule>,
    pub(crate) tag: Option<String>,
    pub(crate) content: Option<String>,
    pub(crate) untagged: bool,
    pub(crate) deny_unknown_fields: bool,
    /// The user wrote `bound = "..."`: their bounds replace the ones
    /// `#[dto]` adds.
    pub(crate) bound: Option<LitStr>,
}

/// Field or variant attributes.
#[derive(Default)]
pub(crate) struct MemberAttrs {
    pub(crate) rename: Option<String>,
    /// `default` (None inside) or `default = "path"`.
    pub(crate) default: Option<Option<syn::ExprPath>>,
    pub(crate) skip: bool,
    /// `skip_serializing_if = "path"`: the property is absent from the
    /// output when `path(&value)` says so.
    pub(crate) skip_serializing_if: Option<syn::ExprPath>,
}

fn unsupported(span: proc_macro2::Span, what: &str) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "`#[serde({what})]` is not supported on a `#[dto]`: the schema could not say what it puts on the wire; \
             supported: rename, rename_all, tag, content, untagged, deny_unknown_fields, bound (types); \
             rename, default, skip, skip_serializing_if (fields and variants)"
        ),
    )
}

pub(crate) fn container(attrs: &[Attribute]) -> syn::Result<ContainerAttrs> {
    let mut out = ContainerAttrs::default();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
            match key.as_str() {
                "rename" => out.rename = Some(meta.value()?.parse::<LitStr>()?.value()),
                "rename_all" => {
                    let lit: LitStr = meta.value().and_then(|value| value.parse()).map_err(|_| {
                        syn::Error::new(meta.path.span(), "write `rename_all = \"snake_case\"` (one rule for both directions)")
                    })?;
                    out.rename_all = Some(RenameRule::from_name(&lit.value()).ok_or_else(|| {
                        syn::Error::new(
                            lit.span(),
                            "unknown rule; use lowercase, UPPERCASE, PascalCase, camelCase, snake_case, SCREAMING_SNAKE_CASE, kebab-case or SCREAMING-KEBAB-CASE",
                        )
                    })?);
                }
                "tag" => out.tag = Some(meta.value()?.parse::<LitStr>()?.value()),
                "content" => out.content = Some(meta.value()?.parse::<LitStr>()?.value()),
                "untagged" => out.untagged = true,
                "deny_unknown_fields" => out.deny_unknown_fields = true,
                "bound" => {
                    out.bound = Some(meta.value()?.parse::<LitStr>()?);
                }
                "crate" => {
                    return Err(syn::Error::new(meta.path.span(), "`#[dto]` sets `#[serde(crate)]` itself; remove it"));
                }
                _ => return Err(unsupported(meta.path.span(), &key)),
            }
            Ok(())
        })?;
    }
    Ok(out)
}

pub(crate) fn member(attrs: &[Attribute]) -> syn::Result<MemberAttrs> {
    let mut out = MemberAttrs::default();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match key.as_str() {
                "rename" => {
                    let lit: LitStr =
                        meta.value().and_then(|value| value.parse()).map_err(|_| {
                            syn::Error::new(
                                meta.path.span(),
                                "write `rename = \"name\"` (one name for both directions)",
                            )
                        })?;
                    out.rename = Some(lit.value());
                }
                "alias" => {
                    return Err(syn::Error::new(
                        meta.path.span(),
                        "`#[serde(alias)]` makes the server accept a name that OpenAPI and the SDKs \
                         do not know, so clients could not send it; keep one name (`rename = \"name\"`), \
                         or declare the old name as its own `#[optional]` field",
                    ));
                }
                "default" => {
                    if meta.input.peek(syn::Token![=]) {
                        let lit: LitStr = meta.value()?.parse()?;
                        out.default = Some(Some(lit.parse()?));
                    } else {
                        out.default = Some(None);
                    }
                }
                "skip" => out.skip = true,
                "skip_serializing_if" => {
                    let lit: LitStr = meta.value()?.parse()?;
                    out.skip_serializing_if = Some(lit.parse()?);
                }
                _ => return Err(unsupported(meta.path.span(), &key)),
            }
            Ok(())
        })?;
    }
    Ok(out)
}
