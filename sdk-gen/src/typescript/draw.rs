//! What the TypeScript runtime's `simulate` draws a string from: a pattern
//! becomes a small grammar tree, read from the pattern's Rust form (which
//! has the pattern's ECMAScript meaning, see `framework_pattern`) so that
//! the runtime draws a fresh valid string per call without a second regex
//! implementation. Strings the tree cannot construct exactly (a pattern
//! with a length or a format, a word boundary) keep samples drawn here.

use framework::schema::{Format, StringSchema};
use regex_syntax::hir::{Class, Hir, HirKind, Look};
use serde_json::{Value, json};

/// How `simulate` draws a string of a schema.
pub(crate) enum StringDraw {
    /// From this pattern tree, per call.
    Tree(Value),
    /// By the runtime's own generator: no pattern; at most a format, which
    /// the runtime draws per call when there is no length bound.
    PerCall,
    /// From samples embedded at generation time: the named exceptions (a
    /// pattern with a length or a format, a pattern with a word boundary, a
    /// format with a length), where a construction could miss.
    Samples,
}

/// How `simulate` draws strings of `string`.
pub(crate) fn string_draw(string: &StringSchema) -> StringDraw {
    let has_length = string.min_length.is_some() || string.max_length.is_some();
    match (&string.pattern, string.format) {
        (Some(pattern), None) if !has_length => {
            pattern_tree(pattern).map_or(StringDraw::Samples, StringDraw::Tree)
        }
        (Some(_), _) => StringDraw::Samples,
        (None, Some(format)) if has_length && format != Format::Password => StringDraw::Samples,
        (None, _) => StringDraw::PerCall,
    }
}

/// How many times a repetition without an upper bound may repeat.
const UNBOUNDED: u32 = 8;

/// The grammar tree of `pattern`, or `None` when a draw from it would not
/// always match (word boundaries) or it does not parse.
pub(crate) fn pattern_tree(pattern: &str) -> Option<Value> {
    let rust = framework_pattern::to_rust(pattern).ok()?;
    let hir = regex_syntax::Parser::new().parse(&rust).ok()?;
    tree(&hir)
}

/// Tree nodes: `{"l": text}` a literal, `{"c": [[lo, hi], ...]}` a class
/// of code points, `{"q": [...]}` a sequence, `{"o": [...]}` a choice,
/// `{"r": [min, max], "s": node}` a repetition.
fn tree(hir: &Hir) -> Option<Value> {
    Some(match hir.kind() {
        HirKind::Empty => json!({ "q": [] }),
        HirKind::Literal(literal) => json!({ "l": std::str::from_utf8(&literal.0).ok()? }),
        HirKind::Class(Class::Unicode(class)) => json!({ "c": drawn_ranges(class) }),
        HirKind::Class(Class::Bytes(class)) => {
            let ranges: Vec<[u32; 2]> = class
                .ranges()
                .iter()
                .filter(|range| range.start() < 0x80)
                .map(|range| [u32::from(range.start()), u32::from(range.end().min(0x7f))])
                .collect();
            json!({ "c": ranges })
        }
        HirKind::Look(Look::Start | Look::End) => json!({ "q": [] }),
        HirKind::Look(_) => return None,
        HirKind::Repetition(repetition) => {
            let max = repetition
                .max
                .unwrap_or(repetition.min.saturating_add(UNBOUNDED));
            json!({ "r": [repetition.min, max], "s": tree(&repetition.sub)? })
        }
        HirKind::Capture(capture) => tree(&capture.sub)?,
        HirKind::Concat(parts) => {
            json!({ "q": parts.iter().map(tree).collect::<Option<Vec<_>>>()? })
        }
        HirKind::Alternation(parts) => {
            json!({ "o": parts.iter().map(tree).collect::<Option<Vec<_>>>()? })
        }
    })
}

/// The last code point of Latin Extended-B: below it, letters' and digits'
/// Unicode properties have not changed for decades.
const STABLE_END: u32 = 0x24f;

/// The code points a class is drawn from: those up to [`STABLE_END`] when
/// it has any, else all of it. A class of Unicode properties (`\p{Lu}`) is
/// read here with the Unicode tables of Rust's `regex-syntax`, while the
/// SDK's own check runs the JavaScript engine's, which may be of another
/// Unicode version: characters assigned or recategorised between the two
/// (U+0295 is `Ll` in older tables, `Lo` in newer ones) would be drawn yet
/// refused by the check.
fn drawn_ranges(class: &regex_syntax::hir::ClassUnicode) -> Vec<[u32; 2]> {
    let all = class
        .ranges()
        .iter()
        .map(|range| [u32::from(range.start()), u32::from(range.end())]);
    let stable: Vec<[u32; 2]> = all
        .clone()
        .filter(|[start, _]| *start <= STABLE_END)
        .map(|[start, end]| [start, end.min(STABLE_END)])
        .collect();
    if stable.is_empty() {
        all.collect()
    } else {
        stable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_becomes_its_tree() {
        assert_eq!(
            pattern_tree(r"^\d{2}(?:x|yz)?$").unwrap(),
            json!({ "q": [
                { "q": [] },
                { "r": [2, 2], "s": { "c": [[48, 57]] } },
                { "r": [0, 1], "s": { "o": [{ "l": "x" }, { "l": "yz" }] } },
                { "q": [] },
            ]})
        );
    }

    #[test]
    fn unicode_properties_are_drawn_where_every_unicode_version_agrees() {
        let tree = pattern_tree(r"^\p{Lu}$").unwrap();
        let ranges = tree["q"][1]["c"].as_array().unwrap();
        assert!(!ranges.is_empty());
        for range in ranges {
            assert!(
                range[1].as_u64().unwrap() <= u64::from(STABLE_END),
                "{range}"
            );
        }
        // A class with nothing below the limit is drawn whole.
        let cyrillic = pattern_tree(r"^[\u{0400}-\u{04FF}]$").unwrap();
        assert_eq!(cyrillic["q"][1]["c"], json!([[0x400, 0x4ff]]));
    }

    #[test]
    fn word_boundaries_are_not_drawn() {
        assert_eq!(pattern_tree(r"\bcat\b"), None);
        assert_eq!(pattern_tree("(?i)x"), None);
    }
}
