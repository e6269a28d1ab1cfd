//! The Rust SDK: a client crate on reqwest, one async method per route.

use std::{
    collections::BTreeSet,
    io::Write,
    process::{Command, Stdio},
};

use askama::Template;
use framework::{
    manifest::{SecurityKindManifest, VersionManifest},
    schema::{
        DefId, EnumValue, FieldDef, Format, IntegerFormat, NumberFormat, ObjectDef, Registry,
        Schema, TypeKind, UnionDef, UnionRepr, VariantKind, type_label,
    },
};

mod method;

use method::{Method, credential_method};

use crate::{
    GenerateError, GeneratedFile,
    model::{Model, Namespace},
};

/// How the Rust crate is made.
#[derive(Clone, Debug)]
pub struct RustOptions {
    /// The crate's package name: `bbs-sdk`.
    pub package: String,
    /// `date-time` strings as `chrono::DateTime<chrono::FixedOffset>` and
    /// `date` ones as `chrono::NaiveDate` (the wire form is the same RFC
    /// 3339 text); `String` without it.
    pub chrono: bool,
}

pub(crate) fn generate(
    model: &Model<'_>,
    options: &RustOptions,
) -> Result<Vec<GeneratedFile>, GenerateError> {
    let manifest = model.manifest;
    let rust = RustGen {
        model,
        registry: manifest.registry(),
        chrono: options.chrono,
    };
    let root = model.namespaces()?;
    let mut groups = Vec::new();
    rust.groups(&root, &mut Vec::new(), &mut groups)?;
    let needs = needs(model, &groups);
    let lib = lib_rs(&rust, options, groups, &needs)?;
    let types = Types {
        title: &manifest.title,
        decls: rust.declarations()?,
    }
    .render()?;
    Ok(vec![
        cargo_toml(model, options, &needs)?,
        GeneratedFile {
            path: "src/lib.rs".into(),
            contents: rustfmt(&lib)?,
        },
        GeneratedFile {
            path: "src/types.rs".into(),
            contents: rustfmt(&types)?,
        },
        shared("shape.rs", framework::__private::SHAPE_RS),
        shared("presence.rs", framework::__private::PRESENCE_RS),
    ])
}

/// `src/lib.rs`, before rustfmt: the client, its methods in `groups`, and
/// what the crate `needs` written.
fn lib_rs(
    rust: &RustGen<'_, '_>,
    options: &RustOptions,
    groups: Vec<Group>,
    needs: &Needs,
) -> Result<String, GenerateError> {
    let model = rust.model;
    let manifest = model.manifest;
    let answer_enums = groups
        .iter()
        .flat_map(|group| &group.methods)
        .map(|method| method.answer_enum.as_str())
        .collect::<String>();
    let error_body = model.error_body().map(|schema| rust.type_of(schema, None));
    let lib = Lib {
        error_alias: error_body.clone().filter(|body| body != "ErrorBody"),
        error_body: error_body.is_some(),
        crate_name: &options.package.replace('-', "_"),
        title: &manifest.title,
        version: &manifest.version,
        description: manifest.description.as_deref().unwrap_or_default(),
        schemes: schemes(model),
        groups,
        answer_enums,
        events: needs.events,
        websocket: needs.websocket,
        multipart: needs.multipart,
        api_version: manifest.api_version.as_ref(),
    };
    Ok(lib.render()?)
}

/// The crate's `Cargo.toml`, with the dependencies it `needs`.
fn cargo_toml(
    model: &Model<'_>,
    options: &RustOptions,
    needs: &Needs,
) -> Result<GeneratedFile, GenerateError> {
    let manifest = model.manifest;
    let cargo_toml = CargoToml {
        package: &options.package,
        version: &manifest.version,
        // A JSON string is a valid TOML basic string.
        description: &serde_json::Value::from(format!("Client SDK of {}", manifest.title))
            .to_string(),
        events: needs.events,
        websocket: needs.websocket,
        multipart: needs.multipart,
        chrono: options.chrono,
    };
    Ok(GeneratedFile {
        path: "Cargo.toml".into(),
        contents: cargo_toml
            .render()
            .map(crate::typescript::with_final_newline)?,
    })
}

/// What the crate needs beyond reqwest and serde.
struct Needs {
    /// A route answers server-sent events.
    events: bool,
    /// A route is a WebSocket.
    websocket: bool,
    /// A route reads a multipart form.
    multipart: bool,
}

