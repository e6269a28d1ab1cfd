//! Decimal numbers to `f64` in exact integer arithmetic, for the common
//! case: at most 19 significant digits and a power of ten the arithmetic
//! holds exactly. It reads JSON's grammar and declines (`None`) anything
//! it does not handle, which lexical's parser then reads: it never gives
//! a value other than the correctly rounded one (tests hold it to lexical
//! on millions of numbers).
//!
//! Why not lexical for everything: a body of floats (the `assert` route's
//! 1,200 coordinates) spends most of its time there, and reading the
//! digits eight at a time here costs about half as many instructions per
//! float (bench/README.md).

/// `10^k` for `k` up to 38, exact.
const POW10_WIDE: [u128; 39] = {
    let mut table = [1u128; 39];
    let mut k = 1;
    while k < 39 {
        table[k] = table[k - 1] * 10;
        k += 1;
    }
    table
};

/// `10^k` up to 22: exact as `f64`.
const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `10^k` up to 8.
const POW10_U64: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// A number read by [`parse`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Decimal {
    /// Its value, correctly rounded.
    pub(super) value: f64,
    /// How many bytes it takes.
    pub(super) used: usize,
    /// Written without fraction or exponent: an integer.
    pub(super) integer: bool,
}

/// A number at the start of `bytes` in JSON's grammar; `None` for what
/// this module leaves to lexical (more than 19 significant digits, a large
/// exponent, and anything that is not a number).
#[inline]
pub(super) fn parse(bytes: &[u8]) -> Option<Decimal> {
    let negative = bytes.first() == Some(&b'-');
    let mut at = usize::from(negative);
    let mut mantissa = 0u64;
    let mut count = match bytes.get(at)? {
        // No leading zeros: `01` is no JSON number.
        b'0' if bytes.get(at + 1).is_some_and(u8::is_ascii_digit) => return None,
        b'0' => {
            at += 1;
            0
        }
        b'1'..=b'9' => digits(bytes, &mut at, &mut mantissa),
        _ => return None,
    };
    let mut exponent = 0i32;
    let mut integer = true;
    if bytes.get(at) == Some(&b'.') {
        integer = false;
        at += 1;
        let fraction = digits(bytes, &mut at, &mut mantissa);
        if fraction == 0 {
            return None;
        }
        count += fraction;
        exponent = -i32::try_from(fraction).ok()?;
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        integer = false;
        at += 1;
        exponent = exponent.checked_add(power(bytes, &mut at)?)?;
    }
    if count > 19 {
        return None;
    }
    let value = exact(mantissa, exponent)?;
    Some(Decimal {
        value: if negative { -value } else { value },
        used: at,
        integer,
    })
}

/// An exponent's sign and digits (after the `e`); `None` when there are
/// no digits or more than four.
#[inline]
fn power(bytes: &[u8], at: &mut usize) -> Option<i32> {
    let negative = match bytes.get(*at) {
        Some(b'-') => true,
        Some(b'+') => false,
        _ => {
            return power_digits(bytes, at);
        }
    };
    *at += 1;
    power_digits(bytes, at).map(|value| if negative { -value } else { value })
}

fn power_digits(bytes: &[u8], at: &mut usize) -> Option<i32> {
    let start = *at;
    let mut value = 0i32;
    while let Some(digit @ b'0'..=b'9') = bytes.get(*at) {
        value = value * 10 + i32::from(digit - b'0');
        *at += 1;
        if *at - start > 4 {
            return None;
        }
    }
    (*at > start).then_some(value)
}

/// Reads the digits at `at` into `mantissa` (wrapping past 19 digits: the
/// caller declines those), eight at a time; how many there were.
#[inline]
fn digits(bytes: &[u8], at: &mut usize, mantissa: &mut u64) -> usize {
    let mut count = 0;
    loop {
        let Some(chunk) = bytes.get(*at..).and_then(|rest| rest.first_chunk::<8>()) else {
            while let Some(digit @ b'0'..=b'9') = bytes.get(*at) {
                *mantissa = mantissa
                    .wrapping_mul(10)
                    .wrapping_add(u64::from(digit - b'0'));
                *at += 1;
                count += 1;
            }
            return count;
        };
        let (value, n) = leading_digits(chunk);
        *mantissa = mantissa.wrapping_mul(POW10_U64[n]).wrapping_add(value);
        *at += n;
        count += n;
        if n < 8 {
            return count;
        }
    }
}

/// The decimal digits that start `chunk` (up to all eight), as a number,
/// and how many there are: one word's arithmetic, no loop.
#[inline]
fn leading_digits(chunk: &[u8; 8]) -> (u64, usize) {
    let word = u64::from_le_bytes(*chunk);
    let less = word.wrapping_sub(0x3030_3030_3030_3030);
    let more = word.wrapping_add(0x4646_4646_4646_4646);
    // A byte's high bit is set where it is below `0` or above `9`.
    let others = (less | more) & 0x8080_8080_8080_8080;
    let n = (others.trailing_zeros() / 8) as usize;
    if n == 0 {
        return (0, 0);
    }
    // The n digits moved to the top of the word, zeros (as digits) below.
    // Pairs, then quads, then all eight, by multiplications whose
    // overflow lands in bytes that are masked off.
    let mut value = less << (8 * (8 - n));
    value = value.wrapping_mul(10).wrapping_add(value >> 8);
    value = (value & 0x0000_00FF_0000_00FF)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((value >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32)))
        >> 32;
    (value, n)
}

