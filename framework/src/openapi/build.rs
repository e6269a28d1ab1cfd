//! The OpenAPI 3.1 document of an app (the `openapi` feature), built
//! from its manifest in utoipa's model.

use std::collections::BTreeMap;

use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApi, OpenApiBuilder, Paths, RefOr,
    Required, ResponseBuilder,
    encoding::EncodingBuilder,
    extensions::{Extensions, ExtensionsBuilder},
    header::HeaderBuilder,
    path::{
        HttpMethod as OaMethod, OperationBuilder, Parameter, ParameterBuilder, ParameterIn,
        ParameterStyle,
    },
    request_body::RequestBodyBuilder,
    schema::{
        ArrayBuilder, KnownFormat, ObjectBuilder, Schema as OaSchema, SchemaFormat, SchemaType,
        Type,
    },
    security::{
        ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme,
    },
    server::Server,
};

use super::{document::OpenApiDocument, schema::Converter};
use crate::{
    describe::{
        ContentKind, HttpMethod,
        manifest::{
            ApiManifest, BodyManifest, ContentManifest, ManifestError, PROBLEM_TYPE,
            ResponseManifest, RouteManifest, SecurityKindManifest, SecuritySchemeManifest,
            VersionManifest, WebSocketManifest,
        },
    },
    error::PROBLEM_JSON,
    schema::{DefId, FieldDef, Schema, TypeKind},
};

impl OpenApiDocument {
    /// The document as pretty JSON, deterministic for the same routes.
    pub fn to_json(&self) -> Result<String, ManifestError> {
        let document = self.build()?;
        // The model holds only strings, numbers, maps and arrays.
        Ok(document.to_pretty_json().unwrap_or_default())
    }

    /// The document, in utoipa's model.
    pub fn build(&self) -> Result<OpenApi, ManifestError> {
        Ok(self.from_manifest(&self.manifest()?))
    }

    /// The document of a manifest, with this document's security schemes.
    pub fn from_manifest(&self, manifest: &ApiManifest) -> OpenApi {
        with_converter(manifest, |converter| self.converted(manifest, converter))
    }

    /// [`from_manifest`](Self::from_manifest), given the manifest's schemas.
    fn converted(&self, manifest: &ApiManifest, converter: &Converter<'_>) -> OpenApi {
        let mut components = ComponentsBuilder::new();
        if manifest.error_body.is_none() {
            components = components.schema(PROBLEM_TYPE, problem_schema());
        }
        for (name, schema) in component_schemas(converter) {
            components = components.schema(name, schema);
        }
        for (name, scheme) in &self.security_schemes {
            components = components.security_scheme(name.clone(), scheme.clone());
        }
        for scheme in &manifest.security_schemes {
            components = components.security_scheme(scheme.name.clone(), security_scheme(scheme));
        }
        // Operations with no guard say so (`security: []`) when some
        // operation has one, so generators do not guess.
        let guarded = !self.security_schemes.is_empty() || !manifest.security_schemes.is_empty();
        let mut paths = Paths::new();
        for route in &manifest.routes {
            let mut operation =
                self.operation(route, converter, guarded, manifest.error_body.as_ref());
            if let Some(version) = &manifest.api_version {
                operation
                    .parameters
                    .get_or_insert_with(Vec::new)
                    .push(version_parameter(version));
            }
            paths.add_path_operation(route.router_path(), vec![method(route.method)], operation);
        }
        let mut info = InfoBuilder::new()
            .title(manifest.title.clone())
            .version(manifest.version.clone());
        if let Some(description) = &manifest.description {
            info = info.description(Some(description.clone()));
        }
        // Relative to where the document is served from: clients generated
        // from `/openapi.json` call the same origin.
        OpenApiBuilder::new()
            .info(info)
            .servers(Some([Server::new("/")]))
            .paths(paths)
            .components(Some(components.build()))
            .build()
    }
    fn operation(
        &self,
        route: &RouteManifest,
        converter: &Converter<'_>,
        guarded: bool,
        error_body: Option<&ContentManifest>,
    ) -> utoipa::openapi::path::Operation {
        let text = |text: &str| (!text.is_empty()).then(|| text.to_owned());
        let mut operation = OperationBuilder::new()
            .operation_id(Some(route.operation_id.clone()))
            .tag(route.controller.clone())
            .summary(text(&route.summary))
            .description(text(&route.description));
        let parameters = parameters(route, converter);
        if !parameters.is_empty() {
            operation = operation.parameters(Some(parameters));
        }
        if let Some(body) = &route.body {
            operation = operation.request_body(Some(request_body(body, converter)));
        }
        for (status, answer) in responses(route, converter, error_body) {
            operation = operation.response(status.to_string(), answer);
        }
        let required: Vec<&String> = self.security.iter().chain(&route.security).collect();
        if !required.is_empty() || !route.optional_security.is_empty() {
            operation =
                operation.securities(Some(requirements(&required, &route.optional_security)));
        } else if guarded {
            operation = operation.securities(Some(Vec::<SecurityRequirement>::new()));
        }
        if let Some(websocket) = &route.websocket {
            operation = operation.extensions(Some(websocket_extension(websocket, converter)));
        }
        operation.build()
    }
}