fn needs(model: &Model<'_>, groups: &[Group]) -> Needs {
    let methods = || groups.iter().flat_map(|group| &group.methods);
    Needs {
        events: methods().any(|method| method.events),
        websocket: methods().any(|method| method.websocket),
        multipart: model.manifest.routes.iter().any(|route| {
            route.sdk
                && route
                    .body
                    .as_ref()
                    .is_some_and(|body| body.kind == framework::ContentKind::Multipart)
        }),
    }
}

/// A file of the framework's that the SDK holds as it is, so that it reads
/// answers by the server's own rules (one implementation of each).
fn shared(name: &str, source: &str) -> GeneratedFile {
    GeneratedFile {
        path: format!("src/{name}").into(),
        contents: format!(
            "// Written by sdk-gen from the framework's `dto/{name}`: the server's own\n\
             // rules, shared with this SDK; do not edit.\n\n{source}"
        ),
    }
}

/// Formats Rust source as `cargo fmt` would.
fn rustfmt(source: &str) -> Result<String, GenerateError> {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| {
            GenerateError::Format(format!(
                "{err} (install it with `rustup component add rustfmt`)"
            ))
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(source.as_bytes())
            .map_err(|err| GenerateError::Format(err.to_string()))?;
    }
    let output = child
        .wait_with_output()
        .map_err(|err| GenerateError::Format(err.to_string()))?;
    if !output.status.success() {
        return Err(GenerateError::Format(
            String::from_utf8_lossy(&output.stderr).into_owned(),
        ));
    }
    String::from_utf8(output.stdout).map_err(|err| GenerateError::Format(err.to_string()))
}

struct RustGen<'a, 'm> {
    model: &'a Model<'m>,
    registry: Registry,
    /// Dates and times as chrono's types ([`RustOptions::chrono`]).
    chrono: bool,
}

impl RustGen<'_, '_> {
    /// A field's doc comment, with its wire type and default.
    fn field_doc(&self, field: &FieldDef) -> String {
        let mut doc = field.description.clone();
        if !doc.is_empty() {
            doc.push_str("\n\n");
        }
        doc.push_str(&format!(
            "On the wire: `{}`.",
            type_label(&field.schema, &self.registry)
        ));
        if let Some(default) = &field.default {
            doc.push_str(&format!(" Default: `{default}`."));
        }
        if let Some(check) = &field.server_check {
            doc.push_str(&format!(
                " The server also checks it with `{check}`, which this SDK cannot run."
            ));
        }
        doc
    }

    fn type_name(&self, id: DefId) -> String {
        pascal(&self.model.manifest.types[id.0].name)
    }

    /// The Rust type of a schema; `owner` is the type holding it, boxed
    /// where it would contain itself.
    fn type_of(&self, schema: &Schema, owner: Option<DefId>) -> String {
        match schema {
            Schema::Any => "serde_json::Value".to_owned(),
            Schema::Null => "()".to_owned(),
            Schema::Boolean => "bool".to_owned(),
            Schema::Integer(int) => match int.format {
                IntegerFormat::Int8 => "i8",
                IntegerFormat::Int16 => "i16",
                IntegerFormat::Int32 => "i32",
                IntegerFormat::Int64 => "i64",
                IntegerFormat::Uint8 => "u8",
                IntegerFormat::Uint16 => "u16",
                IntegerFormat::Uint32 => "u32",
                IntegerFormat::Uint64 => "u64",
            }
            .to_owned(),
            Schema::Number(number) => match number.format {
                NumberFormat::Float => "f32",
                NumberFormat::Double => "f64",
            }
            .to_owned(),
            Schema::String(string) => match string.format {
                Some(Format::Uuid) => "uuid::Uuid",
                Some(Format::DateTime) if self.chrono => "chrono::DateTime<chrono::FixedOffset>",
                Some(Format::Date) if self.chrono => "chrono::NaiveDate",
                _ => "String",
            }
            .to_owned(),
            Schema::File(_) => "crate::UploadFile".to_owned(),
            Schema::Array(array) => format!("Vec<{}>", self.type_of(&array.items, None)),
            Schema::Map(values) => format!(
                "std::collections::BTreeMap<String, {}>",
                self.type_of(values, None)
            ),
            Schema::Nullable(inner) => format!("Option<{}>", self.type_of(inner, owner)),
            Schema::Ref(id) => {
                let name = self.type_name(*id);
                match owner {
                    Some(owner) if self.model.reaches(schema, owner) => format!("Box<{name}>"),
                    _ => name,
                }
            }
        }
    }

    /// The type of a path parameter as a method takes it.
    fn param_type(&self, schema: &Schema) -> String {
        match schema {
            Schema::String(string) if string.format != Some(Format::Uuid) => "&str".to_owned(),
            other => self.type_of(other, None),
        }
    }

