//! `#[tags(...)]`: typia's constraint vocabulary on a field.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{
    Attribute, Expr, ExprLit, ExprPath, ExprUnary, Lit, LitStr, UnOp, meta::ParseNestedMeta,
    spanned::Spanned,
};

const FORMATS: [(&str, &str); 16] = [
    ("uuid", "Uuid"),
    ("email", "Email"),
    ("hostname", "Hostname"),
    ("ipv4", "Ipv4"),
    ("ipv6", "Ipv6"),
    ("uri", "Uri"),
    ("url", "Url"),
    ("uri-reference", "UriReference"),
    ("date-time", "DateTime"),
    ("date", "Date"),
    ("time", "Time"),
    ("duration", "Duration"),
    ("byte", "Byte"),
    ("password", "Password"),
    ("regex", "Regex"),
    ("json-pointer", "JsonPointer"),
];

/// The tags of one value.
#[derive(Clone, Default)]
pub(crate) struct Tags {
    pub(crate) span: Option<Span>,
    format: Option<(syn::Ident, Span)>,
    min_length: Option<(u64, Span)>,
    max_length: Option<(u64, Span)>,
    pattern: Option<LitStr>,
    minimum: Option<(f64, Span)>,
    maximum: Option<(f64, Span)>,
    exclusive_minimum: Option<(f64, Span)>,
    exclusive_maximum: Option<(f64, Span)>,
    multiple_of: Option<(f64, Span)>,
    min_items: Option<(u64, Span)>,
    max_items: Option<(u64, Span)>,
    unique_items: Option<Span>,
    max_size: Option<(u64, Span)>,
    accept: Option<(Vec<String>, Span)>,
    pub(crate) items: Option<Box<Tags>>,
    pub(crate) default: Option<Expr>,
    pub(crate) example: Option<Expr>,
    pub(crate) check: Option<ExprPath>,
}

impl Tags {
    /// Whether any tag constrains the value (documentation tags do not).
    pub(crate) fn constrains(&self) -> bool {
        self.format.is_some()
            || self.min_length.is_some()
            || self.max_length.is_some()
            || self.pattern.is_some()
            || self.has_bounds()
            || self.min_items.is_some()
            || self.max_items.is_some()
            || self.unique_items.is_some()
            || self.max_size.is_some()
            || self.accept.is_some()
            || self.items.as_ref().is_some_and(|items| items.constrains())
            || self.check.is_some()
    }

    fn has_bounds(&self) -> bool {
        self.minimum.is_some()
            || self.maximum.is_some()
            || self.exclusive_minimum.is_some()
            || self.exclusive_maximum.is_some()
            || self.multiple_of.is_some()
    }

    /// Reads every `#[tags(...)]` attribute of a field.
    pub(crate) fn parse(attrs: &[Attribute]) -> syn::Result<Tags> {
        let mut tags = Tags::default();
        for attr in attrs.iter().filter(|attr| attr.path().is_ident("tags")) {
            tags.span = Some(attr.span());
            attr.parse_nested_meta(|meta| tags.entry(&meta))?;
        }
        tags.check_consistency()?;
        Ok(tags)
    }

