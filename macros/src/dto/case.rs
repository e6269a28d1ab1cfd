//! serde's `rename_all` rules, applied exactly as serde applies them, so the
//! schema names what serde reads and writes.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// A variant name (PascalCase in Rust) under this rule.
    pub(crate) fn variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => {
                let mut snake = String::new();
                for (index, ch) in variant.char_indices() {
                    if index > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            RenameRule::ScreamingSnake => RenameRule::Snake.variant(variant).to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake.variant(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .variant(variant)
                .replace('_', "-"),
        }
    }

    /// A field name (snake_case in Rust) under this rule.
    pub(crate) fn field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => lower_first(&RenameRule::Pascal.field(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_as_serde_does() {
        assert_eq!(RenameRule::Snake.variant("CreatedAt"), "created_at");
        assert_eq!(RenameRule::Kebab.variant("CreatedAt"), "created-at");
        assert_eq!(RenameRule::Camel.variant("CreatedAt"), "createdAt");
        assert_eq!(
            RenameRule::ScreamingKebab.variant("CreatedAt"),
            "CREATED-AT"
        );
        assert_eq!(RenameRule::Lower.variant("Md"), "md");
        assert_eq!(RenameRule::Camel.field("created_at"), "createdAt");
        assert_eq!(RenameRule::Pascal.field("created_at"), "CreatedAt");
        assert_eq!(RenameRule::Kebab.field("x_tenant_id"), "x-tenant-id");
        assert_eq!(RenameRule::ScreamingSnake.field("a_b"), "A_B");
        assert_eq!(RenameRule::from_name("snake_case"), Some(RenameRule::Snake));
        assert_eq!(RenameRule::from_name("snake"), None);
    }
}
