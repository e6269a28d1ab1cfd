//! A candidate for the framework's request decoder (issue #25), measured
//! before it is generated: what `#[dto]` would emit for the constrained
//! [`Scene`], written out by hand over a reader of the body's bytes. One
//! pass, no tape, no `Value`, no serde visitor: each object's keys are
//! matched as bytes, each field read straight into its type; the type's
//! checks (the ones `#[dto]` generates, `Validate::is_valid`) then run on
//! the value, so no rule is implemented twice.
//!
//! It only accepts or refuses: a refused body's report is the framework's
//! second pass, as today. `tests/one_pass.rs` holds it to the framework's
//! decoder (`framework::from_json`) on valid, broken and malformed bodies;
//! `src/bin/instructions.rs` counts it beside the other parsers.

use std::borrow::Cow;

use framework::{MAX_JSON_DEPTH, Validate};
use lexical_parse_float::{FromLexicalWithOptions, Options, format::JSON};

use crate::{Coordinates, Scene, SceneBox};

/// Why the one pass stopped: the body is refused (the report says why).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

type Read<T> = Result<T, Refused>;

const NUMBER_OPTIONS: Options = Options::new();

/// A `Scene` from `body`, or `None` where the framework refuses it.
pub fn decode_scene(body: &[u8]) -> Option<Scene> {
    let mut reader = Reader::new(body);
    let scene = Scene::decode(&mut reader).ok()?;
    reader.end().ok()?;
    scene.is_valid().then_some(scene)
}

/// A field's key as a compact body writes it (`"x":`), with its first
/// eight bytes as a word: most keys are matched by one comparison.
pub struct FieldKey {
    quoted: &'static [u8],
    /// The first eight bytes (fewer for a shorter key), little-endian.
    word: u64,
    /// The bits of `word` that hold the key.
    mask: u64,
}

impl FieldKey {
    /// The key of the field named `name` (the bytes `"name":`).
    pub const fn new(quoted: &'static [u8]) -> Self {
        let mut word = 0;
        let mut at = 0;
        while at < quoted.len() && at < 8 {
            word |= (quoted[at] as u64) << (8 * at);
            at += 1;
        }
        let mask = if quoted.len() >= 8 {
            u64::MAX
        } else {
            (1 << (8 * quoted.len())) - 1
        };
        FieldKey { quoted, word, mask }
    }

    /// The name, without quotes and colon.
    fn name(&self) -> &[u8] {
        &self.quoted[1..self.quoted.len() - 2]
    }

    /// Whether `bytes` starts with this key.
    #[inline]
    fn starts(&self, bytes: &[u8]) -> bool {
        match bytes.first_chunk::<8>() {
            Some(head) => {
                u64::from_le_bytes(*head) & self.mask == self.word
                    && (self.quoted.len() <= 8 || bytes[8..].starts_with(&self.quoted[8..]))
            }
            None => bytes.starts_with(self.quoted),
        }
    }
}

/// An object's key, as [`Reader::object_of`] found it.
pub enum Key {
    /// The type's field of this index.
    Field(usize),
    /// A property the type does not have (skipped, or refused by a
    /// strict type).
    Other,
}

