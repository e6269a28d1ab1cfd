//! The TypeScript SDK: a zero-dependency ESM package, nestia's layout, with
//! TanStack Query bindings as a separate entry (`query`).

use std::fmt::Write;

use askama::Template;
use framework::manifest::{SecurityKindManifest, VersionManifest};
use framework::random_value;
use framework::schema::{
    Bounds, DefId, FieldDef, IntegerFormat, IntegerSchema, ObjectDef, Registry, Schema,
    StringSchema, TypeKind, UnionRepr, VariantKind, type_label,
};
use rand::{SeedableRng, rngs::StdRng};
use serde_json::{Map, Value, json};

mod draw;
mod function;
mod query;

use function::Function;

use crate::{
    GenerateError, GeneratedFile,
    model::{Dir, Model, Namespace},
};

/// How the TypeScript package is made.
#[derive(Clone, Debug)]
pub struct TypeScriptOptions {
    /// The npm package name: `@bbs/sdk`.
    pub package: String,
}

/// Random samples embedded for each string `simulate` cannot draw itself
/// (see [`draw::string_draw`]).
const SAMPLES: usize = 4;

pub(crate) fn generate(
    model: &Model<'_>,
    options: &TypeScriptOptions,
) -> Result<Vec<GeneratedFile>, GenerateError> {
    let manifest = model.manifest;
    let ts = TypeScript {
        model,
        registry: manifest.registry(),
    };
    let mut files = vec![
        file(
            "package.json",
            PackageJson {
                package: &options.package,
                version: &manifest.version,
                description: &json_string(&format!("Client SDK of {}", manifest.title)),
            },
        )?,
        file("tsconfig.json", TsConfig)?,
        file(
            "src/runtime.ts",
            Runtime {
                authorization: manifest.security_schemes.iter().any(|scheme| {
                    matches!(scheme.kind, SecurityKindManifest::Authorization { .. })
                }),
                api_version: manifest.api_version.as_ref(),
            },
        )?,
        file(
            "src/index.ts",
            Index {
                title: &manifest.title,
                version: &manifest.version,
                package: &options.package,
                security: security_example(model),
                error_body: model.error_body().is_some(),
            },
        )?,
        file(
            "src/security.ts",
            Security {
                title: &manifest.title,
                schemes: security_schemes(model),
            },
        )?,
        file(
            "src/structures.ts",
            Structures {
                title: &manifest.title,
                decls: ts.declarations()?,
            },
        )?,
        file(
            "src/schemas.ts",
            Schemas {
                types: ts.runtime_types()?,
            },
        )?,
    ];
    let root = model.namespaces()?;
    files.push(query::query_file(&ts, &root, &options.package)?);
    ts.namespace_files(&root, &mut Vec::new(), &mut files)?;
    Ok(files)
}

/// The credentials' properties, one per security scheme.
fn security_schemes(model: &Model<'_>) -> Vec<SchemeField> {
    model
        .manifest
        .security_schemes
        .iter()
        .map(|scheme| {
            let mut doc = Doc::new(&scheme.description);
            doc.line(&format!("Sent as {}.", function::carrier(&scheme.kind)));
            SchemeField {
                doc: doc.render("  "),
                key: property_key(&scheme.name),
            }
        })
        .collect()
}

/// The `security` of the doc example's connection.
fn security_example(model: &Model<'_>) -> String {
    let schemes = &model.manifest.security_schemes;
    if schemes.is_empty() {
        return String::new();
    }
    let fields: Vec<String> = schemes
        .iter()
        .map(|scheme| format!("{}: \"<credential>\"", property_key(&scheme.name)))
        .collect();
    format!("{{ {} }}", fields.join(", "))
}

fn file(path: &str, template: impl Template) -> Result<GeneratedFile, GenerateError> {
    Ok(GeneratedFile {
        path: path.into(),
        contents: with_final_newline(template.render()?),
    })
}

/// Text files end with a newline; templates lose theirs.
pub(crate) fn with_final_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

