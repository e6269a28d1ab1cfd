//! Our schemas as OpenAPI 3.1 schemas.

use std::collections::BTreeMap;

use utoipa::openapi::{
    Ref, RefOr,
    extensions::{Extensions, ExtensionsBuilder},
    schema::{
        AdditionalProperties, AllOfBuilder, ArrayBuilder, Discriminator, KnownFormat,
        ObjectBuilder, OneOfBuilder, Schema as OaSchema, SchemaFormat, SchemaType, Type,
    },
};

/// The extension keyword of a file's largest size in bytes (`max_size`),
/// which JSON Schema has no keyword for: `{"type": "string", "format":
/// "binary", "x-max-size": 1048576}`. Accepted media types are the body's
/// `encoding.<field>.contentType`.
pub const MAX_SIZE_EXTENSION: &str = "x-max-size";

use crate::schema::{
    Bounds, DefId, FieldDef, IntegerFormat, ObjectDef, Registry, Schema, TypeDef, TypeKind,
    UnionDef, UnionRepr, VariantKind,
};

/// Converts schemas, naming components through `names`.
pub(crate) struct Converter<'a> {
    pub(crate) registry: &'a Registry,
    pub(crate) names: &'a BTreeMap<DefId, String>,
}

fn bounds(mut object: ObjectBuilder, bounds: &Bounds) -> ObjectBuilder {
    object = object
        .minimum(bounds.minimum)
        .maximum(bounds.maximum)
        .exclusive_minimum(bounds.exclusive_minimum)
        .exclusive_maximum(bounds.exclusive_maximum)
        .multiple_of(bounds.multiple_of);
    object
}

fn usize_of(n: Option<u64>) -> Option<usize> {
    n.and_then(|n| usize::try_from(n).ok())
}