/// A JSON value read from a [`Reader`].
pub trait Decode: Sized {
    /// Reads one value at the reader's position (whitespace skipped).
    fn decode(reader: &mut Reader<'_>) -> Read<Self>;
}

/// The body's bytes and the position of the next one to read.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Arrays and objects open around the position.
    depth: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader {
            bytes,
            at: 0,
            depth: 0,
        }
    }

    /// Only whitespace is left.
    pub fn end(&mut self) -> Read<()> {
        self.skip_whitespace();
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(Refused)
        }
    }

    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// The next byte that is not whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Read<u8> {
        self.skip_whitespace();
        self.bytes.get(self.at).copied().ok_or(Refused)
    }

    /// Consumes `byte`, the next one that is not whitespace.
    #[inline]
    fn eat(&mut self, byte: u8) -> Read<()> {
        if self.peek()? == byte {
            self.at += 1;
            Ok(())
        } else {
            Err(Refused)
        }
    }

    /// Consumes `literal` (`true`, `false`, `null`).
    fn literal(&mut self, literal: &[u8]) -> Read<()> {
        self.skip_whitespace();
        if self.bytes[self.at..].starts_with(literal) {
            self.at += literal.len();
            Ok(())
        } else {
            Err(Refused)
        }
    }

    /// Opens an array or object, refusing what nests deeper than
    /// [`MAX_JSON_DEPTH`].
    fn open(&mut self, byte: u8) -> Read<()> {
        self.eat(byte)?;
        self.depth += 1;
        if self.depth > MAX_JSON_DEPTH {
            return Err(Refused);
        }
        Ok(())
    }

    /// Reads an object's keys in order, `field` reading each one's value.
    pub fn object(&mut self, mut field: impl FnMut(&mut Self, &[u8]) -> Read<()>) -> Read<()> {
        self.object_with(|reader| {
            let key = reader.string()?;
            reader.eat(b':')?;
            field(reader, key.as_bytes())
        })
    }

    /// Reads the keys of an object whose property names are `fields`
    /// (each with its quotes and colon, as in a compact body: `"x":`), `field` reading each
    /// value. The next field in declaration order is tried first, as bytes
    /// (serializers write fields in order); any other key is read, then
    /// looked up.
    pub fn object_of(
        &mut self,
        fields: &[FieldKey],
        mut field: impl FnMut(&mut Self, Key) -> Read<()>,
    ) -> Read<()> {
        let mut next = 0;
        self.object_with(|reader| {
            reader.skip_whitespace();
            if let Some(expected) = fields.get(next)
                && expected.starts(&reader.bytes[reader.at..])
            {
                reader.at += expected.quoted.len();
                next += 1;
                return field(reader, Key::Field(next - 1));
            }
            let key = reader.string()?;
            reader.eat(b':')?;
            let bytes = key.as_bytes();
            match fields.iter().position(|expected| expected.name() == bytes) {
                Some(index) => {
                    next = index + 1;
                    field(reader, Key::Field(index))
                }
                None => field(reader, Key::Other),
            }
        })
    }

    /// An object's members, each read by `member` (key, colon and value).
    fn object_with(&mut self, member: impl FnMut(&mut Self) -> Read<()>) -> Read<()> {
        self.items(b'{', b'}', member)
    }

    /// Reads an array's items in order with `item`.
    pub fn array(&mut self, item: impl FnMut(&mut Self) -> Read<()>) -> Read<()> {
        self.items(b'[', b']', item)
    }

    /// The comma-separated items between `open` and `close`, each read by
    /// `item`.
    fn items(
        &mut self,
        open: u8,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Read<()>,
    ) -> Read<()> {
        self.open(open)?;
        if self.peek()? == close {
            self.at += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            item(self)?;
            match self.peek()? {
                b',' => self.at += 1,
                byte if byte == close => {
                    self.at += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                _ => return Err(Refused),
            }
        }
    }

    /// A string: borrowed when it has no escapes, UTF-8 checked, lone
    /// surrogates and raw control characters refused.
    pub fn string(&mut self) -> Read<Cow<'a, str>> {
        self.eat(b'"')?;
        let start = self.at;
        loop {
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    let text =
                        std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| Refused)?;
                    self.at += 1;
                    return Ok(Cow::Borrowed(text));
                }
                Some(b'\\') => return self.escaped_string(start).map(Cow::Owned),
                Some(byte) if *byte < 0x20 => return Err(Refused),
                Some(_) => self.at += 1,
                None => return Err(Refused),
            }
        }
    }

    /// The rest of a string with escapes, from its first byte at `start`.
    fn escaped_string(&mut self, start: usize) -> Read<String> {
        let mut text = Vec::with_capacity(self.at - start + 16);
        text.extend_from_slice(&self.bytes[start..self.at]);
        loop {
            let byte = *self.bytes.get(self.at).ok_or(Refused)?;
            self.at += 1;
            match byte {
                b'"' => return String::from_utf8(text).map_err(|_| Refused),
                b'\\' => self.escape(&mut text)?,
                byte if byte < 0x20 => return Err(Refused),
                byte => text.push(byte),
            }
        }
    }

    /// One escape after its backslash, appended to `text` as UTF-8.
    fn escape(&mut self, text: &mut Vec<u8>) -> Read<()> {
        let byte = *self.bytes.get(self.at).ok_or(Refused)?;
        self.at += 1;
        let simple = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let c = self.unicode_escape()?;
                let mut buf = [0; 4];
                text.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                return Ok(());
            }
            _ => return Err(Refused),
        };
        text.push(simple);
        Ok(())
    }

    /// `\uXXXX` (after the `u`), a surrogate pair taking two.
    fn unicode_escape(&mut self) -> Read<char> {
        let first = self.hex4()?;
        if !(0xD800..0xE000).contains(&first) {
            return char::from_u32(first).ok_or(Refused);
        }
        if first >= 0xDC00 || !self.bytes[self.at..].starts_with(b"\\u") {
            return Err(Refused);
        }
        self.at += 2;
        let second = self.hex4()?;
        if !(0xDC00..0xE000).contains(&second) {
            return Err(Refused);
        }
        char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)).ok_or(Refused)
    }

    fn hex4(&mut self) -> Read<u32> {
        let digits = self.bytes.get(self.at..self.at + 4).ok_or(Refused)?;
        let mut value = 0;
        for digit in digits {
            value = value * 16 + char::from(*digit).to_digit(16).ok_or(Refused)?;
        }
        self.at += 4;
        Ok(value)
    }

    /// A number, JSON's grammar and correctly rounded (lexical's parser
    /// with its JSON format: no `+`, no leading zeros, digits on both
    /// sides of the point, no `NaN`); what follows it is the caller's.
    fn number(&mut self) -> Read<f64> {
        self.skip_whitespace();
        let (value, used) =
            f64::from_lexical_partial_with_options::<JSON>(&self.bytes[self.at..], &NUMBER_OPTIONS)
                .map_err(|_| Refused)?;
        self.at += used;
        Ok(value)
    }

    /// Skips a value of any type (a property the type does not have),
    /// its JSON checked as strictly as a value that is read, but not its
    /// keys: the framework's decoder ignores a repeated key inside an
    /// ignored value (what is thrown away cannot be read two ways).
    pub fn skip(&mut self) -> Read<()> {
        match self.peek()? {
            b'{' => self.object(|reader, _| reader.skip()),
            b'[' => self.array(Reader::skip),
            b'"' => self.string().map(drop),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.number().map(drop),
        }
    }
}

