//! Walks a parsed pattern: refuses what the two engines read differently
//! (or only one reads) and collects the rewrites of what differs in meaning.

use regex_syntax::ast::{
    Assertion, AssertionKind, Ast, ClassBracketed, ClassSet, ClassSetItem, ClassUnicode,
    ClassUnicodeKind, ClassUnicodeOpKind, Group, GroupKind, HexLiteralKind, Literal, LiteralKind,
    Repetition, Span, SpecialLiteralKind,
};

use crate::{Edit, PatternError, rules};

/// The rewrites `ast` needs, or the first construct outside the dialect.
pub(crate) fn edits(
    pattern: &str,
    ast: &Ast,
    drop_boundaries: bool,
) -> Result<Vec<Edit>, PatternError> {
    let mut walk = Walk {
        pattern,
        edits: Vec::new(),
        drop_boundaries,
    };
    walk.ast(ast)?;
    Ok(walk.edits)
}

struct Walk<'a> {
    pattern: &'a str,
    edits: Vec<Edit>,
    /// Word boundaries become nothing (for string generators).
    drop_boundaries: bool,
}

type Checked = Result<(), PatternError>;

fn refuse(span: &Span, message: impl Into<String>) -> Checked {
    Err(PatternError {
        start: span.start.offset,
        end: span.end.offset,
        message: message.into(),
    })
}

impl Walk<'_> {
    fn rewrite(&mut self, span: &Span, text: &'static str) {
        self.edits.push(Edit {
            start: span.start.offset,
            end: span.end.offset,
            text,
        });
    }

    fn ast(&mut self, ast: &Ast) -> Checked {
        match ast {
            Ast::Empty(_) => Ok(()),
            Ast::Flags(flags) => refuse(
                &flags.span,
                "inline flags like `(?i)` are not read by JavaScript; write the cases out, e.g. `[Aa]`",
            ),
            Ast::Literal(literal) => literal_outside_class(literal),
            Ast::Dot(span) => {
                self.rewrite(span, rules::DOT);
                Ok(())
            }
            Ast::Assertion(assertion) => self.assertion(assertion),
            Ast::ClassUnicode(class) => unicode_class(class),
            Ast::ClassPerl(class) => {
                self.rewrite(&class.span, rules::perl_class(&class.kind, class.negated));
                Ok(())
            }
            Ast::ClassBracketed(class) => self.bracketed(class),
            Ast::Repetition(repetition) => self.repetition(repetition),
            Ast::Group(group) => self.group(group),
            Ast::Alternation(alternation) => {
                alternation.asts.iter().try_for_each(|ast| self.ast(ast))
            }
            Ast::Concat(concat) => concat.asts.iter().try_for_each(|ast| self.ast(ast)),
        }
    }

    fn assertion(&mut self, assertion: &Assertion) -> Checked {
        match assertion.kind {
            AssertionKind::StartLine | AssertionKind::EndLine => Ok(()),
            AssertionKind::WordBoundary | AssertionKind::NotWordBoundary
                if self.drop_boundaries =>
            {
                self.rewrite(&assertion.span, "");
                Ok(())
            }
            AssertionKind::WordBoundary => {
                self.rewrite(&assertion.span, rules::WORD_BOUNDARY);
                Ok(())
            }
            AssertionKind::NotWordBoundary => {
                self.rewrite(&assertion.span, rules::NOT_WORD_BOUNDARY);
                Ok(())
            }
            AssertionKind::StartText | AssertionKind::EndText => refuse(
                &assertion.span,
                r"`\A` and `\z` are not read by JavaScript; write `^` and `$`",
            ),
            _ => refuse(
                &assertion.span,
                r"this word-boundary form is not read by JavaScript; write `\b`",
            ),
        }
    }

    fn repetition(&mut self, repetition: &Repetition) -> Checked {
        let op = &self.pattern[repetition.op.span.start.offset..repetition.op.span.end.offset];
        if op.starts_with("{,") {
            return refuse(
                &repetition.op.span,
                "`{,n}` is not read by JavaScript; write `{0,n}`",
            );
        }
        if matches!(
            *repetition.ast,
            Ast::Assertion(_) | Ast::Empty(_) | Ast::Flags(_) | Ast::Repetition(_)
        ) {
            return refuse(
                &repetition.op.span,
                "JavaScript cannot repeat an assertion, a repetition or nothing; remove the quantifier or group with `(?:...)`",
            );
        }
        self.ast(&repetition.ast)
    }

    fn group(&mut self, group: &Group) -> Checked {
        match &group.kind {
            GroupKind::CaptureIndex(_) => {}
            GroupKind::CaptureName {
                starts_with_p: true,
                ..
            } => {
                return refuse(
                    &group.span,
                    "`(?P<name>...)` is not read by JavaScript; write `(?<name>...)`",
                );
            }
            GroupKind::CaptureName { name, .. } => {
                let valid = name
                    .name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && name
                        .name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !valid {
                    return refuse(
                        &name.span,
                        "a group name is letters, digits and `_`, not starting with a digit",
                    );
                }
            }
            GroupKind::NonCapturing(flags) if !flags.items.is_empty() => {
                return refuse(
                    &flags.span,
                    "group flags like `(?i:...)` are not read by every JavaScript engine; write `(?:...)` and the cases out",
                );
            }
            GroupKind::NonCapturing(_) => {}
        }
        self.ast(&group.ast)
    }

    fn bracketed(&mut self, class: &ClassBracketed) -> Checked {
        match &class.kind {
            ClassSet::BinaryOp(op) => refuse(
                &op.span,
                "class operators `&&`, `--` and `~~` are not read by JavaScript's `u` mode; list the characters",
            ),
            ClassSet::Item(item) => self.class_item(item),
        }
    }

    fn class_item(&mut self, item: &ClassSetItem) -> Checked {
        match item {
            ClassSetItem::Empty(_) => Ok(()),
            ClassSetItem::Literal(literal) => literal_inside_class(literal),
            ClassSetItem::Range(range) => {
                literal_inside_class(&range.start)?;
                literal_inside_class(&range.end)
            }
            ClassSetItem::Ascii(ascii) => refuse(
                &ascii.span,
                "POSIX classes like `[:alpha:]` are not read by JavaScript; write the range, e.g. `a-zA-Z`",
            ),
            ClassSetItem::Unicode(class) => unicode_class(class),
            ClassSetItem::Perl(class) => {
                self.rewrite(&class.span, rules::perl_class(&class.kind, class.negated));
                Ok(())
            }
            ClassSetItem::Bracketed(nested) => refuse(
                &nested.span,
                r"a class inside a class is read as a literal `[` by JavaScript; escape it as `\[`",
            ),
            ClassSetItem::Union(union) => union
                .items
                .iter()
                .try_for_each(|item| self.class_item(item)),
        }
    }
}

