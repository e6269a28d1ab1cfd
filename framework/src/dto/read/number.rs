//! Numbers, classified as the reference decoder (simd-json) classifies
//! them: a number written without fraction or exponent is an integer,
//! exact (refused beyond `u64` and `i64`); any other is a float, correctly
//! rounded.

use lexical_parse_float::{FromLexicalWithOptions, Options, format::JSON};

use super::{Read, Reader, Refused, decimal};

/// A JSON number as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Number {
    /// An integer without a sign (`0`, `42`).
    Unsigned(u64),
    /// An integer with a minus sign (`-0` is 0).
    Negative(i64),
    /// A number with a fraction or an exponent.
    Float(f64),
}

const FLOAT_OPTIONS: Options = Options::new();

impl Reader<'_> {
    /// The next value, a number; what follows it is the caller's to read
    /// (`12a` is refused where `a` is met).
    pub(super) fn number(&mut self) -> Read<Number> {
        self.skip_whitespace();
        let rest = self.rest();
        let negative = rest.first() == Some(&b'-');
        let digits = &rest[usize::from(negative)..];
        let count = match digits {
            [b'0', ..] => 1,
            [b'1'..=b'9', ..] => digits.iter().take_while(|b| b.is_ascii_digit()).count(),
            _ => return Err(Refused),
        };
        if let Some(b'.' | b'e' | b'E') = digits.get(count) {
            return self.float().map(Number::Float);
        }
        let value = integer(&digits[..count]).ok_or(Refused)?;
        self.advance(usize::from(negative) + count);
        if !negative {
            return Ok(Number::Unsigned(value));
        }
        // -2^63 is the lowest; `-0` is the integer 0.
        0i64.checked_sub_unsigned(value)
            .map(Number::Negative)
            .ok_or(Refused)
    }

    /// The next value, a number, as a float: what [`Reader::number`] reads,
    /// converted as serde converts integers, in one pass over its digits
    /// (a second only for a number written as an integer, which is exact
    /// and bounded, and `-0` is `0`).
    #[inline]
    pub(super) fn float_number(&mut self) -> Read<f64> {
        self.skip_whitespace();
        match decimal::parse(self.rest()) {
            Some(read) if !read.integer => {
                self.advance(read.used);
                Ok(read.value)
            }
            Some(_) => self.number().map(Number::float),
            None => {
                let start = self.position();
                let value = self.lexical()?;
                if self
                    .since(start)
                    .iter()
                    .any(|b| matches!(b, b'.' | b'e' | b'E'))
                {
                    return Ok(value);
                }
                self.rewind(start);
                self.number().map(Number::float)
            }
        }
    }

    /// A number with a fraction or exponent in JSON's grammar, correctly
    /// rounded: the common case by [`decimal`] (up to 19 digits, a power of
    /// ten within ±22), anything else by lexical's parser (JSON's format:
    /// digits on both sides of the point, no `+` before the number, no
    /// leading zeros).
    fn float(&mut self) -> Read<f64> {
        match decimal::parse(self.rest()) {
            Some(read) => {
                self.advance(read.used);
                Ok(read.value)
            }
            None => self.lexical(),
        }
    }

    /// lexical's reading of the number at the position. A number beyond
    /// `f64`'s range is refused wherever it is, as the reference refuses
    /// it, even in a value that is skipped.
    fn lexical(&mut self) -> Read<f64> {
        let (value, used) =
            f64::from_lexical_partial_with_options::<JSON>(self.rest(), &FLOAT_OPTIONS)
                .map_err(|_| Refused)?;
        if !value.is_finite() {
            return Err(Refused);
        }
        self.advance(used);
        Ok(value)
    }
}

impl Number {
    /// The number as a float, an integer converted as serde converts it.
    fn float(self) -> f64 {
        match self {
            Number::Unsigned(value) => value as f64,
            Number::Negative(value) => value as f64,
            Number::Float(value) => value,
        }
    }
}

/// The value of a run of decimal digits, if it fits a `u64`.
#[inline]
fn integer(digits: &[u8]) -> Option<u64> {
    if digits.len() <= 19 {
        // At most 19 digits: below 10^19, no overflow.
        return Some(
            digits
                .iter()
                .fold(0, |value, digit| value * 10 + u64::from(digit - b'0')),
        );
    }
    digits.iter().try_fold(0u64, |value, digit| {
        value.checked_mul(10)?.checked_add(u64::from(digit - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Read<Number> {
        let mut reader = Reader::new(text.as_bytes());
        let number = reader.number()?;
        reader.end().map(|()| number)
    }

    #[test]
    fn integers_are_exact_to_their_bounds() {
        assert_eq!(read("0"), Ok(Number::Unsigned(0)));
        assert_eq!(read("-0"), Ok(Number::Negative(0)));
        assert_eq!(read("18446744073709551615"), Ok(Number::Unsigned(u64::MAX)));
        assert_eq!(read("18446744073709551616"), Err(Refused));
        assert_eq!(read("-9223372036854775808"), Ok(Number::Negative(i64::MIN)));
        assert_eq!(read("-9223372036854775809"), Err(Refused));
    }

    #[test]
    fn floats_follow_json_grammar() {
        assert_eq!(read("1.5"), Ok(Number::Float(1.5)));
        assert_eq!(read("-2.5e3"), Ok(Number::Float(-2500.0)));
        assert_eq!(read("1E2"), Ok(Number::Float(100.0)));
        assert_eq!(read("0.1"), Ok(Number::Float(0.1)));
        assert_eq!(
            read("-412.3456789012346"),
            Ok(Number::Float(-412.345_678_901_234_6))
        );
        assert_eq!(read("1e400"), Err(Refused));
        assert_eq!(read("-6901111111111111111E1111111"), Err(Refused));
        assert!(matches!(read("-0.0"), Ok(Number::Float(zero)) if zero.is_sign_negative()));
        assert!(matches!(read("-0.0e5"), Ok(Number::Float(zero)) if zero.is_sign_negative()));
        for bad in [
            "01", "1.", ".5", "+1", "-", "1e", "1.e3", "--1", "0x10", "NaN",
        ] {
            assert_eq!(read(bad), Err(Refused), "{bad}");
        }
    }
}
