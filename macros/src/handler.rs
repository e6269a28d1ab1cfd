//! One handler method: its arguments, its answer, and the route code
//! generated for it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{FnArg, ImplItemFn, LitStr, Pat, ReturnType, Type, spanned::Spanned};

use crate::{
    docs,
    dto::{field::peeled_check, tags::Tags},
    path::{self, RoutePath},
    route_attr::RouteAttr,
};

/// The `#[param]` and `#[tags]` of one handler argument.
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
    /// Anything else: read by its `FromRequest` impl.
    Extractor { ty: Type },
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
            let parsed = match &attr.meta {
                syn::Meta::Path(_) => match &*arg.pat {
                    Pat::Ident(ident) => {
                        Ok(ident.ident.to_string().trim_start_matches("r#").to_owned())
                    }
                    other => Err(syn::Error::new_spanned(
                        other,
                        "name this path parameter: write `#[param(\"id\")]` when the argument is a pattern",
                    )),
                },
                syn::Meta::List(list) => list
                    .parse_args::<LitStr>()
                    .map(|lit| lit.value())
                    .map_err(|err| {
                        syn::Error::new(
                            err.span(),
                            "write `#[param]`, or `#[param(\"name\")]` to name the path segment",
                        )
                    }),
                syn::Meta::NameValue(nv) => Err(syn::Error::new_spanned(
                    nv,
                    "write `#[param]`, or `#[param(\"name\")]` to name the path segment",
                )),
            };
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
                    _ => Arg::Extractor { ty },
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

/// The route expression for one handler.
pub(crate) fn expand(
    method: &ImplItemFn,
    param_names: Vec<ParamAttrs>,
    route: &RouteAttr,
    base: &LitStr,
    controller: &str,
) -> syn::Result<TokenStream> {
    let sig = &method.sig;
    let Signature { has_receiver, args } = signature(sig, param_names)?;
    let path = path::join(&base.value(), &route.path.value())
        .map_err(|message| path::error(route.path.span(), message))?;
    check_params(&path, &args, sig, route)?;
    let answer = answer_type(&sig.output)?;
    let meta = route_meta(method, &args, route, &path, controller, &answer);
    let websocket_check = websocket_check(&args, route);
    let extractions = extractions(&args, &path);
    let call = call(sig, has_receiver, args.len());
    let reply = quote_spanned! {answer.span()=>
        ::framework::IntoResponse::into_response(
            __output,
            ::framework::__private::status(__ROUTE_META.status),
        )
    };
    Ok(quote! {
        {
            #websocket_check
            static __ROUTE_META: ::framework::RouteMeta = #meta;
            ::framework::__private::Route::new(
                &__ROUTE_META,
                |__this: ::framework::__private::Arc<Self>,
                 mut __cx: ::framework::__private::RequestContext|
                 -> ::framework::__private::BoxFuture<::framework::Response> {
                    ::framework::__private::Box::pin(async move {
                        #extractions
                        let __output: #answer = #call;
                        #reply
                    })
                },
            )
        }
    })
}