/// A route's parameters: its path's, its query's, headers' and cookies'
/// fields, and the headers it documents apart (`Last-Event-ID`).
/// Calls `with` with a converter of the manifest's schemas, which names
/// each type as the manifest does: the one set-up of the document and of
/// the MCP endpoint's tool schemas.
pub(crate) fn with_converter<R>(
    manifest: &ApiManifest,
    with: impl FnOnce(&Converter<'_>) -> R,
) -> R {
    let registry = manifest.registry();
    let names: BTreeMap<DefId, String> = manifest
        .types
        .iter()
        .enumerate()
        .map(|(index, named)| (DefId(index), named.name.clone()))
        .collect();
    with(&Converter {
        registry: &registry,
        names: &names,
    })
}

/// The schema of every named type (the document's components, less the
/// problem document), by name.
pub(crate) fn component_schemas(converter: &Converter<'_>) -> Vec<(String, RefOr<OaSchema>)> {
    converter
        .registry
        .defs()
        .flat_map(|(id, def)| converter.definition(&converter.names[&id], def))
        .collect()
}

/// The header naming the API version a document describes: required with
/// its one value, unless this version is what a request without it gets.
fn version_parameter(version: &VersionManifest) -> Parameter {
    let description = if version.default {
        format!(
            "The API version: {v}, which a request without this header is served too.",
            v = version.version
        )
    } else {
        format!(
            "The API version: {v}. A request without this header is served another version.",
            v = version.version
        )
    };
    ParameterBuilder::new()
        .name(version.header.clone())
        .parameter_in(ParameterIn::Header)
        .required(if version.default {
            Required::False
        } else {
            Required::True
        })
        .description(Some(description))
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([version.version.clone()]))
                .default(Some(serde_json::Value::String(version.version.clone()))),
        ))
        .build()
}

fn parameters(route: &RouteManifest, converter: &Converter<'_>) -> Vec<Parameter> {
    let mut parameters: Vec<Parameter> = route
        .path_params
        .iter()
        .map(|param| {
            ParameterBuilder::new()
                .name(param.name.clone())
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .schema(Some(converter.schema(&param.schema)))
                .build()
        })
        .collect();
    let fields = [
        (ParameterIn::Query, &route.query),
        (ParameterIn::Header, &route.headers),
        (ParameterIn::Cookie, &route.cookies),
    ];
    for (location, schema) in fields {
        if let Some(Schema::Ref(id)) = schema
            && let TypeKind::Object(object) = &converter.registry.get(*id).kind
        {
            parameters.extend(
                object
                    .fields
                    .iter()
                    .map(|field| field_parameter(&location, field, converter)),
            );
        }
    }
    parameters.extend(route.header_params.iter().map(|header| {
        ParameterBuilder::new()
            .name(header.name.clone())
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(header.description.clone()))
            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
            .build()
    }));
    parameters
}

/// One field of a query, headers or cookies type as a parameter; a
/// structured query field is a `deepObject` (or a `form` array), exploded.
fn field_parameter(
    location: &ParameterIn,
    field: &FieldDef,
    converter: &Converter<'_>,
) -> Parameter {
    let structured = matches!(
        unwrap_nullable(&field.schema),
        Schema::Ref(_) | Schema::Array(_) | Schema::Map(_)
    );
    let style = if *location == ParameterIn::Query {
        query_style(&field.schema, converter)
    } else {
        None
    };
    ParameterBuilder::new()
        .name(field.name.clone())
        .parameter_in(location.clone())
        .required(if field.required {
            Required::True
        } else {
            Required::False
        })
        .description((!field.description.is_empty()).then(|| field.description.clone()))
        .style(style)
        .explode(structured.then_some(true))
        .schema(Some(converter.schema(&field.schema)))
        .build()
}

