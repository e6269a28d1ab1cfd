//! Decimal numbers to `f64`, for the common case: at most 19 significant
//! digits and a power of ten within ±22. It reads JSON's grammar and
//! declines (`None`) anything it does not handle, which lexical's parser
//! then reads: it never gives a value other than the correctly rounded
//! one (tests hold it to lexical on millions of numbers).
//!
//! Why not lexical for everything: a body of floats (the `assert` route's
//! 1,200 coordinates) spends most of its time here. The digits are read
//! eight at a time where eight are digits, a branch the processor
//! predicts, so where the number ends is known before its value is; the
//! value is one correctly rounded multiplication or division where the
//! digits and the power are exact as `f64` (Clinger's fast path), else
//! one 64 × 128-bit product (Eisel and Lemire's): no integer division
//! (bench/README.md has the measurements).

/// `10^k` up to 22: exact as `f64`.
const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
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
        // The sign bit set without a branch (a body's signs are random).
        value: f64::from_bits(value.to_bits() | u64::from(negative) << 63),
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
/// caller declines those), eight at a time while eight are digits, four
/// if four are, then one at a time; how many there were. The checks are
/// branches the processor predicts, so where the number ends does not
/// wait for the arithmetic, and a float's 13 to 17 digits take few
/// single steps (each run of them ends in a mispredicted branch).
#[inline]
fn digits(bytes: &[u8], at: &mut usize, mantissa: &mut u64) -> usize {
    let start = *at;
    while let Some(value) = bytes
        .get(*at..)
        .and_then(|rest| rest.first_chunk::<8>())
        .and_then(eight_digits)
    {
        *mantissa = mantissa.wrapping_mul(100_000_000).wrapping_add(value);
        *at += 8;
    }
    if let Some(value) = bytes
        .get(*at..)
        .and_then(|rest| rest.first_chunk::<4>())
        .and_then(four_digits)
    {
        *mantissa = mantissa.wrapping_mul(10_000).wrapping_add(value);
        *at += 4;
    }
    while let Some(digit @ b'0'..=b'9') = bytes.get(*at) {
        *mantissa = mantissa
            .wrapping_mul(10)
            .wrapping_add(u64::from(digit - b'0'));
        *at += 1;
    }
    *at - start
}

/// The value of `chunk` if all four bytes are decimal digits, as
/// [`eight_digits`] reads eight.
#[inline]
fn four_digits(chunk: &[u8; 4]) -> Option<u64> {
    let word = u32::from_le_bytes(*chunk);
    let less = word.wrapping_sub(0x3030_3030);
    let more = word.wrapping_add(0x4646_4646);
    if (less | more) & 0x8080_8080 != 0 {
        return None;
    }
    let value = less.wrapping_mul(10).wrapping_add(less >> 8);
    let value = (value & 0x00FF) * 100 + ((value >> 16) & 0x00FF);
    Some(u64::from(value))
}

/// The value of `chunk` if all eight bytes are decimal digits: one word's
/// arithmetic, no loop.
#[inline]
fn eight_digits(chunk: &[u8; 8]) -> Option<u64> {
    let word = u64::from_le_bytes(*chunk);
    let less = word.wrapping_sub(0x3030_3030_3030_3030);
    let more = word.wrapping_add(0x4646_4646_4646_4646);
    // A byte's high bit is set where it is below `0` or above `9`.
    if (less | more) & 0x8080_8080_8080_8080 != 0 {
        return None;
    }
    // Pairs, then quads, then all eight, by multiplications whose
    // overflow lands in bytes that are masked off.
    let mut value = less.wrapping_mul(10).wrapping_add(less >> 8);
    value = (value & 0x0000_00FF_0000_00FF)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((value >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32)))
        >> 32;
    Some(value)
}

/// `mantissa × 10^exponent`, correctly rounded: Clinger's fast path where
/// both are exact as `f64`, else [`scaled`]; `None` outside its powers.
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
    scaled(mantissa, exponent)
}

/// The powers of ten [`scaled`] multiplies by.
const LEAST_POWER: i32 = -22;
const GREATEST_POWER: i32 = 22;