struct TypeScript<'a, 'm> {
    model: &'a Model<'m>,
    registry: Registry,
}

impl TypeScript<'_, '_> {
    /// The TypeScript type of a schema travelling `dir`.
    fn type_of(&self, schema: &Schema, dir: Dir) -> String {
        match schema {
            Schema::Any => "unknown".to_owned(),
            Schema::Null => "null".to_owned(),
            Schema::Boolean => "boolean".to_owned(),
            Schema::Integer(_) | Schema::Number(_) => "number".to_owned(),
            Schema::String(_) => "string".to_owned(),
            Schema::File(_) => "Blob | File".to_owned(),
            Schema::Array(array) => format!("Array<{}>", self.type_of(&array.items, dir)),
            Schema::Map(values) => format!("Record<string, {}>", self.type_of(values, dir)),
            Schema::Nullable(inner) => format!("{} | null", self.type_of(inner, dir)),
            Schema::Ref(id) => self.model.type_name(*id, dir),
        }
    }

    fn declarations(&self) -> Result<Vec<Decl>, GenerateError> {
        let mut decls = Vec::new();
        for (index, named) in self.model.manifest.types.iter().enumerate() {
            let id = DefId(index);
            if !self.model.is_used(id) {
                continue;
            }
            for dir in self.model.shapes(id) {
                let name = self.model.type_name(id, dir);
                let mut doc = Doc::new(&named.def.description);
                if self.model.differs(id) {
                    doc.line(match dir {
                        Dir::Input => {
                            "The shape a client sends: properties with a default may be left out."
                        }
                        Dir::Output => "The shape the server writes.",
                    });
                }
                let decl = match &named.def.kind {
                    TypeKind::Object(object) => Decl {
                        doc: doc.render(""),
                        name,
                        fields: self.fields(object, dir),
                        alias: String::new(),
                    },
                    TypeKind::StringEnum(values) => {
                        let mut alias = String::new();
                        for value in values {
                            let _ = write!(
                                alias,
                                "\n{}  | {}",
                                Doc::new(&value.description).render("  "),
                                json_string(&value.value)
                            );
                        }
                        Decl {
                            doc: doc.render(""),
                            name,
                            fields: Vec::new(),
                            alias,
                        }
                    }
                    TypeKind::Union(union) => {
                        let mut alias = String::new();
                        for variant in &union.variants {
                            let shape =
                                self.variant_type(&union.repr, &variant.name, &variant.kind, dir);
                            let _ = write!(
                                alias,
                                "\n{}  | {shape}",
                                Doc::new(&variant.description).render("  ")
                            );
                        }
                        Decl {
                            doc: doc.render(""),
                            name,
                            fields: Vec::new(),
                            alias,
                        }
                    }
                };
                decls.push(decl);
            }
        }
        Ok(decls)
    }

    fn fields(&self, object: &ObjectDef, dir: Dir) -> Vec<Field> {
        object
            .fields
            .iter()
            .map(|field| Field {
                doc: self.field_doc(field).render("  "),
                key: property_key(&field.name),
                optional: match dir {
                    Dir::Input => !field.required,
                    Dir::Output => !field.always_present,
                },
                ty: self.type_of(&field.schema, dir),
            })
            .collect()
    }

    /// An object literal type on one line: `{ a: string; b?: number }`.
    fn inline_object(&self, object: &ObjectDef, dir: Dir, tag: Option<(&str, &str)>) -> String {
        let mut parts = Vec::new();
        if let Some((tag, name)) = tag {
            parts.push(format!("{}: {}", property_key(tag), json_string(name)));
        }
        for field in self.fields(object, dir) {
            parts.push(format!(
                "{}{}: {}",
                field.key,
                if field.optional { "?" } else { "" },
                field.ty
            ));
        }
        if parts.is_empty() {
            "{}".to_owned()
        } else {
            format!("{{ {} }}", parts.join("; "))
        }
    }