impl Converter<'_> {
    pub(crate) fn schema(&self, schema: &Schema) -> RefOr<OaSchema> {
        match schema {
            Schema::Any => ObjectBuilder::new()
                .schema_type(SchemaType::AnyValue)
                .into(),
            Schema::Null => ObjectBuilder::new().schema_type(Type::Null).into(),
            Schema::Nullable(inner) => self.nullable(inner),
            Schema::Ref(id) => {
                Ref::from_schema_name(self.names.get(id).cloned().unwrap_or_default()).into()
            }
            Schema::Array(array) => ArrayBuilder::new()
                .items(self.schema(&array.items))
                .min_items(usize_of(array.min_items))
                .max_items(usize_of(array.max_items))
                .unique_items(array.unique_items)
                .into(),
            Schema::File(file) => ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
                .extensions(
                    file.max_size
                        .map(|n| ExtensionsBuilder::new().add(MAX_SIZE_EXTENSION, n).build()),
                )
                .into(),
            Schema::Map(values) => ObjectBuilder::new()
                .schema_type(Type::Object)
                .additional_properties(Some(AdditionalProperties::RefOr(self.schema(values))))
                .into(),
            scalar => self
                .scalar(scalar, SchemaType::Type(scalar_type(scalar)))
                .into(),
        }
    }

    /// A scalar schema with the given type (a single type or `[type, null]`).
    fn scalar(&self, schema: &Schema, schema_type: SchemaType) -> ObjectBuilder {
        let object = ObjectBuilder::new().schema_type(schema_type);
        match schema {
            Schema::Integer(int) => {
                let (min, max) = int.format.range();
                // The type's range, unless a tag narrows it.
                #[allow(clippy::cast_precision_loss)]
                let range = Bounds {
                    minimum: int.bounds.minimum.or((min >= i128::from(i64::MIN)
                        && int.format != IntegerFormat::Int64)
                        .then_some(min as f64)),
                    maximum: int.bounds.maximum.or(matches!(
                        int.format,
                        IntegerFormat::Int8
                            | IntegerFormat::Int16
                            | IntegerFormat::Int32
                            | IntegerFormat::Uint8
                            | IntegerFormat::Uint16
                            | IntegerFormat::Uint32
                    )
                    .then_some(max as f64)),
                    ..int.bounds
                };
                bounds(
                    object.format(Some(SchemaFormat::Custom(int.format.name().to_owned()))),
                    &range,
                )
            }
            Schema::Number(number) => {
                let format = match number.format {
                    crate::schema::NumberFormat::Float => "float",
                    crate::schema::NumberFormat::Double => "double",
                };
                bounds(
                    object.format(Some(SchemaFormat::Custom(format.to_owned()))),
                    &number.bounds,
                )
            }
            Schema::String(string) => object
                .format(
                    string
                        .format
                        .map(|format| SchemaFormat::Custom(format.name().to_owned())),
                )
                .min_length(usize_of(string.min_length))
                .max_length(usize_of(string.max_length))
                .pattern(string.pattern.clone()),
            _ => object,
        }
    }

    /// `T | null`: a type list for scalars, `oneOf` otherwise.
    fn nullable(&self, inner: &Schema) -> RefOr<OaSchema> {
        match inner {
            Schema::Boolean | Schema::Integer(_) | Schema::Number(_) | Schema::String(_) => {
                let types = SchemaType::Array(vec![scalar_type(inner), Type::Null]);
                self.scalar(inner, types).into()
            }
            other => OneOfBuilder::new()
                .item(self.schema(other))
                .item(ObjectBuilder::new().schema_type(Type::Null))
                .into(),
        }
    }

    /// The component schemas of a named type: its own, named `name`, then
    /// those of its members when it is a tagged union ([`Self::tagged_union`]).
    pub(crate) fn definition(&self, name: &str, def: &TypeDef) -> Vec<(String, RefOr<OaSchema>)> {
        let description = (!def.description.is_empty()).then(|| def.description.clone());
        let own: RefOr<OaSchema> = match &def.kind {
            TypeKind::Object(object) => self.object(object, None).description(description).into(),
            TypeKind::StringEnum(values) => ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(values.iter().map(|value| value.value.clone())))
                .extensions(enum_varnames(
                    values.iter().map(|value| value.value.as_str()),
                ))
                .description(description)
                .into(),
            TypeKind::Union(union) => {
                if let Some(components) = self.tagged_union(name, union, description.clone()) {
                    return components;
                }
                let mut one_of = OneOfBuilder::new().description(description);
                for variant in &union.variants {
                    one_of = one_of.item(self.variant(
                        &union.repr,
                        &variant.name,
                        &variant.kind,
                        &variant.description,
                    ));
                }
                if let UnionRepr::Internal { tag } | UnionRepr::Adjacent { tag, .. } = &union.repr {
                    one_of = one_of.discriminator(Some(Discriminator::new(tag.clone())));
                }
                one_of.into()
            }
        };
        vec![(name.to_owned(), own)]
    }

    /// A union tagged by a property (serde's internal or adjacent tagging),
    /// as generators resolve one: each member a named component
    /// (`ArticleEvent` + `created` = `ArticleEventCreated`) that `oneOf`
    /// refers to, and a discriminator `mapping` from each tag value to its
    /// member. `None` when a member's name is taken by another type (the
    /// union is then described inline).
    fn tagged_union(
        &self,
        name: &str,
        union: &UnionDef,
        description: Option<String>,
    ) -> Option<Vec<(String, RefOr<OaSchema>)>> {
        let (UnionRepr::Internal { tag } | UnionRepr::Adjacent { tag, .. }) = &union.repr else {
            return None;
        };
        let mut members: Vec<(String, RefOr<OaSchema>)> = Vec::new();
        let mut mapping = Vec::new();
        for variant in &union.variants {
            let member = format!("{name}{}", pascal_case(&variant.name));
            let taken = self.names.values().any(|known| *known == member)
                || members.iter().any(|(known, _)| *known == member);
            if taken || variant.name.is_empty() {
                return None;
            }
            let schema = self.variant(
                &union.repr,
                &variant.name,
                &variant.kind,
                &variant.description,
            );
            mapping.push((
                variant.name.clone(),
                format!("#/components/schemas/{member}"),
            ));
            members.push((member, schema));
        }
        let mut one_of = OneOfBuilder::new()
            .description(description)
            .discriminator(Some(Discriminator::with_mapping(tag.clone(), mapping)));
        for (member, _) in &members {
            one_of = one_of.item(Ref::from_schema_name(member.clone()));
        }
        let mut components: Vec<(String, RefOr<OaSchema>)> = vec![(name.to_owned(), one_of.into())];
        components.extend(members);
        Some(components)
    }

    fn object(&self, object: &ObjectDef, tag: Option<(&str, &str)>) -> ObjectBuilder {
        let mut builder = ObjectBuilder::new().schema_type(Type::Object);
        if let Some((tag, name)) = tag {
            builder = builder
                .property(
                    tag,
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .enum_values(Some([name])),
                )
                .required(tag);
        }
        for field in &object.fields {
            builder = builder.property(field.name.clone(), self.field(field));
            if field.required {
                builder = builder.required(field.name.clone());
            }
        }
        if object.strict {
            builder = builder
                .additional_properties(Some(AdditionalProperties::<OaSchema>::FreeForm(false)));
        }
        builder
    }

    fn field(&self, field: &FieldDef) -> RefOr<OaSchema> {
        let description = (!field.description.is_empty()).then(|| field.description.clone());
        match self.schema(&field.schema) {
            RefOr::Ref(mut reference) => {
                if let Some(description) = description {
                    reference.description = description;
                }
                RefOr::Ref(reference)
            }
            RefOr::T(OaSchema::Object(mut object)) => {
                object.description = description;
                object.default = field.default.clone();
                object.examples = field.example.clone().into_iter().collect();
                RefOr::T(OaSchema::Object(object))
            }
            RefOr::T(OaSchema::Array(mut array)) => {
                array.description = description;
                array.default = field.default.clone();
                RefOr::T(OaSchema::Array(array))
            }
            RefOr::T(OaSchema::OneOf(mut one_of)) => {
                one_of.description = description;
                RefOr::T(OaSchema::OneOf(one_of))
            }
            other => other,
        }
    }

    fn variant(
        &self,
        repr: &UnionRepr,
        name: &str,
        kind: &VariantKind,
        description: &str,
    ) -> RefOr<OaSchema> {
        let description = (!description.is_empty()).then(|| description.to_owned());
        let content = |this: &Self| match kind {
            VariantKind::Unit => None,
            VariantKind::Newtype(schema) => Some(this.schema(schema)),
            VariantKind::Struct(object) => Some(this.object(object, None).into()),
        };
        let literal = || {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([name]))
        };
        match repr {
            UnionRepr::External => match content(self) {
                None => literal().description(description).into(),
                Some(content) => ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .property(name, content)
                    .required(name)
                    .additional_properties(Some(AdditionalProperties::<OaSchema>::FreeForm(false)))
                    .description(description)
                    .into(),
            },
            UnionRepr::Internal { tag } => match kind {
                VariantKind::Struct(object) => self
                    .object(object, Some((tag, name)))
                    .description(description)
                    .into(),
                VariantKind::Unit => ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .property(tag.clone(), literal())
                    .required(tag.clone())
                    .description(description)
                    .into(),
                VariantKind::Newtype(schema) => AllOfBuilder::new()
                    .item(self.schema(schema))
                    .item(
                        ObjectBuilder::new()
                            .schema_type(Type::Object)
                            .property(tag.clone(), literal())
                            .required(tag.clone()),
                    )
                    .description(description)
                    .into(),
            },
            UnionRepr::Adjacent { tag, content: key } => {
                let mut object = ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .property(tag.clone(), literal())
                    .required(tag.clone());
                if let Some(content) = content(self) {
                    object = object.property(key.clone(), content).required(key.clone());
                }
                object.description(description).into()
            }
            UnionRepr::Untagged => {
                content(self).unwrap_or_else(|| ObjectBuilder::new().schema_type(Type::Null).into())
            }
        }
    }
}