/// A route's body: its media type and schema, and a multipart form's
/// accepted file types as encodings.
fn request_body(
    body: &BodyManifest,
    converter: &Converter<'_>,
) -> utoipa::openapi::request_body::RequestBody {
    let mut content = ContentBuilder::new().schema(Some(content_schema(
        body.kind,
        body.schema.as_ref(),
        converter,
    )));
    if body.kind == ContentKind::Multipart {
        for (field, accept) in accepted_types(body.schema.as_ref(), converter) {
            content = content.encoding(
                field,
                EncodingBuilder::new().content_type(Some(accept.join(", "))),
            );
        }
    }
    RequestBodyBuilder::new()
        .required(Some(Required::True))
        .content(body.media_type.clone(), content.build())
        .build()
}

/// A route's responses by status: its answers, and its errors in the
/// problem document or the app's own error body. An answer and an error
/// with one status (a page's `400` re-render and the framework's `400`
/// problem) are one response with both media types.
fn responses(
    route: &RouteManifest,
    converter: &Converter<'_>,
    error_body: Option<&ContentManifest>,
) -> BTreeMap<u16, utoipa::openapi::Response> {
    let mut responses: BTreeMap<u16, utoipa::openapi::Response> = route
        .responses
        .iter()
        .map(|answer| (answer.status, response(answer, converter)))
        .collect();
    for error in &route.errors {
        let problem = match error_body {
            Some(body) => response(
                &ResponseManifest::new(error.status)
                    .described(error.description.clone())
                    .with_content(body.clone()),
                converter,
            ),
            None => problem_response(&error.description),
        };
        match responses.get_mut(&error.status) {
            Some(answer) => answer.content.extend(problem.content),
            None => {
                responses.insert(error.status, problem);
            }
        }
    }
    responses
}

/// The alternatives of an operation's `security`: every `required` scheme
/// together (one requirement object), with each `optional` one in turn and
/// then without any (`{}`: anonymous access), so `[{token: []}, {}]` for a
/// route whose only guard is optional.
fn requirements(required: &[&String], optional: &[String]) -> Vec<SecurityRequirement> {
    let all = required
        .iter()
        .fold(SecurityRequirement::default(), |requirement, scheme| {
            requirement.add(scheme.as_str(), Vec::<String>::new())
        });
    optional
        .iter()
        .map(|scheme| all.clone().add(scheme.as_str(), Vec::<String>::new()))
        .chain(std::iter::once(all.clone()))
        .collect()
}

/// The name of the extension that documents a WebSocket route.
pub const WEBSOCKET_EXTENSION: &str = "x-websocket";

/// `x-websocket` on a WebSocket route's `GET`: OpenAPI has no object for
/// a socket, so the messages each side sends are given as schemas here,
/// next to the `101` answer.
fn websocket_extension(websocket: &WebSocketManifest, converter: &Converter<'_>) -> Extensions {
    let schema = |schema: &Schema| {
        // A schema is strings, numbers, maps and arrays.
        serde_json::to_value(converter.schema(schema)).unwrap_or_default()
    };
    let described = serde_json::json!({
        "description": "The response 101 turns the connection into a WebSocket. Each message is one text frame holding one JSON value: `clientMessage` from the client, `serverMessage` from the server. A message that is not valid closes the socket with code 1007 (the reason says why), a message over the size limit with 1009; the server closes idle sockets and, when it shuts down, open sockets with 1001.",
        "clientMessage": schema(&websocket.client),
        "serverMessage": schema(&websocket.server),
    });
    ExtensionsBuilder::new()
        .add(WEBSOCKET_EXTENSION, described)
        .build()
}

/// The schema of a body: bytes are `string` with `format: binary`; an
/// event stream is described one event at a time ([`event_schema`]).
fn content_schema(
    kind: ContentKind,
    schema: Option<&Schema>,
    converter: &Converter<'_>,
) -> RefOr<OaSchema> {
    match (kind, schema) {
        (ContentKind::Bytes, _) | (_, None) => ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            .into(),
        (ContentKind::EventStream, Some(schema)) => event_schema(converter.schema(schema)),
        (_, Some(schema)) => converter.schema(schema),
    }
}