    /// One variant of a serde enum, as serde writes it.
    fn variant_type(&self, repr: &UnionRepr, name: &str, kind: &VariantKind, dir: Dir) -> String {
        let literal = json_string(name);
        let key = property_key(name);
        match (repr, kind) {
            (UnionRepr::External, VariantKind::Unit) => literal,
            (UnionRepr::External, VariantKind::Newtype(schema)) => {
                format!("{{ {key}: {} }}", self.type_of(schema, dir))
            }
            (UnionRepr::External, VariantKind::Struct(object)) => {
                format!("{{ {key}: {} }}", self.inline_object(object, dir, None))
            }
            (UnionRepr::Internal { tag }, VariantKind::Unit) => {
                format!("{{ {}: {literal} }}", property_key(tag))
            }
            (UnionRepr::Internal { tag }, VariantKind::Newtype(schema)) => format!(
                "({{ {}: {literal} }} & {})",
                property_key(tag),
                self.type_of(schema, dir)
            ),
            (UnionRepr::Internal { tag }, VariantKind::Struct(object)) => {
                self.inline_object(object, dir, Some((tag, name)))
            }
            (UnionRepr::Adjacent { tag, .. }, VariantKind::Unit) => {
                format!("{{ {}: {literal} }}", property_key(tag))
            }
            (UnionRepr::Adjacent { tag, content }, VariantKind::Newtype(schema)) => format!(
                "{{ {}: {literal}; {}: {} }}",
                property_key(tag),
                property_key(content),
                self.type_of(schema, dir)
            ),
            (UnionRepr::Adjacent { tag, content }, VariantKind::Struct(object)) => format!(
                "{{ {}: {literal}; {}: {} }}",
                property_key(tag),
                property_key(content),
                self.inline_object(object, dir, None)
            ),
            (UnionRepr::Untagged, VariantKind::Unit) => "null".to_owned(),
            (UnionRepr::Untagged, VariantKind::Newtype(schema)) => self.type_of(schema, dir),
            (UnionRepr::Untagged, VariantKind::Struct(object)) => {
                self.inline_object(object, dir, None)
            }
        }
    }

    fn field_doc(&self, field: &FieldDef) -> Doc {
        let mut doc = Doc::new(&field.description);
        constraint_tags(&mut doc, &field.schema);
        if let Some(default) = &field.default {
            doc.tag("default", &default.to_string());
        }
        if let Some(example) = &field.example {
            doc.tag("example", &example.to_string());
        }
        if let Some(check) = &field.server_check {
            doc.tag(
                "remarks",
                &format!("The server also checks this field with `{check}`, which client-side validation cannot run."),
            );
        }
        doc
    }

    /// The runtime schema table: what `simulate` and client-side validation
    /// read, keyed by type name.
    fn runtime_types(&self) -> Result<String, GenerateError> {
        let mut rng = StdRng::seed_from_u64(0x5d6_5eed);
        let mut types = Map::new();
        let named_types = self.model.manifest.types.iter().enumerate();
        for (_, named) in named_types.filter(|(index, _)| self.model.is_used(DefId(*index))) {
            let kind = match &named.def.kind {
                TypeKind::Object(object) => self.runtime_object(object, &mut rng),
                TypeKind::StringEnum(values) => json!({
                    "k": "enum",
                    "values": values.iter().map(|value| value.value.clone()).collect::<Vec<_>>(),
                }),
                TypeKind::Union(union) => {
                    let mut variants = Vec::new();
                    for variant in &union.variants {
                        let mut out = Map::new();
                        out.insert("name".into(), variant.name.clone().into());
                        match &variant.kind {
                            VariantKind::Unit => {
                                out.insert("k".into(), "unit".into());
                            }
                            VariantKind::Newtype(schema) => {
                                out.insert("k".into(), "newtype".into());
                                out.insert("of".into(), self.runtime_schema(schema, &mut rng));
                            }
                            VariantKind::Struct(object) => {
                                out.insert("k".into(), "struct".into());
                                out.insert("of".into(), self.runtime_object(object, &mut rng));
                            }
                        }
                        variants.push(Value::Object(out));
                    }
                    let (repr, tag, content) = match &union.repr {
                        UnionRepr::External => ("external", None, None),
                        UnionRepr::Internal { tag } => ("internal", Some(tag), None),
                        UnionRepr::Adjacent { tag, content } => {
                            ("adjacent", Some(tag), Some(content))
                        }
                        UnionRepr::Untagged => ("untagged", None, None),
                    };
                    json!({ "k": "union", "repr": repr, "tag": tag, "content": content, "variants": variants })
                }
            };
            types.insert(named.name.clone(), kind);
        }
        Ok(pretty(&Value::Object(types)))
    }