    fn declarations(&self) -> Result<Vec<RustDecl>, GenerateError> {
        let mut decls = Vec::new();
        let mut taken = BTreeSet::new();
        for (index, named) in self.model.manifest.types.iter().enumerate() {
            let id = DefId(index);
            if !self.model.is_used(id) {
                continue;
            }
            let name = self.type_name(id);
            if !taken.insert(name.clone()) || RESERVED.contains(&name.as_str()) {
                return Err(GenerateError::Conflict(format!(
                    "two types would be named `{name}` in the Rust SDK; rename one with #[serde(rename = \"...\")]"
                )));
            }
            let doc = doc_comment(&named.def.description, "");
            decls.push(match &named.def.kind {
                TypeKind::Object(object) => self.object_decl(doc, name, object, id),
                TypeKind::StringEnum(values) => string_enum_decl(doc, name, values),
                TypeKind::Union(union) => self.union_decl(doc, name, union, id),
            });
        }
        Ok(decls)
    }

    /// A struct.
    fn object_decl(&self, doc: String, name: String, object: &ObjectDef, id: DefId) -> RustDecl {
        RustDecl {
            doc,
            name,
            // A form with files is sent part by part, never as JSON.
            derives: object_derives(object),
            attrs: Vec::new(),
            shape: if object.fields.iter().any(|field| holds_files(&field.schema)) {
                ""
            } else {
                "Object"
            },
            keyword: "struct",
            body: self.fields(object, id, true),
        }
    }

    /// An enum of a union of variants, in serde's representation of it.
    fn union_decl(&self, doc: String, name: String, union: &UnionDef, id: DefId) -> RustDecl {
        let attrs = match &union.repr {
            UnionRepr::External => Vec::new(),
            UnionRepr::Internal { tag } => vec![format!("#[serde(tag = {tag:?})]")],
            UnionRepr::Adjacent { tag, content } => {
                vec![format!("#[serde(tag = {tag:?}, content = {content:?})]")]
            }
            UnionRepr::Untagged => vec!["#[serde(untagged)]".to_owned()],
        };
        let mut body = String::new();
        let mut taken = BTreeSet::new();
        for variant in &union.variants {
            body.push_str(&doc_comment(&variant.description, "    "));
            let ident = unique(pascal(&variant.rust_name), &mut taken);
            if ident != variant.name && union.repr != UnionRepr::Untagged {
                body.push_str(&format!("    #[serde(rename = {:?})]\n", variant.name));
            }
            match &variant.kind {
                VariantKind::Unit => body.push_str(&format!("    {ident},\n")),
                VariantKind::Newtype(schema) => body.push_str(&format!(
                    "    {ident}({}),\n",
                    self.type_of(schema, Some(id))
                )),
                VariantKind::Struct(object) => body.push_str(&format!(
                    "    {ident} {{\n{}    }},\n",
                    self.fields(object, id, false)
                )),
            }
        }
        RustDecl {
            doc,
            name,
            derives: "Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize".into(),
            attrs,
            shape: match union.repr {
                UnionRepr::External => "External",
                UnionRepr::Internal { .. } => "Tagged",
                UnionRepr::Adjacent { .. } => "Object",
                UnionRepr::Untagged => "Content",
            },
            keyword: "enum",
            body,
        }
    }

    /// The fields of a struct (`public`) or a struct variant.
    fn fields(&self, object: &ObjectDef, owner: DefId, public: bool) -> String {
        let mut body = String::new();
        let mut taken = BTreeSet::new();
        let with_files = object.fields.iter().any(|field| holds_files(&field.schema));
        for field in &object.fields {
            body.push_str(&doc_comment(&self.field_doc(field), "    "));
            let ident = unique(snake(&field.name), &mut taken);
            let mut serde = Vec::new();
            if ident.trim_start_matches("r#") != field.name {
                serde.push(format!("rename = {:?}", field.name));
            }
            let inner = self.type_of(&field.schema, Some(owner));
            let may_be_absent = may_be_absent(field);
            // Absent, `null` and a value as the server reads them: an
            // optional property is never `null` unless it is nullable too,
            // a nullable one is never absent unless it is optional too.
            let nullable = matches!(field.schema, Schema::Nullable(_));
            let ty = if may_be_absent {
                serde.push("default".to_owned());
                serde.push("skip_serializing_if = \"Option::is_none\"".to_owned());
                serde.push(if nullable {
                    "with = \"crate::present\"".to_owned()
                } else {
                    "deserialize_with = \"crate::presence::present\"".to_owned()
                });
                format!("Option<{inner}>")
            } else {
                if nullable {
                    serde.push("deserialize_with = \"crate::presence::nullable\"".to_owned());
                }
                inner
            };
            // A form with files has no serde (see `object_derives`).
            if !serde.is_empty() && !with_files {
                body.push_str(&format!("    #[serde({})]\n", serde.join(", ")));
            }
            let visibility = if public { "pub " } else { "" };
            body.push_str(&format!("    {visibility}{ident}: {ty},\n"));
        }
        body
    }

