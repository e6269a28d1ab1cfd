//! `impl WriteJson` of a DTO: the JSON serde's derive would write, with
//! every constant part (braces, commas, property names quoted and escaped,
//! tags) joined into byte strings at compile time. What serde's derive
//! would do at run time is mirrored here: skipped properties, the four enum
//! representations; the one form left to serde itself is an internally
//! tagged newtype variant (the inner value's own properties follow the tag,
//! or serde refuses it), and a skipped variant (serde refuses it).

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitByteStr;

use super::field::FieldInfo;

/// How an enum's variants are told apart, as serde reads its attributes.
pub(crate) enum Repr<'a> {
    External,
    Internal { tag: &'a str },
    Adjacent { tag: &'a str, content: &'a str },
    Untagged,
}

/// The bodies of `write_json` (ending in its `Result`) and of `json_len`.
pub(crate) struct Writer {
    pub(crate) write: TokenStream,
    pub(crate) len: TokenStream,
}

/// `s` as a JSON string, quotes included, escaped as serde_json escapes.
fn json_string(s: &str) -> Vec<u8> {
    let mut out = vec![b'"'];
    for byte in s.bytes() {
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x09 => out.extend_from_slice(b"\\t"),
            0x0A => out.extend_from_slice(b"\\n"),
            0x0C => out.extend_from_slice(b"\\f"),
            0x0D => out.extend_from_slice(b"\\r"),
            0x00..=0x1F => out.extend_from_slice(format!("\\u{byte:04x}").as_bytes()),
            _ => out.push(byte),
        }
    }
    out.push(b'"');
    out
}

/// Statements that write an object's pieces: constant bytes, joined, and
/// values written at run time.
#[derive(Default)]
struct Pieces {
    code: Vec<TokenStream>,
    pending: Vec<u8>,
    /// Bytes every output has, for `json_len`.
    constant: usize,
    /// The `json_len` of each value written.
    lens: Vec<TokenStream>,
}