fn scalar_type(schema: &Schema) -> Type {
    match schema {
        Schema::Boolean => Type::Boolean,
        Schema::Integer(_) => Type::Integer,
        Schema::Number(_) => Type::Number,
        Schema::String(_) => Type::String,
        Schema::Null => Type::Null,
        _ => Type::Object,
    }
}

/// `pascal_case("created_at")` = `CreatedAt`: words split at anything but
/// letters and digits.
fn pascal_case(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// The extension that names a string enum's values in generated code
/// (openapi-generator's, read by orval, openapi-typescript's `--enum` and
/// others), for values that are no identifiers (`+writer`).
pub const ENUM_VARNAMES_EXTENSION: &str = "x-enum-varnames";

/// `x-enum-varnames` for values that are not all identifiers: `+writer`
/// is `PlusWriter`, `-writer` `MinusWriter` (a leading sign is a word);
/// none when the names would not be distinct identifiers.
fn enum_varnames<'a>(values: impl Iterator<Item = &'a str> + Clone) -> Option<Extensions> {
    let identifier = |value: &str| {
        value
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if values.clone().all(identifier) {
        return None;
    }
    let names: Vec<String> = values
        .map(|value| {
            let (sign, rest) = match value.chars().next() {
                Some('+') => ("Plus", &value[1..]),
                Some('-') => ("Minus", &value[1..]),
                _ => ("", value),
            };
            format!("{sign}{}", pascal_case(rest))
        })
        .collect();
    let distinct = names
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        == names.len();
    let valid = names.iter().all(|name| identifier(name.as_str()));
    (distinct && valid).then(|| {
        ExtensionsBuilder::new()
            .add(ENUM_VARNAMES_EXTENSION, names)
            .build()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_values_that_are_no_identifiers_get_names() {
        let names = enum_varnames(["+writer", "-created_at"].into_iter()).unwrap();
        assert_eq!(
            serde_json::to_value(&names).unwrap()[ENUM_VARNAMES_EXTENSION],
            serde_json::json!(["PlusWriter", "MinusCreatedAt"])
        );
        assert!(enum_varnames(["md", "html"].into_iter()).is_none());
        assert!(
            enum_varnames(["a-b", "a_b"].into_iter()).is_none(),
            "not distinct"
        );
    }
}
