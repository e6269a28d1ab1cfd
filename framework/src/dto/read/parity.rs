//! The generated decoders held to the reference decoder: on any bytes,
//! both accept the same value or both refuse. For users' property tests
//! and fuzz targets (and the framework's own).

use std::fmt::Debug;

use rand::{Rng, SeedableRng, rngs::SmallRng};

use super::read_body;
use crate::dto::{Dto, Random, broken::broken_variants, decode::reference};

/// `T`'s generated decoder (`#[dto]`'s one-pass `ReadJson`) and the
/// reference decoder (simd-json under serde, then `is_valid`) give the
/// same verdict on `json`, and the same value when they accept it. A body
/// either refuses goes to the reference decoder for its report, so the
/// refusals (every issue and its path) are the same by construction.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// #[derive(Debug, PartialEq)]
/// struct Point { #[tags(minimum = 0)] x: i32, y: f64 }
///
/// for json in [r#"{"x":1,"y":2.5}"#, r#"{"x":-1,"y":2}"#, r#"{"x":1.0,"y":1e2}"#, r#"[1,2]"#] {
///     framework::testing::check_decoders::<Point>(json.as_bytes()).unwrap();
/// }
/// ```
///
/// # Errors
/// What differs; or that `T` names no generated decoder of its own (a
/// union, which serde reads; or a generic type, whose decoder a route
/// finds where the type is concrete: check it as a field of a concrete
/// type), so there is nothing to compare.
pub fn check_decoders<T: Dto + Debug + PartialEq>(json: &[u8]) -> Result<(), String> {
    let Some(read) = T::json_decoder() else {
        return Err(format!(
            "`{}` has no generated decoder: serde reads it",
            std::any::type_name::<T>()
        ));
    };
    let generated = read_body(json, read).ok();
    let reference = reference::<T>(json).ok().filter(T::is_valid);
    match (&generated, &reference) {
        // Equal, and written alike: `==` cannot tell `-0.0` from `0.0`.
        (Some(ours), Some(theirs)) if ours == theirs && same_json(ours, theirs) => Ok(()),
        (None, None) => Ok(()),
        _ => Err(format!(
            "{}: the generated decoder gives {generated:?}, the reference {reference:?}",
            String::from_utf8_lossy(json)
        )),
    }
}

/// Whether `a` and `b` serialize to the same JSON text, keys sorted (a
/// `HashMap` has no order).
fn same_json<T: Dto>(a: &T, b: &T) -> bool {
    let text = |value: &T| {
        serde_json::to_value(value)
            .map(|json| json.to_string())
            .ok()
    };
    text(a) == text(b)
}

/// [`check_decoders`] where `T` has a generated decoder; nothing to check
/// otherwise.
pub(crate) fn check_if_generated<T: Dto + Debug + PartialEq>(json: &[u8]) -> Result<(), String> {
    match T::json_decoder() {
        Some(_) => check_decoders::<T>(json),
        None => Ok(()),
    }
}

/// [`check_decoders`] on the bodies made from a random `T` drawn from
/// `seed`: its JSON compact and indented, each of its
/// [`broken_variants`], and `mutations` bodies with a byte of the compact
/// JSON replaced, deleted or inserted.
///
/// ```
/// use framework::prelude::*;
///
/// #[dto]
/// #[derive(Debug, PartialEq)]
/// struct Tag { #[tags(min_length = 1, max_length = 8)] name: String, weight: Option<u8> }
///
/// for seed in 0..20 {
///     framework::testing::check_decoders_from_seed::<Tag>(seed, 32).unwrap();
/// }
/// ```
///
/// # Errors
/// The first body on which the decoders differ.
pub fn check_decoders_from_seed<T: Dto + Debug + PartialEq>(
    seed: u64,
    mutations: usize,
) -> Result<(), String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let value = T::random_with(&mut rng);
    let compact = serde_json::to_vec(&value).map_err(|err| err.to_string())?;
    let pretty = serde_json::to_vec_pretty(&value).map_err(|err| err.to_string())?;
    check_decoders::<T>(&compact)?;
    check_decoders::<T>(&pretty)?;
    for case in broken_variants(&value) {
        check_decoders::<T>(case.value.to_string().as_bytes())?;
    }
    for _ in 0..mutations {
        check_decoders::<T>(&mutate(&compact, &mut rng))?;
    }
    Ok(())
}

/// Bytes that change what JSON means where they land.
const MEANINGFUL: &[u8] = b"\"\\{}[],:01-.eE +nt\x00\x1f\xff\xc3a";

/// `json` with one byte replaced, deleted or inserted.
fn mutate(json: &[u8], rng: &mut SmallRng) -> Vec<u8> {
    let mut out = json.to_vec();
    let at = rng.random_range(0..=out.len());
    let byte = MEANINGFUL[rng.random_range(0..MEANINGFUL.len())];
    match rng.random_range(0..3) {
        0 if at < out.len() => out[at] = byte,
        1 if at < out.len() => {
            out.remove(at);
        }
        _ => out.insert(at, byte),
    }
    out
}
