//! The pattern dialect of `framework`'s `pattern` tag.
//!
//! A `#[tags(pattern = "...")]` is checked by the server (Rust's `regex`),
//! published in OpenAPI (where JSON Schema says patterns are ECMA-262) and
//! checked again by the TypeScript SDK (`new RegExp(pattern, "u")`). The two
//! engines read many patterns differently: Rust's `\d`, `\w` and `\b` are
//! Unicode-aware where JavaScript's are ASCII, `.` stops at different line
//! terminators, `\s` differs in two characters, and each engine accepts
//! syntax the other refuses (`(?i)`, `\A`, `[[:alpha:]]`, `\x{41}` in Rust;
//! lookaround and backreferences in JavaScript).
//!
//! One semantics holds on both sides: **the pattern means what JavaScript's
//! `RegExp` with the `u` flag makes of it**, restricted to the syntax both
//! engines accept. [`to_rust`] refuses anything outside that dialect (the
//! macro reports it at the tag) and rewrites the constructs whose meaning
//! differs into a Rust pattern with the JavaScript meaning.
//!
//! ```
//! use framework_pattern::to_rust;
//!
//! assert_eq!(to_rust(r"^\d+$").unwrap(), "^[0-9]+$");
//! assert!(to_rust(r"(?i)abc").is_err());
//! ```

mod rules;
mod walk;

use std::fmt;

/// A pattern outside the shared dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PatternError {
    /// Byte offset of the offending construct in the pattern.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
    /// What is wrong and what to write instead.
    pub message: String,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.start)
    }
}

impl std::error::Error for PatternError {}

/// The Rust `regex` pattern that matches exactly what JavaScript's
/// `new RegExp(pattern, "u")` matches, or why `pattern` is outside the
/// dialect both engines share.
///
/// The result still has to be compiled by `regex` (which may refuse it for
/// its size or an unknown Unicode property value).
pub fn to_rust(pattern: &str) -> Result<String, PatternError> {
    translate(pattern, false)
}

/// [`to_rust`] with the word boundaries (`\b`, `\B`) left out, for string
/// generators that cannot read assertions (`rand_regex`). A string drawn
/// from it may miss a boundary: check it against [`to_rust`]'s pattern.
pub fn to_rust_for_drawing(pattern: &str) -> Result<String, PatternError> {
    translate(pattern, true)
}

fn translate(pattern: &str, drop_boundaries: bool) -> Result<String, PatternError> {
    let ast = regex_syntax::ast::parse::Parser::new()
        .parse(pattern)
        .map_err(|err| PatternError {
            start: err.span().start.offset,
            end: err.span().end.offset,
            message: format!("invalid pattern: {}", err.kind()),
        })?;
    let edits = walk::edits(pattern, &ast, drop_boundaries)?;
    Ok(apply(pattern, edits))
}

/// One rewrite: the bytes `start..end` of the pattern become `text`.
#[derive(Debug)]
struct Edit {
    start: usize,
    end: usize,
    text: &'static str,
}

fn apply(pattern: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|edit| edit.start);
    let mut out = String::with_capacity(pattern.len() + 16 * edits.len());
    let mut at = 0;
    for edit in edits {
        out.push_str(&pattern[at..edit.start]);
        out.push_str(edit.text);
        at = edit.end;
    }
    out.push_str(&pattern[at..]);
    out
}