    fn runtime_object(&self, object: &ObjectDef, rng: &mut StdRng) -> Value {
        let fields: Vec<Value> = object
            .fields
            .iter()
            .map(|field| {
                json!({
                    "name": field.name,
                    "schema": self.runtime_schema(&field.schema, rng),
                    "required": field.required,
                    "always": field.always_present,
                })
            })
            .collect();
        json!({ "k": "object", "strict": object.strict, "fields": fields })
    }

    /// A schema as the runtime reads it, with the label the server uses in
    /// its error reports (`e`).
    fn runtime_schema(&self, schema: &Schema, rng: &mut StdRng) -> Value {
        let mut out = Map::new();
        let mut put = |key: &str, value: Value| {
            if !value.is_null() {
                out.insert(key.to_owned(), value);
            }
        };
        match schema {
            Schema::Any => put("k", "any".into()),
            Schema::Null => put("k", "null".into()),
            Schema::Boolean => put("k", "boolean".into()),
            Schema::Integer(int) => put_integer(&mut put, int),
            Schema::Number(number) => {
                put("k", "number".into());
                put_bounds(&mut put, &number.bounds);
            }
            Schema::String(string) => {
                put_string(&mut put, string);
                match draw::string_draw(string) {
                    draw::StringDraw::Tree(tree) => put("draw", tree),
                    draw::StringDraw::PerCall => {}
                    draw::StringDraw::Samples => {
                        let samples: Vec<Value> = (0..SAMPLES)
                            .map(|_| random_value(schema, &self.registry, rng))
                            .collect();
                        put("samples", Value::Array(samples));
                    }
                }
            }
            Schema::Array(array) => {
                put("k", "array".into());
                put("items", self.runtime_schema(&array.items, rng));
                put("minItems", json!(array.min_items));
                put("maxItems", json!(array.max_items));
                if array.unique_items {
                    put("unique", true.into());
                }
            }
            Schema::File(file) => {
                put("k", "file".into());
                put("maxSize", json!(file.max_size));
                if !file.accept.is_empty() {
                    put("accept", json!(file.accept));
                }
            }
            Schema::Map(values) => {
                put("k", "map".into());
                put("values", self.runtime_schema(values, rng));
            }
            Schema::Nullable(inner) => {
                put("k", "nullable".into());
                put("of", self.runtime_schema(inner, rng));
            }
            Schema::Ref(id) => {
                put("k", "ref".into());
                put("ref", self.model.manifest.types[id.0].name.clone().into());
            }
        }
        put("e", type_label(schema, &self.registry).into());
        Value::Object(out)
    }

    fn namespace_files(
        &self,
        namespace: &Namespace,
        path: &mut Vec<String>,
        files: &mut Vec<GeneratedFile>,
    ) -> Result<(), GenerateError> {
        let depth = path.len() + 1;
        let up = "../".repeat(depth);
        let mut functions = Vec::new();
        for (name, index) in &namespace.routes {
            functions.push(self.function(name, &self.model.manifest.routes[*index])?);
        }
        let module = Module {
            children: namespace.children.keys().map(|name| ident(name)).collect(),
            child_dirs: namespace.children.keys().cloned().collect(),
            structures: format!("{up}structures.js"),
            runtime: format!("{up}runtime.js"),
            imports: functions
                .iter()
                .flat_map(|function| function.imports.iter().cloned())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect(),
            functions,
        };
        let mut file_path = String::from("src/functional/");
        for segment in path.iter() {
            file_path.push_str(segment);
            file_path.push('/');
        }
        file_path.push_str("index.ts");
        files.push(GeneratedFile {
            path: file_path.into(),
            contents: with_final_newline(module.render()?),
        });
        for (name, child) in &namespace.children {
            path.push(name.clone());
            self.namespace_files(child, path, files)?;
            path.pop();
        }
        Ok(())
    }
}

