//! What JavaScript's `u`-mode classes mean, written for Rust, and the
//! Unicode property names both engines read the same way.

use regex_syntax::ast::ClassPerlKind;

/// JavaScript's `.` without the `s` flag: anything but a line terminator.
pub(crate) const DOT: &str = r"[^\n\r\x{2028}\x{2029}]";

/// JavaScript's `\b` and `\B`: word boundaries over ASCII word characters.
pub(crate) const WORD_BOUNDARY: &str = r"(?-u:\b)";
pub(crate) const NOT_WORD_BOUNDARY: &str = r"(?-u:\B)";

/// JavaScript's `\d`, `\w`, `\s` and their negations, as bracketed classes
/// (valid both alone and nested inside another Rust class).
pub(crate) fn perl_class(kind: &ClassPerlKind, negated: bool) -> &'static str {
    match (kind, negated) {
        (ClassPerlKind::Digit, false) => "[0-9]",
        (ClassPerlKind::Digit, true) => "[^0-9]",
        (ClassPerlKind::Word, false) => "[0-9A-Za-z_]",
        (ClassPerlKind::Word, true) => "[^0-9A-Za-z_]",
        // ECMA-262 WhiteSpace and LineTerminator: Rust's `\s` has U+0085
        // and lacks U+FEFF.
        (ClassPerlKind::Space, false) => {
            r"[\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]"
        }
        (ClassPerlKind::Space, true) => {
            r"[^\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]"
        }
    }
}

/// General categories as ECMA-262 spells them (short and long names);
/// Rust's `regex` reads the same spellings the same way.
const GENERAL_CATEGORIES: &[&str] = &[
    "L",
    "Letter",
    "LC",
    "Cased_Letter",
    "Lu",
    "Uppercase_Letter",
    "Ll",
    "Lowercase_Letter",
    "Lt",
    "Titlecase_Letter",
    "Lm",
    "Modifier_Letter",
    "Lo",
    "Other_Letter",
    "M",
    "Mark",
    "Mn",
    "Nonspacing_Mark",
    "Mc",
    "Spacing_Mark",
    "Me",
    "Enclosing_Mark",
    "N",
    "Number",
    "Nd",
    "Decimal_Number",
    "Nl",
    "Letter_Number",
    "No",
    "Other_Number",
    "P",
    "Punctuation",
    "Pc",
    "Connector_Punctuation",
    "Pd",
    "Dash_Punctuation",
    "Ps",
    "Open_Punctuation",
    "Pe",
    "Close_Punctuation",
    "Pi",
    "Initial_Punctuation",
    "Pf",
    "Final_Punctuation",
    "Po",
    "Other_Punctuation",
    "S",
    "Symbol",
    "Sm",
    "Math_Symbol",
    "Sc",
    "Currency_Symbol",
    "Sk",
    "Modifier_Symbol",
    "So",
    "Other_Symbol",
    "Z",
    "Separator",
    "Zs",
    "Space_Separator",
    "Zl",
    "Line_Separator",
    "Zp",
    "Paragraph_Separator",
    "C",
    "Other",
    "Cc",
    "Control",
    "Cf",
    "Format",
    "Cs",
    "Surrogate",
    "Co",
    "Private_Use",
    "Cn",
    "Unassigned",
];

/// Binary properties both engines read the same way.
const BINARY: &[&str] = &[
    "Any",
    "ASCII",
    "Alphabetic",
    "Lowercase",
    "Uppercase",
    "White_Space",
    "Emoji",
    "Ideographic",
];

/// Whether `\p{name}` means the same in both engines.
pub(crate) fn known_property(name: &str) -> bool {
    GENERAL_CATEGORIES.contains(&name) || BINARY.contains(&name)
}

/// Whether `\p{name=value}` means the same in both engines.
pub(crate) fn known_property_value(name: &str, value: &str) -> bool {
    match name {
        "General_Category" | "gc" => GENERAL_CATEGORIES.contains(&value),
        "Script" | "sc" | "Script_Extensions" | "scx" => {
            let mut words = value.split('_');
            !value.is_empty()
                && words.all(|word| {
                    let mut chars = word.chars();
                    chars.next().is_some_and(|c| c.is_ascii_uppercase())
                        && chars.all(|c| c.is_ascii_lowercase())
                })
        }
        _ => false,
    }
}
