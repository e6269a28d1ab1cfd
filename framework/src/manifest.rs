//! The API manifest: every route of an app with its schemas resolved into one
//! set of named types. The OpenAPI document is converted from it, and an app
//! exports it as JSON (`app manifest`) for `sdk-gen`, so the SDKs are made
//! from exactly what the router and the validators use.

use std::collections::BTreeMap;

use http::StatusCode;
use serde::{Deserialize, Serialize};

use crate::{
    extractor::InputKind,
    openapi::OpenApiError,
    route::{HttpMethod, RouteMeta},
    schema::{DefId, Registry, Schema, TypeDef, apply_tags},
};

/// The version of the manifest's JSON form; `sdk-gen` refuses others.
pub const MANIFEST_VERSION: u32 = 1;

/// The name of the framework's error body, reserved among type names.
pub const PROBLEM_TYPE: &str = "Problem";

/// Everything an SDK or a document needs to know about an app's API.
///
/// ```
/// use framework::prelude::*;
/// use framework::manifest::ApiManifest;
///
/// #[dto]
/// struct Note { #[tags(max_length = 280)] text: String }
///
/// struct Notes;
///
/// #[controller("notes")]
/// impl Notes {
///     /// Post a note.
///     #[typed_route::post("", errors(409 = "a note with this text exists"))]
///     async fn create(&self, body: TypedBody<Note>) -> Note { body.into_inner() }
/// }
///
/// let app = App::builder().controller(Notes).build().unwrap();
/// let manifest = app.manifest();
/// let create = &manifest.routes[0];
/// assert_eq!(create.accessor, ["notes", "create"]);
/// assert_eq!(manifest.types[0].name, "Note");
/// let statuses: Vec<u16> = create.errors.iter().map(|error| error.status).collect();
/// assert_eq!(statuses, [400, 409, 413, 415]);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiManifest {
    /// [`MANIFEST_VERSION`] when written.
    pub manifest_version: u32,
    /// The API's title.
    pub title: String,
    /// The API's version.
    pub version: String,
    /// The API's description.
    pub description: Option<String>,
    /// Every named type, indexed by [`DefId`].
    pub types: Vec<NamedType>,
    /// Every route, in the order the app serves them.
    pub routes: Vec<RouteManifest>,
}

/// A named type with the identifier documents and SDKs call it by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NamedType {
    /// An identifier made of the type's name: `Page_ArticleSummary` for
    /// `Page<ArticleSummary>`. Unique within the manifest.
    pub name: String,
    /// The definition.
    pub def: TypeDef,
}

/// One route, resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RouteManifest {
    /// `bbs.articles.update`: [`RouteManifest::accessor`] joined by dots.
    pub operation_id: String,
    /// The path's literal segments and the handler: where SDKs put the
    /// function (`api.functional.bbs.articles.update`).
    pub accessor: Vec<String>,
    /// The controller's type name.
    pub controller: String,
    /// The handler's name.
    pub handler: String,
    /// The HTTP method.
    pub method: HttpMethod,
    /// The path as written: `/bbs/articles/:section/:id`.
    pub path: String,
    /// The path parameters, in path order, with their tags applied.
    pub path_params: Vec<ParamManifest>,
    /// The query's schema (a named object), if the route reads one.
    pub query: Option<Schema>,
    /// The headers' schema (a named object), if the route reads them.
    pub headers: Option<Schema>,
    /// The JSON body's schema, if the route reads one.
    pub body: Option<Schema>,
    /// The status of a successful answer.
    pub status: u16,
    /// The schema of a successful answer's JSON body; `None` when it has none.
    pub response: Option<Schema>,
    /// Every error response, by status: the framework's own (400 for a
    /// refused input, 413 and 415 for bodies) and the handler's.
    pub errors: Vec<ErrorManifest>,
    /// First paragraph of the handler's doc comment.
    pub summary: String,
    /// The rest of the doc comment.
    pub description: String,
}

/// A path parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamManifest {
    /// Its name in the path.
    pub name: String,
    /// Its schema, constraints included.
    pub schema: Schema,
}

/// An error response a route documents. Its body is always the
/// framework's problem document ([`crate::Problem`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorManifest {
    /// The HTTP status.
    pub status: u16,
    /// When it happens.
    pub description: String,
}