    fn groups(
        &self,
        namespace: &Namespace,
        path: &mut Vec<String>,
        out: &mut Vec<Group>,
    ) -> Result<(), GenerateError> {
        let name = if path.is_empty() {
            "Client".to_owned()
        } else {
            path.iter()
                .map(|segment| pascal(segment))
                .collect::<String>()
                + "Api"
        };
        let mut children = Vec::new();
        for child in namespace.children.keys() {
            let mut child_path = path.clone();
            child_path.push(child.clone());
            children.push(Child {
                method: snake(child),
                ty: child_path
                    .iter()
                    .map(|segment| pascal(segment))
                    .collect::<String>()
                    + "Api",
                doc: format!("`{}`", child_path.join(".")),
            });
        }
        let mut methods = Vec::new();
        for (function, index) in &namespace.routes {
            methods.push(self.method(function, &self.model.manifest.routes[*index])?);
        }
        out.push(Group {
            name,
            root: path.is_empty(),
            doc: if path.is_empty() {
                String::new()
            } else {
                format!("The routes under `{}`.", path.join("."))
            },
            children,
            methods,
        });
        for (child, namespace) in &namespace.children {
            path.push(child.clone());
            self.groups(namespace, path, out)?;
            path.pop();
        }
        Ok(())
    }
}

/// An enum of strings.
fn string_enum_decl(doc: String, name: String, values: &[EnumValue]) -> RustDecl {
    let mut body = String::new();
    let mut taken = BTreeSet::new();
    for value in values {
        body.push_str(&doc_comment(&value.description, "    "));
        let variant = unique(pascal(&value.rust_name), &mut taken);
        body.push_str(&format!(
            "    #[serde(rename = {:?})]\n    {variant},\n",
            value.value
        ));
    }
    RustDecl {
        doc,
        name,
        derives: "Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize"
            .into(),
        attrs: Vec::new(),
        shape: "External",
        keyword: "enum",
        body,
    }
}

/// Names the SDK's own items take: a type of the API must not.
const RESERVED: &[&str] = &[
    "Client",
    "ClientBuilder",
    "Created",
    "Download",
    "Error",
    "ErrorBody",
    "EventStream",
    "FileStream",
    "Problem",
    "Reconnect",
    "Redirect",
    "ServerEvent",
    "Socket",
    "UploadFile",
    "ValidationIssue",
];

/// What a struct derives: serde unless it holds files (a form sent part by
/// part, never as JSON), and `Default` when every field may be left out.
fn object_derives(object: &ObjectDef) -> String {
    let mut derives = String::from("Clone, Debug, PartialEq");
    if object.fields.iter().all(may_be_absent) {
        derives.push_str(", Default");
    }
    if !object.fields.iter().any(|field| holds_files(&field.schema)) {
        derives.push_str(", serde::Serialize, serde::Deserialize");
    }
    derives
}

/// Whether a struct's field is an `Option` in the SDK.
pub(crate) fn may_be_absent(field: &FieldDef) -> bool {
    !field.required || !field.always_present
}

/// Whether a field is a file or a list of them.
pub(crate) fn holds_files(schema: &Schema) -> bool {
    match schema {
        Schema::File(_) => true,
        Schema::Array(array) => matches!(*array.items, Schema::File(_)),
        _ => false,
    }
}

/// `///` lines, indented.
fn doc_comment(text: &str, indent: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            out.push_str(&format!("{indent}///\n"));
        } else {
            out.push_str(&format!("{indent}/// {}\n", line.trim_end()));
        }
    }
    out
}