/// `1` for 1.0, `0.5` for 0.5.
/// An integer's entries in the runtime's schema: its format, the format's
/// range, its bounds, and whether it is wider than a JS number is exact.
fn put_integer(put: &mut impl FnMut(&str, Value), int: &IntegerSchema) {
    put("k", "integer".into());
    put("f", int.format.name().into());
    let (min, max) = int.format.range();
    put("lo", json!(min as f64));
    put("hi", json!(max as f64));
    put_bounds(put, &int.bounds);
    if matches!(int.format, IntegerFormat::Int64 | IntegerFormat::Uint64) {
        put("wide", true.into());
    }
}

/// A string's entries in the runtime's schema, but how values are drawn.
fn put_string(put: &mut impl FnMut(&str, Value), string: &StringSchema) {
    put("k", "string".into());
    put("format", json!(string.format.map(|format| format.name())));
    put("minLength", json!(string.min_length));
    put("maxLength", json!(string.max_length));
    put("pattern", json!(string.pattern));
}

fn put_bounds(put: &mut impl FnMut(&str, Value), bounds: &Bounds) {
    put("min", json!(bounds.minimum));
    put("max", json!(bounds.maximum));
    put("xmin", json!(bounds.exclusive_minimum));
    put("xmax", json!(bounds.exclusive_maximum));
    put("step", json!(bounds.multiple_of));
}

/// JSDoc tags for a schema's constraints.
fn constraint_tags(doc: &mut Doc, schema: &Schema) {
    match schema {
        Schema::Nullable(inner) => constraint_tags(doc, inner),
        Schema::Integer(int) => {
            doc.tag("type", int.format.name());
            bound_tags(doc, &int.bounds);
        }
        Schema::Number(number) => bound_tags(doc, &number.bounds),
        Schema::String(string) => {
            if let Some(format) = string.format {
                doc.tag("format", format.name());
            }
            if let Some(n) = string.min_length {
                doc.tag("minLength", &n.to_string());
            }
            if let Some(n) = string.max_length {
                doc.tag("maxLength", &n.to_string());
            }
            if let Some(pattern) = &string.pattern {
                doc.tag("pattern", pattern);
            }
        }
        Schema::File(file) => {
            if let Some(n) = file.max_size {
                doc.tag("maxSize", &format!("{n} bytes"));
            }
            if !file.accept.is_empty() {
                doc.tag("accept", &file.accept.join(", "));
            }
        }
        Schema::Array(array) => {
            if let Some(n) = array.min_items {
                doc.tag("minItems", &n.to_string());
            }
            if let Some(n) = array.max_items {
                doc.tag("maxItems", &n.to_string());
            }
            if array.unique_items {
                doc.tag("uniqueItems", "");
            }
        }
        _ => {}
    }
}

fn bound_tags(doc: &mut Doc, bounds: &Bounds) {
    for (name, value) in [
        ("minimum", bounds.minimum),
        ("maximum", bounds.maximum),
        ("exclusiveMinimum", bounds.exclusive_minimum),
        ("exclusiveMaximum", bounds.exclusive_maximum),
        ("multipleOf", bounds.multiple_of),
    ] {
        if let Some(value) = value {
            doc.tag(name, &framework::schema::bound_text(value));
        }
    }
}

/// A JSDoc comment being written.
struct Doc {
    lines: Vec<String>,
}

impl Doc {
    fn new(text: &str) -> Self {
        let mut doc = Doc { lines: Vec::new() };
        for line in text.lines() {
            doc.line(line);
        }
        doc
    }