impl ApiManifest {
    /// Resolves routes' metadata into a manifest, naming every type once.
    ///
    /// # Errors
    /// Two different types whose names make the same identifier.
    pub fn build<'a>(
        title: &str,
        version: &str,
        description: Option<&str>,
        routes: impl IntoIterator<Item = &'a RouteMeta>,
    ) -> Result<ApiManifest, OpenApiError> {
        let mut registry = Registry::default();
        let routes: Vec<RouteManifest> = routes
            .into_iter()
            .map(|meta| RouteManifest::new(meta, &mut registry))
            .collect();
        let types = named_types(&registry)?;
        Ok(ApiManifest {
            manifest_version: MANIFEST_VERSION,
            title: title.to_owned(),
            version: version.to_owned(),
            description: description.map(str::to_owned),
            types,
            routes,
        })
    }

    /// The definition of a named type.
    ///
    /// # Panics
    /// If `id` is not from this manifest.
    pub fn get(&self, id: DefId) -> &NamedType {
        &self.types[id.0]
    }

    /// The manifest as pretty JSON, deterministic for the same routes.
    pub fn to_json(&self) -> String {
        // Only strings, numbers, booleans, maps and arrays: cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The named types as a [`Registry`], for walking schemas and labelling
    /// them as the server's error reports do.
    pub fn registry(&self) -> Registry {
        Registry::from_defs(self.types.iter().map(|named| named.def.clone()))
    }
}

impl RouteManifest {
    fn new(meta: &RouteMeta, registry: &mut Registry) -> Self {
        let path_params = meta
            .path_params
            .iter()
            .map(|param| ParamManifest {
                name: param.name.to_owned(),
                schema: apply_tags((param.schema)(registry), param.tags),
            })
            .collect::<Vec<_>>();
        let (mut query, mut headers, mut body) = (None, None, None);
        for input in meta.inputs {
            let Some(schema) = input.schema.map(|schema| schema(registry)) else {
                continue;
            };
            match input.kind {
                InputKind::Body => body = Some(schema),
                InputKind::Query => query = Some(schema),
                InputKind::Headers => headers = Some(schema),
                InputKind::Request => {}
            }
        }
        let response = meta.response.map(|schema| schema(registry));
        let has_input =
            !path_params.is_empty() || query.is_some() || headers.is_some() || body.is_some();
        let errors = errors(meta, has_input, body.is_some());
        let mut accessor: Vec<String> = meta
            .path
            .split('/')
            .filter(|segment| !segment.is_empty() && !segment.starts_with(':'))
            .map(str::to_owned)
            .collect();
        accessor.push(meta.handler.to_owned());
        RouteManifest {
            operation_id: accessor.join("."),
            accessor,
            controller: meta.controller.to_owned(),
            handler: meta.handler.to_owned(),
            method: meta.method,
            path: meta.path.to_owned(),
            path_params,
            query,
            headers,
            body,
            status: meta.status,
            response,
            errors,
            summary: meta.summary.to_owned(),
            description: meta.description.to_owned(),
        }
    }

    /// The path in the router's syntax: `/bbs/articles/{section}/{id}`.
    pub fn router_path(&self) -> String {
        self.path
            .split('/')
            .map(|segment| match segment.strip_prefix(':') {
                Some(name) => format!("{{{name}}}"),
                None => segment.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The framework's own errors, then the handler's, by status.
fn errors(meta: &RouteMeta, has_input: bool, has_body: bool) -> Vec<ErrorManifest> {
    let mut errors = BTreeMap::new();
    if has_input {
        errors.insert(
            400,
            "An input is invalid; `errors` lists every problem with its path.".to_owned(),
        );
    }
    if has_body {
        errors.insert(413, "The body is larger than the limit.".to_owned());
        errors.insert(415, "The body is not `application/json`.".to_owned());
    }
    for error in meta.errors {
        let description = if error.description.is_empty() {
            StatusCode::from_u16(error.status)
                .ok()
                .and_then(|status| status.canonical_reason())
                .unwrap_or("Error")
                .to_owned()
        } else {
            error.description.to_owned()
        };
        errors.insert(error.status, description);
    }
    errors
        .into_iter()
        .map(|(status, description)| ErrorManifest {
            status,
            description,
        })
        .collect()
}

/// An identifier for every definition, refusing two types with one.
fn named_types(registry: &Registry) -> Result<Vec<NamedType>, OpenApiError> {
    let mut taken: BTreeMap<String, &'static str> =
        BTreeMap::from([(PROBLEM_TYPE.to_owned(), "framework::Problem")]);
    let mut types = Vec::new();
    for (_, def) in registry.defs() {
        let name = identifier(&def.name);
        if let Some(first) = taken.get(&name) {
            return Err(OpenApiError::AmbiguousName {
                name,
                first,
                second: def.rust_name,
            });
        }
        taken.insert(name.clone(), def.rust_name);
        types.push(NamedType {
            name,
            def: def.clone(),
        });
    }
    Ok(types)
}

/// `Page<ArticleSummary>` -> `Page_ArticleSummary`.
fn identifier(name: &str) -> String {
    let mut identifier = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' => identifier.push(c),
            '<' | ',' => identifier.push('_'),
            _ => {}
        }
    }
    identifier
}

#[cfg(test)]
mod tests {
    use super::identifier;

    #[test]
    fn identifiers_are_made_of_names() {
        assert_eq!(identifier("Page<ArticleSummary>"), "Page_ArticleSummary");
        assert_eq!(identifier("Pair<u32, Vec<String>>"), "Pair_u32_Vec_String");
    }
}