/// One server-sent event, as OpenAPI before 3.2 describes an event
/// stream's `schema` (and 3.2 its `itemSchema`), and as tools such as
/// schemathesis check each event: its fields, with `data` a string of JSON
/// whose schema is `contentSchema` (JSON Schema's keyword, which utoipa's
/// builder lacks, hence the map).
fn event_schema(data: RefOr<OaSchema>) -> RefOr<OaSchema> {
    let text = |description: &str| {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(description))
    };
    // A schema is strings, numbers, maps and arrays: it serializes.
    let content_schema: utoipa::openapi::extensions::Extensions = [(
        "contentSchema",
        serde_json::to_value(&data).unwrap_or_default(),
    )]
    .into_iter()
    .collect();
    let data = text("One line of JSON, a value of `contentSchema`.")
        .content_media_type("application/json")
        .extensions(Some(content_schema));
    let retry = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0))
        .description(Some(
            "How long to wait before reconnecting, in milliseconds.",
        ));
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("One server-sent event."))
        .property("event", text("The event's name; `message` when absent."))
        .property(
            "id",
            text("Its id: send the last one seen as `Last-Event-ID` to resume."),
        )
        .property("retry", retry)
        .property("data", data)
        .required("data")
        .into()
}

/// One answer: its body by media type, and its headers.
fn response(answer: &ResponseManifest, converter: &Converter<'_>) -> utoipa::openapi::Response {
    let mut response = ResponseBuilder::new().description(answer.description.clone());
    if let Some(content) = &answer.content {
        response = response.content(
            content.media_type.clone(),
            ContentBuilder::new()
                .schema(Some(content_schema(
                    content.kind,
                    content.schema.as_ref(),
                    converter,
                )))
                .build(),
        );
    }
    for header in &answer.headers {
        let description = if header.required {
            header.description.clone()
        } else {
            format!("{} Not always sent.", header.description)
        };
        let built = HeaderBuilder::new()
            .schema(ObjectBuilder::new().schema_type(Type::String))
            .description(Some(description))
            .build();
        response = response.header(header.name.clone(), built);
    }
    response.build()
}

/// A scheme of the manifest in OpenAPI's terms.
fn security_scheme(scheme: &SecuritySchemeManifest) -> SecurityScheme {
    let description = (!scheme.description.is_empty()).then(|| scheme.description.clone());
    match &scheme.kind {
        SecurityKindManifest::ApiKeyHeader { name } => SecurityScheme::ApiKey(ApiKey::Header(
            ApiKeyValue::with_description(name.clone(), description.unwrap_or_default()),
        )),
        SecurityKindManifest::ApiKeyCookie { name } => SecurityScheme::ApiKey(ApiKey::Cookie(
            ApiKeyValue::with_description(name.clone(), description.unwrap_or_default()),
        )),
        SecurityKindManifest::Authorization { scheme: word } => match registered_scheme(word) {
            Some(registered) => SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(registered)
                    .description(description)
                    .build(),
            ),
            // OpenAPI's `http` type takes only registered schemes: another
            // is an API key in `Authorization` whose value says the word.
            None => {
                let value = format!("`{word} <token>`");
                let description = match description {
                    Some(description) => format!("{description}\n\nSent as {value}."),
                    None => format!("Sent as {value}."),
                };
                SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                    "Authorization".to_owned(),
                    description,
                )))
            }
        },
        // `Bearer`, and kinds added later.
        _ => SecurityScheme::Http(
            HttpBuilder::new()
                .scheme(HttpAuthScheme::Bearer)
                .description(description)
                .build(),
        ),
    }
}

/// `scheme` as OpenAPI's `http` type names it, when it is in the IANA HTTP
/// Authentication Scheme Registry and utoipa's model has it. The registry's
/// `Concealed`, `DPoP`, `GNAP` and `PrivateToken` are not in utoipa's
/// closed `HttpAuthScheme`, so they are documented as an API key in
/// `Authorization`, as unregistered schemes are.
fn registered_scheme(scheme: &str) -> Option<HttpAuthScheme> {
    let known = [
        ("basic", HttpAuthScheme::Basic),
        ("bearer", HttpAuthScheme::Bearer),
        ("digest", HttpAuthScheme::Digest),
        ("hoba", HttpAuthScheme::Hoba),
        ("mutual", HttpAuthScheme::Mutual),
        ("negotiate", HttpAuthScheme::Negotiate),
        ("oauth", HttpAuthScheme::OAuth),
        ("scram-sha-1", HttpAuthScheme::ScramSha1),
        ("scram-sha-256", HttpAuthScheme::ScramSha256),
        ("vapid", HttpAuthScheme::Vapid),
    ];
    known
        .into_iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(scheme))
        .map(|(_, registered)| registered)
}

