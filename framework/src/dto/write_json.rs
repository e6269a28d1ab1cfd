//! JSON answers written by code `#[dto]` generates for each type: property
//! names escaped and quoted at compile time, numbers formatted straight into
//! the buffer (itoa, and zmij as serde_json itself uses), strings scanned
//! eight bytes at a time for what needs escaping, and the buffer sized once
//! from the value. The bytes are exactly serde_json's (`to_vec`) for every
//! value: the parity property tests compare them.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque},
    sync::Arc,
};

/// What writing a value as JSON can fail with: only values serde_json also
/// refuses (an internally tagged variant holding a number, say).
pub type JsonError = serde_json::Error;

/// A value that writes itself as JSON, exactly as `serde_json::to_vec`
/// would, faster: `#[dto]` generates it, and every type a DTO field can
/// have implements it. JSON answers are written with it.
///
/// ```
/// use framework::{WriteJson, prelude::*};
///
/// #[dto]
/// struct Point {
///     x: f64,
///     label: Option<String>,
/// }
///
/// let point = Point { x: 1.5, label: Some("a \"b\"".into()) };
/// assert_eq!(point.to_json().unwrap(), serde_json::to_vec(&point).unwrap());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written as JSON by the framework",
    label = "declare it with `#[dto]`"
)]
pub trait WriteJson {
    /// Appends the value's JSON to `out`.
    ///
    /// # Errors
    /// Whatever serde_json would refuse for the same value.
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError>;

    /// About how many bytes [`write_json`](Self::write_json) appends: the
    /// most a number can take, a string's length, so that the buffer of an
    /// answer is sized once.
    #[inline]
    fn json_len(&self) -> usize {
        16
    }

    /// The value's JSON in a buffer of its own, sized from
    /// [`json_len`](Self::json_len).
    ///
    /// # Errors
    /// Whatever serde_json would refuse for the same value.
    fn to_json(&self) -> Result<Vec<u8>, JsonError> {
        let mut out = Vec::with_capacity(self.json_len());
        self.write_json(&mut out)?;
        Ok(out)
    }
}

/// Writes `value` with serde_json: for the types whose JSON serde_json
/// makes from their own `Serialize` (dates, `serde_json::Value`) and the
/// variants the generated code leaves to serde.
#[doc(hidden)]
pub fn write_serde<T: serde::Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), JsonError> {
    serde_json::to_writer(out, value)
}

/// Writes `text` as a JSON string, escaped as serde_json escapes it:
/// `"` and `\` with a backslash, the controls with a short escape where
/// JSON has one and `\u00XX` (lower-case hex) otherwise; nothing else.
#[doc(hidden)]
pub fn write_str(text: &str, out: &mut Vec<u8>) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut run = 0;
    let mut at = 0;
    while at < bytes.len() {
        // Eight bytes at a time while none of them needs an escape.
        if let Some(chunk) = bytes.get(at..at + 8)
            && let Ok(word) = <[u8; 8]>::try_from(chunk)
            && !needs_escape(u64::from_le_bytes(word))
        {
            at += 8;
            continue;
        }
        let byte = bytes[at];
        let escape = ESCAPE[usize::from(byte)];
        if escape != 0 {
            out.extend_from_slice(&bytes[run..at]);
            write_escape(byte, escape, out);
            run = at + 1;
        }
        at += 1;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

/// Whether any byte of `word` is a control character, `"` or `\`.
#[inline]
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    // Bytes below 0x20 (the high bit of a byte of 0x80 and above stays out).
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    control | has_zero(word ^ (ONES * u64::from(b'"'))) | has_zero(word ^ (ONES * u64::from(b'\\')))
        != 0
}

fn write_escape(byte: u8, escape: u8, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    if escape == b'u' {
        out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(byte >> 4)],
            HEX[usize::from(byte & 0xF)],
        ]);
    } else {
        out.extend_from_slice(&[b'\\', escape]);
    }
}

/// For each byte, the letter of its escape (`u` for `\u00XX`), or 0.
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// `null`, as serde_json writes `None`, `()` and a number that is not
/// finite.
#[doc(hidden)]
#[inline]
pub fn write_null(out: &mut Vec<u8>) {
    out.extend_from_slice(b"null");
}

macro_rules! integers {
    ($($ty:ty),*) => {$(
        impl WriteJson for $ty {
            #[inline]
            fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
                out.extend_from_slice(itoa::Buffer::new().format(*self).as_bytes());
                Ok(())
            }

            #[inline]
            fn json_len(&self) -> usize {
                20
            }
        }
    )*};
}

integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// Appends a finite float's shortest form, as serde_json writes it, with
/// zmij formatting it in place, in `out`'s spare capacity.
///
/// Formatted into a buffer of its own and then copied, each float cost a
/// store-forwarding stall: zmij stores its digits in wide words and moves
/// them within its buffer, and the copy read them back before those stores
/// had reached the cache (`perf record` of the `performance` bench route:
/// 7% of the server's samples in that copy, most on its first load).
#[inline]
fn write_finite<F: zmij::Float>(value: F, out: &mut Vec<u8>) {
    const SIZE: usize = size_of::<zmij::Buffer>();
    const { assert!(align_of::<zmij::Buffer>() == 1) };
    out.reserve(SIZE);
    let len = out.len();
    let spare = out.spare_capacity_mut().as_mut_ptr().cast::<u8>();
    // SAFETY: `reserve` left at least `SIZE` bytes of spare capacity at
    // `spare`, which is all a `zmij::Buffer` needs (its alignment is 1,
    // checked at compile time). A whole `Buffer` is written there before it
    // is borrowed, so it is valid whatever its fields are, and it needs no
    // drop. The length is moved on only over text that zmij wrote at
    // `spare`, within those bytes, so every byte below it is initialised.
    #[allow(unsafe_code)]
    unsafe {
        let buffer = spare.cast::<zmij::Buffer>();
        buffer.write(zmij::Buffer::new());
        let text = (*buffer).format_finite(value);
        if text.as_ptr() == spare.cast_const() && text.len() <= SIZE {
            out.set_len(len + text.len());
            return;
        }
        // Text elsewhere: not what zmij does, but not assumed either.
        let text = text.to_owned();
        out.extend_from_slice(text.as_bytes());
    }
}

macro_rules! floats {
    ($($ty:ty),*) => {$(
        impl WriteJson for $ty {
            #[inline]
            fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
                if self.is_finite() {
                    write_finite(*self, out);
                } else {
                    write_null(out);
                }
                Ok(())
            }

            #[inline]
            fn json_len(&self) -> usize {
                24
            }
        }
    )*};
}

floats!(f32, f64);

impl WriteJson for bool {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
        Ok(())
    }

    #[inline]
    fn json_len(&self) -> usize {
        5
    }
}

impl WriteJson for () {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
        write_null(out);
        Ok(())
    }

    #[inline]
    fn json_len(&self) -> usize {
        4
    }
}

impl WriteJson for str {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
        write_str(self, out);
        Ok(())
    }

    #[inline]
    fn json_len(&self) -> usize {
        self.len() + 2
    }
}

impl WriteJson for String {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
        write_str(self, out);
        Ok(())
    }

    #[inline]
    fn json_len(&self) -> usize {
        self.len() + 2
    }
}

impl WriteJson for char {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
        write_str(self.encode_utf8(&mut [0; 4]), out);
        Ok(())
    }

    #[inline]
    fn json_len(&self) -> usize {
        8
    }
}

impl WriteJson for uuid::Uuid {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
        let mut text = [0; uuid::fmt::Hyphenated::LENGTH];
        out.push(b'"');
        out.extend_from_slice(self.hyphenated().encode_lower(&mut text).as_bytes());
        out.push(b'"');
        Ok(())
    }

    #[inline]
    fn json_len(&self) -> usize {
        uuid::fmt::Hyphenated::LENGTH + 2
    }
}

/// Types whose JSON is what their `Serialize` makes of them.
macro_rules! through_serde {
    ($([$($generics:tt)*] $ty:ty, $len:expr;)*) => {$(
        impl<$($generics)*> WriteJson for $ty {
            #[inline]
            fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
                write_serde(self, out)
            }

            #[inline]
            fn json_len(&self) -> usize {
                $len
            }
        }
    )*};
}

through_serde! {
    [] chrono::NaiveDate, 12;
    [Tz: chrono::TimeZone] chrono::DateTime<Tz>, 40;
    [] serde_json::Value, 64;
}

impl<T: WriteJson> WriteJson for Option<T> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
        match self {
            Some(value) => value.write_json(out),
            None => {
                write_null(out);
                Ok(())
            }
        }
    }

    #[inline]
    fn json_len(&self) -> usize {
        self.as_ref().map_or(4, WriteJson::json_len)
    }
}

/// `[a,b,...]`.
fn write_seq<'a, T: WriteJson + 'a>(
    items: impl IntoIterator<Item = &'a T>,
    out: &mut Vec<u8>,
) -> Result<(), JsonError> {
    out.push(b'[');
    let mut first = true;
    for item in items {
        if !first {
            out.push(b',');
        }
        first = false;
        item.write_json(out)?;
    }
    out.push(b']');
    Ok(())
}

fn seq_len<'a, T: WriteJson + 'a>(items: impl IntoIterator<Item = &'a T>) -> usize {
    items
        .into_iter()
        .fold(2, |sum, item| sum + item.json_len() + 1)
}

macro_rules! sequences {
    ($([$($generics:tt)*] $ty:ty;)*) => {$(
        impl<$($generics)*> WriteJson for $ty {
            #[inline]
            fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
                write_seq(self.iter(), out)
            }

            #[inline]
            fn json_len(&self) -> usize {
                seq_len(self.iter())
            }
        }
    )*};
}