fn literal_outside_class(literal: &Literal) -> Checked {
    match literal.kind {
        LiteralKind::Verbatim if matches!(literal.c, ']' | '{' | '}') => refuse(
            &literal.span,
            format!(
                "a lone `{}` is a syntax error in JavaScript's `u` mode; escape it as `\\{}`",
                literal.c, literal.c
            ),
        ),
        LiteralKind::Meta if literal.c == '-' => refuse(
            &literal.span,
            r"`\-` outside a class is a syntax error in JavaScript's `u` mode; write `-`",
        ),
        _ => literal_either(literal),
    }
}

fn literal_inside_class(literal: &Literal) -> Checked {
    match literal.kind {
        LiteralKind::Verbatim if matches!(literal.c, '[' | ']') => refuse(
            &literal.span,
            format!("escape `{}` inside a class as `\\{}`", literal.c, literal.c),
        ),
        _ => literal_either(literal),
    }
}

/// The literal forms read the same inside and outside a class.
fn literal_either(literal: &Literal) -> Checked {
    let escape_refused = |what: &str| {
        refuse(
            &literal.span,
            format!(
                "{what} is not read by JavaScript's `u` mode; write `\\u{{{:X}}}`",
                literal.c as u32
            ),
        )
    };
    match &literal.kind {
        LiteralKind::Verbatim | LiteralKind::HexFixed(HexLiteralKind::X) => Ok(()),
        LiteralKind::HexFixed(HexLiteralKind::UnicodeShort) => Ok(()),
        LiteralKind::HexBrace(HexLiteralKind::UnicodeShort) => Ok(()),
        LiteralKind::Meta if matches!(literal.c, '#' | '&' | '~') => {
            escape_refused(&format!("the escape `\\{}`", literal.c))
        }
        LiteralKind::Meta => Ok(()),
        LiteralKind::Superfluous if literal.c == '/' => Ok(()),
        LiteralKind::Superfluous => escape_refused(&format!("the escape `\\{}`", literal.c)),
        LiteralKind::Octal => escape_refused("an octal escape"),
        LiteralKind::HexFixed(_) | LiteralKind::HexBrace(_) => {
            escape_refused("this hex escape form")
        }
        LiteralKind::Special(special) => match special {
            SpecialLiteralKind::FormFeed
            | SpecialLiteralKind::Tab
            | SpecialLiteralKind::LineFeed
            | SpecialLiteralKind::CarriageReturn
            | SpecialLiteralKind::VerticalTab => Ok(()),
            SpecialLiteralKind::Bell | SpecialLiteralKind::Space => escape_refused("this escape"),
        },
    }
}

fn unicode_class(class: &ClassUnicode) -> Checked {
    let known = match &class.kind {
        ClassUnicodeKind::OneLetter(_) => {
            return refuse(
                &class.span,
                r"JavaScript needs braces: write `\p{L}`, not `\pL`",
            );
        }
        ClassUnicodeKind::Named(name) => rules::known_property(name),
        ClassUnicodeKind::NamedValue {
            op: ClassUnicodeOpKind::Equal,
            name,
            value,
        } => rules::known_property_value(name, value),
        ClassUnicodeKind::NamedValue { .. } => {
            return refuse(
                &class.span,
                r"write a property value with `=`, e.g. `\p{Script=Greek}`",
            );
        }
    };
    if known {
        Ok(())
    } else {
        refuse(
            &class.span,
            r"this Unicode property is not spelled alike by Rust and JavaScript; use a general category (`\p{L}`, `\p{Lu}`, `\p{Nd}`...), `\p{Script=Name}` or one of Any, ASCII, Alphabetic, Lowercase, Uppercase, White_Space, Emoji, Ideographic",
        )
    }
}