/// The media types each file field of a multipart body accepts (its
/// `accept` tag), for the body's `encoding`.
fn accepted_types<'a>(
    schema: Option<&Schema>,
    converter: &Converter<'a>,
) -> Vec<(String, &'a [String])> {
    let Some(Schema::Ref(id)) = schema else {
        return Vec::new();
    };
    let TypeKind::Object(object) = &converter.registry.get(*id).kind else {
        return Vec::new();
    };
    object
        .fields
        .iter()
        .filter_map(|field| {
            let file = match unwrap_nullable(&field.schema) {
                Schema::File(file) => file,
                Schema::Array(array) => match unwrap_nullable(&array.items) {
                    Schema::File(file) => file,
                    _ => return None,
                },
                _ => return None,
            };
            (!file.accept.is_empty()).then(|| (field.name.clone(), file.accept.as_slice()))
        })
        .collect()
}

/// How a query parameter is written. An object (or map) is `deepObject`
/// (`search[writer]=kim`); an array is OpenAPI's default, `form` exploded
/// (`sort=-title&sort=%2Bwriter`), as OpenAPI defines `deepObject` for
/// objects only and the query extractor reads repeated keys as a list (as
/// it reads `sort[0]=-title`); a scalar or a string enum needs no style.
fn query_style(schema: &Schema, converter: &Converter<'_>) -> Option<ParameterStyle> {
    match unwrap_nullable(schema) {
        Schema::Array(_) => Some(ParameterStyle::Form),
        Schema::Map(_) => Some(ParameterStyle::DeepObject),
        Schema::Ref(id) => match converter.registry.get(*id).kind {
            TypeKind::StringEnum(_) => None,
            _ => Some(ParameterStyle::DeepObject),
        },
        _ => None,
    }
}

fn unwrap_nullable(schema: &Schema) -> &Schema {
    match schema {
        Schema::Nullable(inner) => unwrap_nullable(inner),
        other => other,
    }
}

fn method(method: HttpMethod) -> OaMethod {
    match method {
        HttpMethod::Get => OaMethod::Get,
        HttpMethod::Post => OaMethod::Post,
        HttpMethod::Put => OaMethod::Put,
        HttpMethod::Patch => OaMethod::Patch,
        HttpMethod::Delete => OaMethod::Delete,
    }
}

fn problem_response(description: &str) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            PROBLEM_JSON,
            ContentBuilder::new()
                .schema(Some(utoipa::openapi::Ref::from_schema_name(PROBLEM_TYPE)))
                .build(),
        )
        .build()
}

/// `application/problem+json`, as [`crate::Problem`] reads it.
fn problem_schema() -> RefOr<OaSchema> {
    let string = || ObjectBuilder::new().schema_type(Type::String);
    let issue = ObjectBuilder::new()
        .schema_type(Type::Object)
        .property(
            "path",
            string().description(Some("Where the bad value is: `$input.files[0].url`.")),
        )
        .property(
            "expected",
            string().description(Some("What was expected, as a typia type expression.")),
        )
        .property(
            "value",
            ObjectBuilder::new()
                .schema_type(SchemaType::AnyValue)
                .description(Some(
                    "The value found; absent when the property was missing.",
                )),
        )
        .required("path")
        .required("expected");
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("An RFC 9457 problem document."))
        .property("type", string())
        .property("title", string())
        .property(
            "status",
            ObjectBuilder::new().schema_type(Type::Integer).format(Some(
                utoipa::openapi::schema::SchemaFormat::Custom("uint16".to_owned()),
            )),
        )
        .property(
            "code",
            string().description(Some("A stable, machine-readable code.")),
        )
        .property(
            "detail",
            string().description(Some("A message for people.")),
        )
        .property("errors", ArrayBuilder::new().items(issue))
        .required("type")
        .required("title")
        .required("status")
        .required("code")
        .required("detail")
        .into()
}