impl Decode for f64 {
    /// A finite number, correctly rounded.
    fn decode(reader: &mut Reader<'_>) -> Read<Self> {
        let value = reader.number()?;
        if value.is_finite() {
            Ok(value)
        } else {
            Err(Refused)
        }
    }
}

impl Decode for String {
    fn decode(reader: &mut Reader<'_>) -> Read<Self> {
        reader.string().map(Cow::into_owned)
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(reader: &mut Reader<'_>) -> Read<Self> {
        let mut items = Vec::new();
        reader.array(|reader| {
            items.push(T::decode(reader)?);
            Ok(())
        })?;
        Ok(items)
    }
}

/// What `#[dto]` would generate for a struct: its fields as `Option`s,
/// each key matched as bytes (a field read twice is refused), unknown keys
/// skipped (their values checked; like the framework's decoder, an unknown
/// key may repeat), then every required field present.
macro_rules! decode_struct {
    ($ty:ident { $($field:ident: $field_ty:ty),* $(,)? }) => {
        impl Decode for $ty {
            fn decode(reader: &mut Reader<'_>) -> Read<Self> {
                const FIELDS: &[FieldKey] = &[$(FieldKey::new(concat!("\"", stringify!($field), "\":").as_bytes())),*];
                $(let mut $field: Option<$field_ty> = None;)*
                reader.object_of(FIELDS, |reader, key| {
                    let Key::Field(index) = key else {
                        return reader.skip();
                    };
                    let mut at = 0;
                    $(
                        if index == at {
                            if $field.is_some() {
                                return Err(Refused);
                            }
                            $field = Some(<$field_ty>::decode(reader)?);
                            return Ok(());
                        }
                        at += 1;
                    )*
                    let _ = at;
                    Err(Refused)
                })?;
                Ok($ty { $($field: $field.ok_or(Refused)?,)* })
            }
        }
    };
}

decode_struct!(Coordinates {
    x: f64,
    y: f64,
    z: f64
});
decode_struct!(SceneBox {
    name: String,
    owner: String,
    scale: Coordinates,
    position: Coordinates,
    rotate: Coordinates,
    pivot: Coordinates,
});
decode_struct!(Scene { data: Vec<SceneBox> });
