//! The body's bytes and a position in them: JSON's grammar read once,
//! straight from the buffer the body arrived in (no copy, no tape).

use std::borrow::Cow;

use super::{Read, Refused};
use crate::dto::MAX_JSON_DEPTH;

/// A field's key as a compact body writes it (`"name":`), with its first
/// eight bytes as one word: in the common case a key is matched by one
/// comparison.
#[doc(hidden)]
pub struct FieldKey {
    quoted: &'static [u8],
    /// The first eight bytes (fewer for a shorter key), little-endian.
    word: u64,
    /// The bits of `word` that hold the key.
    mask: u64,
    /// The first eight bytes of the key after a comma (`,"name":`).
    comma_word: u64,
    /// The bits of `comma_word` that hold the comma and key.
    comma_mask: u64,
    /// Whether a body writes the name as it is (no escapes in it), so that
    /// it can be matched as bytes.
    verbatim: bool,
}

impl FieldKey {
    /// The key of a field, given as the bytes `"name":`.
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
        // The comma in the first byte, the key's first seven after it.
        let comma_mask = mask << 8 | 0xFF;
        let comma_word = (word << 8 | b',' as u64) & comma_mask;
        let mut verbatim = true;
        let mut at = 1;
        while at + 2 < quoted.len() {
            if quoted[at] == b'"' || quoted[at] == b'\\' || quoted[at] < 0x20 {
                verbatim = false;
            }
            at += 1;
        }
        FieldKey {
            quoted,
            word,
            mask,
            comma_word,
            comma_mask,
            verbatim,
        }
    }

    /// The name, without its quotes and colon.
    fn name(&self) -> &[u8] {
        &self.quoted[1..self.quoted.len() - 2]
    }

    /// Whether `bytes` starts with this key, colon included.
    #[inline]
    fn starts(&self, bytes: &[u8]) -> bool {
        if !self.verbatim {
            return false;
        }
        match bytes.first_chunk::<8>() {
            Some(head) => {
                u64::from_le_bytes(*head) & self.mask == self.word
                    && (self.quoted.len() <= 8 || bytes[8..].starts_with(&self.quoted[8..]))
            }
            None => bytes.starts_with(self.quoted),
        }
    }

    /// Whether `bytes` starts with a comma and this key (`,"name":`).
    #[inline]
    fn follows_comma(&self, bytes: &[u8]) -> bool {
        if !self.verbatim {
            return false;
        }
        match bytes.first_chunk::<8>() {
            Some(head) => {
                u64::from_le_bytes(*head) & self.comma_mask == self.comma_word
                    && (self.quoted.len() < 8 || bytes[8..].starts_with(&self.quoted[7..]))
            }
            None => bytes.first() == Some(&b',') && bytes[1..].starts_with(self.quoted),
        }
    }
}