/// `Page_ArticleSummary` -> `PageArticleSummary`, `+created_at` -> `CreatedAt`.
pub(crate) fn pascal(name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if upper {
                out.push(c.to_ascii_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        } else {
            upper = true;
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

/// `createdAt` -> `created_at`, `type` -> `r#type`.
pub(crate) fn snake(name: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if previous_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            previous_lower = false;
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            previous_lower = false;
        }
    }
    let trimmed = out.trim_end_matches('_');
    let mut out = if trimmed.is_empty() {
        "_".to_owned()
    } else {
        trimmed.to_owned()
    };
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if KEYWORDS.contains(&out.as_str()) {
        if matches!(out.as_str(), "self" | "super" | "crate" | "Self") {
            out.push('_');
        } else {
            out.insert_str(0, "r#");
        }
    }
    out
}

fn unique(name: String, taken: &mut BTreeSet<String>) -> String {
    let mut candidate = name.clone();
    let mut index = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{name}{index}");
        index += 1;
    }
    candidate
}

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

struct RustDecl {
    doc: String,
    name: String,
    derives: String,
    attrs: Vec<String>,
    /// The `shape::Shape` its serde impls hold it to, as the server's
    /// `#[dto]` does (empty without serde: a form with files).
    shape: &'static str,
    keyword: &'static str,
    body: String,
}

struct Group {
    name: String,
    root: bool,
    doc: String,
    children: Vec<Child>,
    methods: Vec<Method>,
}

struct Child {
    method: String,
    ty: String,
    doc: String,
}

#[derive(Template)]
#[template(path = "rust/Cargo.toml", escape = "none")]
struct CargoToml<'a> {
    package: &'a str,
    version: &'a str,
    description: &'a str,
    /// A route answers server-sent events: the SDK needs `futures-util`.
    events: bool,
    /// A route is a WebSocket: the SDK needs `tokio-tungstenite`.
    websocket: bool,
    /// A route reads a multipart form: reqwest's `multipart` and `stream`.
    multipart: bool,
    /// Dates and times are chrono's types.
    chrono: bool,
}

#[derive(Template)]
#[template(path = "rust/lib.rs", escape = "none")]
struct Lib<'a> {
    crate_name: &'a str,
    title: &'a str,
    version: &'a str,
    description: &'a str,
    schemes: Vec<Scheme>,
    groups: Vec<Group>,
    /// The enums of routes with several answers.
    answer_enums: String,
    /// A route answers server-sent events: `EventStream` is written.
    events: bool,
    /// A route is a WebSocket: `Socket` is written.
    websocket: bool,
    /// A route reads a multipart form: `UploadFile` is written.
    multipart: bool,
    /// The app declares its own error contract: `Error::Api` carries its
    /// body (`ErrorBody`) instead of the problem document.
    error_body: bool,
    /// What `ErrorBody` names: the body's type, unless it is itself named
    /// `ErrorBody`.
    error_alias: Option<String>,
    /// The API version the SDK speaks, sent on every request, when the
    /// app serves versions.
    api_version: Option<&'a VersionManifest>,
}

/// A security scheme, as the client builder takes its credential.
struct Scheme {
    /// `moderator`: the field of `Credentials`.
    field: String,
    /// `moderator_token`: the method of `ClientBuilder`.
    method: String,
    doc: String,
}

/// The client's security schemes.
fn schemes(model: &Model<'_>) -> Vec<Scheme> {
    model
        .manifest
        .security_schemes
        .iter()
        .map(|scheme| {
            let carrier = match &scheme.kind {
                SecurityKindManifest::ApiKeyHeader { name } => format!("the `{name}` header"),
                SecurityKindManifest::ApiKeyCookie { name } => format!("the `{name}` cookie"),
                SecurityKindManifest::Authorization { scheme } => format!(
                    "`Authorization: {scheme} <token>` (give the bare token: the client adds `{scheme} `)"
                ),
                _ => "`Authorization: Bearer <token>`".to_owned(),
            };
            let doc = format!(
                "{}\n\nThe credential of the `{}` scheme, sent as {carrier} to the routes that need it.",
                scheme.description, scheme.name
            );
            Scheme {
                field: snake(&scheme.name),
                method: credential_method(scheme),
                doc: doc_comment(&doc, "    "),
            }
        })
        .collect()
}

#[derive(Template)]
#[template(path = "rust/types.rs", escape = "none")]
struct Types<'a> {
    title: &'a str,
    decls: Vec<RustDecl>,
}

#[cfg(test)]
mod tests {
    use super::{pascal, snake};

    #[test]
    fn names_become_rust_identifiers() {
        assert_eq!(pascal("Page_ArticleSummary"), "PageArticleSummary");
        assert_eq!(pascal("+created_at"), "CreatedAt");
        assert_eq!(pascal("md"), "Md");
        assert_eq!(snake("createdAt"), "created_at");
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("x-tenant-id"), "x_tenant_id");
        assert_eq!(snake("self"), "self_");
    }
}
