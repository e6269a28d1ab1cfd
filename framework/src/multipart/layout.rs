//! How a form's type maps to the parts of a `multipart/form-data` body:
//! which of its fields are files, read from its schema. The manifest checks
//! with the same reading that files stand only where a form can carry them.
// Without the `multipart` feature only the manifest's check reads it.
#![cfg_attr(not(feature = "multipart"), allow(dead_code))]

use std::collections::HashSet;

use crate::schema::{
    ArraySchema, DefId, FieldDef, FileSchema, ObjectDef, Registry, Schema, TypeKind,
};

/// One field of a form.
#[derive(Clone, Copy, Debug)]
pub(crate) enum FormField<'a> {
    /// Text, as an HTML form sends it: one part per value.
    Text(&'a FieldDef),
    /// A file (`File`), or a list of them (`Vec<File>`, `list` its schema).
    File {
        def: &'a FieldDef,
        file: &'a FileSchema,
        list: Option<&'a ArraySchema>,
    },
}

impl<'a> FormField<'a> {
    /// The field's definition.
    pub(crate) fn def(&self) -> &'a FieldDef {
        match self {
            FormField::Text(def) | FormField::File { def, .. } => def,
        }
    }

    fn of(def: &'a FieldDef) -> Self {
        match &def.schema {
            Schema::File(file) => FormField::File {
                def,
                file,
                list: None,
            },
            Schema::Array(array) => match &*array.items {
                Schema::File(file) => FormField::File {
                    def,
                    file,
                    list: Some(array),
                },
                _ => FormField::Text(def),
            },
            _ => FormField::Text(def),
        }
    }
}

/// The fields of a form's type: a `#[dto]` struct with named fields.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout<'a> {
    pub(crate) registry: &'a Registry,
    object: &'a ObjectDef,
}

impl<'a> Layout<'a> {
    /// The layout of a type of schema `schema`, if it is a struct.
    pub(crate) fn new(schema: &Schema, registry: &'a Registry) -> Option<Self> {
        let Schema::Ref(id) = schema else {
            return None;
        };
        match &registry.get(*id).kind {
            TypeKind::Object(object) => Some(Layout { registry, object }),
            _ => None,
        }
    }

    /// The field a part named `name` (`title`, `author[name]`, `files[2]`)
    /// belongs to.
    pub(crate) fn field(&self, name: &str) -> Option<FormField<'a>> {
        let top = top_name(name);
        self.object
            .fields
            .iter()
            .find(|def| def.name == top)
            .map(FormField::of)
    }

    /// The schema of the value a part named `name` holds: `author[name]`
    /// holds the `name` of the field `author`, `tags[0]` an item of `tags`.
    pub(crate) fn schema_at(&self, name: &str) -> Option<&'a Schema> {
        let top = top_name(name);
        let field = self.object.fields.iter().find(|def| def.name == top)?;
        let mut schema = &field.schema;
        for segment in name[top.len()..].split('[').skip(1) {
            schema = step(schema, segment.strip_suffix(']')?, self.registry)?;
        }
        Some(schema)
    }

    /// Every field, in declaration order.
    pub(crate) fn fields(&self) -> impl Iterator<Item = FormField<'a>> + 'a {
        self.object.fields.iter().map(FormField::of)
    }

    /// Whether unknown fields are refused (`#[dto(strict)]`).
    pub(crate) fn strict(&self) -> bool {
        self.object.strict
    }
}

/// The schema of `key` (a property, an index or `""`) within `schema`.
fn step<'a>(schema: &'a Schema, key: &str, registry: &'a Registry) -> Option<&'a Schema> {
    match schema {
        Schema::Nullable(inner) => step(inner, key, registry),
        Schema::Array(array) if key.bytes().all(|byte| byte.is_ascii_digit()) => Some(&array.items),
        Schema::Map(values) => Some(values),
        Schema::Ref(id) => match &registry.get(*id).kind {
            TypeKind::Object(object) => object
                .fields
                .iter()
                .find(|field| field.name == key)
                .map(|field| &field.schema),
            _ => None,
        },
        _ => None,
    }
}

/// `author` of `author[name]`.
pub(crate) fn top_name(name: &str) -> &str {
    name.split('[').next().unwrap_or(name)
}

/// Why `schema`, read by a route's input (`multipart` when it is a
/// `multipart/form-data` body) or written by one of its answers, holds a
/// file where none can travel; `None` when every file is in its place.
pub(crate) fn misplaced_file(
    schema: &Schema,
    registry: &Registry,
    multipart: bool,
) -> Option<String> {
    if !multipart {
        return contains_file(schema, registry, &mut HashSet::new()).then(|| {
            "a `File` is read only from a `multipart/form-data` body: take the type as `TypedFormData<T>`".to_owned()
        });
    }
    let Some(layout) = Layout::new(schema, registry) else {
        return Some(
            "`TypedFormData<T>` reads the fields of a struct: make `T` a `#[dto]` struct with named fields".to_owned(),
        );
    };
    layout.fields().find_map(|field| match field {
        FormField::File { .. } => None,
        FormField::Text(def) => match &def.schema {
            Schema::Nullable(inner) if is_file_or_files(inner) => Some(format!(
                "field `{0}`: a multipart form cannot send `null`; for a file that may be left out write `#[optional] {0}: Option<File>` (or `Option<Vec<File>>`)",
                def.name
            )),
            schema => contains_file(schema, registry, &mut HashSet::new()).then(|| {
                format!(
                    "field `{}`: a `File` is a field of the form itself, alone (`File`, `#[optional] Option<File>`) or in a list (`Vec<File>`), not inside another value",
                    def.name
                )
            }),
        },
    })
}

fn is_file_or_files(schema: &Schema) -> bool {
    match schema {
        Schema::File(_) => true,
        Schema::Array(array) => matches!(*array.items, Schema::File(_)),
        _ => false,
    }
}

fn contains_file(schema: &Schema, registry: &Registry, seen: &mut HashSet<DefId>) -> bool {
    match schema {
        Schema::File(_) => true,
        Schema::Array(array) => contains_file(&array.items, registry, seen),
        Schema::Map(inner) | Schema::Nullable(inner) => contains_file(inner, registry, seen),
        Schema::Ref(id) => {
            if !seen.insert(*id) {
                return false;
            }
            match &registry.get(*id).kind {
                TypeKind::Object(object) => object
                    .fields
                    .iter()
                    .any(|field| contains_file(&field.schema, registry, seen)),
                TypeKind::StringEnum(_) => false,
                TypeKind::Union(union) => {
                    union.variants.iter().any(|variant| match &variant.kind {
                        crate::schema::VariantKind::Unit => false,
                        crate::schema::VariantKind::Newtype(schema) => {
                            contains_file(schema, registry, seen)
                        }
                        crate::schema::VariantKind::Struct(object) => object
                            .fields
                            .iter()
                            .any(|field| contains_file(&field.schema, registry, seen)),
                    })
                }
            }
        }
        _ => false,
    }
}