/// A JSON body being read. Every method refuses what simd-json (the
/// reference decoder) refuses; tests hold the two to the same verdicts.
#[doc(hidden)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Arrays and objects open around the position.
    depth: usize,
    /// Bytes the arrays read so far may still reserve ahead of their items
    /// ([`Reader::capacity_for`]): the body's length at first.
    reservable: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader {
            bytes,
            at: 0,
            depth: 0,
            reservable: bytes.len(),
        }
    }

    /// Opens an object (its `{`).
    #[inline]
    pub fn open_object(&mut self) -> Read<()> {
        self.open(b'{')
    }

    /// Consumes the key of `field` if it is next: the first member's, or
    /// after a comma the next one's. Without whitespace around the comma
    /// (as serializers write) it is one comparison of eight bytes for a
    /// short key. `false` (nothing consumed) for any other key.
    #[inline(always)]
    pub fn key(&mut self, field: &FieldKey, first: bool) -> bool {
        let rest = self.rest();
        let compact = if first {
            field.starts(rest)
        } else {
            field.follows_comma(rest)
        };
        if compact {
            self.at += field.quoted.len() + usize::from(!first);
            return true;
        }
        self.spaced_key(field, first)
    }

    /// [`Reader::key`] with whitespace before the key or the comma.
    #[cold]
    #[inline(never)]
    fn spaced_key(&mut self, field: &FieldKey, first: bool) -> bool {
        let start = self.at;
        if (first || self.eat(b',').is_ok()) && {
            self.skip_whitespace();
            field.starts(self.rest())
        } {
            self.at += field.quoted.len();
            return true;
        }
        self.at = start;
        false
    }

    /// Consumes the object's `}` if it is next.
    #[inline]
    pub fn close_object(&mut self) -> bool {
        if self.peek() == Ok(b'}') {
            self.at += 1;
            self.depth -= 1;
            true
        } else {
            false
        }
    }

    /// How many more items of `size` bytes an array whose first item took
    /// `used` bytes of the body is likely to hold, as the rest of the body
    /// would hold items like it: a vector reserves that once instead of
    /// growing (and moving its items) several times. What every array
    /// reserves this way adds up to no more than the body's length, so a
    /// body that misleads it (`[[1],[2],..]`, whose inner arrays each see
    /// the whole rest) costs at most its own size once more.
    pub(super) fn capacity_for(&mut self, used: usize, size: usize) -> usize {
        let left = self.bytes.len() - self.at;
        // Each further item takes its bytes and a comma.
        let likely = left / (used + 1);
        let items = likely.min(self.reservable / size.max(1));
        self.reservable -= items * size;
        items
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
    pub(super) fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// The next byte that is not whitespace, not consumed.
    #[inline]
    pub(super) fn peek(&mut self) -> Read<u8> {
        self.skip_whitespace();
        self.bytes.get(self.at).copied().ok_or(Refused)
    }

    /// The bytes from the position on.
    #[inline]
    pub(super) fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }

    /// The position.
    pub(super) fn position(&self) -> usize {
        self.at
    }

    /// The bytes between `start` and the position.
    pub(super) fn since(&self, start: usize) -> &'a [u8] {
        &self.bytes[start..self.at]
    }

    /// Moves the position back to `position`.
    pub(super) fn rewind(&mut self, position: usize) {
        self.at = position;
    }

    /// Moves the position `count` bytes on.
    #[inline]
    pub(super) fn advance(&mut self, count: usize) {
        self.at += count;
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
    pub(super) fn literal(&mut self, literal: &[u8]) -> Read<()> {
        self.skip_whitespace();
        if self.rest().starts_with(literal) {
            self.at += literal.len();
            Ok(())
        } else {
            Err(Refused)
        }
    }

    /// Consumes `null` if it is the next value.
    #[inline]
    pub(super) fn null(&mut self) -> Read<bool> {
        if self.peek()? == b'n' {
            self.literal(b"null")?;
            Ok(true)
        } else {
            Ok(false)
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

    /// Reads an object's members in order, `member` reading each value
    /// after its key.
    pub(super) fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, Cow<'a, str>) -> Read<()>,
    ) -> Read<()> {
        self.items(b'{', b'}', |reader| {
            let key = reader.string()?;
            reader.eat(b':')?;
            member(reader, key)
        })
    }

    /// Reads the rest of an object whose properties are `fields`, after
    /// its `{` and the first `next` fields, read in declaration order
    /// (none when `next` is 0), to its `}`; `field` reads the value of the
    /// field of each index. The next field in declaration order is tried
    /// first, as bytes (serializers write fields in order); any other key
    /// is read, then looked up. A property that is no field is skipped, or
    /// refused when `strict`.
    pub fn members(
        &mut self,
        fields: &[FieldKey],
        strict: bool,
        mut next: usize,
        mut field: impl FnMut(&mut Self, usize) -> Read<()>,
    ) -> Read<()> {
        let mut after_value = next > 0;
        loop {
            match self.peek()? {
                b'}' => {
                    self.at += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                b',' if after_value => self.at += 1,
                _ if after_value => return Err(Refused),
                _ => {}
            }
            self.member(fields, strict, &mut next, &mut field)?;
            after_value = true;
        }
    }

    /// One member of [`Reader::members`]: its key, then its value.
    #[inline]
    fn member(
        &mut self,
        fields: &[FieldKey],
        strict: bool,
        next: &mut usize,
        field: &mut impl FnMut(&mut Self, usize) -> Read<()>,
    ) -> Read<()> {
        self.skip_whitespace();
        if let Some(expected) = fields.get(*next)
            && expected.starts(self.rest())
        {
            self.at += expected.quoted.len();
            *next += 1;
            return field(self, *next - 1);
        }
        let key = self.string()?;
        self.eat(b':')?;
        let bytes = key.as_bytes();
        match fields.iter().position(|expected| expected.name() == bytes) {
            Some(index) => {
                *next = index + 1;
                field(self, index)
            }
            None if strict => Err(Refused),
            None => self.skip(),
        }
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

    /// A string: borrowed when it has no escapes; UTF-8 checked, lone
    /// surrogates and raw control characters refused.
    pub fn string(&mut self) -> Read<Cow<'a, str>> {
        self.eat(b'"')?;
        let start = self.at;
        let ascii = self.skip_plain_text();
        match self.bytes.get(self.at) {
            Some(b'"') => {
                let bytes = &self.bytes[start..self.at];
                let text = if ascii {
                    // SAFETY: every byte of `bytes` is below 0x80 (the scan
                    // saw each one), and ASCII is valid UTF-8. Checking it
                    // again is a tenth of what a body of text costs to read.
                    #[allow(unsafe_code)]
                    unsafe {
                        std::str::from_utf8_unchecked(bytes)
                    }
                } else {
                    std::str::from_utf8(bytes).map_err(|_| Refused)?
                };
                self.at += 1;
                Ok(Cow::Borrowed(text))
            }
            Some(b'\\') => self.escaped_string(start).map(Cow::Owned),
            // A raw control character, or the end of the body.
            _ => Err(Refused),
        }
    }

    /// Moves on to the next byte of a string that is not plain text (`"`,
    /// `\`, a control character) or to the end, eight bytes at a time;
    /// whether every byte passed is ASCII.
    #[inline]
    fn skip_plain_text(&mut self) -> bool {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let mut high = 0;
        while let Some(chunk) = self.rest().first_chunk::<8>() {
            let word = u64::from_le_bytes(*chunk);
            // A byte's high bit is set where it is zero (after the xor) or
            // below 0x20; only the lowest such byte is exact, which is the
            // one used.
            let quote = word ^ (ONES * u64::from(b'"'));
            let backslash = word ^ (ONES * u64::from(b'\\'));
            let special = (quote.wrapping_sub(ONES) & !quote)
                | (backslash.wrapping_sub(ONES) & !backslash)
                | (word.wrapping_sub(ONES * 0x20) & !word);
            let special = special & HIGHS;
            if special != 0 {
                let plain = special.trailing_zeros() / 8;
                self.at += plain as usize;
                // The plain bytes' high bits (`plain` is below 8).
                high |= word & ((1u64 << (8 * plain)) - 1);
                return high & HIGHS == 0;
            }
            high |= word;
            self.at += 8;
        }
        while let Some(&byte) = self.bytes.get(self.at) {
            if matches!(byte, b'"' | b'\\') || byte < 0x20 {
                break;
            }
            high |= u64::from(byte);
            self.at += 1;
        }
        high & HIGHS == 0
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
        if first >= 0xDC00 || !self.rest().starts_with(b"\\u") {
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

    /// Skips a value of any type (a property the type does not have), its
    /// JSON checked as strictly as a value that is read, but not its keys:
    /// the reference decoder lets a key repeat inside an ignored value
    /// (what is thrown away cannot be read two ways).
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

#[cfg(test)]
mod tests {
    use super::{FieldKey, Reader};

    /// `"name":` for a name of `length` letters.
    fn quoted(length: usize) -> &'static [u8] {
        let name: String = (0..length).map(|i| char::from(b'a' + i as u8)).collect();
        Box::leak(format!("\"{name}\":").into_bytes().into_boxed_slice())
    }

    /// Every key length around the eight bytes compared at once, with and
    /// without bytes after it, compact or with whitespace: a key is found
    /// where it is written, and one that differs in any byte is not.
    #[test]
    fn a_key_after_a_comma_is_found_as_it_is_written() {
        for length in 0..12 {
            let key = FieldKey::new(quoted(length));
            let written = String::from_utf8(key.quoted.to_vec()).unwrap();
            for (body, fits) in [
                (format!(",{written}1}}"), true),
                (format!(",{written}"), true),
                (format!(" , {written}1"), true),
                (format!(",{written}").replacen(':', " :", 1), false),
                (written.clone(), false),
                (format!(";{written}1}}"), false),
            ] {
                let mut reader = Reader::new(body.as_bytes());
                let read = reader.key(&key, false);
                assert_eq!(read, fits, "{body:?}");
                if fits {
                    assert!(
                        reader.rest().iter().all(|b| matches!(b, b'1' | b'}')),
                        "{body:?}"
                    );
                }
            }
            // Each byte changed in turn.
            for at in 0..=written.len() {
                let mut body = format!(",{written}1}}").into_bytes();
                body[at] ^= 0x20;
                let mut reader = Reader::new(&body);
                assert!(
                    !reader.key(&key, false) && reader.position() == 0,
                    "{:?}",
                    String::from_utf8_lossy(&body)
                );
            }
        }
    }
}
