//! The tools an app offers: one per route a tool call can carry, described
//! from the app's manifest (the same schemas as its OpenAPI document, with
//! `$ref`s into the tool's own `$defs`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::settings::{LeftOut, Mcp};
use crate::{
    ContentKind, HttpMethod, RouteMeta,
    manifest::{ApiManifest, RouteManifest},
    openapi::{Converter, component_schemas, with_converter},
    schema::{Schema, TypeKind, UnionRepr, VariantKind},
};

/// Where the document's schemas refer to a named type.
const COMPONENTS: &str = "#/components/schemas/";
/// Where a tool's schemas refer to one.
const DEFS: &str = "#/$defs/";

/// Every tool of an app, and the routes left out.
#[derive(Debug, Default)]
pub(crate) struct Catalogue {
    pub(crate) tools: Vec<Tool>,
    pub(crate) left_out: Vec<LeftOut>,
}

/// One tool: what `tools/list` says of it and how a call is made.
#[derive(Debug)]
pub(crate) struct Tool {
    pub(crate) name: String,
    /// The tool as `tools/list` lists it.
    pub(crate) definition: Value,
    pub(crate) target: Target,
}

/// The request a call of a tool becomes.
#[derive(Debug)]
pub(crate) struct Target {
    pub(crate) method: http::Method,
    /// The path as written: `/bbs/articles/:section/:id`.
    pub(crate) path: String,
    /// How the body is sent, when the route reads one.
    pub(crate) body: Option<ContentKind>,
    /// Whether the answer is given as `structuredContent`.
    pub(crate) structured: bool,
}

impl Catalogue {
    /// The tools of `manifest`'s routes that `mcp` offers; `metas` are the
    /// app's routes, by which a route's `mcp = false` is found.
    pub(crate) fn new(mcp: &Mcp, manifest: &ApiManifest, metas: &[&'static RouteMeta]) -> Self {
        with_converter(manifest, |converter| {
            let components: BTreeMap<String, Value> = component_schemas(converter)
                .into_iter()
                .map(|(name, schema)| (name, to_tool_schema(&schema)))
                .collect();
            let mut catalogue = Catalogue::default();
            for route in &manifest.routes {
                let Some(meta) = metas
                    .iter()
                    .find(|meta| meta.method == route.method && meta.path == route.path)
                else {
                    continue;
                };
                if !mcp.offers(meta) {
                    continue;
                }
                match left_out(route, meta) {
                    Some(reason) => catalogue.left_out.push(LeftOut {
                        operation_id: route.operation_id.clone(),
                        reason: reason.to_owned(),
                    }),
                    None => catalogue
                        .tools
                        .push(tool(route, converter, &components, manifest)),
                }
            }
            catalogue
        })
    }

    /// The tool named `name`.
    pub(crate) fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|tool| tool.name == name)
    }

    /// Why the route named `name` is not a tool, if it is left out.
    pub(crate) fn left_out(&self, name: &str) -> Option<&LeftOut> {
        self.left_out.iter().find(|left| left.operation_id == name)
    }
}

/// Why a route is not a tool; `None` when it is one.
fn left_out(route: &RouteManifest, meta: &RouteMeta) -> Option<&'static str> {
    if !meta.mcp {
        return Some("its route says `mcp = false`");
    }
    if !route.sdk {
        return Some("it is not in the app's SDKs (`sdk = false`)");
    }
    if route.websocket.is_some() {
        return Some("it is a WebSocket route");
    }
    match route.body.as_ref().map(|body| body.kind) {
        Some(ContentKind::Multipart) => return Some("it takes uploads (multipart/form-data)"),
        Some(ContentKind::Bytes) => return Some("its body is bytes"),
        _ => {}
    }
    let answers = successes(route);
    if answers.contains(&Some(ContentKind::EventStream)) {
        return Some("it answers a stream of server-sent events");
    }
    if answers.contains(&Some(ContentKind::Bytes)) {
        return Some("it answers bytes (a download)");
    }
    None
}

/// How each success answer of the route is sent (`None`: no body).
fn successes(route: &RouteManifest) -> Vec<Option<ContentKind>> {
    route
        .responses
        .iter()
        .filter(|answer| (200..300).contains(&answer.status))
        .map(|answer| answer.content.as_ref().map(|content| content.kind))
        .collect()
}

fn tool(
    route: &RouteManifest,
    converter: &Converter<'_>,
    components: &BTreeMap<String, Value>,
    manifest: &ApiManifest,
) -> Tool {
    let input = with_defs(input_schema(route, converter), components);
    let output =
        output_schema(route, converter, manifest).map(|schema| with_defs(schema, components));
    let mut definition = json!({
        "name": route.operation_id,
        "description": description(route),
        "inputSchema": input,
        "annotations": annotations(route.method),
    });
    if !route.summary.is_empty() {
        definition["title"] = Value::String(route.summary.clone());
    }
    let structured = output.is_some();
    if let Some(output) = output {
        definition["outputSchema"] = output;
    }
    Tool {
        name: route.operation_id.clone(),
        definition,
        target: Target {
            method: route.method.to_http(),
            path: route.path.clone(),
            body: route.body.as_ref().map(|body| body.kind),
            structured,
        },
    }
}

/// The doc comment, else what the route is.
fn description(route: &RouteManifest) -> String {
    let said = [route.summary.as_str(), route.description.as_str()]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    if said.is_empty() {
        format!("{} {}", route.method.as_str(), route.path)
    } else {
        said
    }
}

