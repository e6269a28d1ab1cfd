//! One handler method: its arguments, its answer, and the route code
//! generated for it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{FnArg, ImplItemFn, LitStr, Pat, ReturnType, Type, spanned::Spanned};

use crate::{
    converted::{self, Conversion},
    docs,
    dto::{field::peeled_check, tags::Tags},
    path::{self, RoutePath},
    route_attr::RouteAttr,
};

/// The `#[param]` and `#[tags]` of one handler argument.
#[derive(Clone)]
pub(crate) struct ParamAttrs {
    /// The path parameter it reads, if it is one.
    name: Option<String>,
    /// Its constraints.
    tags: Tags,
}

impl ParamAttrs {
    pub(crate) fn is_param(&self) -> bool {
        self.name.is_some()
    }
}

/// What a handler argument is.
enum Arg {
    /// `#[param] id: Uuid`: a path parameter.
    Param {
        name: String,
        ty: Type,
        tags: Box<Tags>,
    },
    /// Anything else: read by its `FromRequest` impl. `name` is its
    /// binding's (`None` for a pattern); `upgraded` when a `converted`
    /// route reads it as an older type, upgraded into the handler's.
    Extractor {
        ty: Type,
        name: Option<String>,
        upgraded: bool,
    },
}

/// Removes `#[param]` attributes from the method's arguments, returning
/// each typed argument's `param` name (`None` for extractors).
pub(crate) fn take_param_attrs(method: &mut ImplItemFn) -> syn::Result<Vec<ParamAttrs>> {
    let mut names = Vec::new();
    let mut first_error: Option<syn::Error> = None;
    for input in &mut method.sig.inputs {
        let FnArg::Typed(arg) = input else { continue };
        let mut name = None;
        let tags = match Tags::parse(&arg.attrs) {
            Ok(tags) => tags,
            Err(err) => {
                first_error.get_or_insert(err);
                Tags::default()
            }
        };
        let tags_attr = arg
            .attrs
            .iter()
            .find(|attr| attr.path().is_ident("tags"))
            .cloned();
        arg.attrs.retain(|attr| !attr.path().is_ident("tags"));
        let mut kept = Vec::with_capacity(arg.attrs.len());
        for attr in arg.attrs.drain(..) {
            if !attr.path().is_ident("param") {
                kept.push(attr);
                continue;
            }
            let parsed = param_name(&attr, &arg.pat);
            match parsed {
                Ok(parsed) => name = Some(parsed),
                Err(err) => {
                    first_error.get_or_insert(err);
                }
            }
        }
        arg.attrs = kept;
        if let (None, Some(attr)) = (&name, &tags_attr) {
            first_error.get_or_insert(syn::Error::new_spanned(
                attr,
                "`#[tags]` on a handler argument is for path parameters (`#[param]`); put a body's constraints on its `#[dto]` fields",
            ));
        }
        names.push(ParamAttrs { name, tags });
    }
    match first_error {
        Some(err) => Err(err),
        None => Ok(names),
    }
}

/// The path segment a `#[param]` attribute names: the argument's own name
/// (`pat`), or the one `#[param("name")]` writes.
fn param_name(attr: &syn::Attribute, pat: &Pat) -> syn::Result<String> {
    match &attr.meta {
        syn::Meta::Path(_) => match pat {
            Pat::Ident(ident) => Ok(ident.ident.to_string().trim_start_matches("r#").to_owned()),
            other => Err(syn::Error::new_spanned(
                other,
                "name this path parameter: write `#[param(\"id\")]` when the argument is a pattern",
            )),
        },
        syn::Meta::List(list) => {
            list.parse_args::<LitStr>()
                .map(|lit| lit.value())
                .map_err(|err| {
                    syn::Error::new(
                        err.span(),
                        "write `#[param]`, or `#[param(\"name\")]` to name the path segment",
                    )
                })
        }
        syn::Meta::NameValue(nv) => Err(syn::Error::new_spanned(
            nv,
            "write `#[param]`, or `#[param(\"name\")]` to name the path segment",
        )),
    }
}