/// `mantissa × 10^exponent`, correctly rounded, where integer arithmetic
/// holds it exactly; `None` elsewhere.
#[inline]
fn exact(mantissa: u64, exponent: i32) -> Option<f64> {
    if mantissa == 0 {
        return Some(0.0);
    }
    let power = exponent.unsigned_abs() as usize;
    // Both exact as f64: one correctly rounded operation.
    if mantissa <= 1 << 53 && power <= 22 {
        let value = mantissa as f64;
        return Some(if exponent >= 0 {
            value * POW10_F64[power]
        } else {
            value / POW10_F64[power]
        });
    }
    if exponent >= 0 {
        // Below 2^64 × 10^19 < 2^128: exact; the cast rounds to nearest,
        // ties to even.
        return (power <= 19).then(|| (u128::from(mantissa) * POW10_WIDE[power]) as f64);
    }
    if power > 21 {
        return None;
    }
    // mantissa / 10^power: the mantissa shifted to the top of 128 bits,
    // divided. The quotient has at least 55 bits (10^21 < 2^70), so a
    // remainder folded into its lowest bit (below the rounding bit)
    // rounds the cast exactly as the true quotient rounds.
    let shift = mantissa.leading_zeros() + 64;
    let scaled = u128::from(mantissa) << shift;
    let divisor = POW10_WIDE[power];
    let quotient = (scaled / divisor) | u128::from(!scaled.is_multiple_of(divisor));
    // Scaling back by 2^-shift is exact: the value is a normal float.
    let scale = f64::from_bits((1023 - u64::from(shift)) << 52);
    Some(quotient as f64 * scale)
}

#[cfg(test)]
mod tests {
    use lexical_parse_float::{FromLexicalWithOptions, Options, format::JSON};
    use rand::{Rng, SeedableRng, rngs::SmallRng};

    use super::parse;

    /// What lexical reads from `text`.
    fn lexical(text: &str) -> Option<(u64, usize)> {
        f64::from_lexical_partial_with_options::<JSON>(text.as_bytes(), &Options::new())
            .ok()
            .map(|(value, used)| (value.to_bits(), used))
    }

    /// Every number this module reads is read bit for bit as lexical reads
    /// it, with what follows it in a body after it.
    fn agrees(text: &str) -> bool {
        let body = format!("{text},\"next\":1}}");
        match parse(body.as_bytes()) {
            Some(super::Decimal { value, used, .. }) => {
                assert_eq!(Some((value.to_bits(), used)), lexical(&body), "{text}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn random_numbers_read_as_lexical_reads_them() {
        let mut rng = SmallRng::seed_from_u64(25);
        let mut read = 0;
        for round in 0..400_000u32 {
            let bits: u64 = rng.random();
            let text = match round % 4 {
                // Shortest form of any finite float.
                0 => format!("{}", f64::from_bits(bits)),
                // Coordinates: 15 to 17 digits around the point.
                1 => format!("{}", rng.random_range(-1000.0..1000.0f64)),
                // A mantissa of 1 to 19 digits with an exponent.
                2 => {
                    let digits = rng.random_range(1..=19u32);
                    let mantissa = rng.random_range(10u64.pow(digits - 1)..=10u64.pow(digits) - 1);
                    format!("{mantissa}e{}", rng.random_range(-40..40))
                }
                // Digits with the point anywhere, ties included.
                _ => {
                    let mantissa: u64 = bits >> rng.random_range(0..64);
                    let text = mantissa.to_string();
                    let point = rng.random_range(0..=text.len());
                    let (whole, fraction) = text.split_at(point);
                    let whole = whole.trim_start_matches('0');
                    format!(
                        "{}.{}",
                        if whole.is_empty() { "0" } else { whole },
                        if fraction.is_empty() { "0" } else { fraction }
                    )
                }
            };
            if !text.contains("inf") && !text.contains("NaN") {
                read += usize::from(agrees(&text));
            }
        }
        // A quarter are shortest forms of any float: most have exponents
        // beyond 10^±22, left to lexical.
        assert!(read > 200_000, "{read}");
    }

    #[test]
    fn halfway_cases_round_to_even() {
        for text in [
            "9007199254740993.0",
            "9007199254740995.0",
            "2.0000000000000001",
            "0.30000000000000004",
            "1.7976931348623157e308",
            "4.9e-324",
            "2.2250738585072011e-308",
            "123456789012345678e-21",
            "9999999999999999999e-21",
            "9999999999999999999e19",
            "18446744073709551615e0",
            "1e22",
            "1e23",
            "-0.0",
            "0.0e5",
        ] {
            agrees(text);
        }
    }

    #[test]
    fn what_is_not_json_is_left_to_lexical() {
        for text in [
            "01", "1.", ".5", "+1", "-", "1e", "1e+", "--1", "1.e3", "0x10", "1e99999",
        ] {
            let body = format!("{text},");
            let ours = parse(body.as_bytes()).map(|read| (read.value.to_bits(), read.used));
            assert!(ours.is_none() || ours == lexical(&body), "{text}: {ours:?}");
        }
    }
}