/// What a client may assume of a call, from its method.
fn annotations(method: HttpMethod) -> Value {
    json!({
        "readOnlyHint": method == HttpMethod::Get,
        "destructiveHint": method == HttpMethod::Delete,
        "idempotentHint": matches!(method, HttpMethod::Get | HttpMethod::Put | HttpMethod::Delete),
        "openWorldHint": false,
    })
}

/// One object holding what the route reads: `path` (its parameters by
/// name), `query`, `headers`, `cookies`, `body`, each required when it has
/// a required part.
fn input_schema(route: &RouteManifest, converter: &Converter<'_>) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    if !route.path_params.is_empty() {
        let params: Map<String, Value> = route
            .path_params
            .iter()
            .map(|param| (param.name.clone(), schema(converter, &param.schema)))
            .collect();
        let names: Vec<&str> = route.path_params.iter().map(|p| p.name.as_str()).collect();
        properties.insert(
            "path".into(),
            json!({
                "type": "object",
                "description": "The path parameters.",
                "properties": params,
                "required": names,
                "additionalProperties": false,
            }),
        );
        required.push("path");
    }
    let groups = [
        ("query", route.query.as_ref(), "The query string's fields."),
        ("headers", route.headers.as_ref(), "The request headers."),
        ("cookies", route.cookies.as_ref(), "The cookies."),
    ];
    for (name, group, about) in groups {
        if let Some(group) = group {
            properties.insert(name.into(), described(schema(converter, group), about));
            if has_required_field(converter, group) {
                required.push(name);
            }
        }
    }
    if let Some(body) = route.body.as_ref().and_then(|body| body.schema.as_ref()) {
        properties.insert(
            "body".into(),
            described(schema(converter, body), "The request body."),
        );
        required.push("body");
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// The route's answer, when it is one JSON object (`structuredContent`
/// must be an object); `None` otherwise (the answer is then text).
fn output_schema(
    route: &RouteManifest,
    converter: &Converter<'_>,
    manifest: &ApiManifest,
) -> Option<Value> {
    let mut answers = route
        .responses
        .iter()
        .filter(|answer| (200..300).contains(&answer.status))
        .filter_map(|answer| answer.content.as_ref());
    let content = answers.next()?;
    if answers.next().is_some() || content.kind != ContentKind::Json {
        return None;
    }
    let answer = content.schema.as_ref()?;
    let Schema::Ref(id) = answer else {
        return None;
    };
    let object = match &manifest.get(*id).def.kind {
        TypeKind::Object(_) => true,
        // A tag property makes every variant an object; serde's default
        // writes a unit variant as a string.
        TypeKind::Union(union) => match union.repr {
            UnionRepr::Internal { .. } | UnionRepr::Adjacent { .. } => true,
            UnionRepr::External => union
                .variants
                .iter()
                .all(|variant| !matches!(variant.kind, VariantKind::Unit)),
            UnionRepr::Untagged => false,
        },
        TypeKind::StringEnum(_) => false,
    };
    object.then(|| {
        let mut schema = schema(converter, answer);
        schema["type"] = Value::String("object".into());
        schema
    })
}

fn described(mut schema: Value, about: &str) -> Value {
    if schema.get("description").is_none() {
        schema["description"] = Value::String(about.into());
    }
    schema
}

/// Whether the named object `group` has a required field.
fn has_required_field(converter: &Converter<'_>, group: &Schema) -> bool {
    match group {
        Schema::Ref(id) => match &converter.registry.get(*id).kind {
            TypeKind::Object(object) => object.fields.iter().any(|field| field.required),
            _ => true,
        },
        _ => true,
    }
}

/// A schema as JSON, its references into `$defs`.
fn schema(converter: &Converter<'_>, schema: &Schema) -> Value {
    to_tool_schema(&converter.schema(schema))
}

fn to_tool_schema<T: serde::Serialize>(schema: &T) -> Value {
    // utoipa's model holds only strings, numbers, maps and arrays.
    let mut value = serde_json::to_value(schema).unwrap_or_default();
    retarget(&mut value);
    value
}

/// Points every reference (`$ref`, a discriminator's `mapping`) at `$defs`.
fn retarget(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                if key == "$ref" || key == "mapping" {
                    retarget_refs(inner);
                } else {
                    retarget(inner);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(retarget),
        _ => {}
    }
}

fn retarget_refs(value: &mut Value) {
    match value {
        Value::String(reference) => {
            if let Some(name) = reference.strip_prefix(COMPONENTS) {
                *reference = format!("{DEFS}{name}");
            }
        }
        Value::Object(map) => map.values_mut().for_each(retarget_refs),
        _ => {}
    }
}

/// `schema` with the named types it reaches, as `$defs`.
fn with_defs(mut schema: Value, components: &BTreeMap<String, Value>) -> Value {
    let mut reached = BTreeSet::new();
    let mut pending = Vec::new();
    references(&schema, &mut pending);
    while let Some(name) = pending.pop() {
        if let Some(component) = components.get(&name)
            && reached.insert(name)
        {
            references(component, &mut pending);
        }
    }
    if !reached.is_empty() {
        let defs: Map<String, Value> = reached
            .into_iter()
            .filter_map(|name| Some((name.clone(), components.get(&name)?.clone())))
            .collect();
        schema["$defs"] = Value::Object(defs);
    }
    schema
}

/// The names of the types `value` refers to.
fn references(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                match (key.as_str(), inner) {
                    ("$ref", Value::String(reference)) => {
                        if let Some(name) = reference.strip_prefix(DEFS) {
                            into.push(name.to_owned());
                        }
                    }
                    _ => references(inner, into),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| references(item, into)),
        _ => {}
    }
}
