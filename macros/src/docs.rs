//! Doc comments, kept as route metadata.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of `///` comments, one leading space per line removed.
pub(crate) fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &nv.value
        {
            let value = text.value();
            for line in value.split('\n') {
                lines.push(line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned());
            }
        }
    }
    lines.join("\n").trim().to_owned()
}

/// Splits a doc text into its summary (first paragraph, on one line) and
/// the rest.
pub(crate) fn summary_and_description(text: &str) -> (String, String) {
    let (first, rest) = text.split_once("\n\n").unwrap_or((text, ""));
    let summary = first.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    (summary, rest.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_summary() {
        let (summary, description) = summary_and_description(
            "Update an article;\nneeds a password.\n\nAppends a snapshot.\n\nNever rewrites.",
        );
        assert_eq!(summary, "Update an article; needs a password.");
        assert_eq!(description, "Appends a snapshot.\n\nNever rewrites.");
        assert_eq!(summary_and_description(""), (String::new(), String::new()));
    }

    #[test]
    fn keeps_blank_doc_lines() {
        let attrs: Vec<syn::Attribute> = vec![
            syn::parse_quote!(#[doc = " Say hello."]),
            syn::parse_quote!(#[doc = ""]),
            syn::parse_quote!(#[doc = " Answers."]),
        ];
        assert_eq!(doc_text(&attrs), "Say hello.\n\nAnswers.");
    }
}
