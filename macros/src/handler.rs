//! One handler method: its arguments, its answer, and the route code
//! generated for it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{
    FnArg, GenericArgument, ImplItemFn, LitStr, Pat, PathArguments, ReturnType, Type,
    spanned::Spanned,
};

use crate::{
    docs,
    dto::{field::peeled_check, tags::Tags},
    path::{self, RoutePath},
    route_attr::{Method, RouteAttr},
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

/// What a handler answers on success.
enum Output {
    /// `()` or no return type: no body.
    Empty,
    /// `T`: a JSON body of this type.
    Json(Type),
    /// `Result<(), E>`: no body, or an error.
    EmptyResult,
    /// `Result<T, E>`: a JSON body of type `T`, or an error.
    JsonResult(Type),
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

/// The route expression for one handler.
pub(crate) fn expand(
    method: &ImplItemFn,
    param_names: Vec<ParamAttrs>,
    route: &RouteAttr,
    base: &LitStr,
    controller: &str,
) -> syn::Result<TokenStream> {
    let sig = &method.sig;
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

    let path = path::join(&base.value(), &route.path.value())
        .map_err(|message| path::error(route.path.span(), message))?;
    check_params(&path, &args, sig, route)?;

    let output = output_kind(&sig.output);
    let status = route.status.unwrap_or(match (route.method, &output) {
        (_, Output::Empty | Output::EmptyResult) => 204,
        (Method::Post, _) => 201,
        _ => 200,
    });
    let response_schema = match &output {
        Output::Json(ty) | Output::JsonResult(ty) => quote_spanned! {ty.span()=>
            ::core::option::Option::Some(<#ty as ::framework::__private::ToSchema>::schema)
        },
        Output::Empty | Output::EmptyResult => quote!(::core::option::Option::None),
    };
    let has_body = matches!(output, Output::Json(_) | Output::JsonResult(_));
    let error_metas = route.errors.iter().map(|(status, description)| {
        quote! { ::framework::ErrorMeta { status: #status, description: #description } }
    });

    let (summary, description) = docs::summary_and_description(&docs::doc_text(&method.attrs));
    let handler_name = sig.ident.to_string();
    let method_variant = route.method.variant();
    let RoutePath {
        nestia,
        router,
        params,
    } = &path;

    let input_metas = args.iter().filter_map(|arg| match arg {
        Arg::Extractor { ty } => {
            Some(quote_spanned! {ty.span()=> <#ty as ::framework::FromRequest>::INPUT })
        }
        Arg::Param { .. } => None,
    });
    let param_metas = params.iter().map(|name| {
        let tags = args
            .iter()
            .find_map(|arg| match arg {
                Arg::Param {
                    name: known, tags, ..
                } if known == name => Some(tags.schema_tags()),
                _ => None,
            })
            .unwrap_or_default();
        let ty = args.iter().find_map(|arg| match arg {
            Arg::Param {
                name: known, ty, ..
            } if known == name => Some(ty),
            _ => None,
        });
        quote! {
            ::framework::PathParamMeta {
                name: #name,
                tags: &[#(#tags),*],
                schema: <#ty as ::framework::__private::ToSchema>::schema,
            }
        }
    });

    let idents: Vec<_> = (0..args.len())
        .map(|index| format_ident!("__arg{}", index))
        .collect();
    let mut uses_cx_mutably = false;
    let extractions = args.iter().zip(&idents).map(|(arg, ident)| match arg {
        Arg::Param { name, ty, tags } => {
            let index = params.iter().position(|known| known == name).unwrap_or_default();
            let constraint = tags.constrains().then(|| {
                let check = peeled_check(&quote!(&#ident), Some(ty), tags);
                let schema_tags = tags.schema_tags();
                quote! {
                    if !(#check) {
                        return ::framework::__private::path_param_refused::<#ty>(
                            &__cx, #index, #name, &[#(#schema_tags),*],
                        )
                        .into_response();
                    }
                }
            });
            quote_spanned! {ty.span()=>
                let #ident: #ty = match ::framework::__private::path_param::<#ty>(&__cx, #index, #name) {
                    ::core::result::Result::Ok(value) => value,
                    ::core::result::Result::Err(err) => return err.into_response(),
                };
                #constraint
            }
        }
        Arg::Extractor { ty } => {
            uses_cx_mutably = true;
            quote_spanned! {ty.span()=>
                let #ident: #ty = match <#ty as ::framework::FromRequest>::from_request(&mut __cx) {
                    ::core::result::Result::Ok(value) => value,
                    ::core::result::Result::Err(err) => return err.into_response(),
                };
            }
        }
    });
    let extractions: Vec<_> = extractions.collect();
    let cx_binding = if uses_cx_mutably {
        quote!(mut __cx)
    } else {
        quote!(__cx)
    };

    let fn_name = &sig.ident;
    let await_call = sig.asyncness.map(|_| quote!(.await));
    let call = if has_receiver {
        quote! { __this.#fn_name(#(#idents),*) #await_call }
    } else {
        quote! { { let _ = __this; Self::#fn_name(#(#idents),*) #await_call } }
    };
    let ret_span = match &sig.output {
        ReturnType::Type(_, ty) => ty.span(),
        ReturnType::Default => sig.ident.span(),
    };
    let reply = match output {
        Output::Empty => {
            quote_spanned! {ret_span=> { let () = __output; ::framework::__private::reply_empty(#status) } }
        }
        Output::Json(_) => {
            quote_spanned! {ret_span=> ::framework::__private::reply_json(&__output, #status) }
        }
        Output::EmptyResult => {
            quote_spanned! {ret_span=> ::framework::__private::reply_empty_result(__output, #status) }
        }
        Output::JsonResult(_) => {
            quote_spanned! {ret_span=> ::framework::__private::reply_json_result(__output, #status) }
        }
    };

    Ok(quote! {
        {
            static __ROUTE_META: ::framework::RouteMeta = ::framework::RouteMeta {
                controller: #controller,
                handler: #handler_name,
                method: ::framework::HttpMethod::#method_variant,
                path: #nestia,
                router_path: #router,
                path_params: &[#(#param_metas),*],
                inputs: &[#(#input_metas),*],
                status: #status,
                has_response_body: #has_body,
                response: #response_schema,
                errors: &[#(#error_metas),*],
                summary: #summary,
                description: #description,
            };
            ::framework::__private::Route::new(
                &__ROUTE_META,
                |__this: ::framework::__private::Arc<Self>,
                 #cx_binding: ::framework::__private::RequestContext|
                 -> ::framework::__private::BoxFuture<::framework::Response> {
                    ::framework::__private::Box::pin(async move {
                        #(#extractions)*
                        let __output = #call;
                        #reply
                    })
                },
            )
        }
    })
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

/// Classifies the return type. `Result<T, E>`, and aliases whose name ends
/// in `Result` (`ApiResult<T>`, `io::Result<T>`), are fallible; their first
/// type argument is the success type.
fn output_kind(output: &ReturnType) -> Output {
    let ty = match output {
        ReturnType::Default => return Output::Empty,
        ReturnType::Type(_, ty) => &**ty,
    };
    if is_unit(ty) {
        return Output::Empty;
    }
    if let Type::Path(path) = ty
        && let Some(last) = path.path.segments.last()
        && last.ident.to_string().ends_with("Result")
        && let PathArguments::AngleBracketed(generics) = &last.arguments
        && let Some(GenericArgument::Type(ok)) = generics.args.first()
    {
        return if is_unit(ok) {
            Output::EmptyResult
        } else {
            Output::JsonResult(ok.clone())
        };
    }
    Output::Json(ty.clone())
}

fn is_unit(ty: &Type) -> bool {
    match ty {
        Type::Tuple(tuple) => tuple.elems.is_empty(),
        Type::Paren(inner) => is_unit(&inner.elem),
        _ => false,
    }
}