/// The `RouteMeta` literal.
fn route_meta(
    method: &ImplItemFn,
    args: &[Arg],
    route: &RouteAttr,
    path: &RoutePath,
    controller: &str,
    answer: &Type,
) -> TokenStream {
    let declared = match route.status {
        Some(status) => quote!(::core::option::Option::Some(#status)),
        None => quote!(::core::option::Option::None),
    };
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
    let operation_id = match &route.operation_id {
        Some(id) => quote!(::core::option::Option::Some(#id)),
        None => quote!(::core::option::Option::None),
    };
    let answer_span = answer.span();
    let responses =
        quote_spanned! {answer_span=> <#answer as ::framework::IntoResponse>::describe };
    let answer_status =
        quote_spanned! {answer_span=> <#answer as ::framework::IntoResponse>::DEFAULT_STATUS };
    let answer_errors =
        quote_spanned! {answer_span=> <#answer as ::framework::IntoResponse>::errors };
    quote! {
        ::framework::RouteMeta {
            controller: #controller,
            handler: #handler_name,
            operation_id: #operation_id,
            method: ::framework::HttpMethod::#method_variant,
            path: #nestia,
            router_path: #router,
            path_params: &[#(#param_metas),*],
            inputs: &[#(#input_metas),*],
            status: ::framework::__private::route_status(
                #declared,
                #answer_status,
                ::framework::HttpMethod::#method_variant,
            ),
            responses: #responses,
            errors: &[#(#error_metas),*],
            answer_errors: #answer_errors,
            summary: #summary,
            description: #description,
            sdk: #sdk,
        }
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
            let Arg::Extractor { ty } = arg else {
                return None;
            };
            let input = if Some(index) == last {
                quote_spanned! {ty.span()=> <#ty as ::framework::FromRequest<_>>::INPUT }
            } else {
                quote_spanned! {ty.span()=> <#ty as ::framework::FromRequestParts>::INPUT }
            };
            let written = type_text(ty);
            Some(quote! { ::framework::__private::named_input(#input, #written) })
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

/// A check at compile time, reported at the route attribute, that a route
/// taking a WebSocket handshake is a `get` and takes one.
fn websocket_check(args: &[Arg], route: &RouteAttr) -> TokenStream {
    let input_metas = input_metas(args);
    let method_variant = route.method.variant();
    quote_spanned! {route.attr.span()=>
        const _: () = ::framework::__private::check_websocket_route(
            &[#(#input_metas),*],
            ::framework::HttpMethod::#method_variant,
        );
    }
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
        let ty = found.map(|(ty, _)| ty);
        let catch_all = path.catch_all.as_deref() == Some(name.as_str());
        quote! {
            ::framework::PathParamMeta {
                name: #name,
                tags: &[#(#tags),*],
                schema: <#ty as ::framework::__private::ToSchema>::schema,
                catch_all: #catch_all,
            }
        }
    })
}

/// Reads every argument: path parameters and head extractors first (all
/// their validation problems reported together), then the body.
fn extractions(args: &[Arg], path: &RoutePath) -> TokenStream {
    let last = args
        .iter()
        .rposition(|arg| matches!(arg, Arg::Extractor { .. }));
    let idents: Vec<_> = (0..args.len())
        .map(|index| format_ident!("__arg{}", index))
        .collect();
    let mut head = Vec::new();
    let mut body = None;
    for (index, (arg, ident)) in args.iter().zip(&idents).enumerate() {
        match arg {
            Arg::Param { name, ty, tags } => {
                head.push(param_extraction(ident, name, ty, tags, path))
            }
            Arg::Extractor { ty } if Some(index) == last => {
                body = Some(quote_spanned! {ty.span()=>
                    let #ident = match __refused.take(
                        <#ty as ::framework::FromRequest<_>>::from_request(&mut __cx).await,
                    ) {
                        ::core::ops::ControlFlow::Continue(value) => value,
                        ::core::ops::ControlFlow::Break(response) => return response,
                    };
                });
            }
            Arg::Extractor { ty } => head.push(quote_spanned! {ty.span()=>
                let #ident = match __refused.take(
                    <#ty as ::framework::FromRequestParts>::from_request_parts(&mut __cx).await,
                ) {
                    ::core::ops::ControlFlow::Continue(value) => value,
                    ::core::ops::ControlFlow::Break(response) => return response,
                };
            }),
        }
    }
    if args.is_empty() {
        return TokenStream::new();
    }
    let somes = idents
        .iter()
        .map(|ident| quote!(::core::option::Option::Some(#ident)));
    quote! {
        let mut __refused = ::framework::__private::Refusals::new();
        #(#head)*
        #body
        let (#(#somes,)*) = (#(#idents,)*) else {
            return __refused.into_response();
        };
    }
}

/// Reads one path parameter and checks its `#[tags]`.
fn param_extraction(
    ident: &syn::Ident,
    name: &str,
    ty: &Type,
    tags: &Tags,
    path: &RoutePath,
) -> TokenStream {
    let index = path
        .params
        .iter()
        .position(|known| known == name)
        .unwrap_or_default();
    let constraint = tags.constrains().then(|| {
        let check = peeled_check(&quote!(value), Some(ty), tags);
        let schema_tags = tags.schema_tags();
        quote! {
            let #ident = #ident.filter(|value| {
                let passed = #check;
                if !passed {
                    __refused.refuse(::framework::__private::path_param_refused::<#ty>(
                        &__cx, #index, #name, &[#(#schema_tags),*],
                    ));
                }
                passed
            });
        }
    });
    quote_spanned! {ty.span()=>
        let #ident: ::core::option::Option<#ty> = match __refused.take(
            ::framework::__private::path_param::<#ty>(&__cx, #index, #name),
        ) {
            ::core::ops::ControlFlow::Continue(value) => value,
            ::core::ops::ControlFlow::Break(response) => return response,
        };
        #constraint
    }
}

/// The call of the handler with its arguments.
fn call(sig: &syn::Signature, has_receiver: bool, count: usize) -> TokenStream {
    let idents: Vec<_> = (0..count)
        .map(|index| format_ident!("__arg{}", index))
        .collect();
    let fn_name = &sig.ident;
    let await_call = sig.asyncness.map(|_| quote!(.await));
    if has_receiver {
        quote! { __this.#fn_name(#(#idents),*) #await_call }
    } else {
        quote! { { let _ = __this; Self::#fn_name(#(#idents),*) #await_call } }
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