    fn entry(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        let span = meta.path.span();
        match key.as_str() {
            "format" => self.format = Some(format(meta)?),
            "min_length" => self.min_length = Some((count(meta)?, span)),
            "max_length" => self.max_length = Some((count(meta)?, span)),
            "pattern" => {
                let lit: LitStr = meta.value()?.parse()?;
                check_pattern(&lit)?;
                self.pattern = Some(lit);
            }
            "minimum" => self.minimum = Some((number(meta)?, span)),
            "maximum" => self.maximum = Some((number(meta)?, span)),
            "exclusive_minimum" => self.exclusive_minimum = Some((number(meta)?, span)),
            "exclusive_maximum" => self.exclusive_maximum = Some((number(meta)?, span)),
            "multiple_of" => self.multiple_of = Some((multiple_of(meta)?, span)),
            "min_items" => self.min_items = Some((count(meta)?, span)),
            "max_items" => self.max_items = Some((count(meta)?, span)),
            "unique_items" => self.unique_items = Some(span),
            "max_size" => self.max_size = Some((count(meta)?, span)),
            "accept" => self.accept = Some((media_types(meta)?, span)),
            "items" => self.items = Some(Box::new(Tags::items(meta, span)?)),
            "default" => self.default = Some(literal(meta)?),
            "example" => self.example = Some(literal(meta)?),
            "check" => self.check = Some(meta.value()?.parse()?),
            _ => {
                return Err(syn::Error::new(
                    span,
                    format!(
                        "unknown tag `{key}`; tags are format, min_length, max_length, pattern, minimum, maximum, \
                         exclusive_minimum, exclusive_maximum, multiple_of, min_items, max_items, unique_items, \
                         items(...), max_size, accept, default, example, check"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `items(...)`: the tags of an array's items.
    fn items(meta: &ParseNestedMeta<'_>, span: Span) -> syn::Result<Tags> {
        let mut items = Tags {
            span: Some(span),
            ..Tags::default()
        };
        meta.parse_nested_meta(|inner| items.entry(&inner))?;
        items.check_consistency()?;
        Ok(items)
    }

    fn check_consistency(&self) -> syn::Result<()> {
        if let (Some((min, _)), Some((max, span))) = (self.min_length, self.max_length)
            && min > max
        {
            return Err(syn::Error::new(
                span,
                format!(
                    "`max_length = {max}` is below `min_length = {min}`, so no string fits; \
                     write `max_length = {min}` or more, or lower `min_length`"
                ),
            ));
        }
        if let (Some((min, _)), Some((max, span))) = (self.min_items, self.max_items)
            && min > max
        {
            return Err(syn::Error::new(
                span,
                format!(
                    "`max_items = {max}` is below `min_items = {min}`, so no array fits; \
                     write `max_items = {min}` or more, or lower `min_items`"
                ),
            ));
        }
        self.check_bounds()
    }

    /// The upper bound's span when the bounds leave numbers but no integer
    /// (`minimum = 1.2, maximum = 1.8`): an integer field with them could
    /// never be valid.
    fn integer_free_span(&self) -> Option<Span> {
        let lowest = match (self.minimum, self.exclusive_minimum) {
            (None, None) => None,
            (min, xmin) => Some(
                min.map_or(f64::NEG_INFINITY, |(low, _)| low.ceil())
                    .max(xmin.map_or(f64::NEG_INFINITY, |(low, _)| low.floor() + 1.0)),
            ),
        };
        let highest = match (self.maximum, self.exclusive_maximum) {
            (None, None) => None,
            (max, xmax) => Some(
                max.map_or(f64::INFINITY, |(high, _)| high.floor())
                    .min(xmax.map_or(f64::INFINITY, |(high, _)| high.ceil() - 1.0)),
            ),
        };
        let (Some(lowest), Some(highest)) = (lowest, highest) else {
            return None;
        };
        let span = self
            .maximum
            .or(self.exclusive_maximum)
            .map(|(_, span)| span);
        (lowest > highest).then_some(span).flatten()
    }

    /// Number bounds that leave no number: `minimum > maximum`, exclusive
    /// bounds that meet, or no multiple of `multiple_of` between them.
    /// Reported at the upper bound (or `multiple_of`), saying what to write.
    fn check_bounds(&self) -> syn::Result<()> {
        // The lower and upper bound, each with whether it is exclusive.
        let lower = match (self.minimum, self.exclusive_minimum) {
            (Some(a), Some(b)) if b.0 >= a.0 => Some((b, true)),
            (Some(a), _) => Some((a, false)),
            (None, b) => b.map(|b| (b, true)),
        };
        let upper = match (self.maximum, self.exclusive_maximum) {
            (Some(a), Some(b)) if b.0 <= a.0 => Some((b, true)),
            (Some(a), _) => Some((a, false)),
            (None, b) => b.map(|b| (b, true)),
        };
        let name = |exclusive: bool, side: &str| {
            if exclusive {
                format!("exclusive_{side}")
            } else {
                side.to_owned()
            }
        };
        if let (Some(((low, _), low_open)), Some(((high, span), high_open))) = (lower, upper) {
            let (low_name, high_name) = (name(low_open, "minimum"), name(high_open, "maximum"));
            if low > high {
                return Err(syn::Error::new(
                    span,
                    format!(
                        "`{high_name} = {high}` is below `{low_name} = {low}`, so no value fits; \
                         write a `{high_name}` of at least {low}, or swap the bounds"
                    ),
                ));
            }
            if low == high && (low_open || high_open) {
                return Err(syn::Error::new(
                    span,
                    format!(
                        "`{low_name} = {low}` and `{high_name} = {high}` leave no value; \
                         to allow only {low}, write `minimum = {low}, maximum = {high}`"
                    ),
                ));
            }
            if let Some((step, step_span)) = self.multiple_of {
                let bound = |value, open, name| Bound { value, open, name };
                no_multiple_between(
                    (step, step_span),
                    bound(low, low_open, &low_name),
                    bound(high, high_open, &high_name),
                )?;
            }
        }
        Ok(())
    }

    /// The fast check of a value bound to `value` (a reference), whose type
    /// is `ty` with `Option`s already peeled by the caller.
    pub(crate) fn check(
        &self,
        value: &TokenStream,
        element: Option<&syn::Type>,
    ) -> Vec<TokenStream> {
        let mut checks = self.string_checks(value);
        checks.extend(self.number_checks(value));
        checks.extend(self.collection_checks(value, element));
        if let Some(check) = &self.check {
            checks.push(quote_spanned! {check.span()=> ::framework::__private::tags::custom(#value, #check) });
        }
        checks
    }

    /// The checks of a string's tags.
    fn string_checks(&self, value: &TokenStream) -> Vec<TokenStream> {
        let mut checks = Vec::new();
        if let Some((variant, span)) = &self.format {
            checks.push(quote_spanned! {*span=> ::framework::__private::tags::format(#value, ::framework::__private::Format::#variant) });
        }
        if let Some((n, span)) = self.min_length {
            checks.push(
                quote_spanned! {span=> ::framework::__private::tags::min_length(#value, #n) },
            );
        }
        if let Some((n, span)) = self.max_length {
            checks.push(
                quote_spanned! {span=> ::framework::__private::tags::max_length(#value, #n) },
            );
        }
        if let Some(pattern) = &self.pattern {
            checks.push(quote_spanned! {pattern.span()=> {
                static __PATTERN: ::framework::__private::LazyLock<::framework::__private::Regex> =
                    ::framework::__private::LazyLock::new(|| ::framework::__private::tags::regex(#pattern));
                ::framework::__private::tags::pattern(#value, &__PATTERN)
            }});
        }
        checks
    }

    /// The checks of a number's bounds.
    fn number_checks(&self, value: &TokenStream) -> Vec<TokenStream> {
        let mut checks = Vec::new();
        if self.has_bounds() {
            let span = [
                self.minimum,
                self.maximum,
                self.exclusive_minimum,
                self.exclusive_maximum,
                self.multiple_of,
            ]
            .into_iter()
            .flatten()
            .map(|(_, span)| span)
            .next()
            .unwrap_or_else(Span::call_site);
            let bounds = self.bounds_tokens();
            checks.push(
                quote_spanned! {span=> ::framework::__private::tags::bounds(#value, &#bounds) },
            );
            if let Some(span) = self.integer_free_span() {
                // Only a non-integer type compiles here: the error is at the
                // upper bound, worded by `FractionalNumber`.
                checks.push(
                    quote_spanned! {span=> ::framework::__private::tags::fractional_bounds(#value) },
                );
            }
        }
        checks
    }

    /// The checks of an array's, a set's or a file's tags, and of its
    /// items' own.
    fn collection_checks(
        &self,
        value: &TokenStream,
        element: Option<&syn::Type>,
    ) -> Vec<TokenStream> {
        let mut checks = Vec::new();
        if let Some((n, span)) = self.min_items {
            checks
                .push(quote_spanned! {span=> ::framework::__private::tags::min_items(#value, #n) });
        }
        if let Some((n, span)) = self.max_items {
            checks
                .push(quote_spanned! {span=> ::framework::__private::tags::max_items(#value, #n) });
        }
        if let Some(span) = self.unique_items {
            checks
                .push(quote_spanned! {span=> ::framework::__private::tags::unique_items(#value) });
        }
        if let Some((n, span)) = self.max_size {
            checks
                .push(quote_spanned! {span=> ::framework::__private::tags::max_size(#value, #n) });
        }
        if let Some((types, span)) = &self.accept {
            checks.push(
                quote_spanned! {*span=> ::framework::__private::tags::accept(#value, &[#(#types),*]) },
            );
        }
        if let Some(items) = &self.items
            && items.constrains()
        {
            let item = quote!(__item);
            let inner = super::field::peeled_check(&item, element, items);
            let span = items.span.unwrap_or_else(Span::call_site);
            checks.push(quote_spanned! {span=> ::framework::__private::tags::all_items(#value, |#item| #inner) });
        }
        checks
    }

    fn bounds_tokens(&self) -> TokenStream {
        let field = |value: Option<(f64, Span)>| match value {
            Some((n, _)) => {
                let n = Literal::f64_suffixed(n);
                quote!(::core::option::Option::Some(#n))
            }
            None => quote!(::core::option::Option::None),
        };
        let (minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of) = (
            field(self.minimum),
            field(self.maximum),
            field(self.exclusive_minimum),
            field(self.exclusive_maximum),
            field(self.multiple_of),
        );
        quote! {
            ::framework::__private::Bounds {
                minimum: #minimum,
                maximum: #maximum,
                exclusive_minimum: #exclusive_minimum,
                exclusive_maximum: #exclusive_maximum,
                multiple_of: #multiple_of,
            }
        }
    }

    /// The `Tag` values for the schema.
    pub(crate) fn schema_tags(&self) -> Vec<TokenStream> {
        let tag = quote!(::framework::__private::Tag);
        let mut out = Vec::new();
        if let Some((variant, _)) = &self.format {
            out.push(quote!(#tag::Format(::framework::__private::Format::#variant)));
        }
        if let Some((n, _)) = self.min_length {
            out.push(quote!(#tag::MinLength(#n)));
        }
        if let Some((n, _)) = self.max_length {
            out.push(quote!(#tag::MaxLength(#n)));
        }
        if let Some(pattern) = &self.pattern {
            out.push(quote!(#tag::Pattern(#pattern)));
        }
        let bounds = [
            ("Minimum", self.minimum),
            ("Maximum", self.maximum),
            ("ExclusiveMinimum", self.exclusive_minimum),
            ("ExclusiveMaximum", self.exclusive_maximum),
            ("MultipleOf", self.multiple_of),
        ];
        for (name, value) in bounds {
            if let Some((n, _)) = value {
                let variant = syn::Ident::new(name, Span::call_site());
                let n = Literal::f64_suffixed(n);
                out.push(quote!(#tag::#variant(#n)));
            }
        }
        if let Some((n, _)) = self.min_items {
            out.push(quote!(#tag::MinItems(#n)));
        }
        if let Some((n, _)) = self.max_items {
            out.push(quote!(#tag::MaxItems(#n)));
        }
        if self.unique_items.is_some() {
            out.push(quote!(#tag::UniqueItems));
        }
        if let Some(items) = &self.items {
            let inner = items.schema_tags();
            out.push(quote!(#tag::Items(&[#(#inner),*])));
        }
        if let Some((n, _)) = self.max_size {
            out.push(quote!(#tag::MaxSize(#n)));
        }
        if let Some((types, _)) = &self.accept {
            out.push(quote!(#tag::Accept(&[#(#types),*])));
        }
        out
    }
}

/// `format = ".."`: one of [`FORMATS`], as the `Format` variant to name.
fn format(meta: &ParseNestedMeta<'_>) -> syn::Result<(syn::Ident, Span)> {
    let lit: LitStr = meta.value()?.parse()?;
    let name = lit.value();
    let Some((_, variant)) = FORMATS.iter().find(|(known, _)| *known == name) else {
        let known: Vec<&str> = FORMATS.iter().map(|(known, _)| *known).collect();
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "unknown format `{name}`; known formats: {}",
                known.join(", ")
            ),
        ));
    };
    Ok((syn::Ident::new(variant, lit.span()), lit.span()))
}

/// `multiple_of = n`, `n` above 0.
fn multiple_of(meta: &ParseNestedMeta<'_>) -> syn::Result<f64> {
    let value = number(meta)?;
    if value <= 0.0 {
        return Err(syn::Error::new(
            meta.path.span(),
            "`multiple_of` must be greater than 0",
        ));
    }
    Ok(value)
}

/// One bound of a number, as the tags write it.
struct Bound<'a> {
    value: f64,
    /// Whether the bound is exclusive.
    open: bool,
    /// The tag's name: `minimum`, `exclusive_maximum`, ..
    name: &'a str,
}

impl Bound<'_> {
    /// Whether `value` is on the allowed side of this lower bound.
    fn below(&self, value: f64) -> bool {
        if self.open {
            value > self.value
        } else {
            value >= self.value
        }
    }

    /// Whether `value` is on the allowed side of this upper bound.
    fn above(&self, value: f64) -> bool {
        if self.open {
            value < self.value
        } else {
            value <= self.value
        }
    }
}

/// Refuses a `multiple_of = step` of which no multiple lies between `low`
/// and `high`, at the `multiple_of` tag.
fn no_multiple_between(
    (step, span): (f64, Span),
    low: Bound<'_>,
    high: Bound<'_>,
) -> syn::Result<()> {
    let fits = |value: f64| low.below(value) && high.above(value);
    let (first, last) = ((low.value / step).ceil(), (high.value / step).floor());
    // Past an exclusive bound the nearest multiple moves one step in; more
    // than a few steps apart, some multiple fits. A bound that is itself a
    // multiple, as the check reads it (allowing for binary fractions: 0.3
    // is a multiple of 0.1).
    let multiple = |value: f64| {
        let quotient = value / step;
        (quotient - quotient.round()).abs() <= 1e-9 * quotient.round().abs().max(1.0)
    };
    let any = last - first > 4.0
        || [first, first + 1.0, last - 1.0, last]
            .into_iter()
            .any(|k| k >= first && k <= last && fits(k * step))
        || [low.value, high.value]
            .into_iter()
            .any(|bound| fits(bound) && multiple(bound));
    if any {
        return Ok(());
    }
    let (low_name, low, high_name, high) = (low.name, low.value, high.name, high.value);
    Err(syn::Error::new(
        span,
        format!(
            "no multiple of {step} is within `{low_name} = {low}` and \
             `{high_name} = {high}`, so no value fits; widen the bounds to \
             include one, or choose a `multiple_of` that divides a value \
             between them"
        ),
    ))
}

fn count(meta: &ParseNestedMeta<'_>) -> syn::Result<u64> {
    let lit: syn::LitInt = meta.value()?.parse()?;
    lit.base10_parse()
}

/// `accept = ["image/png", "image/*"]`: media types a file may have.
fn media_types(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<String>> {
    let expr: Expr = meta.value()?.parse()?;
    let Expr::Array(array) = &expr else {
        return Err(syn::Error::new(
            expr.span(),
            "expected a list of media types, e.g. `accept = [\"image/png\", \"image/*\"]`",
        ));
    };
    if array.elems.is_empty() {
        return Err(syn::Error::new(
            expr.span(),
            "an empty `accept` accepts no file; list media types, or leave the tag out to accept any",
        ));
    }
    array
        .elems
        .iter()
        .map(|elem| match elem {
            Expr::Lit(ExprLit {
                lit: Lit::Str(lit), ..
            }) => media_type(lit),
            other => Err(syn::Error::new(
                other.span(),
                "expected a media type as a string, e.g. `\"image/png\"`",
            )),
        })
        .collect()
}

/// `type/subtype`, `type/*` or `*/*`, in lower case, without parameters.
fn media_type(lit: &LitStr) -> syn::Result<String> {
    let text = lit.value();
    let token = |part: &str| {
        !part.is_empty()
            && part.bytes().all(|byte| {
                byte.is_ascii_lowercase() || byte.is_ascii_digit() || b"!#$&-^_.+".contains(&byte)
            })
    };
    let valid = match text.split_once('/') {
        Some(("*", "*")) => true,
        Some((kind, "*")) => token(kind),
        Some((kind, subtype)) => token(kind) && token(subtype),
        None => false,
    };
    if valid {
        Ok(text)
    } else {
        Err(syn::Error::new(
            lit.span(),
            format!(
                "`{text}` is not a media type; write `type/subtype` in lower case without parameters \
                 (`image/png`), `type/*` (`image/*`) or `*/*`"
            ),
        ))
    }
}

fn number(meta: &ParseNestedMeta<'_>) -> syn::Result<f64> {
    let expr: Expr = meta.value()?.parse()?;
    let (negative, lit) = match &expr {
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => (true, &**expr),
        other => (false, other),
    };
    let value = match lit {
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => exact_integer(int)?,
        Expr::Lit(ExprLit {
            lit: Lit::Float(float),
            ..
        }) => float.base10_parse::<f64>()?,
        other => {
            return Err(syn::Error::new(
                other.span(),
                "expected a number, e.g. `3` or `-0.5`",
            ));
        }
    };
    if !value.is_finite() {
        return Err(syn::Error::new(expr.span(), "the number must be finite"));
    }
    Ok(if negative { -value } else { value })
}

/// An integer bound as the `f64` that OpenAPI, the SDKs and the checks
/// read; one that no `f64` holds exactly (beyond 2^53) is refused rather
/// than silently rounded.
fn exact_integer(int: &syn::LitInt) -> syn::Result<f64> {
    let value: i128 = int.base10_parse()?;
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
    let nearest = value as f64 as i128;
    if nearest == value {
        #[allow(clippy::cast_precision_loss)]
        return Ok(value as f64);
    }
    Err(syn::Error::new(
        int.span(),
        format!(
            "`{value}` is not exactly a JSON Schema number (an f64, as OpenAPI and the SDKs read it); \
             the nearest one is {nearest}"
        ),
    ))
}

fn literal(meta: &ParseNestedMeta<'_>) -> syn::Result<Expr> {
    let expr: Expr = meta.value()?.parse()?;
    match &expr {
        Expr::Lit(_)
        | Expr::Unary(ExprUnary {
            op: UnOp::Neg(_), ..
        }) => Ok(expr),
        other => Err(syn::Error::new(
            other.span(),
            "expected a literal: a string, number or boolean",
        )),
    }
}

/// A pattern must be in the dialect Rust's `regex` and JavaScript's
/// `RegExp` read alike (`framework_pattern`), and compile in its Rust form.
fn check_pattern(lit: &LitStr) -> syn::Result<()> {
    let pattern = lit.value();
    let rust = framework_pattern::to_rust(&pattern).map_err(|err| {
        syn::Error::new(
            lit.span(),
            format!(
                "pattern `{}`: {}",
                pattern.get(err.start..err.end).unwrap_or(&pattern),
                err.message
            ),
        )
    })?;
    regex_syntax::Parser::new()
        .parse(&rust)
        .map(drop)
        .map_err(|err| syn::Error::new(lit.span(), format!("invalid pattern: {err}")))
}