impl Pieces {
    fn bytes(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
        self.constant += bytes.len();
    }

    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let literal = LitByteStr::new(&self.pending, proc_macro2::Span::call_site());
        self.code.push(if self.pending.len() == 1 {
            let byte = self.pending[0];
            quote!(__out.push(#byte);)
        } else {
            quote!(__out.extend_from_slice(#literal);)
        });
        self.pending.clear();
    }

    fn value(&mut self, value: &TokenStream) {
        self.flush();
        self.code
            .push(quote!(::framework::WriteJson::write_json(#value, __out)?;));
        self.lens
            .push(quote!(::framework::WriteJson::json_len(#value)));
    }

    fn statement(&mut self, statement: TokenStream) {
        self.flush();
        self.code.push(statement);
    }

    fn finish(mut self) -> Writer {
        self.flush();
        let Pieces {
            code,
            constant,
            lens,
            ..
        } = self;
        Writer {
            write: quote!(#(#code)*),
            len: quote!(#constant #(+ #lens)*),
        }
    }
}

/// One property of an object: its fields' info and how the generated code
/// reaches its value (a reference).
pub(crate) struct Property<'a> {
    pub(crate) info: &'a FieldInfo,
    pub(crate) value: TokenStream,
}

/// Writes `{` [`prefix`,] the present properties `}` into `pieces`. A
/// property that may be left out makes the comma before the next one a
/// run-time decision, as in serde_json.
fn object(pieces: &mut Pieces, prefix: Option<&[u8]>, properties: &[Property<'_>]) {
    pieces.bytes(b"{");
    // Whether something was written already: known at compile time until
    // the first property that may be left out.
    let mut known_first = true;
    let mut runtime_first = false;
    if let Some(prefix) = prefix {
        pieces.bytes(prefix);
        known_first = false;
    }
    for Property { info, value } in properties {
        if info.skip {
            continue;
        }
        let mut key = json_string(&info.wire);
        key.push(b':');
        let key_literal = LitByteStr::new(&key, proc_macro2::Span::call_site());
        let skip_if = if info.optional {
            Some(quote!(::core::option::Option::is_none(#value)))
        } else {
            info.skip_serializing_if
                .as_ref()
                .map(|path| quote!(#path(#value)))
        };
        match skip_if {
            Some(skip_if) => {
                let comma = if runtime_first {
                    quote!(if !__first { __out.push(b','); } __first = false;)
                } else if known_first {
                    runtime_first = true;
                    pieces.statement(quote!(let mut __first = true;));
                    quote!(__first = false;)
                } else {
                    quote!(__out.push(b',');)
                };
                pieces.statement(quote! {
                    if !(#skip_if) {
                        #comma
                        __out.extend_from_slice(#key_literal);
                        ::framework::WriteJson::write_json(#value, __out)?;
                    }
                });
                pieces.constant += key.len() + 1;
                pieces
                    .lens
                    .push(quote!(::framework::WriteJson::json_len(#value)));
            }
            None => {
                if runtime_first {
                    pieces.statement(quote!(if !__first {
                        __out.push(b',');
                    }));
                    runtime_first = false;
                } else if !known_first {
                    pieces.bytes(b",");
                }
                known_first = false;
                pieces.bytes(&key);
                pieces.value(value);
            }
        }
    }
    if runtime_first {
        // Read once more so that a last optional property leaves no
        // "value assigned is never read" behind.
        pieces.statement(quote!(let _ = __first;));
    }
    pieces.bytes(b"}");
}

/// A struct with named fields, reached through `self`.
pub(crate) fn for_struct(infos: &[FieldInfo]) -> Writer {
    let properties: Vec<Property<'_>> = infos
        .iter()
        .map(|info| {
            let member = &info.member;
            Property {
                info,
                value: quote!(&self.#member),
            }
        })
        .collect();
    let mut pieces = Pieces::default();
    object(&mut pieces, None, &properties);
    pieces.finish().returning_ok()
}

impl Writer {
    fn returning_ok(self) -> Writer {
        let write = self.write;
        Writer {
            write: quote!(#write ::core::result::Result::Ok(())),
            len: self.len,
        }
    }
}

/// A newtype struct: its field's JSON.
pub(crate) fn for_newtype() -> Writer {
    Writer {
        write: quote!(::framework::WriteJson::write_json(&self.0, __out)),
        len: quote!(::framework::WriteJson::json_len(&self.0)),
    }
}

/// What a variant holds.
pub(crate) enum Held<'a> {
    Unit,
    /// One value, bound to `__value` in the match arm.
    Newtype,
    /// Named fields, each bound by the arm to the given name.
    Struct(Vec<Property<'a>>),
}

/// The writer of one variant, named `wire` on the wire; `None` when serde
/// is left to write it.
pub(crate) fn for_variant(repr: &Repr<'_>, wire: &str, held: &Held<'_>) -> Option<Writer> {
    let name = json_string(wire);
    let newtype = quote!(__value);
    let mut pieces = Pieces::default();
    let tagged = |tag: &str| {
        let mut bytes = json_string(tag);
        bytes.push(b':');
        bytes.extend_from_slice(&name);
        bytes
    };
    match (repr, held) {
        (Repr::External, Held::Unit) => pieces.bytes(&name),
        (Repr::External, Held::Newtype) => {
            pieces.bytes(b"{");
            pieces.bytes(&name);
            pieces.bytes(b":");
            pieces.value(&newtype);
            pieces.bytes(b"}");
        }
        (Repr::External, Held::Struct(properties)) => {
            pieces.bytes(b"{");
            pieces.bytes(&name);
            pieces.bytes(b":");
            object(&mut pieces, None, properties);
            pieces.bytes(b"}");
        }
        (Repr::Internal { tag } | Repr::Adjacent { tag, .. }, Held::Unit) => {
            pieces.bytes(b"{");
            pieces.bytes(&tagged(tag));
            pieces.bytes(b"}");
        }
        (Repr::Internal { .. }, Held::Newtype) => return None,
        (Repr::Internal { tag }, Held::Struct(properties)) => {
            object(&mut pieces, Some(&tagged(tag)), properties);
        }
        (Repr::Adjacent { tag, content }, Held::Newtype | Held::Struct(_)) => {
            pieces.bytes(b"{");
            pieces.bytes(&tagged(tag));
            pieces.bytes(b",");
            pieces.bytes(&json_string(content));
            pieces.bytes(b":");
            match held {
                Held::Struct(properties) => object(&mut pieces, None, properties),
                _ => pieces.value(&newtype),
            }
            pieces.bytes(b"}");
        }
        (Repr::Untagged, Held::Unit) => pieces.bytes(b"null"),
        (Repr::Untagged, Held::Newtype) => pieces.value(&newtype),
        (Repr::Untagged, Held::Struct(properties)) => object(&mut pieces, None, properties),
    }
    Some(pieces.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_as_serde_json_escapes_them() {
        assert_eq!(
            json_string("a\"b\\c\u{1}\n é"),
            b"\"a\\\"b\\\\c\\u0001\\n \xc3\xa9\""
        );
    }
}