/// `5^q` for `q` in `LEAST_POWER..=GREATEST_POWER`, normalised to 128 bits
/// (the highest bit set), as (high word, low word): exact for `q >= 0`
/// (`5^22 < 2^64`), one more than the truncated quotient `2^b / 5^-q`
/// below (Lemire, "Number Parsing at a Gigabyte per Second", section 5).
const POW5: [(u64, u64); 45] = {
    let mut table = [(0, 0); 45];
    let mut q = LEAST_POWER;
    while q <= GREATEST_POWER {
        let five = 5u128.pow(q.unsigned_abs());
        let value = if q >= 0 {
            five << five.leading_zeros()
        } else {
            // The smallest z with 2^z >= 5^-q; 2^(z + 127) / 5^-q is
            // then in [2^127, 2^128).
            let z = 128 - (five - 1).leading_zeros();
            quotient_of_power_of_two(z + 127, five) + 1
        };
        table[(q - LEAST_POWER) as usize] = ((value >> 64) as u64, value as u64);
        q += 1;
    }
    table
};

/// `floor(2^n / divisor)`, for a quotient below 2^128: binary long
/// division, one bit of the quotient per bit of the dividend.
const fn quotient_of_power_of_two(n: u32, divisor: u128) -> u128 {
    let mut quotient = 0u128;
    let mut remainder = 1u128;
    let mut bit = 0;
    while bit < n {
        remainder <<= 1;
        quotient <<= 1;
        if remainder >= divisor {
            remainder -= divisor;
            quotient |= 1;
        }
        bit += 1;
    }
    quotient
}

/// `mantissa × 10^exponent` correctly rounded by Eisel and Lemire's
/// method: one 64 × 128-bit product with a normalised power of five,
/// which for these powers (|exponent| <= 22, within the range where the
/// product decides every rounding) is enough; `None` outside that range.
#[inline]
fn scaled(mantissa: u64, exponent: i32) -> Option<f64> {
    const SIGNIFICAND_BITS: u32 = 52;
    // The significand, one bit to round by, and one the product may lack.
    const PRECISION: u32 = SIGNIFICAND_BITS + 3;
    if mantissa == 0 || !(LEAST_POWER..=GREATEST_POWER).contains(&exponent) {
        return None;
    }
    let shift = mantissa.leading_zeros();
    let normalised = mantissa << shift;
    let (high_five, low_five) = POW5[(exponent - LEAST_POWER) as usize];
    let product = u128::from(normalised) * u128::from(high_five);
    let (mut high, mut low) = ((product >> 64) as u64, product as u64);
    let mask = u64::MAX >> PRECISION;
    if high & mask == mask {
        // The bits below might carry into the ones kept: add them.
        let below = ((u128::from(normalised) * u128::from(low_five)) >> 64) as u64;
        low = low.wrapping_add(below);
        high += u64::from(below > low);
    }
    let top = (high >> 63) as u32;
    let kept = top + 64 - PRECISION;
    let mut significand = high >> kept;
    // Exactly half-way between two floats, the lower one even (possible
    // only where the product is exact, section 6): not rounded up.
    if low <= 1 && exponent >= -4 && significand & 3 == 1 && significand << kept == high {
        significand &= !1;
    }
    // floor(log2(10^exponent)) + 63, exact over this range.
    let power = ((exponent * (152_170 + 65_536)) >> 16) + 63;
    let mut biased = power + top as i32 - shift as i32 + 1023;
    significand += significand & 1;
    significand >>= 1;
    if significand >= 2 << SIGNIFICAND_BITS {
        significand = 1 << SIGNIFICAND_BITS;
        biased += 1;
    }
    significand &= !(1 << SIGNIFICAND_BITS);
    Some(f64::from_bits(
        significand | (biased as u64) << SIGNIFICAND_BITS,
    ))
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

    /// The product with a power of five rounds as lexical does for every
    /// power it covers: 20,000 mantissas of 1 to 19 digits for each (and
    /// the ones around 2^53 and 10^k, where rounding turns).
    #[test]
    fn products_with_powers_of_five_round_as_lexical_does() {
        let mut rng = SmallRng::seed_from_u64(22);
        for exponent in super::LEAST_POWER..=super::GREATEST_POWER {
            let edges = (0..19).flat_map(|k| [10u64.pow(k) - 1, 10u64.pow(k), 10u64.pow(k) + 1]);
            let near =
                ((1u64 << 53) - 2..(1 << 53) + 3).chain([u64::MAX / 2, 9_999_999_999_999_999_999]);
            let random = (0..20_000).map(|_| {
                let digits = rng.random_range(1..=19u32);
                rng.random_range(10u64.pow(digits - 1)..=10u64.pow(digits) - 1)
            });
            for mantissa in edges
                .chain(near)
                .chain(random)
                .filter(|&mantissa| mantissa > 0)
            {
                let text = format!("{mantissa}e{exponent}");
                let value = super::scaled(mantissa, exponent).map(f64::to_bits);
                assert_eq!(value, lexical(&text).map(|read| read.0), "{text}");
            }
        }
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
