//! What a schema expects, written as typia writes it:
//! `string & Format<"uri">`, `(number & Type<"uint32">) | null`.

use std::fmt::Write;

use super::{
    ArraySchema, Bounds, F32_RANGE, FileSchema, NumberFormat, NumberSchema, Registry, Schema,
    StringSchema, TypeKind,
};

/// The type expression of `schema`.
pub(crate) fn expected(schema: &Schema, registry: &Registry) -> String {
    let mut out = String::new();
    write_expected(&mut out, schema, registry);
    out
}

fn write_expected(out: &mut String, schema: &Schema, registry: &Registry) {
    match schema {
        Schema::Any => out.push_str("any"),
        Schema::Null => out.push_str("null"),
        Schema::Boolean => out.push_str("boolean"),
        Schema::Integer(int) => {
            let _ = write!(out, "number & Type<\"{}\">", int.format.name());
            write_bounds(out, &int.bounds);
        }
        Schema::Number(number) => write_number(out, number),
        Schema::String(string) => write_string(out, string),
        Schema::Array(array) => write_array(out, array, registry),
        Schema::File(file) => write_file(out, file),
        Schema::Map(values) => {
            out.push_str("Record<string, ");
            write_expected(out, values, registry);
            out.push('>');
        }
        Schema::Nullable(inner) => {
            let inner_text = expected(inner, registry);
            if inner_text.contains(' ') {
                let _ = write!(out, "({inner_text}) | null");
            } else {
                let _ = write!(out, "{inner_text} | null");
            }
        }
        Schema::Ref(id) => {
            let def = registry.get(*id);
            match &def.kind {
                TypeKind::StringEnum(values) => {
                    let literals: Vec<String> = values
                        .iter()
                        .map(|value| serde_json::Value::from(value.value.as_str()).to_string())
                        .collect();
                    out.push_str(&literals.join(" | "));
                }
                TypeKind::Object(_) | TypeKind::Union(_) => out.push_str(&def.name),
            }
        }
    }
}

fn write_number(out: &mut String, number: &NumberSchema) {
    out.push_str("number");
    let mut bounds = number.bounds;
    if number.format == NumberFormat::Float {
        // typia's `Type<"float">` says the range.
        out.push_str(" & Type<\"float\">");
        if bounds.minimum == Some(F32_RANGE.0) {
            bounds.minimum = None;
        }
        if bounds.maximum == Some(F32_RANGE.1) {
            bounds.maximum = None;
        }
    }
    write_bounds(out, &bounds);
}

fn write_string(out: &mut String, string: &StringSchema) {
    out.push_str("string");
    if let Some(format) = string.format {
        let _ = write!(out, " & Format<\"{}\">", format.name());
    }
    if let Some(n) = string.min_length {
        let _ = write!(out, " & MinLength<{n}>");
    }
    if let Some(n) = string.max_length {
        let _ = write!(out, " & MaxLength<{n}>");
    }
    if let Some(pattern) = &string.pattern {
        let _ = write!(
            out,
            " & Pattern<{}>",
            serde_json::Value::from(pattern.as_str())
        );
    }
}

fn write_array(out: &mut String, array: &ArraySchema, registry: &Registry) {
    out.push_str("Array<");
    write_expected(out, &array.items, registry);
    out.push('>');
    if let Some(n) = array.min_items {
        let _ = write!(out, " & MinItems<{n}>");
    }
    if let Some(n) = array.max_items {
        let _ = write!(out, " & MaxItems<{n}>");
    }
    if array.unique_items {
        out.push_str(" & UniqueItems");
    }
}

fn write_file(out: &mut String, file: &FileSchema) {
    out.push_str("File");
    if let Some(n) = file.max_size {
        let _ = write!(out, " & MaxSize<{n}>");
    }
    if !file.accept.is_empty() {
        let list = serde_json::Value::from(file.accept.join(", "));
        let _ = write!(out, " & Accept<{list}>");
    }
}

fn write_bounds(out: &mut String, bounds: &Bounds) {
    let entries = [
        ("Minimum", bounds.minimum),
        ("Maximum", bounds.maximum),
        ("ExclusiveMinimum", bounds.exclusive_minimum),
        ("ExclusiveMaximum", bounds.exclusive_maximum),
        ("MultipleOf", bounds.multiple_of),
    ];
    for (name, value) in entries {
        if let Some(value) = value {
            let _ = write!(out, " & {name}<{}>", bound_text(value));
        }
    }
}

/// A bound as the expected text and the SDKs' docs write it: whole numbers
/// in full, exactly (`-1152921504606846976`, where `f64`'s `Display` writes
/// `-1152921504606847000`), the rest as Rust prints the `f64`.
///
/// ```
/// use framework::schema::bound_text;
/// assert_eq!(bound_text(-1152921504606846976.0), "-1152921504606846976");
/// assert_eq!(bound_text(1.5), "1.5");
/// ```
pub fn bound_text(value: f64) -> String {
    // i128 holds every whole f64 below 2^127 exactly.
    if value.fract() == 0.0 && value.abs() < 1.7e38 {
        (value as i128).to_string()
    } else {
        value.to_string()
    }
}