/// A handler's signature, read: its arguments and whether it takes `&self`.
struct Signature {
    has_receiver: bool,
    args: Vec<Arg>,
}

/// Reads the arguments, refusing generic handlers and `self` by value.
fn signature(sig: &syn::Signature, param_names: Vec<ParamAttrs>) -> syn::Result<Signature> {
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &sig.generics,
            "route handlers cannot be generic; give the arguments concrete types",
        ));
    }
    let mut has_receiver = false;
    let mut args = Vec::new();
    let mut names = param_names.into_iter();
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => {
                if receiver.reference.is_none() || receiver.mutability.is_some() {
                    return Err(syn::Error::new_spanned(
                        receiver,
                        "handlers take `&self`: a controller is shared by concurrent requests (keep mutable state behind a `Mutex` or in a database)",
                    ));
                }
                has_receiver = true;
            }
            FnArg::Typed(arg) => {
                let ty = (*arg.ty).clone();
                args.push(match names.next() {
                    Some(ParamAttrs {
                        name: Some(name),
                        tags,
                    }) => Arg::Param {
                        name,
                        ty,
                        tags: Box::new(tags),
                    },
                    _ => Arg::Extractor {
                        ty,
                        name: match &*arg.pat {
                            Pat::Ident(ident) => Some(ident.ident.to_string()),
                            _ => None,
                        },
                        upgraded: false,
                    },
                });
            }
        }
    }
    Ok(Signature { has_receiver, args })
}

/// The handler's answer type: `()` without a return type.
fn answer_type(output: &ReturnType) -> syn::Result<Type> {
    match output {
        ReturnType::Default => Ok(syn::parse_quote!(())),
        ReturnType::Type(_, ty) => {
            if let Type::ImplTrait(_) = &**ty {
                return Err(syn::Error::new_spanned(
                    ty,
                    "name the answer's type: the route's metadata describes it, so `impl Trait` cannot be the return type",
                ));
            }
            Ok((**ty).clone())
        }
    }
}

/// What one handler expands to: the `static` holding its metadata, and
/// the `Route` expression that names it.
pub(crate) struct RouteTokens {
    pub(crate) meta: TokenStream,
    pub(crate) route: TokenStream,
}

/// Handlers of more arguments than this have them read into nested
/// tuples (what `framework::__private::Complete` is implemented for).
const TUPLE_MAX: usize = 12;

/// Where a route sits and which versions it serves: its controller's
/// name and base path, the name of the `static` holding its metadata, and
/// its `VersionRange` expression.
pub(crate) struct Place<'a> {
    pub(crate) base: &'a LitStr,
    pub(crate) controller: &'a str,
    pub(crate) meta_name: &'a syn::Ident,
    pub(crate) versions: TokenStream,
}