sequences! {
    [T: WriteJson] Vec<T>;
    [T: WriteJson] VecDeque<T>;
    [T: WriteJson] [T];
    [T: WriteJson, S] HashSet<T, S>;
    [T: WriteJson] BTreeSet<T>;
}

/// `{"key":value,...}`.
fn write_map<'a, V: WriteJson + 'a>(
    entries: impl IntoIterator<Item = (&'a String, &'a V)>,
    out: &mut Vec<u8>,
) -> Result<(), JsonError> {
    out.push(b'{');
    let mut first = true;
    for (key, value) in entries {
        if !first {
            out.push(b',');
        }
        first = false;
        write_str(key, out);
        out.push(b':');
        value.write_json(out)?;
    }
    out.push(b'}');
    Ok(())
}

fn map_len<'a, V: WriteJson + 'a>(entries: impl IntoIterator<Item = (&'a String, &'a V)>) -> usize {
    entries.into_iter().fold(2, |sum, (key, value)| {
        sum + key.len() + value.json_len() + 4
    })
}

impl<V: WriteJson, S> WriteJson for HashMap<String, V, S> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
        write_map(self, out)
    }

    #[inline]
    fn json_len(&self) -> usize {
        map_len(self)
    }
}

impl<V: WriteJson> WriteJson for BTreeMap<String, V> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
        write_map(self, out)
    }

    #[inline]
    fn json_len(&self) -> usize {
        map_len(self)
    }
}

macro_rules! pointers {
    ($($ty:ty),*) => {$(
        impl<T: WriteJson + ?Sized> WriteJson for $ty {
            #[inline]
            fn write_json(&self, out: &mut Vec<u8>) -> Result<(), JsonError> {
                (**self).write_json(out)
            }

            #[inline]
            fn json_len(&self) -> usize {
                (**self).json_len()
            }
        }
    )*};
}

pointers!(Box<T>, Arc<T>, &T);

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn same_as_serde<T: WriteJson + serde::Serialize + ?Sized>(value: &T) {
        let mut ours = Vec::new();
        value.write_json(&mut ours).unwrap();
        let theirs = serde_json::to_vec(value).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        );
    }

    #[test]
    fn every_escape_is_serde_jsons() {
        let all: String = (0u8..=0x7F).map(char::from).collect();
        same_as_serde(&all);
        same_as_serde("a long run of plain text, then \" and \\ and \u{1f} and é, then more");
        same_as_serde("\u{7f}\u{80}\u{2028}\u{fffd}");
        same_as_serde(&'\n');
    }

    #[test]
    fn numbers_and_their_edges_are_serde_jsons() {
        for value in [
            0.0f64,
            -0.0,
            1.0,
            0.1,
            1e16,
            1e-7,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            same_as_serde(&value);
            same_as_serde(&(value as f32));
        }
        same_as_serde(&vec![i64::MIN, i64::MAX, 0]);
        same_as_serde(&vec![u64::MAX, 0]);
        same_as_serde(&uuid::Uuid::from_u128(
            0x0123_4567_89ab_cdef_0123_4567_89ab_cdef,
        ));
        same_as_serde(&chrono::NaiveDate::from_ymd_opt(2024, 2, 29));
        same_as_serde(&serde_json::json!({"b": [1, "x", null], "a": 1.5}));
    }

    proptest! {
        #[test]
        fn any_string_is_written_as_serde_json_writes_it(text in any::<String>()) {
            same_as_serde(&text);
        }

        #[test]
        fn any_float_is_written_as_serde_json_writes_it(bits in any::<u64>(), small in any::<u32>()) {
            same_as_serde(&f64::from_bits(bits));
            same_as_serde(&f32::from_bits(small));
            // After other bytes and before more: every length appended.
            let wide = f64::from_bits(bits);
            same_as_serde(&vec![wide, -1.5, f64::from(f32::from_bits(small)), 0.1, wide]);
        }

        #[test]
        fn any_integer_is_written_as_serde_json_writes_it(
            signed in any::<i64>(),
            unsigned in any::<u64>(),
            shift in 0..64u32,
        ) {
            same_as_serde(&vec![signed >> shift, -7, signed, 0]);
            same_as_serde(&vec![unsigned >> shift, 7, unsigned, 0]);
        }

        #[test]
        fn collections_are_written_as_serde_json_writes_them(
            map in proptest::collection::hash_map(any::<String>(), any::<Option<i32>>(), 0..6),
            tree in proptest::collection::btree_map(any::<String>(), any::<Vec<bool>>(), 0..6),
            set in proptest::collection::btree_set(any::<i16>(), 0..6),
        ) {
            same_as_serde(&map);
            same_as_serde(&tree);
            same_as_serde(&set);
        }
    }
}