    fn line(&mut self, line: &str) {
        self.lines
            .push(line.replace("*/", "*\\/").trim_end().to_owned());
    }

    fn blank(&mut self) {
        self.lines.push(String::new());
    }

    fn tag(&mut self, name: &str, text: &str) {
        if text.is_empty() {
            self.line(&format!("@{name}"));
        } else {
            self.line(&format!("@{name} {text}"));
        }
    }

    fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The comment, each line indented, ending with a newline; empty when
    /// there is nothing to say.
    fn render(&self, indent: &str) -> String {
        if self.lines.is_empty() {
            return String::new();
        }
        let mut out = format!("{indent}/**\n");
        for line in &self.lines {
            if line.is_empty() {
                let _ = writeln!(out, "{indent} *");
            } else {
                let _ = writeln!(out, "{indent} * {line}");
            }
        }
        let _ = writeln!(out, "{indent} */");
        out
    }
}

/// A property name, quoted unless it is an identifier.
fn property_key(name: &str) -> String {
    if is_identifier(name) {
        name.to_owned()
    } else {
        json_string(name)
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Words TypeScript does not allow as a binding name.
const RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "let",
    "static",
    "implements",
    "interface",
    "package",
    "private",
    "protected",
    "public",
    "await",
];

/// A binding name made of a Rust or wire name.
pub(crate) fn ident(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if RESERVED.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

fn json_string(text: &str) -> String {
    Value::from(text).to_string()
}

/// Text safe inside a template literal.
fn template_text(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('`', "\\`")
        .replace("${", "\\${")
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn indent(text: &str, prefix: &str) -> String {
    let mut out = String::new();
    for (index, line) in text.lines().enumerate() {
        if index > 0 {
            out.push('\n');
            out.push_str(prefix);
        }
        out.push_str(line);
    }
    out
}

struct Decl {
    doc: String,
    name: String,
    fields: Vec<Field>,
    alias: String,
}

struct Field {
    doc: String,
    key: String,
    optional: bool,
    ty: String,
}

#[derive(Template)]
#[template(path = "typescript/package.json", escape = "none")]
struct PackageJson<'a> {
    package: &'a str,
    version: &'a str,
    description: &'a str,
}

#[derive(Template)]
#[template(path = "typescript/tsconfig.json", escape = "none")]
struct TsConfig;

#[derive(Template)]
#[template(path = "typescript/runtime.ts", escape = "none")]
struct Runtime<'a> {
    /// Whether some scheme is `Authorization: <scheme> <token>` for a
    /// scheme other than `Bearer`: only then does the runtime carry the
    /// code that sends it, so SDKs of apps without one are unchanged.
    authorization: bool,
    /// The API version the SDK speaks, sent on every request, when the
    /// app serves versions.
    api_version: Option<&'a VersionManifest>,
}

#[derive(Template)]
#[template(path = "typescript/index.ts", escape = "none")]
struct Index<'a> {
    title: &'a str,
    version: &'a str,
    package: &'a str,
    /// `{ moderator: "<credential>" }`, or empty without schemes.
    security: String,
    /// The app declares its own error body: an `HttpError`'s `data`.
    error_body: bool,
}

#[derive(Template)]
#[template(path = "typescript/security.ts", escape = "none")]
struct Security<'a> {
    title: &'a str,
    schemes: Vec<SchemeField>,
}

/// A credential's property on `connection.security`.
struct SchemeField {
    doc: String,
    key: String,
}

#[derive(Template)]
#[template(path = "typescript/structures.ts", escape = "none")]
struct Structures<'a> {
    title: &'a str,
    decls: Vec<Decl>,
}

#[derive(Template)]
#[template(path = "typescript/schemas.ts", escape = "none")]
struct Schemas {
    types: String,
}

#[derive(Template)]
#[template(path = "typescript/functional.ts", escape = "none")]
struct Module {
    children: Vec<String>,
    child_dirs: Vec<String>,
    structures: String,
    runtime: String,
    imports: Vec<String>,
    functions: Vec<Function>,
}