/// The route of one handler, its metadata in the `static` named
/// `place.meta_name`; with a `conversion`, the route serving older
/// versions through it. Generated code names `framework::__private` as
/// `__p`.
pub(crate) fn expand(
    method: &ImplItemFn,
    param_names: Vec<ParamAttrs>,
    route: &RouteAttr,
    place: &Place<'_>,
    conversion: Option<&Conversion>,
) -> syn::Result<RouteTokens> {
    let sig = &method.sig;
    let Signature { has_receiver, args } = signature(sig, param_names)?;
    let args = match conversion {
        Some(conversion) => upgraded_args(args, conversion)?,
        None => args,
    };
    let path = path::join(&place.base.value(), &route.path.value())
        .map_err(|message| path::error(route.path.span(), message))?;
    check_params(&path, &args, sig, route)?;
    let handler_answer = answer_type(&sig.output)?;
    let (answer, convert) = match conversion.and_then(|c| c.answer.as_ref()) {
        Some(old) => {
            let (answer, convert) = converted::answer(&handler_answer, old);
            (answer, Some(convert))
        }
        None => (handler_answer, None),
    };
    let meta_name = place.meta_name;
    let meta = route_meta(method, &args, route, &path, place, &answer);
    let (reads, read) = reads(&args, &path);
    let call = call(sig, has_receiver, &args);
    // The answer type's `IntoResponse` bound is `reply`'s: reported at the
    // return type.
    let this = if has_receiver {
        quote!(__this)
    } else {
        quote!(_)
    };
    let route = if args.is_empty() {
        // Nothing to read: the server lets go of the request before the
        // handler runs (so that hyper, which reads on while an answer is
        // awaited, can reuse its read buffer) and builds no arguments.
        let convert = convert.map(|convert| quote! { let __o = #convert; });
        let answering = quote_spanned! {answer.span()=> __p::answer(&#meta_name, __o) };
        quote! {
            __p::Route::<Self>::without_request(&#meta_name, |#this| {
                __p::RouteFuture::from_or_box(async move {
                    let __o = #call.await;
                    #convert
                    #answering
                })
            })
        }
    } else {
        let output = quote! { __p::call(#reads, |#read| #call).await };
        let output = match convert {
            Some(convert) => quote! { #output.map(|__o| #convert) },
            None => output,
        };
        let answering = quote_spanned! {answer.span()=>
            __p::reply(&#meta_name, #output, &mut __x)
        };
        quote! {
            __p::Route::<Self>::new(&#meta_name, |#this, mut __x| __p::RouteFuture::from_or_box(async move {
                #answering
            }))
        }
    };
    Ok(RouteTokens {
        meta: quote! { static #meta_name: ::framework::RouteMeta = #meta; },
        route,
    })
}

/// The arguments of a `converted` route: those it names read as their
/// older types, to be upgraded into the handler's.
fn upgraded_args(mut args: Vec<Arg>, conversion: &Conversion) -> syn::Result<Vec<Arg>> {
    for (key, old) in &conversion.inputs {
        let wanted = key.to_string();
        let found = args.iter_mut().find(|arg| match arg {
            Arg::Param { name, .. } => *name == wanted,
            Arg::Extractor { name, .. } => name.as_deref() == Some(wanted.as_str()),
        });
        match found {
            Some(Arg::Extractor { ty, upgraded, .. }) => {
                *ty = old.clone();
                *upgraded = true;
            }
            Some(Arg::Param { .. }) => {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "`{key}` is a path parameter, which is not converted: keep its type, or serve the older versions with a handler of their own"
                    ),
                ));
            }
            None => {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "the handler has no argument `{key}`; name an argument to read it as an older type (`{key}` = `TypedBody<v1::Input>`), or `answer`"
                    ),
                ));
            }
        }
    }
    Ok(args)
}

/// The `route_meta(..)` call, whose evaluation (in a `static`) is
/// reported at the route attribute when it refuses the route.
fn route_meta(
    method: &ImplItemFn,
    args: &[Arg],
    route: &RouteAttr,
    path: &RoutePath,
    place: &Place<'_>,
    answer: &Type,
) -> TokenStream {
    let controller = place.controller;
    let versions = &place.versions;
    let declared = option(route.status.map(|status| quote!(#status)));
    let error_metas = route.errors.iter().map(|(status, description)| {
        quote! { ::framework::ErrorMeta::new(#status, #description) }
    });
    let (summary, description) = docs::summary_and_description(&docs::doc_text(&method.attrs));
    let handler_name = method.sig.ident.to_string();
    let method_variant = route.method.variant();
    let RoutePath { nestia, router, .. } = path;
    let input_metas = input_metas(args);
    let param_metas = param_metas(args, path);
    let sdk = route.sdk;
    let mcp = route.mcp;
    let operation_id = option(route.operation_id.as_ref().map(|id| quote!(#id)));
    let answer_meta = quote_spanned! {answer.span()=> __p::answer_meta::<#answer>() };
    quote_spanned! {route.attr.span()=>
        __p::route_meta(
            #controller, #handler_name, #operation_id, __p::HttpMethod::#method_variant,
            [#nestia, #router], &[#(#param_metas),*], &[#(#input_metas),*], #declared,
            #answer_meta, &[#(#error_metas),*], [#summary, #description], [#sdk, #mcp],
            #versions,
        )
    }
}

/// `Some(value)` or `None`, through `__p`.
fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(value) => quote!(__p::Some(#value)),
        None => quote!(__p::None),
    }
}

/// The `InputMeta` of each extractor, in argument order.
fn input_metas(args: &[Arg]) -> Vec<TokenStream> {
    let last = args
        .iter()
        .rposition(|arg| matches!(arg, Arg::Extractor { .. }));
    args.iter()
        .enumerate()
        .filter_map(|(index, arg)| {
            let Arg::Extractor { ty, .. } = arg else {
                return None;
            };
            let written = type_text(ty);
            Some(if Some(index) == last {
                quote_spanned! {ty.span()=> __p::body_input::<#ty, _>(#written) }
            } else {
                quote_spanned! {ty.span()=> __p::part_input::<#ty>(#written) }
            })
        })
        .collect()
}

/// A type as the handler writes it, for build errors: `TypedQuery<Listing>`
/// (the token stream's spaces taken out around `<`, `>`, `::`, `,` and `&`).
fn type_text(ty: &Type) -> String {
    quote!(#ty)
        .to_string()
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" < ", "<")
        .replace("< ", "<")
        .replace(" <", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace("& ", "&")
}

/// The `PathParamMeta` of each path parameter, in path order.
fn param_metas<'a>(args: &'a [Arg], path: &'a RoutePath) -> impl Iterator<Item = TokenStream> + 'a {
    path.params.iter().map(move |name| {
        let found = args.iter().find_map(|arg| match arg {
            Arg::Param {
                name: known,
                ty,
                tags,
            } if known == name => Some((ty, tags)),
            _ => None,
        });
        let tags = found
            .map(|(_, tags)| tags.schema_tags())
            .unwrap_or_default();
        let catch_all = path.catch_all.as_deref() == Some(name.as_str());
        match found {
            Some((ty, _)) => quote_spanned! {ty.span()=>
                __p::path_param_meta::<#ty>(#name, &[#(#tags),*], #catch_all)
            },
            None => quote! { __p::path_param_meta::<()>(#name, &[], #catch_all) },
        }
    })
}

/// What reads every argument, as one tuple expression, and the pattern
/// that takes the values apart, in reading order: path parameters and
/// head extractors first (all their validation problems reported
/// together), then the body.
fn reads(args: &[Arg], path: &RoutePath) -> (TokenStream, TokenStream) {
    let last = args
        .iter()
        .rposition(|arg| matches!(arg, Arg::Extractor { .. }));
    let mut head = Vec::new();
    let mut body = None;
    for (index, arg) in args.iter().enumerate() {
        let ident = format_ident!("__a{}", index);
        match arg {
            Arg::Param { name, ty, tags } => {
                head.push((param_read(name, ty, tags, path), ident));
            }
            Arg::Extractor { ty, .. } if Some(index) == last => {
                // The generated decoder of a body's type, looked up here,
                // where the type is concrete (`extractor/body_decoder.rs`).
                let decoder = quote! {{
                    use __p::{WithDecoder as _, WithoutDecoder as _};
                    (&__p::BodyDecoder::<#ty>::NEW).decoder()
                }};
                body = Some((
                    quote_spanned! {ty.span()=> __p::body::<#ty, _>(&mut __x, #decoder).await },
                    ident,
                ));
            }
            Arg::Extractor { ty, .. } => head.push((
                quote_spanned! {ty.span()=> __p::part::<#ty>(&mut __x).await },
                ident,
            )),
        }
    }
    let (reads, idents): (Vec<_>, Vec<_>) = head.into_iter().chain(body).unzip();
    let idents = idents.iter().map(|ident| quote!(#ident)).collect();
    (tuple(reads), tuple(idents))
}

/// `(a, b, ..)`, nested in tuples of at most [`TUPLE_MAX`].
fn tuple(items: Vec<TokenStream>) -> TokenStream {
    if items.len() <= TUPLE_MAX {
        return quote! { (#(#items,)*) };
    }
    tuple(
        items
            .chunks(TUPLE_MAX)
            .map(|chunk| quote! { (#(#chunk,)*) })
            .collect(),
    )
}

/// Reads one path parameter and checks its `#[tags]`.
fn param_read(name: &str, ty: &Type, tags: &Tags, path: &RoutePath) -> TokenStream {
    let index = path
        .params
        .iter()
        .position(|known| known == name)
        .unwrap_or_default();
    let index = proc_macro2::Literal::usize_unsuffixed(index);
    if !tags.constrains() {
        return quote_spanned! {ty.span()=> __p::param::<#ty>(&mut __x, #index, #name) };
    }
    let check = peeled_check(&quote!(value), Some(ty), tags);
    let schema_tags = tags.schema_tags();
    quote_spanned! {ty.span()=>
        __p::checked_param::<#ty>(&mut __x, #index, #name, &[#(#schema_tags),*], |value: &#ty| #check)
    }
}

/// The call of the handler with its arguments: a future. An upgraded
/// argument (read as an older type) goes through `Upgrade`.
fn call(sig: &syn::Signature, has_receiver: bool, args: &[Arg]) -> TokenStream {
    let values = args.iter().enumerate().map(|(index, arg)| {
        let ident = format_ident!("__a{}", index);
        match arg {
            Arg::Extractor {
                upgraded: true, ty, ..
            } => {
                quote_spanned! {ty.span()=> __p::Upgrade::upgrade(#ident) }
            }
            _ => quote!(#ident),
        }
    });
    let fn_name = &sig.ident;
    let call = if has_receiver {
        quote! { __this.#fn_name(#(#values),*) }
    } else {
        quote! { Self::#fn_name(#(#values),*) }
    };
    match sig.asyncness {
        Some(_) => call,
        None => quote! { __p::ready(#call) },
    }
}

/// Every `:name` in the path has a `#[param]` argument and vice versa.
fn check_params(
    path: &RoutePath,
    args: &[Arg],
    sig: &syn::Signature,
    route: &RouteAttr,
) -> syn::Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for (arg, input) in args.iter().zip(
        sig.inputs
            .iter()
            .filter(|input| matches!(input, FnArg::Typed(_))),
    ) {
        let Arg::Param { name, .. } = arg else {
            continue;
        };
        if seen.contains(&name.as_str()) {
            return Err(syn::Error::new_spanned(
                input,
                format!("two arguments read the path parameter `:{name}`; keep one"),
            ));
        }
        seen.push(name);
        if !path.params.iter().any(|known| known == name) {
            let known = if path.params.is_empty() {
                "it has none".to_owned()
            } else {
                format!(
                    "it has {}",
                    path.params
                        .iter()
                        .map(|p| format!("`:{p}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return Err(syn::Error::new_spanned(
                input,
                format!(
                    "`#[param] {name}` has no `:{name}` segment in the route path `{}` ({known}); add `:{name}` to the path or rename the argument",
                    path.nestia
                ),
            ));
        }
    }
    if let Some(missing) = path
        .params
        .iter()
        .find(|name| !seen.contains(&name.as_str()))
    {
        return Err(syn::Error::new_spanned(
            &route.attr,
            format!(
                "the path `{}` has the parameter `:{missing}` but the handler has no argument for it; add `#[param] {missing}: String` (or another type)",
                path.nestia
            ),
        ));
    }
    Ok(())
}
